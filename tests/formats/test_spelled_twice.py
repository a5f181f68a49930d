"""The build stage's 'one contest spelled two ways' finder (canvass._spelled_twice) names
exactly the pairs of titles whose words are the same but for one word that is a letter or
two off (canvass._near), and each title whose words repeat an earlier one's with the first
of them, over generated titles: the pairs a comparison of every two titles finds."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from recount_desk.core.model import Contest, ContestKey, Severity, VoteColumn
from recount_desk.formats.canvass import _near, _spelled_twice, _words

# Words alike and not: OCR slips ('Distriet'), numbers and parts that tell contests apart,
# short words and punctuation.
WORDS = ["District", "Distriet", "Distric", "Commissioner", "Cornmissioner", "North", "Nortb",
         "South", "Seat", "Seal", "A", "B", "of", "70", "71", "Council", "Counci1", "School",
         "Schoo", "Board", "Boards", "U.S.", "House", "Horse", "Mayor", "Major"]
TITLES = st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(" ".join),
                  min_size=2, max_size=12)


@dataclass
class _Raw:
    file: str = "t.csv"
    sheet: str | None = None


def _alike(words: list[tuple[str, ...]], a: int, b: int) -> bool:
    x, y = words[a], words[b]
    if x == y:
        return words.index(x) == a  # (a repeat is named with the first title so worded)
    if len(x) != len(y):
        return False
    apart = [i for i in range(len(x)) if x[i] != y[i]]
    return len(apart) == 1 and _near(x[apart[0]], y[apart[0]])


@settings(max_examples=300, deadline=None)
@given(TITLES)
def test_the_pairs_named_are_those_every_two_titles_compared_give(titles: list[str]) -> None:
    contests = [Contest(ContestKey(t, "", "")) for t in titles]
    # Each contest in a precinct of its own (pairs that share a precinct are not named).
    columns = [VoteColumn(k, 0, array("i", [k + 1]), array("i", [1]))
               for k in range(len(contests))]
    words = [_words(c.key.label()) for c in contests]
    want = sorted((a, b) for a, b in combinations(range(len(contests)), 2)
                  if _alike(words, a, b))
    got = _spelled_twice(_Raw(), contests, columns)  # type: ignore[arg-type]
    # One error bound to each contest of a pair: neither part gets a verdict.
    assert len(got) == 2 * len(want)
    for (first, second), (a, b) in zip(zip(got[::2], got[1::2], strict=True), want, strict=True):
        assert first.message.startswith(f"{contests[a].key.label()!r} (1 precinct) and "
                                        f"{contests[b].key.label()!r} (1 precinct)")
        assert second.message.startswith(f"{contests[b].key.label()!r} (1 precinct) and "
                                         f"{contests[a].key.label()!r} (1 precinct)")
        assert (first.contest, second.contest) == (contests[a].key, contests[b].key)
        assert first.severity is second.severity is Severity.ERROR
