"""The window speaks the clerk's language: no command-line flag, no file name of the
program's own documents, no module name, no Python repr in anything it shows (issue 19).

A walk through the demo: every contest on the Contests and Recount pages (each step's
panel is in the walk), the Requests page, the menus and status bar, and each dialog."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabWidget,
    QTextEdit,
    QWidget,
)
from pytestqt.qtbot import QtBot

from recount_desk.core.model import Issue, Remedy, Severity
from recount_desk.ui.main_window import MainWindow
from recount_desk.ui.models import issue_text

DEVELOPER_WORDS = [
    ("a command-line flag", re.compile(r"(?<![\w-])--[a-z][a-z-]+")),
    ("a command line", re.compile(r"\brecount-desk\s+[a-z]|python -m")),
    ("a file name of the program's documents",
     re.compile(r"law-notes|DESIGN|STYLE\.md|\b[\w-]+\.(?:md|py|json|toml)\b")),
    ("a module name", re.compile(r"\brecount_desk\b|\b(?:core|actions|formats|store|ui)\."
                                 r"[a-z_]{3,}\b")),
    ("a Python repr", re.compile(r"object at 0x|Traceback|<\w+\.\w+: |\b[A-Z][A-Za-z]+\."
                                 r"[A-Z][A-Z_]{2,}\b|\b(?:datetime\.date|Decimal|Fraction)\(")),
    ("an exception's name", re.compile(r"\b(?:Value|Key|Type|Attribute|Runtime|Index|OS|"
                                       r"CaseFile|Recount|Import)Error\b|\bsqlite3\b")),
]


def developer_words(text: str) -> list[str]:
    """What in ``text`` is the developer's wording rather than the clerk's."""
    found = [f"{what}: {m.group(0)!r}" for what, pattern in DEVELOPER_WORDS
             for m in pattern.finditer(text)]
    # A bare section sign is a reference to developer notes ("§1b"); the constitution's
    # "art. VI §1" is a citation a clerk reads.
    for m in re.finditer("§", text):
        if not re.search(r"art\. [IVXLC]+ $", text[max(0, m.start() - 14):m.start()]):
            found.append(f"a bare section sign: {text[max(0, m.start() - 20):m.end() + 4]!r}")
    return found


@pytest.mark.parametrize("text", [
    "Set its seats (contest settings or --seats TITLE=N) before trusting its verdict.",
    "Who pays is NOT CONFIRMED (20A-4-401(3); utah-law-notes §1b).",
    "for recount-desk check --mapping", "see resources/law/law-notes.md",
    "Verdict.WITHIN_MARGIN", "<recount_desk.core.model.Contest object at 0x7f00>",
    "ValueError: day is out of range for month", "(DESIGN.md §2)",
], ids=["flag", "notes file", "command", "file name", "enum", "repr", "exception", "design"])
def test_developer_wording_is_found(text: str) -> None:
    assert developer_words(text)


@pytest.mark.parametrize("text", [
    "Utah Code 20A-4-401(1)(b)", "(program's law notes, section 1b)",
    "Utah Const. art. VI §1 (two-thirds)", "Within the margin — 0.25 %",
    "Opening 2016 House 32.recount…", "Set the number of seats in the contest settings.",
], ids=["statute", "law notes", "constitution", "verdict", "case file", "seats"])
def test_clerk_wording_passes(text: str) -> None:
    assert developer_words(text) == []


def shown_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """Every text a widget under ``root`` shows, tells a screen reader or shows on hover."""
    for w in [root, *root.findChildren(QWidget)]:
        where = f"{type(w).__name__} {w.accessibleName() or w.objectName()}"
        for t in (w.windowTitle(), w.toolTip(), w.statusTip(), w.whatsThis(),
                  w.accessibleName(), w.accessibleDescription()):
            yield where, t
        if isinstance(w, QLabel | QAbstractButton):
            yield where, w.text()
        if isinstance(w, QGroupBox):
            yield where, w.title()
        if isinstance(w, QLineEdit):
            yield where, w.text()
            yield where, w.placeholderText()
        if isinstance(w, QPlainTextEdit):
            yield where, w.toPlainText()
            yield where, w.placeholderText()
        if isinstance(w, QTextEdit):
            yield where, w.toPlainText()
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                yield where, w.itemText(i)
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                yield where, w.tabText(i)
                yield where, w.tabToolTip(i)
        if isinstance(w, QAbstractItemView) and w.model() is not None:
            m = w.model()
            for c in range(m.columnCount()):
                for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                    yield where, str(m.headerData(c, Qt.Orientation.Horizontal, role) or "")
            for r in range(min(m.rowCount(), 200)):
                for c in range(m.columnCount()):
                    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                        yield where, str(m.index(r, c).data(role) or "")
    for a in root.findChildren(QAction):
        for t in (a.text(), a.toolTip(), a.statusTip()):
            yield f"menu item {a.text()}", t


def wording_found(root: QWidget, seen: set[tuple[str, str]]) -> list[str]:
    out = []
    for where, text in shown_texts(root):
        if not text or (where, text) in seen:
            continue
        seen.add((where, text))
        out += [f"{where}: {w} in {text[:160]!r}" for w in developer_words(text)]
    return out


def test_no_page_of_the_demo_shows_developer_wording(demo: MainWindow, qtbot: QtBot) -> None:
    seen: set[tuple[str, str]] = set()
    found: list[str] = []
    page = demo.contests_page
    assert page.model.rowCount() > 5
    for i in range(page.model.rowCount()):  # each contest's detail pane
        page.select_row(i)
        found += wording_found(demo, seen)
    demo.tabs.setCurrentWidget(demo.requests_page)
    found += wording_found(demo, seen)
    rp = demo.recount_page
    demo.tabs.setCurrentWidget(rp)
    for i in range(rp.contest.count()):  # each contest's checklist and every step's panel
        rp.contest.setCurrentIndex(i)
        found += wording_found(demo, seen)
    assert len(seen) > 500  # the walk saw the pages: the test can fail
    assert found == []


def test_no_dialog_of_the_demo_shows_developer_wording(demo: MainWindow, qtbot: QtBot) -> None:
    seen: set[tuple[str, str]] = set()
    found: list[str] = []
    cid = demo.contests_page.current_contest_id()
    opened = [demo.new_case(), demo.edit_election(), demo.edit_closed_days(),
              demo.record_request(cid), demo.open_report(), demo.import_canvass(),
              demo.show_getting_started()]
    portion = next((r.id for r in demo.rows if r.check.portion), None)
    if portion is not None:
        opened.append(demo.open_whole_race(portion))
    demo.edit_people()
    opened += [w for w in demo.findChildren(QWidget) if type(w).__name__ == "PeopleDialog"]
    dialogs = [d for d in opened if d is not None]
    assert len(dialogs) >= 7
    for d in dialogs:  # every page of a wizard is in its walk
        qtbot.waitExposed(d)
        found += wording_found(d, seen)
    for d in dialogs:
        d.close()
    assert found == []


def test_what_to_do_about_an_issue_is_worded_for_the_window_and_for_the_command_line(
) -> None:
    from recount_desk import cli

    issue = Issue("x.csv", "The file does not say how many seats 3 race(s) fill; one seat "
                  "each is assumed. For a multi-seat race, set its seats.",
                  severity=Severity.NOTE, remedy=Remedy.SET_SEATS)
    window = issue_text(issue)
    command_line = cli._issue_text(issue)
    assert "contest settings" in window and developer_words(window) == []
    assert '--seats "NAME=N"' in command_line
    assert cli._issue_json(issue)["message"] == command_line


def test_an_unknown_layout_says_what_to_do_in_each_front_end_s_terms(tmp_path: Path) -> None:
    from recount_desk import cli
    from recount_desk.actions.canvass import read_file
    from recount_desk.formats import ImportFailed

    odd = tmp_path / "notes.csv"
    odd.write_text("just some words\nand more words\n", encoding="utf-8")
    with pytest.raises(ImportFailed) as e:
        read_file(odd)
    issue = e.value.issue
    assert issue.remedy is Remedy.MAP_COLUMNS
    assert "mapping page" in issue_text(issue) and developer_words(issue_text(issue)) == []
    assert "--mapping" in cli._issue_text(issue)


def test_a_county_s_portions_and_the_whole_race_dialog_show_no_developer_wording(
        window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    from recount_desk.actions.canvass import import_canvass, read_file
    from recount_desk.actions.case import create_case
    from recount_desk.actions.demo_portion import portion_spec
    from recount_desk.ui.dialogs.whole_race import WholeRaceDialog

    from .conftest import SIGNAL_MS

    spec = portion_spec()  # Grand County 2018: State House 69 and others are portions
    path = tmp_path / "grand.recount"
    with create_case(path, spec.election) as case:
        import_canvass(case, read_file(spec.canvass))
    with qtbot.waitSignal(window.case_opened, timeout=SIGNAL_MS):
        window.open_path(path)
    seen: set[tuple[str, str]] = set()
    found: list[str] = []
    page = window.contests_page
    for i in range(page.model.rowCount()):
        page.select_row(i)
        found += wording_found(window, seen)
    portion = next(r.id for r in window.rows if r.check.portion)
    window.open_whole_race(portion)
    dialogs = [d for d in window.findChildren(WholeRaceDialog) if d.isVisible()]
    assert dialogs
    for d in dialogs:
        qtbot.addWidget(d)
        found += wording_found(d, seen)
        d.reject()
    assert len(seen) > 300
    assert found == []
