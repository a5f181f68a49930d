"""The case file: one SQLite file per election, its schema, and the audited write path.

Durability: WAL journal, ``synchronous=FULL``, foreign keys on; each user action is one
``BEGIN IMMEDIATE`` transaction that ends with its audit entry, so a crash loses at most the
action in progress. The audit entry carries a digest of the case's state after the action,
which is how ``verify`` finds a change made outside the program.
"""

from __future__ import annotations

import contextlib
import getpass
import hashlib
import json
import shutil
import sqlite3
import struct
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from recount_desk.core.audit import AuditEntry, canonical_json, make_entry

from .blobs import int64_bytes, int_values
from .migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

SQLITE_MAGIC = b"SQLite format 3\x00"
# Tables whose content is covered by the per-action state digest. The canvass votes are
# covered by the import's own digest (they are large and change only on import).
# ("canvass_vote" held the votes one row per count up to case format 2.)
BULK_TABLES = ("canvass_column", "canvass_extra", "canvass_vote")


class CaseFileError(Exception):
    """A case file that cannot be opened; the message is for the user."""


class OlderCaseFile(CaseFileError):
    """A file written by an older version, opened where it cannot be upgraded."""


class ReadOnlyCase(CaseFileError):
    """The case is open read-only (locked, second instance, or read-only media)."""


def actor_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # getuser raises various errors when no login name exists
        return "unknown"


class _Clock:
    """Where record times come from: the real clock, or a replayed one for the demo."""

    def __init__(self) -> None:
        self.at: datetime | None = None

    def now(self) -> datetime:
        if self.at is None:
            return datetime.now(UTC)
        self.at += timedelta(minutes=2)  # a replayed clock moves on with each action
        return self.at


_clock = _Clock()


def utc_now() -> str:
    return _clock.now().isoformat(timespec="microseconds")


@contextmanager
def replayed_clock() -> Iterator[Callable[[datetime], None]]:
    """Record times from a replayed clock (the demo election, built today, is dated 2018).

    The yielded function sets the clock to a UTC time; every later record time moves on two
    minutes from there. Leaving the block restores the real clock.
    """
    def set_to(at: datetime) -> None:
        _clock.at = at.astimezone(UTC)

    try:
        yield set_to
    finally:
        _clock.at = None


class CaseConnection(sqlite3.Connection):
    """A connection to a case file. ``after_commit`` (if set) is called with each audit
    entry just before its action commits (``committed`` False) and once it has (True): it
    keeps the chain's head outside the file. ``writer`` names the workstation in entries."""

    after_commit: Callable[[AuditEntry, bool], None] | None = None
    writer: str | None = None


def _connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        uri = path.resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10,
                               factory=CaseConnection)
    else:
        conn = sqlite3.connect(str(path), isolation_level=None, timeout=10,
                               factory=CaseConnection)
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=10000")
    if not readonly:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
    return conn


def create(path: Path) -> sqlite3.Connection:
    """A new case file at ``path`` (which must not exist), with its schema written in an
    open transaction: the caller's first audited action commits it, so a crash before that
    leaves a file that is refused as "not a case file", never a case without its first entry.
    """
    path = Path(path)
    if path.exists():
        raise CaseFileError(f"{path.name} already exists; choose another name.")
    try:
        conn = _connect(path)
    except sqlite3.Error as e:
        raise CaseFileError(f"Cannot create {path.name}: {e}.") from e
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    for step in MIGRATIONS:
        _apply(conn, step)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    conn.execute("INSERT INTO meta(key, value) VALUES ('created_at', ?)", (utc_now(),))
    # The case's identity (backups and the chain's head kept outside are filed under it).
    conn.execute("INSERT INTO meta(key, value) VALUES ('case_id', ?)", (uuid.uuid4().hex,))
    return conn


def _apply(conn: sqlite3.Connection, step: str | Callable[[sqlite3.Connection], None]
           ) -> None:
    """Run one migration: an SQL script, or a function for one that moves data."""
    if callable(step):
        step(conn)
        return
    for stmt in _statements(step):
        conn.execute(stmt)


def _statements(script: str) -> list[str]:
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def open_case(path: Path, *, readonly: bool = False, migrate: bool = True) -> sqlite3.Connection:
    """Open an existing case file, refusing anything that is not a sound case file.

    A file written by an older version is migrated after a backup copy is made beside it.
    """
    path = Path(path)
    if not path.exists():
        if path.is_symlink():
            raise CaseFileError(f"{path.name} is a symbolic link to nothing (or a loop of "
                                "links), not a case file.")
        raise CaseFileError(f"{path.name} does not exist.")
    if not path.is_file():  # a FIFO would block the read below forever
        raise CaseFileError(f"{path.name} is not a case file: it is a folder, a pipe or a "
                            "device, not a regular file.")
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise CaseFileError(f"{path.name} cannot be read: {e.strerror}.") from e
    if not head.startswith(SQLITE_MAGIC):
        raise CaseFileError(f"{path.name} is not a Recount Desk case file.")
    try:
        conn = _connect(path, readonly=readonly)
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise CaseFileError(f"{path.name} is damaged and cannot be opened ({e}).") from e
    if app != APPLICATION_ID:
        conn.close()
        raise CaseFileError(f"{path.name} is an SQLite database but not a Recount Desk case "
                            "file.")
    if version > SCHEMA_VERSION:
        conn.close()
        raise CaseFileError(f"{path.name} was written by a newer version of Recount Desk "
                            f"(case format {version}; this version reads up to "
                            f"{SCHEMA_VERSION}). Install the newer version to open it.")
    try:
        ok = conn.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as e:
        conn.close()
        raise CaseFileError(f"{path.name} is damaged and cannot be opened ({e}).") from e
    if ok != "ok":
        conn.close()
        raise CaseFileError(f"{path.name} is damaged: {ok}. Restore a backup copy.")
    if version < SCHEMA_VERSION:
        if readonly or not migrate:
            conn.close()
            raise OlderCaseFile(f"{path.name} was written by an older version and must be "
                                "upgraded first: open it once in the Recount Desk window (or "
                                f"run: recount-desk election \"{path}\"), which keeps a "
                                "backup copy of it as it was.")
        conn.close()
        backup = path.with_name(f"{path.stem}.v{version}-backup{path.suffix}")
        shutil.copy2(path, backup)
        conn = _connect(path)
        # One transaction: the upgrade and its audit entry land together or not at all. The
        # data is checked against the log first, by the old rules: an edit made outside the
        # program before the upgrade stays on record (verify reports it), never blessed.
        conn.execute("BEGIN IMMEDIATE")
        matched = _state_matches_log(conn, version)
        for step in MIGRATIONS[version:]:
            _apply(conn, step)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        with transaction(conn, "recount-desk", "migrate case file") as payload:
            payload.update({"from_version": version, "to_version": SCHEMA_VERSION,
                            "backup": backup.name, "data_matched_log": matched})
    return conn


def last_entry(conn: sqlite3.Connection) -> AuditEntry | None:
    row = conn.execute("SELECT seq, at, actor, action, payload, prev_hash, hash FROM audit "
                       "ORDER BY seq DESC LIMIT 1").fetchone()
    return AuditEntry(*row) if row else None


def audit_entries(conn: sqlite3.Connection) -> Iterator[AuditEntry]:
    for row in conn.execute("SELECT seq, at, actor, action, payload, prev_hash, hash FROM audit "
                            "ORDER BY seq"):
        yield AuditEntry(*row)


def state_digest(conn: sqlite3.Connection, *, per_row: bool = False) -> str:
    """SHA-256 over every table except the audit log and the bulk canvass tables.

    ``per_row``: the way case formats 1 and 2 hashed it (each row apart), to check such a
    file against its log before it is upgraded."""
    h = hashlib.sha256()
    tables = [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    for t in tables:
        if t in ("audit", *BULK_TABLES):
            continue
        h.update(f"\x1e{t}\x1d".encode())
        cols = [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')]
        order = ", ".join(f'"{c}"' for c in cols)
        rows = conn.execute(f'SELECT * FROM "{t}" ORDER BY {order}').fetchall()
        if per_row:
            for row in rows:
                h.update(canonical_json(list(row)).encode("utf-8"))
                h.update(b"\n")
        else:  # the whole table as one JSON list of rows (case format 3)
            h.update(canonical_json(rows).encode("utf-8"))
    return h.hexdigest()


def _state_matches_log(conn: sqlite3.Connection, version: int) -> bool:
    """Whether the data is as the newest audit entry recorded it, by the file's own rules."""
    last = last_entry(conn)
    if last is None:
        return True
    recorded = json.loads(last.payload).get("state")
    return bool(recorded == state_digest(conn, per_row=version < 3))


def canvass_digest(columns: Sequence[tuple[int, int, bytes, bytes]],
                   extras: Sequence[tuple[int, int, str, int]]) -> str:
    """SHA-256 of the canvass as stored: for each choice in id order, its id, width and row
    count (64-bit little-endian) and its two blobs; then the extras rows as JSON.

    ``columns`` are (choice id, width, precinct blob, votes blob) in choice id order.
    """
    h = hashlib.sha256()
    for cid, width, precincts, votes in columns:
        h.update(struct.pack("<qqq", cid, width, len(votes) // width))
        h.update(precincts)
        h.update(votes)
    _hash_extras(h, extras)
    return h.hexdigest()


def canvass_digest_v2(columns: Sequence[tuple[int, int, bytes, bytes]],
                      extras: Sequence[tuple[int, int, str, int]]) -> str:
    """The digest of case format 2 (one row per count): every count's choice id, then every
    precinct id, then every vote, as 64-bit integers; then the extras rows as JSON."""
    h = hashlib.sha256()
    for cid, width, _, votes in columns:
        h.update(int64_bytes([cid]) * (len(votes) // width))
    for _, width, precincts, _ in columns:
        h.update(int64_bytes(int_values(precincts, width)))
    for _, width, _, votes in columns:
        h.update(int64_bytes(int_values(votes, width)))
    _hash_extras(h, extras)
    return h.hexdigest()


def _hash_extras(h: Any, extras: Sequence[tuple[int, int, str, int]]) -> None:
    for row in extras:
        h.update(canonical_json(list(row)).encode("utf-8"))


def stored_canvass_digest(conn: sqlite3.Connection) -> str:
    """The digest of the canvass in the case, computed the way its import recorded it."""
    row = conn.execute("SELECT digest_scheme FROM canvass_import ORDER BY id DESC "
                       "LIMIT 1").fetchone()
    columns = conn.execute("SELECT choice_id, width, precincts, votes FROM canvass_column "
                           "ORDER BY choice_id").fetchall()
    extras = [tuple(r) for r in conn.execute(
        "SELECT contest_id, precinct_id, kind, votes FROM canvass_extra "
        "ORDER BY contest_id, precinct_id, kind")]
    if row is not None and row[0] == 2:
        return canvass_digest_v2(columns, extras)
    return canvass_digest(columns, extras)


def _after_commit(conn: sqlite3.Connection, entry: AuditEntry, *, committed: bool) -> None:
    """Tell the connection's owner the action is about to be, or is, saved; the head kept
    outside is a second witness, whose failure neither stops nor undoes the action."""
    hook = getattr(conn, "after_commit", None)
    if hook is not None:
        with contextlib.suppress(OSError):
            hook(entry, committed)


@contextmanager
def transaction(conn: sqlite3.Connection, actor: str, action: str) -> Iterator[dict[str, Any]]:
    """One user action: BEGIN IMMEDIATE … audit entry … COMMIT, or ROLLBACK on any error.

    The caller fills the yielded dict with what the action did; it becomes the audit payload.
    """
    try:
        if not conn.in_transaction:  # a new file's schema is already in its first transaction
            conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        if "readonly" in str(e) or "read-only" in str(e):
            raise ReadOnlyCase("The case file is read-only; nothing was changed.") from e
        raise
    payload: dict[str, Any] = {}
    try:
        yield payload
        prev = last_entry(conn)
        body = {"data": payload, "state": state_digest(conn)}
        writer = getattr(conn, "writer", None)
        if writer:  # which workstation wrote it (store/anchor.py)
            body["writer"] = writer
        e = make_entry(prev, utc_now(), actor, action, body)
        conn.execute("INSERT INTO audit(seq, at, actor, action, payload, prev_hash, hash) "
                     "VALUES (?,?,?,?,?,?,?)",
                     (e.seq, e.at, e.actor, e.action, e.payload, e.prev_hash, e.hash))
        _after_commit(conn, e, committed=False)
        conn.execute("COMMIT")
        _after_commit(conn, e, committed=True)
    except sqlite3.OperationalError as e:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        text = str(e).lower()
        if "readonly" in text or "read-only" in text:
            raise ReadOnlyCase("The case file is open read-only; nothing was changed.") from e
        if "disk is full" in text or "disk i/o" in text:
            raise CaseFileError("The disk is full or failing: this action was NOT saved and "
                                "the case is as it was. Free some space (or use another "
                                "disk) and do it again.") from e
        raise
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
