"""A canvass cut short reads as a smaller canvass, every figure plausible: the readers refuse
what the file itself shows to be cut (issue 16).

- A vendor export that always ends with its totals rows (ES&S 'ZZZ, COUNTY TOTALS', the
  statement's 'Election Total' block, GEMS 'Election Total' 999999 rows) and has none.
- A long table whose last precinct lists only some of a contest's choices (cut at a line's
  end inside a precinct's rows).
- A Salt Lake SOVC's or a Clarity workbook's contest sheet without the county totals it
  ends with.

Files: tests/data/formats (GEMS Wayne 2016, Davis 2016 primary statement, Salt Lake SOVC
2018 primary and 2024 general, Salt Lake Clarity 2020) and tests/data/openelections (Wayne
2022 general), each with its source note there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

DATA = Path(__file__).resolve().parents[1] / "data"
GEMS = DATA / "formats" / "gems" / "wayne_2016g_gems.txt"
DAVIS = DATA / "formats" / "ess_custom" / "davis_2016p_sovc.xlsx"
OE = DATA / "openelections"


def test_a_gems_export_without_its_election_total_rows_is_refused(tmp_path: Path) -> None:
    lines = GEMS.read_text(encoding="utf-8", errors="replace").splitlines()
    cut = tmp_path / GEMS.name
    cut.write_text("\n".join(x for x in lines if ",999999," not in x) + "\n",
                   encoding="utf-8")
    pc = read_canvass(cut)
    [err] = [i for i in pc.errors if "Election Total" in i.message]
    assert "cut short" in err.message and pc.blocking == [err]
    assert not read_canvass(GEMS).errors  # (the whole file reads clean)


def test_a_statement_without_its_election_total_block_is_refused(tmp_path: Path) -> None:
    from openpyxl import Workbook, load_workbook

    src = load_workbook(DAVIS).worksheets[0]
    wb = Workbook()
    ws = wb.active
    for row in src.iter_rows(values_only=True):
        if isinstance(row[0], str) and row[0].strip() == "Election Total":
            break  # cut there: the block and everything after it are gone
        ws.append(list(row))
    cut = tmp_path / "davis_cut.xlsx"
    wb.save(cut)
    pc = read_canvass(cut)
    errs = [i for i in pc.errors if "no Totals row" in i.message]
    assert errs and errs[0].severity is Severity.ERROR and "cut short" in errs[0].message


def _figures(pc) -> dict[str, dict[str, int]]:
    return {t.contest.key.label(): {c.choice.name: c.votes for c in t.choices}
            for t in pc.totals}


def test_a_long_table_cut_at_any_line_end_of_its_last_precinct_is_refused_or_read_right(
        tmp_path: Path) -> None:
    """Wayne 2022, cut after each line of its last precinct's contest rows: the reading
    says the file is cut short, or every candidate's figure is the whole file's (only the
    over- and under-vote lines were cut). Never a smaller canvass offered as the whole one.
    (Cut before its first contest row, the file is a canvass of one precinct less: nothing
    in it shows that.)"""
    src = OE / "20221108__ut__general__wayne__precinct.csv"
    lines = src.read_text(encoding="utf-8").splitlines()
    last = lines[-1].split(",")[1]
    block = [k for k, line in enumerate(lines)
             if line.split(",")[1:2] == [last] and line.split(",")[2]]
    whole = _figures(read_canvass(src))
    refused = 0
    for end in range(block[0] + 1, len(lines)):
        cut = tmp_path / src.name
        cut.write_text("\n".join(lines[:end]) + "\n", encoding="utf-8")
        pc = read_canvass(cut)
        told = [i for i in pc.errors if "cut short" in i.message]
        if told:
            refused += 1
            assert told[0].row is not None and told[0].row <= end
            continue
        got = _figures(pc)
        assert {k: v for k, v in got.items()} == whole, f"cut after line {end}"
    assert refused >= len(block) // 2


@pytest.mark.parametrize(("source", "sheet"), [
    ("slco_sovc/Salt Lake UT 18P_SOVC_Final.xlsx", 1),
    ("slco_sovc/slco-2024-general-sovc-trimmed.xlsx", 1),
    ("slco_sovc/slco-2024-general-sovc-trimmed.xlsx", 3),
    ("clarity/SaltLake_2020 Precinct2.xlsx", 2),
])
def test_a_contest_sheet_cut_in_half_withholds_that_contests_verdict(
        tmp_path: Path, source: str, sheet: int) -> None:
    """A Salt Lake SOVC or Clarity workbook with one contest's sheet cut in half: its
    county totals (the Election Total block, the 'Total:' row) are gone, and its precincts
    read as a whole contest of fewer votes (House 32's recount statement, cut so, lost its
    5-vote margin). It is an error on that contest: no verdict, no import."""
    from openpyxl import load_workbook

    wb = load_workbook(DATA / "formats" / source)
    ws = wb.worksheets[sheet]
    ws.delete_rows(ws.max_row // 2, ws.max_row)
    cut = tmp_path / "cut.xlsx"
    wb.save(cut)
    pc = read_canvass(cut)
    [err] = [i for i in pc.errors if "cut short" in i.message]
    assert err.sheet == ws.title and err.contest in {c.key for c in pc.contests}
    assert pc.blocking == [err] and not pc.withheld
    assert not read_canvass(DATA / "formats" / source).errors  # (whole, it reads clean)


# --- Session 14: a Dominion export without its footnote, an ES&S Summary Results Report cut
# inside its last precinct (tests/data/formats/dominion, Boulder County 2025; and
# tests/data/formats/ess_summary, Box Elder County 2018; each with its source note there).

BOULDER = DATA / "formats" / "dominion" / "2025C-Boulder-County-Official-Statement-of-Votes.csv"
BOX_ELDER = DATA / "formats" / "ess_summary" / "box_elder_2018g_summary.csv"


@pytest.mark.parametrize("keep", [0.5, 0.9, 0.999])
def test_a_dominion_statement_without_its_footnote_is_refused(tmp_path: Path,
                                                              keep: float) -> None:
    # Cut at a line's end, a contest's last precincts gone: read before as done, with a
    # contest at three quarters of its votes.
    from recount_desk.formats import ImportFailed

    lines = BOULDER.read_text(encoding="utf-8-sig").splitlines()
    cut = tmp_path / BOULDER.name
    cut.write_text("\n".join(lines[:int(len(lines) * keep)]) + "\n", encoding="utf-8")
    with pytest.raises(ImportFailed) as e:
        read_canvass(cut)
    assert "The file seems cut short: its header marks 'Active Voters*' for the footnote" in \
        e.value.issue.message
    assert not read_canvass(BOULDER).errors   # (the whole file, footnote and all, reads)


def test_a_dominion_statement_whose_header_marks_no_footnote_needs_none(tmp_path: Path) -> None:
    lines = BOULDER.read_text(encoding="utf-8-sig").splitlines()
    plain = tmp_path / "plain.csv"
    plain.write_text("\n".join([lines[0].replace("*", ""),
                                *[x for x in lines[1:] if not x.startswith('"*')]]) + "\n",
                     encoding="utf-8")
    assert not read_canvass(plain).errors


def _report_lines() -> list[str]:
    return BOX_ELDER.read_text(encoding="utf-8-sig").splitlines()


def test_a_summary_report_cut_inside_its_last_precinct_is_refused(tmp_path: Path) -> None:
    # Box Elder's report lists each precinct's contests in turn, with no county totals:
    # cut at a line's end, its last precinct's last contests were gone without a word.
    lines = _report_lines()
    starts = [i for i, x in enumerate(lines) if x.startswith("Summary Results Report")]
    # The last precinct's first page: its first contests, not the rest.
    precinct_at = [i + 3 for i in starts]
    names = [lines[i].split(",")[0] for i in precinct_at]
    first_of_last = next(i for i, n in zip(starts, names, strict=True) if n == names[-1])
    cut = tmp_path / BOX_ELDER.name
    refused = 0
    for end in range(first_of_last + 12, len(lines) - 1, 7):
        cut.write_text("\n".join(lines[:end]) + "\n", encoding="utf-8")
        pc = read_canvass(cut)
        errs = [i for i in pc.errors if "seems cut short" in i.message]
        if errs:
            refused += 1
            assert f"its last precinct, {names[-1]!r}, lists" in errs[0].message
            assert pc.blocking
    assert refused >= 0.8 * len(range(first_of_last + 12, len(lines) - 1, 7))
    assert not [i for i in read_canvass(BOX_ELDER).errors if "cut short" in i.message]
