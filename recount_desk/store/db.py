"""The case file: one SQLite file per election, its schema, and the audited write path.

Durability: WAL journal, ``synchronous=FULL``, foreign keys on; each user action is one
``BEGIN IMMEDIATE`` transaction that ends with its audit entry, so a crash loses at most the
action in progress. The audit entry carries a digest of the case's state after the action,
which is how ``verify`` finds a change made outside the program.

Check before write: a transaction first checks the case against its last audit entry and
refuses (``CaseChangedOutside``) when they differ, so an outside edit is never absorbed by
the next action. The connection is ``query_only`` outside ``transaction()``: a write that
does not go through it (and so would have no audit entry) fails.
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from recount_desk.core.audit import (
    AcceptedChange,
    AuditEntry,
    canonical_json,
    make_entry,
    verify_chain,
)

from . import checked, pg
from . import digest as rows_digest
from .blobs import int64_bytes, int_values
from .migrations import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from .schema import missing_tables, schema_problems

SQLITE_MAGIC = b"SQLite format 3\x00"
# Tables whose content is covered by the per-action state digest. The canvass votes are
# covered by the import's own digest (they are large and change only on import).
# ("canvass_vote" held the votes one row per count up to case format 2.)
BULK_TABLES = ("canvass_column", "canvass_extra", "canvass_vote")
# From this case format on the state digest is the sum of the rows' hashes, kept row by row
# (store/digest.py); before it, one SHA-256 over each whole table (formats 3-7) or over each
# row in turn (formats 1-2).
ROWS_FORMAT = 8


class CaseFileError(Exception):
    """A case file that cannot be opened; the message is for the user."""


class ServerUnavailable(CaseFileError, sqlite3.OperationalError):
    """The counting-center server cannot be reached, or the connection to it was lost: the
    action was not saved (or, lost during its commit, may not have been). An
    ``OperationalError`` too, so the transaction treats it as the database failing."""


class OlderCaseFile(CaseFileError):
    """A file written by an older version, opened where it cannot be upgraded."""


class ReadOnlyCase(CaseFileError):
    """The case is open read-only (locked, second instance, or read-only media)."""


class CaseChangedOutside(CaseFileError):
    """The case no longer matches its last audit entry: it was changed outside Recount Desk.

    ``differences`` names what differs. Nothing is written until the officer restores a
    backup or records that the file is accepted as it is (with a reason)."""

    def __init__(self, differences: Sequence[str]) -> None:
        self.differences = list(differences)
        super().__init__(
            "This case file was changed outside Recount Desk: " + "; ".join(self.differences)
            + ". Nothing was changed. Restore a backup (File › Restore a backup…), or accept "
            "the file as it is, with a reason that the audit log and the report will show.")


class CaseConnection(sqlite3.Connection):
    """A case file's connection. ``verified`` is (``PRAGMA data_version``, hash of the last
    audit entry) at the time the data was last known to match the log: while neither has
    moved (no other connection wrote the file) the check before a write costs two queries."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.verified: tuple[int, str] | None = None
        # Called with each audit entry just before its action commits (False) and once it
        # has (True): it keeps the chain's head outside the file (store/anchor.py).
        self.after_commit: Callable[[AuditEntry, bool], None] | None = None
        self.writer: str | None = None  # the workstation named in each entry it writes
        # The per-table row sums of the state as of the audit entry whose hash is beside
        # them (store/digest.py), and what the running action changes in them.
        self.sums: tuple[str, dict[str, int]] | None = None
        self.row_changes = rows_digest.RowChanges()
        self.triggers_for: tuple[int, tuple[str, ...]] | None = None
        self.watched: frozenset[str] = frozenset()  # the tables the triggers watch
        # The tables no trigger watches that held more than WATCH_FROM rows at this
        # connection's last save, as its sums found them (None: not known, then asked).
        self.grown: set[str] | None = None
        # Every table's columns, as of the schema version beside them (digest.table_columns).
        self.columns_for: tuple[int, dict[str, list[str]]] | None = None
        # Where the checks of this case's images are remembered (store/checked.py), if
        # anywhere: the data folder's, set by the program for a case it opens to write.
        self.checked_in: Path | None = None
        self.create_function(rows_digest.FUNCTION, -1, self.row_changes)


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


def _connect(path: Path, readonly: bool = False) -> CaseConnection:
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
    _writable(conn, False)
    return conn


def _writable(conn: sqlite3.Connection, on: bool) -> None:
    """Writes are possible only inside ``transaction()`` (or a migration). (On a server the
    session's transactions are read-only by default: store/pg.py.)"""
    if pg.is_pg(conn):
        return
    conn.execute(f"PRAGMA query_only={'OFF' if on else 'ON'}")


def create(path: Path | str | pg.CaseURL) -> CaseConnection:
    """A new case file at ``path`` (which must not exist), with its schema written in an
    open transaction: the caller's first audited action commits it, so a crash before that
    leaves a file that is refused as "not a case file", never a case without its first entry.

    ``path`` may be a ``postgresql://`` URL: the case is made in that (empty) database on a
    counting-center server (store/pg.py).
    """
    if isinstance(path, pg.CaseURL) or pg.is_url(path):
        # (duck-typed: the store uses only what both engines' connections have)
        return cast(CaseConnection, pg.create(str(path) if isinstance(path, Path) else path))
    path = Path(path)
    if path.exists():
        raise CaseFileError(f"{path.name} already exists; choose another name.")
    try:
        conn = _connect(path)
    except sqlite3.Error as e:
        raise CaseFileError(f"Cannot create {path.name}: {e}.") from e
    _writable(conn, True)
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


def open_case(path: Path | str | pg.CaseURL, *, readonly: bool = False, migrate: bool = True
              ) -> CaseConnection:
    """Open an existing case file, refusing anything that is not a sound case file.

    A file written by an older version is migrated after a backup copy is made beside it.
    ``path`` may be a ``postgresql://`` URL of a case on a counting-center server.
    """
    if isinstance(path, pg.CaseURL) or pg.is_url(path):
        return cast(CaseConnection, pg.open_case(
            str(path) if isinstance(path, Path) else path, readonly=readonly))
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
        if not _on_read_only_media(path):
            raise CaseFileError(f"{path.name} is damaged and cannot be opened ({e}).") from e
        conn, app, version = _open_on_read_only_media(path, e)
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
    if version == SCHEMA_VERSION:
        missing = missing_tables(conn)
        if missing:
            conn.close()
            raise CaseFileError(f"{path.name} is damaged: its table(s) {', '.join(missing)} "
                                "are missing (removed outside Recount Desk). Restore a backup "
                                "copy.")
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
        _writable(conn, True)
        # One transaction: the upgrade and its audit entry land together or not at all. The
        # data is checked against the log first, by the old rules: an edit made outside the
        # program before the upgrade stays on record (verify reports it), never blessed.
        conn.execute("BEGIN IMMEDIATE")
        matched = _state_matches_log(conn, version)
        for step in MIGRATIONS[version:]:
            _apply(conn, step)
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        with transaction(conn, "recount-desk", "migrate case file", _migrating=True) as tx:
            tx.update({"from_version": version, "to_version": SCHEMA_VERSION,
                            "backup": backup.name, "data_matched_log": matched})
    if not readonly:
        # The triggers that report the rows each action changes are made now, not by the
        # first action (a countywide recount's first save paid ~1 ms for them); if they
        # cannot be (media that turned out read-only), the first action tries again.
        with contextlib.suppress(sqlite3.Error):
            _watch_now(conn)
    return conn


def _on_read_only_media(path: Path) -> bool:
    """Whether the case's folder cannot be written (SQLite's WAL needs its -shm beside it)."""
    import os

    return not os.access(path.parent, os.W_OK) or not os.access(path, os.W_OK)


def _open_on_read_only_media(path: Path, e: sqlite3.DatabaseError
                             ) -> tuple[CaseConnection, int, int]:
    """A case on read-only media (a write-protected stick, a CD): read as immutable when it
    was closed cleanly (no write-ahead log left), else say why it cannot be read there."""
    wal = Path(str(path) + "-wal")
    if wal.exists() and wal.stat().st_size > 0:
        raise CaseFileError(f"{path.name} is on read-only media and was not closed cleanly "
                            "(its -wal file holds changes SQLite must write back first): copy "
                            "the case and its -wal file to a writable folder and open that "
                            "copy.") from e
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro&immutable=1", uri=True,
                               isolation_level=None, factory=CaseConnection)
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e2:
        raise CaseFileError(f"{path.name} is on read-only media and cannot be read there "
                            f"({e2}): copy it to a writable folder and open that copy.") from e2
    conn.execute("PRAGMA query_only=ON")
    return conn, app, version


def integrity_check(conn: sqlite3.Connection) -> str:
    """SQLite's integrity check of the file ("ok" when sound). A server checks its own
    storage (its pages' checksums, its write-ahead log): a case there answers "ok" here and
    is checked against its audit log like any case."""
    if pg.is_pg(conn):
        return "ok"
    return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def last_entry(conn: sqlite3.Connection) -> AuditEntry | None:
    row = conn.execute("SELECT seq, at, actor, action, payload, prev_hash, hash FROM audit "
                       "ORDER BY seq DESC LIMIT 1").fetchone()
    return AuditEntry(*row) if row else None


def last_hash(conn: sqlite3.Connection) -> str | None:
    """The newest audit entry's hash: what a view made of the case is tied to (read alone,
    not with the entry's payload, some hundred kB after a recount is started)."""
    row = conn.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
    return str(row[0]) if row else None


def audit_entries(conn: sqlite3.Connection) -> Iterator[AuditEntry]:
    for row in conn.execute("SELECT seq, at, actor, action, payload, prev_hash, hash FROM audit "
                            "ORDER BY seq"):
        yield AuditEntry(*row)


def accepted_changes(conn: sqlite3.Connection) -> list[AcceptedChange]:
    """Every "accept the file as it is" in the audit log, oldest first."""
    out = []
    for seq, at, actor, payload in conn.execute(
            "SELECT seq, at, actor, payload FROM audit WHERE action=? ORDER BY seq",
            (ACCEPT_ACTION,)):
        body = json.loads(payload)
        data = body.get("data", {})
        out.append(AcceptedChange(seq, at, actor, str(body.get("login", "")),
                                  str(data.get("reason", "")),
                                  tuple(str(d) for d in data.get("differences", ()))))
    return out


def state_digest(conn: sqlite3.Connection, *, per_row: bool = False) -> str:
    """The digest of the case's state (every table except the audit log and the bulk
    canvass tables), computed from its rows the way the file's case format does.

    ``per_row``: the way case formats 1 and 2 hashed it (each row apart), to check such a
    file against its log before it is upgraded."""
    if per_row:
        return state_parts(conn, per_row=True)[0]
    return current_parts(conn)[0]


def case_format(conn: sqlite3.Connection) -> int:
    if pg.is_pg(conn):
        return pg.schema_version(conn)  # type: ignore[arg-type]
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _digested_tables(conn: sqlite3.Connection) -> list[str]:
    names = pg.tables(conn) if pg.is_pg(conn) else [r[0] for r in conn.execute(  # type: ignore[arg-type]
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    return [t for t in names if t not in ("audit", *BULK_TABLES)]


def row_sums(conn: sqlite3.Connection) -> dict[str, int]:
    """Every covered table's sum of row hashes, from all its rows (store/digest.py); a
    table digested whole (case format 9) has its whole-table digest there instead."""
    out = {}
    whole = rows_digest.whole_tables(case_format(conn))
    tables = _digested_tables(conn)
    server = pg.is_pg(conn)
    # (a file's empty tables, most of them before a recount, found in one statement:
    # their sum is that of no rows)
    filled = None if server else _filled(conn, [t for t in tables if t not in whole])
    columns = None if server else _table_columns(conn)
    for t in tables:
        if t in whole:
            out[t] = _whole_value(conn, t, columns)
            continue
        if filled is not None and t not in filled:
            out[t] = rows_digest.table_sum(t, ())
            continue
        rows = pg.all_rows(conn, t) if server else conn.execute(  # type: ignore[arg-type]
            f'SELECT * FROM "{t}"')
        out[t] = rows_digest.table_sum(t, rows)
    return out


def _table_columns(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """Every table's columns (SQLite), read once per schema version of the connection."""
    version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
    got = getattr(conn, "columns_for", None)
    if got is not None and got[0] == version:
        return cast(dict[str, list[str]], got[1])
    columns = rows_digest.table_columns(conn)
    if isinstance(conn, CaseConnection):
        conn.columns_for = (version, columns)
    return columns


# A table holding more rows than this is watched by the connection's triggers from its
# next action on (``_watch_rows``); a smaller one is summed from its rows at each save.
WATCH_FROM = 32


def _holding_more(conn: sqlite3.Connection, tables: Sequence[str], n: int) -> set[str]:
    """Those of ``tables`` that hold more than ``n`` rows (SQLite; at most n + 1 read)."""
    if not tables:
        return set()
    parts = " UNION ALL ".join(
        f'SELECT {i} WHERE EXISTS (SELECT 1 FROM "{t}" LIMIT 1 OFFSET {n})'
        for i, t in enumerate(tables))
    return {tables[i] for (i,) in conn.execute(parts)}


def _columns_of(conn: sqlite3.Connection, tables: Iterable[str]) -> dict[str, list[str]]:
    """The columns of ``tables`` (SQLite): of every table, if the connection has them for
    this schema, else of these alone."""
    version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
    got = getattr(conn, "columns_for", None)
    if got is not None and got[0] == version:
        return cast(dict[str, list[str]], got[1])
    return {t: [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')] for t in tables}


def _filled(conn: sqlite3.Connection, tables: Sequence[str]) -> set[str]:
    """Those of ``tables`` that hold a row (SQLite)."""
    if not tables:
        return set()
    parts = " UNION ALL ".join(
        f"SELECT {i} WHERE EXISTS (SELECT 1 FROM \"{t}\")" for i, t in enumerate(tables))
    return {tables[i] for (i,) in conn.execute(parts)}


def _ordered_rows(conn: sqlite3.Connection, t: str,
                  columns: dict[str, list[str]] | None = None) -> list[Any]:
    """A table's rows in the order of their values, column by column (on a server: the
    same rows in the same order, text byte by byte, NULL first). ``columns``: every
    table's columns, when the caller has them (``digest.table_columns``)."""
    if pg.is_pg(conn):
        return list(pg.table_rows(conn, t))  # type: ignore[arg-type]
    cols = columns[t] if columns is not None and t in columns else \
        [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')]
    order = ", ".join(f'"{c}"' for c in cols)
    return conn.execute(f'SELECT * FROM "{t}" ORDER BY {order}').fetchall()


def _whole_value(conn: sqlite3.Connection, t: str,
                 columns: dict[str, list[str]] | None = None) -> int:
    if pg.is_pg(conn):
        return rows_digest.whole_value(t, _ordered_rows(conn, t))
    cols = columns[t] if columns is not None and t in columns else \
        [r[1] for r in conn.execute(f'PRAGMA table_info("{t}")')]
    order = ", ".join(f'"{c}"' for c in cols)
    cur = conn.execute(f'SELECT * FROM "{t}" ORDER BY {order}')
    return rows_digest.whole_value_chunks(t, iter(lambda: cur.fetchmany(500), []))


def _from_sums(sums: dict[str, int]) -> tuple[str, dict[str, str]]:
    parts = {t: rows_digest.part(t, v) for t, v in sums.items()}
    return rows_digest.combine(parts), parts


def current_parts(conn: sqlite3.Connection) -> tuple[str, dict[str, str]]:
    """The state digest and the per-table digests, by the file's case format, from every
    row (what ``verify`` compares with the last audit entry)."""
    if case_format(conn) >= ROWS_FORMAT:
        return _from_sums(row_sums(conn))
    return state_parts(conn)


def state_parts(conn: sqlite3.Connection, *, per_row: bool = False
                ) -> tuple[str, dict[str, str]]:
    """The state digest of case formats 1-7 and, beside it, one digest per table it covers
    (the audit entry keeps both, so a mismatch can name the tables that changed)."""
    h = hashlib.sha256()
    parts: dict[str, str] = {}
    server = pg.is_pg(conn)
    tables = pg.tables(conn) if server else [r[0] for r in conn.execute(  # type: ignore[arg-type]
        "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    for t in tables:
        if t in ("audit", *BULK_TABLES):
            continue
        h.update(f"\x1e{t}\x1d".encode())
        part = hashlib.sha256()
        rows = _ordered_rows(conn, t)
        if per_row:
            for row in rows:
                data = canonical_json(list(row)).encode("utf-8") + b"\n"
                h.update(data)
                part.update(data)
        else:  # the whole table as one JSON list of rows (case format 3)
            data = canonical_json(rows).encode("utf-8")
            h.update(data)
            part.update(data)
        parts[t] = part.hexdigest()
    return h.hexdigest(), parts


# What the tables hold, in the words a clerk uses (for "what differs").
TABLE_WORDS = {
    "meta": "the file's own details", "election": "the election's details",
    "canvass_import": "the canvass import record", "import_issue": "the import's findings",
    "precinct": "the precincts", "contest": "the contests", "choice": "the candidates",
    "recount_request": "the recount requests", "request_voter": "the requesting voters",
    "recount": "the recount settings", "recount_unit": "the recount units",
    "unit_precinct": "the units' precincts", "tally_entry": "the tally entries",
    "tally_vote": "the tallied votes", "tally_resolution": "the double-entry resolutions",
    "resolution_vote": "the resolved votes", "witness": "the witnesses",
    "envelope": "the absentee envelopes", "envelope_check": "the envelope checks",
    "envelope_decision": "the envelope decisions", "envelope_vote": "the envelopes' votes",
    "declaration": "the declaration", "lot": "the lot drawn", "cost_item": "the costs",
    "board_member": "the board members", "board_convening": "the board's convening",
    "recount_signing": "the signatures", "recount_reopen": "the reopenings",
    "person": "the roster of people", "retab_load": "the re-tabulation loads",
    "retab_tally": "the loaded tallies", "retab_set_aside": "the loaded units set aside",
}


def differences(conn: sqlite3.Connection) -> list[str]:
    """What differs between the case and its audit log, in words, the first broken link
    first; empty when the data is as the last entry recorded it. Reads everything (the
    chain, the state, the canvass): used when the cheap check cannot vouch for the file."""
    problems: list[str] = []
    if pg.is_pg(conn):  # the server's schema, its guards among it
        problems += pg.schema_problems(conn)  # type: ignore[arg-type]
        return problems + _log_problems(conn)
    version = int(conn.execute("PRAGMA data_version").fetchone()[0])
    problems = _file_differences(conn)
    if not problems and isinstance(conn, CaseConnection) and \
            int(conn.execute("PRAGMA data_version").fetchone()[0]) == version:
        # nobody wrote the file while it was read: the next action's check is cheap
        head = conn.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
        if head is not None and conn.sums is not None and conn.sums[0] == head[0]:
            conn.verified = (version, head[0])
    return problems


def _file_differences(conn: sqlite3.Connection) -> list[str]:
    problems: list[str] = []
    triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    missing = sorted({"audit_no_update", "audit_no_delete"} - triggers)
    if missing:
        problems.append("the audit log's append-only guard was removed outside Recount Desk "
                        f"(trigger {', '.join(missing)} is missing)")
    # The schema is part of the checked state: a planted trigger (AFTER INSERT … SET votes =
    # votes + 50) changes what is stored without any row the digests see.
    problems += schema_problems(conn, int(conn.execute("PRAGMA user_version").fetchone()[0]))
    return problems + _log_problems(conn)


def recorded_state(payload: str) -> tuple[Any, Any]:
    """(``state``, ``tables``) of an audit entry's payload: what ``json.loads(payload)``
    gives for them, read from the payload's end.

    A payload is a JSON object whose keys come sorted (``data``, ``login``, ``state``,
    ``tables``, ``writer``), and the ``data`` of some actions is large (starting a
    countywide recount lists its thousands of units): decoding all of it, for the two
    small values at its end, cost the first save after opening a case a few milliseconds.
    ``,"state":`` cannot occur inside a JSON string (a quote in one is escaped), so its
    last occurrence is a key; the text from there, made an object, decodes to exactly
    the top-level keys after it only when that key is the top level's (deeper, the text
    closes more than one object and does not decode). Anything else is decoded whole.
    """
    at = payload.rfind(',"state":')
    if at > 0:
        try:
            tail = json.loads("{" + payload[at + 1:])
        except ValueError:
            tail = None
        if isinstance(tail, dict) and set(tail) <= {"state", "tables", "writer"}:
            return tail.get("state"), tail.get("tables")
    body = json.loads(payload)
    if not isinstance(body, dict):
        return None, None
    return body.get("state"), body.get("tables")


def _log_problems(conn: sqlite3.Connection) -> list[str]:
    """The chain, the data against its last entry, the canvass against its digest."""
    problems: list[str] = []
    entries = list(audit_entries(conn))
    brk = verify_chain(entries)
    if brk is not None:
        problems.append(f"audit entry {brk.seq} is broken: {brk.reason}")
        return problems
    if not entries:
        problems.append("the audit log is empty")
        return problems
    last = entries[-1]
    state, recorded = recorded_state(last.payload)
    if case_format(conn) >= ROWS_FORMAT:
        if not conn.in_transaction and isinstance(conn, CaseConnection):
            # watch the rows from now on, so that the sums below stay those the next
            # action adds its rows to (installing the triggers later would drop them);
            # the triggers are the connection's own (temp schema), never the file's
            _watch_now(conn)
        sums = row_sums(conn)
        digest, parts = _from_sums(sums)
        if state == digest and isinstance(conn, CaseConnection):
            conn.sums = (last.hash, sums)  # the next action adds its rows to these
        elif state == digest and pg.is_pg(conn):
            conn.sums, conn.sums_seq = (last.hash, sums), last.seq  # type: ignore[attr-defined]
    else:
        digest, parts = state_parts(conn)
    if state != digest:
        where = ""
        if isinstance(recorded, dict):
            changed = sorted(t for t in set(recorded) | set(parts)
                             if recorded.get(t) != parts.get(t))
            if changed:
                where = ": " + ", ".join(TABLE_WORDS.get(t, t) for t in changed) + " differ"
        problems.append("the case data was changed outside Recount Desk after audit entry "
                        f"{last.seq} ({last.action}){where}")
    if conn.execute("SELECT EXISTS (SELECT 1 FROM canvass_import)").fetchone()[0]:
        imp_digest = conn.execute("SELECT digest FROM canvass_import ORDER BY id DESC "
                                  "LIMIT 1").fetchone()[0]
        recorded_canvass = [json.loads(e.payload)["data"].get("canvass_digest")
                            for e in entries if e.action in ("import canvass", ACCEPT_ACTION)]
        recorded_canvass = [d for d in recorded_canvass if d]
        actual = stored_canvass_digest(conn)
        if actual != imp_digest or (recorded_canvass and recorded_canvass[-1] != actual):
            problems.append("the canvass votes were changed outside Recount Desk (they no "
                            "longer match the digest recorded at import)")
    return problems


def _state_matches_log(conn: sqlite3.Connection, version: int) -> bool:
    """Whether the data is as the newest audit entry recorded it, by the file's own rules."""
    last = last_entry(conn)
    if last is None:
        return True
    recorded = json.loads(last.payload).get("state")
    if version >= ROWS_FORMAT:
        return bool(recorded == _from_sums(row_sums(conn))[0])
    return bool(recorded == state_parts(conn, per_row=version < 3)[0])


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


ACCEPT_ACTION = "accept the file as it is"


def _after_commit(conn: sqlite3.Connection, entry: AuditEntry, *, committed: bool) -> None:
    """Tell the connection's owner the action is about to be, or is, saved; the head kept
    outside is a second witness, whose failure neither stops nor undoes the action."""
    hook = getattr(conn, "after_commit", None)
    if hook is not None:
        with contextlib.suppress(OSError):
            hook(entry, committed)


class Tx:
    """An open transaction: the only handle the store's write functions take, so nothing can
    be written without the audit entry that closes it. ``update``/``[]`` fill the entry's
    payload with what the action did."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.payload: dict[str, Any] = {}

    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, args)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        return self.conn.executemany(sql, rows)

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.payload.update(*args, **kwargs)

    def __setitem__(self, key: str, value: Any) -> None:
        self.payload[key] = value

    def __getitem__(self, key: str) -> Any:
        return self.payload[key]


def _watch_rows(conn: sqlite3.Connection) -> None:
    """Make sure this connection's temporary triggers report every row change of the
    current schema's tables that hold rows (store/digest.py); made again when a migration
    changed a table, and added for a table once it holds rows.

    A table of a few rows (``WATCH_FROM``), or still empty, is watched by no trigger
    (three each, a hundred for a case: the first save after opening paid some 5 ms for
    them): its sum is computed from its rows at the save (``_running_sums``), a few rows
    and those of that one action."""
    if not isinstance(conn, CaseConnection) or case_format(conn) < ROWS_FORMAT:
        return
    version = int(conn.execute("PRAGMA schema_version").fetchone()[0])
    # (the tables change only with the schema's version: the schema is not read again)
    known = conn.triggers_for
    key = known if known is not None and known[0] == version else \
        (version, tuple(_digested_tables(conn)))
    conn.row_changes.whole = rows_digest.whole_tables(case_format(conn))
    if conn.triggers_for != key:
        conn.triggers_for = None
        conn.watched = frozenset()
        want = _holding_more(conn, key[1], WATCH_FROM)
        rows_digest.install_triggers(conn, key[1], _columns_of(conn, want), want)
        conn.triggers_for, conn.watched = key, frozenset(want)
        conn.grown = set()  # (every table holding more is watched now)
        # Sums kept so far stay good: they come from a full computation (a check, or the
        # commit of a new or migrated file) and this connection writes only through
        # transaction(), whose actions the triggers now see (and the tables they do not
        # watch are summed from their rows at the save); another's writes move the head
        # or fail the check, and the sums are used only with the head they were made for.
        return
    # (the last save summed every table no trigger watches from its rows, and counted them)
    grown, conn.grown = conn.grown, None
    more = grown - conn.watched if grown is not None else \
        _holding_more(conn, [t for t in key[1] if t not in conn.watched], WATCH_FROM)
    if more:  # tables that came to hold more rows: watched from this action on
        rows_digest.install_triggers(conn, key[1], _columns_of(conn, more), more, add=True)
        conn.watched = conn.watched | more


def _watch_now(conn: sqlite3.Connection) -> None:
    """``_watch_rows`` outside a transaction (the temp schema is written)."""
    _writable(conn, True)
    try:
        _watch_rows(conn)
    finally:
        _writable(conn, False)


def _running_sums(conn: sqlite3.Connection, prev: AuditEntry | None
                  ) -> dict[str, int] | None:
    """The sums after this action from those before it plus the rows it changed (the
    tables no trigger watches: from their rows), or None when they cannot be vouched for
    (not the state of the last entry, or other tables)."""
    if not isinstance(conn, CaseConnection) or conn.sums is None or prev is None:
        return None
    head, before = conn.sums
    key = conn.triggers_for
    if head != prev.hash or key is None or tuple(before) != key[1] or \
            int(conn.execute("PRAGMA schema_version").fetchone()[0]) != key[0]:
        return None
    delta, touched = conn.row_changes.delta, conn.row_changes.touched
    watched = conn.watched
    if set(delta) - watched or touched - watched or set(delta) & conn.row_changes.whole:
        return None
    whole = conn.row_changes.whole
    # (a table summed from its rows is read whether it holds any or not: a few microseconds
    # each, less than asking which hold a row first; a table digested whole is asked)
    filled = _filled(conn, [t for t in before if t not in watched and t in whole])
    columns = None  # (the few tables digested whole here read their own columns)
    out = {}
    grown = set()  # which the next action's triggers are to watch (``_watch_rows``)
    for t, v in before.items():
        if t in watched:
            out[t] = _whole_value(conn, t, columns) if t in touched else \
                (v + delta.get(t, 0)) % rows_digest.MODULUS
        elif t in whole:
            if t not in filled:  # still empty
                out[t] = rows_digest.whole_value(t, [])
                continue
            out[t] = _whole_value(conn, t, columns)
            grown |= _holding_more(conn, [t], WATCH_FROM)
        else:
            rows = conn.execute(f'SELECT * FROM "{t}"').fetchall()
            if len(rows) > WATCH_FROM:
                grown.add(t)
            out[t] = rows_digest.table_sum(t, rows)
    conn.grown = grown
    return out


def _running_sums_pg(conn: pg.PgCaseConnection, prev: AuditEntry | None
                     ) -> dict[str, int] | None:
    """On a server: the sums this station last knew (its own full check or its own last
    save), plus the rows logged since — the other stations' actions, which must lead to the
    state digest the newest entry recorded, then this action's own rows. None when they do
    not (then the sums are computed from every row)."""
    if conn.sums is None or prev is None or conn.sums_seq > prev.seq:
        return None
    head, before = conn.sums
    sums = dict(before)
    if set(sums) != set(_digested_tables(cast(sqlite3.Connection, conn))):
        return None
    try:
        logged = pg.logged_rows(conn, conn.sums_seq)
    except (ValueError, TypeError):
        return None
    mine = prev.seq + 1
    caught_up = head == prev.hash
    whole = rows_digest.whole_tables(case_format(cast(sqlite3.Connection, conn)))
    touched: set[str] = set()
    for seq, own, table, sign, row in logged:
        if seq > mine or table not in sums or (seq == mine) != own:
            return None
        if seq == mine and not caught_up:  # the others' actions are all in: are they right?
            if _from_sums(_reduced(sums))[0] != json.loads(prev.payload).get("state"):
                return None
            caught_up = True
        if table in whole:
            if seq != mine:  # another station changed it: its state then is not known here
                return None
            touched.add(table)  # digested whole below, as this action leaves it
            continue
        try:
            h = rows_digest.row_hash(table, row)
        except TypeError:
            return None
        sums[table] += h if sign > 0 else -h
    if not caught_up and _from_sums(_reduced(sums))[0] != json.loads(prev.payload).get("state"):
        return None
    for t in touched:
        sums[t] = _whole_value(cast(sqlite3.Connection, conn), t)
    return _reduced(sums)


def _reduced(sums: dict[str, int]) -> dict[str, int]:
    return {t: v % rows_digest.MODULUS for t, v in sums.items()}


def check_state(conn: sqlite3.Connection) -> list[str]:
    """What differs between the case and its last audit entry (empty: they match).

    Cheap while no other connection has written the file since this one last checked or
    wrote (``PRAGMA data_version`` and the last entry's hash are unchanged); otherwise a
    full check. Call it inside a write transaction so nobody writes between the check and
    the action."""
    head = conn.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
    if head is None:
        return []  # a new file: its first entry is being written
    if pg.is_pg(conn):  # nothing but audited actions since the last one: no need to rehash
        if pg.cheap_check(conn, head[0]):  # type: ignore[arg-type]
            return []
        problems = differences(conn)
        if not problems:
            pg.checked_in_full(conn)  # type: ignore[arg-type]
        return problems
    version = int(conn.execute("PRAGMA data_version").fetchone()[0])
    cached = getattr(conn, "verified", None)
    if cached == (version, head[0]):
        return []
    if isinstance(conn, CaseConnection) and conn.in_transaction:
        sums = _checked_before(conn, head[0])
        if sums is not None:  # the file is, page for page, one checked before
            conn.sums = (head[0], sums)
            conn.verified = (version, head[0])
            return []
    problems = differences(conn)
    if not problems and isinstance(conn, CaseConnection):
        conn.verified = (version, head[0])
    return problems


def _checked_before(conn: CaseConnection, head: str) -> dict[str, int] | None:
    """The sums of the case's state when its image (every page, as this transaction sees
    them) is one that was found to match its log, with the same last entry, by this
    program (store/checked.py); None otherwise (then the full check runs). The sums must
    give the state digest the last entry recorded."""
    if conn.checked_in is None:
        return None
    fmt = case_format(conn)
    if fmt < ROWS_FORMAT:
        return None
    try:
        image = checked.image_sha256(conn)
    except (sqlite3.Error, MemoryError):
        return None
    kept = checked.load(conn.checked_in, image, head, fmt)
    tables = _digested_tables(conn)
    if kept is None or set(kept) != set(tables):
        return None
    sums = {t: kept[t] for t in tables}
    payload = conn.execute("SELECT payload FROM audit ORDER BY seq DESC LIMIT 1").fetchone()[0]
    if _from_sums(sums)[0] != recorded_state(payload)[0]:
        return None
    return sums


def remember_check(conn: sqlite3.Connection) -> None:
    """Keep, in the data folder (``checked_in``), that the case's image as it is now
    matches its log, when this connection knows it does (it checked the file in full or
    wrote it since, and no other connection wrote it): the case is about to be closed, and
    the first write after it is opened again need not check it in full if it is still
    page for page the same (store/checked.py). Nothing is kept otherwise."""
    if not isinstance(conn, CaseConnection) or conn.checked_in is None or \
            conn.in_transaction or conn.verified is None or conn.sums is None:
        return
    fmt = case_format(conn)
    if fmt < ROWS_FORMAT:
        return
    conn.execute("BEGIN")  # one state: the head, data_version and the pages read together
    try:
        head = conn.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        if head is None or conn.verified != (version, head[0]) or conn.sums[0] != head[0]:
            return
        image = checked.image_sha256(conn)
    finally:
        conn.execute("COMMIT")
    checked.save(conn.checked_in, image, head[0], fmt, conn.sums[1])


def take_known_check(conn: sqlite3.Connection) -> bool:
    """Before any write: when the case's image (every page, read in one transaction) is
    one found here to match its log with the same last entry (store/checked.py), take that
    check as this connection's own, as its first write would (``check_state``): the next
    write then checks with two queries while no other connection has written the file
    (``PRAGMA data_version``, as between any two actions). Run where a case was just opened
    to write, or once the window's check on its own connection has found it sound, so the
    first action does not hash the image while the officer waits. True when taken; nothing
    changes otherwise (the first write then checks as before)."""
    if not isinstance(conn, CaseConnection) or conn.checked_in is None or \
            conn.in_transaction or conn.verified is not None:
        return False
    conn.execute("BEGIN")  # one state: the head, data_version and the pages read together
    try:
        head = conn.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()
        if head is None:
            return False
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        sums = _checked_before(conn, head[0])
        if sums is None:
            return False
        conn.sums = (head[0], sums)
        conn.verified = (version, head[0])
        return True
    finally:
        conn.execute("COMMIT")


@contextmanager
def transaction(conn: sqlite3.Connection, actor: str, action: str, *,
                accept_reason: str | None = None, login: str | None = None,
                _migrating: bool = False) -> Iterator[Tx]:
    """One user action: BEGIN IMMEDIATE, check against the log, the action, audit entry,
    COMMIT; ROLLBACK on any error.

    The case is first checked against its last audit entry: on a mismatch the action is
    refused with ``CaseChangedOutside`` naming what differs, unless ``accept_reason`` is given
    (the officer accepts the file as it is: the entry records what differed and why it was
    accepted). The caller writes through the yielded ``Tx`` and fills its payload with what
    the action did. ``actor`` is the person acting; ``login`` (default: the workstation's
    login) is recorded beside it.
    """
    new_file = conn.in_transaction  # a new file's schema is already in its first transaction
    try:
        if pg.is_pg(conn):  # under the case's chain lock on the server (store/pg.py)
            if not new_file:
                pg.begin(conn)  # type: ignore[arg-type]
        elif not new_file:
            _writable(conn, True)
            _watch_rows(conn)
            conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        _writable(conn, False)
        if "readonly" in str(e) or "read-only" in str(e):
            raise ReadOnlyCase("The case file is read-only; nothing was changed.") from e
        raise
    tx = Tx(conn)
    changes = getattr(conn, "row_changes", None)
    if changes is not None:
        changes.clear()
    try:
        accepted: list[str] = []
        if not new_file and not _migrating:
            problems = check_state(conn)
            if problems and accept_reason is None:
                raise CaseChangedOutside(problems)
            if problems:
                if any(p.startswith(("audit entry", "the audit log", "the schema"))
                       for p in problems):
                    raise CaseFileError("The audit log itself was changed or damaged ("
                                        + "; ".join(problems) + "): a file cannot be "
                                        "accepted as it is then. Restore a backup.")
                accepted = problems
        if pg.is_pg(conn) and not new_file:
            pg.start_logging(conn)  # type: ignore[arg-type]
        yield tx
        if accept_reason is not None:
            tx.payload.update({"reason": accept_reason, "differences": accepted,
                               "canvass_digest": stored_canvass_digest(conn)
                               if conn.execute("SELECT EXISTS (SELECT 1 FROM canvass_import)"
                                               ).fetchone()[0] else None})
            if tx.payload["canvass_digest"]:
                conn.execute("UPDATE canvass_import SET digest=? WHERE id=(SELECT max(id) FROM "
                             "canvass_import)", (tx.payload["canvass_digest"],))
        prev = last_entry(conn)
        sums: dict[str, int] | None = None
        if case_format(conn) >= ROWS_FORMAT:
            if not (new_file or _migrating or accept_reason is not None):
                sums = _running_sums_pg(cast(pg.PgCaseConnection, conn), prev) \
                    if pg.is_pg(conn) else _running_sums(conn, prev)
            if sums is None:
                sums = row_sums(conn)
            digest, parts = _from_sums(sums)
        else:
            digest, parts = state_parts(conn)
        body = {"data": tx.payload, "state": digest, "tables": parts,
                "login": login if login is not None else actor_name()}
        writer = getattr(conn, "writer", None)
        if writer:  # which workstation wrote it (store/anchor.py)
            body["writer"] = writer
        entry = make_entry(prev, utc_now(), actor, action, body)
        conn.execute("INSERT INTO audit(seq, at, actor, action, payload, prev_hash, hash) "
                     "VALUES (?,?,?,?,?,?,?)", (entry.seq, entry.at, entry.actor, entry.action,
                                                entry.payload, entry.prev_hash, entry.hash))
        version = pg.note_audited(conn, entry) if pg.is_pg(conn) else int(  # type: ignore[arg-type]
            conn.execute("PRAGMA data_version").fetchone()[0])
        _after_commit(conn, entry, committed=False)
        conn.execute("COMMIT")
        _after_commit(conn, entry, committed=True)
        if isinstance(conn, CaseConnection):
            conn.verified = (version, entry.hash)  # own commits do not move data_version
            conn.sums = (entry.hash, sums) if sums is not None else None
        elif pg.is_pg(conn):
            conn.sums = (entry.hash, sums) if sums is not None else None  # type: ignore[attr-defined]
            conn.sums_seq = entry.seq  # type: ignore[attr-defined]
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
    finally:
        _writable(conn, False)
