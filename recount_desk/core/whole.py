"""The whole race: several counties' canvasses (or the state canvass) combined into one.

A multicounty or statewide contest is decided on "the total number of votes cast for all
candidates in the race" (Utah Code 20A-4-401(1)(b); (2)(a) for propositions), canvassed by
the state board (20A-4-306). Each county's file holds only its part, so the parts are
matched and added up here:

* contests are matched across files by office, district and party; a county file's district
  label is checked against the district table first (:func:`.scope.check_label`: Grand's
  2018 file calls U.S. House 3 "district 1");
* candidates are matched ignoring case, punctuation and middle initials ("Christine
  Watkins", "CHRISTINE F WATKINS"); a match that needed more than case and punctuation is
  listed for the officer to confirm, and counties whose ballots list different candidates
  are refused with the names, never added up by guess;
* a county given twice (two files, or a county file beside the statewide file) is refused;
* the race is whole only when every county the district table gives for it is present
  (all 29 for a statewide contest); otherwise the sum is still a portion.

Pure Python: counties' totals in, whole races out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from .districts import COUNTIES, district_office, fold, title_party
from .model import (
    Choice,
    ChoiceKind,
    ChoiceTotal,
    ContestKey,
    ContestKind,
    ContestTotals,
    ExtraKind,
    Scope,
)
from .scope import Coverage, ScopeFinding, check_label, infer_scope


@dataclass(frozen=True, slots=True)
class CountyPart:
    """One file's figures for a contest: the counties they come from and the file."""

    counties: tuple[str, ...]
    source: str
    totals: ContestTotals


@dataclass(frozen=True, slots=True)
class WholeRace:
    """A contest's parts combined: the whole race's totals, or why they cannot be added."""

    key: ContestKey
    finding: ScopeFinding
    parts: tuple[CountyPart, ...]
    totals: ContestTotals | None  # None when refused
    coverage: Coverage
    confirm: tuple[str, ...] = ()  # candidate matches the officer should confirm
    notes: tuple[str, ...] = ()  # labels corrected by the district table
    refused: str | None = None
    # Refused because the parts' candidate lists disagree (not a county given twice): two
    # counties' own races alike in name are then told apart (``combine``).
    lists_disagree: bool = False

    @property
    def whole(self) -> bool:
        return self.refused is None and self.coverage.whole


_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}


# A write-in's marker before or after its name ('Write-in: Laird Hamblin', 'Laird Hamblin
# (write-in)', 'W/I Laird Hamblin'), as the counties' files write it, in name_key's words.
_WRITE_IN_MARKS = (("write", "in"), ("writein",), ("w", "i"))


def name_key(name: str) -> str:
    """A candidate's name without case, punctuation, middle initials or suffixes, nor the
    write-in marker one county's file puts before or after a write-in's name (the counties'
    figures of one write-in candidate are one choice of the whole race, not two)."""
    words = re.sub(r"[^\w\s]", " ", name.casefold()).split()
    for mark in _WRITE_IN_MARKS:
        n = len(mark)
        if len(words) > n + 1 and tuple(words[:n]) == mark:
            words = words[n:]
        elif len(words) > n + 1 and tuple(words[-n:]) == mark:
            words = words[:-n]
    kept = [w for i, w in enumerate(words)
            if not (len(w) == 1 and 0 < i < len(words) - 1) and w not in _SUFFIXES]
    return " ".join(kept or words)


def choice_key(choice: Choice) -> str:
    """The key a choice is matched on across files: a proposition's "For" and "Yes" (and
    "Against" and "No") are one choice, whatever each county's file calls them; a
    candidate's :func:`name_key`, without the party's name when the file wrote it first."""
    if choice.kind in (ChoiceKind.FOR, ChoiceKind.AGAINST):
        return f"\x00{choice.kind.value}"
    party = choice.party.strip()
    head, _, rest = choice.name.strip().partition(" ")
    if party and rest and head.casefold() == party.casefold():
        return name_key(rest)  # Weber 2022: "IAP TOMMY WILLIAMS" of the IAP
    return name_key(choice.name)


def _edits(a: str, b: str) -> int:
    """Levenshtein distance (small words only)."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _near(a: str, b: str) -> bool:
    """Two name keys that may be one person spelled two ways: the same surname (or two
    letters apart in a long one) and first names equal, one the other's start (Tim,
    Timothy) or two letters apart (Jeffrey, Jeffery). Middle names are not compared."""
    wa, wb = a.split(), b.split()
    if len(wa) < 2 or len(wb) < 2:
        return False
    fa, la, fb, lb = wa[0], wa[-1], wb[0], wb[-1]
    last = la == lb or (min(len(la), len(lb)) >= 6 and abs(len(la) - len(lb)) <= 1
                        and _edits(la, lb) <= 2)
    first = (fa == fb or fa.startswith(fb) or fb.startswith(fa)
             or (min(len(fa), len(fb)) >= 4 and _edits(fa, fb) <= 2))
    return last and first


def _plain(name: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", name.casefold()).split())


def race_key(key: ContestKey, counties: tuple[str, ...],
             election_date: date | None) -> tuple[ContestKey, str | None]:
    """The key a contest is matched on across files, and the note when its label was
    corrected by the district table."""
    note = None
    if len(counties) == 1:
        fix = check_label(key, counties[0], election_date)
        if fix is not None:
            key, note = fix.key, fix.message
    found = district_office(key.title, key.district)
    if found is not None and found[1] is not None:
        # A primary's party stays in the key when only the title gives it ("REP HOUSE 11"
        # and "DEM HOUSE 11" are two races).
        party = key.party.upper() or title_party(key.title)
        return ContestKey(found[0].label, str(found[1]), party), note
    title = " ".join(re.sub(r"[^\w\s]", " ", key.title.casefold()).split())
    return ContestKey(title, key.district.strip().lstrip("0"), key.party.upper()), note


def own_county(part: CountyPart, election_date: date | None) -> str | None:
    """The county whose own race a part is: a county office or question (its scope known,
    not assumed) in one county's file. Every county elects its own sheriff, attorney and
    commission (20A-4-401(1)(d)(i): the county clerk's contests), so two counties'
    "Sheriff" are two races, never added up. So is a local proposition ("Proposition #1",
    a school district's bond) whose place is not known to span counties: its For and
    Against agree in every county, so agreeing choices cannot tell one race from two."""
    f = _title_scope(part, election_date)
    if f is None or len(part.counties) != 1:
        return None
    if f.scope is Scope.COUNTY and not f.assumed:
        return part.counties[0]
    if (part.totals.contest.kind is ContestKind.PROPOSITION and f.scope in _LOCAL
            and not f.counties):
        return part.counties[0]
    return None


def _in_county(key: ContestKey, county: str) -> ContestKey:
    """A county's own race's key, naming the county unless its title does."""
    if fold(county) in fold(key.title):
        return key
    return replace(key, title=f"{key.title} ({county} County)")


_LOCAL = (Scope.COUNTY, Scope.MUNICIPAL, Scope.SPECIAL_DISTRICT)
def combine(parts: Sequence[CountyPart], election_date: date | None) -> list[WholeRace]:
    """Group the parts into races by :func:`race_key` and add each race up.

    A county's own race (:func:`own_county`) is grouped with no other county's. A local
    race known by title only (a city's, a special district's, or a title the program does
    not know) may span counties and is added up, but when the counties list different
    candidates it is taken as each county's own race, and said so: checking files together
    never decides a local race on less than checking its county's file alone would."""
    groups: dict[tuple[ContestKey, str | None], list[CountyPart]] = {}
    notes: dict[tuple[ContestKey, str | None], list[str]] = {}
    display: dict[tuple[ContestKey, str | None], ContestKey] = {}
    for part in parts:
        k, note = race_key(part.totals.contest.key, part.counties, election_date)
        g = (k, own_county(part, election_date))
        groups.setdefault(g, []).append(part)
        if note:
            notes.setdefault(g, []).append(f"{part.source}: {note}")
        if g not in display:
            found = district_office(k.title, k.district)
            display[g] = k if found else part.totals.contest.key
    out = []
    for g, ps in groups.items():
        key = display[g]
        if g[1] is not None or (all(p.counties == ps[0].counties for p in ps)
                                and len(ps[0].counties) == 1 and _local(ps[0], election_date)):
            key = _in_county(key, ps[0].counties[0])  # a county's own: named so
        race = _add_up(key, _one_per_file(ps), tuple(notes.get(g, ())), election_date)
        if race.refused and race.totals is None and _split(race):
            why = (f"the counties' files list different candidates for “{key.label()}”, "
                   "so each county's is taken as its own race (a local contest); if it is "
                   "one race across counties, correct the names and check again")
            for p in race.parts:
                own = _add_up(_in_county(key, p.counties[0]), [p], (), election_date)
                out.append(replace(own, confirm=(*own.confirm, why)))
            continue
        out.append(race)
    return out


def _title_scope(part: CountyPart, election_date: date | None) -> ScopeFinding | None:
    """The scope of a part's contest known by its title, None for a district's race (matched
    on its district, the district table)."""
    key = part.totals.contest.key
    if district_office(key.title, key.district) is not None:
        return None
    county = part.counties[0] if len(part.counties) == 1 else None
    return infer_scope(part.totals.contest, county=county, election_date=election_date)


def _local(part: CountyPart, election_date: date | None) -> bool:
    """A local race known by its title (not a district's): a county's, a city's, a special
    district's."""
    f = _title_scope(part, election_date)
    return f is not None and f.scope in _LOCAL


def _split(race: WholeRace) -> bool:
    """Whether a refused race is local parts of one county each with candidates apart."""
    return (race.finding.scope in _LOCAL and len(race.parts) > 1
            and all(len(p.counties) == 1 for p in race.parts)
            and len({p.counties[0] for p in race.parts}) == len(race.parts)
            and race.lists_disagree)


def _one_per_file(parts: list[CountyPart]) -> list[CountyPart]:
    """A file's two contests that are one race once relabelled (Kane 2018 files State House
    73 under two offices) become one part, their candidates side by side."""
    merged: dict[str, CountyPart] = {}
    for p in parts:
        have = merged.get(p.source)
        if have is None:
            merged[p.source] = p
            continue
        votes = {c.choice.name: c for c in have.totals.choices}
        for c in p.totals.choices:
            old = votes.get(c.choice.name)
            votes[c.choice.name] = c if old is None else replace(old, votes=old.votes + c.votes)
        merged[p.source] = replace(have, totals=replace(
            have.totals, choices=tuple(votes.values()),
            precincts=max(have.totals.precincts, p.totals.precincts)))
    return list(merged.values())


def _add_up(key: ContestKey, parts: list[CountyPart], notes: tuple[str, ...],
            election_date: date | None) -> WholeRace:
    first = parts[0].totals.contest
    county = parts[0].counties[0] if len(parts[0].counties) == 1 else None
    finding = infer_scope(replace(first, key=key), county=county, election_date=election_date)
    present = tuple(sorted({c for p in parts for c in p.counties}))
    need: tuple[str, ...] | None
    if finding.scope is Scope.STATEWIDE:
        need = COUNTIES
    elif finding.scope is Scope.MULTICOUNTY or finding.counties:
        need = finding.counties
    else:
        need = present
    whole = need is not None and set(need) <= set(present)
    coverage = Coverage(present, whole, "counties' files combined" if len(parts) > 1
                        else parts[0].source)

    def refuse(why: str, *, lists_disagree: bool = False) -> WholeRace:
        return WholeRace(key, finding, tuple(parts), None, replace(coverage, whole=False),
                         notes=notes, refused=why, lists_disagree=lists_disagree)

    seen: dict[str, str] = {}
    for p in parts:
        for c in p.counties:
            if c in seen:
                return refuse(f"{c} County's figures are in two files ({seen[c]} and "
                              f"{p.source}); give each county once.")
            seen[c] = p.source
    # A file whose county cannot be told may hold the same county's figures as another
    # file (a copy, or its CSV beside its workbook): added up, they counted twice, and the
    # race was decided on doubled figures. The data cannot say, so they are not added up.
    unnamed = next((p for p in parts if not p.counties), None)
    if unnamed is not None and len({p.source for p in parts}) > 1:
        other = next(p.source for p in parts if p.source != unnamed.source)
        return refuse(f"the county of {unnamed.source} cannot be told from the file, so its "
                      f"figures and {other}'s may be one county's given twice: they are not "
                      "added up. Check each file on its own, or give files that name their "
                      "county (in a county column, their title or the file's name).")

    # Candidates: one cluster per name key, then spellings that never meet in one file
    # and are near enough (Greg/Gregory Duerden, Heusser/Heiser) joined, for confirmation.
    entries: list[tuple[int, ChoiceTotal]] = [
        (i, ct) for i, p in enumerate(parts) for ct in p.totals.choices]
    in_parts: dict[str, set[int]] = {}
    for i, ct in entries:
        in_parts.setdefault(choice_key(ct.choice), set()).add(i)
    canon = {k: k for k in in_parts}
    by_reach = sorted(in_parts, key=lambda k: (-len(in_parts[k]), k))
    for a_i, a in enumerate(by_reach):
        if canon[a] != a:
            continue
        for b in by_reach[a_i + 1:]:
            if canon[b] == b and not in_parts[a] & in_parts[b] and _near(a, b):
                canon[b] = a
                in_parts[a] = in_parts[a] | in_parts[b]
    clusters: dict[str, dict[str, list[str]]] = {}  # key -> spelling -> counties
    votes: dict[str, int] = {}
    kinds: dict[str, Choice] = {}
    parties: dict[str, set[str]] = {}
    order: list[str] = []
    for i, ct in entries:
        nk = canon[choice_key(ct.choice)]
        if nk not in clusters:
            clusters[nk] = {}
            order.append(nk)
            kinds[nk] = ct.choice
        where = ", ".join(parts[i].counties) or parts[i].source
        clusters[nk].setdefault(ct.choice.name, []).append(where)
        votes[nk] = votes.get(nk, 0) + ct.votes
        party = ct.choice.party.strip()
        if party and "write" not in party.casefold() and ct.choice.kind is not ChoiceKind.WRITE_IN:
            parties.setdefault(nk, set()).add(ct.choice.party)
    confirm = []
    odd = []
    for nk in order:
        missing = [i for i in range(len(parts)) if i not in in_parts[nk]]
        if not missing or kinds[nk].kind is ChoiceKind.WRITE_IN:
            continue
        name = next(iter(clusters[nk]))
        listed = "; ".join(", ".join(w) for w in clusters[nk].values())
        if nk in parties:
            odd.append(f"{name} (of {', '.join(sorted(parties[nk]))}) is listed by {listed} "
                       "but not by " + ", ".join(", ".join(parts[i].counties) or
                                                parts[i].source for i in missing))
        else:
            confirm.append(f"“{name}”, with no party, is listed only by {listed}: read as a "
                           "write-in candidate with no votes elsewhere")
    shared = [nk for nk in order if kinds[nk].kind is not ChoiceKind.WRITE_IN
              and len(in_parts[nk]) == len(parts)]
    if len(parts) > 1 and not shared:
        odd.append("no candidate is listed by every file: "
                   + "; ".join(f"{', '.join(p.counties) or p.source} lists "
                               + ", ".join(c.choice.name for c in p.totals.choices)
                               for p in parts))
    if odd:
        return refuse("The counties' candidate lists disagree (" + "; ".join(odd) + "): "
                      "check that the files are of the same race, or correct the names in "
                      "the file that differs; nothing was added up.", lists_disagree=True)
    choices = []
    for nk in order:
        spellings = clusters[nk]
        name = max(spellings, key=lambda s: (len(spellings[s]), len(s)))
        if (len({_plain(s) for s in spellings}) > 1
                and kinds[nk].kind not in (ChoiceKind.FOR, ChoiceKind.AGAINST)):
            confirm.append(" and ".join(f"“{s}” ({', '.join(w)})" for s, w in spellings.items())
                           + " are read as one candidate")
        choices.append(ChoiceTotal(replace(kinds[nk], name=name), votes[nk]))
    extras: dict[ExtraKind, int] = {}
    for p in parts:
        for kind, n in p.totals.extras.items():
            extras[kind] = extras.get(kind, 0) + n
    contest = replace(first, key=key, scope=finding.scope)
    # Hidden cells and official totals (model.ContestTotals): the whole race is official
    # only when every part is; a part's hidden cells count unless its own totals are.
    display_of = {nk: c.choice.name for nk, c in zip(order, choices, strict=True)}
    official = all(p.totals.official for p in parts)
    hidden = sum(p.totals.hidden_cells for p in parts if not p.totals.official)
    hidden_max: dict[str, int | None] = {}
    sums: dict[str, int] = {}
    split = any(p.totals.precinct_sums for p in parts)
    for p in parts:
        for ct in p.totals.choices:
            name = display_of[canon[choice_key(ct.choice)]]
            if split:
                sums[name] = sums.get(name, 0) + p.totals.precinct_sums.get(ct.choice.name,
                                                                             ct.votes)
            if not p.totals.official and ct.choice.name in p.totals.hidden_max:
                more, have = p.totals.hidden_max[ct.choice.name], hidden_max.get(name, 0)
                hidden_max[name] = None if more is None or have is None else have + more
    totals = ContestTotals(contest, tuple(choices), extras,
                           sum(p.totals.precincts for p in parts), official, hidden,
                           hidden_max, sums)
    return WholeRace(key, finding, tuple(parts), totals, coverage, tuple(confirm), notes)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A race where the counties' files and the state canvass give different figures."""

    key: ContestKey
    figures: tuple[tuple[str, int, int], ...]  # (candidate, counties' files, state canvass)

    def text(self) -> str:
        return (f"{self.key.label()}: " + "; ".join(
            f"{n}: the counties' files give {a:,}, the state canvass {b:,}"
            for n, a, b in self.figures))


def cross_check(races: Sequence[WholeRace], state: Sequence[WholeRace]
                ) -> tuple[list[Disagreement], dict[ContestKey, WholeRace]]:
    """Compare the counties' races with the state canvass's, candidate by candidate.

    Returns the disagreements and the state's race for each race key found in both.
    """
    by_key = {r.key: r for r in state}
    found: dict[ContestKey, WholeRace] = {}
    out = []
    for r in races:
        s = by_key.get(r.key)
        if s is None or r.totals is None or s.totals is None:
            continue
        found[r.key] = s
        theirs = {choice_key(c.choice): c.votes for c in s.totals.choices}
        ours = {choice_key(c.choice): (c.choice.name, c.votes) for c in r.totals.choices}
        kinds = {choice_key(c.choice): c.choice for c in r.totals.choices}
        diffs = []
        for nk, (name, v) in ours.items():
            ch = kinds[nk]
            if nk not in theirs and (ch.kind is ChoiceKind.WRITE_IN or not ch.party.strip()
                                     or "write" in ch.party.casefold()):
                continue  # the state's county-level canvass lists no write-ins
            if theirs.get(nk, 0) != v:
                diffs.append((name, v, theirs.get(nk, 0)))
        for c in s.totals.choices:
            if choice_key(c.choice) not in ours and c.votes:
                diffs.append((c.choice.name, 0, c.votes))
        if diffs:
            out.append(Disagreement(r.key, tuple(diffs)))
    return out, found
