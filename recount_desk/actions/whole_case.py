"""The whole race in a case, and the county's part in a multicounty recount.

A county's case holds its own canvass. For a multicounty or statewide contest the officer
adds what is known of the whole race, as audited actions whose entries are the record:

* the whole race's official totals, typed from the state canvass (20A-4-306), or
* the other counties' canvass files, combined with the county's own (core.whole);

with the whole race known the verdict, who may ask and the office are the whole race's.
When the lieutenant governor orders a recount of a multicounty race, each county recounts
its portion and its board sends the result to the lieutenant governor (20A-4-401(4)(c),
20A-4-304(7)): the order and the transmittal are recorded here, and
:func:`county_part` tells the report that the county certifies its figures without
declaring a winner.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from recount_desk import store
from recount_desk.core.model import ChoiceTotal, ContestTotals, Scope
from recount_desk.core.scope import Coverage, spans_counties
from recount_desk.core.whole import CountyPart, choice_key, combine, name_key
from recount_desk.store import repo

from .canvass import read_file
from .case import Case

TYPED = "enter whole-race totals"
ORDER = "record recount order"
TRANSMIT = "record transmittal to the lieutenant governor"


class WholeRaceRefused(Exception):
    """Whole-race figures that cannot be accepted; the message says why. Nothing changed."""


@dataclass(frozen=True)
class WholeRaceRecord:
    """What the case knows of a contest's whole race, from its audit log."""

    contest_id: int
    votes: tuple[tuple[str, int], ...]  # the contest's choice names, in its order
    counties: tuple[str, ...]
    whole: bool
    source: str
    seq: int

    def totals(self, county_totals: ContestTotals) -> ContestTotals:
        """The whole race as totals of the contest (the county's choices, whole figures)."""
        by_name = dict(self.votes)
        return replace(county_totals, choices=tuple(
            ChoiceTotal(c.choice, by_name.get(c.choice.name, 0))
            for c in county_totals.choices))

    def coverage(self) -> Coverage:
        return Coverage(self.counties, self.whole, self.source)


def _entries(case: Case, action: str) -> list[tuple[int, str, dict[str, object]]]:
    out = []
    for seq, at, payload in case.conn.execute(
            "SELECT seq, at, payload FROM audit WHERE action=? ORDER BY seq", (action,)):
        entry = json.loads(payload)
        out.append((int(seq), str(at), entry.get("data", entry)))
    return out


def whole_races(case: Case) -> dict[int, WholeRaceRecord]:
    """The latest whole-race record of each contest."""
    out: dict[int, WholeRaceRecord] = {}
    for seq, _at, p in _entries(case, TYPED):
        for item in p.get("contests", [p]):  # type: ignore[attr-defined]
            cid = int(item["contest_id"])
            out[cid] = WholeRaceRecord(
                cid, tuple((str(n), int(v)) for n, v in item["votes"]),
                tuple(item.get("counties", ())), bool(item.get("whole", True)),
                str(item["source"]), seq)
    return out


def enter_whole_race_totals(case: Case, contest_id: int, votes: Mapping[str, int], *,
                            source: str) -> WholeRaceRecord:
    """Record the whole race's official totals typed from the state canvass (audited).

    Every candidate of the contest needs a figure (names matched ignoring case, punctuation
    and middle initials); a figure below the county's own is refused.
    """
    sc = repo.contest_by_id(case.conn, contest_id)
    contest = sc.totals.contest
    if contest.scope not in (Scope.MULTICOUNTY, Scope.STATEWIDE) and not _portion(case,
                                                                                   contest_id):
        raise WholeRaceRefused(f"{contest.key.label()} lies within the county: its canvass is "
                               "the whole race already. Nothing was changed.")
    if not source.strip():
        raise WholeRaceRefused("Say where the figures come from (e.g. “State canvass, "
                               "Nov 26, 2018”). Nothing was changed.")
    given = {name_key(n): (n, v) for n, v in votes.items()}
    out = []
    for c in sc.totals.choices:
        got = given.pop(name_key(c.choice.name), None)
        if got is None:
            raise WholeRaceRefused(f"No whole-race figure for {c.choice.name}; give every "
                                   "candidate's. Nothing was changed.")
        if not isinstance(got[1], int) or got[1] < 0:
            raise WholeRaceRefused(f"{got[0]}: {got[1]!r} is not a vote count. Nothing was "
                                   "changed.")
        if got[1] < c.votes:
            raise WholeRaceRefused(f"{c.choice.name}: the whole race's {got[1]:,} is less than "
                                   f"this county's own {c.votes:,}. Nothing was changed.")
        out.append((c.choice.name, got[1]))
    if given:
        raise WholeRaceRefused("Not a candidate in " + contest.key.label() + ": "
                               + ", ".join(n for n, _ in given.values())
                               + ". Nothing was changed.")
    with store.transaction(case.conn, case.actor, TYPED) as tx:
        tx.update({"contest_id": contest_id, "contest": contest.key.label(),
                   "votes": out, "source": source.strip(), "whole": True,
                   "counties": [], "typed": True})
    return whole_races(case)[contest_id]


def _portion(case: Case, contest_id: int) -> bool:
    from .contests import contest_check

    return contest_check(case, contest_id).check.portion


@dataclass(frozen=True)
class CombinedContest:
    contest_id: int
    label: str
    counties: tuple[str, ...]
    whole: bool
    confirm: tuple[str, ...]
    refused: str | None


def combine_counties(case: Case, paths: Sequence[Path | str]) -> list[CombinedContest]:
    """Add the other counties' canvass files to the case's multicounty and statewide
    contests: one audited action recording each contest's whole-race figures (or what
    the files cover of it) and the files' SHA-256. Raises ImportFailed for a bad file."""
    from .contests import case_county, overview

    county = case_county(case)
    rows = [r for r in overview(case) if r.check.scope is not None
            and spans_counties(r.check.scope)]
    if not rows:
        raise WholeRaceRefused("The case holds no multicounty or statewide contest. Nothing "
                               "was changed.")
    from .whole import parts_of, read_errors

    files = []
    read = []
    others: list[CountyPart] = []
    for p in paths:
        parsed = read_file(p)
        read.append(parsed)
        files.append({"file": parsed.file, "sha256": parsed.sha256})
        others.extend(parts_of(parsed))
    when = case.election.date
    mine = [CountyPart((county,) if county else (), "this case's canvass", r.check.totals)
            for r in rows]
    races = combine([*mine, *others], when)
    errors_in = read_errors(read, races)
    out: list[CombinedContest] = []
    record = []
    for r, part in zip(rows, mine, strict=True):
        race = next(x for x in races if part in x.parts)
        label = r.check.totals.contest.key.label()
        refused = race.refused
        if refused is None and race.totals is not None and (n := errors_in(race)):
            # No whole-race figure rests on counts a file's reading refused
            # (20A-4-401(1)(b), (2)(a): the margin is on every vote cast in the race).
            refused = (f"reading the counties' files found {n} error(s) that "
                       "can touch this race's figures (the check of each file lists them "
                       "with their rows): correct the files and combine again.")
        out.append(CombinedContest(r.id, label, race.coverage.counties, race.whole,
                                   race.confirm, refused))
        if race.totals is None or refused is not None:
            continue
        by_key = {choice_key(c.choice): c.votes for c in race.totals.choices}
        record.append({"contest_id": r.id, "contest": label,
                       "votes": [(c.choice.name, by_key.get(choice_key(c.choice), 0))
                                 for c in r.check.totals.choices],
                       "counties": list(race.coverage.counties), "whole": race.whole,
                       "source": "the counties' canvass files: "
                       + ", ".join(f["file"] for f in files),
                       "name_matches": list(race.confirm),
                       "parts": [{"counties": list(p.counties), "file": p.source,
                                  "votes": [(c.choice.name, c.votes)
                                            for c in p.totals.choices]}
                                 for p in race.parts]})
    if not record:
        raise WholeRaceRefused("None of the case's contests could be combined: "
                               + "; ".join(f"{c.label}: {c.refused}" for c in out if c.refused)
                               + " Nothing was changed.")
    with store.transaction(case.conn, case.actor, TYPED) as tx:
        tx.update({"files": files, "contests": record})
    return out


@dataclass(frozen=True)
class CountyPartStatus:
    """The county's part in a multicounty or statewide recount, for the window and report."""

    contest_id: int
    portion: bool  # the county holds only its part of the race
    ordered: dict[str, object] | None  # the lieutenant governor's order, when recorded
    transmitted: dict[str, object] | None  # the transmittal, when recorded
    declares_winner: bool  # False for a portion: the state board declares (20A-4-306)
    report_variant: str  # "county_portion" or "whole_race"
    basis: str = "20A-4-401(4)(c); 20A-4-304(7); 20A-4-306"


def record_recount_order(case: Case, contest_id: int, *, ordered_at: datetime,
                         reference: str, ordered_by: str = "the lieutenant governor") -> None:
    """Record the lieutenant governor's order to recount the county's part of a multicounty
    or statewide race (audited); the recount then runs on the county's units."""
    sc = repo.contest_by_id(case.conn, contest_id)
    if not _portion(case, contest_id) and sc.totals.contest.scope not in (
            Scope.MULTICOUNTY, Scope.STATEWIDE):
        raise WholeRaceRefused(f"{sc.totals.contest.key.label()} lies within the county: a "
                               "recount is requested of the county clerk, not ordered by the "
                               "lieutenant governor. Nothing was changed.")
    if sc.totals.contest.scope is Scope.MUNICIPAL:
        raise WholeRaceRefused(f"{sc.totals.contest.key.label()} is a city's race: the "
                               "lieutenant governor orders recounts of multicounty and "
                               "statewide races, not of a city's. Nothing was changed.")
    if not reference.strip():
        raise WholeRaceRefused("Give the order's reference (letter or email, its date). "
                               "Nothing was changed.")
    with store.transaction(case.conn, case.actor, ORDER) as tx:
        tx.update({"contest_id": contest_id, "contest": sc.totals.contest.key.label(),
                   "ordered_by": ordered_by, "reference": reference.strip(),
                   "ordered_at": ordered_at.isoformat(timespec="minutes")})


def record_transmittal(case: Case, contest_id: int, *, sent_at: datetime, how: str) -> None:
    """Record that the board's separate report of the county's recount figures was sent to
    the lieutenant governor (20A-4-401(4)(c); 20A-4-304(7)); audited."""
    if county_part(case, contest_id).ordered is None:
        raise WholeRaceRefused("Record the lieutenant governor's recount order first. "
                               "Nothing was changed.")
    if not how.strip():
        raise WholeRaceRefused("Say how the report was sent (e.g. registered mail, the "
                               "state's secure upload). Nothing was changed.")
    label = repo.contest_by_id(case.conn, contest_id).totals.contest.key.label()
    with store.transaction(case.conn, case.actor, TRANSMIT) as tx:
        tx.update({"contest_id": contest_id, "contest": label, "how": how.strip(),
                   "sent_at": sent_at.isoformat(timespec="minutes")})


def county_part(case: Case, contest_id: int) -> CountyPartStatus:
    """Whether the county's report of this contest is a county portion (no winner declared,
    a transmittal instead of the declaration) — the report's data flag."""
    portion = _portion(case, contest_id)
    sc = repo.contest_by_id(case.conn, contest_id)
    multi = sc.totals.contest.scope in (Scope.MULTICOUNTY, Scope.STATEWIDE)

    def last(action: str) -> dict[str, object] | None:
        found = [p for _s, _a, p in _entries(case, action) if p.get("contest_id") == contest_id]
        return found[-1] if found else None

    part = portion or multi
    return CountyPartStatus(contest_id, part, last(ORDER), last(TRANSMIT), not part,
                            "county_portion" if part else "whole_race")
