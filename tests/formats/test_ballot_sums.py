"""The checks of votes over ballots sum every column at once (plausibility.BallotSums): the
same contests, first precincts, votes and counts as summing each contest's columns
precinct by precinct, as the gate did before (a property test)."""

from __future__ import annotations

from array import array
from types import SimpleNamespace
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.core.model import VoteColumn
from recount_desk.formats import plausibility
from recount_desk.formats.plausibility import _ballots_and_sums, _cells, _over


@st.composite
def readings(draw):
    n_prec = draw(st.integers(1, 12))
    n_contests = draw(st.integers(1, 5))
    columns = []
    for ci in range(n_contests):
        for q in range(draw(st.integers(1, 4))):
            ps = sorted(draw(st.sets(st.integers(1, n_prec), max_size=n_prec)))
            vs = [draw(st.integers(0, 60)) for _ in ps]
            columns.append(VoteColumn(ci, q, array("q", ps), array("q", vs)))
    precincts = [f"P{i}" for i in range(n_prec)]
    ballots = {p: draw(st.integers(0, 50)) for p in precincts if draw(st.booleans())}
    limits = [draw(st.integers(1, 3)) for _ in range(n_contests)]
    return SimpleNamespace(precincts=precincts, columns=columns), \
        SimpleNamespace(ballots=ballots), limits


def _by_hand(parsed, raw, limits):
    out = {}
    for ci in sorted({c.contest for c in parsed.columns}):
        per: dict[int, int] = {}
        for c in parsed.columns:
            if c.contest == ci:
                for p, v in zip(c.precincts, c.votes, strict=True):
                    per[p] = per.get(p, 0) + v
        bad = [(p, v) for p, v in sorted(per.items())
               if parsed.precincts[p - 1] in raw.ballots
               and v > limits[ci] * raw.ballots[parsed.precincts[p - 1]]]
        if bad:
            out[ci] = (bad[0][0], bad[0][1], len(bad))
    return out


@settings(max_examples=300, deadline=None)
@given(readings())
def test_votes_over_ballots_as_summed_by_hand(reading):
    import numpy as np

    parsed, raw, limits = reading
    for cells, dense in ((None, 8), (_cells(parsed), 8), (None, -1000)):
        # (both ways of summing: in place, and over the pairs that have cells)
        with patch.object(plausibility, "_DENSE", dense):
            sums = _ballots_and_sums(raw, parsed, cells)
        assert _over(sums, np.array(limits, dtype=np.int64)) == _by_hand(parsed, raw, limits)
