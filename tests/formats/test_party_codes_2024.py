"""Utah's 2024 ballots name parties the readers did not know (session 17, Beaver 2024 laid
out by hand): GRE (the Green Party's code there), UFP (the Forward Party), and the
presidential parties' PSL, ASP and SWP. In a party row the row was not taken for the
parties (so they were read as the contests' titles, doubted); after a name in brackets
('JILL STEIN (GRE)') the party stayed in the name."""

from __future__ import annotations

from pathlib import Path

from workbooks import write_workbook

from recount_desk.formats import read_canvass


def _totals(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


def test_a_party_row_of_2024_codes(tmp_path: Path):
    rows = [["2024 General Election - Official Canvass"], [],
            [None, None, None, "President", None, None, None, "State Treasurer", None],
            [None, None, None, "REP", "DEM", "GRE", "PSL", "REP", "UFP"],
            ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Donald J. Trump",
             "Kamala D. Harris", "Jill Stein", "Claudia De La Cruz", "Marlo M. Oaks",
             "Miles Pomeroy"],
            ["BEAVER 1", 900, 700, 500, 150, 8, 2, 520, 74],
            ["BEAVER 2", 800, 600, 450, 120, 5, 1, 470, 60]]
    parsed = read_canvass(write_workbook(tmp_path / "b.xlsx", {"2024 General": rows}))
    assert parsed.family == "handbuilt" and not parsed.doubts
    assert _totals(parsed)["State Treasurer"] == {"Marlo M. Oaks": 990, "Miles Pomeroy": 134}
    parties = {c.name: c.party for cs in parsed.choices for c in cs}
    assert (parties["Jill Stein"], parties["Miles Pomeroy"], parties["Claudia De La Cruz"]) \
        == ("GRE", "UFP", "PSL")


def test_a_2024_code_after_a_name_in_brackets(tmp_path: Path):
    rows = [["Beaver County 2024 General Election Canvass"], [],
            [None, "Total", "BEAVER 1", "BEAVER 2", "MILFORD 1"], [], ["President"],
            ["DONALD J. TRUMP (REP)", 1400, 500, 450, 450], ["JILL STEIN (GRE)", 15, 8, 5, 2],
            [], ["State Treasurer"], ["MARLO M. OAKS (REP)", 1300, 520, 470, 310],
            ["MILES POMEROY (UFP)", 160, 74, 60, 26]]
    parsed = read_canvass(write_workbook(tmp_path / "s.xlsx", {"Canvass": rows}))
    assert parsed.family == "sideways"
    assert _totals(parsed) == {"President": {"DONALD J. TRUMP": 1400, "JILL STEIN": 15},
                               "State Treasurer": {"MARLO M. OAKS": 1300, "MILES POMEROY": 160}}
