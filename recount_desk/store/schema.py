"""The case file's schema is part of what is checked: tables, triggers, views and indexes.

The state digest covers the rows; a trigger planted in the file (``AFTER INSERT ON
tally_vote … SET votes = votes + 50``) or a guard trigger replaced by a same-named no-op
changes no row the digest sees. The schema the program writes is known exactly (the
migrations, applied in order, to a new file or an upgraded one alike), so the file's
``sqlite_master`` is compared with it, object by object, SQL text and all.
"""

from __future__ import annotations

import sqlite3
from functools import cache

from .migrations import MIGRATIONS

Schema = dict[tuple[str, str], tuple[str, str | None]]  # (type, name) -> (table, sql)


def _read(conn: sqlite3.Connection) -> Schema:
    return {(t, n): (tbl, sql) for t, n, tbl, sql in conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master")
        if not n.startswith("sqlite_stat")}


@cache
def expected_schema(version: int = len(MIGRATIONS)) -> tuple[tuple[tuple[str, str],
                                                                 tuple[str, str | None]], ...]:
    """The schema a case file of ``version`` has: the migrations run on an empty file."""
    from .db import _apply  # the same runner the file itself was made with

    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN")
        for step in MIGRATIONS[:version]:
            _apply(conn, step)
        conn.execute("COMMIT")
        return tuple(sorted(_read(conn).items()))
    finally:
        conn.close()


def _kind(t: str) -> str:
    return {"table": "table", "index": "index", "trigger": "trigger", "view": "view"}.get(t, t)


def schema_problems(conn: sqlite3.Connection, version: int = len(MIGRATIONS)) -> list[str]:
    """Every way the file's schema differs from the program's, one sentence each."""
    try:
        found = _read(conn)
    except sqlite3.DatabaseError as e:
        return [f"its schema cannot be read ({e})"]
    want = dict(expected_schema(version))
    problems = []
    for (t, n), (tbl, sql) in sorted(found.items()):
        if (t, n) not in want:
            where = f" on table {tbl}" if t in ("trigger", "index") else ""
            problems.append(f"the schema was changed outside Recount Desk: a {_kind(t)} {n}"
                            f"{where} that Recount Desk never makes was added (it could change "
                            "what is stored without the log seeing it)")
        elif want[(t, n)] != (tbl, sql):
            problems.append(f"the schema was changed outside Recount Desk: the {_kind(t)} {n} "
                            "was altered (its definition is not the one Recount Desk wrote)")
    for (t, n) in sorted(set(want) - set(found)):
        if (t, n) in _REPORTED_ELSEWHERE:
            continue
        problems.append(f"the schema was changed outside Recount Desk: the {_kind(t)} {n} "
                        "is missing")
    return problems


# The audit log's guard triggers: their absence has its own sentence (store.differences).
_REPORTED_ELSEWHERE = {("trigger", "audit_no_update"), ("trigger", "audit_no_delete")}


def missing_tables(conn: sqlite3.Connection, version: int = len(MIGRATIONS)) -> list[str]:
    """The program's tables the file lacks (it cannot be read as a case without them)."""
    have = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return sorted(n for (t, n), _ in expected_schema(version) if t == "table" and n not in have)
