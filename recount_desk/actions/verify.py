"""Verifying a case file: SQLite integrity, the audit chain, and the data against the chain."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from recount_desk import store
from recount_desk.core.audit import AcceptedChange, AuditEntry, verify_chain
from recount_desk.store import anchor
from recount_desk.store.anchor import Head
from recount_desk.store.backup import backup_time, last_entry_of, list_backups


@dataclass
class VerifyResult:
    path: str
    ok: bool
    entries: int
    problems: list[str] = field(default_factory=list)
    # The entry after which the data and the log part ways (a broken link, or the last entry
    # when the data was changed after it).
    first_break: int | None = None
    upgraded_copy: bool = False  # an older file, checked on an upgraded copy
    accepted: list[AcceptedChange] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what cannot be proved either way

    def summary(self) -> str:
        note = (" (written by an older version: checked on an upgraded copy; the file is "
                "unchanged)") if self.upgraded_copy else ""
        accepted = "".join(
            f" The file was accepted as it was found after a change outside Recount Desk at "
            f"audit entry {a.seq} by {a.person}: {a.reason}." for a in self.accepted)
        also = "".join(f" Note: {n}." for n in self.notes)
        if self.ok:
            return (f"{self.path}: OK — integrity check passed, {self.entries} audit entries "
                    f"chained, data matches the audit log{note}.{accepted}{also}")
        return f"{self.path}: NOT OK — " + "; ".join(self.problems) + note + also


def verify_case(path: Path | str, *, anchored: bool | None = None) -> VerifyResult:
    """Check a case file read-only; every problem is named, the first broken link first.

    A file written by an older version is checked on an upgraded copy (the upgrade checks
    the data against the log by the old rules first); the file itself is not touched.
    ``anchored``: also compare the log with the chain's heads kept outside the case (this
    workstation's record, the backups); by default yes, except for a backup itself (which
    is older than the case by design)."""
    if store.is_url(path):  # a case on a counting-center server
        return _verify_on_server(path, anchored=anchored is not False)
    path = Path(path)
    try:
        os.stat(path)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return VerifyResult(path.name, False, 0, [f"{path.name} is a loop of symbolic "
                                                      "links, not a file"])
    if anchored is None:
        anchored = not _is_a_backup(path)
    if path.exists() and not path.is_file():
        return VerifyResult(path.name, False, 0, [f"{path.name} is not a regular file (a "
                                                  "folder, a pipe or a device)"])
    with tempfile.TemporaryDirectory() as tmp:
        upgraded = False
        try:
            try:
                conn = store.open_case(path, readonly=True)
            except store.OlderCaseFile:
                copy = Path(tmp) / path.name
                shutil.copy2(path, copy)
                conn, upgraded = store.open_case(copy), True
        except store.CaseFileError as e:
            return VerifyResult(path.name, False, 0, [str(e)])
        try:
            result = _verify(conn, path.name, anchored=anchored, case=path)
            if result.ok and not upgraded:
                _remember_check(conn)
        finally:
            conn.close()
        result.upgraded_copy = upgraded
        return result


def _verify_on_server(url: Path | str, *, anchored: bool) -> VerifyResult:
    where = store.location(url)
    try:
        conn = store.open_case(where, readonly=True)
    except store.CaseFileError as e:
        return VerifyResult(where.name, False, 0, [str(e)])
    try:
        return _verify(conn, where.name, anchored=anchored)
    finally:
        conn.close()


def verify_open(conn: sqlite3.Connection, name: str) -> VerifyResult:
    """The same checks on a case that is already open (the report runs them first)."""
    return _verify(conn, name, anchored=True)


def _is_a_backup(path: Path) -> bool:
    from .demo import user_data_dir

    try:
        return (user_data_dir() / "backups").resolve() in path.resolve().parents
    except (OSError, RuntimeError):  # RuntimeError: a loop of symbolic links
        return False


def known_heads(conn: sqlite3.Connection, case: Path | None = None) -> list[Head]:
    """The chain's heads kept outside the case: this workstation's record and every backup
    made since the last restore (a restore sets the record back on purpose)."""
    from .demo import user_data_dir

    cid = anchor.case_id(conn)
    if cid is None:
        return []
    root = user_data_dir()
    heads = []
    mine = anchor.known_head(root, cid)
    if mine is not None:
        heads.append(mine)
    since = anchor.restored_at(root, cid)
    for b in list_backups(root, case) if case is not None else _backups_by_id(root, cid):
        made = backup_time(b)
        if since is not None and (made is None or made < since):
            continue
        last = last_entry_of(b)
        if last is not None:
            heads.append(Head(last.seq, last.hash, f"the backup {b.name}"))
    return heads


def _backups_by_id(root: Path, cid: str) -> list[Path]:
    from recount_desk.store.backup import _in_folder, backup_dir

    return _in_folder(backup_dir(root, cid))


def chain_head(conn: sqlite3.Connection, *, skip_action: str | None = None) -> str:
    """The head of the case's audit chain as printed on the report beside the fingerprint:
    "Log entry 42 · 3f9a0c12ab34" (a rollback or a recomputed chain shows as another head).

    ``skip_action``: entries of this action after the last other one are passed over (the
    report's own "report generated" entries, so that two copies made one after the other
    from the same data are the same bytes)."""
    row = conn.execute("SELECT seq, hash FROM audit WHERE action IS NOT ? ORDER BY seq DESC "
                       "LIMIT 1", (skip_action,)).fetchone()
    if row is None:
        return "no audit entries"
    return f"Log entry {row[0]} · {str(row[1])[:8]}"


def _remember_check(conn: sqlite3.Connection) -> None:
    """Keep that the file, page for page as it was checked, matches its log (the window's
    check after opening runs here, on a connection of its own: the first write of the
    window's connection then need not check the file in full again; store/checked.py)."""
    from .demo import user_data_dir

    if isinstance(conn, store.CaseConnection):
        conn.checked_in = user_data_dir() / "checked"
        with contextlib.suppress(OSError, sqlite3.Error):
            store.remember_check(conn)


def _verify(conn: sqlite3.Connection, name: str, *, anchored: bool,
            case: Path | None = None) -> VerifyResult:
    try:
        return _checks(conn, name, anchored=anchored, case=case)
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError, AttributeError) as e:
        # Odd tables or payloads planted in the file: a finding, never a traceback.
        return VerifyResult(name, False, 0, [f"the case file's contents are not what Recount "
                                             f"Desk writes and cannot be checked ({e})"])


def _checks(conn: sqlite3.Connection, name: str, *, anchored: bool,
            case: Path | None) -> VerifyResult:
    problems: list[str] = []
    integrity = store.integrity_check(conn)
    if integrity != "ok":
        problems.append(f"SQLite integrity check failed: {integrity}")
    entries: list[AuditEntry] = list(store.audit_entries(conn))
    for e in entries:
        if e.action == "migrate case file" and \
                json.loads(e.payload)["data"].get("data_matched_log") is False:
            problems.append("the case data had been changed outside Recount Desk before the "
                            f"file was upgraded to this version (audit entry {e.seq})")
    # The chain, the append-only guard, the data against the last entry, the canvass: the
    # same check every action makes before it writes.
    found = store.differences(conn)
    problems += found
    brk = verify_chain(entries)
    first_break = brk.seq if brk is not None else None
    if first_break is None and found and entries and not any(
            p.startswith("the audit log") for p in found):
        first_break = entries[-1].seq  # the data parts from the log after the last entry
    notes: list[str] = []
    if anchored:  # the chain against its heads kept outside the case (store/anchor.py)
        from .demo import user_data_dir

        problems += anchor.head_problems(entries, known_heads(conn, case))
        cid = anchor.case_id(conn)
        if cid is not None:
            forged, notes = anchor.unseen_entries(user_data_dir(), cid, entries)
            problems += forged
    return VerifyResult(name, not problems, len(entries), problems, first_break,
                        accepted=store.accepted_changes(conn) if entries else [], notes=notes)
