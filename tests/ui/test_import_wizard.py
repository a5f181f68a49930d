"""The import wizard, driven page by page with real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox, QWizard
from pytestqt.qtbot import QtBot

from recount_desk.cli import main
from recount_desk.core.rules import Verdict
from recount_desk.ui.dialogs.import_wizard import (
    CONFIRM_PAGE,
    FORMAT_PAGE,
    ISSUES_PAGE,
    MAP_MYSELF,
    MAPPING_PAGE,
    PREVIEW_PAGE,
    SETTINGS_PAGE,
    WIDE,
    ImportWizard,
)
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.models import SEATS_COL

from .conftest import SIGNAL_MS


def _next(wiz: ImportWizard) -> None:
    wiz.button(QWizard.WizardButton.NextButton).click()


def _read_file(wiz: ImportWizard, qtbot: QtBot, path: Path) -> None:
    wiz.file_page.path.setText(str(path))
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == FORMAT_PAGE)


def test_import_a_real_canvass_through_every_page(empty_case: MainWindow, qtbot: QtBot,
                                                  ui_data: Path) -> None:
    window = empty_case
    wiz = window.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, ui_data / "20221108__ut__general__beaver__precinct.csv")
    assert "Long table" in wiz.format_page.summary.text()
    assert "95 %" in wiz.format_page.summary.text()
    _next(wiz)
    assert wiz.currentId() == PREVIEW_PAGE
    assert "5 contests" in wiz.preview_page.summary.text()
    labels = [wiz.preview_page.model.cell(r, 0) for r in range(wiz.preview_page.model.rowCount())]
    assert "U.S. Senate" in labels
    _next(wiz)
    assert wiz.currentId() == ISSUES_PAGE
    assert "can be imported" in wiz.issues_page.banner.text()
    assert wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    _next(wiz)
    assert wiz.currentId() == SETTINGS_PAGE
    # Seats for the first contest through the table's editor: F2, type, Enter.
    table = wiz.settings_page.table
    table.setCurrentIndex(wiz.settings_page.model.index(0, SEATS_COL))
    qtbot.keyClick(table, Qt.Key.Key_F2)
    editor = table.viewport().findChild(QSpinBox)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "2")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    # The delegate commits on the next turn of the event loop.
    qtbot.waitUntil(lambda: wiz.settings_page.model.value(0).seats == 2)
    _next(wiz)
    assert wiz.currentId() == CONFIRM_PAGE
    assert not wiz.confirm_page.replace.isVisible()
    with qtbot.waitSignal(window.canvass_imported, timeout=SIGNAL_MS):
        wiz.button(QWizard.WizardButton.FinishButton).click()
    assert not wiz.isVisible()
    rows = window.contests_page.all_rows()
    assert len(rows) == 5
    first = min(rows, key=lambda r: r.id)
    assert first.check.totals.contest.seats == 2
    assert "5 contests" in window.status_case.text()


def test_a_canvass_with_errors_cannot_be_imported_and_says_why(
        empty_case: MainWindow, qtbot: QtBot, ui_data: Path) -> None:
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, ui_data / "grand_2018_bad_vote.csv")
    _next(wiz)
    _next(wiz)
    assert wiz.currentId() == ISSUES_PAGE
    assert "cannot be imported" in wiz.issues_page.banner.text()
    model = wiz.issues_page.model
    first = [model.cell(0, c) for c in range(model.columnCount())]
    assert first[0] == "Error"
    assert first[1] == "grand_2018_bad_vote.csv"
    assert first[3] == 10
    assert first[4] == "votes"
    assert "'1O3' is not a number" in first[5]
    assert not wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    wiz.reject()
    assert empty_case.contests_page.all_rows() == []


def test_a_candidate_spelled_two_ways_withholds_that_contests_verdict_only(
        empty_case: MainWindow, qtbot: QtBot, ui_data: Path, tmp_path: Path) -> None:
    """Tim Aalders spelled 'Tim Alders' in one precinct: U.S. Senate's figures as read are
    not one race's, so it has no verdict; the file is imported, and the others decided."""
    text = (ui_data / "grand_2018_bad_vote.csv").read_text().replace(",1O3", ",0")
    text = text.replace("02 Moab 2:69,U.S. Senate,,Con,Tim Aalders,",
                        "02 Moab 2:69,U.S. Senate,,Con,Tim Alders,")
    spelled = tmp_path / "grand_2018_spelled.csv"
    spelled.write_text(text)
    window = empty_case
    wiz = window.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, spelled)
    _next(wiz)
    _next(wiz)
    assert wiz.currentId() == ISSUES_PAGE
    banner = wiz.issues_page.banner.text()
    assert "can be imported" in banner and "1 contest(s) will have no verdict" in banner
    assert "U.S. Senate" in banner
    model = wiz.issues_page.model
    first = [model.cell(0, c) for c in range(model.columnCount())]
    assert first[0] == "Error" and "spelled two ways" in first[5]
    assert wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    _next(wiz)
    _next(wiz)
    assert wiz.currentId() == CONFIRM_PAGE
    with qtbot.waitSignal(window.canvass_imported, timeout=SIGNAL_MS):
        wiz.button(QWizard.WizardButton.FinishButton).click()
    rows = {r.check.totals.contest.key.label(): r for r in window.contests_page.all_rows()}
    from recount_desk.store import repo
    assert repo.withheld_contests(window.case.conn) == {rows["U.S. Senate"].id: 1}


def test_an_unknown_layout_is_read_through_the_mapping_page(
        empty_case: MainWindow, qtbot: QtBot, ui_data: Path) -> None:
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, ui_data / "town_mapping_layout.csv")
    assert "does not recognise" in wiz.format_page.summary.text()
    _next(wiz)
    assert wiz.currentId() == MAPPING_PAGE
    page = wiz.mapping_page
    # The guesses from the header: Ward, Race, Name, Count.
    assert page.columns()["precinct"] == "Ward"
    assert page.columns()["contest"] == "Race"
    assert page.columns()["choice"] == "Name"
    assert page.columns()["votes"] == "Count"
    page.roles["votes"].setCurrentIndex(0)
    assert not wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    assert "Votes" in page.missing.text()
    page.roles["votes"].setCurrentIndex(page.roles["votes"].findText("Count"))
    # One column for two roles is said, and nothing is read until it is put right.
    district = page.roles["district"]
    district.setCurrentIndex(district.findText("Ward"))
    assert not wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    assert "“Ward” is chosen for" in page.missing.text()
    district.setCurrentIndex(0)
    assert page.missing.text() == ""
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == PREVIEW_PAGE)
    assert "2 contests" in wiz.preview_page.summary.text()
    _next(wiz)
    _next(wiz)
    council = next(r for r in range(wiz.settings_page.model.rowCount())
                   if wiz.settings_page.model.data(wiz.settings_page.model.index(r, 0))
                   == "Council")
    wiz.settings_page.model.setData(wiz.settings_page.model.index(council, SEATS_COL), 2)
    _next(wiz)
    with qtbot.waitSignal(empty_case.canvass_imported, timeout=SIGNAL_MS):
        wiz.button(QWizard.WizardButton.FinishButton).click()
    rows = {r.check.totals.contest.key.title: r for r in empty_case.contests_page.all_rows()}
    assert rows["Mayor"].check.decision.verdict is Verdict.WITHIN_MARGIN
    assert rows["Council"].check.totals.contest.seats == 2


def test_a_tab_separated_file_is_said_so_and_read_through_the_mapping_page(
        empty_case: MainWindow, qtbot: QtBot, ui_data: Path, tmp_path: Path) -> None:
    # Excel's "Text (Tab delimited)": no reader takes it, the format page says why, and the
    # mapping page reads it with the same contests as the comma-separated file.
    text = (ui_data / "20221108__ut__general__beaver__precinct.csv").read_text(encoding="utf-8")
    assert "\t" not in text
    path = tmp_path / "beaver.txt"
    path.write_text(text.replace(",", "\t"), encoding="utf-8")
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, path)
    summary = wiz.format_page.summary.text()
    assert "does not recognise" in summary
    assert "separated by tabs, not commas: the mapping reads them" in summary
    _next(wiz)
    assert wiz.currentId() == MAPPING_PAGE
    assert wiz.mapping_page.columns()["votes"] == "votes"
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == PREVIEW_PAGE)
    assert "5 contests" in wiz.preview_page.summary.text()
    wiz.reject()


def test_votes_by_mode_without_a_total_are_said_on_the_format_page(
        empty_case: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    # A long table with 'election_day' and 'mail' but no 'votes': why it is not read is said
    # where the clerk is, not only on the command line.
    path = tmp_path / "modes.csv"
    path.write_text("precinct,office,candidate,election_day,mail\nP1,Mayor,Ann,3,4\n"
                    "P1,Mayor,Bo,1,2\n", encoding="utf-8")
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, path)
    summary = wiz.format_page.summary.text()
    assert "does not recognise" in summary
    assert "no column of total votes" in summary and "&#x27;election_day&#x27;" in summary
    wiz.reject()


def test_replacing_a_canvass_must_be_confirmed(empty_case: MainWindow, qtbot: QtBot,
                                               ui_data: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file

    window = empty_case
    assert window.case is not None
    import_canvass(window.case, read_file(ui_data / "tie_2024.csv"))
    window.refresh()
    wiz = window.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, ui_data / "20221108__ut__general__beaver__precinct.csv")
    for _ in range(4):
        _next(wiz)
    assert wiz.currentId() == CONFIRM_PAGE
    assert wiz.confirm_page.replace.isVisible()
    assert "tie_2024.csv" in wiz.confirm_page.replace.text()
    assert not wiz.button(QWizard.WizardButton.FinishButton).isEnabled()
    wiz.confirm_page.replace.setChecked(True)
    with qtbot.waitSignal(window.canvass_imported, timeout=SIGNAL_MS):
        wiz.button(QWizard.WizardButton.FinishButton).click()
    assert len(window.contests_page.all_rows()) == 5


def test_a_refused_import_says_why_and_writes_nothing(demo: MainWindow, qtbot: QtBot,
                                                     ui_data: Path) -> None:
    """The demo case has a recount under way: its canvass may not be replaced."""
    wiz = demo.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, ui_data / "tie_2024.csv")
    for _ in range(4):
        _next(wiz)
    wiz.confirm_page.replace.setChecked(True)
    with qtbot.waitSignal(wiz.import_failed, timeout=SIGNAL_MS) as failed:
        wiz.button(QWizard.WizardButton.FinishButton).click()
    assert "nothing was changed" in failed.args[0]
    assert wiz.isVisible()
    wiz.reject()
    assert len(demo.contests_page.all_rows()) == 34


def test_a_file_dropped_on_the_window_starts_the_wizard_with_it(
        empty_case: MainWindow, ui_data: Path) -> None:
    from PySide6.QtCore import QMimeData, QPoint, QUrl
    from PySide6.QtGui import QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(ui_data / "tie_2024.csv"))])
    event = QDropEvent(QPoint(10, 10), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    empty_case.dropEvent(event)
    wiz = empty_case.findChild(ImportWizard)
    assert wiz is not None
    assert wiz.file_page.path.text().endswith("tie_2024.csv")
    wiz.reject()


def test_a_wide_sheet_is_read_through_contest_blocks_on_the_mapping_page(
        empty_case: MainWindow, qtbot: QtBot, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One row per ward, a column per choice: the officer names the ward column and each
    contest's block of columns (repeated headers are no problem: blocks go by position)."""
    src = tmp_path / "town_wide.csv"
    src.write_text("Ward,Ann Lee,Bob Cruz,Over Votes,Yes,No,Yes,No\n"
                   "W1,10,5,1,7,8,4,11\n"
                   "W2,3,9,0,6,6,9,2\n", encoding="utf-8")
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, src)
    myself = next(b for b in wiz.format_page.buttons if b.property("family") == MAP_MYSELF)
    myself.setChecked(True)
    _next(wiz)
    assert wiz.currentId() == MAPPING_PAGE
    page = wiz.mapping_page
    # Proposed from what the columns hold: wide (one text column, the rest counts), the
    # ward column, and three blocks (a choice name coming back, a column after the over
    # votes, each starts a contest); the officer still names them.
    assert page.layout_choice.currentData() == WIDE
    assert page.precinct_column.currentData() == 1
    assert [(b.first, b.last) for b in page.wide_blocks()] == [(2, 4), (5, 6), (7, 8)]
    assert "Proposed from what the columns hold" in page.origin.text()
    assert "Contest 1 has no title" in page.missing.text()
    assert not wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    page.blocks.setRowCount(0)
    page.completeChanged.emit()
    assert "Add a contest" in page.missing.text()
    page.add_block("Mayor", 2, 4)
    page.add_block("Prop 1", 5, 7)  # one column too many: it overlaps the next block
    page.add_block("Prop 2", 7, 8)
    assert "Prop 1 and Prop 2 both take column G: Yes" in page.missing.text()
    assert not wiz.button(QWizard.WizardButton.NextButton).isEnabled()
    last = page.blocks.cellWidget(1, 2)
    last.setCurrentIndex(last.findData(6))
    assert page.missing.text() == ""
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == PREVIEW_PAGE)
    assert "3 contests" in wiz.preview_page.summary.text()
    totals = {t.contest.key.title: ({c.choice.name: c.votes for c in t.choices},
                                    {k.value: v for k, v in t.extras.items()})
              for t in wiz.parsed.totals}
    assert totals == {"Mayor": ({"Ann Lee": 13, "Bob Cruz": 14}, {"over": 1}),
                      "Prop 1": ({"Yes": 13, "No": 14}, {}),
                      "Prop 2": ({"Yes": 13, "No": 13}, {})}

    # Saved, the mapping reads the same from the command line and fills the page again.
    saved = tmp_path / "town.mapping.json"
    page.save_mapping_to(saved)
    assert main(["check", str(src), "--mapping", str(saved), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {c["title"]: {x["name"]: x["votes"] for x in c["choices"]}
            for c in out["contests"]}["Prop 2"] == {"Yes": 13, "No": 13}
    wiz.reject()
    again = empty_case.import_canvass()
    assert again is not None
    _read_file(again, qtbot, src)
    next(b for b in again.format_page.buttons if b.property("family") == MAP_MYSELF
         ).setChecked(True)
    _next(again)
    again.mapping_page.load_mapping_from(saved)
    assert [(b.contest, b.first, b.last) for b in again.mapping_page.wide_blocks()] == \
        [("Mayor", 2, 4), ("Prop 1", 5, 6), ("Prop 2", 7, 8)]
    assert again.mapping_page.missing.text() == ""
    assert again.button(QWizard.WizardButton.NextButton).isEnabled()


def test_a_doubtful_reading_goes_to_the_mapping_page_not_to_done(
        empty_case: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    import openpyxl

    # No contest titles above the candidates: the hand-built reader can only guess one
    # contest 'Results', which the plausibility gate doubts.
    wb = openpyxl.Workbook()
    for r in (["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann",
               "Bob", "Cy", "Di"], ["P1", 100, 60, 0.6, 30, 20, 25, 30]):
        wb.active.append(r)
    path = tmp_path / "no-titles.xlsx"
    wb.save(path)
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, path)
    assert "does not look right" in wiz.format_page.summary.text()
    assert wiz.format_page.chosen() == MAP_MYSELF
    hand = next(b for b in wiz.format_page.buttons if b.property("family") == "handbuilt")
    assert "— 40 %" in hand.text()  # the gate took confidence away
    _next(wiz)
    assert wiz.currentId() == MAPPING_PAGE


def _town_workbook(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    from workbooks import write_workbook

    return write_workbook(path, sheets)


def _wide_town(k: int) -> list[list[object]]:
    """A town's sheet: title, a contests' row above the header, statistics columns that
    are no choices (registered voters, ballots cast, a turnout fraction)."""
    return [["Town of Rockville — Canvass"], [],
            ["", "", "", "", "Mayor", "", "Prop 1", ""],
            ["Precinct", "Reg. Voters", "Ballots Cast", "Turn out %", "Ann Lee", "Bob Cruz",
             "Yes", "No"],
            ["W1", 200, 100 + k, 0.5, 60 + k, 40, 70, 30],
            ["W2", 300, 150, 0.5, 50, 100 - k, 80, 70]]


def _long_town() -> list[list[object]]:
    return [["Ward", "Race", "Name", "Count"], ["W1", "Mayor", "Ann Lee", 7],
            ["W1", "Mayor", "Bob Cruz", 9], ["W2", "Mayor", "Ann Lee", 5],
            ["W2", "Mayor", "Bob Cruz", 4]]


def _to_mapping_page(wiz: ImportWizard, qtbot: QtBot, path: Path) -> None:
    _read_file(wiz, qtbot, path)
    next(b for b in wiz.format_page.buttons if b.property("family") == MAP_MYSELF
         ).setChecked(True)
    _next(wiz)
    assert wiz.currentId() == MAPPING_PAGE


def test_each_sheet_gets_its_own_proposal_from_what_its_columns_hold(
        empty_case: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    path = _town_workbook(tmp_path / "town.xlsx", {"Results by ward": _long_town(),
                                                   "2024 General": _wide_town(0)})
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _to_mapping_page(wiz, qtbot, path)
    page = wiz.mapping_page
    assert page.layout_choice.currentData() != WIDE
    assert page.columns() == {"precinct": "Ward", "contest": "Race", "choice": "Name",
                              "votes": "Count", "district": None, "party": None}
    page.sheet.setCurrentText("2024 General")
    # The header is the row above the counts (not the title), the statistics and the
    # turnout fraction are left out, and the contests' row names the blocks.
    assert page.header_row.value() == 4
    assert page.layout_choice.currentData() == WIDE
    assert page.precinct_column.currentData() == 1
    assert [(b.contest, b.first, b.last) for b in page.wide_blocks()] == [
        ("Mayor", 5, 6), ("Prop 1", 7, 8)]
    assert page.missing.text() == ""
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == PREVIEW_PAGE)
    assert {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
            for t in wiz.parsed.totals} == {"Mayor": {"Ann Lee": 110, "Bob Cruz": 140},
                                            "Prop 1": {"Yes": 150, "No": 100}}
    wiz.reject()


def test_a_saved_mapping_is_used_for_another_sheet_and_another_file_of_its_layout(
        empty_case: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    first = _town_workbook(tmp_path / "rockville-2024.xlsx",
                           {"2024 General": _wide_town(0), "2024 Primary": _wide_town(5)})
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _to_mapping_page(wiz, qtbot, first)
    page = wiz.mapping_page
    # The officer corrects the proposal (Prop 1 elects no one: its seats stay 1; the mayor's
    # block renamed) and saves the mapping beside the workbook.
    page.blocks.item(0, 0).setText("Mayor of Rockville")
    page.save_mapping_to(first.with_suffix(".mapping.json"))
    page.sheet.setCurrentText("2024 Primary")
    assert "Filled from the saved mapping “rockville-2024.mapping.json” (made for the sheet " \
           "“2024 General”)" in page.origin.text()
    assert page.wide_blocks()[0].contest == "Mayor of Rockville"
    assert page.mapping()["sheet"] == "2024 Primary"
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == PREVIEW_PAGE)
    assert {c.choice.name: c.votes for c in wiz.parsed.totals[0].choices} == {
        "Ann Lee": 115, "Bob Cruz": 135}
    wiz.reject()

    # Next election's workbook of the same layout, in the same folder: filled the same way.
    later = _town_workbook(tmp_path / "rockville-2026.xlsx", {"2026 General": _wide_town(9)})
    again = empty_case.import_canvass()
    assert again is not None
    _to_mapping_page(again, qtbot, later)
    assert "rockville-2024.mapping.json" in again.mapping_page.origin.text()
    assert again.mapping_page.wide_blocks()[0].contest == "Mayor of Rockville"
    again.reject()

    # A sheet of another layout is not filled from it: its columns differ.
    other = _town_workbook(tmp_path / "wards.xlsx", {"Results": _long_town()})
    third = empty_case.import_canvass()
    assert third is not None
    _to_mapping_page(third, qtbot, other)
    assert "Proposed from what the columns hold" in third.mapping_page.origin.text()
    third.reject()


def test_a_workbook_of_several_elections_shows_the_sheet_read_and_reads_the_one_chosen(
        empty_case: MainWindow, qtbot: QtBot) -> None:
    """Juab's workbook holds the 2022 General, the 2022 Primary and the 2021 General, a
    sheet each: the wizard says which sheet its reading is of, and the officer can choose
    another one before anything is imported."""
    path = Path(__file__).parent.parent / "data" / "formats" / "handbuilt" / \
        "Juab Precinct Results.xlsx"
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, path)
    page = wiz.format_page
    assert page.sheet.isVisibleTo(page)
    assert [page.sheet.itemText(i) for i in range(page.sheet.count())] == \
        ["2022 General", "2022 Primary", "2021 General"]
    assert page.sheet.currentText() == "2022 General"
    assert "this reading is of the sheet <b>“2022 General”</b>" in page.summary.text()
    page.sheet.setCurrentText("2022 Primary")
    with qtbot.waitSignal(wiz.read_finished, timeout=SIGNAL_MS):
        _next(wiz)
    qtbot.waitUntil(lambda: wiz.currentId() == PREVIEW_PAGE)
    assert wiz.parsed is not None and wiz.parsed.sheet == "2022 Primary"
    assert "5 contests" in wiz.preview_page.summary.text()
    # The case is a general election's: the sheet's election is pointed out as another kind.
    assert any("primary" in i.message and "set as a regular general" in i.message
               for i in wiz.parsed.issues)


def test_a_csv_has_no_sheet_to_choose(empty_case: MainWindow, qtbot: QtBot,
                                      ui_data: Path) -> None:
    wiz = empty_case.import_canvass()
    assert wiz is not None
    _read_file(wiz, qtbot, ui_data / "20221108__ut__general__beaver__precinct.csv")
    assert not wiz.format_page.sheet.isVisibleTo(wiz.format_page)
    assert "sheets" not in wiz.format_page.summary.text()
