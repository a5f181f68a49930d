"""Electionware Statement of Votes Cast custom table (family 4): Davis County 2016 and 2022
primaries. Figures checked by hand against each file's own Totals / Election Total row."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "ess_custom"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


def precinct_votes(pc, precinct: str, title: str) -> dict[str, int]:
    p = pc.precincts.index(precinct)
    c = next(i for i, x in enumerate(pc.contests) if x.key.title == title)
    return {pc.choices[c][ch].name: v for pp, cc, ch, v in zip(
        pc.vote_precinct, pc.vote_contest, pc.vote_choice, pc.vote_count, strict=True)
        if pp == p and cc == c}


CASES = [
    ("davis_2016p_sovc.xlsx", 5, 201, "U.S. Senate", "",
     {"Misty K Snow": 2504, "Jonathan Swinton": 1742}, None),
    ("davis_2022p_sovc.xlsx", 17, 374, "REP U.S. SENATE", "REP",
     {"BECKY EDWARDS": 18144, "ALLY ISOM": 5284, "MIKE LEE": 28647}, 1),
]


@pytest.mark.parametrize(("name", "n_contests", "n_precincts", "title", "party", "expected",
                          "seats"), CASES, ids=[c[0] for c in CASES])
def test_statement_reads_real_totals_and_agrees_with_its_totals_row(
        name: str, n_contests: int, n_precincts: int, title: str, party: str,
        expected: dict[str, int], seats: int | None) -> None:
    path = DATA / name
    found = detect(path)
    assert found[0].family == "ess_custom"
    assert all(d.confidence < found[0].confidence for d in found[1:])
    pc = read_canvass(path)
    assert len(pc.contests) == n_contests
    assert len(pc.precincts) == n_precincts
    assert totals_of(pc, title) == expected
    contest = next(c for c in pc.contests if c.key.title == title)
    assert contest.key.party == party
    if seats is not None:
        assert (contest.seats, contest.seats_from_file) == (seats, True)
    assert pc.primary is True
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert pc.errors == []


def test_2016_sub_rows_are_not_double_counted() -> None:
    pc = read_canvass(DATA / "davis_2016p_sovc.xlsx")
    # Bountiful 1: Polling 0 + By Mail 21 + … + By Mail After 2 = Total 23 for Misty K Snow.
    assert precinct_votes(pc, "Bountiful 1", "U.S. Senate") == {"Misty K Snow": 23,
                                                                "Jonathan Swinton": 13}
    assert "Election Total" not in pc.precincts
    assert any("'Total' sub-row" in i.message for i in pc.issues)


def test_dash_means_not_on_the_ballot() -> None:
    pc = read_canvass(DATA / "davis_2016p_sovc.xlsx")
    # 'Rep 20' shows '-' in Bountiful 1: no row at all, not a zero.
    assert precinct_votes(pc, "Bountiful 1", "Rep 20") == {}


def test_garbled_cell_is_an_error_with_row_and_column(tmp_path: Path) -> None:
    from openpyxl import load_workbook

    wb = load_workbook(DATA / "davis_2022p_sovc.xlsx")
    ws = wb.worksheets[0]
    assert ws["C8"].value == "BO01:I-S-"
    assert ws["L8"].value == 57
    ws["L8"] = "5?"
    bad = tmp_path / "garbled.xlsx"
    wb.save(bad)
    pc = read_canvass(bad)
    hits = [i for i in pc.issues if "not a whole number" in i.message]
    assert hits
    assert (hits[0].row, hits[0].column, hits[0].severity) == (8, "L", Severity.ERROR)
    assert hits[0].sheet == "Custom Table Report"
