"""Words that canvass files use for things that are not candidate votes.

Shared by every reader so that over/under votes, totals rows, statistics "offices" and
write-in totals are recognised the same way everywhere (DESIGN.md §2).
"""

from __future__ import annotations

import functools
import re
from datetime import datetime

from recount_desk.core.model import is_aggregate_write_in_name

# The tests below are asked of the same few hundred texts over and over (a report repeats
# its candidates in every precinct): each is answered once per distinct text.
_cached = functools.lru_cache(maxsize=1 << 14)

# Offices that are statistics, not contests.
_NON_CONTEST_OFFICE = re.compile(
    r"^\s*(registered\s+v[oa]ters?.*|ballots?\s+cast.*|times?\s+(cast|counted|blank).*|"
    r"cards?\s+cast.*|paper\s+ballots?\s+cast.*|straight\s+party.*|voter\s+turnout.*|"
    r"turnout.*|race\s+statistics|statistics|number\s+of\s+precincts.*|precincts?\s+reporting.*|"
    r"total\s+ballots.*)\s*$",
    re.IGNORECASE,
)

# Precinct cells that are totals rows, not precincts.
_TOTAL_PRECINCT = re.compile(
    r"^\s*(election\s+totals?|totals?|county\s+totals?|grand\s+totals?|total:|zzz|cumulative|"
    r"cumulative\s+totals?|all\s+precincts|county)\s*:?\s*$",
    re.IGNORECASE,
)

# 'Times Over Voted', 'Number of Under Votes', 'Times Blank Voted' (GEMS' pseudo-candidates).
_TIMES = r"(number\s+of|times)\s+{}(\s*-?\s*vote[sd]?)?"
_OVER = re.compile(r"^\s*(over\s*-?\s*(votes?|voted)|overvot(es?|ed)|" + _TIMES.format("over")
                   + r"|over\s+vote\s+count)\s*$", re.IGNORECASE)
_UNDER = re.compile(r"^\s*(under\s*-?\s*(votes?|voted)|undervot(es?|ed)|"
                    + _TIMES.format("under") + r"|under\s+vote\s+count|not\s+voted|"
                    r"no\s+votes?|did\s+not\s+vote)\s*$", re.IGNORECASE)
_BLANK = re.compile(r"^\s*(blank(\s+(votes?|ballots?))?|blanks|" + _TIMES.format("blank")
                    + r"|ballots\s+cast\s*-?\s*blank)\s*$", re.IGNORECASE)
# Over and under votes counted together: neither kind alone, and no choice.
_OVER_UNDER = re.compile(r"^\s*(over\s*[/&]\s*under|under\s*[/&]\s*over)(\s*-?\s*votes?)?\s*$",
                         re.IGNORECASE)
# Rows that sum other rows: counting them would double the votes.
_SUM_ROW = re.compile(
    r"^\s*(write-?\s*ins?\s+(votes\s+)?totals?(\s+votes)?|total\s+write-?\s*ins?(\s+votes)?|"
    r"write-?\s*ins?\s*\(\s*totals?\s*\)|all\s+write-?\s*ins?(\s+votes)?|"
    r"total\s+votes(\s+cast)?(\s+(for|in)\s+(the\s+)?(contest|race|office))?|"
    r"contest\s+totals?|totals?|(total\s+)?valid\s+votes(\s+cast)?|"
    r"sub-?\s*totals?|grand\s+totals?|race\s+totals?|sum|total\s+cast|votes\s+cast)\s*:?\s*$",
    re.IGNORECASE,
)
# Statistics that sit among the choices in some files.
_STAT_CHOICE = re.compile(
    r"^\s*(registered(\s+voters)?|(total\s+|active\s+)?voters|ballots\s+cast|times\s+counted|"
    r"times\s+cast|number\s+of\s+precincts.*|cards\s+cast|(total\s+|cast\s+)?ballots|"
    r"ballots\s+(counted|issued|received|returned|tabulated)|spoiled(\s+ballots)?)\s*$",
    re.IGNORECASE,
)
# Words of a proposition's or a retention's choices, however they are joined ('Yes/For',
# 'BOND APPROVAL, YES', 'Retain Judge Frick'): every such contest shares them.
STANCE_WORDS = frozenset({"yes", "no", "for", "against", "approve", "approved", "approval",
                          "reject", "rejected", "retain", "retained", "retention", "si",
                          "sí", "aye", "nay", "oui", "non"})
_WRITE_IN = re.compile(r"(write-?\s*ins?|un-?registered\s+write|\(write-in\))", re.IGNORECASE)
_INVALID_WRITE_IN = re.compile(r"write-?\s*in\s*:?\s*(not\s+certified|invalid|fictitious)|"
                               r"un-?registered\s+write", re.IGNORECASE)


# Cells that hide a precinct's count for voter privacy ('Suppressed' in hand-built sheets,
# '****' in the printed SOVC, '*' in OpenElections files), compared case-insensitively.
SUPPRESSED_MARKS = frozenset({"suppressed", "*", "**", "***", "****"})


@_cached
def is_suppressed(cell: str) -> bool:
    """Whether a cell's text marks a count suppressed for voter privacy."""
    return cell.strip().casefold() in SUPPRESSED_MARKS


# Text mangled once (UTF-8 read as Windows-1252 and saved): 'JULIÃ\x81N' for 'JULIÁN', 'JosÃ©'.
# Only the lead bytes of Latin-1 letters (Ã, Â) followed by what Windows-1252 makes of a
# continuation byte are taken: 'AÅŽ' is a real name in some tongue.
MOJIBAKE = re.compile("[\u00c2\u00c3][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178"
                      "\u017d\u017e\u0192\u02c6\u02dc\u2013-\u203a\u20ac\u2122]")
# Garbled text of any kind: mojibake, a mangled punctuation mark ('â€™'), or the
# replacement character left where a byte could not be decoded.
GARBLED = re.compile(MOJIBAKE.pattern + "|\u00e2\u20ac|\ufffd")


@_cached
def is_non_contest_office(office: str) -> bool:
    return bool(_NON_CONTEST_OFFICE.match(office))


@_cached
def is_total_precinct(precinct: str) -> bool:
    return bool(_TOTAL_PRECINCT.match(precinct))


# A running total in the precinct column: the sum of the rows above it on a printed page.
_RUNNING_TOTAL = re.compile(
    r"^\s*((carried|brought)\s+(forward|fwd\.?|over)|balance\s+(brought|carried)\s+forward|"
    r"page\s+(sub-?\s*)?totals?|sub-?\s*totals?|running\s+totals?)\s*:?\s*$", re.IGNORECASE)


@_cached
def is_running_total(precinct: str) -> bool:
    """'Carried Forward', 'Page Total', 'Subtotal': no precinct and not the county's totals."""
    return bool(_RUNNING_TOTAL.match(precinct))


@_cached
def choice_kind(name: str) -> str | None:
    """'candidate', 'write_in', 'over', 'under', 'blank', or None for a row to leave out
    (a sum of other rows, or a statistic)."""
    if _OVER.match(name):
        return "over"
    if _UNDER.match(name):
        return "under"
    if _BLANK.match(name):
        return "blank"
    if _SUM_ROW.match(name) or _STAT_CHOICE.match(name) or _OVER_UNDER.match(name) or \
            _NON_CONTEST_OFFICE.match(name):  # ('REGISTERED VOTERS - TOTAL': Sevier 2022)
        return None
    if _WRITE_IN.search(name) or is_aggregate_write_in_name(name):
        # (and a line of the write-ins that names none: Electionware's 'NOT ASSIGNED', the
        # write-in votes not assigned to a named write-in, Wayne 2022)
        return "write_in"
    return "candidate"


@_cached
def is_write_in_total(name: str) -> bool:
    """A line of the write-ins' sum ('Write-In Totals', 'Total Write-In Votes'): no choice
    beside named write-ins (their sum), the write-ins themselves where none is named."""
    return bool(_SUM_ROW.match(name) and _WRITE_IN.search(name))


@_cached
def is_sum_name(name: str) -> bool:
    """A choice named like the sum of others ('Total Votes', 'Write-in Totals')."""
    return bool(_SUM_ROW.match(name))


@_cached
def is_invalid_write_in(name: str) -> bool:
    return bool(_INVALID_WRITE_IN.search(name))


_PARTY_PREFIX = re.compile(
    r"^(REP|DEM|LIB|CON|IAP|UNA|GRN|UUP|NON|IND|AMD|UTJ|NLP|WRI|UPP|SWP|PSL|ALL|ASP|GRE|UNI)"
    r"\s+(?=\S)"
)


@_cached
def split_party_prefix(name: str) -> tuple[str, str]:
    """'REP MIKE LEE' -> ('MIKE LEE', 'REP'); names without a prefix come back unchanged."""
    m = _PARTY_PREFIX.match(name)
    if not m:
        return name, ""
    return name[m.end():], m.group(1)


_VOTE_FOR = re.compile(r"vote\s*for\s*(?:not\s+more\s+than\s+)?\(?\s*(\d+)\s*\)?", re.IGNORECASE)


@_cached
def seats_in(text: str) -> int | None:
    """'Vote For 3', 'VOTE FOR 1', '(Vote for  2)' -> the number; None if absent."""
    m = _VOTE_FOR.search(text)
    return int(m.group(1)) if m else None


# --- Helpers added for the Electionware and GEMS readers (additions only). ---

_SPACES = re.compile(r"\s+")


@_cached
def clean_name(text: str) -> str:
    """Trim and collapse runs of white space ('ALLY      ISOM' -> 'ALLY ISOM')."""
    return _SPACES.sub(" ", text).strip()


# The one table of party words (casefolded) and their codes: party rows' cells (party_of),
# and the full names that titles and party columns spell out (party_code, contest_party).
PARTY_WORDS = {"r": "REP", "rep": "REP", "republican": "REP", "gop": "REP",
               "d": "DEM", "dem": "DEM", "democrat": "DEM", "democratic": "DEM",
               "l": "LIB", "lib": "LIB", "libertarian": "LIB", "c": "CON", "con": "CON",
               "constitution": "CON", "g": "GRN", "green": "GRN", "u": "UNA", "una": "UNA",
               "unaffiliated": "UNA", "i": "IND", "ind": "IND", "independent": "IND",
               "iap": "IAP", "independent american": "IAP", "uup": "UUP",
               "united utah": "UUP", "np": "", "non": "", "nonpartisan": "",
               "non-partisan": "", "lbt": "LIB"}
_PARTY_WORDS = {w.upper(): PARTY_WORDS[w] for w in (
    "republican", "democratic", "democrat", "libertarian", "constitution", "united utah",
    "independent american", "green")}
# The party codes a party row's cell or a name's brackets give ('REP', '(GRE)'); Utah's
# 2024 ballots add GRE, the Green Party's code there, UFP, the Forward Party, and the
# presidential parties' PSL, ASP and SWP.
PARTY_CODES = "REP|DEM|LIB|CON|IAP|UNA|GRN|UUP|NON|IND|UTJ|UPP|GOP|GRE|UFP|PSL|ASP|SWP"
_PARTY_CELL = re.compile(rf"^\(?\s*({PARTY_CODES}|AMD|NLP|NP)\s*\)?$", re.IGNORECASE)
# A header cell over the precincts' names, down a sheet ('Precinct Name', 'Pct #').
PRECINCT_HEADER = re.compile(r"^(precincts?|pct\.?)(\s*(name|number|no\.?|#|id|code))?\s*:?$",
                             re.IGNORECASE)


def party_of(cell: str) -> str | None:
    """The party code a party row's cell names ('REP', 'Republican', '(R)', 'Dem.'; 'NP' and
    'Nonpartisan' are no party, ""), or None when it names none (unlike :func:`party_code`,
    which makes a code of any cell)."""
    m = _PARTY_CELL.match(cell)
    if m:
        return {"GOP": "REP", "NP": "", "NON": ""}.get(m.group(1).upper(), m.group(1).upper())
    return PARTY_WORDS.get(cell.strip("() .").casefold())


# A party row's cell over a write-in choice ('Write-in' where a party would be).
_WRITE_IN_CELL = re.compile(r"^\s*write[-\s]?ins?\s*$", re.IGNORECASE)


def party_row(cells: list[str]) -> bool:
    """Cells a row of parties holds: each a party (:func:`party_of`), or 'Write-in' under a
    write-in choice (Weber's files give write-ins that party), with one party at least."""
    found = False
    for c in cells:
        if party_of(c) is not None:
            found = True
        elif not _WRITE_IN_CELL.match(c):
            return False
    return found


_PARTY_CODES = ("REP", "DEM", "LIB", "CON", "UUP", "IAP", "GRN")
_TITLE_PARTY_PAREN = re.compile(r"\((REP|DEM|LIB|CON|UUP|IAP|GRN)\)", re.IGNORECASE)
_TITLE_PARTY_FOR = re.compile(
    r"^(?:(?:REP|DEM|LIB|CON|UUP|IAP|GRN)\s+)?(Republican|Democratic|Libertarian|Constitution|"
    r"Green|United Utah|Independent American)\s+for\s", re.IGNORECASE)
_TITLE_PARTY_SUFFIX = re.compile(r"(?:\s-\s|\s)(Republican|Democratic)(?:\s+Party)?\s*$",
                                 re.IGNORECASE)


@_cached
def contest_party(title: str) -> str:
    """The party a contest belongs to when its title says so (primaries), else "".

    'REP U.S. SENATE', 'Republican for U.S. Senate', 'DEM Democratic for U.S. President',
    'U.S. SENATE (REP)', 'U.S. President Democratic', 'US Senator - REPUBLICAN' -> the code.
    A prefix must be upper case ('Rep 20' is a district, not a party)."""
    t = title.strip()
    m = _TITLE_PARTY_FOR.match(t)
    if m:
        return _PARTY_WORDS[clean_name(m.group(1)).upper()]
    m = _TITLE_PARTY_PAREN.search(t)
    if m:
        return m.group(1).upper()
    m = re.match(r"^(REP|DEM|LIB|CON|UUP|IAP|GRN)\s+\S", t)
    if m:
        return m.group(1)
    m = _TITLE_PARTY_SUFFIX.search(t)
    if m:
        return _PARTY_WORDS[m.group(1).upper()]
    return ""


_KNOWN_PREFIX = re.compile(
    r"^(REP|DEM|LIB|CON|IAP|UNA|GRN|UUP|NON|IND|AMD|UTJ|NLP|UPP|SWP|PSL|ALL|ASP|GRE|UNI|UFP|LBT)"
    r"\s+(?=\S)", re.IGNORECASE)


def split_party_prefix_any_case(name: str) -> tuple[str, str]:
    """Like :func:`split_party_prefix`, also for 'Rep MITT ROMNEY' / 'Ind REED C. MCCANDLESS'.

    Only a prefix written all upper case or capitalised ('Rep', not 'rep') is taken."""
    m = _KNOWN_PREFIX.match(name)
    if not m:
        return name, ""
    word = m.group(1)
    if not (word.isupper() or (word[0].isupper() and word[1:].islower())):
        return name, ""
    return name[m.end():], word.upper()


_VOID_WRITE_IN = re.compile(r"write-?\s*in\s*:?\s*(non-?\s*valid|not\s+valid)", re.IGNORECASE)


@_cached
def is_void_write_in(name: str) -> bool:
    """Invalid write-ins: those of :func:`is_invalid_write_in` and 'Write-in: NON-VALID …'."""
    return is_invalid_write_in(name) or bool(_VOID_WRITE_IN.search(name))


_UNDERVOTE_WITHDREW = re.compile(r"^\s*under\s*-?\s*votes?\s*\(", re.IGNORECASE)


def choice_kind_ext(name: str) -> str | None:
    """:func:`choice_kind`, and 'UNDERVOTE (CANDIDATE WITHDREW)' counts as an under vote."""
    if _UNDERVOTE_WITHDREW.match(name):
        return "under"
    return choice_kind(name)


def parse_count(text: str) -> int | None:
    """'1,075' / '12' / '12.0' -> int; '' and anything else -> None."""
    t = text.strip().replace(",", "")
    if not t:
        return None
    if t.isdigit():
        return int(t)
    try:
        f = float(t)
    except ValueError:
        return None
    return int(f) if f.is_integer() and f >= 0 else None


_DATE_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%m/%d/%Y", "%Y-%m-%d", "%d %B %Y", "%B %d %Y")


def date_in(text: str) -> str | None:
    """'November 6, 2018' / 'MARCH 3, 2020' / '2024-11-05' / 'Held June 28, 2016' -> ISO date."""
    t = clean_name(text)
    for cand in (t, *re.findall(r"[A-Za-z]+\.?\s+\d{1,2},?\s+\d{4}|\d{1,2}/\d{1,2}/\d{4}|"
                                 r"\d{4}-\d{2}-\d{2}", t)):
        cand = cand.replace(".", "")
        for fmt in _DATE_FORMATS:
            try:
                d = datetime.strptime(cand, fmt).date()
            except ValueError:
                continue
            if 1990 <= d.year <= 2100:
                return d.isoformat()
    return None


# Statistics and percentages: names of columns (or choices) that hold no votes.
STATISTIC = re.compile(
    r"^\s*(total\s+)?(reg(\.|istered)?\s*v[oa]ters?|active\s+voters?|ballots?\s+cast|"
    r"ballots?\s+counted|total\s+ballots|turn\s*-?\s*out(\s*%)?|voter\s+turnout|%\s*turnout|"
    r"times\s+(cast|counted)|cards?\s+cast|precincts?(\s+(counted|reporting))?|"
    r"number\s+of\s+precincts.*|total\s+votes(\s+cast)?|votes\s+cast|percent(age)?|pct\.?)"
    r"\s*:?\s*$", re.IGNORECASE)
PERCENT = re.compile(r"%|\bpercent", re.IGNORECASE)
# Words that name an office or a ballot question: a contest's title, never a choice's name.
OFFICE = re.compile(
    r"\b(president|senate|senator|house|congress(ional)?|governor|attorney\s+general|"
    r"treasurer|auditor|sheriff|county\s+(clerk|recorder|assessor|attorney|commission\w*)|"
    r"council|mayor|school\s+board|board\s+of\s+education|district\s+\d+|dist\.?\s*\d+|"
    r"judge|proposition|amendment)\b", re.IGNORECASE)
# Wider: any word a contest's title (or a header naming contests) may hold: a sheet of
# such words is no ballot summary, and a row of one is no second line of a name.
CONTEST_WORD = re.compile(
    OFFICE.pattern[:-3] + r"|senat\w*|congress\w*|council\w*|clerk|recorder|assessor|"
    r"attorney|commission\w*|board|judicial|retention|justice|court|question|measure|bond|"
    r"seat|trustee|supervisor|constable|district|dist|representative|legislat\w*|elector\w*|"
    r"prop\.?|amend\w*|amend\.|levy|tax|initiative|referendum|vote\s+for|candidates?|"
    r"write-?\s*ins?)\b", re.IGNORECASE)


# A header over shares of the votes ('%', 'Pct.', 'Percent'), never a choice's or a
# precinct's counts (the sideways and the stacked sheets).
PERCENT_HEAD = re.compile(r"^(%|pct\.?|percent(age)?|%\s*of\s*votes|vote\s*%)$", re.IGNORECASE)
# A row of its own saying a contest's seats ('Vote for 2', '(Vote for not more than 3)'),
# and the same at the end of a title ('U.S. SENATE (Vote for 1)').
VOTE_FOR_ROW = re.compile(r"^\(?\s*vote\s*for\s*(not\s+more\s+than\s+)?\(?\s*\d+\s*\)?\s*\)?$",
                          re.IGNORECASE)
VOTE_FOR_IN_TITLE = re.compile(r"\s*[-–,]?\s*\(?\s*vote\s*for\s*(not\s+more\s+than\s+)?"
                               r"\(?\s*\d+\s*\)?\s*\)?\s*$", re.IGNORECASE)


# The second line of a contest's title wrapped onto two rows ('U.S. House' / 'District 2',
# 'County Commission' / 'Seat B'): read alone, the title named no office, and a multicounty
# race became a county's own.
TITLE_GOES_ON = re.compile(r"^(district|dist\.?|seat|division|no\.|#|\d|\(|-|–|of\b|and\b|&)",
                           re.IGNORECASE)


# --- Shared by the grid and block readers (ES&S SOVC and statement, GEMS, the mapping). ---

# Party cells that name no party.
NO_PARTY = frozenset({"", "NON", "NP", ".", "NONPARTISAN"})
# What a party column holds: codes, party names, no-party marks ('R', 'UNA' in county files).
PARTY_CELLS = frozenset({*_PARTY_CODES, *_PARTY_WORDS, *NO_PARTY, "UNA", "R", "D", "L"}
                        - {"", "."})
# Cells that say a contest is not on a precinct's ballot (no votes, as an empty cell).
NOT_ON_BALLOT = frozenset({"-", "--", "\u2013", "\u2014", "n/a", "N/A"})
# The end-of-file mark (Ctrl-Z) some exports leave behind as a cell, or Excel's escape of it.
EOF_MARK = re.compile(r"^(\x1a|_x001a_)+$", re.IGNORECASE)
# A contest's one generic write-in line or column ('Write-in', 'WRITE-INS', 'Write-in Votes').
GENERIC_WRITE_IN = re.compile(r"^\s*write-?\s*ins?(\s+votes?)?\s*$", re.IGNORECASE)


def party_code(text: str) -> str:
    """A party cell as a code: 'Republican Party' -> 'REP', 'NP' -> '', 'UUP' -> 'UUP'."""
    t = re.sub(r"\s+PARTY$", "", clean_name(text).upper())
    t = _PARTY_WORDS.get(t, t)
    return "" if t in NO_PARTY else t
# The vote mode that is the total of the others ('Total' under a candidate, a precinct's
# 'Total' row, a mode column's 'Total' rows).
# The total of a choice's votes by mode, as a column or row of modes heads it ('Total', 'Total
# Votes', 'TOT', 'Grand Total', 'Sum').
_TOTAL_MODE = r"total(\s+votes)?|tot\.?|grand\s+total|sum"
TOTAL_MODE = re.compile(rf"^\s*({_TOTAL_MODE})\s*$", re.IGNORECASE)
# How the votes were cast (a column, or a sub-row of a precinct), and their total: the vote
# modes of Electionware's reports and statements, and of counties' own sheets ('ED', 'VBM';
# 'ED' in capitals only: 'Ed' is a name).
VOTE_MODE = re.compile(
    rf"^\s*({_TOTAL_MODE}|election\s+day(\s+ballots?)?|(?-i:ED|E\.D\.)|early(\s+vot(e|ing))?|"
    r"by\s+mail(\s+(ballots?|after))?|mail(\s*-?\s*in)?(\s+ballots?)?|vbm|"
    r"vote\s+by\s+mail|absentee(\s+ballots?)?|provisional(\s*-\s*paper)?|"
    r"paper(\s+at\s+polls)?|polls?|polling|in[\s-]+(person|office)(\s+voting)?|"
    r"vote\s+centers?|emergency|uocava|military)\s*$",
    re.IGNORECASE)
