"""Electionware "Summary Results Report" CSV (family 3): Box Elder 2018 primary, 2020 PPP.

Expected figures were added up by hand (awk) from the precinct blocks of each file."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "ess_summary"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


CASES = [
    ("box_elder_2018p_summary.csv", 5, "REP US SENATE", "REP",
     {"MITT ROMNEY": 5795, "MIKE KENNEDY": 2323}),
    ("box_elder_2020ppp_summary.csv", 2, "Republican for U.S. President", "REP",
     {"ROBERT ARDINI": 74, "MATTHEW JOHN MATERN": 123, "BOB ELY": 28, "JOE WALSH": 180,
      "BILL WELD": 367, '(ROQUE "ROCKY" DE LA FUENTE) WITHDRAWN': 50, "DONALD J. TRUMP": 7574}),
]


@pytest.mark.parametrize(("name", "n_contests", "title", "party", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_summary_report_stacks_53_precincts_and_reads_seats(
        name: str, n_contests: int, title: str, party: str, expected: dict[str, int]) -> None:
    path = DATA / name
    found = detect(path)
    assert found[0].family == "ess_summary"
    assert all(d.confidence < found[0].confidence for d in found[1:])
    pc = read_canvass(path)
    assert len(pc.contests) == n_contests
    assert len(pc.precincts) == 53
    assert totals_of(pc, title) == expected
    c = next(c for c in pc.contests if c.key.title == title)
    assert c.key.party == party
    assert (c.seats, c.seats_from_file) == (1, True)
    assert pc.primary is True
    assert pc.errors == []
    # Seats come from 'Vote For 1': no "one seat is assumed" note.
    assert not [i for i in pc.issues if "seat each is assumed" in i.message]


def test_total_votes_cast_and_contest_totals_are_not_choices() -> None:
    pc = read_canvass(DATA / "box_elder_2020ppp_summary.csv")
    dem = totals_of(pc, "Democratic for U.S. President")
    assert "Total Votes Cast" not in dem
    assert "Contest Totals" not in dem
    assert dem["BERNIE SANDERS"] == 403
    assert "BC01" in pc.precincts


def test_page_breaks_do_not_split_a_precinct() -> None:
    pc = read_canvass(DATA / "box_elder_2018p_summary.csv")
    # Bear River East's contests run over two printed pages.
    titles = {c.key.title for c in pc.contests}
    assert titles == {"REP US SENATE", "REP UT SENATE 17", "REP COMMISSION A",
                      "REP COMMISSION B", "DEM US HOUSE DIST 1"}
    assert "Bear River East" in pc.precincts
    assert not any(p.startswith(("PRIMARY", "Summary")) for p in pc.precincts)


def test_garbled_count_is_an_error_with_its_row(tmp_path: Path) -> None:
    src = (DATA / "box_elder_2018p_summary.csv").read_text(encoding="utf-8")
    lines = src.splitlines()
    i = lines.index("MITT ROMNEY,,61,")
    lines[i] = "MITT ROMNEY,,sixty-one,"
    bad = tmp_path / "garbled.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pc = read_canvass(bad)
    hits = [x for x in pc.issues if "has no vote count" in x.message]
    assert hits
    assert hits[0].row == i + 1
    assert hits[0].severity is Severity.ERROR
    assert totals_of(pc, "REP US SENATE")["MITT ROMNEY"] == 5795 - 61
