"""Loading a re-tabulated statement of votes as a recount's tallies (actions.retab)."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions import canvass as canvass_actions
from recount_desk.actions import recount as rc
from recount_desk.actions import retab
from recount_desk.actions.case import Case, add_person, create_case
from recount_desk.actions.verify import verify_case
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.people import Role
from recount_desk.core.recount import EntryMode, RecountMethod, TallySheet, UnitStatus
from recount_desk.core.retab import ProblemKind, UnitSource
from recount_desk.store import repo

DATA = Path(__file__).parents[1] / "data" / "retab"
SL_CANVASS = DATA / "20161108__ut__general__salt_lake__precinct__legislature.csv"
SL_RECOUNT = DATA / "SOVC - Salt Lake Recount.xlsx"
HARRISON, CHRISTENSEN = "Suzanne Harrison", "Lavar Christensen"


def sl_case(tmp_path: Path, method: RecountMethod = RecountMethod.RETABULATION
            ) -> tuple[Case, int]:
    case = create_case(tmp_path / "sl.recount",
                       Election("2016 General Election", date(2016, 11, 8),
                                ElectionKind.GENERAL, "Salt Lake County",
                                datetime(2016, 11, 22, 12, 0)), actor="clerk")
    for name in ("Ann Lee", "Bo Park"):
        add_person(case, name, Role.DEPUTY)
    canvass_actions.import_canvass(case, canvass_actions.read_file(SL_CANVASS))
    cid = next(c.id for c in repo.contests(case.conn)
               if (c.totals.contest.key.title, c.totals.contest.key.district)
               == ("State House", "32"))
    rc.start_recount(case, cid, method=method, entry_mode=EntryMode.DOUBLE)
    return case, cid


def audit_len(case: Case) -> int:
    return sum(1 for _ in store.audit_entries(case.conn))


def test_the_salt_lake_hd32_recount_loads_from_its_statement_in_one_action(
        tmp_path: Path) -> None:
    case, cid = sl_case(tmp_path)
    with case:
        before = audit_len(case)
        preview = retab.preview_load(case, cid, SL_RECOUNT)
        assert preview.chosen.label == "STATE REPRESENTATIVE DIST #32"
        assert preview.matches[0].sure
        assert audit_len(case) == before  # the preview writes nothing
        assert preview.comparison.result_changes is False
        result = retab.load_retab(case, preview)
        assert audit_len(case) == before + 1
        assert result.loaded == 39
        state = rc.recount_state(case, cid)
        assert (state.readiness.units_counted, state.readiness.units_total) == (39, 39)
        assert dict(state.totals) == {HARRISON: 8536, CHRISTENSEN: 8541}
        assert all(u.status is UnitStatus.RECONCILED for u in state.units)
        last = store.last_entry(case.conn)
        assert last is not None and last.action == "load re-tabulated results"
        payload = json.loads(last.payload)["data"]
        assert payload["sha256"] == \
            "e1512f36d03248189670df52b0a461ee0eda11db82f11e23b810bc52f2f8bc49"
        assert payload["file"] == SL_RECOUNT.name
        sources = retab.unit_sources(case, cid)
        assert {s.source for s in sources.values()} == {UnitSource.LOADED}
    assert verify_case(tmp_path / "sl.recount").ok


def test_a_hand_count_recount_refuses_the_file(tmp_path: Path) -> None:
    case, cid = sl_case(tmp_path, RecountMethod.HAND_COUNT)
    with case, pytest.raises(rc.RecountError, match="only into a re-tabulation"):
        retab.preview_load(case, cid, SL_RECOUNT)


HEADER = "county,precinct,office,district,party,candidate,votes\n"


def long_csv(tmp_path: Path, name: str, rows: list[tuple[str, str, str]]) -> Path:
    path = tmp_path / name
    path.write_text(HEADER + "".join(f"Salt Lake,{p},State House,32,,{c},{v}\n"
                                     for p, c, v in rows), encoding="utf-8")
    return path


def _rows(precincts: dict[str, tuple[str, str]]) -> list[tuple[str, str, str]]:
    out = []
    for p, (h, c) in precincts.items():
        out += [(p, HARRISON, h), (p, CHRISTENSEN, c)]
    return out


def small_case(tmp_path: Path) -> tuple[Case, int]:
    canvass = long_csv(tmp_path, "canvass.csv", _rows({"A1": ("10", "12"), "A2": ("7", "3"),
                                                       "A3": ("5", "5")}))
    case = create_case(tmp_path / "small.recount",
                       Election("Test", date(2016, 11, 8), ElectionKind.GENERAL, "Salt Lake "
                                "County", datetime(2016, 11, 22, 12, 0)), actor="clerk")
    for name in ("Ann", "Bob"):
        add_person(case, name, Role.DEPUTY)
    canvass_actions.import_canvass(case, canvass_actions.read_file(canvass))
    cid = repo.contests(case.conn)[0].id
    rc.start_recount(case, cid, method=RecountMethod.RETABULATION)
    return case, cid


def state_digest(case: Case) -> str:
    return store.state_digest(case.conn)


@pytest.mark.parametrize(("rows", "kind"), [
    (_rows({"A1": ("10", "12"), "A2": ("7", "3"), "A3": ("5", "5"), "B9": ("1", "1")}),
     ProblemKind.UNKNOWN_PRECINCT),
    ([*_rows({"A1": ("10", "12"), "A2": ("7", "3"), "A3": ("5", "5")}),
      ("A1", "Joe Bloggs", "4")], ProblemKind.UNKNOWN_CANDIDATE),
    ([(p, HARRISON, v) for p, v in (("A1", "10"), ("A2", "7"), ("A3", "5"))],
     ProblemKind.CANDIDATE_MISSING),
], ids=["precinct-not-in-canvass", "candidate-not-in-canvass", "candidate-missing"])
def test_a_file_that_disagrees_is_refused_and_the_case_is_unchanged(
        tmp_path: Path, rows: list[tuple[str, str, str]], kind: ProblemKind) -> None:
    case, cid = small_case(tmp_path)
    with case:
        path = long_csv(tmp_path, "recount.csv", rows)
        preview = retab.preview_load(case, cid, path, file_contest=0)
        assert preview.refused
        assert kind in {p.kind for p in preview.problems}
        before = state_digest(case), audit_len(case)
        with pytest.raises(retab.RetabRefused, match="Nothing was changed") as err:
            retab.load_retab(case, preview, confirm=True)
        assert kind in {p.kind for p in err.value.problems}
        assert (state_digest(case), audit_len(case)) == before
        assert rc.recount_state(case, cid).readiness.units_counted == 0


def test_a_blank_count_read_as_zero_refuses_the_file_naming_its_row(tmp_path: Path) -> None:
    case, cid = small_case(tmp_path)
    with case:
        rows = _rows({"A1": ("10", "12"), "A2": ("7", "3"), "A3": ("5", "5")})
        rows[3] = ("A2", CHRISTENSEN, "")
        preview = retab.preview_load(case, cid, long_csv(tmp_path, "recount.csv", rows))
        assert preview.refused
        assert [(p.kind, p.row) for p in preview.problems] == [(ProblemKind.READ_WARNING, 5)]


def test_a_missing_unit_is_listed_and_loaded_only_on_confirmation(tmp_path: Path) -> None:
    case, cid = small_case(tmp_path)
    with case:
        path = long_csv(tmp_path, "recount.csv", _rows({"A1": ("11", "12"), "A3": ("5", "5")}))
        preview = retab.preview_load(case, cid, path)
        assert not preview.refused and preview.needs_confirmation
        assert [p.unit for p in preview.problems] == ["A2"]
        assert preview.comparison.result_changes is None  # never a verdict on part
        before = state_digest(case)
        with pytest.raises(retab.RetabRefused, match="confirm"):
            retab.load_retab(case, preview)
        assert state_digest(case) == before
        res = retab.load_retab(case, preview, confirm=True)
        assert res.left_for_hand == ("A2",)
        st = rc.recount_state(case, cid)
        assert st.readiness.units_counted == 2
        assert {u.name: u.status for u in st.units}["A2"] is UnitStatus.NOT_STARTED


def test_a_precinct_without_a_candidate_figure_is_left_for_a_hand_count(
        tmp_path: Path) -> None:
    case, cid = small_case(tmp_path)
    with case:
        rows = _rows({"A1": ("10", "12"), "A2": ("7", "3"), "A3": ("5", "5")})
        del rows[3]  # no figure for Christensen in A2
        preview = retab.preview_load(case, cid, long_csv(tmp_path, "recount.csv", rows))
        assert [(p.kind, p.unit, p.row) for p in preview.problems] == \
            [(ProblemKind.BLANK_FIGURES, "A2", 4)]
        assert not preview.refused


def test_suppressed_counts_read_as_zero_refuse_the_file(tmp_path: Path) -> None:
    """The long reader reads '*' as 0 (and says so); a recount must not record it as 0."""
    case, cid = small_case(tmp_path)
    with case:
        rows = _rows({"A1": ("10", "12"), "A2": ("7", "3"), "A3": ("5", "5")})
        rows[3] = ("A2", CHRISTENSEN, "*")
        preview = retab.preview_load(case, cid, long_csv(tmp_path, "recount.csv", rows))
        assert preview.refused
        assert [p.kind for p in preview.problems] == [ProblemKind.SUPPRESSED]


def test_a_loaded_unit_replaced_by_a_hand_count_shows_both_sources(tmp_path: Path) -> None:
    case, cid = small_case(tmp_path)
    with case:
        path = long_csv(tmp_path, "recount.csv", _rows({"A1": ("10", "12"), "A2": ("7", "3"),
                                                        "A3": ("5", "5")}))
        retab.load_retab(case, retab.preview_load(case, cid, path))
        sheet = TallySheet(15, {HARRISON: 8, CHRISTENSEN: 3}, 0, 0, 4)
        with pytest.raises(rc.RecountError, match="replace it by a hand count"):
            rc.enter_tally(case, cid, "A2", entry=1, officer="Ann", sheet=sheet)
        with pytest.raises(rc.RecountError, match="Say why"):
            retab.hand_count_unit(case, cid, "A2", note="  ")
        retab.hand_count_unit(case, cid, "A2", note="Ballot bag 14 damaged; counted by hand")
        assert rc.recount_state(case, cid).readiness.units_counted == 2
        rc.enter_tally(case, cid, "A2", entry=1, officer="Ann", sheet=sheet)
        rc.enter_tally(case, cid, "A2", entry=2, officer="Bob", sheet=sheet)
        st = rc.recount_state(case, cid)
        assert st.readiness.units_counted == 3
        assert dict(st.totals) == {HARRISON: 23, CHRISTENSEN: 20}
        src = retab.unit_sources(case, cid)
        assert src["A1"].source is UnitSource.LOADED
        assert src["A2"].source is UnitSource.HAND
        assert "Ballot bag 14" in src["A2"].text
        # a second load keeps the hand-counted unit
        again = retab.preview_load(case, cid, path)
        assert again.kept == ("A2",)
        retab.load_retab(case, again)
        assert retab.unit_sources(case, cid)["A2"].source is UnitSource.HAND
        assert dict(rc.recount_state(case, cid).totals) == {HARRISON: 23, CHRISTENSEN: 20}


def _finish(case: Case, cid: int) -> None:
    from recount_desk.core.recount import BoardKind, BoardMember

    rc.confirm_no_envelopes(case, cid, note="None were left unopened.")
    rc.declare(case, cid, on=date(2016, 12, 5))
    rc.set_board_members(case, cid, [BoardMember("A One", "Council Chair"),
                                      BoardMember("B Two", "Council Member"),
                                      BoardMember("C Three", "Council Member")])
    rc.convene_board(case, cid, convened_at=datetime(2016, 12, 6, 10, 0),
                     place="Salt Lake County Government Center", body_size=3,
                     board_kind=BoardKind.COUNTY)


def test_the_report_names_the_file_its_sha256_and_each_units_source(tmp_path: Path) -> None:
    from pypdf import PdfReader

    from recount_desk.actions import report as report_actions

    case, cid = sl_case(tmp_path)
    with case:
        retab.load_retab(case, retab.preview_load(case, cid, SL_RECOUNT))
        retab.hand_count_unit(case, cid, "SAN088", note="Ballot bag re-sealed; hand count")
        sheet = TallySheet(0, {HARRISON: 0, CHRISTENSEN: 0}, 0, 0, 0)
        rc.enter_tally(case, cid, "SAN088", entry=1, officer="Ann Lee", sheet=sheet)
        rc.enter_tally(case, cid, "SAN088", entry=2, officer="Bo Park", sheet=sheet)
        _finish(case, cid)
        out = tmp_path / "report.pdf"
        report_actions.make_report(case, cid, out, appendix=True)
        text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(str(out)).pages)
    sha = "e1512f36d03248189670df52b0a461ee0eda11db82f11e23b810bc52f2f8bc49"
    assert "re-tabulation, loaded from SOVC - Salt Lake Recount.xlsx (SHA-256 " in text
    assert sha in text.replace(" ", "")
    assert "Hand count: Ballot bag re-sealed; hand count" in text
    assert "38 unit(s) counted from it" in text
    assert "load re-tabulated results" in text  # the audit appendix names the action


def test_a_recount_export_read_wrongly_is_refused_by_the_canvass_readers_gate(
        tmp_path: Path) -> None:
    # The statement is read as the canvass is, plausibility gate included: its party column
    # taken for the candidates is refused when the file is read, naming why, before any
    # comparison is offered.
    case, _cid = small_case(tmp_path)
    with case:
        path = tmp_path / "recount.csv"
        path.write_text("county,precinct,office,district,candidate,party,votes\n" + "".join(
            f"Salt Lake,{p},{office},{party},{name},{v}\n"
            for office in ("State House,32", "State Senate,5")
            for p, name, v in _rows({"A1": ("10", "12"), "A2": ("7", "3"), "A3": ("5", "5")})
            for party in ["DEM" if name == HARRISON else "REP"]), encoding="utf-8")
        before = state_digest(case), audit_len(case)
        with pytest.raises(retab.ImportFailed, match="party"):
            retab.read_retab_file(path)
        assert (state_digest(case), audit_len(case)) == before
