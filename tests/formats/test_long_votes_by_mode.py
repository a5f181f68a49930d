"""Long tables with votes by mode (election_day, mail …) beside the votes: a votes cell left
blank where the modes hold counts was read as 0 with a warning, the contest decided on too
few votes (Morgan 2018, Romney 3,837 for 4,144). It is an error on that contest now, and the
mode check's errors name the contest as the reader makes it (district as its number, no
party: a long table's party is the candidate's), so only that contest's verdict is
withheld."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from recount_desk.actions.canvass import check_parsed
from recount_desk.core.model import ContestKey, Severity
from recount_desk.formats import read_canvass

HEAD = "county,precinct,office,district,candidate,party,election_day,mail,votes\n"


def _verdicts(parsed) -> dict[str, bool]:
    return {c.totals.contest.key.title: c.decision.decided
            for c in check_parsed(parsed, election_date=date(2018, 11, 6)).contests}


def test_a_blank_votes_cell_whose_modes_hold_counts_withholds_its_contest(
        tmp_path: Path) -> None:
    f = tmp_path / "morgan_like.csv"
    f.write_text(HEAD + "Morgan,P1,County Commission,,Ann,REP,10,20,\n"
                 "Morgan,P1,County Commission,,Bo,DEM,1,2,\n"
                 "Morgan,P1,County Assessor,,Cy,REP,5,5,10\n"
                 "Morgan,P1,County Assessor,,Di,DEM,1,1,2\n"
                 "Morgan,P2,County Commission,,Ann,REP,4,4,8\n"
                 "Morgan,P2,County Commission,,Bo,DEM,3,3,6\n"
                 "Morgan,P2,County Assessor,,Cy,REP,7,8,15\n"
                 "Morgan,P2,County Assessor,,Di,DEM,0,1,1\n", encoding="utf-8")
    parsed = read_canvass(f)
    errs = [i for i in parsed.errors if "is blank, but its votes by mode" in i.message]
    assert len(errs) == 1
    err = errs[0]
    assert err.contest == ContestKey("County Commission")
    assert err.contest in {c.key for c in parsed.contests}
    assert (err.row, err.column, err.severity) == (2, "votes", Severity.ERROR)
    assert "(election_day 10 + mail 20)" in err.message
    assert any("2 row(s) in all, of 1 contest(s)" in i.message for i in parsed.issues)
    verdicts = _verdicts(parsed)
    assert not verdicts["County Commission"] and verdicts["County Assessor"]


def test_modes_over_the_votes_in_a_file_with_party_and_district_withhold_that_contest_only(
        tmp_path: Path) -> None:
    f = tmp_path / "districts.csv"
    f.write_text(HEAD + "Morgan,P1,State House,053,Ann,REP,10,20,30\n"
                 "Morgan,P1,State House,053,Bo,DEM,1,2,3\n"
                 "Morgan,P1,County Assessor,,Cy,REP,5,5,10\n"
                 "Morgan,P1,County Assessor,,Di,DEM,1,1,2\n"
                 "Morgan,P2,State House,053,Ann,REP,21,473,5\n"
                 "Morgan,P2,State House,053,Bo,DEM,3,3,6\n", encoding="utf-8")
    parsed = read_canvass(f)
    [err] = [i for i in parsed.errors if "add up to more than" in i.message]
    assert err.contest == ContestKey("State House", "53")
    assert err.contest in {c.key for c in parsed.contests}
    verdicts = _verdicts(parsed)
    assert verdicts["County Assessor"]
