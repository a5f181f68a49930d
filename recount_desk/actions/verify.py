"""Verifying a case file: SQLite integrity, the audit chain, and the data against the chain."""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from recount_desk import store
from recount_desk.core.audit import AcceptedChange, verify_chain


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

    def summary(self) -> str:
        note = (" (written by an older version: checked on an upgraded copy; the file is "
                "unchanged)") if self.upgraded_copy else ""
        accepted = "".join(
            f" The file was accepted as it was found after a change outside Recount Desk at "
            f"audit entry {a.seq} by {a.person}: {a.reason}." for a in self.accepted)
        if self.ok:
            return (f"{self.path}: OK — integrity check passed, {self.entries} audit entries "
                    f"chained, data matches the audit log{note}.{accepted}")
        return f"{self.path}: NOT OK — " + "; ".join(self.problems) + note


def verify_case(path: Path | str) -> VerifyResult:
    """Check a case file read-only; every problem is named, the first broken link first.

    A file written by an older version is checked on an upgraded copy (the upgrade checks
    the data against the log by the old rules first); the file itself is not touched."""
    path = Path(path)
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
            result = _verify(conn, path.name)
        finally:
            conn.close()
        result.upgraded_copy = upgraded
        return result


def verify_open(conn: sqlite3.Connection, name: str) -> VerifyResult:
    """The same checks on a case that is already open (the report runs them first)."""
    return _verify(conn, name)


def _verify(conn: sqlite3.Connection, name: str) -> VerifyResult:
    problems: list[str] = []
    integrity = conn.execute("PRAGMA integrity_check").fetchone()[0]
    if integrity != "ok":
        problems.append(f"SQLite integrity check failed: {integrity}")
    entries = list(store.audit_entries(conn))
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
    return VerifyResult(name, not problems, len(entries), problems, first_break,
                        accepted=store.accepted_changes(conn) if entries else [])
