"""Property tests: random canvasses survive a write-and-import, and the margin test is exact."""

from __future__ import annotations

import csv
import tempfile
from fractions import Fraction
from pathlib import Path

import openpyxl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recount_desk.actions.canvass import read_file
from recount_desk.core.model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
)
from recount_desk.core.rules import Edition, decide
from recount_desk.formats import plausibility

# Letters with accents, but none of the pairs that look like mojibake ("Ã©").
LETTERS = "abcdefghijklmnoprstuvyzéèêñüöøåçłşžABCDEFGHJKLMNOPRSTVWZÉÑÖ"
word = st.text(LETTERS, min_size=2, max_size=10)


def _candidate_like(name: str) -> bool:
    """Not a name the plausibility gate takes for a statistic ("AA PERCENT", "Turnout x"):
    a canvass with such a "candidate" is refused, rightly, and round-trips nothing."""
    return not (plausibility._STATISTIC.match(name) or plausibility._PERCENT.search(name))


@st.composite
def canvasses(draw: st.DrawFn) -> dict[tuple[str, str, str], int]:
    """{(precinct, contest, choice): votes} for precincts × contests × choices."""
    n_prec = draw(st.integers(1, 5))
    precincts = [f"P{i:02d} {draw(word)}" for i in range(n_prec)]
    n_contests = draw(st.integers(1, 3))
    out: dict[tuple[str, str, str], int] = {}
    for c in range(n_contests):
        title = f"Office {c} {draw(word)}"
        names = draw(st.lists(st.tuples(word, word).map(lambda t: f"{t[0]} {t[1]}")
                              .filter(_candidate_like), min_size=1, max_size=4,
                              unique_by=str.casefold))
        for p in precincts:
            for n in names:
                out[(p, title, n)] = draw(st.integers(0, 250_000))
    return out


HEADER = ["county", "precinct", "office", "district", "party", "candidate", "votes"]


def rows_of(canvass: dict[tuple[str, str, str], int]) -> list[list[object]]:
    return [["Grand", p, c, "", "", n, v] for (p, c, n), v in canvass.items()]


def expected_totals(canvass: dict[tuple[str, str, str], int]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for (_, c, n), v in canvass.items():
        out[(c, n)] = out.get((c, n), 0) + v
    return out


def imported_totals(path: Path) -> dict[tuple[str, str], int]:
    parsed = read_file(path)
    assert not parsed.errors, [str(i) for i in parsed.errors]
    assert parsed.family == "long"
    return {(t.contest.key.title, ct.choice.name): ct.votes
            for t in parsed.totals for ct in t.choices}


FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(canvasses(), st.booleans())
def test_long_csv_round_trip_keeps_every_total(canvass: dict, thousands: bool) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "canvass.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(HEADER)
            for r in rows_of(canvass):
                w.writerow([*r[:6], f"{r[6]:,}" if thousands else r[6]])
        assert imported_totals(path) == expected_totals(canvass)


@FAST
@given(canvasses())
def test_long_xlsx_round_trip_keeps_every_total(canvass: dict) -> None:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "canvass.xlsx"
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.append(HEADER)
        for r in rows_of(canvass):
            ws.append(r)
        wb.save(path)
        assert imported_totals(path) == expected_totals(canvass)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 5000), min_size=2, max_size=6), st.integers(1, 3),
       st.sampled_from(list(Edition)))
def test_margin_test_agrees_with_exact_fractions(votes: list[int], seats: int,
                                                 edition: Edition) -> None:
    contest = Contest(ContestKey("Council", "", ""), ContestKind.RACE, seats=seats)
    totals = ContestTotals(contest, tuple(
        ChoiceTotal(Choice(f"Candidate {i}", "", ChoiceKind.CANDIDATE), v)
        for i, v in enumerate(votes)))
    d = decide(totals, edition)
    total = sum(votes)
    ranked = sorted(votes, reverse=True)
    if total == 0 or len(votes) <= seats:
        assert not d.within_margin or len(votes) > seats
        return
    margin = ranked[seats - 1] - ranked[seats]
    # 20A-4-401(1)(b): at most 0.25 % of the total; (1)(c): one vote where ≤ 400 were cast.
    within = Fraction(margin, total) <= Fraction(25, 10000) or (total <= 400 and margin <= 1)
    assert d.margin == margin
    assert d.within_margin == within
    assert d.threshold == max(1, int(Fraction(total, 400)))
