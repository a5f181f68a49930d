"""A re-tabulation load's tallies stored as one row of integer blobs (case format 9): a
change made to them outside Recount Desk — one recounted count inside a blob, a load
deleted, two loads swapped, a set-aside undone — is named by ``verify`` and refused by the
next action; and a case of format 8 with a loaded recount opens, migrates and verifies."""

from __future__ import annotations

import json
import shutil
import sqlite3
from array import array
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import canvass as canvass_actions
from recount_desk.actions import recount as rc
from recount_desk.actions import retab
from recount_desk.actions.case import add_person, create_case, open_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.people import Role
from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet
from recount_desk.core.retab import UnitSource
from recount_desk.store import recount_repo as rr
from recount_desk.store import repo
from recount_desk.store.migrations import SCHEMA_VERSION
from tests.store.outside import outside_edit

DATA = Path(__file__).parents[1] / "data" / "retab"
FORMAT8 = DATA / "format8-hd32-loaded.recount"
SL_RECOUNT = DATA / "SOVC - Salt Lake Recount.xlsx"
HEADER = "county,precinct,office,district,party,candidate,votes\n"
NAMES = ("Ada Lovelace", "Ben Franklin")


def _csv(path: Path, votes: dict[str, tuple[int, int]], office: str = "State House") -> Path:
    rows = [HEADER] + [f"Sample,{p},{office},7,,{c},{v}\n"
                       for p, vs in votes.items() for c, v in zip(NAMES, vs, strict=True)]
    path.write_text("".join(rows), encoding="utf-8")
    return path


CANVASS = {"P1": (100, 90), "P2": (50, 61), "P3": (70, 70), "P4": (12, 30)}
FIRST = {"P1": (101, 90), "P2": (50, 61), "P3": (70, 70), "P4": (12, 30)}
SECOND = {"P1": (100, 90), "P2": (50, 62), "P3": (70, 70), "P4": (12, 31)}


@pytest.fixture
def two_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, int]:
    """A case whose recount was loaded twice (the second load replaces the first), one
    unit then set aside for a hand count."""
    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path / "data"))
    path = tmp_path / "loads.recount"
    with create_case(path, Election("Bench", date(2024, 11, 5), ElectionKind.GENERAL,
                                    "Sample County", datetime(2024, 11, 19, 10, 0)),
                     actor="clerk") as case:
        canvass_actions.import_canvass(case, canvass_actions.read_file(
            _csv(tmp_path / "canvass.csv", CANVASS)))
        cid = repo.contests(case.conn)[0].id
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION)
        for votes, name in ((FIRST, "first.csv"), (SECOND, "second.csv")):
            retab.load_retab(case, retab.preview_load(case, cid, _csv(tmp_path / name, votes)))
        retab.hand_count_unit(case, cid, "P3", note="Bag 3 re-sealed; hand count")
    assert verify_case(path).ok
    return path, cid


def _tallies(path: Path) -> list[tuple[int, int, bytes, bytes]]:
    c = sqlite3.connect(str(path))
    try:
        return c.execute("SELECT load_id, width, units, votes FROM retab_tally "
                         "ORDER BY load_id").fetchall()
    finally:
        c.close()


def _refused_next(path: Path, cid: int, words: str) -> None:
    """The next action is refused, naming what differs, and writes nothing."""
    with open_case(path, actor="clerk") as case:
        before = store.last_entry(case.conn)
        with pytest.raises(store.CaseChangedOutside, match=words):
            rc.set_variance_note(case, cid, "P1", "checked")
        assert store.last_entry(case.conn) == before


def test_a_load_writes_one_row_and_its_audit_entry_records_the_tallies_digest(
        two_loads: tuple[Path, int]) -> None:
    path, cid = two_loads
    rows = _tallies(path)
    assert [r[0] for r in rows] == [1, 2]
    c = sqlite3.connect(str(path))
    try:
        assert c.execute("SELECT count(*) FROM tally_entry").fetchone()[0] == 0
        assert c.execute("SELECT count(*) FROM tally_vote").fetchone()[0] == 0
        payloads = [json.loads(p)["data"] for (p,) in c.execute(
            "SELECT payload FROM audit WHERE action='load re-tabulated results' ORDER BY seq")]
        stored = c.execute("SELECT width, units, choices, ballots, write_ins, over_votes, "
                           "under_votes, votes FROM retab_tally ORDER BY load_id").fetchall()
    finally:
        c.close()
    assert [p["tallies_sha256"] for p in payloads] == \
        [rr.tally_digest(r[0], r[1:]) for r in stored]
    with open_case(path, actor="clerk") as case:
        st = rc.recount_state(case, cid)
        assert dict(st.totals) == {NAMES[0]: 162, NAMES[1]: 183}  # P3 open: hand count
        src = retab.unit_sources(case, cid)
        assert src["P1"].source is UnitSource.LOADED
        assert src["P3"].source is UnitSource.NONE and "Bag 3" in src["P3"].text


def _edit_vote(path: Path, load_id: int, index: int, delta: int) -> None:
    load, width, _units, votes = next(r for r in _tallies(path) if r[0] == load_id)
    a = array({4: "i", 8: "q"}[width])
    a.frombytes(votes)
    a[index] += delta
    outside_edit(path, f"UPDATE retab_tally SET votes = X'{a.tobytes().hex()}' "
                       f"WHERE load_id = {load}")


def test_one_recounted_count_changed_inside_a_blob_is_named(two_loads: tuple[Path, int]
                                                            ) -> None:
    path, cid = two_loads
    _edit_vote(path, 2, 1, 50)  # P2's first choice in the second (current) load
    with open_case(path, actor="clerk") as case:
        assert dict(rc.recount_state(case, cid).totals)[NAMES[0]] == 212  # the edit shows…
    result = verify_case(path)
    assert not result.ok  # … and verify names it
    assert any("the loaded tallies differ" in p for p in result.problems), result.problems
    _refused_next(path, cid, "the loaded tallies")


def test_a_count_changed_in_an_earlier_replaced_load_is_named_too(
        two_loads: tuple[Path, int]) -> None:
    path, cid = two_loads
    _edit_vote(path, 1, 0, -1)  # the first load's P1, replaced by the second: still covered
    result = verify_case(path)
    assert not result.ok and any("the loaded tallies" in p for p in result.problems)
    _refused_next(path, cid, "the loaded tallies")


def test_a_deleted_load_is_named(two_loads: tuple[Path, int]) -> None:
    path, cid = two_loads
    outside_edit(path, "DELETE FROM retab_tally WHERE load_id = 2; "
                       "DELETE FROM retab_set_aside WHERE load_id = 2; "
                       "DELETE FROM retab_load WHERE id = 2")
    result = verify_case(path)
    assert not result.ok
    text = "; ".join(result.problems)
    assert "the loaded tallies" in text and "the re-tabulation loads" in text
    _refused_next(path, cid, "the loaded tallies")


def test_two_loads_swapped_are_named(two_loads: tuple[Path, int]) -> None:
    path, cid = two_loads
    outside_edit(path, "UPDATE retab_tally SET load_id = -load_id; "
                       "UPDATE retab_tally SET load_id = 3 + load_id WHERE load_id < 0")
    assert [r[0] for r in _tallies(path)] == [1, 2]  # the first load's tallies are newest now
    with open_case(path, actor="clerk") as case:
        assert dict(rc.recount_state(case, cid).totals) == {NAMES[0]: 163, NAMES[1]: 181}
    result = verify_case(path)
    assert not result.ok and any("the loaded tallies differ" in p for p in result.problems)
    _refused_next(path, cid, "the loaded tallies")


def test_a_set_aside_undone_is_named(two_loads: tuple[Path, int]) -> None:
    path, cid = two_loads
    outside_edit(path, "DELETE FROM retab_set_aside")
    result = verify_case(path)
    assert not result.ok
    assert any("the loaded units set aside" in p for p in result.problems), result.problems
    _refused_next(path, cid, "the loaded units set aside")


@pytest.mark.parametrize("sheet", [
    TallySheet(None, {NAMES[0]: -1, NAMES[1]: 3}, None, None, None),
    TallySheet(-2, {NAMES[0]: 1, NAMES[1]: 3}, None, None, None),
], ids=["vote", "ballots"])
def test_a_negative_count_is_never_stored(two_loads: tuple[Path, int], sheet: TallySheet
                                         ) -> None:
    """-1 and -2 say "not given" and "no such choice" in the blobs: a count there would be
    misread, so it is refused (a bug upstream, never a file's figure: the plan refuses it)."""
    path, cid = two_loads
    with open_case(path, actor="clerk") as case:
        before = store.last_entry(case.conn)
        unit = rr.units(case.conn, cid)[0].id
        with pytest.raises(ValueError, match="negative"), \
                store.transaction(case.conn, "clerk", "load re-tabulated results") as tx:
            rr.add_load_tallies(tx, 1, [(unit, sheet)], rr.choice_ids(case.conn, cid), "o",
                                "2024-11-20T10:00", "clerk")
        assert store.last_entry(case.conn) == before
    assert verify_case(path).ok


def test_a_format_8_case_with_a_loaded_recount_migrates_and_verifies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path / "data"))
    path = tmp_path / "old.recount"
    shutil.copy(FORMAT8, path)
    c = sqlite3.connect(str(path))
    assert c.execute("PRAGMA user_version").fetchone()[0] == 8
    c.close()
    with open_case(path, actor="clerk") as case:
        assert case.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        last = store.last_entry(case.conn)
        assert last is not None and last.action == "migrate case file"
        data = json.loads(last.payload)["data"]
        assert (data["from_version"], data["data_matched_log"]) == (8, True)
        cid = rr.recount_contest_ids(case.conn)[0]
        st = rc.recount_state(case, cid)
        # as format 8 left it: 37 loaded units, SAN088 hand-counted, one set aside
        assert (st.readiness.units_counted, st.readiness.units_total) == (38, 39)
        assert dict(st.totals) == {"Suzanne Harrison": 8524, "Lavar Christensen": 8534}
        src = retab.unit_sources(case, cid)
        assert src["SAN088"].source is UnitSource.HAND
        assert sum(s.source is UnitSource.LOADED for s in src.values()) == 37
        aside = [u for u, s in src.items() if s.source is UnitSource.NONE]
        assert len(aside) == 1 and "Seal broken" in src[aside[0]].text
    assert (tmp_path / "old.v8-backup.recount").exists()
    assert verify_case(path).ok
    # a load made now (format 9) replaces the old load's units, keeps the hand count
    with open_case(path, actor="clerk") as case:
        again = retab.preview_load(case, cid, SL_RECOUNT)
        assert again.kept == ("SAN088",)
        retab.load_retab(case, again, confirm=True)
        st = rc.recount_state(case, cid)
        assert (st.readiness.units_counted, st.readiness.units_total) == (39, 39)
        src = retab.unit_sources(case, cid)
        assert src["SAN088"].source is UnitSource.HAND
        assert all(s.source is UnitSource.LOADED for u, s in src.items() if u != "SAN088")
        retab.hand_count_unit(case, cid, aside[0], note="Counted by hand after all")
        assert rc.recount_state(case, cid).readiness.units_counted == 38
    assert verify_case(path).ok


def test_a_loaded_unit_replaced_by_a_hand_count_keeps_its_loaded_tally_in_history(
        two_loads: tuple[Path, int]) -> None:
    path, cid = two_loads
    with open_case(path, actor="clerk") as case:
        add_person(case, "Ann Lee", Role.DEPUTY)
        add_person(case, "Bo Park", Role.DEPUTY)
        sheet = TallySheet(139, {NAMES[0]: 70, NAMES[1]: 69}, 0, 0, 0)
        rc.enter_tally(case, cid, "P3", entry=1, officer="Ann Lee", sheet=sheet)
        rc.enter_tally(case, cid, "P3", entry=2, officer="Bo Park", sheet=sheet)
        st = rc.recount_state(case, cid)
        assert [u.status.counts for u in st.units] == [True] * 4, [u.status for u in st.units]
        assert dict(st.totals) == {NAMES[0]: 232, NAMES[1]: 252}
        assert retab.unit_sources(case, cid)["P3"].source is UnitSource.HAND
        # a third load keeps the hand-counted unit and reloads the rest
        again = retab.preview_load(case, cid, _csv(path.parent / "third.csv", FIRST))
        assert again.kept == ("P3",)
        retab.load_retab(case, again)
        assert dict(rc.recount_state(case, cid).totals) == {NAMES[0]: 233, NAMES[1]: 250}
    c = sqlite3.connect(str(path))
    try:  # the loads' tallies are all kept
        assert c.execute("SELECT count(*) FROM retab_tally").fetchone()[0] == 3
    finally:
        c.close()
    assert verify_case(path).ok


@pytest.mark.parametrize("mode", [EntryMode.DOUBLE, EntryMode.SINGLE], ids=["double", "single"])
def test_the_recount_cannot_be_started_again_once_loaded(tmp_path: Path, mode: EntryMode,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path / "data"))
    with create_case(tmp_path / "c.recount", Election(
            "Bench", date(2024, 11, 5), ElectionKind.GENERAL, "Sample County",
            datetime(2024, 11, 19, 10, 0)), actor="clerk") as case:
        canvass_actions.import_canvass(case, canvass_actions.read_file(
            _csv(tmp_path / "canvass.csv", CANVASS)))
        cid = repo.contests(case.conn)[0].id
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION, entry_mode=mode)
        retab.load_retab(case, retab.preview_load(case, cid, _csv(tmp_path / "r.csv", FIRST)))
        with pytest.raises(rc.RecountError):
            rc.start_recount(case, cid, method=RecountMethod.HAND_COUNT)


def test_loads_and_a_set_aside_keep_the_running_digest_on_both_engines(
        new_case_at, tmp_path: Path,  # type: ignore[no-untyped-def]
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A load's one row of blobs, and a set-aside, are added to the state digest as the
    action's rows (the file's triggers, the server's row log), not by reading the case."""
    from recount_desk.store import db

    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path / "data"))
    location = new_case_at("loads.recount")
    with create_case(location, Election("Bench", date(2024, 11, 5), ElectionKind.GENERAL,
                                        "Sample County", datetime(2024, 11, 19, 10, 0)),
                     actor="clerk") as case:
        canvass_actions.import_canvass(case, canvass_actions.read_file(
            _csv(tmp_path / "canvass.csv", CANVASS)))
        cid = repo.contests(case.conn)[0].id
        rc.start_recount(case, cid, method=RecountMethod.RETABULATION)
        calls: list[int] = []
        real = db.row_sums

        def counted(conn: object) -> dict[str, int]:
            calls.append(1)
            return real(conn)  # type: ignore[arg-type]

        monkeypatch.setattr(db, "row_sums", counted)
        for votes, name in ((FIRST, "first.csv"), (SECOND, "second.csv")):
            retab.load_retab(case, retab.preview_load(case, cid, _csv(tmp_path / name, votes)))
        retab.hand_count_unit(case, cid, "P3", note="Bag 3 re-sealed; hand count")
        monkeypatch.undo()
        assert calls == []
        assert case.conn.sums is not None  # type: ignore[attr-defined]
        assert case.conn.sums[1] == db.row_sums(case.conn)  # type: ignore[attr-defined]
        assert dict(rc.recount_state(case, cid).totals) == {NAMES[0]: 162, NAMES[1]: 183}
    assert verify_case(location).ok
