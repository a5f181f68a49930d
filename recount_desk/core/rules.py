"""Utah Code 20A-4-401 as code: who wins, who may ask for a recount, by when and where.

Statute text: docs/statute-20A-4-401.txt (the ~2019 text); the 2024 amendments (H.B. 515)
are summarised in docs/utah-law-notes.md §1c and §3. Every decision below carries the
numbers it used and the subsection it applied, so a person can check it by hand.

Arithmetic is exact: .25 % is tested as ``400 * difference <= total``; never a float.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from .calendar import Closed, Deadline, add_days_utah, first_business_day_at_least
from .model import (
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKey,
    ContestKind,
    ContestTotals,
    ElectionKind,
    Issue,
    PassRule,
    Scope,
    Severity,
    VotingMethod,
    is_aggregate_write_in,
)


class Edition(StrEnum):
    """Which text of 20A-4-401 applies, chosen from the election date (overridable)."""

    Y2019 = "2019"
    Y2024 = "2024"

    @property
    def label(self) -> str:
        """The text applied: one wording for check, window and report."""
        if self is Edition.Y2019:
            return "20A-4-401 in its 2019–2023 text (before 2024 H.B. 515)"
        return "20A-4-401 as amended by 2024 H.B. 515"

    def assumption(self, election_date: date) -> str | None:
        """What is assumed when the text applied may not be the one in force on the day.

        The oldest text the program holds is the 2019 one (utah-law-notes §1a). The margin
        and the one-vote rule are those of 2013 H.B. 85, unchanged since (§1d, CONFIRMED);
        other wording (the "before 5 p.m." of the filing deadline, added between 2014 and
        2019, bill not identified) may differ for an earlier election."""
        if self is not Edition.Y2019 or election_date >= TEXT_2019_FROM:
            return None
        return (f"ASSUMED: the 2019 text is applied to an election of {election_date.year}. "
                "The recount margin and who may ask are those of 2013 H.B. 85, unchanged "
                "since; other wording (the filing deadline's \"before 5 p.m.\", added between "
                "2014 and 2019) may differ from the text in force then.")


# The oldest text of 20A-4-401 held is marked 2019 (utah-law-notes §1a); its first day in
# force is NOT CONFIRMED, January 1, 2019 is taken for it.
TEXT_2019_FROM = date(2019, 1, 1)
# H.B. 515 (2024 General Session) took effect on May 1, 2024 (utah-law-notes §1d).
HB515_EFFECTIVE = date(2024, 5, 1)
# "local district" became "special district" in 2023 (Laws 2023 ch. 15; utah-law-notes §1d).
# The exact effective date is NOT CONFIRMED; May 3, 2023 is the session's general date.
SPECIAL_DISTRICT_RENAME = date(2023, 5, 3)


def edition_for(election_date: date) -> Edition:
    """The edition in force for an election held on ``election_date``."""
    return Edition.Y2024 if election_date >= HB515_EFFECTIVE else Edition.Y2019


class Result(StrEnum):
    ELECTED = "elected"
    PASSED = "passed"
    FAILED = "failed"
    TIE = "tie"
    NO_VOTES = "no_votes"


class Verdict(StrEnum):
    """The plain verdict shown for a contest."""

    WITHIN_MARGIN = "within_margin"
    AUTOMATIC = "automatic"
    NOT_ELIGIBLE = "not_eligible"
    EXCLUDED_IRV = "excluded_irv"
    UNCONTESTED = "uncontested"
    # A county's portion of a multicounty or statewide contest: no verdict on it
    # (decided on the whole race, recount_desk.core.scope).
    PORTION = "county_portion"
    NO_RESULT = "no_result"
    UNDECIDABLE = "undecidable"

    @property
    def label(self) -> str:
        return {
            "within_margin": "Within the recount margin",
            "automatic": "Automatic recount (tie)",
            "not_eligible": "Not eligible",
            "excluded_irv": "Excluded: instant runoff",
            "uncontested": "Uncontested",
            "county_portion": "County portion: decided on the whole race",
            "no_result": "No result: no votes recorded",
            "undecidable": "Cannot be decided from this file",
        }[self.value]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won on these totals: the top ``seats`` choices, or passed/failed."""

    result: Result
    ranking: tuple[ChoiceTotal, ...]
    winners: tuple[str, ...]
    tied: tuple[str, ...]
    basis: str


_VOTES = operator.attrgetter("votes")


def rank(choices: tuple[ChoiceTotal, ...]) -> tuple[ChoiceTotal, ...]:
    """Most votes first; equal votes keep the file's order (ties are flagged, not broken)."""
    return tuple(sorted(choices, key=_VOTES, reverse=True))  # (a reversed sort is stable)


def candidates(choices: tuple[ChoiceTotal, ...]) -> tuple[ChoiceTotal, ...]:
    """The choices that are candidates: the file's aggregate "Write-ins" line is counted in
    the race's total but is nobody, so it never wins, ties or asks (utah-law-notes §1f)."""
    return tuple(c for c in choices if not is_aggregate_write_in(c.choice))


# 20A-9-404(2): a municipal primary is held for an office only when more than twice the
# number of persons needed to fill it are candidates; it narrows them to that many.
MUNICIPAL_PRIMARY_NOMINEES = (
    "A municipal primary nominates twice the number of candidates as there are seats to "
    "fill (read from Utah Code 20A-9-404(2), which holds no primary where the candidates do "
    "not exceed twice the seats; the rule that the top twice-the-seats are nominated is NOT "
    "CONFIRMED in the texts read; program's law notes, “Municipal primary”)."
)


_VOTE_FOR = re.compile(r"\bvote\s*for\s*(?:not\s+more\s+than\s+)?(\d+)|\(\s*(\d+)\s*\)\s*$",
                       re.IGNORECASE)
_SEVERAL = re.compile(
    r"\b(council|at[- ]large|\d+\s*-?\s*(?:yr|year)s?\b|vote\s*for|members?|commissioners|"
    r"seats|trustees|board of (?:education|trustees)|constables)", re.IGNORECASE)


def seats_in_title(title: str) -> int | None:
    """The number of seats a title states ("Council (Vote for 2)", "U.S. SENATE ( 1)")."""
    m = _VOTE_FOR.search(title)
    if not m:
        return None
    n = int(m.group(1) or m.group(2))
    return n if 1 <= n <= 50 else None


@functools.lru_cache(maxsize=4096)  # (asked of every race of every check)
def several_seats_hint(title: str) -> str | None:
    """The words of a title that suggest a race fills several seats, or None."""
    m = _SEVERAL.search(title)
    return m.group(0).strip() if m else None


def seats_assumption(contest: Contest) -> str | None:
    """What the verdict assumes about the seats of a race whose seats nobody stated."""
    if contest.kind is not ContestKind.RACE or contest.seats_from_file:
        return None
    hint = several_seats_hint(contest.key.title)
    if hint is None:
        return (f"The file does not say how many seats this race fills; {contest.seats} is "
                "assumed. Set the seats in the contest settings if it fills more.")
    return (f"SEATS NOT STATED: the file does not say how many seats this race fills and "
            f"its title (“{hint}”) suggests it may fill several; {contest.seats} is assumed. "
            "With more seats the winners and who may request change: confirm how many "
            "seats it fills before relying on this verdict.")


def places(contest: Contest, kind: ElectionKind | None) -> int:
    """How many candidates this race puts through: its seats, or in a municipal primary
    twice its seats (20A-9-404(2))."""
    seats = max(1, contest.seats)
    if kind is ElectionKind.MUNICIPAL_PRIMARY and contest.kind is ContestKind.RACE:
        return 2 * seats
    return seats


def outcome(totals: ContestTotals, *, places: int | None = None) -> Outcome:
    """Elected / passed / failed / tie, on the given totals.

    Races: 20A-4-401(1)(e)(iv),(v) and 20A-4-304(1)(a),(b): the ``seats`` candidates with
    the most votes (``places`` overrides it: a municipal primary nominates twice the
    seats); a tie at the cut-off is a tie (decided by lot, 20A-1-304). The aggregate
    "Write-ins" line is never a winner.
    Propositions: 20A-4-304(1)(c): passed iff for > against; a tie fails. Under a
    two-thirds pass rule (Utah Const. art. VI §1) passed iff for ≥ 2/3 of for + against.
    """
    ranking = rank(totals.choices)
    contest = totals.contest
    if contest.kind is ContestKind.PROPOSITION:
        yes, no = proposition_votes(totals)
        if contest.pass_rule is PassRule.TWO_THIRDS:
            passed = yes + no > 0 and 3 * yes >= 2 * (yes + no)
            basis = "Utah Const. art. VI §1 (two-thirds)"
        else:
            passed = yes > no
            basis = "20A-4-304(1)(c)"
        return Outcome(Result.PASSED if passed else Result.FAILED, ranking, (), (), basis)

    people = candidates(ranking)
    if not people or totals.total == 0:
        return Outcome(Result.NO_VOTES, ranking, (), (), "20A-4-401(1)(e)")
    seats = places if places is not None else max(1, contest.seats)
    basis = "20A-4-401(1)(e)(iv)" if seats == 1 else "20A-4-401(1)(e)(v)"
    if len(people) <= seats:
        return Outcome(Result.ELECTED, ranking, tuple(c.choice.name for c in people), (), basis)
    cutoff = people[seats - 1].votes
    first_out = people[seats].votes
    if cutoff == first_out:
        tied = tuple(c.choice.name for c in people if c.votes == cutoff)
        sure = tuple(c.choice.name for c in people if c.votes > cutoff)
        return Outcome(Result.TIE, ranking, sure, tied, "20A-4-304(1)(b); 20A-1-304")
    return Outcome(
        Result.ELECTED, ranking, tuple(c.choice.name for c in people[:seats]), (), basis
    )


def proposition_votes(totals: ContestTotals) -> tuple[int, int]:
    """(for, against) of a proposition."""
    yes = sum(c.votes for c in totals.choices if c.choice.kind is ChoiceKind.FOR)
    no = sum(c.votes for c in totals.choices if c.choice.kind is ChoiceKind.AGAINST)
    return yes, no


def within_recount_margin(difference: int, total: int) -> bool:
    """The test of 20A-4-401(1)(b),(c) and (2)(a),(b), in exact integers.

    (1)(b)/(2)(a): difference ≤ .25 % of the total, i.e. ``400 * difference <= total``.
    (1)(c)/(2)(b): where the total is 400 or less, a difference of one vote.
    """
    if difference < 0 or total < 0:
        raise ValueError("difference and total are counts")
    return 400 * difference <= total or (total <= 400 and difference == 1)


def threshold_votes(total: int) -> int:
    """The largest difference, in votes, that is still within the recount margin."""
    return 1 if total <= 400 else total // 400


def margin_basis(total: int, kind: ContestKind) -> str:
    small = total <= 400
    if kind is ContestKind.PROPOSITION:
        return "20A-4-401(2)(b)" if small else "20A-4-401(2)(a)"
    return "20A-4-401(1)(c)" if small else "20A-4-401(1)(b)"


@dataclass(frozen=True, slots=True)
class LoserTest:
    """One losing candidate measured against the lowest winner."""

    name: str
    votes: int
    difference: int
    eligible: bool


@dataclass(frozen=True, slots=True)
class MarginDecision:
    """The recount-margin verdict for one contest, with every number it used."""

    contest: Contest
    edition: Edition
    outcome: Outcome
    total: int
    verdict: Verdict
    margin: int | None
    threshold: int
    closest_loser: str | None
    lowest_winner: str | None
    losers: tuple[LoserTest, ...]
    basis: str
    explanation: str
    who_may_request: str
    assumptions: tuple[str, ...] = ()
    # Why these figures cannot be relied on, where reading the file found errors that touch
    # them (core.rules.unread_counts); empty where none. A county's portion keeps its
    # verdict (the whole race decides), and this says its figures are not the county's part.
    doubt: str = ""

    @property
    def within_margin(self) -> bool:
        return self.verdict in (Verdict.WITHIN_MARGIN, Verdict.AUTOMATIC)

    @property
    def decided(self) -> bool:
        """False when the file's figures cannot decide the verdict (hidden counts)."""
        return self.verdict is not Verdict.UNDECIDABLE

    @property
    def tie(self) -> bool:
        return self.outcome.result is Result.TIE

    @property
    def automatic_recount(self) -> bool:
        return self.verdict is Verdict.AUTOMATIC

    def margin_percent_hundredths(self) -> int | None:
        """The margin as hundredths of a percent, rounded half up, exact (for display)."""
        if self.margin is None or self.total == 0:
            return None
        return (self.margin * 10000 * 2 + self.total) // (2 * self.total)


def _pct(total: int) -> str:
    return f"{total:,}"


def _votes(n: int) -> str:
    return f"{n:,} vote{'s' if n != 1 else ''}"


# The instant-runoff pilot (Ch. 4, Part 6) and its sunset (utah-law-notes §6).
IRV_PILOT_SUNSET = date(2026, 1, 1)
HB290_REPEAL = date(2024, 5, 1)


def irv_assumptions(election_date: date | None) -> tuple[str, ...]:
    """What is not confirmed about the instant-runoff exclusion of 20A-4-401(1)(a), for an
    IRV race only (utah-law-notes §6)."""
    if election_date is None:
        return ("The instant-runoff pilot may have lapsed on Jan 1, 2026 (63I-2-220); the "
                "election date is not known, so the (1)(a) exclusion is applied (NOT "
                "CONFIRMED, program's law notes, section 6).",)
    if election_date >= IRV_PILOT_SUNSET:
        return ("The instant-runoff pilot was set to lapse on Jan 1, 2026 (63I-2-220); "
                "whether it was extended, and so whether 20A-4-401(1)(a) still excludes this "
                "race, is NOT CONFIRMED (program's law notes, section 6).",)
    if election_date >= HB290_REPEAL:
        return ("2024 H.B. 290 would have repealed the instant-runoff pilot on May 1, 2024; "
                "whether it passed is NOT CONFIRMED, so the (1)(a) exclusion is applied "
                "(program's law notes, section 6).",)
    return ()


# A title that names a ballot question ('PROPOSITION 18 QUESTION 2 West Weber').
_QUESTION_TITLE = re.compile(r"\b(propositions?|question|referendum|initiative|ballot\s+issue|"
                             r"ballot\s+measure)\b", re.IGNORECASE)


def decide(totals: ContestTotals, edition: Edition, *, kind: ElectionKind | None = None,
           election_date: date | None = None) -> MarginDecision:
    """Is this contest within the recount margin, and why (20A-4-401(1)-(2)); a ballot
    question of several options (not for and against) says how it was read
    (:func:`_of_several_options`)."""
    shown = _decide(totals, edition, kind=kind, election_date=election_date)
    if totals.contest.kind is ContestKind.RACE and \
            _QUESTION_TITLE.search(totals.contest.key.title):
        return _of_several_options(shown, totals)
    return shown


def _of_several_options(shown: MarginDecision, totals: ContestTotals) -> MarginDecision:
    """A race whose title names a ballot question: its choices are options (a form of
    government, say), not for and against. 20A-4-401 provides for a race between
    candidates ((1): "a losing candidate" may ask) and for a proposition that "passes or
    fails" ((2): any 10 voters); it is read as a race between its options, the margin
    between the leading option and each other, and who may ask is taken to be as for a
    proposition, ten voters — the statute does not say (NOT CONFIRMED)."""
    options = ", ".join(f"'{c.choice.name}'" for c in totals.choices[:3]) + (
        " …" if len(totals.choices) > 3 else "")
    why = (f"ASSUMED: the title names a ballot question, and its choices are options "
           f"({options}), not for and against. It is read as a race between the options "
           "(the margin of 20A-4-401(1)(b) between the leading option and each other); the "
           "statute provides for races between candidates and for propositions that pass "
           "or fail, not for a question of several options, so who may ask is taken to be "
           "as for a proposition, any 10 voters who voted (20A-4-401(2)(a), (c)) — NOT "
           "CONFIRMED.")
    who = shown.who_may_request
    if shown.verdict in (Verdict.WITHIN_MARGIN, Verdict.AUTOMATIC):
        who = ("Any 10 voters who voted in the election, assumed as for a proposition "
               "(20A-4-401(2)(a)); the statute names no one for a question of several options")
    return dataclasses.replace(shown, who_may_request=who,
                               assumptions=(why, *shown.assumptions))


def _decide(totals: ContestTotals, edition: Edition, *, kind: ElectionKind | None = None,
            election_date: date | None = None) -> MarginDecision:
    """Is this contest within the recount margin, and why (20A-4-401(1)-(2)).

    ``kind``: the election's kind (a municipal primary nominates twice the seats,
    20A-9-404(2)); ``election_date``: for the assumptions that depend on it (the IRV
    pilot's sunset). Counts the file hides (``totals.incomplete``) give a verdict only when
    every value the hidden cells could hold gives the same one.
    """
    contest = totals.contest
    n_places = places(contest, kind)
    res = outcome(totals, places=n_places)
    total = totals.total
    thr = threshold_votes(total)
    assumptions: list[str] = []
    if any(c.choice.kind is ChoiceKind.WRITE_IN for c in totals.choices):
        assumptions.append(
            "Write-in votes are counted in the total votes cast for all candidates; the "
            "statute does not say so expressly (program's law notes, section 1f)."
        )
    lumped = [c for c in totals.choices if is_aggregate_write_in(c.choice)]
    if lumped and contest.kind is ContestKind.RACE:
        votes = sum(c.votes for c in lumped)
        text = (f"The file's “{lumped[0].choice.name}” line ({_votes(votes)}) lumps all "
                "write-in votes together: it is counted in the total but is not a candidate, "
                "so it cannot win, tie or request a recount.")
        people = candidates(res.ranking)
        if len(people) >= n_places and votes + thr >= people[n_places - 1].votes > 0:
            text += (" It holds enough votes that a single write-in candidate could have won "
                     "or be within the recount margin of the lowest winner: check the "
                     "write-in tally in the canvass.")
        assumptions.append(text)
    if n_places != max(1, contest.seats):
        assumptions.append(MUNICIPAL_PRIMARY_NOMINEES)
    seat_note = seats_assumption(contest)
    if seat_note is not None and seat_note.startswith("SEATS NOT STATED"):
        assumptions.insert(0, seat_note)

    if contest.voting_method is VotingMethod.IRV:
        return MarginDecision(
            contest, edition, res, total, Verdict.EXCLUDED_IRV, None, thr, None, None, (),
            "20A-4-401(1)(a)",
            "This race is decided by instant runoff voting; 20A-4-401 does not apply to it "
            "(Utah Code 20A-4-401(1)(a)).",
            "Nobody under 20A-4-401 (20A-4-401(1)(a))",
            assumptions=(*assumptions, *irv_assumptions(election_date)),
        )

    if totals.incomplete:
        return _decide_hidden(totals, edition, kind, election_date, assumptions)

    if totals.official and totals.precinct_sums and not _explained(totals):
        return _decide_unreconciled(totals, edition, kind, election_date)

    if total == 0:
        return _no_votes(totals, edition, res, assumptions)

    if contest.kind is ContestKind.PROPOSITION:
        return _decide_proposition(totals, edition, res, thr, assumptions)

    ranking = candidates(res.ranking)
    seats = n_places
    elect = "nominated" if seats != max(1, contest.seats) else "elected"
    if len(ranking) <= seats:
        return MarginDecision(
            contest, edition, res, total, Verdict.UNCONTESTED, None, thr, None, None, (),
            "20A-4-401(1)(b)",
            f"{len(ranking)} candidate(s) for {seats} place(s) to be {elect}: there is no "
            "losing candidate who could request a recount.",
            "Nobody (20A-4-401(1)(b))", tuple(assumptions),
        )
    lowest = ranking[seats - 1]
    cutoff = lowest.votes
    tied_now = res.result is Result.TIE
    # In a tie at the cut-off nobody has won the tied place: every tied candidate is a
    # losing candidate, 0 votes behind (20A-4-401(1)(b); 20A-1-304).
    measured = [c for c in ranking if c.votes == cutoff] if tied_now else []
    measured += list(ranking[seats:]) if not tied_now else \
        [c for c in ranking if c.votes < cutoff]
    losers = tuple(
        LoserTest(c.choice.name, c.votes, cutoff - c.votes,
                  within_recount_margin(cutoff - c.votes, total))
        for c in measured
    )
    closest = losers[0]
    margin = closest.difference
    basis = margin_basis(total, ContestKind.RACE)
    seat_words = "the lowest winning candidate" if seats > 1 else "the winner"
    rule_words = (
        f"within {_votes(thr)}, 0.25 % of the {_pct(total)} votes cast"
        if total > 400 else
        f"a difference of one vote, the rule where {_pct(total)} (400 or fewer) votes were "
        "cast"
    )

    if tied_now:
        tied = " and ".join(res.tied)
        what = "the highest vote" if seats == 1 else "the last place in this race"
        if edition is Edition.Y2024:
            return MarginDecision(
                contest, edition, res, total, Verdict.AUTOMATIC, 0, thr, closest.name,
                None, losers, "20A-4-401(2) (2024)",
                f"{tied} are tied for {what} with {_votes(cutoff)} each: the election "
                "officer recounts this race without a request (Utah Code 20A-4-401(2), as "
                "amended by 2024 H.B. 515); a tie that remains is decided by lot "
                "(20A-1-304).",
                "Nobody needs to: the recount is automatic (20A-4-401(2), 2024)",
                tuple(assumptions),
            )
        if total <= 400:
            assumptions.append(
                "20A-4-401(1)(c) speaks of a difference of one vote; a tie (a difference of "
                "0) in a race of 400 or fewer votes is taken to qualify as well (NOT "
                "CONFIRMED: the statute does not say)."
            )
        eligible = [t for t in losers if t.eligible]
        names = ", ".join(t.name for t in eligible)
        expl = (
            f"{tied} are tied for {what} with {_votes(cutoff)} each. In a tie none of "
            f"them has won that place, so each tied candidate may request a recount — Utah "
            f"Code {basis}. If the tie remains after the recount it is decided by lot "
            "(20A-1-304)."
        )
        others = [t for t in eligible if t.difference > 0]
        if others:
            expl += " So may: " + ", ".join(t.name for t in others) + "."
        return MarginDecision(
            contest, edition, res, total, Verdict.WITHIN_MARGIN, 0, thr, closest.name,
            None, losers, basis, expl,
            f"The tied candidates {names} ({basis})", tuple(assumptions),
        )

    eligible = [t for t in losers if t.eligible]
    if eligible:
        names = ", ".join(t.name for t in eligible)
        expl = (
            f"{closest.name} may request a recount: the difference of {_votes(margin)} "
            f"from {seat_words}, {lowest.choice.name}, is {rule_words} — Utah Code {basis}."
        )
        if len(eligible) > 1:
            expl += f" Each of these losing candidates may request one: {names}."
        return MarginDecision(
            contest, edition, res, total, Verdict.WITHIN_MARGIN, margin, thr, closest.name,
            lowest.choice.name, losers, basis, expl,
            f"The losing candidate{'s' if len(eligible) > 1 else ''} {names} ({basis})",
            tuple(assumptions),
        )
    expl = (
        f"Not eligible: {closest.name} trails {seat_words}, {lowest.choice.name}, by "
        f"{_votes(margin)}; the recount margin is "
        + (f"{_votes(thr)} (0.25 % of the {_pct(total)} votes cast)"
           if total > 400 else f"a difference of one vote where {_pct(total)} votes were "
           "cast")
        + f" — Utah Code {basis}."
    )
    return MarginDecision(
        contest, edition, res, total, Verdict.NOT_ELIGIBLE, margin, thr, closest.name,
        lowest.choice.name, losers, basis, expl,
        f"Nobody: the difference is too large ({basis})", tuple(assumptions),
    )


def _no_votes(totals: ContestTotals, edition: Edition, res: Outcome,
              assumptions: list[str]) -> MarginDecision:
    """A contest in which the file records no votes at all: no result, and no recount."""
    contest = totals.contest
    prop = contest.kind is ContestKind.PROPOSITION
    basis = "20A-4-401(2)(b)" if prop else "20A-4-401(1)(c)"
    tie = (" A 0-to-0 tie is not a tie for the highest vote that the 2024 text recounts "
           "automatically: there is nothing to recount." if edition is Edition.Y2024 else "")
    return MarginDecision(
        contest, edition, res, 0, Verdict.NO_RESULT, None, 1, None, None, (), basis,
        f"No votes are recorded for any choice in this {'proposition' if prop else 'race'}, "
        f"so it has no result and no margin to measure.{tie} This is most likely a data "
        "error (a contest whose votes were not exported, or a wrong column): check the "
        "canvass file.",
        f"Nobody: no votes are recorded ({basis})", tuple(assumptions),
    )


def _range(lo: int, hi: int | None) -> str:
    return f"{lo:,} to {hi:,}" if hi is not None else f"{lo:,} or more"


def _decide_hidden(totals: ContestTotals, edition: Edition, kind: ElectionKind | None,
                   election_date: date | None, assumptions: list[str]) -> MarginDecision:
    """Hidden counts and no official totals: the verdict on the visible counts stands only
    if every value the hidden cells could hold gives the same one; else it is undecidable.

    Each pairwise test below is linear in the hidden votes, so its extremes are at the
    bounds: a loser's lead over a winner is largest with all the loser's hidden votes and
    none of the winner's (the total grows with the others'), and smallest the other way.
    """
    contest = totals.contest
    visible = dataclasses.replace(totals, hidden_cells=0, hidden_max={})
    shown = _decide(visible, edition, kind=kind, election_date=election_date)
    cells = totals.hidden_cells
    hmax = {c.choice.name: totals.hidden_max.get(c.choice.name, 0) for c in totals.choices}
    unbounded = [n for n, h in hmax.items() if h is None]
    bounds = "; ".join(f"{c.choice.name} {_range(c.votes, _plus(c.votes, hmax[c.choice.name]))}"
                       for c in totals.choices if hmax[c.choice.name] != 0)
    why = (f"{cells:,} precinct count{'s are' if cells != 1 else ' is'} hidden in the file "
           "(privacy marks such as '*', or blank cells) and the file has no official totals "
           f"for this contest. The counts could be: {bounds}.")
    robust = not unbounded and _robust(totals, shown, places(contest, kind),
                                       {n: h or 0 for n, h in hmax.items()})
    extra = [*assumptions]
    if robust:
        extra.append(why + " The verdict is the same whatever the hidden cells hold.")
        return dataclasses.replace(shown, assumptions=tuple(dict.fromkeys(
            (*extra, *shown.assumptions))))
    limit = ("Some hidden counts have no known limit, so any result is possible. "
             if unbounded else "Within these bounds the verdict could differ. ")
    return MarginDecision(
        contest, edition, shown.outcome, shown.total, Verdict.UNDECIDABLE, shown.margin,
        shown.threshold, shown.closest_loser, shown.lowest_winner, shown.losers,
        shown.basis,
        f"Cannot be decided from this file: {why} {limit}On the visible counts alone it "
        f"would be: {shown.verdict.label.lower()}. Get the official canvass totals (the "
        "board of canvassers' report) and check again — Utah Code "
        f"{shown.basis}.",
        f"Cannot be decided from this file ({shown.basis})",
        tuple(dict.fromkeys((*extra, *shown.assumptions))),
    )


def read_errors_of(issues: Iterable[Issue], key: ContestKey,
                   keys: Collection[ContestKey]) -> int:
    """The reading errors that can touch the contest ``key`` (20A-4-401(1)(b), (2)(a): the
    margin rests on every vote cast in the race): those in its own rows, and every one that
    names no contest of the file — a count not read whose contest is not known could be
    any contest's."""
    return sum(1 for i in issues if i.severity is Severity.ERROR
               and (i.contest is None or i.contest == key or i.contest not in keys))


def errors_touching(issues: Iterable[Issue], keys: Collection[ContestKey]
                    ) -> dict[ContestKey, tuple[int, bool]]:
    """For each contest of ``keys``: :func:`read_errors_of` it, and whether every one of
    them is its own (:func:`own_errors_of`), the issues gone through once (a state's file
    has hundreds of contests, and may have hundreds of issues)."""
    unbound = 0
    own: dict[ContestKey, int] = {}
    for i in issues:
        if i.severity is Severity.ERROR:
            if i.contest is None or i.contest not in keys:
                unbound += 1
            else:
                own[i.contest] = own.get(i.contest, 0) + 1
    return {k: (unbound + own.get(k, 0), not unbound) for k in keys}


def own_errors_of(issues: Iterable[Issue], key: ContestKey) -> int:
    """The reading errors in the contest ``key``'s own figures (its rows contradict
    themselves, or were not read)."""
    return sum(1 for i in issues if i.severity is Severity.ERROR and i.contest == key)


def unofficial_figures(title: str) -> str:
    """Why no verdict rests on figures that their file calls unofficial (``title``: its words,
    'UNOFFICIAL RESULTS'): they are a count before the canvass, and the margin is measured on
    the canvass — the results the board of canvassers declares (20A-4-304(1)), after which
    the request is filed (20A-4-401(1)(d), (2)(a): "within seven days after the canvass")."""
    return (f"the file calls its figures unofficial ({title[:80]!r}): a count before the "
            "canvass, and the recount margin is measured on the canvass, the results the "
            "board of canvassers declares (20A-4-304(1); 20A-4-401(1)(d), (2)(a)). Import the "
            "official report exported after the canvass.")


def unread_counts(shown: MarginDecision, errors: int, *, own: bool = False,
                  why: str | None = None) -> MarginDecision:
    """No verdict when some of the file's counts could not be read, or contradict.

    The margin is reckoned on the votes cast for all candidates in the race (20A-4-401(1)(b),
    (2)(a)); a count the reader refused could be any number, so a margin, a threshold or a
    tie reckoned without it is no finding. Verdicts that do not rest on the counts (a
    county's portion, an IRV race, an uncontested race) stand. ``own``: every one of the
    errors is in this contest's own figures, whose list of candidates as read may then not
    be the contest's either (one candidate spelled two ways, two contests under one
    title): an uncontested race's verdict is withheld too. ``why``: the reason, where the
    file's errors have one (:func:`unofficial_figures`), instead of the general one."""
    why = why or (
        "reading the file found errors in this contest's own figures (listed with their "
        "rows): as read they are not the contest's." if own else
        "reading the file found errors (listed with their rows), such as counts that "
        "are not numbers, and a count not read may be this contest's.")
    if errors > 0 and shown.verdict is Verdict.UNDECIDABLE and why not in shown.explanation:
        # Undecidable already (hidden counts, say): the unread counts are a reason too.
        return dataclasses.replace(shown, explanation=f"{shown.explanation} Besides, {why}",
                                   doubt=why)
    if errors > 0 and shown.verdict is Verdict.PORTION:
        # The whole race decides (20A-4-401(1)(b)); but this county's figures, as read, may
        # not be its part of the race: said, so that they are not added to it uncorrected.
        doubt = (f"These figures cannot be relied on: {why} Correct the file before its "
                 "figures are added to the whole race.")
        return dataclasses.replace(shown, explanation=f"{shown.explanation} {doubt}",
                                   doubt=doubt)
    standing = (Verdict.PORTION, Verdict.EXCLUDED_IRV, Verdict.UNDECIDABLE) + (
        () if own else (Verdict.UNCONTESTED,))
    if errors <= 0 or shown.verdict in standing:
        return shown
    return MarginDecision(
        shown.contest, shown.edition, shown.outcome, shown.total, Verdict.UNDECIDABLE,
        shown.margin, shown.threshold, shown.closest_loser, shown.lowest_winner, shown.losers,
        shown.basis,
        f"Cannot be decided from this file: {why} On the counts that were read it would be: "
        f"{shown.verdict.label.lower()}. Correct the file and check again — Utah Code "
        f"{shown.basis}.",
        f"Cannot be decided from this file ({shown.basis})",
        shown.assumptions, why,
    )


def not_added_up(shown: MarginDecision, why: str) -> MarginDecision:
    """No verdict for a race whose counties' figures could not be added up.

    The margin is reckoned on the votes cast for all candidates in the whole race
    (20A-4-401(1)(b), (2)(a)); when the counties' files cannot be added up (their candidate
    lists disagree, a county given twice) no figure of the race is known, so no total,
    margin or threshold is shown, and no verdict."""
    return MarginDecision(
        shown.contest, shown.edition, shown.outcome, 0, Verdict.UNDECIDABLE, None, 0, None,
        None, (), shown.basis,
        f"Cannot be decided: the counties' files were not added up. {why} Utah Code "
        f"{shown.basis}.",
        f"Cannot be decided: the counties' files were not added up ({shown.basis})",
        shown.assumptions,
    )


def _explained(totals: ContestTotals) -> bool:
    """Whether hidden cells explain why the precincts fall short of the official totals
    (they can only ever add votes)."""
    if not totals.hidden_cells:
        return False
    return all(s <= totals.votes_of(n) for n, s in totals.precinct_sums.items()
               if any(c.choice.name == n for c in totals.choices))


def _same(a: MarginDecision, b: MarginDecision) -> bool:
    return (a.verdict is b.verdict and set(a.outcome.winners) == set(b.outcome.winners)
            and {t.name for t in a.losers if t.eligible}
            == {t.name for t in b.losers if t.eligible})


def _decide_unreconciled(totals: ContestTotals, edition: Edition, kind: ElectionKind | None,
                         election_date: date | None) -> MarginDecision:
    """The file's official totals and its precincts disagree and nothing hidden explains
    it: the verdict on the totals stands only if the precincts give the same one."""
    on_totals = _decide(dataclasses.replace(totals, precinct_sums={}), edition, kind=kind,
                       election_date=election_date)
    summed = dataclasses.replace(totals, official=False, precinct_sums={}, choices=tuple(
        ChoiceTotal(c.choice, totals.precinct_sums.get(c.choice.name, c.votes))
        for c in totals.choices))
    on_precincts = _decide(summed, edition, kind=kind, election_date=election_date)
    diffs = "; ".join(f"{n}: precincts {s:,}, totals {totals.votes_of(n):,}"
                      for n, s in totals.precinct_sums.items()
                      if any(c.choice.name == n for c in totals.choices))
    why = (f"The file's precincts do not add up to its own totals ({diffs}), and no hidden "
           "count explains the difference.")
    if _same(on_totals, on_precincts):
        return dataclasses.replace(on_totals, assumptions=(
            *on_totals.assumptions,
            why + " The verdict rests on the file's totals; its precincts give the same one."))
    return MarginDecision(
        totals.contest, edition, on_totals.outcome, on_totals.total, Verdict.UNDECIDABLE,
        on_totals.margin, on_totals.threshold, on_totals.closest_loser,
        on_totals.lowest_winner, on_totals.losers, on_totals.basis,
        f"Cannot be decided from this file: {why} On its totals it would be: "
        f"{on_totals.verdict.label.lower()}; on its precincts: "
        f"{on_precincts.verdict.label.lower()}. Check the canvass and correct the file — Utah "
        f"Code {on_totals.basis}.",
        f"Cannot be decided from this file ({on_totals.basis})",
        on_totals.assumptions,
    )


def _plus(v: int, h: int | None) -> int | None:
    return None if h is None else v + h


def _robust(totals: ContestTotals, shown: MarginDecision, seats: int,
            h: dict[str, int]) -> bool:
    """Whether every value of the hidden cells (0..h[name] each) gives ``shown``'s verdict."""
    v = {c.choice.name: c.votes for c in totals.choices}
    t_lo = totals.total
    t_hi = t_lo + sum(h.values())
    if totals.contest.kind is ContestKind.PROPOSITION:
        if totals.contest.pass_rule is PassRule.TWO_THIRDS:
            return False
        yes_n = [c.choice.name for c in totals.choices if c.choice.kind is ChoiceKind.FOR]
        no_n = [c.choice.name for c in totals.choices if c.choice.kind is ChoiceKind.AGAINST]
        y, n = sum(v[x] for x in yes_n), sum(v[x] for x in no_n)
        hy, hn = sum(h[x] for x in yes_n), sum(h[x] for x in no_n)
        if y - n - hn > 0:  # passes whatever is hidden
            lead, gain, lose = y - n, hy, hn
        elif n - y - hy >= 0:  # fails whatever is hidden
            lead, gain, lose = n - y, hn, hy
        else:
            return False
        if shown.verdict is Verdict.WITHIN_MARGIN:
            # Widest margin: all the hidden votes on the leading side.
            return 400 * (lead + gain) <= y + n + gain
        narrowest = lead - lose
        return narrowest >= 2 and 400 * narrowest > y + n + lose
    if shown.verdict not in (Verdict.WITHIN_MARGIN, Verdict.NOT_ELIGIBLE) or shown.tie:
        return False
    winners = set(shown.outcome.winners)
    losers = [t.name for t in shown.losers]
    # The winners stay the winners: no loser can reach a winner.
    if any(v[w] - v[x] - h[x] <= 0 for w in winners for x in losers):
        return False
    low = shown.lowest_winner
    if low is None:
        return False
    for t in shown.losers:
        if t.eligible:
            # Still within against the lowest winner at its most (the total grows by 1 for
            # each of its hidden votes, the difference by 1).
            if 400 * (v[low] + h[low] - v[t.name]) > t_lo + h[low]:
                return False
        elif any(v[w] - v[t.name] - h[t.name] < 2
                 or 400 * (v[w] - v[t.name] - h[t.name]) <= t_hi - h[w] for w in winners):
            return False
    return True


def _decide_proposition(
    totals: ContestTotals, edition: Edition, res: Outcome, thr: int, assumptions: list[str]
) -> MarginDecision:
    contest = totals.contest
    yes, no = proposition_votes(totals)
    total = yes + no
    thr = threshold_votes(total)
    margin = abs(yes - no)
    basis = margin_basis(total, ContestKind.PROPOSITION)
    eligible = within_recount_margin(margin, total)
    word = "passed" if res.result is Result.PASSED else "failed"
    if contest.pass_rule is PassRule.TWO_THIRDS:
        assumptions.append(
            "This proposition needs two-thirds to pass (Utah Const. art. VI §1), but the "
            "statute measures the recount margin as votes for minus votes against; the "
            "margin from the two-thirds line is not covered (program's law notes, section 7)."
        )
    rule_words = (
        f"within {thr:,} vote{'s' if thr != 1 else ''}, 0.25 % of the {total:,} votes for "
        "and against"
        if total > 400 else f"a difference of one vote, the rule where {total:,} (400 or "
        "fewer) votes were cast"
    )
    if eligible and margin == 0 and total <= 400:
        assumptions.append(
            "20A-4-401(2)(b) speaks of a difference of one vote; a tie (a difference of 0) "
            "where 400 or fewer votes were cast is taken to qualify as well (NOT CONFIRMED: "
            "the statute does not say)."
        )
    if eligible:
        expl = (
            f"The proposition {word} {yes:,} to {no:,}: the margin of {margin:,} is "
            f"{rule_words}, so any 10 voters who voted in the election may request a "
            f"recount — Utah Code {basis}."
        )
        verdict = Verdict.WITHIN_MARGIN
    else:
        expl = (
            f"Not eligible: the proposition {word} {yes:,} to {no:,}, a margin of "
            f"{margin:,}; the recount margin is "
            + (f"{thr:,} votes (0.25 % of {total:,})" if total > 400
               else f"a difference of one vote where {total:,} votes were cast")
            + f" — Utah Code {basis}."
        )
        verdict = Verdict.NOT_ELIGIBLE
    return MarginDecision(
        contest, edition, res, total, verdict, margin, thr, None, None, (), basis, expl,
        f"Any 10 voters who voted in the election ({basis})" if eligible
        else f"Nobody: the margin is too large ({basis})",
        tuple(assumptions),
    )


class Office(StrEnum):
    MUNICIPAL_CLERK = "municipal_clerk"
    DISTRICT_CLERK = "district_clerk"
    COUNTY_CLERK = "county_clerk"
    LIEUTENANT_GOVERNOR = "lieutenant_governor"


@dataclass(frozen=True, slots=True)
class FilingOffice:
    office: Office
    name: str
    basis: str
    assumption: str | None = None


def filing_office(
    kind: ElectionKind, scope: Scope, contest_kind: ContestKind, election_date: date
) -> FilingOffice:
    """With whom a request is filed: 20A-4-401(1)(d) for races, (2)(c) for propositions.

    A proposition of a city or town (scope municipal) or of a special district at a special
    election goes to that body's clerk: the special election is then the municipality's or
    the district's own election ((2)(c)(i),(ii); an assumption, shown).
    """
    district = ("local district clerk" if election_date < SPECIAL_DISTRICT_RENAME
                else "special district clerk")
    if contest_kind is ContestKind.PROPOSITION:
        if kind.is_municipal:
            return FilingOffice(Office.MUNICIPAL_CLERK, "the municipal clerk", "20A-4-401(2)(c)(i)")
        if kind is ElectionKind.SPECIAL_DISTRICT:
            return FilingOffice(Office.DISTRICT_CLERK, f"the {district}", "20A-4-401(2)(c)(ii)")
        if kind is ElectionKind.SPECIAL and scope is Scope.MUNICIPAL:
            return FilingOffice(
                Office.MUNICIPAL_CLERK, "the municipal clerk", "20A-4-401(2)(c)(i)",
                "A city or town's proposition at a special election is taken to make it a "
                "municipal election under 20A-4-401(2)(c)(i), so the request goes to the "
                "municipal clerk (NOT CONFIRMED: the statute does not name special "
                "elections).")
        if kind is ElectionKind.SPECIAL and scope is Scope.SPECIAL_DISTRICT:
            return FilingOffice(
                Office.DISTRICT_CLERK, f"the {district}", "20A-4-401(2)(c)(ii)",
                "A special district's proposition at a special election is taken to make it "
                "a special district election under 20A-4-401(2)(c)(ii), so the request goes "
                f"to the {district} (NOT CONFIRMED: the statute does not name special "
                "elections).")
        if scope in (Scope.STATEWIDE, Scope.MULTICOUNTY):
            return FilingOffice(Office.LIEUTENANT_GOVERNOR, "the lieutenant governor",
                                "20A-4-401(2)(c)(iv)")
        return FilingOffice(Office.COUNTY_CLERK, "the county clerk", "20A-4-401(2)(c)(iii)")
    if kind is ElectionKind.MUNICIPAL_PRIMARY:
        return FilingOffice(Office.MUNICIPAL_CLERK, "the municipal clerk", "20A-4-401(1)(d)(i)")
    if kind is ElectionKind.MUNICIPAL_GENERAL:
        return FilingOffice(Office.MUNICIPAL_CLERK, "the municipal clerk",
                            "20A-4-401(1)(d)(ii)(A)")
    if kind is ElectionKind.SPECIAL_DISTRICT:
        return FilingOffice(Office.DISTRICT_CLERK, f"the {district}", "20A-4-401(1)(d)(ii)(B)")
    if scope in (Scope.STATEWIDE, Scope.MULTICOUNTY):
        return FilingOffice(Office.LIEUTENANT_GOVERNOR, "the lieutenant governor",
                            "20A-4-401(1)(d)(ii)(D)")
    return FilingOffice(Office.COUNTY_CLERK, "the county clerk", "20A-4-401(1)(d)(ii)(C)")


_CITY = re.compile(r"\b(city|town|municipal(ity)?|metro township)\b", re.IGNORECASE)
_DISTRICT = re.compile(
    r"\b(special service|improvement|water( conservancy)?|sewer|sanitary|fire( protection)?|"
    r"cemetery|mosquito abatement|recreation|parks?( and recreation)?|service area|"
    r"hospital|library|transit|drainage|irrigation|local|special)\s+district\b|"
    r"\bservice area\b", re.IGNORECASE)


def proposition_scope(title: str) -> Scope | None:
    """Whose proposition this is, from its title, where the title says: a city or town's
    (scope municipal), a special district's, or None (the file does not tell). A school
    district is not a special district (its bond goes to the county clerk)."""
    if _DISTRICT.search(title):
        return Scope.SPECIAL_DISTRICT
    if "school district" in title.casefold():
        return None
    if _CITY.search(title):
        return Scope.MUNICIPAL
    return None


def request_deadline(kind: ElectionKind, canvass_completed: date,
                     contest_kind: ContestKind = ContestKind.RACE,
                     closed: Closed = ()) -> Deadline:
    """Before 5 p.m., 3 days after the canvass (municipal primary) or 7 days otherwise.

    20A-4-401(1)(d)(i),(ii) and (2)(a); time computed under 68-3-7 / 20A-1-401, with the
    case's ``closed`` days (holidays proclaimed by the governor, 63G-1-301).
    """
    if contest_kind is ContestKind.PROPOSITION:
        return add_days_utah(canvass_completed, 7, "20A-4-401(2)(a); 68-3-7", closed)
    if kind is ElectionKind.MUNICIPAL_PRIMARY:
        return add_days_utah(canvass_completed, 3, "20A-4-401(1)(d)(i); 68-3-7", closed)
    return add_days_utah(canvass_completed, 7, "20A-4-401(1)(d)(ii); 68-3-7", closed)


def lot_meeting_deadline(recount_canvass_completed: date, closed: Closed = ()) -> date:
    """2024 edition: the lot is drawn at a public meeting no later than the first business
    day at least three calendar days after the recount canvass (20A-1-304, 2024 H.B. 515)."""
    return first_business_day_at_least(recount_canvass_completed, 3, closed)


def who_pays(edition: Edition, contest_kind: ContestKind) -> tuple[str, str, bool]:
    """(who pays, basis, confirmed) for a recount's costs."""
    if edition is Edition.Y2024:
        return ("The political subdivision administering the election", "2024 H.B. 515",
                contest_kind is ContestKind.RACE)
    if contest_kind is ContestKind.PROPOSITION:
        return ("The voters who requested the recount", "20A-4-401(2)(f)", True)
    return ("Not the candidate who requested it", "20A-4-401(3) (2013 text)", False)


class Requester(StrEnum):
    CANDIDATE = "candidate"
    VOTERS = "voters"


@dataclass(frozen=True, slots=True)
class Finding:
    ok: bool
    text: str
    basis: str


@dataclass(frozen=True, slots=True)
class RequestEvaluation:
    """Whether a recount request is timely, from someone who may ask, and with the right office."""

    timely: Finding
    eligible: Finding
    right_office: Finding
    deadline: Deadline | None

    @property
    def ok(self) -> bool:
        return self.timely.ok and self.eligible.ok and self.right_office.ok

    def findings(self) -> tuple[Finding, Finding, Finding]:
        return (self.timely, self.eligible, self.right_office)


def evaluate_request(
    decision: MarginDecision,
    kind: ElectionKind,
    election_date: date,
    canvass_completed: date | None,
    requester: Requester,
    candidate: str | None,
    voters_confirmed: int,
    filed_at: datetime,
    filed_with: Office,
    closed: Closed = (),
) -> RequestEvaluation:
    """Check a request against 20A-4-401(1)(b)-(d) or (2)(a)-(c); ``closed``: the case's
    proclaimed holidays (63G-1-301)."""
    contest = decision.contest
    if canvass_completed is None:
        timely = Finding(False, "The canvass completion date is not set, so the deadline "
                         "cannot be computed.", "20A-4-401(1)(d)")
        dl = None
    else:
        dl = request_deadline(kind, canvass_completed, contest.kind, closed)
        if filed_at < datetime.combine(canvass_completed, datetime.min.time()):
            timely = Finding(False, "Filed before the canvass was completed.", dl.basis)
        elif filed_at < dl.due:
            timely = Finding(True, f"Filed on time: the deadline is {_when(dl.due)}", dl.basis)
        else:
            timely = Finding(False, f"Late: the deadline was {_when(dl.due)}", dl.basis)

    if decision.verdict is Verdict.AUTOMATIC:
        eligible = Finding(True, "No request is needed: the recount is automatic (tie).",
                           "20A-4-401(2) (2024)")
    elif decision.verdict is Verdict.UNDECIDABLE:
        eligible = Finding(False, "Whether this request is within the recount margin cannot "
                           "be decided from the canvass file: some counts are hidden and it "
                           "has no official totals. Check against the official canvass.",
                           decision.basis)
    elif decision.verdict is Verdict.NO_RESULT:
        eligible = Finding(False, "The canvass records no votes in this contest: there is no "
                           "result to recount (most likely a data error).", decision.basis)
    elif contest.kind is ContestKind.PROPOSITION:
        if requester is not Requester.VOTERS:
            eligible = Finding(False, "A proposition recount is requested by 10 voters.",
                               decision.basis)
        elif voters_confirmed < 10:
            eligible = Finding(False, f"Only {voters_confirmed} voter(s) confirmed as having "
                               "voted; 10 are required.", decision.basis)
        elif not decision.within_margin:
            eligible = Finding(False, "The margin is outside the recount margin.", decision.basis)
        else:
            eligible = Finding(True, f"{voters_confirmed} voters who voted in the election.",
                               decision.basis)
    else:
        loser = next((t for t in decision.losers if t.name == candidate), None)
        lump = next((c for c in decision.outcome.ranking if c.choice.name == candidate
                     and is_aggregate_write_in(c.choice)), None)
        if requester is not Requester.CANDIDATE:
            eligible = Finding(False, "A race recount is requested by the losing candidate.",
                               decision.basis)
        elif lump is not None:
            eligible = Finding(False, f"“{lump.choice.name}” is the file's lump of all "
                               "write-in votes, not a candidate: it cannot request a recount.",
                               decision.basis)
        elif loser is None and candidate in decision.outcome.winners:
            word = "nominated" if kind is ElectionKind.MUNICIPAL_PRIMARY else "elected"
            eligible = Finding(False, f"{candidate} is {word} on the canvass, not a losing "
                               "candidate, so has nothing to ask a recount for.",
                               "20A-9-404(2)" if word == "nominated" else decision.basis)
        elif loser is None:
            eligible = Finding(False, f"{candidate or 'The requester'} is not a losing candidate "
                               "in this race.", decision.basis)
        elif not loser.eligible:
            eligible = Finding(False, f"{loser.name} trails by {loser.difference:,} votes, more "
                               f"than the recount margin of {decision.threshold:,}.",
                               decision.basis)
        elif loser.difference == 0:
            eligible = Finding(True, f"{loser.name} is tied for the last place: in a tie no "
                               "tied candidate has won, so each may ask.", decision.basis)
        else:
            eligible = Finding(True, f"{loser.name} trails by {loser.difference:,}, within the "
                               f"recount margin of {decision.threshold:,}.", decision.basis)

    office = filing_office(kind, contest.scope, contest.kind, election_date)
    right = Finding(filed_with is office.office,
                    f"Filed with {office.name}, as required." if filed_with is office.office
                    else f"Must be filed with {office.name}.", office.basis)
    return RequestEvaluation(timely, eligible, right, dl)


def _when(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    ampm = "a.m." if dt.hour < 12 else "p.m."
    return f"{dt:%a %b} {dt.day}, {dt.year} at {hour}:{dt.minute:02d} {ampm}"
