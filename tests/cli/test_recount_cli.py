"""The recount on the command line: request, start, recount --from, status, tally-sheets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recount_desk import store
from recount_desk.actions.case import open_case
from recount_desk.cli import main

DATA = Path(__file__).parents[1] / "data" / "retab"
SL_CANVASS = DATA / "20161108__ut__general__salt_lake__precinct__legislature.csv"
SL_RECOUNT = DATA / "SOVC - Salt Lake Recount.xlsx"


@pytest.fixture
def sl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    case = str(tmp_path / "sl.recount")
    assert main(["new", case, "--name", "2016 General Election", "--date", "2016-11-08",
                 "--kind", "general", "--jurisdiction", "Salt Lake County",
                 "--canvass-completed", "2016-11-22T12:00"]) == 0
    assert main(["import", case, str(SL_CANVASS)]) == 0
    capsys.readouterr()
    assert main(["status", case]) == 0
    out = capsys.readouterr().out
    m = re.search(r"^\[(\d+)\] State House — District 32 ", out, re.M)
    assert m
    return case, m.group(1)


def audit_len(path: str) -> int:
    with open_case(path, readonly=True) as c:
        return sum(1 for _ in store.audit_entries(c.conn))


def test_request_start_and_load_the_hd32_recount_from_the_command_line(
        sl: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    case, cid = sl
    assert main(["request", case, "--contest", cid, "--candidate", "suzanne harrison",
                 "--filed-at", "2016-11-29 10:15", "--filed-with", "county_clerk"]) == 0
    assert "Filed on time" in capsys.readouterr().out
    assert main(["start", case, "--contest", cid, "--method", "retabulation"]) == 0
    started = capsys.readouterr().out
    assert "39 units. Load the re-tabulated statement with `recount --from FILE`" in started
    before = audit_len(case)
    assert main(["recount", case, "--contest", cid, "--from", str(SL_RECOUNT)]) == 0
    out = capsys.readouterr().out
    assert "Lavar Christensen 8,541 → 8,541 (+0)" in out
    assert "The declared result does not change" in out
    assert "Nothing was written" in out
    assert audit_len(case) == before
    assert main(["recount", case, "--contest", cid, "--from", str(SL_RECOUNT), "--yes"]) == 0
    out = capsys.readouterr().out
    assert "Loaded 39 of 39 units" in out
    assert "e1512f36d03248189670df52b0a461ee0eda11db82f11e23b810bc52f2f8bc49" in out
    assert audit_len(case) == before + 1
    assert main(["status", case]) == 0
    assert "State House — District 32 — tallies reconciled; 39 of 39 units reconciled" in \
        capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["request", "{case}", "--contest", "{cid}", "--candidate", "Suzanne Harrison",
      "--filed-at", "2016-12-05 09:00", "--filed-with", "county_clerk"], "Late"),
    (["request", "{case}", "--contest", "{cid}", "--candidate", "Lavar Christensen",
      "--filed-at", "2016-11-28 09:00", "--filed-with", "county_clerk"],
     "not a losing candidate"),
    (["recount", "{case}", "--contest", "{cid}", "--from", str(SL_RECOUNT)],
     "has not been started"),
    (["start", "{case}", "--contest", "9999", "--method", "hand_count"],
     "no contest number 9999"),
], ids=["late-request", "winner-asks", "not-started", "no-contest"])
def test_refusals_are_one_sentence_and_exit_1(sl: tuple[str, str], argv: list[str],
                                              message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    case, cid = sl
    before = audit_len(case)
    assert main([a.format(case=case, cid=cid) for a in argv]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert audit_len(case) == before


def test_the_wrong_contest_in_the_file_is_not_taken_silently(
        sl: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    case, _ = sl
    assert main(["status", case]) == 0
    hd33 = re.search(r"^\[(\d+)\] State House — District 33 ", capsys.readouterr().out, re.M)
    assert hd33
    assert main(["start", case, "--contest", hd33.group(1), "--method", "retabulation"]) == 0
    capsys.readouterr()
    before = audit_len(case)
    assert main(["recount", case, "--contest", hd33.group(1), "--from", str(SL_RECOUNT),
                 "--yes"]) == 1
    assert "no contest of the file is surely the recount" in capsys.readouterr().err
    assert audit_len(case) == before


def test_tally_sheets_print_one_page_per_unit(sl: tuple[str, str], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from pypdf import PdfReader

    case, cid = sl
    assert main(["start", case, "--contest", cid, "--method", "hand_count"]) == 0
    out = tmp_path / "sheets.pdf"
    assert main(["tally-sheets", case, "--contest", cid, "-o", str(out)]) == 0
    assert "Wrote 39 tally sheet(s)" in capsys.readouterr().out
    pdf = PdfReader(str(out))
    assert len(pdf.pages) == 39
    first = pdf.pages[0].extract_text()
    for text in ("Recount tally sheet", "Unit: DRP006", "Suzanne Harrison",
                 "Lavar Christensen", "Write-ins", "Over-votes", "Under-votes",
                 "Ballots counted", "Signature — officer 1", "Signature — officer 2"):
        assert text in first
