"""Issue #12 (2): hidden counts and official totals, as the builder hands them to the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.rules import Edition, Verdict, decide
from recount_desk.formats import read_canvass
from recount_desk.formats.base import RawCanvass
from recount_desk.formats.canvass import build
from recount_desk.formats.stages import frame

OE = Path(__file__).parents[1] / "data" / "openelections"
WEBER = OE / "20181106__ut__general__weber__precinct.csv"

KEY = ("Mayor", "", "")


def raw(*, hidden: dict[str, list[str]] | None = None, ballots: dict[str, int] | None = None,
        totals: dict[str, int] | None = None, b_p2: int = 0) -> RawCanvass:
    rows = [("P1", "Mayor", "", "", "Ann", "", "candidate", 600),
            ("P1", "Mayor", "", "", "Bob", "", "candidate", 400),
            ("P2", "Mayor", "", "", "Ann", "", "candidate", 0),
            ("P2", "Mayor", "", "", "Bob", "", "candidate", b_p2)]
    return RawCanvass("t.csv", "long", frame(rows), hidden={KEY: hidden} if hidden else {},
                      ballots=ballots or {}, file_totals={KEY: totals} if totals else {},
                      suppressed={KEY} if hidden else set())


@pytest.mark.parametrize(
    ("r", "verdict", "official"),
    [(raw(hidden={"Ann": ["P2"], "Bob": ["P2"]}), Verdict.UNDECIDABLE, False),
     (raw(hidden={"Ann": ["P2"], "Bob": ["P2"]}, ballots={"P1": 1000, "P2": 9}),
      Verdict.NOT_ELIGIBLE, False),
     (raw(hidden={"Ann": ["P2"], "Bob": ["P2"]}, ballots={"P1": 1000, "P2": 300}),
      Verdict.UNDECIDABLE, False),
     (raw(hidden={"Ann": ["P2"], "Bob": ["P2"]}, totals={"Ann": 604, "Bob": 403}),
      Verdict.NOT_ELIGIBLE, True),
     (raw(totals={"Ann": 600, "Bob": 400}), Verdict.NOT_ELIGIBLE, True),
     (raw(totals={"Ann": 600, "Bob": 598}, b_p2=0), Verdict.UNDECIDABLE, True)],
    ids=["(1)(b) hidden cells, no ballots, no totals: cannot be decided",
         "(1)(b) hidden cells bounded by the precinct's 9 ballots: decided",
         "(1)(b) hidden cells bounded by 300 ballots could change it: cannot be decided",
         "(1)(b) the file's totals are official: decided on them",
         "(1)(b) totals agree with the precincts",
         "(1)(b) totals contradict the precincts with nothing hidden: cannot be decided"],
)
def test_builder_hands_hidden_counts_and_official_totals_to_the_verdict(
        r: RawCanvass, verdict: Verdict, official: bool) -> None:
    parsed = build(r)
    t = parsed.totals[0]
    assert t.official is official
    assert decide(t, Edition.Y2019).verdict is verdict


def test_weber_2018_marks_each_suppressed_cell() -> None:
    parsed = read_canvass(WEBER)
    by = {(t.contest.key.title, t.contest.key.district): t for t in parsed.totals}
    hd8 = by[("State House", "8")]
    assert (hd8.hidden_cells, hd8.official) == (2, False)
    assert set(hd8.hidden_max.values()) == {None}
    assert by[("State House", "12")].hidden_cells == 0
    assert sum(t.hidden_cells for t in parsed.totals) == 70
