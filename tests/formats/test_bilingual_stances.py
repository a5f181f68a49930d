"""A proposition's choices written as two words of one stance — 'Yes/For' and 'No/Against'
(Boulder County's 2025 Dominion Summary of Votes, the shared corpus's formats), 'YES/SI' and 'NO'
(Pima County's ES&S statement, Spanish beside English), or the measure's name before its
stance ('BOND APPROVAL, YES', 'BOND APPROVAL, NO': Pima's too) — make it a proposition, as
'Yes' and 'No' do: the rule of 20A-4-401(2) (ten voters may ask, a tie fails), not the race rule of
(1) with a candidate named 'Yes/For' who "may request". The rows are made up."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import ChoiceKind, ContestKind, looks_like_proposition, stance_of

HEADER = ('"Contest Title","Choice Name","Precinct Count","Active Voters","Total Ballots",'
          '"Total Votes","Total Undervotes","Total Overvotes"\n')


@pytest.mark.parametrize(("yes", "no"), [("Yes/For", "No/Against"), ("YES/SI", "NO"),
                                         ("Sí / Yes", "No"),
                                         ("BOND APPROVAL, YES", "BOND APPROVAL, NO")])
def test_two_words_of_one_stance_are_that_stance(yes: str, no: str) -> None:
    assert (stance_of(yes), stance_of(no)) == (ChoiceKind.FOR, ChoiceKind.AGAINST)
    assert looks_like_proposition([yes, no])


@pytest.mark.parametrize("name", ["Yes/No", "For/Against", "Smith/Jones", "Yes/Maybe",
                                  "Castaneda Jr., Luis", "No, thanks"])
def test_two_stances_or_other_words_are_no_stance(name: str) -> None:
    assert stance_of(name) is None


def test_a_summary_of_votes_reads_them_as_a_proposition(tmp_path: Path) -> None:
    path = tmp_path / "Summary-of-Votes.csv"
    path.write_text(HEADER
                    + '"County Ballot Issue 1A","Yes/For",60,"71,340","34,109","16,040","20",5\n'
                    + '"County Ballot Issue 1A","No/Against",60,"71,340","34,109","16,000",'
                    '"20",5\n', encoding="utf-8")
    parsed = read_file(path)
    (issue,) = parsed.totals
    assert issue.contest.kind is ContestKind.PROPOSITION
    (check,) = check_parsed(parsed).contests
    assert "10 voters" in check.decision.who_may_request
    assert "Yes/For may" not in check.decision.who_may_request
