"""The state digest kept row by row (store/digest.py) equals the one computed from every row,
after every kind of action, and a save does not read the whole case to compute it."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, open_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.recount import ResolutionKind
from recount_desk.store import db
from recount_desk.store import digest as rows_digest
from tests.actions.test_recount_actions import ACTIONS, RACE, Act, S, Setup, make_case


def _full(case: Case) -> dict[str, int]:
    return db.row_sums(case.conn)


# Actions that read the whole state by design: signing records the digest of the data the
# report was made from.
READS_THE_STATE = {"sign"}


@pytest.mark.parametrize("watch_from", [0, db.WATCH_FROM], ids=["all-watched", "small-summed"])
@pytest.mark.parametrize(("name", "setup", "act"), ACTIONS, ids=[n for n, _, _ in ACTIONS])
def test_the_running_sums_equal_the_full_computation_after_every_action(
        new_case_at, name: str, setup: Setup | None, act: Act,  # type: ignore[no-untyped-def]
        watch_from: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a file the temporary triggers report the action's rows (``watch_from`` 0: every
    table that holds rows is watched; else the test case's tables, all of a few rows, are
    summed from their rows at the save); on a server the row log does (store/pg.py):
    either way the action reads no table in full for its digest."""
    monkeypatch.setattr(db, "WATCH_FROM", watch_from)
    case = make_case(new_case_at("t.recount"))
    try:
        if setup:
            setup(case)
        calls: list[int] = []
        real = db.row_sums

        def counted(conn: object) -> dict[str, int]:
            calls.append(1)
            return real(conn)  # type: ignore[arg-type]

        monkeypatch.setattr(db, "row_sums", counted)
        act(case)
        monkeypatch.setattr(db, "row_sums", real)
        assert calls == ([1] if name in READS_THE_STATE else [])
        conn = case.conn
        assert conn.sums is not None  # type: ignore[attr-defined]
        head = conn.execute("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1").fetchone()[0]
        assert conn.sums[0] == head  # type: ignore[attr-defined]
        assert conn.sums[1] == _full(case)  # type: ignore[attr-defined]
        assert verify_case(case.path).ok
    finally:
        case.close()


def test_a_save_adds_its_rows_and_reads_no_table_in_full(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    case = make_case(tmp_path / "t.recount")
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))

    def no_full_read(conn: object) -> dict[str, int]:
        raise AssertionError("the whole case was read to digest one save")

    monkeypatch.setattr(db, "row_sums", no_full_read)
    rc.enter_tally(case, RACE, "P1", entry=2, officer="Marcus", sheet=S(10, 8, 2))
    rc.resolve_mismatch(case, RACE, "P1", kind=ResolutionKind.KEEP_FIRST, by="Sup",
                        note="Tape re-read")
    rc.enter_tally(case, RACE, "P2", entry=1, officer="Dana", sheet=S(12, 12, 1))
    monkeypatch.undo()
    assert case.conn.sums is not None and case.conn.sums[1] == _full(case)  # type: ignore[attr-defined]
    case.close()
    assert verify_case(tmp_path / "t.recount").ok


def test_an_outside_edit_between_two_saves_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    rc.enter_tally(case, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
    import sqlite3

    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("UPDATE tally_vote SET votes = votes + 50 WHERE votes = 10")
    other.close()
    with pytest.raises(store.CaseChangedOutside, match="tallied votes"):
        rc.enter_tally(case, RACE, "P2", entry=1, officer="Dana", sheet=S(12, 12, 1))
    case.close()
    assert not verify_case(path).ok


def test_the_sums_do_not_depend_on_row_order_and_change_with_any_value() -> None:
    rows = [(1, "a", None), (2, "b", 3), (3, "c", b"\x00")]
    assert rows_digest.table_sum("t", rows) == rows_digest.table_sum("t", rows[::-1])
    assert rows_digest.table_sum("t", rows) != rows_digest.table_sum("t", rows[:2])
    assert rows_digest.table_sum("t", rows) != rows_digest.table_sum(
        "t", [*rows[:2], (3, "c", b"\x01")])
    assert rows_digest.table_sum("t", rows) != rows_digest.table_sum("u", rows)


def test_a_reopened_case_continues_row_by_row(tmp_path: Path) -> None:
    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    case.close()
    again = open_case(path, actor="tester")
    try:
        rc.enter_tally(again, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
        assert again.conn.sums is not None  # type: ignore[attr-defined]
        assert again.conn.sums[1] == _full(again)  # type: ignore[attr-defined]
    finally:
        again.close()
    assert verify_case(path).ok


@pytest.mark.parametrize("row", [
    (1, "a", None), (2, "Ünïcode “quotes” \\ \"", 3), (3, "c", b"\x00\xff"),
    (4, memoryview(b"ab"), -7), (5, 1.5, float("nan")), (), (10**30, "", "\x1f\x00"),
    # long blobs (a re-tabulation load's tallies) are hashed part by part
    (6, "Ünï \"q\"", bytes(range(256)) * 40, None, 1.5, memoryview(b"\x00" * 5000), b""),
    (bytes(2000),),
], ids=["plain", "unicode", "blob", "memoryview", "floats", "empty", "big", "long blobs",
        "only a long blob"])
def test_the_fast_row_encoder_gives_format_8s_row_hash(row: tuple[object, ...]) -> None:
    assert rows_digest.row_hash("t", row) == rows_digest.row_hash_reference("t", row)
    assert rows_digest.table_sum("t", [row]) == rows_digest.row_hash_reference("t", row)
    changes = rows_digest.RowChanges()
    changes("t", 1, *row)
    changes("t", -1, 9)
    assert changes.delta["t"] % rows_digest.MODULUS == (
        rows_digest.row_hash_reference("t", row) - rows_digest.row_hash_reference("t", (9,))
    ) % rows_digest.MODULUS


def test_a_case_verified_at_open_is_not_read_in_full_again_by_its_first_action(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line verifies a case before it writes (backup_before_writing): that full
    check is the one the first action relies on, not repeated before it nor after it."""
    from recount_desk.actions.case import backup_before_writing

    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    case.close()
    again = open_case(path, actor="tester")
    try:
        assert backup_before_writing(again) == []
        calls: list[int] = []
        real = db.row_sums

        def counted(conn: object) -> dict[str, int]:
            calls.append(1)
            return real(conn)  # type: ignore[arg-type]

        monkeypatch.setattr(db, "row_sums", counted)
        rc.enter_tally(again, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
        assert calls == []
        monkeypatch.undo()
        assert again.conn.sums[1] == _full(again)  # type: ignore[attr-defined]
    finally:
        again.close()
    assert verify_case(path).ok


def test_a_table_digested_whole_does_not_depend_on_row_order_and_changes_with_any_value(
        ) -> None:
    rows = sorted([(1, "a", None), (2, "b", 3), (3, "c", 4)], key=repr)
    assert rows_digest.whole_value("t", rows) == rows_digest.whole_value("t", list(rows))
    assert rows_digest.whole_value("t", rows) != rows_digest.whole_value("t", rows[:2])
    assert rows_digest.whole_value("t", rows) != rows_digest.whole_value(
        "t", [*rows[:2], (3, "c", 5)])
    assert rows_digest.whole_value("t", rows) != rows_digest.whole_value("u", rows)
    # a row split in two, or two rows joined, is another list: another digest
    assert rows_digest.whole_value("t", [(1, 2), (3, 4)]) != \
        rows_digest.whole_value("t", [(1, 2, 3, 4)])
    assert rows_digest.whole_tables(8) == frozenset()
    assert {"precinct", "recount_unit", "unit_precinct"} <= rows_digest.whole_tables(9)


@pytest.mark.parametrize(("sql", "words"), [
    ("UPDATE precinct SET name = name || ' ' WHERE id = 1", "the precincts differ"),
    ("DELETE FROM unit_precinct WHERE precinct_id = (SELECT min(precinct_id) FROM "
     "unit_precinct)", "the units' precincts differ"),
    ("UPDATE recount_unit SET variance_note = 'explained' WHERE position = 0",
     "the recount units differ"),
], ids=["precinct", "unit-precinct", "unit"])
def test_an_outside_change_to_a_table_digested_whole_is_named(
        tmp_path: Path, sql: str, words: str) -> None:
    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    rc.set_variance_note(case, RACE, "P1", "the tape was re-read")  # digested whole again
    assert case.conn.sums is not None and case.conn.sums[1] == _full(case)  # type: ignore[attr-defined]
    case.close()
    assert verify_case(path).ok
    import sqlite3

    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("PRAGMA foreign_keys=OFF")
    other.executescript(sql)
    other.close()
    result = verify_case(path)
    assert not result.ok and any(words in p for p in result.problems), result.problems
    again = open_case(path, actor="tester")
    try:
        with pytest.raises(store.CaseChangedOutside, match=words):
            rc.enter_tally(again, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
    finally:
        again.close()


def test_a_table_empty_when_the_rows_were_first_watched_is_summed_at_the_save_and_then_watched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No trigger watches a table still empty (session 7: a hundred triggers cost the first
    save after opening a case some 5 ms); the action that fills it has it summed from its
    rows at the save, and from the next action on its triggers report its rows. (Every
    table that holds a row is watched here: ``WATCH_FROM`` 0.)"""
    monkeypatch.setattr(db, "WATCH_FROM", 0)
    real_sums = db.row_sums
    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    case.close()
    again = open_case(path, actor="tester")
    try:
        conn = again.conn
        rc.set_variance_note(again, RACE, "P1", "first action after opening")
        assert "tally_entry" not in conn.watched  # type: ignore[attr-defined]
        assert "recount_unit" in conn.watched  # type: ignore[attr-defined]
        rc.enter_tally(again, RACE, "P1", entry=1, officer="Dana", sheet=S(10, 9, 1))
        assert conn.sums[1] == _full(again)  # type: ignore[attr-defined]

        def no_full_read(conn: object) -> dict[str, int]:
            raise AssertionError("the whole case was read to digest one save")

        monkeypatch.setattr(db, "row_sums", no_full_read)
        rc.enter_tally(again, RACE, "P1", entry=2, officer="Marcus", sheet=S(10, 9, 1))
        monkeypatch.setattr(db, "row_sums", real_sums)
        assert {"tally_entry", "tally_vote"} <= conn.watched  # type: ignore[attr-defined]
        assert conn.sums[1] == _full(again)  # type: ignore[attr-defined]
    finally:
        again.close()
    assert verify_case(path).ok


def test_a_table_of_a_few_rows_is_summed_at_each_save_and_watched_once_it_holds_more(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A table of at most ``WATCH_FROM`` rows has no triggers (making three per table cost
    the first save after opening more than summing its few rows at each save): summed
    from its rows while it is small, watched from the action after the one that makes it
    larger, the sums right all along and no save reading the case in full."""
    monkeypatch.setattr(db, "WATCH_FROM", 2)
    path = tmp_path / "t.recount"
    case = make_case(path)
    rc.start_recount(case, RACE, method=rc.RecountMethod.HAND_COUNT)
    case.close()
    again = open_case(path, actor="tester")
    real = db.row_sums

    def no_full_read(conn: object) -> dict[str, int]:
        raise AssertionError("the whole case was read to digest one save")

    try:
        conn = again.conn
        rc.add_witness(again, RACE, name="W1", designated_by="Ada", side="Ada")  # checks
        monkeypatch.setattr(db, "row_sums", no_full_read)
        seen = []
        for k in range(2, 6):
            rc.add_witness(again, RACE, name=f"W{k}", designated_by="Ada", side="Ada")
            seen.append("witness" in conn.watched)  # type: ignore[attr-defined]
            monkeypatch.setattr(db, "row_sums", real)
            assert conn.sums[1] == _full(again)  # type: ignore[attr-defined]
            monkeypatch.setattr(db, "row_sums", no_full_read)
        # 2 rows: not watched; 3 after the save of W3: watched from W4's save on
        assert seen == [False, False, True, True]
        assert "election" not in conn.watched  # type: ignore[attr-defined]
        assert "precinct" in conn.watched  # type: ignore[attr-defined]
    finally:
        monkeypatch.setattr(db, "row_sums", real)
        again.close()
    assert verify_case(path).ok
