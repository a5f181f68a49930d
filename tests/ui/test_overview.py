"""The contests overview: filters on the row list, the decision text, settings with undo."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from recount_desk.core.rules import Verdict
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.models import VERDICT_COLUMN

from .conftest import SIGNAL_MS


def test_filter_to_the_contests_within_the_margin_and_read_the_decision(
        demo: MainWindow, qtbot: QtBot) -> None:
    page = demo.contests_page
    assert page.model.rowCount() == 34
    with qtbot.waitSignal(page.filtered, timeout=SIGNAL_MS):
        qtbot.keyClick(demo, Qt.Key.Key_M, Qt.KeyboardModifier.ControlModifier)
    assert page.within.isChecked()
    assert page.model.rowCount() == 1
    assert page.model.data(page.model.index(0, 0)) == "State House"
    assert page.model.data(page.model.index(0, 1)) == "32"
    assert page.detail.title.text() == "State House — District 32"
    verdict_idx = page.model.index(0, VERDICT_COLUMN)
    assert page.model.data(verdict_idx) == "Within the recount margin"
    assert page.model.data(verdict_idx, Qt.ItemDataRole.DecorationRole) is not None
    text = page.detail.explanation.text()
    assert text.startswith("Suzanne Harrison may request a recount")
    assert "difference of 5 votes" in text
    assert "within 42 votes, 0.25 % of the 17,077 votes cast" in text
    assert "Utah Code 20A-4-401(1)(b)" in text
    assert "county clerk" in page.detail.office.text().lower()
    assert "Nov 29, 2016" in page.detail.deadline.text()
    assert "passed" in page.detail.deadline.text()
    assert "before 2024 H.B. 515" in page.detail.edition.text()
    # the canvass by precinct, with the total row last
    pm = page.detail.precinct_model
    assert pm.cell(pm.rowCount() - 1, 0) == "Total"
    assert {pm.cell(pm.rowCount() - 1, 1), pm.cell(pm.rowCount() - 1, 2)} == {8536, 8541}


def test_races_propositions_and_text_search(demo: MainWindow, qtbot: QtBot) -> None:
    page = demo.contests_page
    page.show_kind.setCurrentIndex(2)
    assert page.model.rowCount() == 0
    page.show_kind.setCurrentIndex(1)
    assert page.model.rowCount() == 34
    qtbot.keyClick(demo, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert page.search.hasFocus()
    qtbot.keyClicks(page.search, "christensen")
    assert page.model.rowCount() == 1
    assert page.detail.title.text() == "State House — District 32"


def test_sorting_happens_on_the_row_list(demo: MainWindow) -> None:
    page = demo.contests_page
    page.table.sortByColumn(7, Qt.SortOrder.AscendingOrder)  # margin
    margins = [r.check.decision.margin for r in page.shown_rows()]
    known = [m for m in margins if m is not None]  # uncontested races have no margin
    assert known == sorted(known)
    assert margins[:len(known)] == known or margins[-len(known):] == known


def test_changing_seats_recomputes_and_undo_is_recorded_too(demo: MainWindow,
                                                            qtbot: QtBot) -> None:
    from recount_desk.actions.demo_recount import demo_contest_id

    page = demo.contests_page
    assert demo.case is not None
    page.select_contest(demo_contest_id(demo.case))
    detail = page.detail
    assert detail.row is not None
    assert detail.row.check.decision.verdict is Verdict.WITHIN_MARGIN
    detail.seats.setValue(2)
    assert detail.apply.isEnabled()
    with qtbot.waitSignal(demo.settings_applied, timeout=SIGNAL_MS):
        qtbot.mouseClick(detail.apply, Qt.MouseButton.LeftButton)
    assert detail.row.check.totals.contest.seats == 2
    assert detail.row.check.decision.verdict is Verdict.UNCONTESTED
    assert demo.act_undo.isEnabled()
    with qtbot.waitSignal(demo.settings_applied, timeout=SIGNAL_MS):
        qtbot.keyClick(demo, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert detail.row.check.totals.contest.seats == 1
    assert detail.row.check.decision.verdict is Verdict.WITHIN_MARGIN
    assert demo.case is not None
    actions = [r[0] for r in demo.case.conn.execute(
        "SELECT action FROM audit ORDER BY seq")]
    assert actions.count("load re-tabulated results") == 1


def test_print_html_holds_the_table_as_shown(demo: MainWindow) -> None:
    demo.contests_page.within.setChecked(True)
    html = demo.overview_html()
    assert "State House — District 32" in html
    assert "State Senate" not in html
    assert "20A-4-401(1)(b)" in html


def test_help_shows_the_statute_and_the_plain_words(window: MainWindow,
                                                    qtbot: QtBot) -> None:
    statute = window.show_statute()
    assert "400 or less" in statute.browser.toPlainText()
    notes = window.show_plain_words()
    assert "0.25 %" in notes.browser.toPlainText()
    about = window.show_about()
    assert "0.1" in about.text()
    for w in (statute, notes, about):
        w.close()


def test_a_tie_under_the_2024_edition_is_an_automatic_recount(
        empty_case: MainWindow, qtbot: QtBot, ui_data: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file

    window = empty_case
    assert window.case is not None
    import_canvass(window.case, read_file(ui_data / "tie_2024.csv"))
    window.refresh()
    rows = {r.check.totals.contest.key.title: r for r in window.contests_page.all_rows()}
    tie = rows["Town Council Seat A"]
    assert tie.check.decision.verdict is Verdict.AUTOMATIC
    window.contests_page.select_contest(tie.id)
    assert "without a request" in window.contests_page.detail.explanation.text()
    assert window.contests_page.detail.who.text().startswith("Nobody needs to")


def test_the_law_applied_says_when_its_text_is_assumed(demo: MainWindow) -> None:
    """The demo is a 2016 election; the oldest text of 20A-4-401 held is the 2019 one."""
    text = demo.contests_page.detail.edition.text()
    assert "20A-4-401 in its 2019–2023 text" in text
    assert "ASSUMED: the 2019 text is applied to an election of 2016" in text
    # the row of the verdict's own assumptions does not say "None" under it
    assert demo.contests_page.detail.assumptions.text() == "None besides the law's text, above"
