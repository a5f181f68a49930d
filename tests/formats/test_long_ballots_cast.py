"""A long table's 'Ballots Cast' rows bound its contests' votes, as a grid's ballots column
does: a contest with more votes in a precinct than ballots cast there is an error bound to
that contest, never a verdict. Found on Kane County's 2022 OpenElections file
(the shared corpus's ``openelections-ut/2022/counties/20221108__ut__general__kane__precinct.csv``):
a 'Write-ins' line beside a named write-in counted both, 614 votes on 451 ballots in a
commission race. The rows below are made up in that file's layout."""

from __future__ import annotations

from pathlib import Path

from recount_desk.actions.canvass import read_file
from recount_desk.core.model import Severity

HEADER = "county,precinct,office,district,party,candidate,votes\n"


def _write(tmp_path: Path, body: str, name: str = "20221108__ut__general__kane__precinct"
           ) -> Path:
    path = tmp_path / f"{name}.csv"
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def _errors(parsed: object) -> list[str]:
    return [i.message for i in parsed.issues  # type: ignore[attr-defined]
            if i.severity is Severity.ERROR]


ROWS = (
    "Kane,KA1,Ballots Cast,,,,{b1}\n"
    "Kane,KA1,County Commission Seat A,,REP,Pat Able,{a1}\n"
    "Kane,KA1,County Commission Seat A,,DEM,Lee Baker,{c1}\n"
    "Kane,KA2,Ballots Cast,,,,300\n"
    "Kane,KA2,County Commission Seat A,,REP,Pat Able,150\n"
    "Kane,KA2,County Commission Seat A,,DEM,Lee Baker,140\n"
)


def test_more_votes_than_ballots_cast_in_a_precinct_is_an_error(tmp_path: Path) -> None:
    parsed = read_file(_write(tmp_path, ROWS.format(b1=451, a1=400, c1=214)))
    (err,) = [m for m in _errors(parsed) if "ballots cast" in m]
    assert "precinct 'KA1' has 614 votes but 451 ballots cast" in err
    assert "No verdict rests on this contest's figures" in err
    (bound,) = [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert bound.contest is not None and bound.contest.title == "County Commission Seat A"


def test_votes_within_the_ballots_cast_are_no_error(tmp_path: Path) -> None:
    parsed = read_file(_write(tmp_path, ROWS.format(b1=451, a1=240, c1=200)))
    assert _errors(parsed) == []
    (race,) = parsed.totals
    assert race.total == 240 + 200 + 150 + 140


def test_statistic_in_the_choice_column_and_blank_ballots_rows(tmp_path: Path) -> None:
    # 'BALLOTS CAST - TOTAL' named as the choice is the ballots cast; 'Ballots Cast - Blank'
    # and 'Paper Ballots Cast' are parts of them and bound nothing.
    body = ("Sevier,Annabella,,,,BALLOTS CAST - TOTAL,100\n"
            "Sevier,Annabella,Ballots Cast - Blank,,,,3\n"
            "Sevier,Annabella,Paper Ballots Cast,,,,5\n"
            "Sevier,Annabella,U.S. Senate,,REP,Mike Lee,80\n"
            "Sevier,Annabella,U.S. Senate,,UNA,Evan McMullin,30\n"
            "Sevier,Aurora,,,,BALLOTS CAST - TOTAL,100\n"
            "Sevier,Aurora,U.S. Senate,,REP,Mike Lee,60\n"
            "Sevier,Aurora,U.S. Senate,,UNA,Evan McMullin,30\n")
    parsed = read_file(_write(tmp_path, body, "20221108__ut__general__sevier__precinct"))
    (err,) = [m for m in _errors(parsed) if "ballots cast" in m]
    assert "precinct 'Annabella' has 110 votes but 100 ballots cast" in err


def test_two_figures_for_one_precinct_bound_nothing(tmp_path: Path) -> None:
    # Which of two different 'Ballots Cast' figures bounds the precinct cannot be told.
    body = ROWS.format(b1=451, a1=400, c1=214) + "Kane,KA1,Ballots Cast,,,,700\n"
    assert not [m for m in _errors(read_file(_write(tmp_path, body))) if "ballots cast" in m]


def test_a_primary_s_ballots_cast_bound_nothing(tmp_path: Path) -> None:
    # A primary's 'Ballots Cast' may be all parties' or one party's: no bound is taken.
    parsed = read_file(_write(tmp_path, ROWS.format(b1=451, a1=400, c1=214),
                              "20220628__ut__primary__kane__precinct"))
    assert not [m for m in _errors(parsed) if "ballots cast" in m]


def test_the_totals_row_s_ballots_bound_no_precinct(tmp_path: Path) -> None:
    # The county's totals row is no precinct: its ballots bound nothing.
    body = ROWS.format(b1=451, a1=240, c1=200) + (
        "Kane,Total,Ballots Cast,,,,10\n"
        "Kane,Total,County Commission Seat A,,REP,Pat Able,390\n"
        "Kane,Total,County Commission Seat A,,DEM,Lee Baker,340\n")
    assert _errors(read_file(_write(tmp_path, body))) == []
