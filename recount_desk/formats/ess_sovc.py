"""Reads the ES&S Electionware SOVC "EXPORT" (CSV or XLSX): three header rows, one row per precinct.

Row 1 holds ``COUNTY NUMBER, PRECINCT CODE, PRECINCT NAME``, statistics columns
(``REGISTERED VOTERS …``, ``BALLOTS CAST …``) and then each contest title repeated over its
choice columns; row 2 the party of each column; row 3 the choice names (often with a party
prefix, ``REP MIKE LEE``). The last data row is ``<county#>,ZZZ,COUNTY TOTALS``: the file's
own totals. Titles are not unique (two adjacent ``UT HOUSE`` contests), so a contest is a run
of columns: a new one starts when the title changes, when a choice name comes back, when a
candidate follows the ``OVER VOTES``/``UNDER VOTES``/``Write-in`` columns, in a primary when
row 2's party changes, or (with a warning) when the precincts that have votes in the rest of
the run share none with those before it. Two runs of one title are two contests (#1, #2 …),
unless they lie apart in the header with votes in the same precincts: then the file cannot
tell one contest with a column moved away from two contests of one title, and each gets an
error that withholds its verdict. Weber's
running mates sit in a column of their own with no votes; they are joined to the candidate.

The export states no vote-for count. Where a contest has ``OVER VOTES`` and ``UNDER VOTES``
columns, every ballot that holds it adds exactly its vote-for count to candidates + over +
under (Pima 2016: 2.0 × ballots cast for each two-seat STATE REPRESENTATIVE precinct), so a
whole-number ratio of 2 or more in some precinct is read as that many seats; without those
columns, more candidate votes than ballots cast in a precinct is reported (a one-seat
assumption would be wrong).

Copies that are not the export itself are read too, each with a note: a workbook with a short
cover sheet first, titles merged over their columns (written once), no party row (two header
rows), ``-`` for a contest not on a precinct's ballot, and accents garbled by a wrong encoding
(``JULIÃ\x81N`` for ``JULIÁN`` in the Utah County 2020 presidential primary workbook).
"""

from __future__ import annotations

import re
from operator import itemgetter
from pathlib import Path

from recount_desk.core.model import ContestKey, Issue, Remedy, Severity

from . import blocks, vocab
from .base import Cancelled, CodedRawCanvass, Detection, RawCanvass, ReadOptions, fail
from .pipeline import IssueLog, Located, Source
from .stages import blank_lead, detector, head_rows, lead_note, staged_read
from .tabular import col_letter, read_csv_rows, read_sheet_text, sheet_names

FAMILY = "ess_sovc"
LABEL = "ES&S Electionware SOVC export (three header rows)"

_STAT_TITLE = re.compile(r"^\s*(registered\s+voters|ballots\s+cast|voter\s+turnout|turnout)",
                         re.IGNORECASE)
_STAT_LABEL = {"VOTERS", "BALLOTS CAST", "TURNOUT"}
_RUNNING_MATE_TITLE = re.compile(r"president|governor", re.IGNORECASE)
_NO_PARTY = vocab.NO_PARTY
# 'BALLOTS CAST - DEM', 'REGISTERED VOTERS - Republican': a primary's per-party statistics.
_PARTY_STAT = re.compile(
    r"-\s*(republican|democratic|democrat|libertarian|constitution|green|united\s+utah|"
    r"independent\s+american|rep|dem|lib|con|grn|uup|iap)\b", re.IGNORECASE)
_BALLOTS_TOTAL = re.compile(r"^\s*ballots\s+cast\s*-?\s*total\s*$", re.IGNORECASE)


def _is_header(row: list[str]) -> bool:
    head = [vocab.clean_name(c).upper() for c in row[:3]]
    return len(head) == 3 and head[0] == "COUNTY NUMBER" and head[1] == "PRECINCT CODE" \
        and head[2] == "PRECINCT NAME"


@detector("csv", "xlsx", "xls", "ods")
def detect(path: Path, kind: str) -> Detection | None:
    if kind == "csv":
        rows = head_rows(path, kind, nrows=13)
        rows = rows[blank_lead(rows):][:3]  # (blank lines above the header passed over)
    else:
        # The export is usually the only sheet; a copy may put a cover, notes or a sheet
        # of chart data first (the first three sheets are looked at: a chart's data put
        # before the export was read as a long table of its ten contests).
        rows = []
        for s in sheet_names(path, kind)[:3]:
            rows = read_sheet_text(path, s, nrows=3)
            if rows and _is_header(rows[0]):
                break
    if not rows or not _is_header(rows[0]):
        return None
    conf = 97 if any(_has_stat_labels(r) for r in rows[1:3]) else 85
    return Detection(FAMILY, LABEL, conf,
                     "header COUNTY NUMBER, PRECINCT CODE, PRECINCT NAME with three header rows")


def _has_stat_labels(row: list[str]) -> bool:
    return any(vocab.clean_name(c).upper() in _STAT_LABEL for c in row[3:12])


def _unmangle(text: str) -> str:
    """'JULIÃ\\x81N CASTRO' -> 'JULIÁN CASTRO' when the text is UTF-8 read as Windows-1252."""
    if not vocab.MOJIBAKE.search(text):
        return text
    try:
        raw = bytes(ord(ch) if ord(ch) < 256 else ch.encode("cp1252")[0] for ch in text)
        return raw.decode("utf-8")
    except UnicodeError:
        return text


def locate(source: Source, options: ReadOptions) -> Located:
    """The sheet that starts with the SOVC header, and its header band (two or three rows)."""
    path, kind = source.path, source.kind
    log = IssueLog(source.name)
    sheet: str | None = None
    if kind == "csv":
        rows, note = read_csv_rows(path)
        if note:
            log.warn(note)
    elif kind in ("xlsx", "xls", "ods"):
        sheet, rows = blocks.find_sheet(path, kind, options.sheet,
                                        lambda rows: bool(rows) and _is_header(rows[0]))
        if sheet is None:
            raise fail(path, "No sheet starts with the SOVC header 'COUNTY NUMBER, PRECINCT "
                       "CODE, PRECINCT NAME'; export the SOVC again from Electionware.")
        others = [s for s in sheet_names(path, kind) if s != sheet]
        if others and options.sheet is None:
            log.note(f"Only the sheet {sheet!r} was read; the workbook also has "
                     f"{', '.join(repr(s) for s in others)} (choose another sheet to read "
                     "that one instead).", sheet=sheet)
    else:
        raise fail(path, "This file is not an SOVC export (CSV or XLSX).")
    log.sheet = sheet
    options.on_progress(1, 5)
    top = blank_lead(rows) if kind == "csv" else 0  # a CSV re-saved with blank lines first
    lead_note(log, top)
    if len(rows) < top + 3 or not _is_header(rows[top]):
        raise fail(path, "This is not a complete SOVC export: it needs three header rows "
                   "(contest, party, choice) and one row per precinct.", sheet=sheet,
                   row=top + 1)
    # Row 2 (parties) may be missing from a hand-made copy: then row 2 holds the choice names
    # ('VOTERS', 'BALLOTS CAST' over the statistics) and row 3 is the first precinct.
    n_hdr = 3
    if not _has_stat_labels(rows[top + 2]) and _has_stat_labels(rows[top + 1]):
        n_hdr = 2
        log.note("The file has two header rows (contest, choice), not three: the party row "
                 "is missing, so parties come only from the choice names.", row=top + 2)
    width = max(len(r) for r in rows[top:top + n_hdr])
    hdr = [(r + [""] * width)[:width] for r in rows[top:top + n_hdr]]
    if n_hdr == 2:
        hdr.insert(1, [""] * width)
    titles = [vocab.clean_name(c) for c in hdr[0]]
    labels = [vocab.clean_name(c) for c in hdr[2]]
    mended = sorted({f"{x!r} -> {_unmangle(x)!r}" for x in titles + labels if _unmangle(x) != x})
    if mended:
        titles = [_unmangle(x) for x in titles]
        labels = [_unmangle(x) for x in labels]
        log.note("Some names were saved with their accents garbled (UTF-8 text read as "
                 "Windows-1252); they are read as " + "; ".join(mended[:4])
                 + (f" and {len(mended) - 4} more" if len(mended) > 4 else "") + ".",
                 row=top + 3)
    return Located(source, rows, log, sheet, top + n_hdr, {
        "width": width, "top": top, "titles": titles, "labels": labels,
        "parties": [vocab.clean_name(c).upper() for c in hdr[1]]})


def map(located: Located, options: ReadOptions) -> RawCanvass:
    """The header band's columns split into contests, and one raw row per precinct × choice."""
    import numpy as np

    path, name, sheet, log = located.source.path, located.source.name, located.sheet, located.log
    rows, body0, top = located.rows, located.header_rows, located.facts["top"]
    width: int = located.facts["width"]
    titles: list[str] = located.facts["titles"]
    labels: list[str] = located.facts["labels"]
    parties: list[str] = located.facts["parties"]

    # Statistics columns, and whether the file is a primary (ballots by party).
    contest_cols: list[int] = []
    primary_stats = False
    ballots_cols: list[int] = []
    party_ballots_cols: list[int] = []
    filled: list[int] = []
    for c in range(3, width):
        t, lab = titles[c], labels[c]
        if _STAT_TITLE.match(t) or lab.upper() in _STAT_LABEL:
            if _PARTY_STAT.search(t):
                primary_stats = True
                if t.upper().startswith("BALLOTS"):
                    party_ballots_cols.append(c)
            elif _BALLOTS_TOTAL.match(t):
                ballots_cols.append(c)
            continue
        if not t and not lab:
            continue
        if not t and contest_cols and contest_cols[-1] == c - 1 and titles[c - 1]:
            # A title cell merged across its contest (a re-saved workbook) holds the title
            # only over the first column.
            titles[c] = titles[c - 1]
            filled.append(c)
        contest_cols.append(c)
    if filled:
        log.note(f"{len(filled)} choice column(s) have no contest title in row 1 (first: "
                 f"column {col_letter(filled[0])}, '{labels[filled[0]]}'); each is read as part "
                 "of the contest titled to its left, as a merged title cell would be.", row=top + 1,
                 column=col_letter(filled[0]))
    ballots_cols = ballots_cols[:1] or party_ballots_cols

    # Body rows: precincts, the totals row, and junk (blank lines, Pima's _x001A_).
    body_idx: list[int] = []
    total_idx: int | None = None
    for i in range(body0, len(rows)):
        r = rows[i]
        if not any(x.strip() for x in r):
            continue
        first = r[0].strip() if r else ""
        if vocab.EOF_MARK.match(first) and not any(x.strip() for x in r[1:]):
            continue
        code = r[1].strip() if len(r) > 1 else ""
        pname = r[2].strip() if len(r) > 2 else ""
        if code.upper() == "ZZZ" or vocab.is_total_precinct(pname) or \
                pname.upper() == "COUNTY TOTALS":
            if total_idx is not None:
                log.warn("A second totals row was found; only the first is used as the "
                         "file's totals.", row=i + 1)
                continue
            total_idx = i
            continue
        if total_idx is not None:
            log.repeated("after totals", f"Row after the COUNTY TOTALS row ({pname or code!r}) "
                         "is read as a precinct.", Severity.WARNING, cap=3, row=i + 1,
                         more="rows after the COUNTY TOTALS row are read as precincts")
        body_idx.append(i)
    if not body_idx:
        raise fail(path, "The SOVC export has headers but no precinct rows.", sheet=sheet)
    if total_idx is None:
        # The export always ends with that row: without it the file is probably cut short.
        log.error("The file has no 'ZZZ, COUNTY TOTALS' row, which the election system's "
                  "export always ends with: the file is probably cut short (or the row was "
                  "deleted), so its precincts may not be all of them. Export it again.")

    pick = itemgetter(*contest_cols) if contest_cols else (lambda r: ())
    last = max(contest_cols, default=-1)

    def cells(i: int) -> list[str]:
        # (The rows' cells are stripped already, by the CSV and the sheet readers.)
        r = rows[i]
        if len(r) <= last:
            r = r + [""] * (last + 1 - len(r))
        got = pick(r)
        return list(got) if isinstance(got, tuple) else [got]

    values, present = blocks.count_cells([cells(i) for i in body_idx], log=log, rows=body_idx,
                                         columns=contest_cols, not_on_ballot=vocab.NOT_ON_BALLOT)
    totals_vals: dict[int, int] = {}
    if total_idx is not None:
        for c, t in zip(contest_cols, cells(total_idx), strict=True):
            v = vocab.parse_count(t)
            if v is not None:
                totals_vals[c] = v
    options.on_progress(2, 5)
    if options.cancelled():
        raise Cancelled()

    pos = {c: k for k, c in enumerate(contest_cols)}
    support = [frozenset(np.nonzero(present[:, k] & (values[:, k] != 0))[0].tolist())
               for k in range(len(contest_cols))]

    # Split the columns into contests; a primary's party races may share a title, and row 2
    # tells them apart.
    segments = blocks.runs(contest_cols, titles, labels, also=lambda cur, c, ck: primary_stats
                           and ck == "candidate" and _party_change(cur, c, parties))

    # Same-titled runs with no other signal: split where the precincts stop overlapping.
    split: list[blocks.Run] = []
    for seg in segments:
        parts = [seg]
        while True:
            sg = parts[-1]
            cut = None
            for j in range(1, len(sg.cols)):
                left = frozenset().union(*(support[pos[c]] for c in sg.cols[:j]))
                right = frozenset().union(*(support[pos[c]] for c in sg.cols[j:]))
                if left and right and not (left & right) and \
                        sg.kinds[j] in ("candidate", "write_in"):
                    cut = j
                    break
            if cut is None:
                break
            # Nothing in the file marks this boundary: say so loudly, one race read as two
            # would get the wrong verdict.
            log.warn(f"{sg.title!r}: the file does not mark where one contest ends and the "
                     "next begins; the columns were split where the precincts with votes stop "
                     f"overlapping ({col_letter(sg.cols[0])}–{col_letter(sg.cols[cut - 1])}: "
                     + ", ".join(sg.names[:cut]) + f" | {col_letter(sg.cols[cut])}–"
                     f"{col_letter(sg.cols[-1])}: " + ", ".join(sg.names[cut:]) + "). If this "
                     "is one contest, read the file through the column mapping instead.",
                     row=top + 1, column=col_letter(sg.cols[cut]))
            parts[-1:] = [blocks.Run(sg.title, sg.cols[:cut], sg.names[:cut], sg.kinds[:cut]),
                          blocks.Run(sg.title, sg.cols[cut:], sg.names[cut:], sg.kinds[cut:])]
        split.extend(parts)
    segments = split

    # Weber: a running mate in a column of its own, with no party prefix and no votes. Without
    # party prefixes, every column with no votes must follow one with votes, and there must be
    # three such at least (a ticket race, not one candidate who got no votes). Votes do not
    # change either way: only the zero column's name moves.
    for seg in segments:
        if not _RUNNING_MATE_TITLE.search(seg.title):
            continue
        n = len(seg.cols)
        prefixed = [bool(vocab.split_party_prefix_any_case(x)[1]) for x in seg.names]
        zero = [not values[:, pos[c]].any() and totals_vals.get(c, 0) == 0 for c in seg.cols]
        cand = [j for j in range(n) if seg.kinds[j] == "candidate"]
        mates: list[int] = []
        if sum(prefixed) >= 2:
            mates = [j for j in range(1, n) if not prefixed[j] and prefixed[j - 1]
                     and seg.kinds[j] == "candidate" and zero[j]]
        elif not any(prefixed):
            empty = [j for j in cand if zero[j]]
            if len(empty) >= 3 and all(j - 1 in cand and not zero[j - 1] for j in empty):
                mates = empty
        if not mates:
            continue
        joined = [f"{seg.names[j]!r} to {seg.names[j - 1]!r}" for j in mates]
        log.note(f"{seg.title}: {len(mates)} running mate(s) have a column of their own with no "
                 "votes; each is joined to the candidate before it: " + "; ".join(joined) + ".",
                 row=top + 3, column=col_letter(seg.cols[mates[0]]))
        for j in reversed(mates):
            seg.names[j - 1] = f"{seg.names[j - 1]}, {seg.names[j]}"
            for lst in (seg.cols, seg.names, seg.kinds):
                del lst[j]


    # Contest keys: title, a number when a title repeats, the party when the file says.
    seg_party: list[str] = []
    for seg in segments:
        cparty = vocab.contest_party(seg.title)
        seg_parties = {parties[c] for c in seg.cols if c < len(parties)} - _NO_PARTY
        if not cparty and primary_stats and len(seg_parties) == 1:
            cparty = next(iter(seg_parties))
        seg_party.append(cparty)
    count: dict[tuple[str, str], int] = {}
    for seg, cparty in zip(segments, seg_party, strict=True):
        count[seg.title, cparty] = count.get((seg.title, cparty), 0) + 1
    apart = _apart(segments, seg_party, [frozenset().union(
        *(support[pos[c]] for c, k in zip(seg.cols, seg.kinds, strict=True)
          if k in ("candidate", "write_in"))) for seg in segments])
    nth: dict[tuple[str, str], int] = {}
    file_totals: dict[tuple[str, str, str], dict[str, int]] = {}
    seats: dict[tuple[str, str, str], int] = {}
    ballots = _ballots_cast(rows, body_idx, ballots_cols)
    inferred: list[str] = []
    skipped: list[str] = []
    prec_names = _precinct_names(rows, body_idx)
    blocks.sums_left_out(log, segments, values, present, pos, prec_names, row=top + 3)
    columns: list[tuple[int, blocks.Choice]] = []
    for seg, cparty in zip(segments, seg_party, strict=True):
        title = seg.title or "(untitled contest)"
        if vocab.is_non_contest_office(title):
            skipped.append(title)
            continue
        if not seg.title:
            log.warn(f"Columns {col_letter(seg.cols[0])}–{col_letter(seg.cols[-1])} have no "
                     "contest title in row 1; they are read as an untitled contest. Check the "
                     "export.", row=top + 1, column=col_letter(seg.cols[0]))
        district = ""
        if count[seg.title, cparty] > 1:
            nth[seg.title, cparty] = nth.get((seg.title, cparty), 0) + 1
            district = f"#{nth[seg.title, cparty]}"
        key = (title, district, cparty)
        for other, shared, n_other in apart.get(id(seg), []):
            log.issues.append(Issue(
                name, f"{f'{title} {district}'.strip()!r}: its columns {_span(seg)} "
                f"({', '.join(seg.names)}) and the columns {_span(other)} "
                f"({', '.join(other.names)}), titled the same, are not side by side (other "
                "contests' columns lie between them), and both have votes in the same "
                f"precincts ({shared:,} of the {n_other:,} with votes in {_span(other)}). "
                "This may be one contest with a column moved away from the others, or two "
                "contests of one title on the same ballots; the file does not tell which, so "
                "no verdict rests on this one. Put the contest's columns side by side (or "
                "give each contest its own title) and import the file again.",
                sheet, top + 1, col_letter(seg.cols[0]), Severity.ERROR,
                contest=ContestKey(*key), only_contest=True))
        ks = [pos[c] for c, k in zip(seg.cols, seg.kinds, strict=True) if k is not None]
        cand_ks = [pos[c] for c, k in zip(seg.cols, seg.kinds, strict=True)
                   if k in ("candidate", "write_in")]
        if stated := vocab.seats_in(title):
            seats[key] = stated
        elif ballots is not None:
            issue, n_seats = _seats_from_ballots(
                f"{title} {district}".strip(), values[:, ks].sum(axis=1),
                values[:, cand_ks].sum(axis=1), ballots, {"over", "under"} <= set(seg.kinds),
                prec_names)
            if n_seats:
                seats[key] = n_seats
                inferred.append(issue or "")
            elif issue:
                log.issues.append(Issue(name, issue, sheet, top + 1, col_letter(seg.cols[0]),
                                        Severity.WARNING, Remedy.SET_SEATS))
        for c, lab, ck in zip(seg.cols, seg.names, seg.kinds, strict=True):
            if ck is None:
                continue
            choice, pfx = vocab.split_party_prefix_any_case(lab) if ck == "candidate" else (lab, "")
            choice = choice or lab or f"(column {col_letter(c)})"
            chp = pfx or (parties[c] if not cparty and parties[c] not in _NO_PARTY else "")
            columns.append((pos[c], (title, district, cparty, choice, chp, ck)))
            if c in totals_vals and ck in ("candidate", "write_in") and \
                    not vocab.is_void_write_in(lab):
                tot = file_totals.setdefault(key, {})
                tot[choice] = tot.get(choice, 0) + totals_vals[c]
    options.on_progress(4, 5)
    blocks.left_out(log, skipped)
    if inferred:
        log.note("The file states no vote-for counts, but in these contests the candidate, over "
                 "and under votes of a precinct add up to exactly a whole multiple of its ballots "
                 "cast (and nowhere to more), which is the number of seats: "
                 + "; ".join(inferred) + ".")
    blocks.multicounty(log, [c[1][0] for c in columns])
    dups = sorted(t for t, n in count.items() if n > 1 and t)
    if dups:
        log.note("Several contests share a title and are kept apart by their columns, numbered "
                 "#1, #2 …: " + ", ".join(repr(t) for t in dups) + ". Check which district "
                 "each one is.")
    coded, _ = blocks.grid_coded_rows(values, present, prec_names, columns, log=log)
    options.on_progress(5, 5)
    primary: bool | None = True if (primary_stats or any(c[1][2] for c in columns)) else None
    if primary is None and "general" in name.lower():
        primary = False
    # (held as codes: the build stage reads them without a frame)
    return CodedRawCanvass(name, FAMILY, None, log.close(), seats, file_totals, set(),
                           primary, sheet=sheet, coded=coded)


read = staged_read(locate, map)


def _ballots_cast(rows: list[list[str]], body_idx: list[int], cols: list[int]
                  ) -> list[int | None] | None:
    """Ballots cast per precinct row (the total column, else the parties' columns added)."""
    if not cols:
        return None
    out: list[int | None] = []
    for i in body_idx:
        r = rows[i]
        vals = [vocab.parse_count(r[c]) if c < len(r) else None for c in cols]
        out.append(None if any(v is None for v in vals) else sum(v for v in vals if v))
    return out


def _seats_from_ballots(label: str, all_votes: object, cand_votes: object,
                        ballots: list[int | None], has_over_under: bool,
                        prec_names: list[str]) -> tuple[str | None, int | None]:
    """Seats a contest's ballot arithmetic proves (with the note saying so), or a warning when
    its candidate votes exceed the ballots cast somewhere; (None, None) when neither."""
    allv: list[int] = all_votes.tolist()  # type: ignore[attr-defined]  # (Python ints)
    cand: list[int] = cand_votes.tolist()  # type: ignore[attr-defined]
    best, (n_over, w) = _most_to_a_ballot(allv, cand, ballots, all_votes, cand_votes)
    if has_over_under and best is not None and best[0] % best[1] == 0 and best[0] >= 2 * best[1]:
        k = best[0] // best[1]
        return (f"{label}: {k} seats (precinct {prec_names[best[2]]}: {best[0]:,} votes on "
                f"{best[1]:,} ballots)", k)
    if w is not None:
        return (f"{label}: in {n_over} precinct(s) the candidates have more votes than ballots "
                f"were cast (e.g. precinct {prec_names[w]}: {cand[w]:,} votes on "
                f"{ballots[w]:,} ballots), so it elects more than one seat or two contests "
                "share its columns; the file does not say how many seats. Set its seats "
                "before trusting its verdict.", None)
    return None, None


def _most_to_a_ballot(allv: list[int], cand: list[int], ballots: list[int | None],
                      all_votes: object, cand_votes: object
                      ) -> tuple[tuple[int, int, int] | None, tuple[int, int | None]]:
    """For :func:`_seats_from_ballots`: the (votes, ballots, row) of the first precinct with
    the most of all its votes to a ballot (None where no ballots are stated), and
    :func:`blocks.over_ballots` of the candidates' votes. In arrays where every count is
    below 2**26 (a statement of votes cast has hundreds of contests and precincts): there
    two counts' ratios are as far apart as floats tell, so the first largest of the float
    ratios is the first largest of the exact ones."""
    import numpy as np

    b = np.array([v or 0 for v in ballots], dtype=np.int64)
    av, cv = np.asarray(all_votes, dtype=np.int64), np.asarray(cand_votes, dtype=np.int64)
    if not len(b) or min(int(av.min()), int(cv.min()), int(b.min())) < 0 or \
            max(int(av.max()), int(cv.max()), int(b.max())) >= 1 << 26:
        best: tuple[int, int, int] | None = None
        for i, v in enumerate(ballots):
            if v and (best is None or allv[i] * best[1] > best[0] * v):
                best = (allv[i], v, i)
        return best, blocks.over_ballots(zip(cand, ballots, strict=True))
    stated = b > 0
    if stated.any():
        i = int(np.where(stated, av / np.where(stated, b, 1), -1.0).argmax())
        best = (allv[i], int(b[i]), i)
    else:
        best = None
    over = stated & (b < cv)
    if not over.any():
        return best, (0, None)
    w = int(np.where(over, cv / np.where(over, b, 1), -1.0).argmax())
    return best, (int(over.sum()), w)


def _span(seg: blocks.Run) -> str:
    """A run's columns as the spreadsheet names them ('AE–AF', or 'EY')."""
    first, last = col_letter(seg.cols[0]), col_letter(seg.cols[-1])
    return first if first == last else f"{first}–{last}"


def _apart(segments: list[blocks.Run], seg_party: list[str],
           support: list[frozenset[int]]) -> dict[int, list[tuple[blocks.Run, int, int]]]:
    """For each run (by ``id``) of a title (and party) that comes again elsewhere in the
    header, not next to it, with votes in the same precincts: the other run, how many
    precincts the two share and how many the other has votes in.

    Two contests of one title are told apart by their columns (#1, #2 …). Side by side,
    that is sound: a second district's race printed next to the first's (Grand 2018's two
    UT HOUSE). Apart, and in the same precincts (more than half the precincts of the
    smaller one), it may be one contest with a column moved away from it (the moved
    candidate "elected" alone), which the file cannot tell from two races of one title on
    the same ballots: neither can be read for sure. Apart but in other precincts (two
    districts' races of one title) they stay two contests, as before."""
    out: dict[int, list[tuple[blocks.Run, int, int]]] = {}
    for i, a in enumerate(segments):
        for j in range(i + 2, len(segments)):
            b = segments[j]
            if (a.title, seg_party[i]) != (b.title, seg_party[j]) or not a.title or \
                    vocab.is_non_contest_office(a.title):
                continue
            if any(segments[k].title == a.title for k in range(i + 1, j)):
                continue  # (the run between is the one next to it)
            sa, sb = support[i], support[j]
            shared = len(sa & sb)
            if not shared or shared * 2 <= min(len(sa), len(sb)):
                continue
            out.setdefault(id(a), []).append((b, shared, len(sb)))
            out.setdefault(id(b), []).append((a, shared, len(sa)))
    return out


def _party_change(seg: blocks.Run, c: int, parties: list[str]) -> bool:
    """Whether column ``c`` carries another party (row 2) than the segment's candidates."""
    own = {parties[x] for x, k in zip(seg.cols, seg.kinds, strict=True)
           if k == "candidate" and x < len(parties)} - _NO_PARTY
    mine = parties[c] if c < len(parties) else ""
    return bool(own) and mine not in _NO_PARTY and mine not in own


def _precinct_names(rows: list[list[str]], body_idx: list[int]) -> list[str]:
    codes = [(rows[i][1].strip() if len(rows[i]) > 1 else "") for i in body_idx]
    names = [(rows[i][2].strip() if len(rows[i]) > 2 else "") for i in body_idx]
    unique = len(set(names)) == len(names) and all(names)
    if unique:
        return names
    return [f"{c} {n}".strip() for c, n in zip(codes, names, strict=True)]
