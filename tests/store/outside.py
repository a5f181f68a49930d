"""What anyone with the database's own tools can do to a case, outside Recount Desk: the
sqlite3 shell on a case file, psql on a case on a counting-center server."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def is_server(location: Path | str) -> bool:
    return str(location).startswith("postgresql://")


def outside_edit(location: Path | str, sql: str, pg_sql: str | None = None) -> None:
    """Run ``sql`` (SQLite) or ``pg_sql`` (PostgreSQL; default ``sql``) on the case
    directly, as its owner, with no audit entry."""
    if is_server(location):
        import psycopg

        with psycopg.connect(str(location), autocommit=True) as c:
            c.execute(pg_sql or sql)
        return
    raw = sqlite3.connect(str(location))
    raw.execute("PRAGMA foreign_keys=OFF")
    raw.executescript(sql)
    raw.commit()
    raw.close()
