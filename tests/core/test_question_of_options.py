"""A ballot question whose choices are options, not for and against (Weber County's 2020
'PROPOSITION 18 QUESTION 2 West Weber': '5 member council form', '6 member council form', …,
the shared corpus's formats/utah-county-sources), is read as a race between its options, and the
verdict says so as an assumption: 20A-4-401 provides for races between candidates (1) and
propositions that pass or fail (2), and names no one who may ask for a question of several
options — taken to be ten voters, as for a proposition (NOT CONFIRMED). A race between
candidates is decided as before."""

from __future__ import annotations

from recount_desk.core.model import Choice, ChoiceTotal, Contest, ContestKey, ContestTotals
from recount_desk.core.rules import Edition, Verdict, decide


def _contest(title: str, votes: dict[str, int]) -> ContestTotals:
    return ContestTotals(Contest(ContestKey(title)),
                         tuple(ChoiceTotal(Choice(n), v) for n, v in votes.items()))


FORMS = {"5 member council form": 200, "6 member council form": 199,
         "7 member council-mayor form": 1}


def test_a_question_of_options_within_the_margin_says_who_is_assumed() -> None:
    d = decide(_contest("PROPOSITION 18 QUESTION 2 West Weber", FORMS), Edition.Y2024)
    assert d.verdict is Verdict.WITHIN_MARGIN  # (one vote of 400)
    assert d.who_may_request.startswith("Any 10 voters who voted in the election, assumed")
    (assumed,) = [a for a in d.assumptions if "ballot question" in a]
    assert "'5 member council form', '6 member council form'" in assumed
    assert "NOT CONFIRMED" in assumed and "20A-4-401(2)(a)" in assumed


def test_a_question_not_within_the_margin_keeps_nobody_and_the_assumption() -> None:
    d = decide(_contest("Town of Eden Question 1", {"Option A": 300, "Option B": 100}),
               Edition.Y2024)
    assert d.verdict is Verdict.NOT_ELIGIBLE
    assert d.who_may_request.startswith("Nobody")
    assert any("ballot question" in a for a in d.assumptions)


def test_a_race_between_candidates_is_decided_as_before() -> None:
    d = decide(_contest("Town Council", {"Pat Able": 200, "Lee Baker": 199}), Edition.Y2024)
    assert d.verdict is Verdict.WITHIN_MARGIN
    assert "Lee Baker" in d.who_may_request
    assert not any("ballot question" in a for a in d.assumptions)
