"""The counting center: a case on a PostgreSQL server that several stations work on at once.

A case moves to the server and back whole (``push``, ``pull``): the copy is exact — the
same tables, ids and audit chain — and is checked end to end before it is committed, so the
state digest and the chain's head are the same on both sides. Once pushed, the server's
copy is the case: the file stays as it was, an older copy.

A station keeps up with the others by asking for the case's newest audit entry
(:func:`latest_entry`): when it moved, someone else saved an action, and the station reads
the case again. It need not wait for its next look: :func:`watch_saves` hears each save the
moment it is committed (the server's NOTIFY). A station whose connection is lost is told
so (:func:`connection_lost`) and shows the case read-only until it reconnects; nothing it
was told was saved is lost (an action is saved once its transaction committed on the
server).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from pathlib import Path

from recount_desk import store
from recount_desk.store import pg
from recount_desk.store.transfer import copy_case

from .case import Case
from .verify import verify_open


class MoveRefused(store.CaseFileError):
    """A push or pull that cannot be made; the message says why (nothing was written)."""


@dataclass(frozen=True)
class Moved:
    """A case copied from one place to another, and what proves the copy is the case."""

    source: str
    destination: str
    entries: int
    head: str  # the last audit entry's hash, the same on both sides
    digest: str  # the state digest, the same on both sides

    def summary(self) -> str:
        return (f"Copied {self.source} to {self.destination}: {self.entries} audit entries, "
                f"chain head {self.head[:16]}…, state digest {self.digest[:16]}… — the same "
                "on both sides, and the copy verifies.")


def push(case_file: Path | str, url: str) -> Moved:
    """Copy a case file to an empty database on a counting-center server."""
    if store.is_url(case_file) or not store.is_url(url):
        raise MoveRefused("push copies a case FILE to a postgresql:// URL: recount-desk push "
                          "CASE.recount postgresql://HOST/DATABASE")
    return _move(Path(case_file), url)


def pull(url: str, case_file: Path | str) -> Moved:
    """Copy a case from a counting-center server into a new case file."""
    if not store.is_url(url) or store.is_url(case_file):
        raise MoveRefused("pull copies a case from a postgresql:// URL to a new case FILE: "
                          "recount-desk pull postgresql://HOST/DATABASE CASE.recount")
    dest = Path(case_file)
    if dest.exists():
        raise MoveRefused(f"{dest.name} already exists; choose a new file name. Nothing was "
                          "written.")
    return _move(url, dest)


def _move(source: Path | str, dest: Path | str) -> Moved:
    where = store.location(source)
    to = store.location(dest)
    src = store.open_case(where, readonly=True)
    try:
        check = verify_open(src, where.name)
        if not check.ok:
            raise MoveRefused(f"{where.name} does not verify, so it was not copied: "
                              + "; ".join(check.problems) + ".")
        copy = copy_case(src, dest)
        try:
            a, b = store.last_entry(src), store.last_entry(copy)
            same = (a is not None and a == b
                    and store.state_digest(src) == store.state_digest(copy)
                    and store.stored_canvass_digest(src) == store.stored_canvass_digest(copy))
            result = verify_open(copy, to.name)
            if not same or not result.ok:
                raise MoveRefused(f"The copy at {to} does not match {where.name} "
                                  f"({'; '.join(result.problems) or 'different data'}); "
                                  "remove it and try again.")
            digest = store.state_digest(copy)
            entries = len(list(store.audit_entries(copy)))
        finally:
            copy.close()
    finally:
        src.close()
    assert a is not None
    return Moved(str(where), str(to), entries, a.hash, digest)


def latest_entry(case: Case) -> int:
    """The number of the case's newest audit entry (0 for none): a station polls it and
    reads the case again when it moved (another station saved an action)."""
    row = case.conn.execute("SELECT max(seq) FROM audit").fetchone()
    return int(row[0] or 0) if row else 0


class SaveWatcher:
    """Hears the saves on a case on the server as they are committed: ``fileno()`` becomes
    readable when one arrives (a window watches it), ``heard()`` says whether any did since
    last asked, never waiting (``ServerUnavailable`` once the connection is gone)."""

    def __init__(self, listener: pg.SaveListener) -> None:
        self._listener = listener

    def fileno(self) -> int:
        return self._listener.fileno()

    def heard(self) -> bool:
        return self._listener.heard()

    def close(self) -> None:
        with contextlib.suppress(store.ServerUnavailable, OSError):
            self._listener.close()


def watch_saves(case: Case) -> SaveWatcher | None:
    """A watcher of the saves on the case (None for a case file, which one program writes);
    raises ``ServerUnavailable`` or ``CaseFileError`` when the server cannot be reached."""
    if not case.on_server:
        return None
    return SaveWatcher(pg.listen(str(case.path) if not isinstance(case.path, pg.CaseURL)
                                 else case.path))


@dataclass(frozen=True)
class Saved:
    """An action saved on the case: its audit entry's number, who, what."""

    seq: int
    actor: str
    action: str
    payload: str


def saved_elsewhere(case: Case, since: int) -> list[Saved]:
    """The actions saved after audit entry ``since`` by other stations (entries this
    station's own connection did not write), oldest first."""
    mine: set[int] = getattr(case.conn, "written", set())
    return [Saved(int(seq), str(actor), str(action), str(payload))
            for seq, actor, action, payload in case.conn.execute(
                "SELECT seq, actor, action, payload FROM audit WHERE seq > ? ORDER BY seq",
                (since,)) if int(seq) not in mine]


def connection_lost(error: BaseException) -> bool:
    """Whether ``error`` says the counting-center server cannot be reached."""
    return isinstance(error, store.ServerUnavailable)


def reconnect(case: Case, *, readonly: bool | None = None) -> None:
    """Connect the station to the server again (after a lost connection), as the same
    person (``readonly``: how to open it, by default as it was); raises ``CaseFileError``
    or ``ServerUnavailable`` while the server cannot be reached."""
    if not case.on_server:
        raise store.CaseFileError(f"{case.path.name} is a case file, not on a server.")
    from .case import _keep_head_outside

    if readonly is None:
        readonly = case.readonly
    conn = store.open_case(case.path, readonly=readonly)
    case.readonly = readonly
    with contextlib.suppress(store.ServerUnavailable):  # a broken one is dropped anyway
        case.conn.close()
    case.conn = conn
    if not case.readonly:
        _keep_head_outside(case)
