"""County workbooks laid out sideways: precincts across, contests stacked down.

Some small counties (Garfield 2020) publish the canvass as one sheet whose **columns are the
precincts** and whose **rows are the choices**, contest after contest::

                                          Total   %       AN 1   BO 2   …
      Registered Voters                   3157            93     288
      US President & Vice President
      Joseph R. Biden, Kamala D. Harris (DEM)  514  0.1875   9     137
      Donald J. Trump, Michael R. Pence (REP) 2158  0.7873  67      94
      (blank row)
      US HOUSE DISTRICT 2
      …

What the family shares, and what this reader takes from it:

* a header row naming the precincts over their columns (the first row whose value cells are
  mostly text), optionally below a title block; the label column is the first used column;
* a contest is a **title row** (a label and nothing else), optionally followed by a
  ``Vote for N`` row (the seats), then one row per choice with a count under each precinct
  where the contest was on the ballot (an empty cell means it was not);
* blank rows between contests, or none;
* a total column (headed ``Total``, or unheaded and equal to the sum of the precincts)
  gives the file's own totals; percent columns (``%`` or unheaded fractions) are ignored;
* a ``Party`` column, or the party in the name (``Chris Stewart (REP)``, ``REP MIKE LEE``,
  ``Mike Lee - Republican``: :func:`grid.choice_party`);
* statistics rows (registered voters, ballots cast, turnout, precincts counted) are left
  out, as are sum rows (``Total Votes``); over/under/blank rows are kept apart;
* a printed report whose precincts run on over several pages repeats the header row with
  the next precincts and the contests again: a title seen before with other precincts is
  the same contest continued.

A list of ballot records (``Cast Vote Record, Batch, Tabulator CVR``, Emery 2020) is also
recognised here, only to say what it is: it holds no vote counts.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

from recount_desk.core.model import Issue, Severity

from . import grid, stacked, vocab
from ._workbook_checks import excel_error_cells
from .base import Cancelled, Detection, ImportFailed, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog
from .stages import detector, frame, sheets, to_int
from .tabular import col_letter, sniff

FAMILY = "sideways"
LABEL = "County workbook with precincts across and contests stacked down"
# detect() never claims more than this (formats.detect skips it after a surer claim).
MAX_CONFIDENCE = 75
BALLOT_LIST_LABEL = "List of ballot records (not a canvass)"

_SCAN_ROWS = 40          # where the precinct header may be
_DETECT_ROWS = 250       # rows looked at by detect()

_HEADER_WORD = re.compile(r"^(precincts?|contests?|candidates?|choices?|offices?|races?|"
                          r"names?|contest\s*/\s*candidate|candidate\s*/\s*precinct)\s*:?$",
                          re.IGNORECASE)
_PARTY_HEAD = re.compile(r"^(party|pty|party\s+code|affiliation)$", re.IGNORECASE)
_PERCENT_HEAD = vocab.PERCENT_HEAD
_TOTAL_HEAD = re.compile(r"^(total\s+votes|votes|county|county\s+wide|countywide)$",
                         re.IGNORECASE)
# Columns of vote modes, not precincts: another family's layout (summary reports).
_MODE_HEAD = re.compile(r"^(election\s+day|early(\s+voting)?|(vote\s+)?by\s+mail|mail(-?in)?|"
                        r"absentee|provisional|in\s+person|polling|polls|vote\s+centers?|"
                        r"one\s+stop|total)$", re.IGNORECASE)
_PARTY_CODE = re.compile(r"^\(?\s*(REP|DEM|LIB|CON|IAP|UNA|GRN|UUP|NON|IND|AMD|UTJ|NLP|UPP|GOP|"
                         r"NP|NPA|WRI)\s*\)?$", re.IGNORECASE)
_VOTE_FOR_ROW = vocab.VOTE_FOR_ROW
_MORE_STATS = re.compile(r"^(precincts?\s+(counted|reported|reporting)(\s+total)?|"
                         r"(total\s+)?(reg\.?|registered)\s+voters?(\s*-\s*total)?|"
                         r"ballots?\s+(cast|counted)(\s*-\s*(total|blank))?|"
                         r"(voter\s+)?turn\s*-?\s*out(\s*%)?(\s*-\s*total)?|%\s*turnout)$",
                         re.IGNORECASE)
_BALLOT_LIST_HEAD = re.compile(r"^(cast\s+vote\s+records?|cvr(\s+(id|number))?|ballot\s+id)$",
                               re.IGNORECASE)
_BALLOT_LIST_OTHER = re.compile(r"^(batch(\s+id)?|tabulator(\s+cvr)?|tabulator\s+id|"
                                r"imprinted\s+id|ballot\s+type|precinct\s+portion)$",
                                re.IGNORECASE)


_clean = grid.clean


def _is_stat(label: str) -> bool:
    return vocab.is_non_contest_office(label) or bool(_MORE_STATS.match(label))


def _is_fraction(text: str) -> bool:
    """A percentage as a spreadsheet stores it (0.8736) or prints it ('87.4%')."""
    t = text.strip()
    if t.endswith("%"):
        try:
            float(t[:-1].replace(",", ""))
        except ValueError:
            return False
        return True
    try:
        f = float(t)
    except ValueError:
        return False
    return 0.0 <= f <= 1.0


# --- The layout -------------------------------------------------------------------------


@dataclass
class _Header:
    row: int                       # 0-based sheet row
    label_col: int
    precincts: dict[int, str]      # column -> precinct name
    total_cols: list[int]          # headed 'Total'
    party_col: int | None
    unheaded: list[int]            # to be told apart by their contents
    ignored: list[int]             # percent columns
    mode_row: int | None = None    # a row of vote modes under it (each precinct's 'Total' read)


@dataclass
class _Block:
    title: str
    title_row: int                 # 0-based
    header: _Header
    seats: int | None = None
    choices: list[int] = field(default_factory=list)   # 0-based rows


@dataclass
class _Layout:
    headers: list[_Header]
    blocks: list[_Block]
    stats_rows: list[int]          # statistics rows left out
    orphan_rows: list[int]         # rows with counts that belong to no contest
    title_rows: list[str]          # the title block above the first header, row by row
    # A choice's name carried onto the next row (a PDF conversion wraps long names): its
    # row and the text of the line below it.
    wraps: dict[int, tuple[int, str]] = field(default_factory=dict)
    # Rows that name a choice but hold no counts, where the file cannot say whether they are
    # a candidate whose counts were left blank or the rest of the name above: (row, label,
    # the label above it — None first under the title, "" for a name with its party —,
    # the contest's title).
    blank_rows: list[tuple[int, str, str | None, str]] = field(default_factory=list)
    # Precincts whose columns are split by how the votes were cast with no 'Total' among
    # them: (header row, precinct, its columns, the modes).
    untotalled: list[tuple[int, str, list[int], list[str]]] = field(default_factory=list)
    # A choice's votes by how they were cast, in rows under it ('Mail', 'Election Day',
    # 'Total'): the 'Total' row read under the name above it (row -> the name), the mode
    # rows under a choice's own counts left out (how many), and the names whose modes have
    # no 'Total' row: (row, name, the modes).
    names: dict[int, str] = field(default_factory=dict)
    mode_parts: int = 0
    untotalled_rows: list[tuple[int, str, list[str]]] = field(default_factory=list)
    # A name's first part on the row above the row of its counts (that row -> (the row
    # above, its text)), and fragments that fit neither way when the sheet wraps so.
    down: dict[int, tuple[int, str]] = field(default_factory=dict)
    both_ways: list[int] = field(default_factory=list)
    # Fragments of a name that fit either way, or neither, under a choice's row: (row, its
    # text, the name above it, the name below it or None, the contest's title).
    unsure: list[tuple[int, str, str, str | None, str]] = field(default_factory=list)
    # A choice's party on the row under it, in words or as a code ('Mike Lee' / 'Republican'):
    # the choice's row -> (the party's row, its text, the party).
    parties: dict[int, tuple[int, str, str]] = field(default_factory=dict)


def _label_col(rows: list[list[str]]) -> int:
    """The column of the row labels: the first of the leftmost columns with a good share of
    the text cells (a title written in the margin of a PDF conversion does not count)."""
    width = min(max((len(r) for r in rows), default=0), 8)
    counts = [sum(1 for r in rows[:_SCAN_ROWS * 4] if j < len(r) and r[j].strip() and
                  to_int(r[j]) is None and not _is_fraction(r[j])) for j in range(width)]
    best = max(counts, default=0)
    for j, n in enumerate(counts):
        if n and n >= 0.3 * best:
            return j
    return 0


def _as_header(row: list[str], lc: int, width: int) -> _Header | None:
    """The row as a precinct header, or None when it is not one."""
    label = _clean(row[lc]) if lc < len(row) else ""
    if label and not _HEADER_WORD.match(label):
        return None
    cells = [(j, _clean(row[j])) for j in range(lc + 1, len(row)) if row[j].strip()]
    if len(cells) < 2:
        return None
    # Precincts named by number (Rich County's are 1 to 5) under a label that says
    # 'Precinct': numbers, all different and rising, which no row of counts is.
    numbered = bool(_PRECINCT_WORD.match(label)) and _numbered(cells)
    texts = [(j, c) for j, c in cells if (numbered and to_int(c) is not None)
             or (to_int(c) is None and not _is_fraction(c))]
    if len(texts) < 2 or len(texts) < 0.6 * len(cells):
        return None
    if any(vocab.is_suppressed(c) for _, c in cells):
        return None
    precincts: dict[int, str] = {}
    totals: list[int] = []
    party: int | None = None
    ignored: list[int] = []
    modes = 0
    for j, c in texts:
        if _MODE_HEAD.match(c) and not vocab.is_total_precinct(c):
            modes += 1
        if vocab.is_total_precinct(c) or _TOTAL_HEAD.match(c):
            totals.append(j)
        elif _PARTY_HEAD.match(c):
            party = j
        elif _PERCENT_HEAD.match(c) or c.endswith("%") or _is_stat(c):
            ignored.append(j)
        else:
            precincts[j] = c
    if len(precincts) < 2 or modes * 2 >= len(texts):
        return None
    if len(set(precincts.values())) < len(precincts):
        return None   # (one precinct in two columns: a row of parties, not of precincts)
    # Numbers in a header row are not precincts; unheaded columns are decided by contents.
    named = set(precincts) | set(totals) | set(ignored) | ({party} if party is not None else set())
    unheaded = [j for j in range(lc + 1, width) if j not in named]
    return _Header(0, lc, precincts, totals, party, unheaded, ignored)


_PRECINCT_WORD = re.compile(r"^precincts?\s*:?$", re.IGNORECASE)


def _numbered(cells: list[tuple[int, str]]) -> bool:
    """Whether the numbers among ``cells`` (two at least) rise, each above the one before."""
    nums = [n for _j, c in cells if (n := to_int(c)) is not None]
    return len(nums) >= 2 and all(a < b for a, b in itertools.pairwise(nums))


def _band_above(rows: list[list[str]], h: _Header) -> bool:
    """Whether the row over the header has no label and text over two of its "precincts"
    or more: contests' titles over candidates' names, a hand-built sheet's header band
    (whose precincts run down), not title rows over a header of precincts."""
    above = grid.row_above(rows, h.row, 2)
    if above is None or (h.label_col < len(above) and above[h.label_col].strip()):
        return False
    over = [j for j in h.precincts if j < len(above) and above[j].strip()
            and to_int(above[j]) is None]
    return len(over) >= 2


def _value_cells(row: list[str], h: _Header) -> list[str]:
    return [row[j].strip() for j in h.precincts if j < len(row)]


def _has_counts(row: list[str], h: _Header) -> bool:
    cols = list(h.precincts) + h.total_cols + h.unheaded
    return any(j < len(row) and row[j].strip() and (to_int(row[j]) is not None or
               vocab.is_suppressed(row[j])) for j in cols)


def _only_label(row: list[str], lc: int) -> bool:
    """A title row: the label and nothing else (but perhaps 'Vote for N')."""
    return all(not c.strip() or vocab.seats_in(c) is not None
               for j, c in enumerate(row) if j != lc)


def _plausible(rows: list[list[str]], lay: _Layout | None, min_blocks: int) -> bool:
    """Enough contests, counts that are counts, and few rows with counts outside contests."""
    if lay is None or len(lay.blocks) < min_blocks:
        return False
    filled = numbers = choice_rows = 0
    for b in lay.blocks:
        for i in b.choices:
            choice_rows += 1
            for c in _value_cells(rows[i], b.header):
                if c and c not in vocab.NOT_ON_BALLOT:  # ('-': not on that ballot)
                    filled += 1
                    numbers += to_int(c) is not None or vocab.is_suppressed(c)
    return filled > 0 and numbers >= 0.9 * filled and len(lay.orphan_rows) <= choice_rows


def _layout(rows: list[list[str]], options: ReadOptions | None = None) -> _Layout | None:
    """Find the header(s), the contest blocks and their choice rows; None if not this layout."""
    lc = _label_col(rows)
    width = max((len(r) for r in rows), default=0)
    first: _Header | None = None
    for i, r in enumerate(rows[:_SCAN_ROWS]):
        h = _as_header(r, lc, width)
        if h is not None:
            h.row = i
            first = h
            break
    if first is None or _band_above(rows, first):
        return None
    title_rows = [t for t in (" ".join(_clean(c) for c in r if c.strip())
                              for r in rows[:first.row]) if t]
    untotalled: list[tuple[int, str, list[int], list[str]]] = []
    blank_rows: list[tuple[int, str, str | None, str]] = []
    below = _split_by_modes(rows, first, width, untotalled)
    sub_rows = {below} if below is not None else set()   # rows of vote modes under a header
    headers = [first]
    h = first
    blocks: list[_Block] = []
    stats_rows: list[int] = []
    orphan_rows: list[int] = []
    current: _Block | None = None
    pending: tuple[str, int] | None = None   # a title row not yet followed by choices
    stat_section = False
    wraps: dict[int, tuple[int, str]] = {}
    parties: dict[int, tuple[int, str, str]] = {}   # a choice's party on the row under it
    down: dict[int, tuple[int, str]] = {}   # a name's first part on the row above its counts
    # (the same, where the name above ends with its party: told by the names, not the sheet)
    down_named: dict[int, tuple[int, str]] = {}
    unsure: list[tuple[int, str, str, str | None, str]] = []
    names: dict[int, str] = {}
    mode_parts = 0
    untotalled_rows: list[tuple[int, str, list[str]]] = []
    # A name with no counts over rows of its votes by mode.
    parent: _Parent | None = None
    for i in range(first.row + 1, len(rows)):
        if options is not None and i % 5000 == 0 and options.cancelled():
            raise Cancelled()
        r = rows[i]
        label = _clean(r[lc]) if lc < len(r) else ""
        if i in sub_rows or not any(c.strip() for c in r):
            continue   # a separator; a title row, not a blank one, starts the next contest
        if parent is not None and not (vocab.VOTE_MODE.match(label) and _has_counts(r, h)):
            _close(parent, current, untotalled_rows)
            parent = None
        nh = _as_header(r, lc, width)
        if nh is None and vocab.PRECINCT_HEADER.match(label) and not _has_counts(r, h) and \
                sum(1 for j, c in enumerate(r) if j > lc and c.strip()) >= 2:
            # A row headed 'Precinct Name' with names across, under the row taken for the
            # precincts': the precincts run down the sheet (a hand-built sheet's header,
            # repeated on each page of a PDF conversion), not across.
            return None
        if nh is not None:
            # The header again: per contest, or a new page with the next precincts.
            nh.row = i
            below = _split_by_modes(rows, nh, width, untotalled)
            if below is not None:
                sub_rows.add(below)
            if nh.precincts != h.precincts:
                headers.append(nh)
                h = nh
            current = None
            continue
        if label and not _has_counts(r, h) and _only_label(r, lc):
            if current is not None and current.choices and \
                    vocab.choice_kind(label) in ("write_in", "over", "under", "blank"):
                continue   # a choice row left empty, not a title
            if (current is not None or pending is not None) and not _is_stat(label) and \
                    not vocab.VOTE_MODE.match(label) and _modes_below(rows, i + 1, lc, h):
                parent = _Parent(i, label)   # its votes by mode in the rows below
                continue
            if current is not None and current.choices and current.choices[-1] == i - 1 \
                    and (party := vocab.party_of(label)) is not None \
                    and _whole_name(above := _clean(rows[i - 1][lc])) \
                    and not grid.choice_party(above)[1] and i - 1 not in parties \
                    and _choice_or_end(rows, i + 1, lc, h):
                # The party of the whole name above ('Mike Lee' / 'Republican'), not the rest
                # of its name (as 'Evan' / 'Green' would be).
                parties[i - 1] = (i, label, party)
                continue
            if current is not None and current.choices and current.choices[-1] == i - 1 \
                    and _wrapped(label, rows, i + 1, lc, h):
                above = _clean(rows[i - 1][lc])
                next_name = _clean(rows[i + 1][lc]) if _counted_name(rows, i + 1, lc, h) \
                    else None
                part_below = next_name is not None and not _whole_name(next_name)
                if _whole_name(label) and _whole_name(above) and not _JOINER.search(above):
                    # ('Mike Lee' / 'Tommy Williams': a candidate with no counts, or one name?)
                    blank_rows.append((i, label, above, current.title))
                elif grid.ends_with_party(above):
                    # The name above ends with its party ('Mike Lee (REP)'): it goes on no
                    # further, so a fragment is the first part of a name below it that is not
                    # whole ('Evan' / 'McMullin (UNA)'), and fits nowhere else.
                    if part_below:
                        down_named[i + 1] = (i, label)
                    else:
                        unsure.append((i, label, above, next_name, current.title))
                elif part_below and _whole_name(above) and not _JOINER.search(above):
                    # ('Mike Lee' / 'Evan' / 'McMullin': the rest of a whole name above, or
                    # the first part of the one below?)
                    unsure.append((i, label, above, next_name, current.title))
                else:
                    wraps[i - 1] = (i, label)  # the rest of the name above ('Evan' / 'McMullin')
                continue
            if current is not None and current.choices and current.choices[-1] == i - 1 \
                    and grid.choice_party(label)[1] and _whole_name(label):
                # A name with its party ('Tommy Williams (IAP)') right under the contest's
                # choices, with no counts: a candidate whose counts were left blank (read
                # as the next title, it was dropped without a word).
                blank_rows.append((i, label, "", current.title))
                continue
            if current is None and pending is not None and not _whole_name(label) and \
                    _fragment(label) and vocab.CONTEST_WORD.search(pending[0].split("\x00")[0]) \
                    and _counted_name(rows, i + 1, lc, h):
                # The first part of the name below it ('EVAN' / 'MCMULLIN 946 …': a PDF
                # conversion that sets the counts on a name's last line), not a title.
                down[i + 1] = (i, label)
                continue
            if current is None and pending is not None and _whole_name(label) and \
                    not vocab.CONTEST_WORD.search(label) and \
                    vocab.CONTEST_WORD.search(pending[0].split("\x00")[0]) and \
                    i + 1 < len(rows) and _has_counts(rows[i + 1], h) and \
                    lc < len(rows[i + 1]) and rows[i + 1][lc].strip():
                # A name under a contest's title, with no counts, before its choices: a
                # candidate whose counts were left blank (not the contest's title).
                blank_rows.append((i, label, None, pending[0].split("\x00")[0]))
                continue
            n = next((vocab.seats_in(c) for c in r if c.strip() and vocab.seats_in(c)), None)
            if _VOTE_FOR_ROW.match(label):
                if pending is not None and "\x00" not in pending[0]:
                    pending = (pending[0] + "\x00" + str(n), pending[1])
                continue
            if _is_stat(label) or label.lower() in ("statistics", "summary"):
                stat_section = True
                pending, current = None, None
                continue
            stat_section = False
            if pending is not None and current is None and pending[1] == i - 1 and \
                    "\x00" not in pending[0] and vocab.TITLE_GOES_ON.match(label):
                # (a title on two rows: 'U.S. House' / 'District 2')
                label = f"{pending[0]} {label}"
            pending, current = (label if n is None or vocab.seats_in(label) else
                                f"{label}\x00{n}", i), None
            continue
        if not _has_counts(r, h):
            continue   # text across the precinct columns without a label: nothing to count
        if not label:
            if not all(_is_fraction(c) for c in _value_cells(r, h) if c):
                orphan_rows.append(i)
            continue
        if _is_stat(label):
            stats_rows.append(i)
            continue
        if pending is not None:
            title, seats = pending[0], None
            if "\x00" in title:
                title, stated = title.split("\x00", 1)
                seats = int(stated)
            current = _Block(title, pending[1], h, seats)
            blocks.append(current)
            pending = None
        if current is None:
            if stat_section:
                stats_rows.append(i)
            else:
                orphan_rows.append(i)
            continue
        if vocab.VOTE_MODE.match(label) and (parent is not None or current.choices):
            if parent is None:
                mode_parts += 1   # a part of the choice's own counts above it
            elif vocab.TOTAL_MODE.match(label):
                names[i] = parent.name
                parent.total = True
                current.choices.append(i)
            else:
                parent.modes.append((i, label))
            continue
        current.choices.append(i)
    if parent is not None:
        _close(parent, current, untotalled_rows)
    blocks = [b for b in blocks if b.choices]
    both: list[int] = []
    if down:
        # The sheet sets a wrapped name's counts on its last line (a name's first part alone
        # under a title shows it): every fragment is then the first part of the name below
        # it, not the rest of the one above. One with no name below it (a block's last row)
        # would say the other way: the sheet wraps both ways, and no reading is sure.
        chosen = {i for b in blocks for i in b.choices}
        for named, (k, rest) in list(wraps.items()):
            del wraps[named]
            if k + 1 in chosen:
                down[k + 1] = (k, rest)
            else:
                both.append(k)
    down.update(down_named)
    return _Layout(headers, blocks, stats_rows, orphan_rows, title_rows, wraps, blank_rows,
                   untotalled, names, mode_parts, untotalled_rows, down, both, unsure,
                   parties)


def _fragment(label: str) -> bool:
    """A word or three of a name, no office or ballot-question word, no number."""
    return bool(_NAME_LINE.match(label)) and not vocab.CONTEST_WORD.search(label) and \
        vocab.choice_kind(label) == "candidate"


def _counted_name(rows: list[list[str]], k: int, lc: int, h: _Header) -> bool:
    """Whether row ``k`` is a choice's row: a label and counts."""
    return k < len(rows) and lc < len(rows[k]) and bool(rows[k][lc].strip()) and \
        _has_counts(rows[k], h)


@dataclass
class _Parent:
    """A choice's name on a row of its own, its votes by mode in the rows below it."""

    row: int
    name: str
    modes: list[tuple[int, str]] = field(default_factory=list)   # (row, mode)
    total: bool = False


def _close(parent: _Parent, block: _Block | None,
           untotalled: list[tuple[int, str, list[str]]]) -> None:
    """A choice whose modes have no 'Total' row is refused when the sheet is read; its block
    keeps a row so that the sheet is still told to be this layout (and the refusal says
    why)."""
    if parent.total or not parent.modes:
        return
    untotalled.append((parent.row, parent.name, [m for _, m in parent.modes]))
    if block is not None and not block.choices:
        block.choices.append(parent.modes[0][0])


def _modes_below(rows: list[list[str]], k: int, lc: int, h: _Header) -> bool:
    """Whether row ``k`` is a row of a choice's votes by one way of casting them ('Mail')."""
    if k >= len(rows) or lc >= len(rows[k]):
        return False
    label = _clean(rows[k][lc])
    return bool(vocab.VOTE_MODE.match(label)) and _has_counts(rows[k], h)


# The end of a line of a name that goes on below ('Joseph R. Biden /', 'Kanye West and').
_JOINER = re.compile(r"(/|&|,|-|\band)\s*$", re.IGNORECASE)


def _whole_name(label: str) -> bool:
    """A label that could be a candidate's whole name on its own, its party aside: two words
    or more of a name ('Tommy Williams', 'Tommy Williams (IAP)'; not 'McMullin', not
    'Hansen')."""
    name = grid.choice_party(label)[0].strip()
    return bool(_NAME_LINE.match(name)) and len(name.split()) >= 2 and \
        vocab.choice_kind(name) == "candidate" and vocab.party_of(name) is None


def _split_by_modes(rows: list[list[str]], h: _Header, width: int,
                    untotalled: list[tuple[int, str, list[int], list[str]]]) -> int | None:
    """A row of vote modes under the header ('Mail', 'Election Day', 'Total' under each
    precinct, the precinct's name over the first): each precinct is read from its 'Total'
    column alone, the modes' columns left out (they are its parts). A precinct whose modes
    have no 'Total' is put in ``untotalled``: their sum is not assumed to be the total (a
    file's modes may leave votes out). The mode row's index, or None when there is none."""
    k = h.row + 1
    while k < len(rows) and not any(c.strip() for c in rows[k]):
        k += 1
    if k >= len(rows) or k > h.row + 2:
        return None
    sub = rows[k]
    label = _clean(sub[h.label_col]) if h.label_col < len(sub) else ""
    cells = {j: _clean(c) for j, c in enumerate(sub) if j > h.label_col and c.strip()}
    if (label and not _HEADER_WORD.match(label)) or len(cells) < 2 or \
            not all(vocab.VOTE_MODE.match(c) for c in cells.values()) or \
            set(cells) <= set(h.precincts) | set(h.total_cols):
        return None
    named = set(h.precincts) | set(h.total_cols) | set(h.ignored) | \
        ({h.party_col} if h.party_col is not None else set())
    precincts: dict[int, str] = {}
    parts: set[int] = set()
    for j, name in h.precincts.items():
        span = [j]
        while span[-1] + 1 < width and span[-1] + 1 not in named and span[-1] + 1 in cells:
            span.append(span[-1] + 1)
        modes = [cells[c] for c in span if c in cells]
        total = [c for c in span if c in cells and vocab.TOTAL_MODE.match(cells[c])]
        if total:
            precincts[total[0]] = name
        elif modes:
            untotalled.append((h.row, name, span, modes))
            precincts[j] = name
        else:
            precincts[j] = name
        parts.update(c for c in span if c not in precincts)
    h.precincts = precincts
    h.unheaded = [j for j in h.unheaded if j not in parts and j not in precincts]
    h.mode_row = k
    return k


_NAME_LINE = re.compile(r"^[^\W\d_][\w.'’-]*(\s+[^\W\d_][\w.'’-]*){0,2}$")


def _wrapped(label: str, rows: list[list[str]], after: int, lc: int, h: _Header) -> bool:
    """Whether a label-only row right under a choice's row is the rest of that choice's
    name, not the next contest's title: a word or three of a name (no office or ballot
    question word, no number), followed at once by another choice's row with counts, or by
    a blank row or the end (a title is followed by its choices)."""
    if not _NAME_LINE.match(label) or vocab.CONTEST_WORD.search(label) or \
            vocab.choice_kind(label) != "candidate":
        return False
    return _choice_or_end(rows, after, lc, h)


def _choice_or_end(rows: list[list[str]], at: int, lc: int, h: _Header) -> bool:
    """Whether row ``at`` is another choice's row with counts, or a blank row or the end
    (what follows a line of a choice; a title is followed by its choices)."""
    if at >= len(rows) or not any(c.strip() for c in rows[at]):
        return True
    nxt = rows[at]
    return bool(lc < len(nxt) and nxt[lc].strip() and _has_counts(nxt, h))


def _classify_unheaded(rows: list[list[str]], lay: _Layout) -> dict[int, dict[int, str]]:
    """Per header row: unheaded column -> 'total' | 'percent' | 'party' | 'unknown'."""
    out: dict[int, dict[int, str]] = {}
    for h in lay.headers:
        choice_rows = [i for b in lay.blocks if b.header is h for i in b.choices]
        kinds: dict[int, str] = {}
        for j in h.unheaded:
            vals = [(i, rows[i][j].strip()) for i in choice_rows
                    if j < len(rows[i]) and rows[i][j].strip()]
            if not vals:
                continue
            if all(_PARTY_CODE.match(v) for _, v in vals):
                kinds[j] = "party"
                continue
            if all(_is_fraction(v) for _, v in vals) and any(
                    "%" in v or to_int(v) is None for _, v in vals):
                kinds[j] = "percent"
                continue
            agree = 0
            for i, v in vals:
                total = to_int(v)
                counts = [to_int(rows[i][p]) for p in h.precincts if p < len(rows[i])]
                if total is not None and total == sum(c for c in counts if c is not None):
                    agree += 1
            kinds[j] = "total" if agree >= max(1, 0.8 * len(vals)) else "unknown"
        out[h.row] = kinds
    return out


# --- Ballot-record lists (not a canvass) -------------------------------------------------


def _ballot_list(rows: list[list[str]]) -> tuple[int, int] | None:
    """(header row, number of ballot records) when the sheet lists ballots, not counts."""
    for i, r in enumerate(rows[:_SCAN_ROWS]):
        cells = [_clean(c) for c in r if c.strip()]
        if not cells or not _BALLOT_LIST_HEAD.match(cells[0]):
            continue
        if not any(_BALLOT_LIST_OTHER.match(c) for c in cells[1:]):
            continue
        n = 0
        for r2 in rows[i + 1:]:
            first = _clean(r2[0]) if r2 else ""
            if first and not first.lower().startswith("total"):
                n += 1
        return i, n
    return None


def _ballot_list_failure(path: Path, sheet: str | None, where: tuple[int, int]
                         ) -> ImportFailed:
    row, n = where
    return fail(path, "Recount Desk does not recognise this layout as a canvass: it is a list of "
                f"{n:,} ballot records (cast vote record numbers with their batch and tabulator) "
                "and holds no vote counts, so export the precinct-level results (the Statement "
                "of Votes Cast) from the election system as XLSX or CSV instead.",
                sheet=sheet or None, row=row + 1)


# --- detect / read -----------------------------------------------------------------------


@detector("xlsx", "xls", "ods", "csv")
def detect(path: Path, kind: str) -> Detection | None:
    ballot_list: Detection | None = None
    for sheet, rows in sheets(path, kind, limit=4, nrows=_DETECT_ROWS):
        where = f"sheet {sheet!r}, " if sheet else ""
        lay = _layout(rows)
        if lay is not None and _plausible(rows, lay, 2) and not stacked.tables_in(rows):
            h = lay.headers[0]
            names = list(h.precincts.values())
            titles = [b.title for b in lay.blocks[:3]]
            conf = 75 if len(lay.blocks) >= 3 and len(names) >= 3 else 60
            return Detection(
                FAMILY, LABEL, conf,
                f"{where}row {h.row + 1}: {len(names)} precinct columns ({names[0]} … "
                f"{names[-1]}) and contests stacked down ({', '.join(titles)}, …)")
        bl = _ballot_list(rows)
        if bl is not None and ballot_list is None:
            ballot_list = Detection(
                FAMILY, BALLOT_LIST_LABEL, 10,
                f"{where}row {bl[0] + 1}: a list of {bl[1]:,} ballot records (cast vote "
                "record, batch, tabulator) with no vote counts")
    return ballot_list


def read(path: Path, options: ReadOptions | None = None) -> RawCanvass:
    """Read one sheet of a sideways county workbook (precincts across, contests down)."""
    options = options or ReadOptions()
    kind, _all, names = grid.open_sheets(path, options.sheet)
    result: RawCanvass | None = None
    read_from = ""
    readable: list[str] = []
    pages: list[str] = []
    first_titles: list[str] = []
    first_precincts: set[str] = set()
    ballot_list: tuple[str, tuple[int, int]] | None = None
    for sheet, rows in sheets(path, kind, names=names, options=options):
        lay = _layout(rows, options)
        if lay is None or not _plausible(rows, lay, 1) or stacked.tables_in(rows):
            # (contests stacked down, a table each: read sideways, every candidate would be
            # a precinct and every precinct a candidate)
            bl = _ballot_list(rows)
            if bl is not None and ballot_list is None:
                ballot_list = (sheet, bl)
            continue
        if result is None:
            result, read_from, first_titles = _read_sheet(path, sheet, rows, lay), sheet, \
                lay.title_rows
            first_precincts = {p for h in lay.headers for p in h.precincts.values()}
        elif grid.PAGE_SHEET.match(read_from) and grid.PAGE_SHEET.match(sheet) and \
                lay.title_rows == first_titles and not first_precincts & {
                    p for h in lay.headers for p in h.precincts.values()}:
            # 'Page 1', 'Page 2' … of a PDF conversion: one report's precincts, page by page.
            grid.merge(result, _read_sheet(path, sheet, rows, lay))
            first_precincts |= {p for h in lay.headers for p in h.precincts.values()}
            pages.append(sheet)
            continue
        readable.append(sheet)
    if pages and result is not None:
        result.issues.insert(0, Issue(
            path.name, f"Sheets {read_from!r}, " + ", ".join(repr(s) for s in pages) + " are "
            "read as the pages of one report (a PDF conversion): the same title, other "
            "precincts.", read_from, severity=Severity.NOTE))
    if result is None:
        if ballot_list is not None:
            raise _ballot_list_failure(path, *ballot_list)
        raise fail(path, "No sheet has precinct names across a header row with contests stacked "
                   "below (a title row, then one row per choice), so this workbook cannot be "
                   "read as a sideways canvass. Use the column mapping to say where the "
                   "precincts, contests and choices are.", sheet=options.sheet)
    if options.sheet is None:
        grid.other_sheets(result.issues, path.name, result.sheet,
                          [s for s in readable if s != read_from])
    return result


def _read_sheet(path: Path, sheet: str, rows: list[list[str]], lay: _Layout) -> RawCanvass:
    if lay.untotalled:
        hrow, name, span, modes = lay.untotalled[0]
        more = len({p for _, p, _, _ in lay.untotalled}) - 1
        raise fail(path, f"The columns {col_letter(span[0])}–{col_letter(span[-1])} under "
                   f"precinct {name!r} hold its votes by how they were cast ("
                   + ", ".join(repr(m) for m in modes) + ") with no 'Total' column"
                   + (f" (and so do {more} more precincts)" if more > 0 else "")
                   + "; their sum is not assumed to be the total (a file's modes may leave "
                   "votes out). Add each precinct's total column, or export the totals, and "
                   "import again.", sheet=sheet or None, row=hrow + 2,
                   column=col_letter(span[0]))
    if lay.untotalled_rows:
        i, name, modes = lay.untotalled_rows[0]
        more = len(lay.untotalled_rows) - 1
        raise fail(path, f"The rows under {name!r} (row {i + 1}) hold its votes by how they "
                   "were cast (" + ", ".join(repr(m) for m in modes) + ") with no 'Total' row"
                   + (f" (and so do {more} more choices)" if more > 0 else "")
                   + "; their sum is not assumed to be the total (a file's modes may leave "
                   "votes out). Add each choice's total row, or export the totals, and import "
                   "again.", sheet=sheet or None, row=i + 1,
                   column=col_letter(lay.headers[0].label_col))
    log = IssueLog(path.name, sheet or None)
    mode_row = next((h.mode_row for h in lay.headers if h.mode_row is not None), None)
    if mode_row is not None:
        log.note(f"Each precinct's columns are split by how the votes were cast (row "
                 f"{mode_row + 1}): its 'Total' column is read, the others are its parts.",
                 row=mode_row + 1)
    if lay.names:
        log.note(f"{len(lay.names)} choice(s) have their votes by how they were cast in rows "
                 "under their name: each one's 'Total' row is read, the others are its parts.")
    if lay.mode_parts:
        log.note(f"{lay.mode_parts} row(s) under a choice's counts give them by how they were "
                 "cast ('Mail', 'Election Day'): left out, as parts of the counts above them.")
    for i in lay.both_ways[:5]:
        log.error(f"Row {i + 1} ({_clean(rows[i][lay.headers[0].label_col])!r}) is part of a "
                  "name, but the sheet sets other names' counts on their last line and this "
                  "one has no name below it: which name it belongs to cannot be told. Put "
                  "each name on one row, and import again.", row=i + 1,
                  column=col_letter(lay.headers[0].label_col))
    for i, part, name_above, next_name, title in lay.unsure[:5]:
        if next_name is not None and not grid.ends_with_party(name_above):
            why = (f"it may be the rest of the name above it ({name_above + ' ' + part!r}) or "
                   f"the first part of the name below it ({part + ' ' + next_name!r}); the "
                   "file does not say which")
        else:
            why = (f"it is not the rest of the name above it ({name_above!r} ends with its "
                   "party)" + (", nor is there a name below it" if next_name is None else
                               ", nor plainly the first part of the name below it "
                               f"({next_name!r} is a whole name)")
                   + ": it may be a candidate whose counts were left blank")
        log.error(f"Row {i + 1} ({part!r}, in {title!r}) holds no counts and is part of a "
                  f"name, but {why}. Put each name on one row (and type a candidate's counts, "
                  "0 where it had none), and import again.", row=i + 1,
                  column=col_letter(lay.headers[0].label_col))
    if len(lay.unsure) > 5:
        log.error(f"… {len(lay.unsure) - 5} more rows are parts of names that cannot be told "
                  "apart.")
    for i, label, above, title in lay.blank_rows:
        if above:
            why = ("it may be a candidate whose counts were left blank, or the rest of the name "
                   f"above it ({above + ' ' + label!r}); the file does not say which. Type its "
                   "counts (0 where it had none), or put the whole name on one row")
        else:
            why = ("it is not the contest's title (choices follow it)" if above is None else
                   "it names a party, as no contest's title does") + (
                ": it is probably a candidate whose counts were left blank. Type its counts "
                "(0 where it had none)")
        log.error(f"Row {i + 1} ({label!r}, in {title!r}) names a choice but has no counts: "
                  f"{why}, and import again.", row=i + 1,
                  column=col_letter(lay.headers[0].label_col))
    tally = grid.Tally(log)
    unheaded = _classify_unheaded(rows, lay)

    for h in lay.headers:
        # Columns left out that another reader might have taken for precincts (a turnout,
        # registered voters): said. (A share of the votes, '%', or unheaded, goes unsaid.)
        named = [j for j in h.ignored if j < len(rows[h.row]) and rows[h.row][j].strip()
                 and not _PERCENT_HEAD.match(rows[h.row][j].strip())]
        if named:
            log.note("Column(s) " + ", ".join(f"{col_letter(j)} ({rows[h.row][j].strip()!r})"
                                              for j in named)
                     + f" of the header row {h.row + 1} hold percentages or statistics, not "
                     "a precinct's votes: left out.", row=h.row + 1,
                     column=col_letter(named[0]))
        for j, what in unheaded.get(h.row, {}).items():
            if what == "unknown":
                log.warn(f"Column {col_letter(j)} holds counts but has no precinct name in "
                         f"the header row {h.row + 1}, and it is not the sum of the precincts; "
                         "it was left out.", row=h.row + 1, column=col_letter(j))

    got = grid.Counted()
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    seats: dict[tuple[str, str, str], int] = {}
    # Excel error values and formulas never calculated, which calamine reads as blanks.
    errors = excel_error_cells(path, sheet) if sniff(path) == "xlsx" else {}
    # Contest key -> precincts already read, to tell a continued contest from a second one.
    seen: dict[tuple[str, str, str], set[str]] = {}
    for b in lay.blocks:
        h = b.header
        kinds = unheaded.get(h.row, {})
        total_cols = h.total_cols + [j for j, k in kinds.items() if k == "total"]
        party_cols = ([h.party_col] if h.party_col is not None else []) + \
            [j for j, k in kinds.items() if k == "party"]
        contest, cparty, title_seats = grid.split_title(b.title)
        base = (contest, "", cparty)
        precincts_here = set(h.precincts.values())
        key = base
        n = 1
        while key in seen and seen[key] & precincts_here:
            n += 1
            key = (f"{contest} ({n})", "", cparty)
        if n > 1 and key not in seen:
            log.warn(f"The contest title {contest!r} appears again at row {b.title_row + 1} "
                     f"for the same precincts; it is read as another contest {key[0]!r}.",
                     row=b.title_row + 1, column=col_letter(h.label_col))
        seen.setdefault(key, set()).update(precincts_here)
        n_seats = b.seats or title_seats
        if n_seats:
            seats[key] = n_seats
        title, _district, party = key
        choices: list[grid.Choice] = []
        lines: list[int] = []
        for i in b.choices:
            r = rows[i]
            label = lay.names.get(i) or _clean(r[h.label_col])
            if i in lay.down:
                at, first = lay.down[i]
                log.repeated("wrapped", f"Row {at + 1} ({first!r}) is read as the first "
                             f"part of the name below it ({first + ' ' + label!r}).",
                             Severity.NOTE, cap=3, row=at + 1,
                             column=col_letter(h.label_col), more="names read from two rows")
                label = f"{first} {label}"
            if i in lay.wraps:
                below, rest = lay.wraps[i]
                log.repeated("wrapped", f"Row {below + 1} ({rest!r}) is read as the rest of "
                             f"the name above it ({label + ' ' + rest!r}).", Severity.NOTE,
                             cap=3, row=below + 1, column=col_letter(h.label_col),
                             more="names read from two rows")
                label = f"{label} {rest}"
            if vocab.is_non_contest_office(label) or _MORE_STATS.match(label):
                continue
            k = grid.choice_kind(label)
            if k is None:
                continue  # a sum of other rows ('Total Votes')
            choice, chparty = grid.choice_party(label)
            if i in lay.parties:
                below, word, chparty = lay.parties[i]
                log.repeated("party below", f"Row {below + 1} ({word!r}) is read as the party "
                             f"of the choice above it ({choice!r}).", Severity.NOTE, cap=3,
                             row=below + 1, column=col_letter(h.label_col),
                             more="parties read from the row under the name")
            if k in ("over", "under", "blank"):
                chparty = ""
            for pc in party_cols:
                if pc < len(r) and r[pc].strip():
                    m = _PARTY_CODE.match(r[pc].strip())
                    if m:
                        chparty = m.group(1).upper()
            for j in total_cols:
                v = to_int(r[j]) if j < len(r) else None
                if v is not None:
                    tot = file_totals.setdefault(key, {})
                    tot[choice] = tot.get(choice, 0) + v
            choices.append((title, "", party, choice, chparty, k))
            lines.append(i)
        settled = grid.settle_write_in_totals([(0, ch[5]) for ch in choices])
        for ch, k in zip(choices, settled, strict=True):
            if k is None:  # (the named write-ins' sum: not in the file's totals either)
                file_totals.get(key, {}).pop(ch[3], None)
        choices = [(*ch[:5], k) for ch, k in zip(choices, settled, strict=True) if k is not None]
        lines = [i for i, k in zip(lines, settled, strict=True) if k is not None]
        cells, where, error = grid.block_cells(rows, lines, list(h.precincts), errors,
                                               precincts_across=True)
        got.add(grid.count(
            cells, choices, list(h.precincts.values()), where, tally, suppress="cell",
            by_column=True, message=lambda what, ch, p: (
                f"The vote count for {ch!r} in precinct {p!r} is {what}, not a whole number; "
                "it is read as 0."),
            error=error))
    got.note_left_out(log)
    tally.close()
    if got.suppressed_cells:
        log.note(f"{got.suppressed_cells} precinct count(s) are suppressed for voter privacy; "
                 "the file's totals are used for those contests.")
    lc = lay.headers[0].label_col

    def orphan(i: int) -> None:
        label = _clean(rows[i][lc]) if lc < len(rows[i]) else ""
        what = f"{label!r} has counts" if label else "It has counts but no name"
        log.warn(f"Row {i + 1}: {what} but no contest title above it; it was left out.",
                 row=i + 1, column=col_letter(lc))
    grid.some(log, lay.orphan_rows, orphan, "rows with counts outside any contest were left out")
    primary = grid.primary_of(" ".join(lay.title_rows), any(r[3] for r in got.rows))
    return RawCanvass(log.file, FAMILY, frame(got.rows), log.close(), seats, file_totals,
                      got.suppressed,
                      primary, election_name=lay.title_rows[0] if lay.title_rows else None,
                      sheet=log.sheet)
