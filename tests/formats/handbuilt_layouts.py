"""Hand-built county workbooks written the ways real counties lay them out (test generator).

The layouts come from the shared corpus's hand-built files (Juab 2022, Tooele 2024, Beaver
2016's PDF conversion, Cache 2020's provisional statistics) and from the county files the
readers once misread (issue #16): a header band of a contests' row, a candidates' row and a
parties' row in any order, with ``Precinct Name, Total Reg. Voters, Total Ballots Cast,
Turn out %`` on the candidates' or the contests' row; party rows as codes, words or letters;
a ``Turn out %`` column between contests; precinct rows in any order, a ``FEDERAL`` row and
a ``COUNTY TOTALS`` row; ``Suppressed`` cells; a sheet of ballot statistics first; votes by
mode under each candidate (with or without a ``Total``), a ``Vote for N`` row, a ``Sub
Total`` column after each contest.

:func:`write` returns what a right reading gives, so a test can tell a right reading from a
wrong one. Run as a script, it writes one workbook of each named layout into a folder::

    python tests/formats/handbuilt_layouts.py OUT_DIR
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

PARTY_STYLES = {
    "codes": {"REP": "REP", "DEM": "DEM", "LIB": "LIB", "UUP": "UUP", "": "NP"},
    "words": {"REP": "Republican", "DEM": "Democrat", "LIB": "Libertarian",
              "UUP": "United Utah", "": "Nonpartisan"},
    "letters": {"REP": "R", "DEM": "D", "LIB": "L", "UUP": "UUP", "": "NP"},
}
STATS = ["Total Reg. Voters", "Total Ballots Cast", "Turn out %"]

MODES = {"": [""], "total-last": ["Election Day", "Mail", "Total"],
         "total-first": ["Total", "Election Day", "Mail"], "no-total": ["Election Day", "Mail"],
         # counties' own words for them
         "total-votes": ["Absentee", "In Person", "Total Votes"], "tot": ["ED", "VBM", "TOT"],
         "grand-total": ["Mail", "Election Day", "Grand Total"]}
TOTALS = {"Total", "Total Votes", "TOT", "Grand Total"}  # the modes' total, as headed
SEATS = {"County Commission Seat A": 2}  # what a 'Vote for' row says (else 1)

CONTESTS: list[tuple[str, list[tuple[str, str]]]] = [
    ("US Senate", [("Mike Lee", "REP"), ("Evan McMullin", ""), ("James Hansen", "LIB")]),
    ("US House Dist 2", [("Chris Stewart", "REP"), ("Nick Mitchell", "DEM"),
                         ("Jay McFarland", "UUP")]),
    ("County Commission Seat A", [("Ann Able", "REP"), ("Bob Baker", "DEM")]),
    ("County Sheriff", [("Cy Cole", "REP"), ("Di Dunn", "DEM")]),
    ("School Board District 3", [("Ed Eads", ""), ("Flo Fitch", "")]),
]


@dataclass(frozen=True)
class Layout:
    """How one hand-built sheet is laid out."""

    band: tuple[str, ...] = ("contest", "names", "party")  # rows of the header band, in order
    stats_on: str = "names"          # the band row that starts 'Precinct Name, … Turn out %'
    #                                  (or "surnames", with split_names)
    party_style: str = "codes"
    merged_titles: bool = True       # a contest's title only over its first column
    turnout_between: bool = False    # a 'Turn out %' column after the first contest
    shuffle_rows: bool = False
    federal_row: bool = True
    suppressed: bool = False         # one precinct's first contest 'Suppressed'
    stats_sheet_first: bool = False  # a sheet of provisional-ballot statistics first
    contests: int = 3
    precincts: int = 6
    seed: int = 0
    sheet: str = "2024 General"
    totals_label: str = "COUNTY TOTALS"  # the precinct cell of the closing totals row
    # Vote-mode columns under each candidate, their names over the first: "" none,
    # "total-last" / "total-first" (Election Day, Mail and Total), "no-total" (refused), or
    # a county's own words ("total-votes", "tot", "grand-total": see MODES).
    modes: str = ""
    vote_for: bool = False           # a 'Vote for N' row in the band, under the contests
    subtotal: bool = False           # a 'Sub Total' column after each contest's candidates
    # A 'Vote Type' column and rows by mode under each precinct: "" none, "total" (its
    # Election Day, Mail and Total rows, the name on the first only), "no-total" (refused).
    mode_rows: str = ""
    # The candidates' names over two rows: first names, and under them the surnames
    # ('Mike' over 'Lee'; 'Sub' over 'Total').
    split_names: bool = False
    # No statistics columns: 'Precinct' and the candidates only (the counties that type no
    # voters or ballots beside the votes).
    no_stats: bool = False


@dataclass
class Expected:
    """What a right reading of the sheet gives."""

    sheet: str
    totals: dict[str, dict[str, int]] = field(default_factory=dict)
    parties: dict[str, dict[str, str]] = field(default_factory=dict)
    precincts: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)  # suppressed in some contest
    seats: dict[str, int] = field(default_factory=dict)  # where the sheet states them
    refused: bool = False            # no right reading: the sheet must be refused


def rows_of(layout: Layout) -> tuple[list[list[object]], Expected]:
    """The sheet's rows (as openpyxl appends them) and the right reading."""
    rnd = random.Random(layout.seed)
    contests = CONTESTS[:layout.contests]
    style = PARTY_STYLES[layout.party_style]
    exp = Expected(layout.sheet)
    titles: list[str] = []
    names: list[str] = []
    parties: list[str] = []
    gaps: set[int] = set()  # positions of the 'Turn out %' column between contests
    primary = "primary" in layout.sheet.lower()
    if primary:  # in a primary each contest is one party's
        contests = [(t, [(c, "REP") for c, _ in cands]) for t, cands in contests]
    modes = MODES[layout.modes]
    mode_row: list[str] = []
    seats_row: list[str] = []
    subtotals: set[int] = set()  # positions of the 'Sub Total' columns
    exp.refused = "no-total" in (layout.modes, layout.mode_rows)
    for n, (title, cands) in enumerate(contests):
        exp.totals[title] = {c: 0 for c, _ in cands}
        # In a primary the party belongs to the contest, not to its candidates.
        exp.parties[title] = {c: p if "party" in layout.band and not primary else ""
                              for c, p in cands}
        if layout.vote_for:
            exp.seats[title] = SEATS.get(title, 1)
        for k, (cand, party) in enumerate(cands):
            for m, mode in enumerate(modes):
                titles.append(title if (k == 0 and m == 0) or not layout.merged_titles else "")
                names.append(cand if m == 0 else "")
                parties.append(style[party] if m == 0 else "")
                mode_row.append(mode)
                seats_row.append(f"Vote for {SEATS.get(title, 1)}" if layout.vote_for else "")
        if layout.subtotal:
            subtotals.add(len(names))
            titles.append("" if layout.merged_titles else title)
            names.append("Sub Total")
            parties.append("")
            mode_row.append("Total" if layout.modes else "")
            seats_row.append("")
        if layout.turnout_between and n == 0:
            gaps.add(len(names))
            titles.append("")
            names.append("Turn out %")
            parties.append("")
            mode_row.append("")
            seats_row.append("")
    blank = ["", "", "", ""]
    lead = {"contest": blank, "names": blank, "party": blank, "modes": blank, "seats": blank,
            "surnames": blank}
    lead[layout.stats_on] = ["Precinct Name", *STATS]
    body = {"contest": titles, "names": names, "party": parties, "modes": mode_row,
            "seats": seats_row}
    band = list(layout.band)
    if layout.split_names:
        body["names"] = [n.rsplit(" ", 1)[0] if " " in n and "%" not in n else n
                         for n in names]
        body["surnames"] = [n.rsplit(" ", 1)[1] if " " in n and "%" not in n else ""
                            for n in names]
        band.insert(band.index("names") + 1, "surnames")
    if layout.modes:
        band.insert(band.index("surnames" if layout.split_names else "names") + 1, "modes")
    if layout.vote_for:
        band.insert(band.index("contest") + 1, "seats")
    if layout.mode_rows:  # the 'Vote Type' column after the precinct's name
        lead = {k: [v[0], "Vote Type" if v[0] else "", *v[1:]] for k, v in lead.items()}
    rows: list[list[object]] = [[f"{layout.sheet} Election - Canvass Report"], []]
    for kind in band:
        rows.append([*lead[kind], *body[kind]])
    precinct_rows: list[list[object]] = []
    sums = [0, 0]
    pnames = [f"P{k + 1:02d}" for k in range(layout.precincts)]
    if layout.federal_row:
        pnames.append("FEDERAL")
    suppressed_at = 1 if layout.suppressed else -1
    mode_sums: dict[tuple[str, str, str], int] = {}  # (contest, candidate, mode): votes

    def cells(title: str, cands: list[tuple[str, str]], got: list[int | None]) -> list[object]:
        """A contest's cells in a precinct: each candidate's by mode, and its subtotal."""
        out: list[object] = []
        for (cand, _), v in zip(cands, got, strict=True):
            parts = [m for m in modes if m and m not in TOTALS]  # the two modes
            day = rnd.randint(0, v) if v is not None and parts else None
            by = {"": v, **{m: v for m in modes if m in TOTALS}}
            if parts:
                by[parts[0]], by[parts[1]] = day, None if v is None else v - (day or 0)
            for mode in modes:
                out.append(by[mode])
                key = (title, cand, mode)
                mode_sums[key] = mode_sums.get(key, 0) + (by[mode] or 0)
        if layout.subtotal:
            out.append(None if all(v is None for v in got) else sum(v or 0 for v in got))
        return out

    for p, pname in enumerate(pnames):
        votes: list[object] = []
        ballots = 0
        for n, (title, cands) in enumerate(contests):
            if pname == "FEDERAL" and n > 1:
                got = [None] * len(cands)   # federal ballots carry the federal races only
            else:
                got = [rnd.randint(0, 400) for _ in cands]
            ballots = max(ballots, sum(v or 0 for v in got) + rnd.randint(0, 30))
            these = cells(title, cands, got)
            if p == suppressed_at and n == 0:
                exp.hidden.append(pname)
                votes.extend(["Suppressed", *[None] * (len(these) - 1)])
            else:
                votes.extend(these)
            for (cand, _), v in zip(cands, got, strict=True):
                exp.totals[title][cand] += v or 0
            if len(votes) in gaps:
                votes.append(None)  # turnout filled in below
        reg = ballots + rnd.randint(0, 500)
        row: list[object] = [pname, reg, ballots, round(ballots / max(reg, 1), 4)]
        for j, v in enumerate(votes):
            row.append(round(ballots / max(reg, 1), 4) if j in gaps else v)
        if layout.mode_rows:
            # Election Day and Mail rows above the total (counts split, statistics blank).
            day = [rnd.randint(0, v) if isinstance(v, int) and j not in gaps else None
                   for j, v in enumerate(votes)]
            mail = [v - d if d is not None and isinstance(v, int) else None
                    for v, d in zip(votes, day, strict=True)]
            block = [[pname, "Election Day", None, None, None, *day],
                     ["", "Mail", None, None, None, *mail]]
            if layout.mode_rows == "total":
                block.append(["", "Total", *row[1:]])
            precinct_rows.append(block)
        else:
            precinct_rows.append(row)
        exp.precincts.append(pname)
        sums[0] += reg
        sums[1] += ballots
    if layout.shuffle_rows:
        rnd.shuffle(precinct_rows)
        exp.precincts = [str(r[0][0] if layout.mode_rows else r[0]) for r in precinct_rows]
    for r in precinct_rows:
        rows.extend(r if layout.mode_rows else [r])  # type: ignore[list-item]
    # The county's totals count the suppressed precincts too.
    total: list[object] = [layout.totals_label, *([""] if layout.mode_rows else []),
                           sums[0], sums[1], None]
    for n, (title, cands) in enumerate(contests):
        total.extend(exp.totals[title][c] if not mode else mode_sums[(title, c, mode)]
                     for c, _ in cands for mode in modes)
        if layout.subtotal:
            total.append(sum(exp.totals[title].values()))
        if layout.turnout_between and n == 0:
            total.append(None)
    rows.append(total)
    if layout.no_stats:
        k = 2 if layout.mode_rows else 1   # (after the precinct's name and its 'Vote Type')
        rows = rows[:2] + [["Precinct" if j == 0 and c == "Precinct Name" else c
                            for j, c in enumerate(r) if not k <= j < k + 3] for r in rows[2:]]
    return rows, exp


def write(layout: Layout, path: Path) -> Expected:
    """Write the layout as an xlsx workbook; the right reading of it."""
    import openpyxl

    rows, exp = rows_of(layout)
    wb = openpyxl.Workbook()
    ws = wb.active
    if layout.stats_sheet_first:
        ws.title = "Provisional Ballots"
        for r in (["Provisional Ballot Statistics"], ["Precinct", "Provisional Ballots Received",
                                                      "Accepted", "Rejected"],
                  ["P01", 12, 10, 2], ["P02", 8, 8, 0], ["Total", 20, 18, 2]):
            ws.append(r)
        ws = wb.create_sheet(layout.sheet)
    else:
        ws.title = layout.sheet
    for r in rows:
        ws.append(r)
    wb.save(path)
    return exp


# Named layouts: the real ones and the ones the readers once misread (issue #16).
NAMED: dict[str, Layout] = {
    "juab-titles-in-header": Layout(band=("contest", "names"), stats_on="contest"),
    "tooele-contests-above-party-below": Layout(),
    "party-words-below": Layout(party_style="words", contests=5),
    "party-letters-below": Layout(party_style="letters"),
    "party-row-above-contests": Layout(band=("party", "contest", "names")),
    "party-between": Layout(band=("contest", "party", "names")),
    "turnout-between-contests": Layout(turnout_between=True, contests=4),
    "titles-repeated-rows-shuffled": Layout(merged_titles=False, shuffle_rows=True),
    "suppressed-precinct": Layout(suppressed=True),
    "statistics-sheet-first": Layout(stats_sheet_first=True),
    "primary-recount-sheet": Layout(sheet="2024 Primary Recount", party_style="words"),
    # Found by trying county layouts (session 12): each was read wrong and offered as done.
    "vote-modes-total-last": Layout(modes="total-last"),
    "vote-modes-total-first": Layout(modes="total-first", turnout_between=True, contests=4),
    "vote-for-row": Layout(vote_for=True, contests=4),
    "subtotal-columns": Layout(subtotal=True, contests=4),
    "vote-mode-rows": Layout(mode_rows="total", shuffle_rows=True),
    "vote-modes-total-votes": Layout(modes="total-votes"),
    "vote-modes-ed-vbm-tot": Layout(modes="tot", contests=4),
    "vote-modes-grand-total": Layout(modes="grand-total", turnout_between=True),
    "names-over-two-rows": Layout(split_names=True, subtotal=True, contests=4),
    "names-over-two-rows-header-under": Layout(split_names=True, stats_on="surnames",
                                               modes="total-last"),
}
# Layouts with no right reading: each must be refused.
REFUSED: dict[str, Layout] = {
    "vote-modes-without-totals": Layout(modes="no-total"),
    "vote-mode-rows-without-totals": Layout(mode_rows="no-total"),
}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, layout in NAMED.items():
        write(layout, out / f"{name}.xlsx")
        print(out / f"{name}.xlsx")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
