"""core.retab: which contest of a re-tabulated statement, which precinct, what is refused."""

from __future__ import annotations

import pytest

from recount_desk.core.model import (
    Choice,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestTotals,
)
from recount_desk.core.recount import RecountUnit, SheetLayout, TallySheet, UnitStatus
from recount_desk.core.retab import (
    FileContest,
    FilePrecinct,
    ProblemKind,
    compare_load,
    district_of,
    loaded_unit_state,
    match_precinct,
    norm_person,
    office_of,
    plan_load,
    precinct_matcher,
    propose_contest,
)

HD32 = ContestKey("State House", "32")
CANDS = ("Suzanne Harrison", "Lavar Christensen")
LAYOUT = SheetLayout(CANDS)


@pytest.mark.parametrize(("title", "district", "office", "number"), [
    ("STATE REPRESENTATIVE DIST #32", "", "state house", "32"),
    ("State House", "32", "state house", "32"),
    ("State Representative District 7", "", "state house", "7"),
    ("UNITED STATES REPRESENTATIVE DIST #4", "", "us house", "4"),
    ("State Senator District 06", "", "state senate", "6"),
    ("County Commission Seat A", "", "county commission seat a", ""),
], ids=["slco-recount", "openelections", "spelled-out", "us-house", "senate-leading-zero",
        "no-district"])
def test_office_and_district_are_read_from_the_title(title: str, district: str, office: str,
                                                      number: str) -> None:
    key = ContestKey(title, district)
    assert office_of(title) == office
    assert district_of(key) == number


@pytest.mark.parametrize(("a", "b"), [
    ("LAVAR CHRISTENSEN", "Lavar Christensen"),
    ("SUZANNE HARRISON (DEM)", "Suzanne Harrison"),
    ("Christine F. Watkins", "CHRISTINE WATKINS"),
], ids=["case", "party-code", "middle-initial"])
def test_candidate_names_match_ignoring_case_party_code_and_initials(a: str, b: str) -> None:
    assert norm_person(a) == norm_person(b)


def test_the_recounted_contest_is_proposed_first_and_sure() -> None:
    file_contests = [
        FileContest(0, ContestKey("STATE REPRESENTATIVE DIST #33"), ("CRAIG HALL", "X Y")),
        FileContest(1, ContestKey("STATE REPRESENTATIVE DIST #32"),
                    ("SUZANNE HARRISON", "LAVAR CHRISTENSEN")),
        FileContest(2, ContestKey("STATE SENATOR DIST #32"),
                    ("SUZANNE HARRISON", "LAVAR CHRISTENSEN")),
    ]
    best, *rest = propose_contest(HD32, CANDS, file_contests)
    assert best.contest.index == 1
    assert best.sure
    assert not any(m.sure for m in rest)


def test_a_different_district_with_the_same_names_is_not_sure() -> None:
    m = propose_contest(HD32, CANDS, [FileContest(0, ContestKey("State House", "33"),
                                                  ("Suzanne Harrison", "Lavar Christensen"))])
    assert not m[0].sure
    assert "district 33, not 32" in m[0].reasons


UNITS = (RecountUnit("P1", ("P1",)), RecountUnit("P2", ("P2",)), RecountUnit("P3", ("P3",)))
CANVASS_PRECINCTS = ("P1", "P2", "P3")
FC = FileContest(0, ContestKey("STATE REPRESENTATIVE DIST #32"),
                 ("SUZANNE HARRISON", "LAVAR CHRISTENSEN"))


def fp(name: str, h: int | None, c: int | None, row: int | None = None) -> FilePrecinct:
    votes = {k: v for k, v in (("SUZANNE HARRISON", h), ("LAVAR CHRISTENSEN", c))
             if v is not None}
    return FilePrecinct(name, row, votes)


def test_every_unit_in_the_file_is_loaded_as_one_sheet_each() -> None:
    plan = plan_load(LAYOUT, UNITS, CANVASS_PRECINCTS, FC,
                     [fp("p1", 10, 12), fp("P2", 3, 4), fp("P3", 0, 1)])
    assert not plan.problems
    assert plan.sheets["P1"] == TallySheet(None, {"Suzanne Harrison": 10,
                                                  "Lavar Christensen": 12}, None, None, None)
    assert set(plan.sheets) == {"P1", "P2", "P3"}


@pytest.mark.parametrize(("rows", "kind", "refused"), [
    ([fp("P1", 1, 1), fp("P2", 1, 1), fp("P3", 1, 1), fp("P9", 5, 5, row=12)],
     ProblemKind.UNKNOWN_PRECINCT, True),
    ([fp("P1", 1, 1), fp("P2", 1, 1), fp("P3", 1, 1), fp("p 1", 1, 1, row=9)],
     ProblemKind.DUPLICATE_PRECINCT, True),
    ([fp("P1", 1, 1), fp("P2", 1, 1)], ProblemKind.UNIT_MISSING, False),
    ([fp("P1", 1, 1), fp("P2", None, 1, row=7), fp("P3", 1, 1)],
     ProblemKind.BLANK_FIGURES, False),
], ids=["precinct-not-in-canvass", "precinct-twice", "unit-missing", "suppressed-cell"])
def test_what_does_not_fit_is_listed_and_only_lost_votes_refuse(
        rows: list[FilePrecinct], kind: ProblemKind, refused: bool) -> None:
    plan = plan_load(LAYOUT, UNITS, CANVASS_PRECINCTS, FC, rows)
    assert [p.kind for p in plan.problems] == [kind]
    assert plan.refused is refused
    if not refused:
        assert len(plan.sheets) == 2
        assert plan.left_for_hand == (plan.problems[0].unit,)


def test_a_candidate_the_canvass_does_not_have_refuses_the_file() -> None:
    fc = FileContest(0, FC.key, ("SUZANNE HARRISON", "LAVAR CHRISTENSEN", "JOE BLOGGS"))
    plan = plan_load(LAYOUT, UNITS, CANVASS_PRECINCTS, fc, [fp("P1", 1, 1)])
    assert plan.refused
    assert any(p.kind is ProblemKind.UNKNOWN_CANDIDATE and "JOE BLOGGS" in p.text
               for p in plan.problems)


def test_a_canvass_candidate_missing_from_the_file_refuses_it() -> None:
    fc = FileContest(0, FC.key, ("SUZANNE HARRISON",))
    plan = plan_load(LAYOUT, UNITS, CANVASS_PRECINCTS, fc, [fp("P1", 1, None)])
    assert plan.refused
    assert any(p.kind is ProblemKind.CANDIDATE_MISSING for p in plan.problems)


def test_precincts_match_by_code_when_the_names_differ() -> None:
    m = precinct_matcher(["02 Moab 2:69", "05 Moab 4:69"])
    assert match_precinct("02", m) == "02 Moab 2:69"
    assert match_precinct("MOAB 4:69", m) == "05 Moab 4:69"
    assert match_precinct("07", m) is None


def test_a_loaded_unit_counts_without_a_second_entry_and_without_ballots() -> None:
    st = loaded_unit_state(UNITS[0], LAYOUT, TallySheet(None, dict.fromkeys(CANDS, 3)))
    assert st.status is UnitStatus.RECONCILED
    assert st.check is None


def test_a_loaded_unit_with_ballots_is_still_checked() -> None:
    sheet = TallySheet(10, dict.fromkeys(CANDS, 3), 0, 0, 0)
    assert loaded_unit_state(UNITS[0], LAYOUT, sheet).status is UnitStatus.WARNING_NEEDS_NOTE
    assert loaded_unit_state(UNITS[0], LAYOUT, sheet, "tape re-read").status \
        is UnitStatus.ACCEPTED_WITH_WARNING


def _canvass(h: int, c: int) -> ContestTotals:
    return ContestTotals(Contest(HD32), (ChoiceTotal(Choice(CANDS[0]), h),
                                         ChoiceTotal(Choice(CANDS[1]), c)))


def test_the_comparison_says_when_the_declared_result_changes() -> None:
    by_p = {"P1": {CANDS[0]: 10, CANDS[1]: 11}, "P2": {CANDS[0]: 5, CANDS[1]: 5}}
    units = UNITS[:2]
    loaded = {"P1": TallySheet(None, {CANDS[0]: 12, CANDS[1]: 11}),
              "P2": TallySheet(None, {CANDS[0]: 5, CANDS[1]: 5})}
    cmp = compare_load(_canvass(15, 16), LAYOUT, units, by_p, loaded, {})
    assert cmp.change_total == {CANDS[0]: 2, CANDS[1]: 0}
    assert cmp.canvass_winners == (CANDS[1],)
    assert cmp.recount_winners == (CANDS[0],)
    assert cmp.result_changes is True
    assert "CHANGES" in cmp.result_text


def test_no_verdict_on_the_result_while_units_are_open() -> None:
    by_p = {"P1": {CANDS[0]: 10, CANDS[1]: 11}, "P2": {CANDS[0]: 5, CANDS[1]: 5}}
    cmp = compare_load(_canvass(15, 16), LAYOUT, UNITS[:2], by_p,
                       {"P1": TallySheet(None, {CANDS[0]: 10, CANDS[1]: 11})}, {})
    assert cmp.result_changes is None
    assert "not judged" in cmp.result_text
    assert cmp.rows[1].recount is None
