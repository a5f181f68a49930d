"""Clarity ENR exports: SpreadsheetML detail.xls (zipped, streamed), re-saved xlsx, detail.xml."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import ImportFailed, detect, read_canvass
from recount_desk.formats.clarity import iter_spreadsheetml

DATA = Path(__file__).parents[1] / "data" / "formats" / "clarity"


def totals_of(parsed, title: str, party: str = ""):
    for t in parsed.totals:
        if t.contest.key.title == title and t.contest.key.party == party:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("file", "contests", "title", "party", "expected", "primary"),
    [
        ("slco-2022-general-detail-trimmed.zip", 2, "U.S. SENATE", "",
         {"EVAN MCMULLIN": 218495, "MIKE LEE": 144931, "JAMES ARTHUR HANSEN": 13902,
          "TOMMY WILLIAMS": 3780, "LAIRD FETZER HAMBLIN": 57, "MICHAEL SEGUIN": 20,
          "ABRAHAM KORB": 10}, None),
        ("SaltLake_2020 Precinct2.xlsx", 15, "GOVERNOR", "REP",
         {"JON HUNTSMAN JR. / MICHELLE KAUFUSI": 74997,
          "SPENCER J. COX / DEIDRE M. HENDERSON": 53161,
          "GREG HUGHES / VICTOR IVERSON": 24325, "THOMAS E. WRIGHT / ROB BISHOP": 10680}, True),
        ("greenup-ky-2014-primary-detail.xml", 1, "US Senator", "REP",
         {"Matt BEVIN": 820, "Brad COPAS": 11, "Mitch McCONNELL": 1135, "Chris PAYNE": 48,
          "Shawna STERLING": 46}, True),
    ],
    ids=["slco-2022-detail-xls-in-zip", "slco-2020-primary-resaved-xlsx", "greenup-detail-xml"],
)
def test_real_files_give_hand_checked_totals(file, contests, title, party, expected, primary):
    path = DATA / file
    assert detect(path)[0].family == "clarity"
    parsed = read_canvass(path)
    assert len(parsed.contests) == contests
    t = totals_of(parsed, title, party)
    assert {c.choice.name: c.votes for c in t.choices} == expected
    # The file's own 'Total:' row / totalVotes agree with the precincts: no warning.
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    if primary is not None:
        assert parsed.primary is primary


def test_detail_xls_seats_come_from_the_title_with_a_note():
    parsed = read_canvass(DATA / "slco-2022-general-detail-trimmed.zip")
    senate = totals_of(parsed, "U.S. SENATE").contest
    assert senate.seats == 1
    assert senate.seats_from_file
    assert any("( n)" in i.message and i.sheet == "Table of Contents" for i in parsed.issues)
    # Only the 'Total Votes' column of each candidate is read, per precinct: ALT001.
    house = totals_of(parsed, "U.S. HOUSE DISTRICT #1")
    assert {c.choice.name for c in house.choices} == {"RICK EDWIN JONES", "BLAKE D. MOORE"}
    assert len(parsed.precincts) == 842


def test_resaved_xlsx_unescapes_names_and_reads_text_counts():
    parsed = read_canvass(DATA / "SaltLake_2020 Precinct2.xlsx")
    rep4 = totals_of(parsed, "U.S. REPRESENTATIVE DISTRICT #4", "REP")
    assert {c.choice.name: c.votes for c in rep4.choices}['JAY "JAYMAC" MCFARLAND'] == 20038


def test_detail_xml_keeps_over_and_under_votes_apart_and_reads_vote_for():
    parsed = read_canvass(DATA / "greenup-ky-2014-primary-detail.xml")
    t = totals_of(parsed, "US Senator", "REP")
    assert t.contest.seats == 1
    assert t.contest.seats_from_file
    assert {k.value for k in t.extras} == {"over", "under"}
    assert "Undervotes" not in {c.choice.name for c in t.choices}
    assert parsed.election_date == "2014-05-20"


def test_detail_xml_whose_choice_total_disagrees_is_reported():
    # Arkansas 2014: Tom Cotton's vote types add up to 462,123 but totalVotes says 477,734.
    parsed = read_canvass(DATA / "arkansas-2014-general-detail.xml")
    t = totals_of(parsed, "U.S. Senate")
    assert t.choices[0].votes == 462123
    warn = [i for i in parsed.issues if "do not add up" in i.message]
    assert warn
    assert warn[0].severity is Severity.WARNING
    assert "477,734" in warn[0].message


_SS_HEAD = ('<?xml version="1.0"?>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet"'
            ' xmlns:ss="urn:schemas-microsoft-com:office:spreadsheet">')


def _sheet(name: str, rows: str) -> str:
    return f'<Worksheet ss:Name="{name}"><Table>{rows}</Table></Worksheet>'


def _c(v: str, extra: str = "") -> str:
    return f'<Cell{extra}><Data ss:Type="String">{v}</Data></Cell>'


def _synthetic_workbook() -> str:
    toc = _sheet("Table of Contents", "<Row>" + _c("Page") + _c("Contest") + "</Row>"
                 + "<Row>" + _c("2") + _c("CITY COUNCIL ( 2)") + "</Row>")
    rv = _sheet("Registered Voters", "<Row>" + _c("Total:") + "</Row>")
    contest = _sheet("2", (
        "<Row>" + _c("CITY COUNCIL ( 2)", ' ss:MergeAcross="4"') + "</Row>"
        # names merged across their two vote-type columns; the first name placed by ss:Index
        + "<Row>" + _c("ANN", ' ss:Index="3" ss:MergeAcross="1"') + _c("BOB", ' ss:MergeAcross="1"')
        + "</Row>"
        + "<Row>" + _c("") + _c("Registered Voters") + _c("Mail") + _c("Total Votes") + _c("Mail")
        + _c("Total Votes") + _c("Total") + "</Row>"
        + "<Row>" + _c("P1") + _c("10") + _c("3") + _c("4") + _c("1") + _c("2") + _c("6") + "</Row>"
        + '<Row ss:Index="6">' + _c("P2") + _c("10") + _c("5") + _c("5") + _c("1") + _c("1")
        + _c("6") + "</Row>"
        + "<Row>" + _c("Total:") + _c("20") + _c("8") + _c("9") + _c("2") + _c("3") + _c("12")
        + "</Row>"))
    return _SS_HEAD + toc + rv + contest + "</Workbook>"


def test_spreadsheetml_merge_across_and_index_place_cells(tmp_path):
    sheets = dict(iter_spreadsheetml(io.BytesIO(_synthetic_workbook().encode())))
    rows = sheets["2"]
    assert rows[1][:6] == ["", "", "ANN", "", "BOB", ""]
    assert rows[4] == []  # the row skipped by ss:Index="6"
    path = tmp_path / "detail.xls"
    path.write_text(_synthetic_workbook())
    parsed = read_canvass(path)
    t = totals_of(parsed, "CITY COUNCIL")
    assert t.contest.seats == 2
    assert {c.choice.name: c.votes for c in t.choices} == {"ANN": 9, "BOB": 3}
    assert parsed.precincts == ["P1", "P2"]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("entity.xls",
         '<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaa">]>\n<Workbook xmlns='
         '"urn:schemas-microsoft-com:office:spreadsheet"><!-- SOE Software --></Workbook>',
         "forbidden DTD"),
        ("broken.xls", _synthetic_workbook()[:-40], "invalid XML"),
        ("results.xml", '<?xml version="1.0"?>\n<ElectionResult><ElectionName>x</ElectionName>'
         "</ElectionResult>", "holds no <Contest>"),
    ],
    ids=["dtd-entities-refused", "truncated-xml", "detail-xml-without-contests"],
)
def test_unreadable_clarity_files_fail_with_one_clear_sentence(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ImportFailed) as e:
        read_canvass(path, family="clarity")
    assert message in str(e.value)
    assert "Download" in str(e.value)


def test_zip_without_a_clarity_file_is_not_claimed_and_fails_clearly(tmp_path):
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("notes.xml", "<notes/>")
    assert all(d.family != "clarity" for d in detect(path))
    with pytest.raises(ImportFailed, match=r"holds no Clarity detail\.xls"):
        read_canvass(path, family="clarity")
