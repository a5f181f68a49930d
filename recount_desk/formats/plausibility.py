"""The plausibility gate: every reading is checked here before it is offered as read.

A reader can be wrong without failing: a hand-built sheet whose party row was taken for its
candidate names comes back as fifty contests of one candidate each, a ``Turn out %`` column
as a candidate with votes of 0 and 1. A clerk cannot tell such a reading from a right one at
a glance, so what no real canvass looks like is said here, loudly, naming the sheet, row and
column, and the reading's confidence is lowered so that the import wizard goes to the
mapping page instead of presenting it as done (:attr:`ParsedCanvass.doubtful`).

The checks (each one an error, or a warning that makes the reading doubtful):

* every contest of the sheet has one candidate (four contests or more): the titles are
  probably the candidates' names, or the candidates their parties;
* a choice named like a statistic (``Turn out %``, ``Reg. Voters``, ``Ballots Cast``) or a
  percentage, or a choice whose every count is 0 or 1 beside counts in the tens (fractions
  read as votes);
* a contest titled with the name of a candidate (of any contest of the file);
* precincts that do not add up to the file's own totals (where no precinct is suppressed);
* more votes in a contest than ballots cast, in a precinct or in the whole file (where the
  file gives its ballots cast), allowing one vote per seat per ballot;
* a choice whose count is, in every precinct, the sum of the contest's other choices (a
  ``Sub Total`` or ``Grand Total`` column read as a candidate: it would win every race), or
  the same as the only other choice's;
* a precinct whose counts are the sum of all the other precincts' (a totals row named like a
  precinct, ``Countywide``), or two precincts named alike but for leading zeros (``001``
  and ``1``: one precinct listed twice).

and, outside the doubts about the reading as a whole, a contest whose choices fall into
groups that never have votes in the same precinct (two contests under one title, ``State
House`` over the candidates of two districts; or one candidate spelled differently from
county to county, ``Romney, Mitt`` or ``Mitt Romney (REP)`` for ``Mitt Romney``): an error
bound to that contest, whose verdict it withholds; and two contests of the same candidates
that never have votes in the same precinct (one contest under two titles, ``United States
Senator`` in some precincts and ``U.S. Senate`` in the others): an error bound to each.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress
from typing import Any, NamedTuple

from recount_desk.core.model import (
    ChoiceKind,
    ContestKind,
    Issue,
    Remedy,
    Severity,
    stance_of,
)

from . import grid, vocab
from .base import RawCanvass
from .canvass import ParsedCanvass, _near, totals_as_named
from .tabular import col_letter

# Confidence (out of 100) taken from the family for each kind of doubt; a reading whose
# family falls below DOUBTFUL_BELOW, or that has an error from this gate, is not offered as
# done.
DOUBTFUL_BELOW = 50
_PENALTY_ERROR = 60
_PENALTY_WARNING = 30
MIN_ONE_CANDIDATE_CONTESTS = 4

_STATISTIC = vocab.STATISTIC
_OFFICE = vocab.OFFICE
_PERCENT = vocab.PERCENT


@dataclass(frozen=True)
class Verdict:
    """What the gate found: the issues it adds and the confidence it takes away."""

    issues: tuple[Issue, ...]
    reasons: tuple[str, ...]  # every doubt in a sentence, the issues' first
    penalty: int

    def doubtful(self, confidence: int | None) -> bool:
        """An error of the gate, or a family left below :data:`DOUBTFUL_BELOW`."""
        if any(i.severity is Severity.ERROR for i in self.issues):
            return True
        if confidence is None:
            return bool(self.issues)
        return self.penalty > 0 and confidence - self.penalty < DOUBTFUL_BELOW


@functools.lru_cache(maxsize=1 << 14)  # a file repeats the same names
def _statistic_like(name: str) -> bool:
    """A choice named like a statistic or a percentage."""
    return bool(_STATISTIC.match(name) or _PERCENT.search(name))


@functools.lru_cache(maxsize=1 << 14)
def _office_like(name: str) -> bool:
    """A choice named like an office."""
    return bool(_OFFICE.search(name))


_NOT_WORD = re.compile(r"[^\w]+")  # (compiled once: asked of every name)
_TICKET_JOIN = re.compile(r"\s*[/&]\s*")
_party_of = functools.lru_cache(maxsize=1 << 14)(vocab.party_of)  # (of the same names)


@functools.lru_cache(maxsize=1 << 14)  # a file repeats the same names
def _norm(name: str) -> str:
    name, _party = vocab.split_party_prefix(vocab.clean_name(name))
    return _NOT_WORD.sub(" ", name.casefold()).strip()


# Words after a comma that end a name rather than begin its given names ('Smith, Jr.').
_NAME_SUFFIX = re.compile(r"^(jr|sr|ii|iii|iv|v|2nd|3rd)\.?$", re.IGNORECASE)


@functools.lru_cache(maxsize=1 << 14)  # a file repeats the same names
def _person(name: str) -> str:
    """A candidate's name as the words of a person: without a party mark before it ('REP
    Mitt Romney') or after it ('Mitt Romney (REP)', 'Mitt Romney - REP'), and written given
    names first where the file writes it surname first with a comma ('Romney, Mitt'; 'Smith,
    John, Jr.'), casefolded, punctuation a space. A ticket ('Trump, Donald / Pence, Mike')
    is turned part by part. Names without a comma keep their order: 'Lee Mike' is not
    taken for 'Mike Lee'."""
    name = grid.choice_party(vocab.clean_name(name))[0] or name
    if "," in name:
        name = " / ".join(_given_first(part) for part in _TICKET_JOIN.split(name))
    return _NOT_WORD.sub(" ", name.casefold()).strip()


@functools.lru_cache(maxsize=1 << 14)
def _words(name: str) -> tuple[str, ...]:
    """The words of :func:`_person` longer than a letter (initials left out), which
    :func:`_one_name` and :func:`_spellings` compare."""
    return tuple(w for w in _person(name).split() if len(w) > 1)


def _voted(col: Any) -> set[int]:
    """The precincts where a vote column has votes (itertools.compress: the loop in C)."""
    if len(col.precincts) != len(col.votes):
        raise ValueError("a vote column's precincts and votes are not of one length")
    return set(compress(col.precincts, col.votes))


class _VotedOnce:
    """:func:`_voted` of each vote column, made once per reading however many checks ask
    (:func:`gate` makes one for its checks; the sets are not to be changed)."""

    def __init__(self) -> None:
        self._of: dict[int, set[int]] = {}  # id of the column -> its precincts with votes
        self._held: list[Any] = []  # (the columns, so that no id is another's while held)

    def __call__(self, col: Any) -> set[int]:
        found = self._of.get(id(col))
        if found is None:
            found = self._of[id(col)] = _voted(col)
            self._held.append(col)
        return found


def _given_first(name: str) -> str:
    """'Romney, Mitt' -> 'Mitt Romney'; 'Smith, John, Jr.' and 'Smith Jr., John' -> 'John
    Smith Jr.'; a name of other commas ('John Smith, Jr.') as it is but the comma."""
    parts = [p.strip() for p in name.split(",") if p.strip()]
    suffixes: list[str] = []
    while len(parts) > 1 and _NAME_SUFFIX.match(parts[-1]):
        suffixes.insert(0, parts.pop())
    if len(parts) == 2:
        last, given = parts
        words = last.split()
        if len(words) >= 2 and _NAME_SUFFIX.match(words[-1]):  # 'Smith Jr., John'
            suffixes.insert(0, words.pop())
            last = " ".join(words)
        parts = [given, last]
    elif len(parts) > 2:
        return name
    return " ".join([*parts, *suffixes])


def assess(raw: RawCanvass, parsed: ParsedCanvass, cells: Cells | None = None,
           by_contest: dict[int, list[Any]] | None = None,
           ballot_sums: BallotSums | None = None) -> Verdict:
    """Every doubt about a reading, as issues that name where it is, and a penalty
    (``cells``, ``by_contest``, ``ballot_sums``: :func:`_cells`, :func:`_columns_by_contest`
    and :func:`_ballots_and_sums` of the reading, where made already)."""
    found: list[tuple[Issue, int]] = []
    reasons: list[str] = []  # doubts already stated by the build step's issues
    penalty = 0
    sheet = raw.sheet

    def where(ci: int, choice: str | None = None) -> tuple[int | None, str | None]:
        k = parsed.contests[ci].key
        loc = raw.where.get((k.title, k.district, k.party, choice or ""))
        if loc is None and choice is not None:
            loc = raw.where.get((k.title, k.district, k.party, ""))
        return loc if loc is not None else (None, None)

    def add(message: str, severity: Severity, ci: int | None = None,
            choice: str | None = None) -> None:
        row, col = where(ci, choice) if ci is not None else (None, None)
        penalty = _PENALTY_ERROR if severity is Severity.ERROR else _PENALTY_WARNING
        found.append((Issue(raw.file, message, sheet, row, col, severity), penalty))

    races = [i for i, c in enumerate(parsed.contests) if c.kind is ContestKind.RACE]
    # 1. One candidate in every contest.
    named = [[ch for ch in parsed.choices[i] if ch.kind is not ChoiceKind.WRITE_IN]
             for i in races]
    if len(races) >= MIN_ONE_CANDIDATE_CONTESTS and all(len(n) <= 1 for n in named):
        sample = ", ".join(repr(parsed.contests[i].key.label()) for i in races[:3])
        add(f"Every one of the {len(races)} contests read has a single candidate ({sample} …): "
            "the contest titles are probably the candidates' names, or the candidates their "
            "parties. The header rows were not understood; use the column mapping to say "
            "which row holds the contests and which the candidates.", Severity.ERROR,
            races[0])

    # 2. Statistics and percentages read as choices; fractions read as votes.
    stat_bad = 0
    for ci, chs in enumerate(parsed.choices):
        for ch in chs:
            if stat_bad < 10 and _statistic_like(ch.name):
                stat_bad += 1
                add(f"{ch.name!r} is read as a choice in {parsed.contests[ci].key.label()!r}, "
                    "but it names a statistic (registered voters, ballots cast, turnout or a "
                    "percentage), not a candidate. Use the column mapping to leave the "
                    "column out.", Severity.ERROR, ci, ch.name)
    for (title, district, party, choice), n in list(raw.fractional.items())[:5]:
        at = next((i for i, c in enumerate(parsed.contests)
                   if (c.key.title, c.key.district, c.key.party) == (title, district, party)), None)
        add(f"{n} count(s) of {choice!r} in {title!r} are fractions or percentages, not whole "
            "votes: the column probably holds a statistic (a turnout), not a candidate's votes.",
            Severity.ERROR, at, choice)

    # Choices named like offices: the contests' row was taken for the candidates'.
    # Choices named like parties in most races ("REP", "DEM"): the party column was taken
    # for the candidates' (a straight-party contest's choices are parties, so most races).
    partisan = [(i, n) for i, n in zip(races, named, strict=True)
                if n and all(_party_of(ch.name) is not None for ch in n)
                and "straight" not in parsed.contests[i].key.title.casefold()]
    if len(races) >= 2 and 2 * len(partisan) > len(races):
        ci, chs = partisan[0]
        add(f"In {len(partisan)} of the {len(races)} races every candidate is named like a "
            f"party ({', '.join(ch.name for ch in chs[:3])!r} in "
            f"{parsed.contests[ci].key.label()!r} …): the party column was probably taken for "
            "the candidates' names. Use the column mapping.", Severity.ERROR, ci, chs[0].name)
    office_like = [(ci, ch.name) for ci, chs in enumerate(parsed.choices) for ch in chs
                   if _office_like(ch.name)]
    n_choices = sum(len(chs) for chs in parsed.choices)
    if office_like and 2 * len(office_like) >= n_choices:
        ci, name = office_like[0]
        add(f"{len(office_like)} of the {n_choices} choices read are named like offices "
            f"({name!r} in {parsed.contests[ci].key.label()!r} …): the row of contest titles "
            "was probably taken for the candidates' names. Use the column mapping.",
            Severity.ERROR, ci, name)

    # 3. A contest titled with a candidate's name.
    names: dict[str, str] = {}
    for chs in parsed.choices:
        for ch in chs:
            if ch.kind in (ChoiceKind.CANDIDATE, ChoiceKind.WRITE_IN):
                norm = _norm(ch.name)
                if len(norm) > 3:
                    names.setdefault(norm, ch.name)
    titled = [ci for ci, c in enumerate(parsed.contests) if _norm(c.key.title) in names]
    for ci in titled[:5]:
        add(f"The contest {parsed.contests[ci].key.label()!r} is titled with the name of a "
            f"candidate ({names[_norm(parsed.contests[ci].key.title)]!r}): the row of contest "
            "titles was probably taken from the candidates' row.",
            Severity.ERROR if len(titled) >= 3 else Severity.WARNING, ci)

    # 4. Precincts against the file's own totals (suppressed precincts excepted). The build
    # step has said so, naming the figures; here it only makes the reading less sure.
    # The precincts' sums, from the columns: the totals may be the file's own already.
    counted: dict[tuple[int, int], int] = {}
    if raw.file_totals:
        if cells is not None:  # (each column's sum from the running sum of all the votes)
            col_sums = _column_totals(cells).tolist()
            for col, votes in zip(parsed.columns, col_sums, strict=True):
                counted[(col.contest, col.choice)] = votes
        else:
            for col in parsed.columns:
                counted[(col.contest, col.choice)] = sum(col.votes)
    mismatched = []
    for ci, t in enumerate(parsed.totals):
        k = t.contest.key
        tup = (k.title, k.district, k.party)
        file_tot = totals_as_named(raw.file_totals.get(tup), [c.choice.name for c in t.choices])
        if not file_tot or tup in raw.suppressed or raw.hidden.get(tup):
            continue
        pairs = [(c.choice.name, file_tot[c.choice.name], counted.get((ci, q), 0))
                 for q, c in enumerate(t.choices) if c.choice.name in file_tot]
        if any(f != n for _, f, n in pairs):
            mismatched.append(k.label())
        if len(pairs) >= 2 and all(f != n for _, f, n in pairs):
            # Not one choice agrees: the totals row is not this contest's sum (a precinct
            # named "Total", rows cut off, another contest's totals). Neither figure can be
            # trusted, whichever family read the file.
            name, f, n = pairs[0]
            add(f"{k.label()}: the file's totals row agrees with the precincts for no choice "
                f"({name!r}: totals {f:,}, precincts {n:,}), so it is not their sum — it may "
                "be a precinct named like a totals row, or precinct rows are missing. The "
                "figures cannot be trusted: correct the file (or rename the precinct) and "
                "import again.", Severity.ERROR, ci)
            if tup in raw.totals_rows:  # the row itself, where the file says
                found[-1] = (dataclasses.replace(found[-1][0], row=raw.totals_rows[tup],
                                                 column=None), found[-1][1])
    if mismatched:
        reasons.append(f"the precincts do not add up to the file's own totals in "
                       f"{len(mismatched)} contest(s) ({mismatched[0]} …)")
        penalty += _PENALTY_WARNING

    # The reader's own doubts (a guess it had to make), already among its issues.
    for i in raw.doubts:
        reasons.append(i.message)
        penalty += _PENALTY_ERROR if i.severity is Severity.ERROR else _PENALTY_WARNING

    # 5. More votes than ballots.
    found.extend((i, _PENALTY_ERROR) for i in _over_ballots(raw, parsed, ballot_sums))

    # 6. A choice that is the others' sum.
    if by_contest is None:
        by_contest = _columns_by_contest(parsed)
    for ci, choice, other in _sum_columns(parsed, by_contest)[:5]:
        label = parsed.contests[ci].key.label()
        if other:
            add(f"{label}: the counts of {choice!r} and {other!r} are the same in every "
                "precinct: one of them is a total column (a subtotal), not a choice, and read "
                "as one it makes a tie of the contest. Rename it 'Total' or leave it out (the "
                "column mapping), and import again.", Severity.ERROR, ci, choice)
        else:
            add(f"{label}: the count of {choice!r} is, in every precinct, the sum of the other "
                "choices': it is a total column (a subtotal), not a choice, and read as one it "
                "would win the contest. Rename it 'Total' or leave it out (the column "
                "mapping), and import again.", Severity.ERROR, ci, choice)

    # 8. One precinct under two names that differ only by leading zeros ('001' and '1').
    for a, b in _zero_twins(parsed.precincts)[:3]:
        add(f"Precincts {a!r} and {b!r} are named alike but for leading zeros: probably one "
            "precinct listed twice, whose votes would count twice. Correct the file (one "
            "name for each precinct) and import again.", Severity.ERROR)

    # 7. A precinct that is the others' sum: a totals row named like a precinct.
    for name, held, every in _sum_precincts(parsed, cells)[:3]:
        how = "in every contest" if held == every else \
            f"in {held} of its {every} counts (and nearly in the others)"
        add(f"Precinct {name!r} holds, {how}, the sum of all the other precincts: it "
            "is the file's totals row read as a precinct, so every count would be doubled. "
            "Name that row 'Total' (or delete it) and import again.", Severity.ERROR)

    issues = tuple(i for i, _ in found)
    reasons[:0] = [i.message for i in issues]
    return Verdict(issues, tuple(reasons), min(100, penalty + sum(p for _, p in found)))


class BallotSums(NamedTuple):
    """Each contest's votes in each precinct whose ballots cast the file gives, for the
    checks of votes over ballots (:func:`_ballots_and_sums`): one entry per (contest,
    precinct) with votes, ordered by contest then precinct."""

    ballots: Any    # ballots cast per precinct (index 1 on), -1 where the file gives none
    contest: Any    # each entry's contest
    precinct: Any   # its precinct (index 1 on)
    votes: Any      # the contest's votes there


# (the sums are made in place where (contest, precinct) pairs are at most this many times
# the cells summed, and else over the pairs that have cells)
_DENSE = 8


def _ballots_and_sums(raw: RawCanvass, parsed: ParsedCanvass,
                      cells: Cells | None = None) -> BallotSums:
    """The ballots cast per precinct and each contest's votes in the precincts that have
    them, summed over every column at once (``cells``: :func:`_cells`, where made)."""
    import numpy as np

    n = len(parsed.precincts) + 1
    index = {p: i + 1 for i, p in enumerate(parsed.precincts)}
    ballots = np.full(n, -1, dtype=np.int64)
    for p, b in raw.ballots.items():
        if p in index:
            ballots[index[p]] = b
    if not parsed.columns:
        empty = np.zeros(0, dtype=np.int64)
        return BallotSums(ballots, empty, empty, empty)
    prec, votes, col_of, _bounds = cells if cells is not None else _cells(parsed)
    at = ballots[prec] >= 0
    contest_of = np.fromiter((c.contest for c in parsed.columns), dtype=np.int64,
                             count=len(parsed.columns))[col_of[at]]
    keys = contest_of * n + prec[at]
    # (counts below 2**53 are exact in the float sums; an entry of no votes is over no limit)
    size = (int(contest_of.max()) + 1) * n if len(keys) else 0
    if size <= _DENSE * len(keys) + 256:   # every (contest, precinct) summed in place
        dense = np.bincount(keys, weights=votes[at], minlength=size)
        keys = np.flatnonzero(dense)
        sums = dense[keys].astype(np.int64)
    else:
        keys, inverse = np.unique(keys, return_inverse=True)
        sums = np.bincount(inverse, weights=votes[at], minlength=len(keys)).astype(np.int64)
    return BallotSums(ballots, keys // n, keys % n, sums)


def _over(sums: BallotSums, limit: Any) -> dict[int, tuple[int, int, int]]:
    """The contests with more votes than ``limit`` (per contest) × ballots cast in some
    precinct: for each, in contest order, its first such precinct, the votes there and how
    many such precincts."""
    import numpy as np

    over = np.flatnonzero(sums.votes > limit[sums.contest] * sums.ballots[sums.precinct])
    if not len(over):
        return {}
    cs = sums.contest[over]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    counts = np.diff(np.r_[starts, len(over)])
    first = over[starts]
    return {int(c): (int(p), int(v), int(k)) for c, p, v, k in zip(
        cs[starts].tolist(), sums.precinct[first].tolist(), sums.votes[first].tolist(),
        counts.tolist(), strict=True)}


def _limits(parsed: ParsedCanvass, seats_of: Callable[[int], int]) -> Any:
    import numpy as np

    return np.fromiter((seats_of(ci) for ci in range(len(parsed.contests))), dtype=np.int64,
                       count=len(parsed.contests))


def _most_seats(parsed: ParsedCanvass, ci: int) -> int:
    """The seats a contest may fill: those the file states, else as many as its choices
    (one is only assumed: then only what no number of seats explains is wrong for sure)."""
    c = parsed.contests[ci]
    return c.seats if c.seats_from_file else max(c.seats, len(parsed.choices[ci]))


def one_seat_over_ballots(raw: RawCanvass, parsed: ParsedCanvass,
                          ballot_sums: BallotSums | None = None) -> list[Issue]:
    """An error bound to each race whose seats nobody stated (one is assumed) with more
    votes than ballots cast in a precinct, or in all: more than one vote a ballot, which one
    seat cannot give. Either it fills more seats than the one assumed (and the verdict on
    one seat is wrong), or its columns hold another contest's choices too (a title merged
    over the next contest's first column, and that contest's title lost under it). Races
    whose votes no number of seats explains are the gate's errors already
    (:func:`_over_ballots`)."""
    if not raw.ballots and raw.ballots_total is None:
        return []
    import numpy as np

    sums = ballot_sums or _ballots_and_sums(raw, parsed) if raw.ballots else None
    over = _over(sums, np.ones(len(parsed.contests), dtype=np.int64)) \
        if sums is not None else {}
    wrong = _over(sums, _limits(parsed, lambda ci: _most_seats(parsed, ci))) \
        if over and sums is not None else {}
    out: list[Issue] = []
    for ci, t in enumerate(parsed.totals):
        c = t.contest
        if c.kind is not ContestKind.RACE or c.seats_from_file or c.seats != 1 or \
                len(parsed.choices[ci]) < 2 or ci in wrong:
            continue   # (no number of seats explains it: the gate's error already)
        where = None
        if ci in over and sums is not None:
            p, v, k = over[ci]
            where = (f"precinct {parsed.precincts[p - 1]!r} has {v:,} votes but "
                     f"{int(sums.ballots[p]):,} ballots cast"
                     + (f" (and {k - 1} more precincts like it)" if k > 1 else ""))
        elif raw.ballots_total is not None and raw.ballots_total < t.total <= \
                len(parsed.choices[ci]) * raw.ballots_total:
            where = f"it has {t.total:,} votes in all but the file counts " \
                f"{raw.ballots_total:,} ballots cast"
        if where is None:
            continue
        loc = raw.where.get((c.key.title, c.key.district, c.key.party, ""), (None, None))
        out.append(Issue(
            raw.file, f"{c.key.label()}: {where}: more than one vote a ballot, which the one "
            "seat assumed for it cannot give (the file does not say how many it fills). Either "
            "it fills more than one seat, or its figures hold another contest's choices or a "
            "total counted as a choice (a contest's title over the wrong columns, a write-in "
            "total beside its write-ins). Set its seats if it fills several, or correct the "
            "file, and import again. No verdict rests on this contest's figures as read.",
            raw.sheet, loc[0], loc[1], Severity.ERROR,
            remedy=Remedy.SET_SEATS, contest=c.key, only_contest=True))
    return out


def _over_ballots(raw: RawCanvass, parsed: ParsedCanvass,
                  ballot_sums: BallotSums | None = None) -> list[Issue]:
    """Contests with more votes than seats × ballots cast, per precinct and in all."""
    if not raw.ballots and raw.ballots_total is None:
        return []
    out: list[Issue] = []
    shown = 0
    if raw.ballots:
        sums = ballot_sums or _ballots_and_sums(raw, parsed)
        for ci, (p, votes, k) in _over(sums, _limits(
                parsed, lambda ci: _most_seats(parsed, ci))).items():
            name = parsed.precincts[p - 1]
            if shown < 5:
                out.append(Issue(
                    raw.file, f"{parsed.contests[ci].key.label()}: precinct {name!r} has "
                    f"{votes:,} votes but {int(sums.ballots[p]):,} ballots cast"
                    + (f" (and {k - 1} more precincts like it)" if k > 1 else "")
                    + ": the columns were probably read from the wrong place, or the ballots "
                    "column is not the ballots cast.", raw.sheet, raw.ballots_rows.get(name),
                    raw.ballots_column, Severity.ERROR))
            shown += 1
    if raw.ballots_total is not None:
        for ci, t in enumerate(parsed.totals):
            if t.total > _most_seats(parsed, ci) * raw.ballots_total and shown < 10:
                shown += 1
                out.append(Issue(
                    raw.file, f"{t.contest.key.label()}: {t.total:,} votes in all, but the "
                    f"file counts {raw.ballots_total:,} ballots cast.", raw.sheet,
                    severity=Severity.ERROR))
    return out


def _sum_columns(parsed: ParsedCanvass, by_contest: dict[int, list[Any]]
                 ) -> list[tuple[int, str, str]]:
    """(contest, choice, the other choice or "") for each choice whose count in every
    precinct is the sum of the contest's other choices' (with two choices: the other's),
    in at least two precincts with votes (three with two choices). Found from the totals
    first (twice the choice's total is the contest's), the precincts looked at only then."""
    import numpy as np

    out = []
    for ci, t in enumerate(parsed.totals):
        cols = by_contest.get(ci, [])
        if len(cols) < 2:
            continue
        each = [c.votes for c in t.choices]
        total = sum(each)
        if not total or total % 2 or total // 2 not in each:  # (no choice twice the total)
            continue
        n = len(parsed.precincts) + 1
        acc = np.zeros(n, dtype=np.int64)
        for col in cols:
            np.add.at(acc, np.asarray(col.precincts, dtype=np.int64),
                      np.asarray(col.votes, dtype=np.int64))
        # (two precincts with votes at least; with two choices, three: a tie of two in a
        # precinct or two of a few voters is no total column)
        if int(np.count_nonzero(acc)) < (2 if len(cols) > 2 else 3):
            continue
        for col in cols:
            mine = np.zeros(n, dtype=np.int64)
            mine[np.asarray(col.precincts, dtype=np.int64)] = np.asarray(col.votes)
            if np.array_equal(2 * mine, acc):
                other = (t.choices[1 - col.choice].choice.name if len(cols) == 2 else "")
                out.append((ci, t.choices[col.choice].choice.name, other))
                break
    return out


# Every column's cells: their precincts, votes and column, and where each column's cells
# begin (numpy arrays; a column's cells are together, in the order of the columns).
Cells = tuple[Any, Any, Any, Any]


def _columns_by_contest(parsed: ParsedCanvass) -> dict[int, list[Any]]:
    """Each contest's vote columns."""
    out: dict[int, list[Any]] = defaultdict(list)
    for col in parsed.columns:
        out[col.contest].append(col)
    return out


def _cells(parsed: ParsedCanvass) -> Cells:
    """Every column's cells at once: their precincts, votes and columns, and where each
    column's begin (numpy arrays), made once per reading (:func:`gate` hands them to each
    check). The build stage's columns are arrays of one item size: their bytes joined are
    read as one array each (read-only: no check writes to them)."""
    import numpy as np

    cols = parsed.columns
    sizes = [len(c.precincts) for c in cols]
    bounds = np.zeros(len(cols) + 1, dtype=np.int64)
    np.cumsum(sizes, out=bounds[1:])
    codes = {getattr(c.precincts, "typecode", None) for c in cols} | \
        {getattr(c.votes, "typecode", None) for c in cols}
    if len(codes) == 1 and None not in codes:
        kind = np.dtype(next(iter(codes)))  # ('i' or 'q': array's and numpy's codes agree)
        # (the arrays' own buffers joined: no copy of each first)
        prec = np.frombuffer(b"".join(c.precincts for c in cols),  # type: ignore[misc]
                             dtype=kind).astype(np.int64, copy=False)
        votes = np.frombuffer(b"".join(c.votes for c in cols),  # type: ignore[misc]
                              dtype=kind).astype(np.int64, copy=False)
    else:
        prec = np.concatenate([np.asarray(c.precincts, dtype=np.int64) for c in cols])
        votes = np.concatenate([np.asarray(c.votes, dtype=np.int64) for c in cols])
    return prec, votes, np.repeat(np.arange(len(cols)), sizes), bounds


def _column_totals(cells: Cells) -> Any:
    """Each column's votes summed (numpy), from the running sum of all the cells' votes at
    the columns' bounds: exact, in two passes however many columns."""
    import numpy as np

    _prec, votes, _col_of, bounds = cells
    running = np.zeros(len(votes) + 1, dtype=np.int64)
    np.cumsum(votes, out=running[1:])
    return running[bounds[1:]] - running[bounds[:-1]]


_LEADING_ZEROS = re.compile(r"(?<![0-9])0+(?=[0-9])")
# The same zeros, the pattern begun with its '0' (the digit before it looked at behind that
# '0'): the scan then jumps from one '0' to the next, several times faster over a long text.
_LEADING_ZEROS_FAST = re.compile(r"0(?<![0-9]0)0*(?=[0-9])")


def _zero_twins(precincts: list[str]) -> list[tuple[str, str]]:
    """Pairs of precinct names that are one name once the leading zeros of their numbers
    are dropped ('001' and '1', 'Beaver / 07' and 'Beaver / 7')."""
    if not precincts:
        return []
    # (the names joined by a character that is no digit, so that each name's numbers start
    # and end where they do alone: one pass of the pattern for all)
    joined = "\0".join(map(str.strip, precincts))
    if joined.count("\0") == len(precincts) - 1:
        keys = _LEADING_ZEROS_FAST.sub("", joined).split("\0")
    else:  # (a name with that character in it)
        keys = [_LEADING_ZEROS.sub("", p.strip()) for p in precincts]
    if len(set(keys)) == len(set(precincts)):
        return []  # (no two names with one key: no twins)
    seen: dict[str, str] = {}
    out = []
    for p, key in zip(precincts, keys, strict=True):
        if key in seen and seen[key] != p:
            out.append((seen[key], p))
        seen.setdefault(key, p)
    return out


def _sum_precincts(parsed: ParsedCanvass, cells: Cells | None = None
                   ) -> list[tuple[str, int, int]]:
    """(precinct, in how many columns, of how many) for the precincts whose count is the
    sum of the column's other precincts' (twice theirs is the column's total) in three in
    four of the columns of three precincts or more with votes, and within a fiftieth of it
    in the rest, with votes in at least one: a totals row named like a precinct ('Morgan
    County'; Iron County's 2018 file has 'IRON UT', a few of whose totals are some votes
    off its precincts', as a county's own totals can be). No real precinct holds the others'
    sum so."""
    import numpy as np

    if not parsed.columns or len(parsed.precincts) < 3:
        return []
    cells = cells if cells is not None else _cells(parsed)
    prec, votes, col_of, bounds = cells
    sizes = np.diff(bounds)
    totals = _column_totals(cells)
    # (columns of three precincts or more: with two, each is "the sum of the other")
    per_column = (sizes >= 3) & (totals > 0)
    n = len(parsed.precincts) + 1
    if len(votes) and int(votes.min()) >= 0 and int(prec.min()) >= 0 and int(prec.max()) < n:
        # A precinct found holds a count, not 0, that is half its column's total; of counts
        # none below 0, that count is the column's greatest. Where no column's greatest is
        # half its total (most files), none is found; else only the precincts with such a
        # count can be, and the cells of the others are left out (their counts are theirs).
        full = np.flatnonzero(sizes > 0)
        greatest = np.zeros(len(sizes), dtype=np.int64)
        greatest[full] = np.maximum.reduceat(votes, bounds[full])
        halved = per_column & (2 * greatest == totals)
        if not halved.any():
            return []
        sub = np.flatnonzero(halved[col_of])
        mine = votes[sub]
        held_at = prec[sub][(2 * mine == totals[col_of[sub]]) & (mine > 0)]
        if not len(held_at):
            return []
        maybe = np.zeros(n, dtype=bool)
        maybe[held_at] = True
        keep = np.flatnonzero(maybe[prec])
        prec, votes, col_of = prec[keep], votes[keep], col_of[keep]
    counted = per_column[col_of]
    of_column = totals[col_of]
    twice = 2 * votes
    hit = counted & (twice == of_column)
    near = counted & (50 * np.abs(twice - of_column) <= of_column)
    every = np.bincount(prec[counted], minlength=n)
    held = np.bincount(prec[hit], minlength=n)
    close = np.bincount(prec[near], minlength=n)
    some = np.bincount(prec[hit & (votes > 0)], minlength=n)
    found = np.flatnonzero((every >= 2) & (4 * held >= 3 * every) & (close == every)
                           & (some >= 1))
    return [(parsed.precincts[p - 1], int(held[p]), int(every[p])) for p in found.tolist()]


def _split_contests(parsed: ParsedCanvass, by_contest: dict[int, list[Any]],
                    cells: Cells | None = None, voted_of: Callable[[Any], set[int]] = _voted
                    ) -> list[tuple[int, list[tuple[set[int], set[int]]]]]:
    """(contest, its groups) for each contest whose choices fall into two groups or more
    that share no precinct where both have votes, each group with a candidate who is no
    write-in: (the choices' positions, their precincts with votes) per group. The groups of
    every contest are found at once, in numpy: each column takes the least label among
    the columns it shares a precinct with votes with, until no label moves (connected
    components), for the contests alone that have no precinct where all their columns with
    votes have votes (the others are one group each); only a contest of two groups or more
    is looked at name by name."""
    import numpy as np

    cols = parsed.columns
    if not cols:
        return []
    prec, votes, col_of, _bounds = cells if cells is not None else _cells(parsed)
    contest_of = np.array([c.contest for c in cols], dtype=np.int64)
    width = len(parsed.precincts) + 1
    nz = votes != 0
    col_nz = col_of[nz]
    prec_nz = prec[nz]
    key = contest_of[col_nz] * width + prec_nz
    if not len(key):
        return []
    voted = np.bincount(col_nz, minlength=len(cols)) > 0
    # Where each contest has a precinct in which every one of its columns with votes has
    # votes, all its columns are one group: if every contest has one (most files), none is
    # split, and the groups need not be found; else only the other contests' are (no group
    # spans two contests: each key is of one). The precincts are numbers 0 to
    # len(precincts), so that a key tells its contest; a column's precincts are told
    # apart, not counted, so that a column listing a precinct twice counts once there.
    in_range = int(prec.min()) >= 0 and int(prec.max()) < width
    whole_contest = None
    if in_range and int(contest_of.min()) >= 0:
        span = (int(contest_of.max()) + 1) * width
        # (with each column's precincts ascending, none twice, the cells of a key count
        # its columns: counted at once over all keys, where they are not too many)
        if span <= 8 * len(key) + (1 << 16) and bool(np.all(
                (prec_nz[1:] > prec_nz[:-1]) | (col_nz[1:] != col_nz[:-1]))):
            most = np.bincount(key, minlength=span).reshape(-1, width).max(axis=1)
            whole_contest = most == np.bincount(contest_of[voted], minlength=len(most))
            if whole_contest.all():
                return []
            rest = ~whole_contest[contest_of[col_nz]]
            key, col_nz = key[rest], col_nz[rest]
            voted &= ~whole_contest[contest_of]
    order = np.argsort(key, kind="stable")
    key_s, col_s = key[order], col_nz[order]
    new_key = np.concatenate(([True], key_s[1:] != key_s[:-1]))
    starts = np.flatnonzero(new_key)
    widths = np.diff(np.append(starts, len(key_s)))
    # (else the same from the sorted keys: a stable sort keeps each precinct's cells in
    # the order of their columns)
    if whole_contest is None and in_range:
        new_column = new_key.copy()
        new_column[1:] |= col_s[1:] != col_s[:-1]
        columns_at = np.add.reduceat(new_column.astype(np.int64), starts)
        contest_at = key_s[starts] // (len(parsed.precincts) + 1)
        firsts = np.flatnonzero(np.concatenate(([True], contest_at[1:] != contest_at[:-1])))
        most = np.maximum.reduceat(columns_at, firsts)
        voted_in = np.bincount(contest_of[voted], minlength=len(parsed.contests))
        whole = most == voted_in[contest_at[firsts]]
        if whole.all():
            return []
        # The groups of the others alone: no group spans two contests (each key is of one),
        # so theirs are the same found without the rest.
        whole_contest = np.zeros(max(len(voted_in), int(contest_of.max()) + 1), dtype=bool)
        whole_contest[contest_at[firsts][whole]] = True
        keep = ~whole_contest[contest_of[col_s]]
        key_s, col_s = key_s[keep], col_s[keep]
        starts = np.flatnonzero(new_key[keep])
        widths = np.diff(np.append(starts, len(key_s)))
        voted &= ~whole_contest[contest_of]
    label = np.arange(len(cols))
    while True:
        least = np.repeat(np.minimum.reduceat(label[col_s], starts), widths)
        moved = label.copy()
        np.minimum.at(moved, col_s, least)
        if np.array_equal(moved, label):
            break
        label = moved
    # (a group's label is its least column's own number: one column of each group has it)
    roots = voted & (label == np.arange(len(cols)))
    groups_in = np.bincount(contest_of[roots], minlength=len(parsed.contests))
    out = []
    for ci in np.flatnonzero(groups_in >= 2).tolist():
        groups: list[tuple[set[int], set[int]]] = []
        for col in by_contest[ci]:
            ps = set(voted_of(col))  # (a copy: it grows)
            if not ps:
                continue
            joined = [g for g in groups if g[1] & ps]
            qs = {col.choice}
            for g in joined:
                groups.remove(g)
                qs |= g[0]
                ps |= g[1]
            groups.append((qs, ps))
        chs = parsed.choices[ci]
        named = [g for g in groups if any(chs[q].kind is not ChoiceKind.WRITE_IN
                                          for q in g[0])]
        if len(named) >= 2:
            out.append((ci, sorted(named, key=lambda g: min(g[0]))))
    return out


def split_contests(raw: RawCanvass, parsed: ParsedCanvass, cells: Cells | None = None,
                   by_contest: dict[int, list[Any]] | None = None,
                   voted: Callable[[Any], set[int]] = _voted) -> list[Issue]:
    """An error bound to each contest whose choices fall into groups that never have votes
    in the same precinct: one candidate spelled differently from precinct to precinct (or
    county to county: 'KALI GLEAVE', 'KALI CLEAVE'), or two contests under one title. Either
    way its votes are not one race's as read, so no verdict rests on them (the contest's
    alone: the rest of the reading is not put in doubt). (``voted``: :func:`_voted`, or its
    sets made once already.)"""
    if by_contest is None:
        by_contest = _columns_by_contest(parsed)
    out = []
    for ci, groups in _split_contests(parsed, by_contest, cells, voted):
        key = parsed.contests[ci].key
        chs = parsed.choices[ci]
        names = [[chs[q].name for q in qs] for qs, _ in groups]
        spelled = _spellings(names)
        # A lone candidate with votes only where no other had any, in a precinct or two, may
        # be the choice of a tiny precinct's few voters: not enough to call it a contest.
        if not spelled and sum(len(qs) >= 2 or len(ps) >= 3 for qs, ps in groups) < 2:
            continue
        shown = "; ".join(
            ", ".join(repr(chs[q].name) for q in sorted(qs)[:4])
            + (" …" if len(qs) > 4 else "") + f" in {len(ps)} precinct{'s' * (len(ps) != 1)}"
            for qs, ps in groups[:3]) + ("; …" if len(groups) > 3 else "")
        counties = [{parsed.precincts[p - 1].split(" / ", 1)[0] for p in ps
                     if " / " in parsed.precincts[p - 1]} for _, ps in groups]
        if spelled:
            why = ("the same candidates are probably spelled differently from one part of the "
                   "file to another (precincts of different counties, say), so each one's votes "
                   "are split among the spellings. Spell each name one way and import again.")
        elif all(len(c) == 1 for c in counties) and len(set.union(*counties)) == len(groups):
            # Each group in one county of a file of several: each county's own contest.
            names_c = ", ".join(sorted(next(iter(c)) for c in counties))
            why = ("each group lies in one county (" + names_c + "): they are probably each "
                   "county's own contest of that name, read as one from a file of several "
                   "counties. Check each county's file apart, or the counties' files together "
                   "(each county's own races are then kept apart).")
        else:
            why = (f"they are probably {len(groups)} contests under one title (districts of one "
                   "office, say), and a margin over them all is no contest's. Give each contest "
                   "its own title (with its district) and import again.")
        loc = raw.where.get((key.title, key.district, key.party, ""), (None, None))
        out.append(Issue(
            raw.file, f"{key.label()}: its choices fall into {len(groups)} groups that never "
            f"have votes in the same precinct ({shown}): {why} No verdict rests on this "
            "contest's figures as read.",
            raw.sheet, loc[0], loc[1], Severity.ERROR,
            contest=key, only_contest=True))
    return out


def spelled_apart(raw: RawCanvass, parsed: ParsedCanvass,
                  by_contest: dict[int, list[Any]], skip: set[Any],
                  voted: Callable[[Any], set[int]] = _voted) -> list[Issue]:
    """An error bound to each contest with two candidates named alike ('Tim Glenn', 'Tim
    Glen'; 'BRIAN S. KING', 'Brian King') who never have votes in the same precinct: one
    candidate spelled two ways, whose votes are split between the spellings, so the
    contest's figures as read are not its own. (Two real candidates of a race are on the same
    ballots: each has votes where the other has.) ``skip``: the keys of the contests
    already found split; ``voted``: :func:`_voted`, or its sets made once already)."""
    out = []
    for ci, chs in enumerate(parsed.choices):
        if len(chs) < 2 or parsed.contests[ci].key in skip:
            continue
        pairs = [(a, b) for a, b in _alike_pairs(chs) if _one_name(chs[a].name, chs[b].name)]
        if not pairs:
            continue
        paired = {q for pair in pairs for q in pair}
        where = {col.choice: voted(col) for col in by_contest.get(ci, ()) if col.choice in paired}
        apart = [(a, b) for a, b in pairs if where.get(a) and where.get(b)
                 and where[a].isdisjoint(where[b])]
        if not apart:
            continue
        key = parsed.contests[ci].key

        shown = {q: f"{chs[q].name!r} (votes in {len(where[q])} precinct"
                 f"{'s' * (len(where[q]) != 1)})" for pair in apart[:3] for q in pair}
        pairs_text = "; ".join(f"{shown[a]} and {shown[b]}" for a, b in apart[:3])
        loc = raw.where.get((key.title, key.district, key.party, ""), (None, None))
        out.append(Issue(
            raw.file, f"{key.label()}: {pairs_text} look like one candidate spelled two ways: "
            "they never have votes in the same precinct, so the candidate's votes are split "
            "between the spellings. Spell the name one way and import again. No verdict rests "
            "on this contest's figures as read.",
            raw.sheet, loc[0], loc[1], Severity.ERROR,
            contest=key, only_contest=True))
    return out


def _alike_pairs(chs: list[Any]) -> list[tuple[int, int]]:
    """The pairs (a, b), a < b, of a contest's candidates (no write-ins) whose names may be
    one name (:func:`_one_name`), in order: those whose words (:func:`_words`) share the first
    or the last, which every pair :func:`_one_name` takes does. Found through the words, not
    pair by pair: a contest of many candidates is not looked at in its square."""
    named = [(q, w) for q, c in enumerate(chs)
             if c.kind is ChoiceKind.CANDIDATE and (w := _words(c.name))]
    if len({w[0] for _, w in named}) == len(named) and \
            len({w[-1] for _, w in named}) == len(named):
        return []  # (no two share a first word or a last: most contests)
    by_word: dict[tuple[int, str], list[int]] = defaultdict(list)
    for q, w in named:
        by_word[(0, w[0])].append(q)
        by_word[(1, w[-1])].append(q)
    found = {(a, b) for qs in by_word.values() if len(qs) > 1
             for i, a in enumerate(qs) for b in qs[i + 1:]}
    return sorted(found)


@functools.lru_cache(maxsize=1 << 14)
def _one_name(a: str, b: str) -> bool:
    """Two spellings of one person's name: the same words but for initials, punctuation
    and case ('BRIAN S. KING', 'Brian King'), a middle name more or less, or one word a
    letter or two apart ('Glen', 'Glenn'; 'Kali', 'Kale'); the surname first with a comma
    ('Romney, Mitt') or a party mark ('Mitt Romney (REP)', 'REP Mitt Romney') left aside
    (:func:`_person`)."""
    if a == b:
        return False
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return False
    if wa == wb:  # (also where the names are one person: the same words)
        return True
    if wa[0] == wb[0] and wa[-1] == wb[-1] and abs(len(wa) - len(wb)) == 1 \
            and min(len(wa), len(wb)) >= 2:
        return True
    if len(wa) != len(wb):
        return False
    apart = [i for i in range(len(wa)) if wa[i] != wb[i]]
    return len(apart) == 1 and len(wa) >= 2 and _near(wa[apart[0]], wb[apart[0]])


def _spellings(groups: list[list[str]]) -> bool:
    """Whether every group's names are, but for a letter or an initial, another group's
    (one list of candidates spelled several ways), not other candidates."""
    def alike(a: str, b: str) -> bool:
        wa, wb = _words(a), _words(b)
        if not wa or not wb:
            return False
        return wa[-1] == wb[-1] or (
            wa[0] == wb[0] and difflib.SequenceMatcher(None, wa[-1], wb[-1]).ratio() >= 0.8)

    return all(any(alike(a, b) for k, other in enumerate(groups) if k != i for b in other)
               for i, group in enumerate(groups) for a in group)


# Choices that are no person, whichever contests they stand in: the same words in many
# contests of one file ('Uncommitted' in each party's primary, 'None of these candidates').
_NO_PERSON = re.compile(
    r"^\s*(uncommitted|no\s+preference|none\s+of\s+(these|the\s+above)(\s+candidates)?|"
    r"no\s+candidates?|scattering|scattered|void|vacant|not\s+assigned|unassigned)\s*$",
    re.IGNORECASE)
# A name in more contests than this is no one candidate's (a real candidate stands in one
# race, written under a few titles at most): left out of the comparison, which stays linear
# (30,000 contests of the same two names).
_MOST_CONTESTS_OF_A_NAME = 40


def _people(parsed: ParsedCanvass, ci: int) -> set[str]:
    """A race's candidates as people (:func:`_person`): no proposition's or retention's
    choices (a contest with a choice in their words has none), no write-in line, over or
    under votes, no placeholder ('Uncommitted'), and no one-word name (a person has a given
    name and a surname; 'Ann' and 'Bo' of a made-up file are not told from a
    placeholder)."""
    if parsed.contests[ci].kind is not ContestKind.RACE:
        return set()
    out = set()
    for ch in parsed.choices[ci]:
        stance, person = _as_person(ch.name)
        if ch.kind is ChoiceKind.FOR or ch.kind is ChoiceKind.AGAINST or stance:
            return set()
        if ch.kind is ChoiceKind.CANDIDATE and person is not None:
            out.add(person)
    return out


@functools.lru_cache(maxsize=1 << 14)  # a file repeats the same names
def _as_person(name: str) -> tuple[bool, str | None]:
    """What :func:`_people` asks of a choice's name, once per name: whether it is in a
    proposition's or a retention's words, and the person it names (None for a write-in
    line, over or under votes, a placeholder, a statistic, a one-word name)."""
    words = _person(name).split()
    stance = stance_of(name) is not None or bool(vocab.STANCE_WORDS.intersection(words))
    if (vocab.choice_kind(name) != "candidate" or _NO_PERSON.match(name)
            or _statistic_like(name) or sum(len(w) > 1 and w.isalpha() for w in words) < 2):
        return stance, None
    return stance, " ".join(words)


def titled_apart(raw: RawCanvass, parsed: ParsedCanvass,
                 by_contest: dict[int, list[Any]],
                 voted_of: Callable[[Any], set[int]] = _voted) -> list[Issue]:
    """An error bound to each of two contests with the same candidates (two at least, and
    half the candidates of the one with fewer) that never have votes in the same precinct:
    one contest written under two titles in different precincts ('US Senate' in some,
    'U.S. Senate' in the others; 'U.S. Senate (Vote for 1)'; 'United States Senator'; a
    county of a statewide file that writes 'Utah State House' for 'State House', or
    another district's number), each part read as a contest and decided on part of the
    votes. Two real races with two of the same candidates are not on different ballots: a
    candidate stands in one race, and the races of two districts have their own
    candidates; a race of every county of a statewide file is one contest where its title
    is written alike. Propositions and retentions (yes and no), write-ins and placeholders
    are no candidates here. Pairs the build step named already ('U.S. SENATE', 'U.S.
    Senate': one contest spelled two ways) are not named again. (``voted_of``: :func:`_voted`,
    or its sets made once already.)"""
    people = [_people(parsed, ci) for ci in range(len(parsed.contests))]
    contests_of: dict[str, list[int]] = defaultdict(list)
    for ci, names in enumerate(people):
        for name in names:
            contests_of[name].append(ci)
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for cis in contests_of.values():
        if len(cis) < 2 or len(cis) > _MOST_CONTESTS_OF_A_NAME:
            continue
        for i, a in enumerate(cis):
            for b in cis[i + 1:]:
                shared[(a, b)] += 1
    pairs = sorted((a, b) for (a, b), n in shared.items()
                   if n >= 2 and 2 * n >= min(len(people[a]), len(people[b])))
    if not pairs:
        return []
    voted: dict[int, set[int]] = {}

    def where(ci: int) -> set[int]:
        if ci not in voted:
            voted[ci] = set().union(*map(voted_of, by_contest.get(ci, ())))
        return voted[ci]

    labels = [c.key.label() for c in parsed.contests]
    told = [(i.contest, i.message) for i in parsed.issues if i.only_contest]

    def named(a: int, b: int) -> bool:  # (the build step's error for the pair, if any)
        key = parsed.contests[a].key
        return any(k == key and repr(labels[b]) in m for k, m in told)

    def at(k: int) -> str:
        ps = where(k)
        return (f"{labels[k]!r} (votes in {len(ps)} precinct{'s' * (len(ps) != 1)}, "
                f"{parsed.precincts[min(ps) - 1]!r} among them)")

    found: list[tuple[int, int]] = []
    for a, b in pairs:
        if where(a) and where(b) and where(a).isdisjoint(where(b)) \
                and not named(a, b) and not named(b, a):
            found += [(a, b), (b, a)]
    out = []
    for this, other in sorted(found):
        key = parsed.contests[this].key
        common = people[this] & people[other]
        alike = [ch.name for ch in parsed.choices[this] if _person(ch.name) in common]
        shown = ", ".join(repr(n) for n in alike[:4]) + (" …" if len(alike) > 4 else "")
        loc = raw.where.get((key.title, key.district, key.party, ""), (None, None))
        out.append(Issue(
            raw.file, f"{at(this)} and {at(other)} have the same candidates ({shown}) but "
            "never have votes in the same precinct: the contest seems to be written under two "
            "titles in different precincts, and each title is read as a contest of its own, "
            "decided on part of the votes. Correct the file so that the contest has one "
            "title, and import it again. No verdict rests on this contest's figures as read.",
            raw.sheet, loc[0], loc[1], Severity.ERROR, contest=key, only_contest=True))
    return out


# A candidate's 'party' that is none: no party holds a primary for such a candidate.
_NO_PARTY = vocab.NO_PARTY | {"UNA", "UNAFFILIATED", "IND", "INDEPENDENT", "WRI", "WRITE-IN"}


def primaries_read_as_one(raw: RawCanvass, parsed: ParsedCanvass) -> list[Issue]:
    """A primary read as a general election (named 'general', or named nothing): in a
    primary each party's race is a contest of its own, so where two parties hold a primary
    for one office their candidates were read as one race, and its verdict would set one
    party's nominee against the other's. Told from the file's contests: in a general almost
    no race has two candidates or more, all of one party (none in the shared corpus's 70
    general files but 12 of 65 in one); in a primary almost every one has. Where at least
    three contests and three in four of those with two candidates or more (each with a
    party) are of one party, a warning says the file looks like a primary, and each contest
    with two or more candidates of each of two parties or more gets an error that withholds
    its verdict."""
    if parsed.primary:
        return []
    several = single = 0
    mixed: list[tuple[int, dict[str, list[str]]]] = []
    for ci, chs in enumerate(parsed.choices):
        people = [c for c in chs if c.kind is ChoiceKind.CANDIDATE]
        if len(people) < 2 or any(p.upper() in _NO_PARTY for p in {c.party for c in people}):
            continue   # (nonpartisan, unaffiliated: no party holds a primary for them)
        several += 1
        parties: dict[str, list[str]] = {}
        for c in people:
            parties.setdefault(c.party, []).append(c.name)
        if len(parties) == 1:
            single += 1
        elif sum(len(names) >= 2 for names in parties.values()) >= 2:
            mixed.append((ci, parties))
    if single < 3 or 4 * single < 3 * several:
        return []
    look = (f"{single} of the {several} contests with two candidates or more have candidates "
            "of one party only, as a primary's do, but the file is read as a general "
            "election")
    how = ("If it is a primary, read it as one (check --kind primary; in the window, a case "
           "for a primary election).")
    out = [Issue(raw.file, f"{look}. {how}", raw.sheet, severity=Severity.WARNING)]
    for ci, parties in mixed:
        key = parsed.contests[ci].key
        shown = "; ".join(f"{party}: " + ", ".join(names[:3]) + ("…" if len(names) > 3 else "")
                          for party, names in parties.items() if len(names) >= 2)
        loc = raw.where.get((key.title, key.district, key.party, ""), (None, None))
        out.append(Issue(
            raw.file, f"{key.label()}: its candidates are two or more of each of several "
            f"parties ({shown}), and {look}: these are probably each party's primary contest "
            f"read as one race. {how} No verdict rests on this contest's figures as read.",
            raw.sheet, loc[0], loc[1], Severity.ERROR, contest=key, only_contest=True))
    return out


# The lines of a contest that are no candidate, as letters alone: a name within a letter or
# two of one ('OVETVOTES', 'NO1 ASSIGNED', a scan read into text) is that line misspelled.
_LINES = {"overvotes": "Overvotes", "undervotes": "Undervotes", "notassigned": "Not Assigned",
          "writeins": "Write-ins", "blankvotes": "Blank Votes", "totalvotes": "Total Votes",
          "totalvotescast": "Total Votes Cast", "contesttotals": "Contest Totals",
          "registeredvoters": "Registered Voters", "ballotscast": "Ballots Cast"}


@functools.lru_cache(maxsize=8192)
def _misspelled_line(name: str) -> str | None:
    """The line (named as in :data:`_LINES`, or 'a count line') that the choice ``name``
    misspells, else None: its letters beginning as the line's and at least 85 % alike, or
    one word ending in 'votes' ('LLORTERVOTES')."""
    letters = re.sub(r"[^a-z]", "", name.casefold())
    n = len(letters)
    for line, shown in _LINES.items():
        # (85 % alike needs the shorter at least three quarters of the longer; and the name
        # begins as the line does, so that a candidate's name ending in a word like it,
        # 'Aaa Overvtes', is none: most names are passed over by these alone, before the
        # costlier comparison)
        if 4 * min(n, len(line)) < 3 * max(n, len(line)) or letters[:2] != line[:2]:
            continue
        m = difflib.SequenceMatcher(None, letters, line)
        if m.quick_ratio() >= 0.85 and m.ratio() >= 0.85:
            return repr(shown)
    if len(name.split()) == 1 and letters.endswith("votes"):
        return "a count line"
    return None


def lines_misspelled(raw: RawCanvass, parsed: ParsedCanvass) -> list[Issue]:
    """A race's choice read as a candidate whose name misspells a line that is no candidate
    ('Ovetvotes' for 'Overvotes': Piute 2022's file, as a scan read it): with votes, an
    error bound to the race (those votes are in its total and it ranks as a candidate, so
    no verdict rests on it as read); with none, a warning naming it."""
    out = []
    for t in parsed.totals:
        if t.contest.kind is not ContestKind.RACE:
            continue
        for c in t.choices:
            if c.choice.kind is not ChoiceKind.CANDIDATE or \
                    (what := _misspelled_line(c.choice.name)) is None:
                continue
            if c.votes:
                out.append(Issue(
                    raw.file, f"{t.contest.key.label()}: the choice {c.choice.name!r} "
                    f"({c.votes:,} votes) looks like {what} misspelled, not a candidate; read "
                    "as one, its votes are in the race's total and it ranks among the "
                    "candidates, so no verdict rests on this contest's figures as read. "
                    "Correct the name in the file and import it again.", raw.sheet,
                    severity=Severity.ERROR, contest=t.contest.key, only_contest=True))
            else:
                out.append(Issue(
                    raw.file, f"{t.contest.key.label()}: the choice {c.choice.name!r} (no "
                    f"votes) looks like {what} misspelled; it is read as a candidate with 0 "
                    "votes. Check the name in the file.", raw.sheet,
                    severity=Severity.WARNING, contest=t.contest.key))
    return out


def neither_side(raw: RawCanvass, parsed: ParsedCanvass) -> list[Issue]:
    """An error bound to each proposition with votes for a choice that is neither for nor
    against it (a third line beside 'YES' and 'NO': a name the file garbled, another
    contest's row): 20A-4-401(2)(a) measures the margin on the votes "for or against", and
    these are in neither count, so no verdict rests on the contest as read."""
    out = []
    for t in parsed.totals:
        if t.contest.kind is not ContestKind.PROPOSITION:
            continue
        odd = [c for c in t.choices if c.votes > 0
               and c.choice.kind not in (ChoiceKind.FOR, ChoiceKind.AGAINST)]
        if odd:
            shown = ", ".join(f"{c.choice.name!r} ({c.votes:,})" for c in odd[:3])
            out.append(Issue(
                raw.file, f"{t.contest.key.label()}: the proposition's choice(s) {shown} "
                "are neither for nor against it, so their votes are in neither side's count "
                "(20A-4-401(2)(a)); no verdict rests on this contest's figures as read. "
                "Correct the choice's name in the file (or its row, if it is another "
                "contest's) and import the file again.", raw.sheet, severity=Severity.ERROR,
                contest=t.contest.key, only_contest=True))
    return out


# A title that calls the figures unofficial ('UNOFFICIAL RESULTS', 'Unofficial Election
# Night Results'): a short cell, not a contest's or a candidate's name.
_UNOFFICIAL = re.compile(r"\bun-?official\b", re.IGNORECASE)
TITLE_ROWS = 8  # the rows of a file's head looked at for its title
# ... and its columns, for the title and the precincts reported: reports print them at the
# left, and a statement of votes cast 4,000 columns wide costs 7 ms to look at whole
HEAD_COLUMNS = 64


def unofficial(head: list[list[str]], file: str, sheet: str | None
               ) -> tuple[str, Issue] | None:
    """The title that calls the file's figures unofficial (the name of the sheet read, or a
    cell of its first :data:`TITLE_ROWS` rows and :data:`HEAD_COLUMNS` columns, of eight
    words or fewer), and an error saying
    so: a count before the canvass, such as an election night's report, on which no verdict
    rests (core.rules.unofficial_figures). The error names no contest: it touches every
    one."""
    found: list[tuple[str, int | None, str | None]] = \
        [(" ".join(sheet.split()), None, None)] if sheet else []
    found += [(" ".join(str(cell).split()), r + 1, col_letter(j))
              for r, row in enumerate(head[:TITLE_ROWS])
              for j, cell in enumerate(row[:HEAD_COLUMNS])]
    for text, row, column in found:
        if _UNOFFICIAL.search(text) and len(text.split()) <= 8:
            what = "The file" if row is not None else "The sheet's name"
            return text, Issue(
                file, f"{what} calls its figures unofficial ({text[:80]!r}): a count "
                "before the canvass (an election night's report, or one made before the "
                "board of canvassers met), and the recount margin is measured on the "
                "canvass. No verdict rests on these figures, and they are not imported "
                "into a case. Import the official report exported after the canvass.",
                sheet, row, column, Severity.ERROR)
    return None


REPORTED_ROWS = 40  # the rows of a file's head looked at for its precincts reported
_REPORTED_LABEL = re.compile(
    r"\b(?:precincts?|polling\s+places?|areas?|counties)\s+(?:reported|reporting|counted|"
    r"completed|complete|processed)\b", re.IGNORECASE)
_OF = re.compile(r"(?<![\d.,])(\d[\d,]*)\s*(?:of|/|out\s+of)\s*(\d[\d,]*)(?![\d.,])",
                 re.IGNORECASE)
_PERCENT = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d+)?)\s*%")


def partly_reported(head: list[list[str]], file: str, sheet: str | None) -> Issue | None:
    """An error where the head of the file (its first :data:`REPORTED_ROWS` rows and
    :data:`HEAD_COLUMNS` columns) says that
    not every precinct had reported when it was made: a label such as 'Precincts Reported'
    (or counted, completed; of polling places, areas, counties) followed, in its cell or the
    next three of its row, by 'N of M' with N below M, or by a percent below 100 ('24 of 25',
    '96.00%'), as election-night and summary reports print it. The figures are then a count
    under way, not the canvass (core.rules.unofficial_figures); the error names no contest,
    so it touches every one. A bare number ('Precincts Counted 11') is not compared with the
    precincts read: a file's columns may hold absentee or provisional 'precincts'."""
    rows = [r[:HEAD_COLUMNS] for r in head[:REPORTED_ROWS]]
    if not _REPORTED_LABEL.search("\n".join("\x1f".join(map(str, r)) for r in rows)):
        return None  # (one search of the whole head: a wide file has thousands of cells)
    for r, row in enumerate(rows):
        for j, cell in enumerate(row):
            text = " ".join(str(cell).split())
            m = _REPORTED_LABEL.search(text)
            if m is None or len(text.split()) > 12:
                continue
            after = [text[m.end():], *(" ".join(str(c).split()) for c in row[j + 1:j + 4])]
            for k, part in enumerate(after):
                said = None
                if (of := _OF.search(part)) is not None:
                    done, whole = (int(g.replace(",", "")) for g in of.groups())
                    said = of.group(0) if done < whole else None
                elif (pct := _PERCENT.search(part)) is not None:
                    said = pct.group(0) if float(pct.group(1)) < 100 else None
                elif not part.strip() or k == 0:
                    continue  # (no figure yet: the label's cell, or a blank cell after it)
                if said is not None:
                    return Issue(
                        file, f"The file says {m.group(0)!r} {said!r}: not every precinct had "
                        "reported when it was made, so its figures are a count under way (an "
                        "election night's), not the canvass, and the recount margin is "
                        "measured on the canvass. No verdict rests on these figures, and they "
                        "are not imported into a case. Import the report exported after the "
                        "canvass, when every precinct has reported.", sheet, r + 1,
                        col_letter(j + k if k else j), Severity.ERROR)
                break  # (the figure beside the label: all reported, or not a count)
    return None


def gate(raw: RawCanvass, parsed: ParsedCanvass) -> ParsedCanvass:
    """The reading with the gate's issues added and its family's confidence lowered; a
    doubtful reading says why in :attr:`ParsedCanvass.doubts`. Contests split into groups
    (:func:`split_contests`), with a candidate spelled two ways (:func:`spelled_apart`) or
    written under two titles (:func:`titled_apart`) get an error each, which doubts only
    that contest."""
    cells = _cells(parsed) if parsed.columns else None
    by_contest = _columns_by_contest(parsed)
    # (the ballots and each contest's votes per precinct, for both checks of votes over
    # ballots: summed once)
    sums = _ballots_and_sums(raw, parsed, cells) if raw.ballots else None
    verdict = assess(raw, parsed, cells, by_contest, sums)
    voted = _VotedOnce()  # (each column's precincts with votes, for the next three checks)
    split = split_contests(raw, parsed, cells, by_contest, voted)
    split += spelled_apart(raw, parsed, by_contest, {i.contest for i in split}, voted)
    split += titled_apart(raw, parsed, by_contest, voted)
    split += primaries_read_as_one(raw, parsed)
    split += one_seat_over_ballots(raw, parsed, sums)
    split += neither_side(raw, parsed)
    split += lines_misspelled(raw, parsed)
    if split:
        parsed = dataclasses.replace(parsed, issues=[*parsed.issues, *split])
    if not verdict.reasons:
        return parsed
    d = parsed.detection
    doubts = list(verdict.reasons) if verdict.doubtful(d.confidence if d is not None else None) \
        else parsed.doubts
    if d is not None:
        d = dataclasses.replace(
            d, confidence=max(0, d.confidence - verdict.penalty),
            reason=f"{d.reason}; but the reading looks doubtful: {verdict.reasons[0]}")
    return dataclasses.replace(parsed, issues=[*verdict.issues, *parsed.issues],
                               doubts=doubts, detection=d)
