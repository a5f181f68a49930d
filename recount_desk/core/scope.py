"""Where a contest is voted on, and what may be said of one county's portion of it.

Scope decides the filing office and whether a county's figures can carry a verdict:

* 20A-4-401(1)(d)(ii)(C), (2)(c)(iii): the county clerk, for races and propositions "voted
  on entirely within a single county";
* 20A-4-401(1)(d)(ii)(D), (2)(c)(iv): the lieutenant governor, for statewide and
  multicounty races and propositions;
* 20A-4-401(1)(b), (2)(a): the margin is measured on "the total number of votes cast for all
  candidates in the race" (for or against the proposition): the whole race, never one
  county's slice of it;
* 20A-4-304(1)(a): a county board declares only contests completely within its
  jurisdiction; multicounty and statewide results are canvassed and declared by the state
  board under 20A-4-306.

Scope comes from what the file says (``(Multi-County)``), the office (federal and statewide
offices, constitutional amendments, statewide propositions, Supreme Court and Court of
Appeals retentions are statewide) and the district table (:mod:`.districts`). Pure Python.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from .districts import (
    DistrictOffice,
    MapCycle,
    counties_of,
    county_name,
    cycle_for,
    district_office,
    districts_of_county,
    fold,
    office_words,
)
from .model import Contest, ContestKey, ContestKind, ContestTotals, ElectionKind, Scope
from .rules import Edition, Finding, LoserTest, MarginDecision, Verdict, decide

PORTION_BASIS = "20A-4-401(1)(b), (1)(d)(ii)(D), (2)(c)(iv); 20A-4-304(1)(a); 20A-4-306"
MUNICIPAL_PORTION_BASIS = "20A-4-401(1)(b), (1)(d)(ii)(A), (2)(c)(i); 20A-4-301"


def portion_eligibility() -> Finding:
    """Who may ask, for a county's portion of a multicounty or statewide contest: never
    decided on the county's figures. The margin is reckoned on the votes cast for all the
    candidates in the race (20A-4-401(1)(b)), which the lieutenant governor's office
    canvasses (20A-4-304(1)(a), 20A-4-306); the request is filed there ((1)(d)(ii)(D))."""
    return Finding(
        False, "This case holds only the county's portion of a multicounty or statewide "
        "contest: eligibility is decided on the whole race's canvass, by the lieutenant "
        "governor's office. Enter the whole race's official totals first.", PORTION_BASIS)


@dataclass(frozen=True, slots=True)
class ScopeFinding:
    """A contest's scope, why, and (for a district) the counties it covers when known."""

    scope: Scope
    reason: str
    basis: str
    counties: tuple[str, ...] | None = None  # the whole race's counties, when known
    assumed: bool = False  # True when the program could not tell and chose the safe side
    overridden: bool = False  # set by the officer


_fold = fold


# Matched on :func:`office_words` (a primary's party and the state's name left off).
_STATEWIDE_OFFICES = re.compile(
    r"^((u ?s |united states )?president|(u ?s|united states) senat|gove?r?n?or\b|"
    r"(lt|lieutenant) governor|(state )?attorney general|state auditor|state treasurer)")
_AMENDMENT = re.compile(r"\bconst\w*\s+amen\w*|^amendment [a-z]\b")
_SUPREME = re.compile(r"supreme court|court of appeals|appell?ate court|^justice\b")
_JUSTICE_COURT = re.compile(r"justice court")
_JUDICIAL = re.compile(r"judicial|\bjudge\b|district court|juvenile (court|district)|"
                       r"retention")
_MUNICIPAL = re.compile(r"\b(city|town|municipal|mayor|incorporation)\b")
_SPECIAL_DISTRICT = re.compile(
    r"\b(fire|improvement|service|water|sewer|cemetery|recreation|mosquito|special|local)"
    r"( protection)? dist(rict)?\b|\bschool (board|district)\b|\bschool\b")
_COUNTY = re.compile(r"\bcounty\b|\b(sheriff|assessor|recorder|clerk|surveyor|commission)")
# What makes an otherwise unknown title a county's own office (after the statewide, the
# district, the municipal and the local district ones are set apart).
_COUNTY_OFFICE = re.compile(r"\bcounty\b|\bcnty\b|\b(sheriff|assessor|recorder|clerk|surveyor|"
                            r"commission|attorney|auditor|treasurer|council)")
_MULTICOUNTY_MARK = re.compile(r"multi[- ]?county")
# Cities whose boundaries cross a county line: each county's canvass holds only its part of
# the city's races, which are decided on the whole city's canvass by its board of municipal
# canvassers (20A-4-401(1)(b) "in the race"; 20A-4-301). Park City: Summit and Wasatch
# (Wasatch's 2022 canvass has a precinct "330 Park City", the shared corpus's openelections-ut/
# 2022/counties/…wasatch…); Draper: Salt Lake and Utah (inferred from Utah County's 2022
# precincts DR301 and DR302 beside Salt Lake's DRP ones, so the finding says it is an
# assumption). Bluffdale is not listed: Utah County's 2022 file has no Bluffdale contest or
# precinct, though Salt Lake's has its referendum.
_CITIES_ACROSS_COUNTIES: dict[str, tuple[tuple[str, ...], bool]] = {
    "park city": (("Summit", "Wasatch"), False),
    "draper": (("Salt Lake", "Utah"), True),
}
_CITY_ACROSS = re.compile(r"\b(" + "|".join(_CITIES_ACROSS_COUNTIES) + r")\b")
# Statewide ballot propositions and opinion questions, by election year (the lieutenant
# governor's voter information pamphlets; their titles in the 2018 county files).
_STATEWIDE_PROPOSITIONS: dict[int, re.Pattern[str]] = {
    2018: re.compile(r"^(proposition|prop)( number| no| #)? ?[234]$|^nonbinding opinion "
                     r"question( #| number)? ?1$"),
}
_PROPOSITION_WORDS = re.compile(
    r"proposition|prop\b|amendment|bond|question|referendum|initiative|incorporation|"
    r"measure|levy|tax|issue|annex|opinion|\d")


def infer_scope(contest: Contest, *, county: str | None,
                election_date: date | None) -> ScopeFinding:
    """The scope of a contest read from a county's (or the state's) canvass.

    ``county`` is the county whose file it is (None when unknown or several). The choice
    never falls silently on "county" when the contest could span counties: a district the
    table does not know, or a judge's retention that is not a justice court's, is taken as
    spanning counties, with the assumption said. ``election_date`` None: the date is not
    known, so neither district map is taken for granted (a district is a county's only when
    it lies in that one county under both).
    """
    return _inferred(contest.key, contest.kind, county, election_date)


@lru_cache(maxsize=4096)  # asked for every contest of a file, at its reading and its check
def _inferred(key: ContestKey, kind: ContestKind, county: str | None,
              election_date: date | None) -> ScopeFinding:
    """:func:`infer_scope` of a contest with this key and kind (all it depends on)."""
    title = _fold(key.title)
    office = office_words(key.title)
    if _MULTICOUNTY_MARK.search(title):
        return ScopeFinding(Scope.MULTICOUNTY, "The file marks it “Multi-County”.",
                            "20A-4-401(1)(d)(ii)(D)")
    if _STATEWIDE_OFFICES.match(office):
        return ScopeFinding(Scope.STATEWIDE, "A federal or statewide office, voted in every "
                            "county.", "20A-4-401(1)(d)(ii)(D)")
    if _AMENDMENT.search(title):
        return ScopeFinding(Scope.STATEWIDE, "A constitutional amendment is voted on "
                            "statewide (Utah Const. art. XXIII §1).", "20A-4-401(2)(c)(iv)")
    props = _STATEWIDE_PROPOSITIONS.get(election_date.year) if election_date else None
    if props is not None and election_date is not None and props.match(title):
        return ScopeFinding(Scope.STATEWIDE, f"A statewide ballot question of "
                            f"{election_date.year}.", "20A-4-401(2)(c)(iv)")
    found = district_office(key.title, key.district)
    if found is not None:
        return _district_scope(found[0], found[1], county, election_date)
    if _JUSTICE_COURT.search(title):
        return ScopeFinding(Scope.COUNTY, "A justice court judge's retention, voted in the "
                            "county or city the court serves.", "20A-4-401(2)(c)(iii)")
    if _SUPREME.search(title):
        return ScopeFinding(Scope.STATEWIDE, "A Supreme Court or Court of Appeals retention "
                            "is voted on statewide.", "20A-4-401(2)(c)(iv)")
    if _JUDICIAL.search(title) or _bare_name_retention(key.title, kind):
        return ScopeFinding(
            Scope.MULTICOUNTY, "A judge's retention: district and juvenile court judges are "
            "retained by their judicial district, and every Utah judicial district covers "
            "several counties (78A-1-102); Supreme Court and Court of Appeals retentions are "
            "statewide.", "20A-4-401(2)(c)(iv)",
            assumed=not _JUDICIAL.search(title))
    if _SPECIAL_DISTRICT.search(title):
        return ScopeFinding(Scope.SPECIAL_DISTRICT, "A local or special district's contest "
                            "(a school board or service district).", "20A-4-401(1)(d)(ii)(B)")
    across = _CITY_ACROSS.search(title)
    if across and not re.search(r"\bcounty\b", title):
        counties, assumed = _CITIES_ACROSS_COUNTIES[across.group(1)]
        return ScopeFinding(Scope.MUNICIPAL, f"A contest of {across.group(1).title()}, a city "
                            f"that lies in {' and '.join(counties)} counties: each county's "
                            "canvass holds only its part of the city's votes.",
                            "20A-4-401(1)(d)(ii)(A)", counties, assumed=assumed)
    if _MUNICIPAL.search(title) and not _COUNTY.search(title):
        return ScopeFinding(Scope.MUNICIPAL, "A city's or town's contest.",
                            "20A-4-401(1)(d)(ii)(A)")
    if _COUNTY_OFFICE.search(title):
        return ScopeFinding(Scope.COUNTY, "A county office or question, voted within the "
                            "county.", "20A-4-401(1)(d)(ii)(C)")
    # A title that names no office or question the program knows: most of a county's own
    # ballot (a county proposition, a local office). Taken as the county's, and said so.
    return ScopeFinding(Scope.COUNTY, "The title names no office or question the program "
                        "knows as voted beyond the county, so it is taken as the county's "
                        "own.", "20A-4-401(1)(d)(ii)(C)", assumed=True)


def _bare_name_retention(title: str, kind: ContestKind) -> bool:
    """A yes/no contest titled only with a person's name: a judge's retention election."""
    if kind is not ContestKind.PROPOSITION:
        return False
    words = re.sub(r"\([^)]*\)", " ", title).split()
    return (2 <= len(words) <= 5 and not _PROPOSITION_WORDS.search(title.lower())
            and all(w[0].isalpha() for w in words))


# One election day under each map cycle, for a district whose election date is not known.
_CYCLE_DAYS = (date(2018, 11, 6), date(2022, 11, 8))


def _district_scope(office: DistrictOffice, number: int | None, county: str | None,
                    election_date: date | None) -> ScopeFinding:
    label = office.label
    if election_date is None and office is not DistrictOffice.US_HOUSE:
        return _undated_district_scope(office, number, county)
    if office is DistrictOffice.US_HOUSE:
        counties = counties_of(office, number, election_date) if number else None
        return ScopeFinding(Scope.MULTICOUNTY, f"{label} district {number or '?'} covers "
                            + (f"{len(counties)} counties." if counties else "several counties.")
                            , "20A-4-401(1)(d)(ii)(D)", counties)
    cycle = cycle_for(election_date)
    counties = counties_of(office, number, election_date) if number else None
    if counties is None:
        where = (cycle.label if cycle else
                 f"elections of {election_date.year}" if election_date else "this election")
        return ScopeFinding(
            Scope.MULTICOUNTY, f"{label} district {number or '(no number)'} is not in the "
            f"program's district table for {where}, so whether it lies within one county "
            "cannot be told: it is treated as spanning counties until the election officer "
            "sets its scope.", "20A-4-401(1)(d)(ii)(D)", None, assumed=True)
    if len(counties) > 1:
        return ScopeFinding(Scope.MULTICOUNTY, f"{label} district {number} covers "
                            f"{len(counties)} counties: {', '.join(counties)} "
                            f"({cycle.label if cycle else ''}).".replace(" ()", ""),
                            "20A-4-401(1)(d)(ii)(D)", counties)
    name = county_name(county) if county else None
    if name is not None and name not in counties:
        return ScopeFinding(
            Scope.MULTICOUNTY, f"{label} district {number} lies in {counties[0]} County by "
            f"the district table, not in {name}: the file's label is doubtful, so the contest "
            "is treated as spanning counties until the officer sets its scope.",
            "20A-4-401(1)(d)(ii)(D)", None, assumed=True)
    return ScopeFinding(Scope.COUNTY, f"{label} district {number} lies entirely within "
                        f"{counties[0]} County.", "20A-4-401(1)(d)(ii)(C)", counties)


def _undated_district_scope(office: DistrictOffice, number: int | None,
                            county: str | None) -> ScopeFinding:
    """A district's scope when the election date is not known: the maps drawn after the
    2010 and the 2020 census differ, so the district is a county's only when both put it in
    that one county; otherwise it is treated as spanning counties, and said why."""
    label = office.label
    found = [(day, counties_of(office, number, day) if number else None)
             for day in _CYCLE_DAYS]
    both = {cs for _, cs in found}
    name = county_name(county) if county else None
    if len(both) == 1 and None not in both:
        (only,) = both
        if only is not None and len(only) == 1 and name in (None, only[0]):
            return ScopeFinding(Scope.COUNTY, f"{label} district {number} lies entirely within "
                                f"{only[0]} County under both the 2012–2021 maps and the maps "
                                "from 2022 (the election date is not known).",
                                "20A-4-401(1)(d)(ii)(C)", only)
    said = "; ".join(
        f"under {MapCycle.MAPS_2012.label if day.year < 2022 else MapCycle.MAPS_2022.label} "
        + ("it is not in the program's table" if cs is None else
           f"it lies in {cs[0]} County" if len(cs) == 1 else
           f"it covers {len(cs)} counties ({', '.join(cs)})")
        for day, cs in found)
    if all(cs is not None and len(cs) > 1 for _, cs in found):
        return ScopeFinding(Scope.MULTICOUNTY, f"{label} district {number} covers several "
                            f"counties under either map (the election date is not known): "
                            f"{said}.", "20A-4-401(1)(d)(ii)(D)")
    return ScopeFinding(
        Scope.MULTICOUNTY, f"The election date is not known, so which district map applies "
        f"cannot be told: {label} district {number or '(no number)'} — {said}. It is treated "
        "as spanning counties until the election date is given or the officer sets its "
        "scope.", "20A-4-401(1)(d)(ii)(D)", None, assumed=True)


def with_scope(contest: Contest, finding: ScopeFinding) -> Contest:
    """The contest with the finding's scope."""
    if contest.scope is finding.scope:
        return contest
    return dataclasses.replace(contest, scope=finding.scope)


@dataclass(frozen=True, slots=True)
class LabelCorrection:
    """A district label the table contradicts, and what the contest really is."""

    key: ContestKey
    message: str


def check_label(key: ContestKey, county: str | None,
                election_date: date | None) -> LabelCorrection | None:
    """Check a county file's office and district label against the district table.

    A district number the office does not have, or a district not voted in the county,
    is corrected when the table leaves one answer (the county lies in a single district
    of that office, or the number is a district of another office voted in the county);
    otherwise the label is left as it is.
    """
    name = county_name(county) if county else None
    found = district_office(key.title, key.district)
    if name is None or found is None:
        return None
    office, number = found
    if office is DistrictOffice.JUDICIAL or cycle_for(election_date) is None:
        return None
    here = districts_of_county(office, name, election_date)
    if number is None:
        if len(here) != 1:
            return None
        return LabelCorrection(ContestKey(key.title, str(here[0]), key.party),
                               f"{key.label()}: the file gives no district; by the district "
                               f"table {name} County lies only in {office.label} district "
                               f"{here[0]}, so the race is read as district {here[0]}.")
    if not here or number in here:
        return None
    if number > office.seats:
        for other in (DistrictOffice.STATE_HOUSE, DistrictOffice.STATE_SENATE):
            if other is not office and number in districts_of_county(other, name,
                                                                    election_date):
                new = ContestKey(other.label, str(number), key.party)
                return LabelCorrection(new, f"{key.label()} does not exist ({office.label} "
                                       f"has {office.seats} districts); {name} County votes "
                                       f"in {other.label} district {number}, so it is read as "
                                       "that race.")
        return None
    if len(here) == 1:
        new = ContestKey(key.title, str(here[0]), key.party)
        return LabelCorrection(new, f"{key.label()}: by the district table {name} County "
                               f"lies only in {office.label} district {here[0]}, so the race "
                               f"is read as district {here[0]}.")
    return None


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which part of a race the figures are: the counties they come from, and whether whole."""

    counties: tuple[str, ...]
    whole: bool
    source: str  # "county file", "counties' files combined", "official totals", "state file"


def spans_counties(finding: ScopeFinding) -> bool:
    """Whether a contest is voted in more than one county: a multicounty or statewide one,
    or a city's that crosses a county line (its counties known)."""
    return finding.scope in (Scope.MULTICOUNTY, Scope.STATEWIDE) or bool(
        finding.counties and len(finding.counties) > 1)


def is_portion(finding: ScopeFinding, coverage: Coverage | None) -> bool:
    """True when the figures are a part of a contest voted in more than one county."""
    if not spans_counties(finding):
        return False
    return coverage is None or not coverage.whole


def portion_decision(decision: MarginDecision, finding: ScopeFinding,
                     coverage: Coverage | None, county: str | None) -> MarginDecision:
    """The decision for a county's portion: its figures, and no verdict on them.

    Eligibility is decided on the whole race's canvass, by the lieutenant governor's office
    (20A-4-401(1)(b) "in the race", (1)(d)(ii)(D), (2)(c)(iv); 20A-4-304, 20A-4-306).
    """
    where = "this county" if not county else f"{county} County"
    if coverage is not None and len(coverage.counties) > 1:
        where = f"{len(coverage.counties)} counties ({', '.join(coverage.counties)})"
    what = "statewide" if finding.scope is Scope.STATEWIDE else "multicounty"
    noun = "proposition" if decision.contest.kind is ContestKind.PROPOSITION else "race"
    figures = (f"{where} cast {decision.total:,} votes in it"
               + (f"; the difference here is {decision.margin:,}" if decision.margin is not None
                  else "") + ".")
    if finding.scope is Scope.MUNICIPAL:
        explanation = (
            f"These are {where}'s figures for a city's {noun} that crosses a county line: "
            f"{figures} Eligibility for a recount is decided on the whole {noun}'s votes "
            "(Utah Code 20A-4-401(1)(b): the votes cast “in the race”): every county's part "
            "of it, as the city's board of municipal canvassers canvasses it in a municipal "
            f"election (20A-4-301). {finding.reason}")
        if finding.assumed:
            explanation += (" (Assumption: that the city lies in more than one county is not "
                            "confirmed; set the contest's scope if this file holds all of "
                            "it.)")
        return _no_verdict(decision, MUNICIPAL_PORTION_BASIS, explanation,
                           "Decided on the whole city's canvass")
    explanation = (
        f"These are {where}'s figures for a {what} {noun}: {figures} Eligibility for a "
        f"recount is decided on the whole {noun}'s canvass (Utah Code "
        f"20A-4-401(1)(b): the votes cast “in the race”), and a request is filed with the "
        "lieutenant governor (20A-4-401(1)(d)(ii)(D), (2)(c)(iv)), who canvasses the whole "
        f"{noun} (20A-4-304, 20A-4-306). {finding.reason}"
    )
    if finding.assumed:
        explanation += " (Assumption: the program could not confirm the scope; set it in the "\
                       "contest settings if the contest lies within one county.)"
    return _no_verdict(decision, PORTION_BASIS, explanation,
                       "Decided on the whole race by the lieutenant governor's office")


def _no_verdict(decision: MarginDecision, basis: str, explanation: str, who: str
                ) -> MarginDecision:
    """The portion's decision: the county's figures as decided, no loser eligible here
    (20A-4-401(1)(b): eligibility is decided on the whole race). Made in one step (a
    statewide file's county has a portion per contest and a loser test per candidate)."""
    return MarginDecision(
        decision.contest, decision.edition, decision.outcome, decision.total, Verdict.PORTION,
        decision.margin, decision.threshold, decision.closest_loser, decision.lowest_winner,
        tuple(LoserTest(t.name, t.votes, t.difference, False) for t in decision.losers),
        basis, explanation, who, decision.assumptions)


def scope_override(overrides: Mapping[str, Scope], key: ContestKey) -> Scope | None:
    """The officer's scope for a contest, matched on its label or its title (any case)."""
    if not overrides:
        return None
    wanted = {_fold(k): v for k, v in overrides.items()}
    for text in (key.label(), f"{key.title} {key.district}".strip(), key.title):
        if _fold(text) in wanted:
            return wanted[_fold(text)]
    return None


_SCOPE_BASIS = {Scope.STATEWIDE: "20A-4-401(1)(d)(ii)(D)", Scope.MULTICOUNTY:
                "20A-4-401(1)(d)(ii)(D)", Scope.COUNTY: "20A-4-401(1)(d)(ii)(C)",
                Scope.MUNICIPAL: "20A-4-401(1)(d)(ii)(A)",
                Scope.SPECIAL_DISTRICT: "20A-4-401(1)(d)(ii)(B)"}


def officer_finding(scope: Scope, inferred: ScopeFinding | None = None) -> ScopeFinding:
    """The scope the election officer set for a contest. With ``inferred`` (what the file,
    the office and the district table say) the reason names both when they agree, so that
    a scope that comes from the office is never said to come from the officer alone."""
    if inferred is not None and inferred.scope is scope:
        return dataclasses.replace(
            inferred, reason=f"{inferred.reason} The election officer's setting agrees.",
            overridden=True)
    return ScopeFinding(scope, f"Set by the election officer: {scope.label.lower()}."
                        + (f" (By the file, the office and the district table it would be "
                           f"{inferred.scope.label.lower()}: {inferred.reason})"
                           if inferred is not None else ""),
                        _SCOPE_BASIS[scope], overridden=True)


def stored_finding(scope: Scope, inferred: ScopeFinding) -> ScopeFinding:
    """A scope stored with the canvass at its import (the import's settings, or an older
    version's reading) that differs from what the file, the office and the district table
    say: the stored one stands, and the reason says where it came from and what the
    program's own reading is."""
    return ScopeFinding(scope, f"Stored as {scope.label.lower()} when the canvass was "
                        f"imported (the import's settings); by the file, the office and the "
                        f"district table it would be {inferred.scope.label.lower()}: "
                        f"{inferred.reason}", _SCOPE_BASIS[scope], overridden=True)


def decide_scoped(totals: ContestTotals, edition: Edition, finding: ScopeFinding,
                  coverage: Coverage | None, county: str | None, *,
                  kind: ElectionKind | None = None,
                  election_date: date | None = None) -> MarginDecision:
    """:func:`rules.decide` on these totals, or no verdict when they are only a portion."""
    contest = with_scope(totals.contest, finding)
    if contest is not totals.contest:
        totals = dataclasses.replace(totals, contest=contest)
    d = decide(totals, edition, kind=kind, election_date=election_date)
    if is_portion(finding, coverage):
        return portion_decision(d, finding, coverage, county)
    if finding.assumed and not finding.overridden and finding.scope is Scope.COUNTY:
        d = dataclasses.replace(d, assumptions=(
            f"SCOPE: {finding.reason} If it is voted in other counties too, set its scope in "
            "the contest settings: it is then decided on the whole race (20A-4-401(1)(b), "
            "(1)(d)(ii)(D)).", *d.assumptions))
    return d
