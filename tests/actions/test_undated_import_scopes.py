"""A canvass file that gives no election date, imported into a case: its contests' scopes
follow the case's election (its date picks the district map), not the day of the import.

State House 23 lay within Salt Lake County under the 2012-2021 maps and spans Salt Lake and
Summit under the maps in use from 2022 (core.districts)."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from recount_desk.actions import canvass, contests
from recount_desk.actions.case import create_case
from recount_desk.core.model import Election, ElectionKind, Scope
from recount_desk.core.rules import Verdict


def _undated(path: Path) -> Path:
    path.write_text("county,precinct,office,district,party,candidate,votes\n"
                    "Salt Lake,SL1,State House,23,DEM,Ann Lee,2000\n"
                    "Salt Lake,SL1,State House,23,REP,Bo Ray,1999\n", encoding="utf-8")
    return path


def test_an_undated_file_takes_the_cases_district_map(tmp_path: Path) -> None:
    parsed = canvass.read_file(_undated(tmp_path / "salt lake canvass.csv"))
    assert parsed.election_date is None
    # Read alone, no map is assumed: it could span counties.
    assert parsed.totals[0].contest.scope is not Scope.COUNTY
    case = create_case(tmp_path / "sl.recount", Election(
        "2016 General", date(2016, 11, 8), ElectionKind.GENERAL, "Salt Lake County",
        datetime(2016, 11, 22, 10, 0), "Clerk"), actor="clerk")
    canvass.import_canvass(case, parsed)
    (row,) = contests.overview(case)
    assert row.check.scope is not None and row.check.scope.scope is Scope.COUNTY
    assert not row.check.scope.overridden  # not "stored when imported (the import's settings)"
    assert row.check.decision.verdict is Verdict.WITHIN_MARGIN


def test_a_scope_the_officer_set_in_the_wizard_stands(tmp_path: Path) -> None:
    from recount_desk.actions import wizard
    parsed = canvass.read_file(_undated(tmp_path / "salt lake canvass.csv"))
    s = wizard.settings_of(parsed.totals[0].contest)
    chosen = Scope.STATEWIDE if s.scope is not Scope.STATEWIDE else Scope.MULTICOUNTY
    parsed = wizard.with_contest_settings(parsed, {0: wizard.ContestSettings(
        s.seats, chosen, s.voting_method, s.pass_rule)})
    case = create_case(tmp_path / "sl.recount", Election(
        "2016 General", date(2016, 11, 8), ElectionKind.GENERAL, "Salt Lake County",
        datetime(2016, 11, 22, 10, 0), "Clerk"), actor="clerk")
    canvass.import_canvass(case, parsed)
    (row,) = contests.overview(case)
    assert row.check.totals.contest.scope is chosen
