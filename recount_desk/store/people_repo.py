"""Reading and writing the case's roster of people; writes take the transaction handle."""

from __future__ import annotations

import sqlite3

from recount_desk.core.people import Person, Role, Roster

from .db import Tx


def roster(conn: sqlite3.Connection) -> Roster:
    """The people of the case (those not removed), in the order they were added."""
    return Roster(tuple(Person(pid, name, Role(role)) for pid, name, role in conn.execute(
        "SELECT id, name, role FROM person WHERE active=1 ORDER BY id")))


def add_person(tx: Tx, name: str, role: Role, at: str, by: str) -> int:
    cur = tx.execute("INSERT INTO person(name, role, added_at, added_by) VALUES (?,?,?,?)",
                     (name, role.value, at, by))
    return int(cur.lastrowid or 0)


def set_role(tx: Tx, person_id: int, role: Role) -> None:
    tx.execute("UPDATE person SET role=? WHERE id=? AND active=1", (role.value, person_id))


def remove_person(tx: Tx, person_id: int) -> None:
    """Taken off the roster; what the person did stays in the log under their name."""
    tx.execute("UPDATE person SET active=0 WHERE id=?", (person_id,))
