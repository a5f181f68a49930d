"""Clarity ENR's summary.csv (one county's contests, no precincts: ``line number, contest
name, choice name, party name, total votes, percent of votes, registered voters, ballots
cast, num Area total, num Area rptg, over votes, under votes``) is read as the Summary of
Votes it is, under its own name: the party column read, the contest's over and under votes
(repeated on every choice row) taken once, the percentages and statistics no choices, the
seats from the ballot arithmetic. A summary made while areas were still reporting is no
canvass: each such contest is an error bound to it and gets no verdict. The rows are made
up, in the columns of Clarity's export (a Colorado summary.csv names them so)."""

from __future__ import annotations

from pathlib import Path

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import ExtraKind, Severity
from recount_desk.core.rules import Verdict

HEADER = ('"line number","contest name","choice name","party name","total votes",'
          '"percent of votes","registered voters","ballots cast","num Area total",'
          '"num Area rptg","over votes","under votes"\n')


def _rows(rptg: int = 11) -> str:
    return (
        '1,"County Commission Seat A","Pat Able","REP",1500,50.17,4730,3080,11,11,2,88\n'
        '2,"County Commission Seat A","Lee Baker","DEM",1490,49.83,4730,3080,11,11,2,88\n'
        f'3,"County Attorney","Kim Carter","REP",2400,60.00,4730,4012,11,{rptg},4,8\n'
        f'4,"County Attorney","Dana Dunn","UNA",1600,40.00,4730,4012,11,{rptg},4,8\n')


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "summary.csv"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def test_read_as_a_summary_of_votes_under_its_own_name(tmp_path: Path) -> None:
    parsed = read_file(_write(tmp_path, _rows()))
    assert parsed.detection is not None and "Clarity ENR summary.csv" in parsed.detection.label
    assert not parsed.doubtful
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    seat_a, attorney = parsed.totals
    assert [(c.choice.name, c.choice.party, c.votes) for c in seat_a.choices] == [
        ("Pat Able", "REP", 1500), ("Lee Baker", "DEM", 1490)]
    # once per contest, not once per choice row
    assert seat_a.extras[ExtraKind.OVER] == 2 and seat_a.extras[ExtraKind.UNDER] == 88
    assert attorney.extras[ExtraKind.UNDER] == 8
    # 1 × 3,080 = 2,990 + 88 + 1 × 2 (and 4,012 = 4,000 + 8 + 4): one seat each, from the file
    assert [(t.contest.seats, t.contest.seats_from_file) for t in parsed.totals] == [
        (1, True), (1, True)]


def test_a_contest_with_areas_not_yet_reported_gets_no_verdict(tmp_path: Path) -> None:
    parsed = read_file(_write(tmp_path, _rows(rptg=10)))
    (err,) = [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert err.contest is not None and err.contest.title == "County Attorney"
    assert err.column == "num Area rptg" and err.row == 4
    assert "only 10 of its 11 areas (precincts) had reported" in err.message
    checks = {c.totals.contest.key.title: c.decision for c in check_parsed(parsed).contests}
    assert checks["County Attorney"].verdict is Verdict.UNDECIDABLE
    # the other contest, every area reported, keeps its verdict (10 votes, threshold 7)
    assert checks["County Commission Seat A"].verdict is Verdict.NOT_ELIGIBLE
