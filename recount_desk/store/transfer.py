"""Moving a case between a case file and a counting-center server, either way.

The copy is exact: every table, the audit log included, row for row with the same ids, so
the copy's audit chain is the original's (same entries, same head) and its state digest is
the same. Nothing is added to the log: the copy is the same case, not a new action on it.
It is written in one transaction; a failure leaves no half copy behind (a new file is
removed, a database is left empty).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from . import pg
from .db import CaseConnection, CaseFileError, _writable, create, differences, last_entry

# Rows copied per batch (a statewide canvass holds a few thousand choice columns).
_BATCH = 500


def _columns(conn: Any, table: str) -> list[str]:
    if pg.is_pg(conn):
        return pg.columns(conn, table)
    return [r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')]


def copy_case(src: sqlite3.Connection, dest_location: Path | str) -> CaseConnection:
    """Copy the open case ``src`` into a new case at ``dest_location`` (a file path that does
    not exist yet, or the URL of an empty database); returns the copy's connection.

    The source must match its own audit log (a case changed outside Recount Desk is not
    spread further); the copy is checked against its log before it is committed."""
    problems = differences(src)
    if problems:
        raise CaseFileError("The case does not match its audit log, so it was not copied: "
                            + "; ".join(problems) + ".")
    dest = create(dest_location)  # the schema, in an open transaction
    try:
        dest.execute("DELETE FROM meta")  # the copy keeps the original's identity
        for table in pg.case_tables_in_order():
            cols = _columns(src, table)
            if cols != _columns(dest, table):
                raise CaseFileError(f"The table {table} of the case is not laid out as this "
                                    "version of Recount Desk lays it out; nothing was copied.")
            names = ", ".join(f'"{c}"' for c in cols)
            insert = (f'INSERT INTO "{table}" ({names}) VALUES '
                      f'({", ".join("?" for _ in cols)})')
            rows = src.execute(f'SELECT {names} FROM "{table}"').fetchall()
            for i in range(0, len(rows), _BATCH):
                dest.executemany(insert, rows[i:i + _BATCH])
        head = last_entry(dest)
        if head is None:
            raise CaseFileError("The case has no audit log; nothing was copied.")
        if pg.is_pg(dest):
            pg.note_audited(dest, head)  # type: ignore[arg-type]
        found = differences(dest)
        if found:
            raise CaseFileError("The copy does not match the case's audit log ("
                                + "; ".join(found) + "); nothing was copied.")
        dest.execute("COMMIT")
    except BaseException:
        _abandon(dest, dest_location)
        raise
    _writable(dest, False)
    return dest


def _abandon(dest: Any, location: Path | str) -> None:
    try:
        if dest.in_transaction:
            dest.execute("ROLLBACK")
    except sqlite3.Error:
        pass
    dest.close()
    if not pg.is_url(location):
        for suffix in ("", "-wal", "-shm"):
            Path(str(location) + suffix).unlink(missing_ok=True)
