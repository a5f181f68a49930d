"""The ES&S statement reader's ballot arithmetic (ess_sovc._most_to_a_ballot) worked out in
arrays gives what the exact integer comparison gives, precinct by precinct: the first
precinct with the most votes to a ballot, and the precincts with more votes than ballots."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.formats import blocks
from recount_desk.formats.ess_sovc import _most_to_a_ballot


def _exact(allv: list[int], cand: list[int], ballots: list[int | None]):
    best = None
    for i, b in enumerate(ballots):
        if b and (best is None or allv[i] * best[1] > best[0] * b):
            best = (allv[i], b, i)
    return best, blocks.over_ballots(zip(cand, ballots, strict=True))


count = st.integers(0, 3000) | st.sampled_from([0, 1, 2, 999, 1000, 2000, (1 << 26) - 1])
precinct = st.tuples(count, count, st.none() | count)


@settings(max_examples=300, deadline=None)
@given(st.lists(precinct, min_size=1, max_size=40))
def test_the_arrays_give_the_exact_comparison(rows):
    allv = [a + c for a, c, _ in rows]  # (every vote, at least the candidates')
    cand = [c for _, c, _ in rows]
    ballots = [b for *_, b in rows]
    assert _most_to_a_ballot(allv, cand, ballots, np.array(allv), np.array(cand)) == \
        _exact(allv, cand, ballots)


def test_ties_go_to_the_first_precinct_and_huge_counts_are_compared_exactly():
    allv, cand, ballots = [10, 20, 30], [10, 20, 30], [5, 10, None]
    assert _most_to_a_ballot(allv, cand, ballots, np.array(allv), np.array(cand)) == \
        ((10, 5, 0), (2, 0))
    big = [(1 << 40) + 1, 1 << 40]
    assert _most_to_a_ballot(big, big, [1 << 39, 1 << 39], np.array(big), np.array(big)) == \
        _exact(big, big, [1 << 39, 1 << 39])
