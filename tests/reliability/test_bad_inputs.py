"""Every hostile or broken file of tests/data/bad gives its message, or imports right.

The table below is the contract (EXPECTED.md says the same in words): a file either fails to
read (``ImportFailed``), reads with an issue that names file, sheet and row, or imports with the
expected totals. Never a traceback, never a hang, never a changed case.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from recount_desk.actions import canvass as canvass_actions
from recount_desk.actions import verify as verify_actions
from recount_desk.actions.canvass import ImportFailed, ImportRefused
from recount_desk.actions.case import create_case, open_case
from recount_desk.cli import main
from recount_desk.core.model import Election, ElectionKind, Severity

BAD = Path(__file__).parents[1] / "data" / "bad"

FAIL, ERROR, OK = "fails to read", "read with an error", "imports"
GOOD = {"Ann Able": 15, "Bob Baker": 16}


@dataclass(frozen=True)
class Bad:
    file: str
    outcome: str  # FAIL, ERROR or OK
    message: str  # a fragment of the message (ImportFailed's, or one of the issues)
    row: int | None = None  # the row the message names, where it applies
    totals: dict[str, int] | None = None  # OK: the imported totals of 'Mayor'


CASES = [
    # Empty and almost empty.
    Bad("empty.csv", FAIL, "The file is empty"),
    Bad("empty.xlsx", FAIL, "The file is empty"),
    Bad("headers_only.csv", FAIL, "has a header but no rows"),
    Bad("headers_only.xlsx", FAIL, "has a header but no rows"),
    Bad("blank_lines_only.csv", FAIL, "does not recognise this layout"),
    Bad("header_then_blank_lines.csv", ERROR, "No contest results were found"),
    Bad("empty_sheet.xlsx", FAIL, "does not recognise this layout"),
    # Not spreadsheets.
    Bad("pdf_renamed.xlsx", FAIL, "This is a PDF document"),
    Bad("png_renamed.xlsx", FAIL, "This is a picture"),
    Bad("jpeg_renamed.xlsx", FAIL, "This is a picture"),
    Bad("html_renamed.xls", FAIL, "web page (HTML)"),
    Bad("sqlite_renamed.csv", FAIL, "binary data"),
    Bad("garbage.bin", FAIL, "binary data"),
    Bad("garbage_named.xlsx", FAIL, "binary data"),
    Bad("ole2_garbage.xls", FAIL, "The workbook is damaged"),
    Bad("random_text.csv", FAIL, "does not recognise this layout"),
    Bad("utf16.csv", FAIL, "saved as UTF-16"),
    Bad("semicolon.csv", FAIL, "does not recognise this layout"),
    Bad("tab_separated.csv", FAIL, "does not recognise this layout"),
    Bad("missing_votes_column.csv", FAIL, "does not recognise this layout"),
    # Damaged or hostile workbooks.
    Bad("zip_bomb.xlsx", FAIL, "zip bomb"),
    Bad("invalid_xml.xlsx", FAIL, "The workbook is damaged"),
    Bad("encrypted.xlsx", FAIL, "protected with a password"),
    Bad("truncated.xlsx", FAIL, "The file is damaged"),
    Bad("zip_without_sheet.xlsx", FAIL, "holds no spreadsheet"),
    Bad("docx_renamed.xlsx", FAIL, "does not recognise this layout"),
    Bad("million_rows.xlsx", OK, "", totals=GOOD),
    # Formulas and Excel error values.
    Bad("formulas.xlsx", OK, "", totals=GOOD),
    Bad("error_div0.xlsx", ERROR, "Excel error value #DIV/0!", row=3),
    Bad("error_na.xlsx", ERROR, "Excel error value #N/A", row=5),
    # (a formula with no value: its count is not in the file, so it is an error, not 0)
    Bad("formula_no_cache.xlsx", ERROR, "a formula with no value (=4+6)", row=2),
    # Vote counts that are not counts.
    Bad("negative_votes.csv", ERROR, "'-7' is negative", row=3),
    Bad("negative_votes.xlsx", ERROR, "'-7' is negative", row=3),
    Bad("fractional_votes.csv", ERROR, "'5.5' is not a whole number", row=4),
    Bad("text_votes.csv", ERROR, "'five' is not a number", row=4),
    Bad("european_thousands.csv", ERROR, "'1.210' is not a whole number", row=2),
    Bad("huge_number.csv", ERROR, "too large to be a vote count", row=4),
    Bad("nan_inf_votes.csv", ERROR, "'NaN' is not a number", row=2),
    Bad("percent_votes.csv", ERROR, "'55%' is not a number", row=4),
    Bad("thousands_separators.csv", OK, "", totals={"Ann Able": 1215, "Bob Baker": 2016}),
    Bad("blank_vote.csv", OK, "have no vote count", row=3,
        totals={"Ann Able": 15, "Bob Baker": 9}),
    # Duplicates, totals rows, ragged rows, merged cells, hidden sheets.
    Bad("duplicate_disagree.csv", ERROR, "Duplicate rows disagree for 'Bob Baker'"),
    Bad("duplicate_exact.csv", OK, "exact duplicate row(s) were counted once", totals=GOOD),
    # The file's totals row is its official figure (issue 12); the verdict then needs the
    # precincts to agree with it (tests/core/test_rules_issue12.py).
    Bad("totals_disagree.csv", OK, "do not add up to the file's own totals row",
        totals={"Ann Able": 15, "Bob Baker": 61}),
    Bad("ragged_row.csv", FAIL, "more fields than the header", row=4),
    Bad("blank_office.csv", ERROR, "names no contest", row=4),
    Bad("merged_cells.xlsx", ERROR, "merged cells", row=3),
    Bad("hidden_sheet.xlsx", OK, "Hidden sheet(s) 'Old draft' were not read", totals=GOOD),
    # Encodings.
    Bad("bom.csv", OK, "", totals=GOOD),
    Bad("latin1.csv", OK, "read as Windows-1252",
        totals={"José Núñez": 15, "Zoë Brontë": 16}),
    Bad("mojibake.csv", OK, "look garbled",
        totals={"JosÃ© NÃºÃ±ez": 15, "ZoÃ« BrontÃ«": 16}),
    # Hostile names: kept as the literal text they are.
    Bad("markup_names.csv", OK, "",
        totals={"<b>Ann Able</b>": 15, "<script>alert(1)</script>": 16}),
    Bad("formula_injection.csv", OK, "",
        totals={'=HYPERLINK("http://example.invalid/x","Click")': 15,
                "+cmd|' /C calc'!A0": 16}),
    # (issue 14: a 3,000+ character name imported, then broke the report at the very end)
    Bad("long_name.csv", ERROR, "is not a candidate's name"),
    Bad("rtl_names.csv", OK, "",
        totals={"\u05d3\u05d5\u05d3 \u05db\u05d4\u05df": 15,
                "\u0645\u062d\u0645\u062f \u0639\u0644\u064a": 16}),
    Bad("bidi_override.csv", OK, "text-direction characters",
        totals={"Ann \u202eelbA": 15, "Bob Baker": 16}),
    Bad("control_chars.csv", OK, "control or text-direction",
        totals={"Ann\x07Able": 15, "Bob\x1bBaker": 16}),
]
IDS = [c.file for c in CASES]


def test_the_table_covers_every_file_and_there_are_at_least_40() -> None:
    on_disk = {p.name for p in BAD.iterdir() if p.suffix not in (".py", ".md")}
    assert on_disk == set(IDS)
    assert len(CASES) >= 40


def _issue_matching(parsed: canvass_actions.ParsedCanvass, bad: Bad):
    found = [i for i in parsed.issues if bad.message in i.message]
    assert found, f"{bad.message!r} not in {[i.message for i in parsed.issues]}"
    return found[0]


@pytest.mark.parametrize("bad", CASES, ids=IDS)
def test_bad_file_gives_its_message_or_imports_right(bad: Bad) -> None:
    path = BAD / bad.file
    if bad.outcome == FAIL:
        with pytest.raises(ImportFailed) as exc:
            canvass_actions.read_file(path)
        issue = exc.value.issue
        assert bad.message in issue.message
        assert issue.file == bad.file
        assert issue.severity is Severity.ERROR
        if bad.row is not None:
            assert issue.row == bad.row
        return
    parsed = canvass_actions.read_file(path)
    if bad.outcome == ERROR:
        issue = _issue_matching(parsed, bad)
        assert issue.severity is Severity.ERROR
        assert parsed.errors
    else:
        assert not parsed.errors, [str(i) for i in parsed.errors]
        if bad.message:
            issue = _issue_matching(parsed, bad)
        mayor = next(t for t in parsed.totals if t.contest.key.title == "Mayor")
        assert {c.choice.name: c.votes for c in mayor.choices} == bad.totals
    if bad.message:
        assert issue.file == bad.file
        if bad.file.endswith(".xlsx"):
            assert issue.sheet
        if bad.row is not None:
            assert issue.row == bad.row


@pytest.fixture(scope="module")
def template_case(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("case") / "template.recount"
    election = Election("2025 Municipal General", date(2025, 11, 4),
                        ElectionKind.MUNICIPAL_GENERAL, "Grand County")
    create_case(path, election).close()
    return path


@pytest.mark.parametrize("bad", CASES, ids=IDS)
def test_failed_import_leaves_the_case_unchanged(bad: Bad, template_case: Path,
                                                 tmp_path: Path) -> None:
    path = tmp_path / "case.recount"
    shutil.copy(template_case, path)
    with open_case(path) as case:
        before = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
        try:
            parsed = canvass_actions.read_file(BAD / bad.file, primary=False)
            canvass_actions.import_canvass(case, parsed)
            imported = True
        except (ImportFailed, ImportRefused):
            imported = False
        after = case.conn.execute("SELECT count(*) FROM audit").fetchone()[0]
    assert imported == (bad.outcome == OK)
    assert after == before + (1 if imported else 0)
    result = verify_actions.verify_case(path)
    assert result.ok, result.summary()


@pytest.mark.parametrize("bad", CASES, ids=IDS)
def test_cli_check_exits_cleanly(bad: Bad, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", str(BAD / bad.file), "--date", "2025-11-04"])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    assert code == (0 if bad.outcome == OK else 1)
    if bad.outcome == FAIL:
        assert bad.file in err and bad.message in err
