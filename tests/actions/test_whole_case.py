"""A county's case and its multicounty contests: typed official totals, the other counties'
files, the lieutenant governor's order and the transmittal (all audited)."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk.actions import canvass, contests, whole_case
from recount_desk.actions.case import Case, create_case
from recount_desk.core.model import Election, ElectionKind
from recount_desk.core.rules import Office, Requester, Verdict

DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"
GRAND = DATA / "20181106__ut__general__grand__precinct.csv"
OTHERS = [DATA / "trimmed" / "2018" / f"20181106__ut__general__{c}__precinct.csv"
          for c in ("carbon", "duchesne", "emery")]


@pytest.fixture
def case(tmp_path: Path) -> Case:
    c = create_case(tmp_path / "grand.recount", Election(
        "2018 General", date(2018, 11, 6), ElectionKind.GENERAL, "Grand County",
        datetime(2018, 11, 20, 10, 0), "Clerk"), actor="clerk")
    canvass.import_canvass(c, canvass.read_file(GRAND))
    return c


def hd69(case: Case) -> contests.ContestRow:
    return next(r for r in contests.overview(case)
                if r.check.totals.contest.key.district == "69")


def actions(case: Case) -> list[str]:
    return [a for (a,) in case.conn.execute("SELECT action FROM audit ORDER BY seq")]


def test_grand_alone_is_a_portion_and_a_request_is_not_eligible(case: Case) -> None:
    row = hd69(case)
    assert row.check.portion and row.check.within_margin is None
    assert row.check.decision.verdict is Verdict.PORTION
    assert "A portion only" in row.check.figures_text()
    ev = contests.evaluate(case, row.id, requester=Requester.CANDIDATE,
                           candidate="Christine Watkins", voters=[],
                           filed_at=datetime(2018, 11, 21, 9, 0),
                           filed_with=Office.LIEUTENANT_GOVERNOR)
    assert not ev.eligible.ok and "whole race" in ev.eligible.text
    part = whole_case.county_part(case, row.id)
    assert part.portion and not part.declares_winner
    assert part.report_variant == "county_portion"


def test_typed_official_totals_decide_the_whole_race(case: Case) -> None:
    row = hd69(case)
    with pytest.raises(whole_case.WholeRaceRefused, match="No whole-race figure"):
        whole_case.enter_whole_race_totals(case, row.id, {"Tim Glenn": 3320},
                                           source="State canvass")
    with pytest.raises(whole_case.WholeRaceRefused, match="less than"):
        whole_case.enter_whole_race_totals(case, row.id, {"Tim Glenn": 3,
                                                          "CHRISTINE F. WATKINS": 8589},
                                           source="State canvass")
    whole_case.enter_whole_race_totals(case, row.id, {"Tim Glenn": 3320,
                                                      "CHRISTINE F. WATKINS": 8589},
                                       source="State canvass, Nov 26, 2018")
    row = hd69(case)
    assert not row.check.portion
    assert row.check.decision.verdict is Verdict.NOT_ELIGIBLE
    assert row.check.decision.total == 11909
    assert row.check.county_totals is not None
    assert "Tim Glenn 843" in row.check.figures_text()
    assert actions(case)[-1] == whole_case.TYPED


def test_the_other_counties_files_make_the_whole_race(case: Case) -> None:
    out = whole_case.combine_counties(case, OTHERS)
    got = {c.label: c for c in out}
    assert got["State House — District 69"].whole
    assert not got["State House — District 70"].whole  # Sanpete and Sevier not given
    row = hd69(case)
    assert {c.choice.name: c.votes for c in row.check.totals.choices} == {
        "Tim Glenn": 3320, "Christine Watkins": 8589}
    assert row.check.within_margin is False
    assert row.check.coverage is not None and row.check.coverage.whole


def test_order_then_transmittal(case: Case) -> None:
    row = hd69(case)
    with pytest.raises(whole_case.WholeRaceRefused, match="order first"):
        whole_case.record_transmittal(case, row.id, sent_at=datetime(2018, 12, 3, 9, 0),
                                      how="registered mail")
    whole_case.record_recount_order(case, row.id, ordered_at=datetime(2018, 11, 28, 9, 0),
                                    reference="Letter of the lieutenant governor, Nov 28")
    whole_case.record_transmittal(case, row.id, sent_at=datetime(2018, 12, 3, 9, 0),
                                  how="registered mail")
    part = whole_case.county_part(case, row.id)
    assert part.ordered is not None and part.transmitted is not None
    assert part.transmitted["how"] == "registered mail"
    assert actions(case)[-2:] == [whole_case.ORDER, whole_case.TRANSMIT]


def test_a_county_race_takes_no_whole_race_figures(tmp_path: Path) -> None:
    c = create_case(tmp_path / "sl.recount", Election(
        "2018 General", date(2018, 11, 6), ElectionKind.GENERAL, "Salt Lake County",
        datetime(2018, 11, 20, 10, 0), "Clerk"), actor="clerk")
    canvass.import_canvass(c, canvass.read_file(
        DATA / "trimmed" / "2018" / "20181106__ut__general__salt_lake__precinct.csv"))
    row = next(r for r in contests.overview(c) if r.check.totals.contest.key.title ==
               "State House" and r.check.totals.contest.key.district == "32")
    assert not row.check.portion
    with pytest.raises(whole_case.WholeRaceRefused, match="within the county"):
        whole_case.enter_whole_race_totals(c, row.id, {}, source="x")


def test_a_city_across_a_county_line_is_a_portion_in_the_case_and_no_lg_order(
        tmp_path: Path) -> None:
    # Park City (Summit and Wasatch): Summit's case shows its part with no verdict, takes
    # Wasatch's file for the whole city, and refuses a lieutenant governor's order.
    summit = tmp_path / "20231107__ut__municipal__summit__precinct.csv"
    summit.write_text("county,precinct,office,district,party,candidate,votes\n"
                      "Summit,S1,Park City Council,,,Ann Cole,1000\n"
                      "Summit,S1,Park City Council,,,Bo Lund,999\n", encoding="utf-8")
    wasatch = tmp_path / "20231107__ut__municipal__wasatch__precinct.csv"
    wasatch.write_text("county,precinct,office,district,party,candidate,votes\n"
                       "Wasatch,W1,Park City Council,,,Ann Cole,80\n"
                       "Wasatch,W1,Park City Council,,,Bo Lund,20\n", encoding="utf-8")
    c = create_case(tmp_path / "summit.recount", Election(
        "2023 Municipal General", date(2023, 11, 7), ElectionKind.MUNICIPAL_GENERAL,
        "Summit County", datetime(2023, 11, 21, 10, 0), "Clerk"), actor="clerk")
    canvass.import_canvass(c, canvass.read_file(summit))
    (row,) = contests.overview(c)
    assert row.check.portion and row.check.within_margin is None
    with pytest.raises(whole_case.WholeRaceRefused, match="a city's race"):
        whole_case.record_recount_order(c, row.id, ordered_at=datetime(2023, 11, 30, 9, 0),
                                        reference="letter")
    whole_case.combine_counties(c, [wasatch])
    (row,) = contests.overview(c)
    assert not row.check.portion and row.check.decision.total == 2099
    assert row.check.decision.verdict is Verdict.NOT_ELIGIBLE
