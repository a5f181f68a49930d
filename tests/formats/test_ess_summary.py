"""Electionware "Summary Results Report" CSV (family 3): Box Elder 2018 primary, 2020 PPP.

Expected figures were added up by hand (awk) from the precinct blocks of each file."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "ess_summary"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


CASES = [
    ("box_elder_2018p_summary.csv", 5, "REP US SENATE", "REP",
     {"MITT ROMNEY": 5795, "MIKE KENNEDY": 2323}),
    ("box_elder_2020ppp_summary.csv", 2, "Republican for U.S. President", "REP",
     {"ROBERT ARDINI": 74, "MATTHEW JOHN MATERN": 123, "BOB ELY": 28, "JOE WALSH": 180,
      "BILL WELD": 367, '(ROQUE "ROCKY" DE LA FUENTE) WITHDRAWN': 50, "DONALD J. TRUMP": 7574}),
]


@pytest.mark.parametrize(("name", "n_contests", "title", "party", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_summary_report_stacks_53_precincts_and_reads_seats(
        name: str, n_contests: int, title: str, party: str, expected: dict[str, int]) -> None:
    path = DATA / name
    found = detect(path)
    assert found[0].family == "ess_summary"
    assert all(d.confidence < found[0].confidence for d in found[1:])
    pc = read_canvass(path)
    assert len(pc.contests) == n_contests
    assert len(pc.precincts) == 53
    assert totals_of(pc, title) == expected
    c = next(c for c in pc.contests if c.key.title == title)
    assert c.key.party == party
    assert (c.seats, c.seats_from_file) == (1, True)
    assert pc.primary is True
    assert pc.errors == []
    # Seats come from 'Vote For 1': no "one seat is assumed" note.
    assert not [i for i in pc.issues if "seat each is assumed" in i.message]


def test_total_votes_cast_and_contest_totals_are_not_choices() -> None:
    pc = read_canvass(DATA / "box_elder_2020ppp_summary.csv")
    dem = totals_of(pc, "Democratic for U.S. President")
    assert "Total Votes Cast" not in dem
    assert "Contest Totals" not in dem
    assert dem["BERNIE SANDERS"] == 403
    assert "BC01" in pc.precincts


def test_page_breaks_do_not_split_a_precinct() -> None:
    pc = read_canvass(DATA / "box_elder_2018p_summary.csv")
    # Bear River East's contests run over two printed pages.
    titles = {c.key.title for c in pc.contests}
    assert titles == {"REP US SENATE", "REP UT SENATE 17", "REP COMMISSION A",
                      "REP COMMISSION B", "DEM US HOUSE DIST 1"}
    assert "Bear River East" in pc.precincts
    assert not any(p.startswith(("PRIMARY", "Summary")) for p in pc.precincts)


def test_garbled_count_is_an_error_with_its_row(tmp_path: Path) -> None:
    src = (DATA / "box_elder_2018p_summary.csv").read_text(encoding="utf-8")
    lines = src.splitlines()
    i = lines.index("MITT ROMNEY,,61,")
    lines[i] = "MITT ROMNEY,,sixty-one,"
    bad = tmp_path / "garbled.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    pc = read_canvass(bad)
    hits = [x for x in pc.issues if "has no vote count" in x.message]
    assert hits
    assert hits[0].row == i + 1
    assert hits[0].severity is Severity.ERROR
    assert totals_of(pc, "REP US SENATE")["MITT ROMNEY"] == 5795 - 61


def test_general_2018_reads_parties_from_choice_prefixes_and_the_date() -> None:
    pc = read_canvass(DATA / "box_elder_2018g_summary.csv")
    assert len(pc.contests) == 27
    assert len(pc.precincts) == 53
    # Added up by hand (awk) over the 53 precinct blocks.
    assert totals_of(pc, "U.S. SENATE") == {
        "MITT ROMNEY": 14803, "JENNY WILSON": 2603, "TIM AALDERS": 718, "CRAIG R. BOWDEN": 533,
        "REED C. McCANDLESS": 269, "Write-In Totals": 78}
    senate = next(t for t in pc.totals if t.contest.key.title == "U.S. SENATE")
    assert {c.choice.name: c.choice.party for c in senate.choices}["MITT ROMNEY"] == "REP"
    assert pc.primary is False
    assert pc.election_date == "2018-11-06"
    assert "STRAIGHT PARTY" not in {c.key.title for c in pc.contests}
    assert all(c.seats_from_file for c in pc.contests)
    assert not [i for i in pc.issues if i.severity is not Severity.NOTE]


# ---------------------------------------------------------------------------------------------
# Variants no real sample here shows (Rich 2020G, Duchesne 2018G): written at test time.
# A contest: (title, vote for, [(choice, election day, by mail)…], write-ins, over, under).

Block = tuple[str, int, list[tuple[str, int, int]], int, int, int]

PRECINCTS: dict[str, list[Block]] = {
    "0101 RANDOLPH": [
        ("PRESIDENT AND VICE PRESIDENT", 1,
         [("REP DONALD J. TRUMP / MIKE PENCE", 40, 310), ("DEM JOSEPH R. BIDEN / KAMALA HARRIS",
                                                          3, 21)], 2, 1, 3),
        ("RICH COUNTY SCHOOL BOARD SEAT 2", 2,
         [("ANN OLSEN", 20, 150), ("BEN KEARL", 15, 160), ("CAL WAHLEN", 9, 99)], 0, 2, 40),
    ],
    "0202 WOODRUFF": [
        ("PRESIDENT AND VICE PRESIDENT", 1,
         [("REP DONALD J. TRUMP / MIKE PENCE", 20, 1200), ("DEM JOSEPH R. BIDEN / KAMALA HARRIS",
                                                           1, 88)], 0, 0, 5),
        ("RICH COUNTY SCHOOL BOARD SEAT 2", 2,
         [("ANN OLSEN", 10, 700), ("BEN KEARL", 11, 640), ("CAL WAHLEN", 4, 500)], 3, 0, 80),
    ],
}


def _expected(title: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for blocks in PRECINCTS.values():
        for t, _n, choices, wi, _o, _u in blocks:
            if t == title:
                for name, a, b in choices:
                    name = name.split(" ", 1)[1] if name[:4] in ("REP ", "DEM ") else name
                    out[name] = out.get(name, 0) + a + b
                out["Write-In Totals"] = out.get("Write-In Totals", 0) + wi
    return out


def _write_report(path: Path, *, modes: bool = True, bom: bool = False, crlf: bool = True,
                  page_break_inside: bool = False, cumulative: bool = False,
                  county_summary: bool = False, wrap_title: bool = False,
                  junk_tail: bool = False, mode_mismatch: bool = False,
                  tvc_off_by: int = 0) -> None:
    """A Summary Results Report as Electionware exports it to CSV (cells drift by a column)."""
    import csv

    pages: list[tuple[str | None, list[Block]]] = (
        [(None, _county_blocks())] if county_summary else list(PRECINCTS.items()))
    if cumulative:
        pages.append(("Cumulative", _county_blocks()))
    out: list[list[str]] = []

    def head(precinct: str | None) -> None:
        out.extend([["Summary Results Report", "", "", "", "OFFICIAL RESULTS", ""],
                     ["2020 General Election", "", "", "", "", ""],
                     ["November 3, 2020", "", "", "", "Rich County", ""]])
        if precinct is not None:
            out.append([precinct, "", "", "", "", ""])

    def row(label: str, day: int, mail: int, total_pct: str = "") -> list[str]:
        total = day + mail
        if not modes:
            return [label, "", f"{total:,}", "", "", ""]
        return [label, "", f"{total:,}", total_pct, f"{day:,}", f"{mail:,}"]

    for k, (precinct, blocks) in enumerate(pages):
        head(precinct)
        out.extend([["STATISTICS", "", "TOTAL", "", "Election Day", "By Mail"],
                    ["Registered Voters - Total", "", "1,700", "", "", ""],
                    ["Ballots Cast - Total", "", "1,433", "", "233", "1,200"],
                    ["Voter Turnout - Total", "", "84.29%", "", "", ""]])
        for b, (title, seats, choices, wi, over, under) in enumerate(blocks):
            if wrap_title and b == 1:
                out.extend([[title.rsplit(" ", 2)[0], "", "", "", "", ""],
                             [" ".join(title.rsplit(" ", 2)[1:]), "", "", "", "", ""]])
            else:
                out.append([title, "", "", "", "", ""])
            out.append([f"Vote For {seats}", "", "", "", "", ""])
            out.append(["", "", "TOTAL", "VOT%", "Election Day", "By Mail"] if modes else
                       ["", "", "", "TOTAL", "", ""])
            for j, (name, day, mail) in enumerate(choices):
                if page_break_inside and b == 0 and j == 1:
                    out.append(["Precinct Summary - 11/17/2020 9:01 AM", "", "", "", "1",
                                f"of {len(pages) * 2}"])
                    out.append(["Report generated with Electionware Copyright © 2007-2019",
                                "", "", "", "", ""])
                    head(precinct)
                    out.append(["", "", "TOTAL", "VOT%", "Election Day", "By Mail"] if modes
                               else ["", "", "", "TOTAL", "", ""])
                r = row(name, day, mail, "88.10%")
                if mode_mismatch and k == 0 and b == 0 and j == 0:
                    r[4] = f"{day + 5:,}"
                out.append(r)
            votes = sum(d + m for _, d, m in choices) + wi
            out.append(row("Write-In Totals", 0, wi))
            out.append(row("Total Votes Cast", 0, votes + (tvc_off_by if k == 1 else 0)))
            out.append(row("Overvotes", 0, over))
            out.append(row("Undervotes", 0, under))
            out.append(row("Contest Totals", 0, votes + over + under))
        out.append(["Precinct Summary - 11/17/2020 9:01 AM", "", "", "", str(k + 1),
                    f"of {len(pages)}"])
    if junk_tail:
        out.append(["\x1a"])
    with open(path, "w", newline="", encoding="utf-8-sig" if bom else "utf-8") as f:
        csv.writer(f, lineterminator="\r\n" if crlf else "\n").writerows(out)


def _county_blocks() -> list[Block]:
    """The two precincts added up, as a county summary or a Cumulative section prints them."""
    first, second = PRECINCTS.values()
    out: list[Block] = []
    for a, b in zip(first, second, strict=True):
        choices = [(n, d1 + d2, m1 + m2) for (n, d1, m1), (_, d2, m2) in
                   zip(a[2], b[2], strict=True)]
        out.append((a[0], a[1], choices, a[3] + b[3], a[4] + b[4], a[5] + b[5]))
    return out


VARIANTS = [
    ("vote-mode-columns", {}),
    ("no-mode-columns-lf", {"modes": False, "crlf": False}),
    ("bom-crlf", {"bom": True}),
    ("page-break-inside-a-contest", {"page_break_inside": True}),
    ("cumulative-section-is-the-files-totals", {"cumulative": True}),
    ("title-wrapped-onto-two-lines", {"wrap_title": True}),
    ("end-of-file-mark", {"junk_tail": True}),
]


@pytest.mark.parametrize(("variant", "kw"), VARIANTS, ids=[v[0] for v in VARIANTS])
def test_general_report_with_vote_modes_multi_seat_and_over_under(
        tmp_path: Path, variant: str, kw: dict[str, bool]) -> None:
    path = tmp_path / "rich_2020g.csv"
    _write_report(path, **kw)
    assert detect(path)[0].family == "ess_summary"
    pc = read_canvass(path)
    assert pc.errors == [], [str(i) for i in pc.errors]
    assert not [i for i in pc.issues if i.severity is Severity.WARNING], \
        [str(i) for i in pc.issues]
    assert pc.precincts == ["0101 RANDOLPH", "0202 WOODRUFF"]
    assert [c.key.title for c in pc.contests] == ["PRESIDENT AND VICE PRESIDENT",
                                                  "RICH COUNTY SCHOOL BOARD SEAT 2"]
    pres = totals_of(pc, "PRESIDENT AND VICE PRESIDENT")
    assert pres == {"DONALD J. TRUMP / MIKE PENCE": 1570, "JOSEPH R. BIDEN / KAMALA HARRIS": 113,
                    "Write-In Totals": 2}
    assert pres == _expected("PRESIDENT AND VICE PRESIDENT")
    board = next(t for t in pc.totals if t.contest.key.title == "RICH COUNTY SCHOOL BOARD SEAT 2")
    assert {c.choice.name: c.votes for c in board.choices} == {
        "ANN OLSEN": 880, "BEN KEARL": 826, "CAL WAHLEN": 612, "Write-In Totals": 3}
    assert (board.contest.seats, board.contest.seats_from_file) == (2, True)
    assert {k.value: v for k, v in board.extras.items()} == {"over": 2, "under": 120}
    assert pc.primary is False
    assert (pc.election_name, pc.election_date) == ("2020 General Election", "2020-11-03")
    assert not [i for i in pc.issues if "do not add up" in i.message]


def test_cumulative_section_that_disagrees_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "rich_2020g.csv"
    _write_report(path, cumulative=True)
    lines = path.read_text(encoding="utf-8").splitlines()
    cum = lines.index("Cumulative,,,,,")
    i = next(k for k in range(cum, len(lines)) if lines[k].startswith("ANN OLSEN,"))
    lines[i] = 'ANN OLSEN,,881,88.10%,30,851'
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    pc = read_canvass(path)
    hits = [x for x in pc.issues if "do not add up" in x.message]
    assert len(hits) == 1
    assert "ANN OLSEN: precincts add up to 880, the file's total says 881" in hits[0].message
    # The Cumulative section is the file's official total (issue 12).
    assert totals_of(pc, "RICH COUNTY SCHOOL BOARD SEAT 2")["ANN OLSEN"] == 881


def test_county_summary_is_read_as_one_unit_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "rich_summary.csv"
    _write_report(path, county_summary=True)
    pc = read_canvass(path)
    assert pc.precincts == ["Rich County"]
    assert totals_of(pc, "PRESIDENT AND VICE PRESIDENT") == _expected(
        "PRESIDENT AND VICE PRESIDENT")
    assert [i.severity for i in pc.issues if "no precinct breakdown" in i.message] == \
        [Severity.WARNING]


@pytest.mark.parametrize(
    ("kw", "words", "row_label"),
    [
        ({"mode_mismatch": True}, "vote-mode columns do not add up", "REP DONALD J. TRUMP"),
        ({"tvc_off_by": 4}, "'Total Votes Cast' line says", "Total Votes Cast"),
    ],
    ids=["modes-disagree-with-total", "choices-disagree-with-total-votes-cast"],
)
def test_report_that_does_not_add_up_is_a_warning_naming_the_row(
        tmp_path: Path, kw: dict[str, object], words: str, row_label: str) -> None:
    path = tmp_path / "duchesne_2018g.csv"
    _write_report(path, **kw)  # type: ignore[arg-type]
    pc = read_canvass(path)
    hits = [i for i in pc.issues if words in i.message]
    assert hits, [str(i) for i in pc.issues]
    assert hits[0].severity is Severity.WARNING
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[hits[0].row - 1].startswith(row_label)
    # The TOTAL column is what counts.
    assert totals_of(pc, "PRESIDENT AND VICE PRESIDENT") == _expected(
        "PRESIDENT AND VICE PRESIDENT")


def test_numeric_precinct_names_are_precincts(tmp_path: Path) -> None:
    path = tmp_path / "duchesne.csv"
    _write_report(path)
    text = path.read_text(encoding="utf-8").replace("0101 RANDOLPH", "0101") \
        .replace("0202 WOODRUFF", "0202")
    path.write_text(text, encoding="utf-8")
    pc = read_canvass(path)
    assert pc.precincts == ["0101", "0202"]
    assert not [i for i in pc.issues if "belongs to no contest" in i.message]


def test_total_column_that_cannot_be_told_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    _write_report(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith("ANN OLSEN,"))
    assert lines[i - 1] == ",,TOTAL,VOT%,Election Day,By Mail"
    lines[i - 1] = ",,Election Day,By Mail,Provisional,TOTAL"
    lines[i] = "ANN OLSEN,,20,150,170,,"   # three numbers under four columns
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    pc = read_canvass(path)
    hits = [x for x in pc.issues if "cannot be told" in x.message]
    assert (hits[0].row, hits[0].severity) == (i + 1, Severity.ERROR)
    assert "ELECTION DAY, BY MAIL, PROVISIONAL, TOTAL" in hits[0].message
    # The block's lines are left out, not guessed: only precinct 0202 counts for ANN OLSEN.
    assert totals_of(pc, "RICH COUNTY SCHOOL BOARD SEAT 2")["ANN OLSEN"] == 710


def test_named_write_ins_replace_the_write_in_total_only_in_their_own_block(
        tmp_path: Path) -> None:
    path = tmp_path / "primary.csv"
    _write_report(path, modes=False)
    lines = path.read_text(encoding="utf-8").splitlines()
    # Precinct 0101's president block names its two write-ins; 0202 only has the total.
    i = next(k for k, x in enumerate(lines) if x.startswith("Write-In Totals,"))
    lines[i + 1:i + 1] = ["Write-In: JANE DOE,,1,,,", "Write-In: Invalid,,1,,,"]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    pc = read_canvass(path)
    pres = totals_of(pc, "PRESIDENT AND VICE PRESIDENT")
    assert pres["Write-In: JANE DOE"] == 1
    assert "Write-In: Invalid" not in pres
    assert pres["Write-In Totals"] == 0    # 0202's own total; 0101's total is not counted again
    assert any("1 invalid write-in" in i.message for i in pc.issues)
    assert pc.errors == []


def test_report_whose_every_line_is_unreadable_fails_naming_the_first_problem(
        tmp_path: Path) -> None:
    from recount_desk.formats import ImportFailed

    path = tmp_path / "odd.csv"
    _write_report(path)
    text = path.read_text(encoding="utf-8").replace(
        ",,TOTAL,VOT%,Election Day,By Mail", ",,Election Day,By Mail,Provisional,TOTAL")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ImportFailed) as e:
        read_canvass(path)
    assert "cannot be told" in e.value.issue.message
    assert e.value.issue.row is not None
