"""Verifying a case file: SQLite integrity, the audit chain, and the data against the chain."""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from recount_desk import store
from recount_desk.core.audit import verify_chain
from recount_desk.store import repo


@dataclass
class VerifyResult:
    path: str
    ok: bool
    entries: int
    problems: list[str] = field(default_factory=list)
    first_break: int | None = None
    upgraded_copy: bool = False  # an older file, checked on an upgraded copy

    def summary(self) -> str:
        note = (" (written by an older version: checked on an upgraded copy; the file is "
                "unchanged)") if self.upgraded_copy else ""
        if self.ok:
            return (f"{self.path}: OK — integrity check passed, {self.entries} audit entries "
                    f"chained, data matches the audit log{note}.")
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
    # The append-only triggers are part of the case: without them the log can be rewritten.
    triggers = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")}
    missing = sorted({"audit_no_update", "audit_no_delete"} - triggers)
    if missing:
        problems.append("the audit log's append-only guard was removed outside Recount Desk "
                        f"(trigger {', '.join(missing)} is missing)")
    entries = list(store.audit_entries(conn))
    for e in entries:
        if e.action == "migrate case file" and \
                json.loads(e.payload)["data"].get("data_matched_log") is False:
            problems.append("the case data had been changed outside Recount Desk before the "
                            f"file was upgraded to this version (audit entry {e.seq})")
    brk = verify_chain(entries)
    first_break = None
    if brk is not None:
        first_break = brk.seq
        problems.append(f"audit entry {brk.seq} is broken: {brk.reason}")
    if entries and brk is None:
        last = json.loads(entries[-1].payload)
        if last.get("state") != store.state_digest(conn):
            problems.append("the case data was changed outside Recount Desk after audit entry "
                            f"{entries[-1].seq} ({entries[-1].action})")
        imp = repo.current_import(conn)
        if imp is not None:
            recorded = [json.loads(e.payload)["data"].get("canvass_digest") for e in entries
                        if e.action == "import canvass"]
            actual = store.stored_canvass_digest(conn)
            if actual != imp.digest or (recorded and recorded[-1] != actual):
                problems.append("the canvass votes were changed outside Recount Desk (they no "
                                "longer match the digest recorded at import)")
    elif not entries:
        problems.append("the audit log is empty")
    return VerifyResult(name, not problems, len(entries), problems, first_break)
