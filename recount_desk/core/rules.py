"""Utah Code 20A-4-401 as code: who wins, who may ask for a recount, by when and where.

Statute text: docs/statute-20A-4-401.txt (the ~2019 text); the 2024 amendments (H.B. 515)
are summarised in docs/utah-law-notes.md §1c and §3. Every decision below carries the
numbers it used and the subsection it applied, so a person can check it by hand.

Arithmetic is exact: .25 % is tested as ``400 * difference <= total``; never a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from enum import StrEnum

from .calendar import Deadline, add_days_utah, first_business_day_at_least
from .model import (
    ChoiceKind,
    ChoiceTotal,
    Contest,
    ContestKind,
    ContestTotals,
    ElectionKind,
    PassRule,
    Scope,
    VotingMethod,
)


class Edition(StrEnum):
    """Which text of 20A-4-401 applies, chosen from the election date (overridable)."""

    Y2019 = "2019"
    Y2024 = "2024"

    @property
    def label(self) -> str:
        if self is Edition.Y2019:
            return "20A-4-401 as amended through 2023 (before 2024 H.B. 515)"
        return "20A-4-401 as amended by 2024 H.B. 515"


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

    @property
    def label(self) -> str:
        return {
            "within_margin": "Within the recount margin",
            "automatic": "Automatic recount (tie)",
            "not_eligible": "Not eligible",
            "excluded_irv": "Excluded: instant runoff",
            "uncontested": "Uncontested",
            "county_portion": "County portion: decided on the whole race",
        }[self.value]


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won on these totals: the top ``seats`` choices, or passed/failed."""

    result: Result
    ranking: tuple[ChoiceTotal, ...]
    winners: tuple[str, ...]
    tied: tuple[str, ...]
    basis: str


def rank(choices: tuple[ChoiceTotal, ...]) -> tuple[ChoiceTotal, ...]:
    """Most votes first; equal votes keep the file's order (ties are flagged, not broken)."""
    return tuple(sorted(choices, key=lambda c: -c.votes))


def outcome(totals: ContestTotals) -> Outcome:
    """Elected / passed / failed / tie, on the given totals.

    Races: 20A-4-401(1)(e)(iv),(v) and 20A-4-304(1)(a),(b): the ``seats`` candidates with
    the most votes; a tie at the cut-off is a tie (decided by lot, 20A-1-304).
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

    if not ranking or totals.total == 0:
        return Outcome(Result.NO_VOTES, ranking, (), (), "20A-4-401(1)(e)")
    seats = max(1, contest.seats)
    basis = "20A-4-401(1)(e)(iv)" if seats == 1 else "20A-4-401(1)(e)(v)"
    if len(ranking) <= seats:
        return Outcome(Result.ELECTED, ranking, tuple(c.choice.name for c in ranking), (), basis)
    cutoff = ranking[seats - 1].votes
    first_out = ranking[seats].votes
    if cutoff == first_out:
        tied = tuple(c.choice.name for c in ranking if c.votes == cutoff)
        sure = tuple(c.choice.name for c in ranking if c.votes > cutoff)
        return Outcome(Result.TIE, ranking, sure, tied, "20A-4-304(1)(b); 20A-1-304")
    return Outcome(
        Result.ELECTED, ranking, tuple(c.choice.name for c in ranking[:seats]), (), basis
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

    @property
    def within_margin(self) -> bool:
        return self.verdict in (Verdict.WITHIN_MARGIN, Verdict.AUTOMATIC)

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


def decide(totals: ContestTotals, edition: Edition) -> MarginDecision:
    """Is this contest within the recount margin, and why (20A-4-401(1)-(2))."""
    contest = totals.contest
    res = outcome(totals)
    total = totals.total
    thr = threshold_votes(total)
    assumptions: list[str] = []
    if any(c.choice.kind is ChoiceKind.WRITE_IN for c in totals.choices):
        assumptions.append(
            "Write-in votes are counted in the total votes cast for all candidates; the "
            "statute does not say so expressly (utah-law-notes §1f)."
        )

    if contest.voting_method is VotingMethod.IRV:
        return MarginDecision(
            contest, edition, res, total, Verdict.EXCLUDED_IRV, None, thr, None, None, (),
            "20A-4-401(1)(a)",
            "This race is decided by instant runoff voting; 20A-4-401 does not apply to it "
            "(Utah Code 20A-4-401(1)(a)).",
            "Nobody under 20A-4-401",
            assumptions=(
                "The instant-runoff pilot may have lapsed on Jan 1, 2026 (NOT CONFIRMED, "
                "utah-law-notes §6).",
            ),
        )

    if contest.kind is ContestKind.PROPOSITION:
        return _decide_proposition(totals, edition, res, thr, assumptions)

    ranking = res.ranking
    seats = max(1, contest.seats)
    if len(ranking) <= seats:
        return MarginDecision(
            contest, edition, res, total, Verdict.UNCONTESTED, None, thr, None, None, (),
            "20A-4-401(1)(b)",
            f"{len(ranking)} candidate(s) for {seats} seat(s): there is no losing candidate "
            "who could request a recount.",
            "Nobody", tuple(assumptions),
        )
    lowest = ranking[seats - 1]
    losers = tuple(
        LoserTest(c.choice.name, c.votes, lowest.votes - c.votes,
                  within_recount_margin(lowest.votes - c.votes, total))
        for c in ranking[seats:]
    )
    closest = losers[0]
    margin = closest.difference
    basis = margin_basis(total, ContestKind.RACE)
    seat_words = "the lowest winning candidate" if seats > 1 else "the winner"
    rule_words = (
        f"within {thr:,} vote{'s' if thr != 1 else ''}, 0.25 % of the {_pct(total)} votes cast"
        if total > 400 else
        f"one vote or less, the rule where {_pct(total)} (400 or fewer) votes were cast"
    )

    if res.result is Result.TIE and edition is Edition.Y2024:
        tied = " and ".join(res.tied)
        what = "the highest vote" if seats == 1 else "the last seat of this at-large race"
        return MarginDecision(
            contest, edition, res, total, Verdict.AUTOMATIC, 0, thr, closest.name,
            lowest.choice.name, losers, "20A-4-401(2) (2024)",
            f"{tied} are tied for {what} with {lowest.votes:,} votes each: the election "
            "officer recounts this race without a request (Utah Code 20A-4-401(2), as "
            "amended by 2024 H.B. 515); a tie that remains is decided by lot "
            "(20A-1-304).",
            "Nobody needs to: the recount is automatic",
            tuple(assumptions),
        )

    eligible = [t for t in losers if t.eligible]
    if eligible:
        names = ", ".join(t.name for t in eligible)
        if res.result is Result.TIE:
            expl = (
                f"{closest.name} is tied with {lowest.choice.name} ({lowest.votes:,} votes "
                f"each) and may request a recount: a difference of 0 is {rule_words} — Utah "
                f"Code {basis}. If the tie remains after the recount it is decided by lot "
                "(20A-1-304)."
            )
        else:
            expl = (
                f"{closest.name} may request a recount: the difference of {margin:,} "
                f"vote{'s' if margin != 1 else ''} from {seat_words}, {lowest.choice.name}, "
                f"is {rule_words} — Utah Code {basis}."
            )
        if len(eligible) > 1:
            expl += f" Each of these losing candidates may request one: {names}."
        return MarginDecision(
            contest, edition, res, total, Verdict.WITHIN_MARGIN, margin, thr, closest.name,
            lowest.choice.name, losers, basis, expl,
            f"The losing candidate{'s' if len(eligible) > 1 else ''} {names} (20A-4-401(1)(b))",
            tuple(assumptions),
        )
    expl = (
        f"Not eligible: {closest.name} trails {seat_words}, {lowest.choice.name}, by "
        f"{margin:,} votes; the recount margin is "
        + (f"{thr:,} vote{'s' if thr != 1 else ''} (0.25 % of the {_pct(total)} votes cast)"
           if total > 400 else f"one vote where {_pct(total)} votes were cast")
        + f" — Utah Code {basis}."
    )
    return MarginDecision(
        contest, edition, res, total, Verdict.NOT_ELIGIBLE, margin, thr, closest.name,
        lowest.choice.name, losers, basis, expl, "Nobody: the difference is too large",
        tuple(assumptions),
    )


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
            "margin from the two-thirds line is not covered (utah-law-notes §7)."
        )
    rule_words = (
        f"within {thr:,} vote{'s' if thr != 1 else ''}, 0.25 % of the {total:,} votes for "
        "and against"
        if total > 400 else f"one vote or less, where {total:,} (400 or fewer) votes were cast"
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
               else f"one vote where {total:,} votes were cast")
            + f" — Utah Code {basis}."
        )
        verdict = Verdict.NOT_ELIGIBLE
    return MarginDecision(
        contest, edition, res, total, verdict, margin, thr, None, None, (), basis, expl,
        "Any 10 voters who voted in the election (20A-4-401(2)(a))" if eligible
        else "Nobody: the margin is too large",
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


def filing_office(
    kind: ElectionKind, scope: Scope, contest_kind: ContestKind, election_date: date
) -> FilingOffice:
    """With whom a request is filed: 20A-4-401(1)(d) for races, (2)(c) for propositions."""
    district = ("local district clerk" if election_date < SPECIAL_DISTRICT_RENAME
                else "special district clerk")
    if contest_kind is ContestKind.PROPOSITION:
        if kind.is_municipal:
            return FilingOffice(Office.MUNICIPAL_CLERK, "the municipal clerk", "20A-4-401(2)(c)(i)")
        if kind is ElectionKind.SPECIAL_DISTRICT:
            return FilingOffice(Office.DISTRICT_CLERK, f"the {district}", "20A-4-401(2)(c)(ii)")
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


def request_deadline(kind: ElectionKind, canvass_completed: date,
                     contest_kind: ContestKind = ContestKind.RACE) -> Deadline:
    """Before 5 p.m., 3 days after the canvass (municipal primary) or 7 days otherwise.

    20A-4-401(1)(d)(i),(ii) and (2)(a); time computed under 68-3-7 / 20A-1-401.
    """
    if contest_kind is ContestKind.PROPOSITION:
        return add_days_utah(canvass_completed, 7, "20A-4-401(2)(a); 68-3-7")
    if kind is ElectionKind.MUNICIPAL_PRIMARY:
        return add_days_utah(canvass_completed, 3, "20A-4-401(1)(d)(i); 68-3-7")
    return add_days_utah(canvass_completed, 7, "20A-4-401(1)(d)(ii); 68-3-7")


def lot_meeting_deadline(recount_canvass_completed: date) -> date:
    """2024 edition: the lot is drawn at a public meeting no later than the first business
    day at least three calendar days after the recount canvass (20A-1-304, 2024 H.B. 515)."""
    return first_business_day_at_least(recount_canvass_completed, 3)


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
) -> RequestEvaluation:
    """Check a request against 20A-4-401(1)(b)-(d) or (2)(a)-(c)."""
    contest = decision.contest
    if canvass_completed is None:
        timely = Finding(False, "The canvass completion date is not set, so the deadline "
                         "cannot be computed.", "20A-4-401(1)(d)")
        dl = None
    else:
        dl = request_deadline(kind, canvass_completed, contest.kind)
        if filed_at < datetime.combine(canvass_completed, datetime.min.time()):
            timely = Finding(False, "Filed before the canvass was completed.", dl.basis)
        elif filed_at < dl.due:
            timely = Finding(True, f"Filed on time: the deadline is {_when(dl.due)}", dl.basis)
        else:
            timely = Finding(False, f"Late: the deadline was {_when(dl.due)}", dl.basis)

    if decision.verdict is Verdict.AUTOMATIC:
        eligible = Finding(True, "No request is needed: the recount is automatic (tie).",
                           "20A-4-401(2) (2024)")
    elif contest.kind is ContestKind.PROPOSITION:
        if requester is not Requester.VOTERS:
            eligible = Finding(False, "A proposition recount is requested by 10 voters.",
                               "20A-4-401(2)(a)")
        elif voters_confirmed < 10:
            eligible = Finding(False, f"Only {voters_confirmed} voter(s) confirmed as having "
                               "voted; 10 are required.", "20A-4-401(2)(a)")
        elif not decision.within_margin:
            eligible = Finding(False, "The margin is outside the recount margin.", decision.basis)
        else:
            eligible = Finding(True, f"{voters_confirmed} voters who voted in the election.",
                               decision.basis)
    else:
        loser = next((t for t in decision.losers if t.name == candidate), None)
        if requester is not Requester.CANDIDATE:
            eligible = Finding(False, "A race recount is requested by the losing candidate.",
                               "20A-4-401(1)(b)")
        elif loser is None:
            eligible = Finding(False, f"{candidate or 'The requester'} is not a losing candidate "
                               "in this race.", "20A-4-401(1)(b)")
        elif not loser.eligible:
            eligible = Finding(False, f"{loser.name} trails by {loser.difference:,} votes, more "
                               f"than the recount margin of {decision.threshold:,}.",
                               decision.basis)
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
