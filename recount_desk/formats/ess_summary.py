"""Reads the Electionware "Summary Results Report" exported as CSV: stacked blocks per precinct.

Each printed page starts with ``Summary Results Report … OFFICIAL RESULTS``, the election
name and the date/county line, then the precinct's name. A ``STATISTICS`` block (registered
voters, ballots cast, turnout) is followed by contests: the title, ``Vote For N`` (the seats),
a column header (``TOTAL`` and any vote-mode columns such as ``Election Day``, ``By Mail``)
and one line per choice, then the summary lines ``Write-In Totals``, ``Total Votes Cast``,
``Overvotes``, ``Undervotes``, ``Contest Totals``. Page footers (``Precinct Summary - date …
n of N``, ``Report generated with Electionware``) are skipped. The columns drift from page to
page, so a count is the number under ``TOTAL`` when the line has one number per column, else
the first number (Electionware prints ``TOTAL`` first). Where the vote-mode columns are there
they must add up to ``TOTAL``, and each contest's choices must add up to its ``Total Votes
Cast`` line: both are checked. A report without precinct names (county summary) is read as
one unit; a ``Cumulative`` or ``Total`` section is the file's own totals.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from recount_desk.core.model import Severity

from . import blocks, vocab
from .base import Cancelled, CodedRawCanvass, Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog, Located, Source
from .stages import coded_rows, cut_in_the_last_precinct, detector, head_rows, staged_read
from .tabular import read_csv_rows

FAMILY = "ess_summary"
LABEL = "Electionware Summary Results Report (CSV)"

_NUM = re.compile(r"^-?\d{1,3}(,\d{3})*$|^-?\d+$")
_PCT = re.compile(r"^-?\d+(\.\d+)?\s*%$")
_FOOTER = re.compile(r"^(report generated with|(precinct\s+)?summary\s*-\s*\d|cumulative\s*-\s*\d|"
                     r"page\s+\d+)", re.IGNORECASE)
_STATISTICS = re.compile(r"^statistics$", re.IGNORECASE)
_PCT_WORD = re.compile(r"^(vot(e|es)?\s*%|%|percent(age)?|pct)$", re.IGNORECASE)


@functools.lru_cache(maxsize=1 << 14)  # (asked of every line of words of a report)
def _mode_word(text: str) -> bool:
    return bool(vocab.VOTE_MODE.match(text) or _PCT_WORD.match(text))


_TOTAL_VOTES = re.compile(r"^\s*total\s+votes(\s+cast)?\s*$", re.IGNORECASE)
# Cells that are not data: the end-of-file mark some exports leave behind.
_JUNK = re.compile(r"^(\x1a|_x001a_)+$", re.IGNORECASE)
def _first_text(rows: list[list[str]]) -> str:
    """The first non-empty cell of the first non-empty row."""
    return next((c.strip() for r in rows for c in r if c.strip()), "")


@detector("csv")
def detect(path: Path, kind: str) -> Detection | None:
    rows = head_rows(path, kind, nrows=60)
    if not _first_text(rows).lower().startswith("summary results report"):
        return None
    vote_for = any(vocab.seats_in(c) for r in rows for c in r[:3] if c)
    return Detection(FAMILY, LABEL, 96 if vote_for else 80,
                     "'Summary Results Report' page header" + (" and 'Vote For N'" if vote_for
                                                               else ""))


_SKIP, _COUNT, _PERCENT, _TEXT = range(4)


@functools.lru_cache(maxsize=1 << 16)
def _cell(c: str) -> tuple[int, int]:
    """What one cell is (a report repeats its counts and words): (what, count)."""
    if not c or _JUNK.match(c):
        return _SKIP, 0
    if _NUM.match(c):
        return _COUNT, int(c.replace(",", ""))
    return (_PERCENT, 0) if _PCT.match(c) else (_TEXT, 0)


def _line(cells: list[str]) -> tuple[str, list[int], list[str], bool]:
    """(label, numbers, other texts, whether it holds words only) of one line; percentages
    are left out (a line of nothing has no label, numbers or texts)."""
    label = ""
    nums: list[int] = []
    texts: list[str] = []
    words_only = True
    for c in cells:
        c = c.strip()
        if not c:  # (most cells of a report: not asked)
            continue
        what, v = _cell(c)
        if what == _SKIP:
            continue
        if what != _TEXT:
            words_only = False
        if what == _PERCENT:
            continue
        if what == _COUNT:
            if label or texts:
                nums.append(v)
            else:
                texts.append(c)
        elif not label:
            label = c
        else:
            texts.append(c)
    return label, nums, texts, words_only


@functools.lru_cache(maxsize=1 << 14)
def _label(label: str) -> tuple[bool, bool, bool, bool, int | None, str, bool, str | None]:
    """What the walk asks of a line's label, asked once per distinct label: (a page header,
    a footer, the statistics block, a 'Vote For' line, its seats, the label cleaned, a
    'Total Votes Cast' line, the kind of choice it names)."""
    low = label.lower()
    vote_for = low.startswith("vote for")
    clean = vocab.clean_name(label)
    kind = vocab.choice_kind(clean)
    if kind is None and re.search(r"write", label, re.IGNORECASE):
        kind = "write_in_total"
    return (low.startswith("summary results report"), bool(_FOOTER.match(label)),
            bool(_STATISTICS.match(label)), vote_for,
            vocab.seats_in(label) if vote_for else None, clean,
            bool(_TOTAL_VOTES.match(clean)), kind)


def _only_cell(cells: list[str]) -> str | None:
    """The one non-empty cell of a line (a precinct name, which may be all digits), else None."""
    stripped = [c.strip() for c in cells]
    ne = [c for c in stripped if c and not _JUNK.match(c)]
    return ne[0] if len(ne) == 1 and not _PCT.match(ne[0]) else None


def locate(source: Source, options: ReadOptions) -> Located:
    """The report's lines that hold something, each with its row."""
    # (the cells as they stand, the same lines in one list: each distinct line's cells are
    # stripped where it is taken apart)
    rows, note = read_csv_rows(source.path, strip=False, shared=True)
    log = IssueLog(source.name)
    if note:
        log.warn(note)
    if not _first_text(rows).lower().startswith("summary results report"):
        raise fail(source.path, "This is not an Electionware 'Summary Results Report' CSV (the "
                   "first line should start with 'Summary Results Report').", row=1)
    # Each distinct line taken apart and told what it is once (a report repeats its headers
    # and many a count; the walk looks one or two lines ahead); empty ones left out.
    # (by the line's list of cells: the same lines share one, and every row is alive here)
    seen: dict[int, _Facts | None] = {}
    lines = []
    facts = []  # what each line is (_facts)
    for i, r in enumerate(rows):
        key = id(r)
        if key in seen:
            got = seen[key]
        else:
            got = seen[key] = _facts(r)
        if got is not None:
            lines.append((i + 1, r))
            facts.append(got)
    return Located(source, rows, log, facts={"lines": lines, "facts": facts})


# What the walk asks of a line, asked once per distinct line: (label, numbers, other texts,
# whether it holds some text and only text, a 'Vote For N' line, a page header, a page
# footer, the statistics block, a 'Vote For' line, the label cleaned, a 'Total Votes Cast'
# line, the kind of choice it names, the column header it is (None if none)).
_Facts = tuple[str, list[int], list[str], bool, bool, bool, bool, bool, bool, str, bool,
               str | None, list[str] | None]


def _facts(cells: list[str]) -> _Facts | None:
    """What one line is (:data:`_Facts`); None for a line of nothing."""
    label, nums, texts, words_only = _line(cells)
    if not (label or nums or texts or not words_only):
        return None
    page, footer, stats, vote_for, seats, clean, total_votes, kind = _label(label)
    header = None
    if label and not nums:
        words = (label, *texts)
        if any(t.upper() == "TOTAL" for t in words) or all(_mode_word(t) for t in words):
            header = [vocab.clean_name(t).upper() for t in words if not _PCT_WORD.match(t)]
    return (label, nums, texts, bool(label or texts) and words_only,
            vote_for and seats is not None, page,
            footer or bool(texts and texts[-1].lower().startswith("of ")), stats, vote_for,
            clean, total_votes, kind, header)


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """The walk down the lines (page headers, statistics, contest titles and their Vote For
    line, column headers, choice lines), then write-in totals, invalid write-ins, the
    Cumulative section as the file's totals and party prefixes."""

    path, name, log = located.source.path, located.source.name, located.log
    lines: list[tuple[int, list[str]]] = located.facts["lines"]  # (row, cells)
    election_name: str | None = None
    election_date: str | None = None
    primary: bool | None = None
    county = ""
    precinct = ""
    saw_precinct = False
    contest: str | None = None
    skip_contest = False
    header: list[str] = []
    in_stats = False
    # precinct, contest, choice, kind, votes, row
    recs: list[tuple[str, str, str, str, int, int]] = []
    tvc: dict[tuple[str, str], tuple[int, int]] = {}   # (precinct, contest) -> (votes, row)
    seats: dict[str, int] = {}
    mode_bad: list[tuple[int, str, int, int]] = []
    n = len(lines)
    i = 0
    facts: list[_Facts] = located.facts["facts"]
    # (each line's facts in lists by what is asked of the lines ahead)
    vote_for_at = [f[4] for f in facts] + [False, False]
    text_only_at = [f[3] for f in facts] + [False, False]

    while i < n:
        if i % 5000 == 0:
            options.on_progress(i, n)
            if options.cancelled():
                raise Cancelled()
        (label, nums, texts, texts_only, _, page, footer, stats, vote_for, clean, total_votes,
         kind, line_header) = facts[i]
        rowno = lines[i][0]
        if page:
            # Page header: election name, then the date and county line, then the precinct.
            if i + 1 < n and election_name is None:
                election_name = facts[i + 1][0] or None
                if election_name:
                    if "primary" in election_name.lower():
                        primary = True
                    elif "general" in election_name.lower():
                        primary = False
            if i + 2 < n:
                date_line = [c for c in (x.strip() for x in lines[i + 2][1]) if c]
                if date_line and election_date is None:
                    election_date = vocab.date_in(date_line[0])
                if len(date_line) > 1:
                    county = date_line[-1]
            i += 3
            if i < n:
                pname = _only_cell(lines[i][1])
                if pname and not _STATISTICS.match(pname) and not vote_for_at[i + 1] and \
                        not _mode_word(pname) and \
                        not re.match(r"report generated with", pname, re.IGNORECASE):
                    # (A precinct may well be called 'Page 4': no other footer test here.)
                    pname = vocab.clean_name(pname)
                    if pname != precinct:
                        contest = None
                        in_stats = False
                    precinct = pname
                    saw_precinct = True
                    i += 1
            continue
        if footer:
            i += 1
            continue
        if stats:
            in_stats, contest = True, None
            i += 1
            continue
        if vote_for:
            i += 1
            continue
        title_lines = 0
        if label and not nums and vote_for_at[i + 1]:
            title_lines = 1
        elif texts_only and text_only_at[i + 1] and vote_for_at[i + 2] and \
                vocab.choice_kind(label) == "candidate" and \
                not vocab.is_non_contest_office(label) and \
                not any(t.upper() == "TOTAL" for t in texts):
            # A long title wrapped onto two lines.
            title_lines = 2
        if title_lines:
            parts = [facts[i + k] for k in range(title_lines)]
            contest = vocab.clean_name(" ".join(" ".join([p[0], *p[2]]) for p in parts))
            in_stats = False
            skip_contest = vocab.is_non_contest_office(contest)
            s = vocab.seats_in(facts[i + title_lines][0]) if i + title_lines < n else None
            if s is not None and not skip_contest:
                seats[contest] = s
            header = []
            i += title_lines + 1
            continue
        if line_header is not None:
            header = line_header
            i += 1
            continue
        if in_stats:
            i += 1
            continue
        if contest is None:
            if nums:
                log.repeated("stray", f"The line {label!r} has counts but belongs to no "
                             "contest; it is left out.", Severity.WARNING, cap=5, row=rowno,
                             more="lines with counts that belong to no contest")
            i += 1
            continue
        if skip_contest:
            i += 1
            continue
        if not nums:
            log.error(f"In {contest!r} ({precinct or county}), the line {label!r} has no vote "
                      "count; it is left out.", row=rowno)
            i += 1
            continue
        if "TOTAL" in header and len(nums) == len(header):
            at = header.index("TOTAL")
            v = nums[at]
            if len(nums) > 1 and sum(nums) - v != v:
                mode_bad.append((rowno, label, v, sum(nums) - v))
        elif len(nums) == 1 or not header or header[0] == "TOTAL":
            v = nums[0]
        else:
            log.error(f"In {contest!r} ({precinct or county}), the line {label!r} has "
                      f"{len(nums)} numbers under the {len(header)} columns "
                      f"{', '.join(header)}, so its TOTAL cannot be told; it is left out.",
                      row=rowno)
            i += 1
            continue
        if total_votes:
            tvc[(precinct, contest)] = (v, rowno)
        if kind is not None:
            recs.append((precinct, contest, clean, kind, v, rowno))
        i += 1
    options.on_progress(n, n)

    if saw_precinct and (cut := cut_in_the_last_precinct(
            [(r[0], r[1], r[2]) for r in recs if r[3] in ("candidate", "write_in")
             and not vocab.is_total_precinct(r[0])])) is not None:
        last = next(r[5] for r in reversed(recs) if r[0] == cut[0])
        log.error(f"The file seems cut short: its last precinct, {cut[0]!r}, lists {cut[1]}, "
                  "so the lines after it are probably missing (a copy or download stopped "
                  "part-way). Export the report again and import that copy.", row=last)
    if mode_bad:
        r0, lab0, tot0, parts0 = mode_bad[0]
        log.warn(f"{len(mode_bad)} line(s) whose vote-mode columns do not add up to their "
                 f"TOTAL (first: {lab0!r}, TOTAL {tot0:,}, the modes add up to {parts0:,}); the "
                 "TOTAL column is used.", row=r0)
    if not recs:
        first_error = next((x for x in log.issues if x.severity is Severity.ERROR), None)
        if first_error is not None:
            raise fail(path, "No count could be read from this Summary Results Report; the "
                       f"first problem: {first_error.message}", row=first_error.row)
        raise fail(path, "No contest results were found in this Summary Results Report.")
    # (plain lists: a report's few thousand lines cost less so than a frame's operations)
    precincts = [r[0] for r in recs]
    contests = [r[1] for r in recs]
    choices = [r[2] for r in recs]
    kinds = [r[3] for r in recs]
    votes = [r[4] for r in recs]
    if not saw_precinct:
        unit = county or "County"
        precincts = [unit] * len(recs)
        tvc = {(unit, c): v for (_p, c), v in tvc.items()}
        log.warn("This report has no precinct breakdown (a county summary); the whole county "
                 f"is read as one unit ({unit!r}). Export the precinct-level report for a "
                 "recount.")
    # 'Write-In Totals' are the write-ins only where the block has no named write-in rows.
    named = {(p, c) for p, c, k in zip(precincts, contests, kinds, strict=True)
             if k == "write_in"}
    kinds = ["write_in" if k == "write_in_total" and (p, c) not in named else k
             for p, c, k in zip(precincts, contests, kinds, strict=True)]
    kept = [i for i, k in enumerate(kinds) if k != "write_in_total"]
    precincts, contests, choices, kinds = ([col[i] for i in kept] for col in (
        precincts, contests, choices, kinds))
    votes = [votes[i] for i in kept]
    void = [vocab.is_void_write_in(ch) for ch in choices]
    _check_total_votes_cast(precincts, contests, kinds, votes, void, tvc, log)
    blocks.void_note(log, sum(v for v, x in zip(votes, void, strict=True) if x))
    kept = [i for i, x in enumerate(void) if not x]
    precincts, contests, choices, kinds = ([col[i] for i in kept] for col in (
        precincts, contests, choices, kinds))
    votes = [votes[i] for i in kept]
    is_tot = [vocab.is_total_precinct(p) for p in precincts]
    party_of = {c: vocab.contest_party(c) for c in dict.fromkeys(contests)}
    cparty = [party_of[c] for c in contests]
    if primary is None and any(cp != "" for cp, t in zip(cparty, is_tot, strict=True)
                               if not t):
        primary = True
    # A 'REP MITT ROMNEY' choice in a general election: the prefix is the candidate's party.
    split = [vocab.split_party_prefix(c) if k == "candidate" and not primary else (c, "")
             for c, k in zip(choices, kinds, strict=True)]
    columns = {
        "precinct": precincts, "contest": contests, "district": "", "party": cparty,
        "choice": [c for c, _ in split], "choice_party": [p for _, p in split],
        "kind": kinds, "votes": votes}
    if all(is_tot):
        raise fail(path, "This Summary Results Report has only a totals section and no "
                   "precinct results.")
    blocks.multicounty(log, sorted({c for c, t in zip(contests, is_tot, strict=True)
                                    if not t}))
    seat_map = {(c, "", vocab.contest_party(c)): s for c, s in seats.items()}
    if any(is_tot):
        out, file_totals = blocks.raw_rows(columns, is_tot)
        return RawCanvass(name, FAMILY, out, log.close(), seat_map, file_totals, set(),
                          primary, election_name=election_name, election_date=election_date)
    # (what raw_rows gives without totals rows, held as codes: no frame is made)
    return CodedRawCanvass(name, FAMILY, None, log.close(), seat_map, {}, set(), primary,
                           election_name=election_name, election_date=election_date,
                           coded=coded_rows(columns))


read = staged_read(locate, map)


def _check_total_votes_cast(precincts: list[str], contests: list[str], kinds: list[str],
                            votes: list[int], void: list[bool],
                            tvc: dict[tuple[str, str], tuple[int, int]], log: IssueLog) -> None:
    """Each block's choices (with or without invalid write-ins) must add up to its 'Total Votes
    Cast' line; a block that does not is a warning naming the line."""
    if not tvc:
        return
    with_void: dict[tuple[str, str], int] = {}
    without: dict[tuple[str, str], int] = {}
    for p, c, k, v, x in zip(precincts, contests, kinds, votes, void, strict=True):
        if k in ("candidate", "write_in"):
            with_void[(p, c)] = with_void.get((p, c), 0) + v
            if not x:
                without[(p, c)] = without.get((p, c), 0) + v
    for (p, c), (v, r) in tvc.items():
        got = int(without.get((p, c), 0))
        if v not in (int(with_void.get((p, c), 0)), got):
            log.repeated("total votes cast", f"In {c!r} ({p}), the choices add up to {got:,} "
                         f"but the 'Total Votes Cast' line says {v:,}; a line may be missing or "
                         "garbled.", Severity.WARNING, cap=5, row=r, more="contests whose "
                         "choices do not add up to their 'Total Votes Cast'")
