"""A race whose seats nobody stated, with more votes than ballots cast (session 14): a
hand-built workbook whose contest title was merged one column too far ran the next
contest's candidates into it, that contest's title lost under the merge, and the reading
was offered as done: one race of four candidates, the other contest gone. More than one
vote a ballot is what the one seat assumed cannot give."""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.core.model import Remedy, Severity
from recount_desk.formats import read_canvass

HEAD = ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %"]
CANDS = ["Ann Able", "Bob Baker", "Cy Cole", "Di Dunn"]
ROWS = [["P1", 300, 200, 0.67, 120, 80, 110, 90], ["P2", 250, 150, 0.6, 70, 80, 100, 50],
        ["P3", 100, 80, 0.8, 40, 40, 30, 45]]


def _read(tmp_path: Path, titles: list[object]):
    rows = [["2024 General Election"], ["", "", "", "", *titles], [*HEAD, *CANDS], *ROWS]
    return read_canvass(write_workbook(tmp_path / "b.xlsx", {"2024 General": rows}))


def test_two_contests_run_into_one_by_a_lost_title_withhold_its_verdict(tmp_path):
    parsed = _read(tmp_path, ["Mayor", "", "", ""])   # ('Clerk' lost under Mayor's merge)
    assert [c.key.title for c in parsed.contests] == ["Mayor"]
    errors = [i for i in parsed.errors if i.only_contest]
    assert len(errors) == 1 and errors[0].contest.title == "Mayor"
    assert errors[0].remedy is Remedy.SET_SEATS
    assert ("Mayor: precinct 'P1' has 400 votes but 200 ballots cast (and 2 more precincts "
            "like it): more than one vote a ballot") in errors[0].message
    assert [c.key.title for c in parsed.withheld] == ["Mayor"]


def test_the_two_contests_apart_or_two_seats_stated_are_not_doubted(tmp_path):
    apart = _read(tmp_path, ["Mayor", "", "Clerk", ""])
    assert sorted(c.key.title for c in apart.contests) == ["Clerk", "Mayor"]
    assert not apart.errors
    # Four candidates for two seats: up to two votes a ballot.
    two = _read(tmp_path, ["Council (Vote for 2)", "", "", ""])
    assert not [i for i in two.issues if i.severity is Severity.ERROR]
