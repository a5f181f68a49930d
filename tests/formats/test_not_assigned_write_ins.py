"""Write-in votes not assigned to a named write-in candidate ('NOT ASSIGNED' in Electionware's
exports, beside 'WRITE-IN: <name>', the two adding up to 'WRITE-IN TOTALS', as in Wayne
County's 2022 file, tests/data/openelections) are a line of the write-ins: counted in the
race's total, but no candidate — never the closest loser, never one who "may request"
(20A-4-401(1)(b)), and a race of one candidate beside them is uncontested (Cache County's
2020 'Sch Bd 1' had been "not eligible" by a margin over 'NOT ASSIGNED' 0; Davis's 2020
school board district 4 had its margin taken against it). The rows are made up in Wayne's
layout."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import ChoiceKind, is_aggregate_write_in
from recount_desk.core.rules import Verdict

HEADER = "county,precinct,office,district,party,candidate,votes\n"
NAME = "20221108__ut__general__wayne__precinct.csv"


def _check(tmp_path: Path, body: str) -> dict[str, object]:
    path = tmp_path / NAME
    path.write_text(HEADER + body, encoding="utf-8")
    result = check_parsed(read_file(path), election_date=date(2022, 11, 8))
    return {c.totals.contest.key.title: c for c in result.contests}


def test_not_assigned_is_no_candidate_who_may_ask(tmp_path: Path) -> None:
    # 'NOT ASSIGNED' one vote behind the winner: read as a candidate, it was "within the
    # margin" (400 × 1 <= 549) and "may request"; the real loser is 50 behind.
    body = ("WAYNE,Fremont,County Commissioner A,,REP,Pat Able,120\n"
            "WAYNE,Fremont,County Commissioner A,,DEM,Lee Baker,100\n"
            "WAYNE,Fremont,County Commissioner A,,,NOT ASSIGNED,119\n"
            "WAYNE,Loa,County Commissioner A,,REP,Pat Able,80\n"
            "WAYNE,Loa,County Commissioner A,,DEM,Lee Baker,50\n"
            "WAYNE,Loa,County Commissioner A,,,NOT ASSIGNED,80\n")
    check = _check(tmp_path, body)["County Commissioner A"]
    d = check.decision  # type: ignore[attr-defined]
    assert check.totals.total == 549  # type: ignore[attr-defined]  (the line counts in the total)
    assert d.verdict is Verdict.NOT_ELIGIBLE
    assert (d.lowest_winner, d.closest_loser, d.margin) == ("Pat Able", "Lee Baker", 50)
    assert "NOT ASSIGNED" not in d.who_may_request


def test_one_candidate_beside_not_assigned_is_uncontested(tmp_path: Path) -> None:
    body = ("WAYNE,Fremont,County Sheriff,,REP,Kim Carter,141\n"
            "WAYNE,Fremont,County Sheriff,,,NOT ASSIGNED,0\n")
    assert _check(tmp_path, body)["County Sheriff"].decision.verdict is \
        Verdict.UNCONTESTED  # type: ignore[attr-defined]


def test_write_in_totals_are_the_named_write_ins_and_the_unassigned(tmp_path: Path) -> None:
    body = ("WAYNE,Fremont,County Commissioner A,,REP,DENNIS G BLACKBURN,103\n"
            "WAYNE,Fremont,County Commissioner A,,,WRITE-IN TOTALS,36\n"
            "WAYNE,Fremont,County Commissioner A,,,WRITE-IN: MICHAEL T. ZIRWAS,33\n"
            "WAYNE,Fremont,County Commissioner A,,,NOT ASSIGNED,3\n"
            "WAYNE,Fremont,County Commissioner A,,,TOTAL VOTES CAST,139\n")
    check = _check(tmp_path, body)["County Commissioner A"]
    totals = check.totals  # type: ignore[attr-defined]
    got = {c.choice.name: (c.votes, c.choice.kind) for c in totals.choices}
    assert got == {"DENNIS G BLACKBURN": (103, ChoiceKind.CANDIDATE),
                   "WRITE-IN: MICHAEL T. ZIRWAS": (33, ChoiceKind.WRITE_IN),
                   "NOT ASSIGNED": (3, ChoiceKind.WRITE_IN)}
    assert totals.total == 139
    aggregate = {c.choice.name for c in totals.choices if is_aggregate_write_in(c.choice)}
    assert aggregate == {"NOT ASSIGNED"}
    assert check.decision.closest_loser == "WRITE-IN: MICHAEL T. ZIRWAS"  # type: ignore[attr-defined]
