"""store.digest: a table digested whole gives the same value read a chunk at a time as read
at once (the full check reads the case's large tables in chunks, session 7)."""

from __future__ import annotations

import random

import pytest

from recount_desk.store import db, digest


@pytest.mark.parametrize("seed", range(40))
def test_the_whole_value_in_chunks_is_the_whole_value(seed: int) -> None:
    rnd = random.Random(seed)
    rows = [(i, rnd.choice(["P1", "é\n\"x\"", "", None]), rnd.randrange(-5, 10**9),
             bytes(rnd.randrange(256) for _ in range(rnd.randrange(3))))
            for i in range(rnd.randrange(0, 40))]
    want = digest.whole_value("precinct", rows)
    cuts = sorted(rnd.sample(range(len(rows) + 1), min(len(rows) + 1, rnd.randrange(1, 5))))
    chunks = [rows[a:b] for a, b in zip([0, *cuts], [*cuts, len(rows)], strict=True)]
    assert digest.whole_value_chunks("precinct", chunks) == want
    assert digest.whole_value_chunks("precinct", [rows]) == want


def test_the_check_reads_a_whole_table_as_it_was_digested(tmp_path) -> None:  # type: ignore[no-untyped-def]
    conn = db.create(tmp_path / "c.recount")
    conn.executemany("INSERT INTO precinct(id, name) VALUES (?, ?)",
                     [(i, f"P{i:05d}") for i in range(1, 1300)])
    rows = conn.execute("SELECT * FROM precinct ORDER BY id, name").fetchall()
    assert db._whole_value(conn, "precinct") == digest.whole_value("precinct", rows)
    conn.rollback()
    conn.close()
