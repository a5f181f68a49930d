"""Utah's districts and the counties each covers, by map cycle: the data that decides scope.

A contest voted in a district that covers more than one county is a multicounty race, filed
with the lieutenant governor and decided on the whole race (Utah Code 20A-4-401(1)(d)(ii)(D),
(2)(c)(iv)); a district inside one county is a county race ((1)(d)(ii)(C)).

Source, and the years each part is valid for (rebuilt and checked by
``tests/data/districts/make_table.py``; the test suite fails if the table and the data part):

* **2012–2021 maps** (the districts drawn after the 2010 census, used at the elections of
  2012 through 2020): U.S. House 1–4, State Senate 1–29, State House 1–75, from the
  lieutenant governor's county-level canvasses of the 2016 and 2018 general elections
  (OpenElections Utah ``20161108__ut__general__county.csv``,
  ``20181106__ut__general__county.csv``) and the 29 counties' own 2018 precinct files.
  State School Board: only the districts Salt Lake County's 2018 file names (3, 5, 6).
* **2022 maps** (drawn after the 2020 census, used from the 2022 elections on): U.S. House
  1–4 and State House 1–75 complete, from the 29 counties' 2022 general-election precinct
  files; State Senate only the 15 seats elected in 2022 (1, 5–7, 9, 11–14, 18–21, 23, 28)
  and State School Board only 1, 2, 4–6, 8, 11, 14. A district not in the table is not
  guessed: the program says so and treats the contest as possibly spanning counties.
* **Judicial districts** (Utah Code 78A-1-102; all eight cover several counties), for both
  cycles.

Exceptions found while cross-checking the county files (corrected, never trusted): Grand
2018 labels U.S. House 3 as district 1; Kane 2018 calls its State House 73 rows "U.S.
House", district 73; Morgan 2018 leaves its U.S. House district empty (district 1).
A county's file lists only the districts voted in that county, so a district listed by one
county alone is one whose voters all live in that county.
"""

from __future__ import annotations

import re
from datetime import date
from enum import StrEnum
from functools import lru_cache

COUNTIES: tuple[str, ...] = (
    "Beaver", "Box Elder", "Cache", "Carbon", "Daggett", "Davis", "Duchesne", "Emery",
    "Garfield", "Grand", "Iron", "Juab", "Kane", "Millard", "Morgan", "Piute", "Rich",
    "Salt Lake", "San Juan", "Sanpete", "Sevier", "Summit", "Tooele", "Uintah", "Utah",
    "Wasatch", "Washington", "Wayne", "Weber")


class DistrictOffice(StrEnum):
    """An office elected by district, whose district may cover several counties."""

    US_HOUSE = "us_house"
    STATE_SENATE = "state_senate"
    STATE_HOUSE = "state_house"
    STATE_SCHOOL_BOARD = "state_school_board"
    JUDICIAL = "judicial"

    @property
    def label(self) -> str:
        return {"us_house": "U.S. House", "state_senate": "State Senate",
                "state_house": "State House", "state_school_board": "State School Board",
                "judicial": "Judicial district"}[self.value]

    @property
    def seats(self) -> int:
        """How many districts the office has (the numbers 1..seats exist)."""
        return {"us_house": 4, "state_senate": 29, "state_house": 75,
                "state_school_board": 15, "judicial": 8}[self.value]


class MapCycle(StrEnum):
    """Which district map applies: the one drawn after the 2010 or the 2020 census."""

    MAPS_2012 = "2012"
    MAPS_2022 = "2022"

    @property
    def label(self) -> str:
        return ("the 2012–2021 district maps" if self is MapCycle.MAPS_2012
                else "the district maps in use from 2022")


def cycle_for(election_date: date | None) -> MapCycle | None:
    """The map cycle of an election held on ``election_date`` (None before 2012, or when the
    date is not known)."""
    if election_date is None:
        return None
    if election_date.year >= 2022:
        return MapCycle.MAPS_2022
    if election_date.year >= 2012:
        return MapCycle.MAPS_2012
    return None


_COUNTY_ALIASES = {"salt lake city": "Salt Lake", "san pete": "Sanpete",
                   "boxelder": "Box Elder", "saltlake": "Salt Lake", "sanjuan": "San Juan"}


@lru_cache(maxsize=4096)  # a check asks it for every contest of a file (few distinct texts)
def county_name(text: str) -> str | None:
    """The county's name as in :data:`COUNTIES` ("GRAND", "Grand County", "San Pete"), or None."""
    t = " ".join(re.sub(r"[_\-]", " ", text).split()).lower()
    t = re.sub(r"\s+county(\s+clerk)?$", "", t)
    t = re.sub(r"^county of\s+", "", t)
    t = _COUNTY_ALIASES.get(t, _COUNTY_ALIASES.get(t.replace(" ", ""), t))
    for c in COUNTIES:
        if c.lower() == t.lower():
            return c
    return None


# A party's name or mark before a primary's office ("REP U.S. HOUSE 2", "Republican for
# State Senate 23"), and the state's name before a state office ("UT House Dist 29", "Utah
# Governor"): neither changes which office the title names.
_PARTY_PREFIX = re.compile(
    r"^(rep|dem|lib|con|cst|grn|una|uup|iap|republican|democrat(ic)?|libertarian|"
    r"constitution|green|united utah|independent american)( party)?( for)? (?=[a-z])(?!dist|d\d)")
_STATE_PREFIX = re.compile(r"^(state of utah|utah|ut)(?! county) (?=\S)")


_PARTY_CODES = {"republican": "REP", "democrat": "DEM", "democratic": "DEM",
                "libertarian": "LIB", "constitution": "CON", "cst": "CON", "green": "GRN",
                "united utah": "UUP", "una": "UUP", "independent american": "IAP"}


def fold(text: str) -> str:
    """A title lower-cased, without dots and commas, its spaces single."""
    return " ".join(re.sub(r"[.,]", " ", text).lower().split())


@lru_cache(maxsize=4096)
def title_party(title: str) -> str:
    """The party a primary's title begins with ("REP U.S. HOUSE 2" → "REP"), or ""."""
    t = fold(title)
    m = _PARTY_PREFIX.match(t)
    if m is None:
        return ""
    return _PARTY_CODES.get(m.group(1), m.group(1).upper())


@lru_cache(maxsize=4096)
def office_words(title: str) -> str:
    """A contest title as the words of its office: lower case, without dots and commas, the
    party of a primary and the state's name before it left off ("REP UT SENATE 17" →
    "senate 17", "U.S. President" → "u s president")."""
    t = fold(title)
    while True:
        stripped = _STATE_PREFIX.sub("", _PARTY_PREFIX.sub("", t))
        if stripped == t:
            return t
        t = stripped


_OFFICE_PATTERNS = (
    (re.compile(r"^((united states|u ?s) ?(house|rep\w*|congress\w*)|congress\w*)"),
     DistrictOffice.US_HOUSE),
    # Without "U.S.", a representative or a house in a Utah canvass is the state's.
    (re.compile(r"^(state )?(house|rep\w*)( of representatives)?( dist\w*| d)? ?#? ?\d"),
     DistrictOffice.STATE_HOUSE),
    (re.compile(r"^state (house|representative)"), DistrictOffice.STATE_HOUSE),
    (re.compile(r"^(state )?senat\w*( dist\w*| d)? ?#? ?\d"), DistrictOffice.STATE_SENATE),
    (re.compile(r"^state senat"), DistrictOffice.STATE_SENATE),
    (re.compile(r"^(state school board|state board of education|s(tate|t)? ?boe\b)"),
     DistrictOffice.STATE_SCHOOL_BOARD),
)


@lru_cache(maxsize=4096)  # asked for every contest of a file, twice (scope and label)
def district_office(title: str, district: str = "") -> tuple[DistrictOffice, int | None] | None:
    """The district office a contest title names, with its district number when known.

    The number comes from the district column, else from the title's end ("State House
    District 70", "STATE SCHOOL BOARD DISTRICT #11", "STATE REP D69"). None when the title
    is not one of these offices. A primary's party and the state's name before the office
    are left off first ("REP UT SENATE 17", "UT House Dist 29", "Utah House of
    Representatives 13"); "House" or "Representative" without "U.S." is the state's.
    """
    t = office_words(title)
    for pattern, office in _OFFICE_PATTERNS:
        if pattern.match(t):
            number = _number(district) or _number(t)
            return office, number
    return None


def _number(text: str) -> int | None:
    m = re.search(r"(\d+)(\.0)?\s*$", text.strip())
    return int(m.group(1)) if m else None


# Utah Code 78A-1-102: the eight judicial districts.
JUDICIAL_DISTRICTS: dict[int, tuple[str, ...]] = {
    1: ("Box Elder", "Cache", "Rich"),
    2: ("Davis", "Morgan", "Weber"),
    3: ("Salt Lake", "Summit", "Tooele"),
    4: ("Juab", "Millard", "Utah", "Wasatch"),
    5: ("Beaver", "Iron", "Washington"),
    6: ("Garfield", "Kane", "Piute", "Sanpete", "Sevier", "Wayne"),
    7: ("Carbon", "Emery", "Grand", "San Juan"),
    8: ("Daggett", "Duchesne", "Uintah"),
}


def counties_of(office: DistrictOffice, number: int,
                election_date: date | None) -> tuple[str, ...] | None:
    """The counties a district covers at an election, or None when the table does not know."""
    if office is DistrictOffice.JUDICIAL:
        return JUDICIAL_DISTRICTS.get(number)
    cycle = cycle_for(election_date)
    if cycle is None:
        return None
    return _TABLE.get((cycle.value, office.value, number))


def districts_of_county(office: DistrictOffice, county: str,
                        election_date: date | None) -> tuple[int, ...]:
    """The districts of an office voted (at least partly) in a county, by the table."""
    name = county_name(county) or county
    if office is DistrictOffice.JUDICIAL:
        return tuple(n for n, cs in JUDICIAL_DISTRICTS.items() if name in cs)
    cycle = cycle_for(election_date)
    if cycle is None:
        return ()
    return _by_county().get((cycle.value, office.value, name), ())


@lru_cache(maxsize=1)
def _by_county() -> dict[tuple[str, str, str], tuple[int, ...]]:
    """The table turned round once per process: (cycle, office, county) -> its districts,
    ascending (a check asks for every contest of a file)."""
    out: dict[tuple[str, str, str], list[int]] = {}
    for (cy, off, n), cs in _TABLE.items():
        for c in cs:
            out.setdefault((cy, off, c), []).append(n)
    return {k: tuple(sorted(v)) for k, v in out.items()}


# BEGIN GENERATED by tests/data/districts/make_table.py
_TABLE: dict[tuple[str, str, int], tuple[str, ...]] = {
    ('2012', 'state_house', 1): ('Box Elder', 'Cache'),
    ('2012', 'state_house', 2): ('Utah',),
    ('2012', 'state_house', 3): ('Cache',),
    ('2012', 'state_house', 4): ('Cache',),
    ('2012', 'state_house', 5): ('Cache',),
    ('2012', 'state_house', 6): ('Utah',),
    ('2012', 'state_house', 7): ('Weber',),
    ('2012', 'state_house', 8): ('Weber',),
    ('2012', 'state_house', 9): ('Weber',),
    ('2012', 'state_house', 10): ('Weber',),
    ('2012', 'state_house', 11): ('Davis', 'Weber'),
    ('2012', 'state_house', 12): ('Davis', 'Weber'),
    ('2012', 'state_house', 13): ('Davis',),
    ('2012', 'state_house', 14): ('Davis',),
    ('2012', 'state_house', 15): ('Davis',),
    ('2012', 'state_house', 16): ('Davis',),
    ('2012', 'state_house', 17): ('Davis',),
    ('2012', 'state_house', 18): ('Davis',),
    ('2012', 'state_house', 19): ('Davis',),
    ('2012', 'state_house', 20): ('Davis',),
    ('2012', 'state_house', 21): ('Tooele',),
    ('2012', 'state_house', 22): ('Salt Lake',),
    ('2012', 'state_house', 23): ('Salt Lake',),
    ('2012', 'state_house', 24): ('Salt Lake',),
    ('2012', 'state_house', 25): ('Salt Lake',),
    ('2012', 'state_house', 26): ('Salt Lake',),
    ('2012', 'state_house', 27): ('Utah',),
    ('2012', 'state_house', 28): ('Salt Lake', 'Summit'),
    ('2012', 'state_house', 29): ('Box Elder', 'Weber'),
    ('2012', 'state_house', 30): ('Salt Lake',),
    ('2012', 'state_house', 31): ('Salt Lake',),
    ('2012', 'state_house', 32): ('Salt Lake',),
    ('2012', 'state_house', 33): ('Salt Lake',),
    ('2012', 'state_house', 34): ('Salt Lake',),
    ('2012', 'state_house', 35): ('Salt Lake',),
    ('2012', 'state_house', 36): ('Salt Lake',),
    ('2012', 'state_house', 37): ('Salt Lake',),
    ('2012', 'state_house', 38): ('Salt Lake',),
    ('2012', 'state_house', 39): ('Salt Lake',),
    ('2012', 'state_house', 40): ('Salt Lake',),
    ('2012', 'state_house', 41): ('Salt Lake',),
    ('2012', 'state_house', 42): ('Salt Lake',),
    ('2012', 'state_house', 43): ('Salt Lake',),
    ('2012', 'state_house', 44): ('Salt Lake',),
    ('2012', 'state_house', 45): ('Salt Lake',),
    ('2012', 'state_house', 46): ('Salt Lake',),
    ('2012', 'state_house', 47): ('Salt Lake',),
    ('2012', 'state_house', 48): ('Utah',),
    ('2012', 'state_house', 49): ('Salt Lake',),
    ('2012', 'state_house', 50): ('Salt Lake',),
    ('2012', 'state_house', 51): ('Salt Lake',),
    ('2012', 'state_house', 52): ('Salt Lake',),
    ('2012', 'state_house', 53): ('Daggett', 'Duchesne', 'Morgan', 'Rich', 'Summit'),
    ('2012', 'state_house', 54): ('Summit', 'Wasatch'),
    ('2012', 'state_house', 55): ('Duchesne', 'Uintah'),
    ('2012', 'state_house', 56): ('Utah',),
    ('2012', 'state_house', 57): ('Utah',),
    ('2012', 'state_house', 58): ('Juab', 'Sanpete'),
    ('2012', 'state_house', 59): ('Utah',),
    ('2012', 'state_house', 60): ('Utah',),
    ('2012', 'state_house', 61): ('Utah',),
    ('2012', 'state_house', 62): ('Washington',),
    ('2012', 'state_house', 63): ('Utah',),
    ('2012', 'state_house', 64): ('Utah',),
    ('2012', 'state_house', 65): ('Utah',),
    ('2012', 'state_house', 66): ('Utah',),
    ('2012', 'state_house', 67): ('Utah',),
    ('2012', 'state_house', 68): ('Beaver', 'Juab', 'Millard', 'Tooele', 'Utah'),
    ('2012', 'state_house', 69): ('Carbon', 'Duchesne', 'Emery', 'Grand'),
    ('2012', 'state_house', 70): ('Emery', 'Grand', 'Sanpete', 'Sevier'),
    ('2012', 'state_house', 71): ('Iron', 'Washington'),
    ('2012', 'state_house', 72): ('Iron',),
    ('2012', 'state_house', 73): (
        'Beaver', 'Garfield', 'Kane', 'Piute', 'San Juan', 'Sevier', 'Wayne',
    ),
    ('2012', 'state_house', 74): ('Washington',),
    ('2012', 'state_house', 75): ('Washington',),
    ('2012', 'state_school_board', 3): ('Salt Lake',),
    ('2012', 'state_school_board', 5): ('Salt Lake',),
    ('2012', 'state_school_board', 6): ('Salt Lake',),
    ('2012', 'state_senate', 1): ('Salt Lake',),
    ('2012', 'state_senate', 2): ('Salt Lake',),
    ('2012', 'state_senate', 3): ('Salt Lake',),
    ('2012', 'state_senate', 4): ('Salt Lake',),
    ('2012', 'state_senate', 5): ('Salt Lake',),
    ('2012', 'state_senate', 6): ('Salt Lake',),
    ('2012', 'state_senate', 7): ('Utah',),
    ('2012', 'state_senate', 8): ('Salt Lake',),
    ('2012', 'state_senate', 9): ('Salt Lake',),
    ('2012', 'state_senate', 10): ('Salt Lake',),
    ('2012', 'state_senate', 11): ('Salt Lake', 'Utah'),
    ('2012', 'state_senate', 12): ('Salt Lake', 'Tooele'),
    ('2012', 'state_senate', 13): ('Salt Lake', 'Utah'),
    ('2012', 'state_senate', 14): ('Utah',),
    ('2012', 'state_senate', 15): ('Utah',),
    ('2012', 'state_senate', 16): ('Utah', 'Wasatch'),
    ('2012', 'state_senate', 17): ('Box Elder', 'Cache', 'Tooele'),
    ('2012', 'state_senate', 18): ('Davis', 'Morgan', 'Weber'),
    ('2012', 'state_senate', 19): ('Morgan', 'Summit', 'Weber'),
    ('2012', 'state_senate', 20): ('Davis', 'Weber'),
    ('2012', 'state_senate', 21): ('Davis',),
    ('2012', 'state_senate', 22): ('Davis',),
    ('2012', 'state_senate', 23): ('Davis', 'Salt Lake'),
    ('2012', 'state_senate', 24): (
        'Beaver', 'Garfield', 'Juab', 'Kane', 'Millard', 'Piute', 'Sanpete', 'Sevier', 'Utah',
        'Wayne',
    ),
    ('2012', 'state_senate', 25): ('Cache', 'Rich'),
    ('2012', 'state_senate', 26): ('Daggett', 'Duchesne', 'Summit', 'Uintah', 'Wasatch'),
    ('2012', 'state_senate', 27): ('Carbon', 'Emery', 'Grand', 'San Juan', 'Utah', 'Wasatch'),
    ('2012', 'state_senate', 28): ('Beaver', 'Iron', 'Washington'),
    ('2012', 'state_senate', 29): ('Washington',),
    ('2012', 'us_house', 1): (
        'Box Elder', 'Cache', 'Daggett', 'Davis', 'Duchesne', 'Morgan', 'Rich', 'Summit',
        'Uintah', 'Weber',
    ),
    ('2012', 'us_house', 2): (
        'Beaver', 'Davis', 'Garfield', 'Iron', 'Juab', 'Kane', 'Millard', 'Piute', 'Salt Lake',
        'Sanpete', 'Sevier', 'Tooele', 'Washington', 'Wayne',
    ),
    ('2012', 'us_house', 3): (
        'Carbon', 'Emery', 'Grand', 'Salt Lake', 'San Juan', 'Utah', 'Wasatch',
    ),
    ('2012', 'us_house', 4): ('Juab', 'Salt Lake', 'Sanpete', 'Utah'),
    ('2022', 'state_house', 1): ('Box Elder', 'Cache'),
    ('2022', 'state_house', 2): ('Cache',),
    ('2022', 'state_house', 3): ('Cache',),
    ('2022', 'state_house', 4): ('Morgan', 'Rich', 'Summit'),
    ('2022', 'state_house', 5): ('Cache',),
    ('2022', 'state_house', 6): ('Box Elder', 'Weber'),
    ('2022', 'state_house', 7): ('Weber',),
    ('2022', 'state_house', 8): ('Morgan', 'Weber'),
    ('2022', 'state_house', 9): ('Weber',),
    ('2022', 'state_house', 10): ('Weber',),
    ('2022', 'state_house', 11): ('Davis', 'Weber'),
    ('2022', 'state_house', 12): ('Davis', 'Weber'),
    ('2022', 'state_house', 13): ('Davis',),
    ('2022', 'state_house', 14): ('Davis',),
    ('2022', 'state_house', 15): ('Davis',),
    ('2022', 'state_house', 16): ('Davis',),
    ('2022', 'state_house', 17): ('Davis',),
    ('2022', 'state_house', 18): ('Davis',),
    ('2022', 'state_house', 19): ('Davis',),
    ('2022', 'state_house', 20): ('Davis',),
    ('2022', 'state_house', 21): ('Salt Lake',),
    ('2022', 'state_house', 22): ('Salt Lake',),
    ('2022', 'state_house', 23): ('Salt Lake', 'Summit'),
    ('2022', 'state_house', 24): ('Salt Lake',),
    ('2022', 'state_house', 25): ('Salt Lake',),
    ('2022', 'state_house', 26): ('Salt Lake',),
    ('2022', 'state_house', 27): ('Salt Lake',),
    ('2022', 'state_house', 28): ('Tooele',),
    ('2022', 'state_house', 29): ('Juab', 'Millard', 'Tooele'),
    ('2022', 'state_house', 30): ('Salt Lake',),
    ('2022', 'state_house', 31): ('Salt Lake',),
    ('2022', 'state_house', 32): ('Salt Lake',),
    ('2022', 'state_house', 33): ('Salt Lake',),
    ('2022', 'state_house', 34): ('Salt Lake',),
    ('2022', 'state_house', 35): ('Salt Lake',),
    ('2022', 'state_house', 36): ('Salt Lake',),
    ('2022', 'state_house', 37): ('Salt Lake',),
    ('2022', 'state_house', 38): ('Salt Lake',),
    ('2022', 'state_house', 39): ('Salt Lake',),
    ('2022', 'state_house', 40): ('Salt Lake',),
    ('2022', 'state_house', 41): ('Salt Lake',),
    ('2022', 'state_house', 42): ('Salt Lake',),
    ('2022', 'state_house', 43): ('Salt Lake',),
    ('2022', 'state_house', 44): ('Salt Lake',),
    ('2022', 'state_house', 45): ('Salt Lake',),
    ('2022', 'state_house', 46): ('Salt Lake',),
    ('2022', 'state_house', 47): ('Salt Lake',),
    ('2022', 'state_house', 48): ('Salt Lake',),
    ('2022', 'state_house', 49): ('Salt Lake',),
    ('2022', 'state_house', 50): ('Utah',),
    ('2022', 'state_house', 51): ('Utah',),
    ('2022', 'state_house', 52): ('Utah',),
    ('2022', 'state_house', 53): ('Utah',),
    ('2022', 'state_house', 54): ('Utah',),
    ('2022', 'state_house', 55): ('Utah',),
    ('2022', 'state_house', 56): ('Utah',),
    ('2022', 'state_house', 57): ('Utah',),
    ('2022', 'state_house', 58): ('Utah',),
    ('2022', 'state_house', 59): ('Summit', 'Wasatch'),
    ('2022', 'state_house', 60): ('Utah',),
    ('2022', 'state_house', 61): ('Utah',),
    ('2022', 'state_house', 62): ('Utah',),
    ('2022', 'state_house', 63): ('Utah',),
    ('2022', 'state_house', 64): ('Utah',),
    ('2022', 'state_house', 65): ('Utah',),
    ('2022', 'state_house', 66): ('Juab', 'Sanpete', 'Utah'),
    ('2022', 'state_house', 67): ('Carbon', 'Duchesne', 'Emery'),
    ('2022', 'state_house', 68): ('Daggett', 'Duchesne', 'Summit', 'Uintah'),
    ('2022', 'state_house', 69): ('Emery', 'Garfield', 'Grand', 'Kane', 'San Juan', 'Wayne'),
    ('2022', 'state_house', 70): ('Beaver', 'Iron', 'Piute', 'Sevier'),
    ('2022', 'state_house', 71): ('Iron',),
    ('2022', 'state_house', 72): ('Washington',),
    ('2022', 'state_house', 73): ('Washington',),
    ('2022', 'state_house', 74): ('Washington',),
    ('2022', 'state_house', 75): ('Washington',),
    ('2022', 'state_school_board', 1): ('Morgan',),
    ('2022', 'state_school_board', 2): ('Weber',),
    ('2022', 'state_school_board', 4): ('Salt Lake',),
    ('2022', 'state_school_board', 5): ('Salt Lake',),
    ('2022', 'state_school_board', 6): ('Salt Lake',),
    ('2022', 'state_school_board', 8): ('Salt Lake',),
    ('2022', 'state_school_board', 11): ('Salt Lake',),
    ('2022', 'state_school_board', 14): ('Carbon', 'Grand', 'Iron', 'Sanpete', 'Sevier'),
    ('2022', 'state_senate', 1): ('Box Elder', 'Cache', 'Tooele'),
    ('2022', 'state_senate', 5): ('Davis', 'Morgan', 'Weber'),
    ('2022', 'state_senate', 6): ('Davis',),
    ('2022', 'state_senate', 7): ('Davis', 'Morgan'),
    ('2022', 'state_senate', 9): ('Salt Lake',),
    ('2022', 'state_senate', 11): ('Salt Lake', 'Tooele', 'Utah'),
    ('2022', 'state_senate', 12): ('Salt Lake',),
    ('2022', 'state_senate', 13): ('Salt Lake',),
    ('2022', 'state_senate', 14): ('Salt Lake',),
    ('2022', 'state_senate', 18): ('Salt Lake', 'Utah'),
    ('2022', 'state_senate', 19): ('Salt Lake', 'Utah'),
    ('2022', 'state_senate', 20): ('Daggett', 'Duchesne', 'Summit', 'Uintah', 'Wasatch'),
    ('2022', 'state_senate', 21): ('Utah',),
    ('2022', 'state_senate', 23): ('Utah',),
    ('2022', 'state_senate', 28): ('Beaver', 'Iron', 'Juab', 'Millard', 'Washington'),
    ('2022', 'us_house', 1): (
        'Box Elder', 'Cache', 'Davis', 'Morgan', 'Rich', 'Salt Lake', 'Summit', 'Weber',
    ),
    ('2022', 'us_house', 2): (
        'Beaver', 'Davis', 'Garfield', 'Iron', 'Juab', 'Kane', 'Millard', 'Piute', 'Salt Lake',
        'Sevier', 'Tooele', 'Washington', 'Wayne',
    ),
    ('2022', 'us_house', 3): (
        'Carbon', 'Daggett', 'Duchesne', 'Emery', 'Grand', 'Salt Lake', 'San Juan', 'Summit',
        'Uintah', 'Utah', 'Wasatch',
    ),
    ('2022', 'us_house', 4): ('Juab', 'Salt Lake', 'Sanpete', 'Utah'),
}
# END GENERATED


_YEAR = re.compile(r"(?<!\d)(20[0-9]{2})(?!\d)")


def year_named(names: tuple[str | None, ...]) -> tuple[int, str] | None:
    """The election year a file's names give ("2020 General Election Utah Precinct Level
    Results", "Utah UT 2020GeneralSOVC"), with the name it came from; None when no name
    gives one or they give different years. It chooses the district map (the maps change
    with the year only); the law's text and the deadlines need the date itself."""
    found: dict[int, str] = {}
    for name in names:
        for m in _YEAR.finditer(name or ""):
            found.setdefault(int(m.group(1)), name or "")
    if len(found) != 1:
        return None
    ((year, name),) = found.items()
    return year, name
