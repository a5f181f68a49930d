"""Render a generated canvass in the layout of each election system's export.

Used by the property tests in ``test_family_properties.py``. Each writer imitates the real
exports described in each importer's docstring and in ``tests/data/formats/`` (header rows,
totals rows, repeated rows, merged cells, separators), and returns, per contest, the title
the importer is expected to report.
"""

from __future__ import annotations

import csv
import itertools
import random
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

import openpyxl


@dataclass
class Contest:
    title: str
    seats: int
    choices: list[str]
    parties: list[str]              # per choice ("" when the layout shows none)
    votes: list[list[int]]          # [precinct][choice]
    over: list[int] | None = None   # per precinct, where the layout has over votes
    under: list[int] | None = None

    def total(self, k: int) -> int:
        return sum(row[k] for row in self.votes)

    def precinct_sum(self, p: int) -> int:
        return sum(self.votes[p])


@dataclass
class Canvass:
    precincts: list[str]
    contests: list[Contest]
    rnd: random.Random              # for cosmetic variation (group splits, registered voters)


def split(rnd: random.Random, n: int, parts: int) -> list[int]:
    """n as ``parts`` non-negative whole numbers that add up to n."""
    cuts = sorted(rnd.randint(0, n) for _ in range(parts - 1))
    edges = [0, *cuts, n]
    return [b - a for a, b in itertools.pairwise(edges)]


def thousands(n: int) -> str:
    return f"{n:,}"


def _ballots(c: Contest, p: int) -> int:
    """Ballots cast in a precinct, consistent with the votes (for statistics columns)."""
    extra = (c.over[p] if c.over else 0) + (c.under[p] if c.under else 0)
    return -(-(c.precinct_sum(p) + extra) // c.seats)


def _stats(cv: Canvass, p: int) -> tuple[int, int]:
    """(registered voters, ballots cast) of a precinct."""
    ballots = max(_ballots(c, p) for c in cv.contests)
    return ballots + cv.rnd.randint(0, 900), ballots


# ---------------------------------------------------------------------------------------------
# ES&S Electionware SOVC export: three header rows, one row per precinct, ZZZ,COUNTY TOTALS.

def write_ess_sovc(cv: Canvass, path: Path) -> dict[str, str]:
    row1 = ["COUNTY NUMBER", "PRECINCT CODE", "PRECINCT NAME", "REGISTERED VOTERS - TOTAL",
            "BALLOTS CAST - TOTAL", "BALLOTS CAST - BLANK"]
    row2 = ["", "", "", "", "", ""]
    row3 = ["", "", "", "VOTERS", "BALLOTS CAST", "BALLOTS CAST"]
    for c in cv.contests:
        for name, party in zip(c.choices, c.parties, strict=True):
            row1.append(c.title)
            row2.append(party or "NON")
            row3.append(f"{party} {name}" if party else name)
        for label, extra in (("OVER VOTES", c.over), ("UNDER VOTES", c.under)):
            if extra is not None:
                row1.append(c.title)
                row2.append(".")
                row3.append(label)
    body = []
    for p, name in enumerate(cv.precincts):
        reg, ballots = _stats(cv, p)
        r: list[object] = [29, f"{p + 1:04d}", name, reg, ballots, 0]
        for c in cv.contests:
            r += c.votes[p]
            r += [e[p] for e in (c.over, c.under) if e is not None]
        body.append(r)
    tot: list[object] = [29, "ZZZ", "COUNTY TOTALS"]
    tot += [sum(int(b[j]) for b in body) for j in range(3, len(row1))]  # type: ignore[arg-type]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerows([row1, row2, row3, *body, tot])
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Electionware "Summary Results Report" CSV: stacked blocks per precinct, then Cumulative.

def write_ess_summary(cv: Canvass, path: Path, *, modes: bool) -> dict[str, str]:
    pages = [(name, [c.votes[p] for c in cv.contests],
              [c.over[p] if c.over else None for c in cv.contests],
              [c.under[p] if c.under else None for c in cv.contests], p)
             for p, name in enumerate(cv.precincts)]
    pages.append(("Cumulative", [[c.total(k) for k in range(len(c.choices))]
                                 for c in cv.contests],
                  [sum(c.over) if c.over else None for c in cv.contests],
                  [sum(c.under) if c.under else None for c in cv.contests], None))
    lines: list[list[object]] = []
    n_pages = len(pages)
    for page, (name, votes, overs, unders, p) in enumerate(pages, start=1):
        lines += [["Summary Results Report", "", "", "OFFICIAL RESULTS"],
                  ["GENERAL ELECTION", "", "", ""],
                  ["November 5, 2024", "", "", "Rich County"],
                  [name, "", "", ""],
                  ["STATISTICS", "", "", ""], ["", "TOTAL", "", ""]]
        if p is not None:
            reg, ballots = _stats(cv, p)
        else:
            reg = ballots = 0
        lines += [["Registered Voters - Total", reg, "", ""],
                  ["Ballots Cast - Total", ballots, "", ""],
                  ["Ballots Cast - Blank", 0, "", ""],
                  ["Voter Turnout - Total", f"{100 * ballots / max(reg, 1):.2f}%", "", ""]]
        for c, v, o, u in zip(cv.contests, votes, overs, unders, strict=True):
            lines += [[c.title, "", "", ""], [f"Vote For {c.seats}", "", "", ""]]
            lines.append(["", "TOTAL", "Election Day", "By Mail"] if modes else
                         ["", "TOTAL", "", ""])

            def line(label: str, n: int) -> list[object]:
                if modes:
                    a, b = split(cv.rnd, n, 2)
                    return [label, thousands(n), thousands(a), thousands(b)]
                return [label, thousands(n), "", ""]
            for name_, party, n in zip(c.choices, c.parties, v, strict=True):
                lines.append(line(f"{party} {name_}" if party else name_, n))
            lines.append(line("Total Votes Cast", sum(v)))
            if o is not None:
                lines.append(line("Overvotes", o))
            if u is not None:
                lines.append(line("Undervotes", u))
            lines.append(line("Contest Totals", sum(v) + (o or 0) + (u or 0)))
        lines += [["Precinct Summary - 11/22/2024 8:12 AM", "", page, f"of {n_pages}"],
                  ["Report generated with Electionware Copyright © 2007-2023", "", "", ""]]
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\r\n").writerows(lines)
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Electionware "Statement of Votes Cast" custom table XLSX (Davis County).

def write_ess_custom(cv: Canvass, path: Path) -> dict[str, str]:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Custom Table Report"
    stats = ["Registered Voters", "Total Ballots Cast", "Turnout", "Early", "Election Day",
             "Provisional", "By Mail"]
    first = 5 + len(stats)          # 1-based column of the first contest
    ws.cell(1, 2, "Statement of Votes Cast")
    ws.cell(2, 2, "2024 General Election")
    ws.cell(3, 2, "2024-11-05")
    ws.cell(5, 5, "STATISTICS")
    ws.merge_cells(start_row=5, start_column=5, end_row=5, end_column=4 + len(stats))
    for j, s in enumerate(stats):
        ws.cell(6, 5 + j, s)
    col = first
    for c in cv.contests:
        ws.cell(5, col, c.title)
        if len(c.choices) > 1:
            ws.merge_cells(start_row=5, start_column=col, end_row=5,
                           end_column=col + len(c.choices) - 1)
        ws.cell(6, col, f"VOTE FOR {c.seats}")
        for k, (name, party) in enumerate(zip(c.choices, c.parties, strict=True)):
            ws.cell(7, col + k, f"{party} {name}" if party else name)
        col += len(c.choices)
    row = 8
    sums = [0] * (col - 5)
    for p, name in enumerate(cv.precincts):
        reg, ballots = _stats(cv, p)
        early, day, prov, mail = split(cv.rnd, ballots, 4)
        values: list[int | float] = [reg, ballots, round(ballots / max(reg, 1), 4), early, day,
                                     prov, mail]
        for c in cv.contests:
            values += c.votes[p]
        ws.cell(row, 3, name)
        for j, v in enumerate(values):
            ws.cell(row, 5 + j, v)
            sums[j] += v
        row += 1
    ws.cell(row, 3, "Totals")
    sums[2] = round(sums[1] / max(sums[0], 1), 4)
    for j, v in enumerate(sums):
        ws.cell(row, 5 + j, v)
    wb.save(path)
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Electionware results workbook report.xlsx: four long sheets.

def write_ess_report(cv: Canvass, path: Path) -> dict[str, str]:
    wb = openpyxl.Workbook()
    summary = wb.active
    summary.title = "Summary Results"
    by_group = wb.create_sheet("Summary Results by Group")
    prec = wb.create_sheet("Precinct Results")
    prec_group = wb.create_sheet("Precinct Results by Group")
    head = ["Office Name", "Contest ID", "Ballot Name", "Choice ID", "Party"]
    summary.append([*head, "Total"])
    by_group.append([*head, "Group", "Total"])
    prec.append(["Precinct", *head, "Total"])
    prec_group.append(["Precinct", *head, "Group", "Total"])
    groups = ("In Person", "By Mail Ballot")
    party_names = {"REP": "REPUBLICAN PARTY", "DEM": "DEMOCRATIC PARTY",
                   "LIB": "LIBERTARIAN PARTY", "": "NONPARTISAN"}

    def entries(c: Contest, p: int | None) -> list[tuple[str, object, str, int]]:
        def at(k: int) -> int:
            return c.total(k) if p is None else c.votes[p][k]
        out: list[tuple[str, object, str, int]] = [
            ("Ballots Cast", "", "", _ballots(c, p) if p is not None else
             sum(_ballots(c, q) for q in range(len(cv.precincts))))]
        for k, (name, party) in enumerate(zip(c.choices, c.parties, strict=True)):
            out.append((name, 10 * (k + 1), party_names.get(party, party), at(k)))
        for label, extra in (("Over Vote Count", c.over), ("Under Vote Count", c.under)):
            if extra is not None:
                out.append((label, "", "", sum(extra) if p is None else extra[p]))
        return out

    for i, c in enumerate(cv.contests):
        # Office names carry trailing spaces in the real files.
        office, cid = c.title + " " * (i % 2), f"CONTEST_{100 + i}"
        for name, choice_id, party, n in entries(c, None):
            summary.append([office, cid, name, choice_id, party, n])
            for g, part in zip(groups, split(cv.rnd, n, 2), strict=True):
                by_group.append([office, cid, name, choice_id, party, g, part])
        for p, pname in enumerate(cv.precincts):
            for name, choice_id, party, n in entries(c, p):
                prec.append([pname, office, cid, name, choice_id, party, n])
                for g, part in zip(groups, split(cv.rnd, n, 2), strict=True):
                    prec_group.append([pname, office, cid, name, choice_id, party, g, part])
    wb.save(path)
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Salt Lake County SOVC xlsx (2016-2018): TOC, one sheet per contest, six rows per precinct.

SLCO_TYPES = ("Polling", "Vote Centers", "Vote By Mail", "Early Voting", "In-Office")


def write_slco_sovc(cv: Canvass, path: Path) -> dict[str, str]:
    wb = openpyxl.Workbook()
    toc = wb.active
    toc.title = "TOC"
    top = ["Statement of Votes Cast", "2018 General Election", "November 6th, 2018",
           "Salt Lake County, UT"]
    for i, t in enumerate(top):
        toc.cell(2 + i, 2, t)
    toc.cell(2, 7, "Disclaimer: the Acrobat PDF file is the most accurate.")
    toc.cell(8, 2, "Table of Contents")
    for i, c in enumerate(cv.contests):
        toc.cell(9 + i, 2, "●")
        toc.cell(9 + i, 3, c.title)
    for i, c in enumerate(cv.contests):
        ws = wb.create_sheet(f"{i + 1} {c.title}"[:31])
        for r, t in enumerate(top):
            ws.cell(2 + r, 2, t)
            ws.merge_cells(start_row=2 + r, start_column=2, end_row=2 + r, end_column=6)
        ws.cell(7, 2, c.title)
        ws.merge_cells(start_row=7, start_column=2, end_row=7, end_column=6)
        ws.cell(8, 2, "Table of Contents")
        header = ["Precinct", "Type", "Reg. Voters", "Cards Cast", "Total Votes"]
        for name, party in zip(c.choices, c.parties, strict=True):
            header += [f"{name} ({party})" if party else name, None]
        for j, h in enumerate(header):
            ws.cell(9, 2 + j, h)
        row = 10
        grand = [[0] * len(c.choices) for _ in range(len(SLCO_TYPES) + 1)]
        grand_stats = [[0, 0, 0] for _ in range(len(SLCO_TYPES) + 1)]

        def put(label: str, typ: str, stats: list[int], votes: list[int],
                ws: openpyxl.worksheet.worksheet.Worksheet = ws) -> None:
            nonlocal row
            ws.cell(row, 2, label)
            ws.cell(row, 3, typ)
            for j, v in enumerate(stats):
                ws.cell(row, 4 + j, v)
            for k, v in enumerate(votes):
                ws.cell(row, 7 + 2 * k, v)
                if stats[2]:
                    ws.cell(row, 8 + 2 * k, v / stats[2])
            row += 1

        for p, pname in enumerate(cv.precincts):
            reg, cards = _stats(cv, p)
            parts = [split(cv.rnd, v, len(SLCO_TYPES)) for v in c.votes[p]]
            card_parts = split(cv.rnd, cards, len(SLCO_TYPES))
            for t, typ in enumerate(SLCO_TYPES):
                votes = [parts[k][t] for k in range(len(c.choices))]
                stats = [reg, card_parts[t], sum(votes)]
                put(pname, typ, stats, votes)
                grand[t] = [a + b for a, b in zip(grand[t], votes, strict=True)]
                grand_stats[t] = [grand_stats[t][0] + reg, grand_stats[t][1] + card_parts[t],
                                  grand_stats[t][2] + sum(votes)]
            stats = [reg, cards, c.precinct_sum(p)]
            put(pname, "Total", stats, c.votes[p])
            grand[-1] = [a + b for a, b in zip(grand[-1], c.votes[p], strict=True)]
            grand_stats[-1] = [grand_stats[-1][0] + reg, grand_stats[-1][1] + cards,
                               grand_stats[-1][2] + c.precinct_sum(p)]
        for t, typ in enumerate((*SLCO_TYPES, "Total")):
            put("Election Total", typ, grand_stats[t], grand[t])
    wb.save(path)
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# GEMS text export: headerless ten fields, each row once per counting group then their total.

def write_gems(cv: Canvass, path: Path) -> dict[str, str]:
    lines: list[list[object]] = []

    def emit(pno: int, pname: str, race: str, race_id: str, cand: str, cand_id: str,
             party: str, n: int, groups: bool = True) -> None:
        parts = split(cv.rnd, n, 2) if groups else [n, n]
        for v in (*parts, n):
            lines.append(["29", pno, pname, race, race_id, "NP", cand, cand_id, party, v])

    def block(pno: int, pname: str, votes: list[list[int]], overs: list[int | None],
              unders: list[int | None], n_prec: int, reg: int, counted: int) -> None:
        emit(pno, pname, "Race Statistics", "", "Number of Precincts", "", "NP", n_prec, False)
        emit(pno, pname, "Race Statistics", "", "Number of Precincts Reporting", "", "NP",
             n_prec, False)
        emit(pno, pname, "Race Statistics", "", "Registered Voters", "", "NP", reg)
        emit(pno, pname, "Race Statistics", "", "Times Counted", "", "NP", counted)
        for i, (c, v, o, u) in enumerate(zip(cv.contests, votes, overs, unders, strict=True)):
            rid = str(300300 + 100 * i)
            emit(pno, pname, c.title, rid, "Number of Precincts for Race", "", "NP", n_prec,
                 False)
            emit(pno, pname, c.title, rid, "Registered Voters", "", "NP", reg)
            for k, (name, party) in enumerate(zip(c.choices, c.parties, strict=True)):
                emit(pno, pname, c.title, rid, name, str(300301 + 100 * i + k), party or "NP",
                     v[k])
            if o is not None:
                emit(pno, pname, c.title, rid, "Times Over Voted", "", "NP", o)
            if u is not None:
                emit(pno, pname, c.title, rid, "Number of Under Votes", "", "NP", u)

    reg_total = counted_total = 0
    for p, pname in enumerate(cv.precincts):
        reg, counted = _stats(cv, p)
        reg_total += reg
        counted_total += counted
        block(10 * (p + 1), pname, [c.votes[p] for c in cv.contests],
              [c.over[p] if c.over else None for c in cv.contests],
              [c.under[p] if c.under else None for c in cv.contests], 1, reg, counted)
    block(999999, "Election Total",
          [[c.total(k) for k in range(len(c.choices))] for c in cv.contests],
          [sum(c.over) if c.over else None for c in cv.contests],
          [sum(c.under) if c.under else None for c in cv.contests],
          len(cv.precincts), reg_total, counted_total)
    with open(path, "w", newline="", encoding="utf-8") as f:
        for r in lines:
            cells = [f'"{v}"' if isinstance(v, str) else str(v) for v in r]
            f.write(",".join(cells) + ",\r\n")
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Dominion Statement of Votes CSV: newline headers, thousands separators, repeated
# undervotes/overvotes on every choice row.

def dominion_ballots(c: Contest, p: int) -> int:
    """Ballots such that seats · ballots = votes + undervotes + seats · overvotes."""
    assert c.over is not None and c.under is not None
    votes_under = c.precinct_sum(p) + c.under[p]
    assert votes_under % c.seats == 0
    return votes_under // c.seats + c.over[p]


def write_dominion(cv: Canvass, path: Path) -> dict[str, str]:
    header = ["Precinct \nCode", "Precinct \nNumber", "Contest \nTitle", "Choice \nName",
              "Active \nVoters*", "Total \nBallots", "Total \nVotes", "Total \nUndervotes",
              "Total \nOvervotes"]
    rows: list[list[str]] = [header]
    for p, _name in enumerate(cv.precincts):
        code = f"{p + 1:03d}"
        number = f"21519{p + 1:05d}"
        _reg, _ = _stats(cv, p)
        for c in cv.contests:
            assert c.over is not None and c.under is not None
            ballots = dominion_ballots(c, p)
            active = ballots + cv.rnd.randint(0, 900)
            for name, n in zip(c.choices, c.votes[p], strict=True):
                rows.append([code, number, c.title, name, thousands(active), thousands(ballots),
                             thousands(n), thousands(c.under[p]), thousands(c.over[p])])
    rows.append(["* Active Voters are the registered voters who are active.", "", "", "", "",
                 "", "", "", ""])
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        csv.writer(f, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\r\n").writerows(rows)
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Clarity ENR: detail.xml, and detail.xls (SpreadsheetML 2003), optionally zipped.

CLARITY_TYPES = ("Election Day", "Absentee by Mail")


def write_clarity_xml(cv: Canvass, path: Path) -> dict[str, str]:
    out = ['<?xml version="1.0"?>',
           "<!--Election result snapshot imported from Tabulation System\n-->",
           "<ElectionResult>",
           "    <Timestamp>11/22/2022 8:19:21 PM MST</Timestamp>",
           "    <ElectionName>2022 General Election</ElectionName>",
           "    <ElectionDate>11/8/2022</ElectionDate>",
           "    <Region>Salt Lake</Region>"]
    total_reg = total_cast = 0
    stats = [_stats(cv, p) for p in range(len(cv.precincts))]
    for reg, cast in stats:
        total_reg += reg
        total_cast += cast
    out.append(f'    <VoterTurnout totalVoters="{total_reg}" ballotsCast="{total_cast}" '
               f'voterTurnout="{100 * total_cast / max(total_reg, 1):.2f}">')
    out.append("        <Precincts>")
    for name, (reg, cast) in zip(cv.precincts, stats, strict=True):
        out.append(f"            <Precinct name={quoteattr(name)} totalVoters=\"{reg}\" "
                   f"ballotsCast=\"{cast}\" voterTurnout=\"0.00\" percentReporting=\"4\" />")
    out += ["        </Precincts>", "    </VoterTurnout>"]
    for i, c in enumerate(cv.contests):
        out.append(f"    <Contest key=\"{i + 1}\" text={quoteattr(c.title)} "
                   f"voteFor=\"{c.seats}\" isQuestion=\"false\" countiesReported=\"0\" "
                   f"counties=\"0\" precinctsReported=\"{len(cv.precincts)}\" "
                   f"precinctsParticipating=\"{len(cv.precincts)}\">")
        for label, extra in (("Undervotes", c.under), ("Overvotes", c.over)):
            if extra is None:
                continue
            out.append(f"        <VoteType name=\"{label}\" votes=\"{sum(extra)}\">")
            for name, n in zip(cv.precincts, extra, strict=True):
                out.append(f"            <Precinct name={quoteattr(name)} votes=\"{n}\" />")
            out.append("        </VoteType>")
        for k, (name, party) in enumerate(zip(c.choices, c.parties, strict=True)):
            out.append(f"        <Choice key=\"{k + 1}\" text={quoteattr(name)} "
                       f"party=\"{party}\" totalVotes=\"{c.total(k)}\">")
            parts = [split(cv.rnd, c.votes[p][k], len(CLARITY_TYPES))
                     for p in range(len(cv.precincts))]
            for t, vt in enumerate(CLARITY_TYPES):
                out.append(f"            <VoteType name=\"{vt}\" "
                           f"votes=\"{sum(x[t] for x in parts)}\">")
                for pname, x in zip(cv.precincts, parts, strict=True):
                    out.append(f"                <Precinct name={quoteattr(pname)} "
                               f"votes=\"{x[t]}\" />")
                out.append("            </VoteType>")
            out.append("        </Choice>")
        out.append("    </Contest>")
    out.append("</ElectionResult>")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return {c.title: c.title for c in cv.contests}


def _ss_cell(value: object, merge: int = 0, style: str | None = None) -> str:
    attrs = (f' s:MergeAcross="{merge}"' if merge else "") + (
        f' s:StyleID="{style}"' if style else "")
    if value is None or value == "":
        return f'<s:Cell{attrs}><s:Data s:Type="String" /></s:Cell>'
    kind = "Number" if isinstance(value, int | float) else "String"
    return f'<s:Cell{attrs}><s:Data s:Type="{kind}">{escape(str(value))}</s:Data></s:Cell>'


def _ss_row(cells: list[str]) -> str:
    return "<s:Row>" + "".join(cells) + "</s:Row>" if cells else "<s:Row />"


def write_clarity_xls(cv: Canvass, path: Path, *, zipped: bool) -> dict[str, str]:
    parts = ["\ufeff<?xml version='1.0'?>", "<?mso-application progid='Excel.Sheet'?>",
             '<s:Workbook xmlns:x="urn:schemas-microsoft-com:office:excel" '
             'xmlns:o="urn:schemas-microsoft-com:office:office" '
             'xmlns:s="urn:schemas-microsoft-com:office:spreadsheet">',
             "<o:DocumentProperties><o:Title>Election Results</o:Title>"
             "<o:Author>SOE Software Inc.</o:Author></o:DocumentProperties>",
             '<s:Styles><s:Style s:ID="headerLbl"><s:Alignment s:Horizontal="Center" />'
             "</s:Style></s:Styles>"]
    titled = [f"{c.title} ( {c.seats})" for c in cv.contests]
    # Table of Contents.
    rows = [_ss_row([_ss_cell("", 1)]), _ss_row([]),
            _ss_row([_ss_cell("Table of Contents", 1)]),
            _ss_row([_ss_cell("Page"), _ss_cell("Contest")]),
            _ss_row([_ss_cell(1), _ss_cell("Registered Voters")])]
    rows += [_ss_row([_ss_cell(i + 2), _ss_cell(t)]) for i, t in enumerate(titled)]
    parts.append('<s:Worksheet s:Name="Table of Contents"><s:Table>' + "".join(rows)
                 + "</s:Table></s:Worksheet>")
    # Registered Voters.
    stats = [_stats(cv, p) for p in range(len(cv.precincts))]
    rows = [_ss_row([_ss_cell(h) for h in ("", "Registered Voters", "Ballots Cast",
                                          "Voter Turnout")])]
    for name, (reg, cast) in zip(cv.precincts, stats, strict=True):
        rows.append(_ss_row([_ss_cell(name), _ss_cell(reg), _ss_cell(cast),
                             _ss_cell(f"{100 * cast / max(reg, 1):.2f} %")]))
    treg, tcast = sum(s[0] for s in stats), sum(s[1] for s in stats)
    rows.append(_ss_row([_ss_cell("Total:"), _ss_cell(treg), _ss_cell(tcast),
                         _ss_cell(f"{100 * tcast / max(treg, 1):.2f} %")]))
    parts.append('<s:Worksheet s:Name="Registered Voters"><s:Table>' + "".join(rows)
                 + "</s:Table></s:Worksheet>")
    # One sheet per contest.
    types = ("In Person", "Vote By Mail")
    per = len(types) + 1
    for i, (c, title) in enumerate(zip(cv.contests, titled, strict=True)):
        width = 2 + per * len(c.choices) + 1
        rows = [_ss_row([_ss_cell(title, 4, "headerLbl")])]
        rows.append(_ss_row([_ss_cell(""), _ss_cell("")]
                            + [_ss_cell(n, per - 1) for n in c.choices] + [_ss_cell("")]))
        rows.append(_ss_row([_ss_cell(""), _ss_cell("Registered Voters")]
                            + [_ss_cell(t) for _ in c.choices for t in (*types, "Total Votes")]
                            + [_ss_cell("Total")]))
        sums = [0] * (width - 1)
        for p, name in enumerate(cv.precincts):
            vals: list[int] = [stats[p][0]]
            for n in c.votes[p]:
                vals += [*split(cv.rnd, n, len(types)), n]
            vals.append(c.precinct_sum(p))
            sums = [a + b for a, b in zip(sums, vals, strict=True)]
            rows.append(_ss_row([_ss_cell(name)] + [_ss_cell(v) for v in vals]))
        rows.append(_ss_row([_ss_cell("Total:")] + [_ss_cell(v) for v in sums]))
        parts.append(f'<s:Worksheet s:Name="{i + 2}"><s:Table>' + "".join(rows)
                     + "</s:Table></s:Worksheet>")
    parts.append("</s:Workbook>")
    text = "\n".join(parts)
    if zipped:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("detail.xls", text.encode("utf-8"))
    else:
        path.write_bytes(text.encode("utf-8"))
    return {c.title: c.title for c in cv.contests}


# ---------------------------------------------------------------------------------------------
# Hand-built county workbook: title row, header 'Precinct Name, Total Reg. Voters, …',
# contest titles above the candidates (or in the header with the names below), COUNTY TOTALS.

def write_handbuilt(cv: Canvass, path: Path, *, titles_in_header: bool,
                    state_seats: bool) -> dict[str, str]:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "2024 General"
    stats = ["Total Reg. Voters", "Total Ballots Cast", "Turn out %"]
    expected: dict[str, str] = {}
    titles: list[str] = []
    names: list[str] = []
    parties: list[str] = []
    for c in cv.contests:
        shown = f"{c.title} (Vote for {c.seats})" if state_seats else c.title
        expected[c.title] = shown
        for k, (name, party) in enumerate(zip(c.choices, c.parties, strict=True)):
            # The title over every candidate column, a line break inside it on the first.
            titles.append(shown.replace(" ", " \n", 1) if k == 0 else shown)
            names.append(name)
            parties.append(party)
    ws.append(["2024 General Election - Statement of Votes Cast"])
    ws.append([])
    if titles_in_header:
        ws.append(["Precinct Name", *stats, *titles])
        ws.append(["", "", "", "", *names])
    else:
        ws.append(["", "", "", "", *titles])
        ws.append(["Precinct Name", *stats, *names])
    if any(parties):
        ws.append(["", "", "", "", *[p or "NP" for p in parties]])
    sums = [0] * (2 + len(names))
    for p, pname in enumerate(cv.precincts):
        reg, ballots = _stats(cv, p)
        votes = [v for c in cv.contests for v in c.votes[p]]
        ws.append([pname, reg, ballots, round(ballots / max(reg, 1), 4), *votes])
        sums = [a + b for a, b in zip(sums, [reg, ballots, *votes], strict=True)]
    ws.append([])
    ws.append(["COUNTY TOTALS", sums[0], sums[1], round(sums[1] / max(sums[0], 1), 4),
               *sums[2:]])
    wb.save(path)
    return expected


# ---------------------------------------------------------------------------------------------
# A sheet no family claims, read through a wide column mapping.

def write_mapped_sheet(cv: Canvass, path: Path, *, by_position: bool) -> tuple[dict, dict]:
    """A 'Results' sheet (title row, blank row, header at row 3, COUNTY TOTALS) and the wide
    mapping that reads it."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Results"
    ws.append(["Canvass of the 2023 Municipal Election"])
    ws.append([])
    header: list[str] = ["Voting District"]
    blocks = []
    for c in cv.contests:
        refs: list[object] = []
        for name in c.choices:
            header.append(name)
            refs.append(len(header) if by_position else name)
        for label, extra in (("Over Votes", c.over), ("Under Votes", c.under)):
            if extra is not None:
                header.append(label)
                refs.append(len(header))
        blocks.append({"contest": c.title, "seats": c.seats, "columns": refs})
    ws.append(header)
    sums = [0] * (len(header) - 1)
    for p, pname in enumerate(cv.precincts):
        vals = []
        for c in cv.contests:
            vals += c.votes[p]
            vals += [e[p] for e in (c.over, c.under) if e is not None]
        ws.append([pname, *vals])
        sums = [a + b for a, b in zip(sums, vals, strict=True)]
    ws.append(["COUNTY TOTALS", *sums])
    wb.save(path)
    mapping = {"layout": "wide", "sheet": "Results", "header_row": 3,
               "precinct_column": "Voting District", "totals_row": "COUNTY TOTALS",
               "blocks": blocks}
    return mapping, {c.title: c.title for c in cv.contests}
