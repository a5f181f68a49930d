"""The main window: menus, the pages (Contests, Requests, and those added later), status bar.

The window holds one case connection for quick reads and small writes on the GUI thread;
opening, creating, importing, copying and recomputing run in workers that open their own
connection (actions.case.open_case), as SQLite wants one connection per thread.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QEvent, QSettings, QSocketNotifier, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QPageLayout,
    QPaintEvent,
    QTextDocument,
    QUndoCommand,
    QUndoStack,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from recount_desk import __version__
from recount_desk.paths import resource

from .tabs import PageTabs

# The actions, pages and dialogs are imported when first needed, after the window's first
# paint, so that the window appears as fast as a bare one (benchmarks/gui_open.py).
if TYPE_CHECKING:
    from recount_desk.actions.case import Case
    from recount_desk.actions.contests import ContestRow
    from recount_desk.actions.wizard import ContestSettings

    from .dialogs.import_wizard import ImportWizard
    from .dialogs.messages import LawTextDialog
    from .dialogs.new_case import NewCaseDialog
    from .dialogs.report import ReportDialog
    from .dialogs.request import RequestDialog
    from .dialogs.whole_race import WholeRaceDialog
    from .pages.contests import ContestsPage
    from .pages.requests import RequestsPage

MAX_RECENT = 8
CASE_FILTER = "Recount Desk case (*.recount);;All files (*)"

# The audit log's action names as the Edit menu says them ("Can't undo resolving …").
ACTION_WORDS = {
    "create case": "creating the case", "import canvass": "importing the canvass",
    "update election": "changing the election details",
    "change contest settings": "changing a contest's settings",
    "record recount request": "recording a recount request",
    "start recount": "starting the recount", "enter tally": "entering a tally sheet",
    "resolve tally mismatch": "resolving a difference between the entries",
    "note variance": "writing a variance note", "add witness": "adding a witness",
    "record witness attendance": "recording a witness's attendance",
    "import envelopes": "importing the envelope list", "add envelope": "adding an envelope",
    "check envelope": "recording an envelope's checks",
    "decide envelope": "deciding an envelope",
    "confirm no envelopes": "confirming there were no unopened envelopes",
    "declare result": "declaring the result", "add cost": "adding a cost",
    "remove cost": "removing a cost", "set board members": "changing the board",
    "convene board": "recording the board's convening", "sign report": "signing the report",
    "reopen contest": "reopening the contest",
}


def action_words(action: str, payload: str = "") -> str:
    """An audit entry in the clerk's words, naming its unit when it has one."""
    import json

    words = ACTION_WORDS.get(action, action)
    try:
        data = json.loads(payload) if payload else {}
    except ValueError:
        data = {}
    unit = data.get("unit") if isinstance(data, dict) else None
    return f"{words} ({unit})" if isinstance(unit, str) and unit else words


class ContestSettingsCommand(QUndoCommand):
    """One change of a contest's settings; undoing it is itself a recorded change."""

    def __init__(self, window: MainWindow, contest_id: int, label: str,
                 before: ContestSettings, after: ContestSettings) -> None:
        super().__init__(f"settings of {label}")
        self.window, self.contest_id = window, contest_id
        self.before, self.after = before, after

    def redo(self) -> None:
        self.window.apply_settings(self.contest_id, self.after)

    def undo(self) -> None:
        self.window.apply_settings(self.contest_id, self.before)


@dataclass(frozen=True)
class Opened:
    """A case a worker opened, with its overview read on that worker's connection."""

    path: Path
    rows: list[ContestRow]

    @staticmethod
    def read(case: Case) -> Opened:
        from recount_desk.actions import contests as contest_actions

        return Opened(case.path, contest_actions.overview(case))


# Where the keyboard is must always show (WCAG 2.4.7): item views and text fields draw a
# clear frame when they hold the focus; buttons and boxes keep the style's own focus ring.
FOCUS_STYLE = ("QAbstractItemView:focus, QLineEdit:focus, QPlainTextEdit:focus, "
               "QAbstractSpinBox:focus { border: 2px solid palette(highlight); }")


class ElidedLabel(QLabel):
    """A one-line label that ends in "…" where it is cut (the status bar at 1280×720 or
    200 % text), so its end never runs into the next label; ``text()`` keeps it whole."""

    def paintEvent(self, event: QPaintEvent) -> None:
        from PySide6.QtGui import QPainter, QPalette

        painter = QPainter(self)
        room = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             room.width())
        self.style().drawItemText(painter, room, int(self.alignment()), self.palette(),
                                  self.isEnabled(), text, QPalette.ColorRole.WindowText)


def name_scroll_areas(root: QWidget) -> None:
    """A scrolled area takes the focus (so the keyboard can scroll it): it is named after
    what it shows, for a screen reader."""
    from PySide6.QtWidgets import QScrollArea

    for area in root.findChildren(QScrollArea):
        if area.accessibleName():
            continue
        inner = area.widget()
        owner: QWidget | None = area.parentWidget()
        while owner is not None and not owner.accessibleName():
            owner = owner.parentWidget()
        what = (inner.accessibleName() if inner is not None else "") or (
            owner.accessibleName() if owner is not None else "")
        area.setAccessibleName(f"{what} (scrolled area)" if what else "Scrolled area")


class MainWindow(QMainWindow):
    case_opened = Signal(str)
    case_open_failed = Signal(str)
    settings_applied = Signal(int)
    request_recorded = Signal(int)
    canvass_imported = Signal()
    copy_saved = Signal(str)
    case_checked = Signal(str)  # verification and backup after opening have finished
    # A widget to take the focus when the window next becomes active (lead_to_import).
    _focus_on_activation: QWidget | None = None

    def __init__(self, settings: QSettings | None = None) -> None:
        super().__init__()
        from . import workers

        workers.collect_on_gui_thread()
        self.settings = settings or QSettings()
        self.case: Case | None = None
        self.rows: list[ContestRow] = []
        self.undo_stack = QUndoStack(self)
        # The newest audit entry the undo stack accounts for; a newer one is an action that
        # cannot be undone here, and Ctrl+Z then says so instead of undoing an older one.
        self._known_seq = 0
        self._undoing = False
        self._pending_writes = 0
        self._irreversible: str | None = None
        # Whether the pages have shown a case: they are built anew for the next one.
        self._pages_used = False
        self.refreshing = False  # re-reading the pages (no selection then is the user's)
        self.last_message: QMessageBox | None = None
        self.setWindowTitle("Recount Desk")
        self.setAcceptDrops(True)
        self.setStyleSheet(FOCUS_STYLE)

        self.tabs = PageTabs()
        self.tabs.setDocumentMode(True)
        self.tabs.setAccessibleName("Pages")
        # A banner above the pages for what the officer must know about the open file:
        # read-only (second instance, read-only media) or changed outside the program.
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setAccessibleName("Warning about the case file")
        self.banner.setStyleSheet("QLabel { background: #fff4ce; color: #3d2e00; "
                                  "border: 1px solid #c9a400; padding: 6px; }")
        self.banner.hide()
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.banner)
        box.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self._contests_page: ContestsPage | None = None
        self._requests_page: RequestsPage | None = None
        self._pages_ready = False  # every page built and wired (_build_page_step)
        self._wreckage: list[QWidget] = []  # pages of a case shown before, to delete
        self._painted = False
        self._after_paint: list[Callable[[], Any]] = []

        self.status_case = ElidedLabel("No case open")
        self.status_case.setAccessibleName("What the case holds")
        # Cut at the window's edge rather than widen it (200 % text); the tooltip holds all.
        self.status_case.setMinimumWidth(80)
        self.status_case.setSizePolicy(QSizePolicy.Policy.Ignored,
                                       QSizePolicy.Policy.Preferred)
        self.status_margin = QLabel()
        self.statusBar().addWidget(self.status_case, 1)
        self.statusBar().addPermanentWidget(self.status_margin)

        self._build_menus()
        self._update_actions()
        from . import theme

        if theme.platform_asks() or self.settings.value("view/highContrast", False,
                                                        type=bool):
            self.set_high_contrast(True, remember=False)
        self.resize(1280, 800)
        self._restore_geometry()
        self._fit_screen()

    # -- pages -------------------------------------------------------------------------------
    @property
    def contests_page(self) -> ContestsPage:
        self._ensure_pages()
        assert self._contests_page is not None
        return self._contests_page

    @property
    def requests_page(self) -> RequestsPage:
        self._ensure_pages()
        assert self._requests_page is not None
        return self._requests_page

    def _ensure_pages(self) -> None:
        """Build whatever of the pages is not built yet, at once."""
        while not self._build_page_step():
            pass

    def _build_page_step(self) -> bool:
        """Build the next page (each is one turn of the event loop when a case is opened:
        building all three at once stalled the window for a third of a second,
        benchmarks/gui_keystroke.py); True once every page is built and wired."""
        if self._pages_ready:
            return True
        if self._contests_page is None:
            from .pages.contests import ContestsPage

            self._contests_page = ContestsPage()
            self._contests_page.within.setChecked(self.act_within.isChecked())
            self.add_page("&Contests", self._contests_page)
            return False
        if self._requests_page is None:
            from .pages.requests import RequestsPage

            self._requests_page = RequestsPage()
            self.add_page("&Requests", self._requests_page)
            return False
        if getattr(self, "recount_page", None) is None:
            from .pages.recount import RecountPage

            # Its panels are added one per step when the page is built anew in turns.
            self.recount_page = RecountPage(self, in_turns=self._pages_used)
            self.add_page("Recou&nt", self.recount_page)
            return False
        if not self.recount_page.build_step():
            return False
        contests, requests = self._contests_page, self._requests_page
        for page in (contests, requests, self.recount_page):
            name_scroll_areas(page)
        contests.contest_selected.connect(self._contest_selected)
        contests.import_button.clicked.connect(lambda: self.import_canvass())
        contests.detail.settings_requested.connect(self._settings_requested)
        contests.detail.request_wanted.connect(self.record_request)
        contests.detail.whole_race_wanted.connect(self.open_whole_race)
        requests.request_wanted.connect(lambda: self.record_request(None))
        self.act_within.toggled.connect(contests.within.setChecked)
        contests.within.toggled.connect(self.act_within.setChecked)
        self._pages_ready = True
        self._restore_pages()
        return True

    def _discard_pages(self) -> None:
        """Throw away every page, so nothing of the case shown before (a field, a default,
        a selection, a list) can show in the one opened now; they are built anew in turns
        (``_build_page_step``)."""
        if self._contests_page is None:
            return
        self.save_layout()
        old = [self.tabs.widget(i) for i in range(self.tabs.count())]
        self.tabs.clear()  # the pages stay where they are, hidden, until they are deleted
        for w in old:
            w.hide()
            # Deleted piece by piece once the new case is shown: a whole recount page
            # deleted at once stalled the window too (benchmarks/gui_keystroke.py).
            self._wreckage += [p for _t, p in getattr(w, "panels", {}).values()] + [w]
        self._contests_page = self._requests_page = None
        self.recount_page = None  # type: ignore[assignment]
        self._pages_ready = False

    @property
    def discarding(self) -> bool:
        """Whether pages of a case shown before still wait to be deleted."""
        return bool(self._wreckage)

    def _clear_wreckage(self) -> None:
        """Delete the pages of the case shown before, one piece per turn of the loop."""
        import shiboken6

        from . import turns

        def step() -> None:
            while self._wreckage:
                piece = self._wreckage.pop(0)
                if shiboken6.isValid(piece):  # not gone with its parent already
                    piece.deleteLater()
                    break
            if self._wreckage:
                turns.later(self, step)

        turns.later(self, step)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self._first_painted)

    def _first_painted(self) -> None:
        self._ensure_pages()
        todo, self._after_paint = self._after_paint, []
        for fn in todo:
            fn()

    def after_first_paint(self, fn: Callable[[], Any]) -> None:
        """Run ``fn`` once the window has been painted (start-up work that can wait)."""
        if self._painted and not self._after_paint:
            QTimer.singleShot(0, fn)
        else:
            self._after_paint.append(fn)

    def add_page(self, title: str, widget: QWidget) -> int:
        """Add a page (tab); the recount workflow adds its own pages here."""
        i = self.tabs.addTab(widget, title)
        widget.setAccessibleName(title.replace("&", ""))
        return i

    # -- menus ---------------------------------------------------------------------------------
    def _action(self, text: str, slot: Callable[[], Any], shortcut: Any = None,
                tip: str = "") -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        if tip:
            a.setStatusTip(tip)
            a.setToolTip(tip)
        a.triggered.connect(lambda _checked=False: slot())
        self.addAction(a)
        return a

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self.act_new = self._action("&New case…", self.new_case, QKeySequence.StandardKey.New,
                                    "Create a case file for an election")
        self.act_open = self._action("&Open…", self.open_dialog, QKeySequence.StandardKey.Open,
                                     "Open a case file")
        self.act_connect = self._action(
            "Connect to a counting-center &server…", self.connect_server, None,
            "Open a case kept on the counting center's PostgreSQL server, where several "
            "stations enter the recount at once")
        self.recent_menu = f.addMenu("Open &Recent")
        self.act_demo = self._action("Open the &demo election", self.open_demo, "Ctrl+Shift+D",
                                     "Open your copy of the demo election (Salt Lake County "
                                     "2016, State House 32)")
        self.act_import = self._action("&Import canvass…", self.import_canvass, "Ctrl+I",
                                       "Import the official canvass from a file")
        self.act_details = self._action("&Election details…", self.edit_election, "Ctrl+E",
                                        "The election's name, date, kind, jurisdiction, "
                                        "canvass completion and officer")
        self.act_closed = self._action("Pro&claimed holidays…", self.edit_closed_days, None,
                                       "Days the governor proclaimed legal holidays "
                                       "(63G-1-301); every deadline counts them")
        self.act_copy = self._action("Save a &copy…", self.save_copy, "Ctrl+Shift+S",
                                     "Write a copy of the case file, e.g. to a USB stick")
        self.act_restore = self._action("&Restore a backup…", self.restore_backup, None,
                                        "Put an automatic backup copy in place of this case")
        self.act_accept = self._action("&Accept the file as it is…", self.accept_file_as_is,
                                       None, "Go on from a case changed outside Recount Desk, "
                                       "recording why (the audit log and the report show it)")
        self.act_print = self._action("&Print…", self.print_overview,
                                      QKeySequence.StandardKey.Print,
                                      "Print the contests overview as shown")
        self.act_export = self._action("E&xport results…", lambda: self.export_results(),
                                       "Ctrl+Shift+E", "Write every contest's votes and "
                                       "verdict to a spreadsheet (Excel .xlsx, or .csv)")
        self.act_report = self._action("Recount re&port…", self.open_report, "Ctrl+Shift+P",
                                       "Make, preview, print, sign and verify the official "
                                       "recount report")
        self.act_person = self._action("S&witch person…", self.switch_person, "Ctrl+Shift+W",
                                       "Say who is using the window (from the case's roster); "
                                       "the audit log names that person")
        self.act_people = self._action("&People…", self.edit_people, None,
                                       "The case's roster: election officer, supervisors, "
                                       "deputies, board members (the election officer edits "
                                       "it)")
        self.act_quit = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        f.insertAction(self.recent_menu.menuAction(), self.act_new)
        f.insertAction(self.recent_menu.menuAction(), self.act_open)
        f.insertAction(self.recent_menu.menuAction(), self.act_connect)
        f.addAction(self.act_demo)
        f.addSeparator()
        f.addAction(self.act_import)
        f.addAction(self.act_details)
        f.addAction(self.act_closed)
        f.addAction(self.act_copy)
        f.addAction(self.act_restore)
        f.addAction(self.act_accept)
        f.addAction(self.act_person)
        f.addAction(self.act_print)
        f.addAction(self.act_export)
        f.addAction(self.act_report)
        f.addSeparator()
        f.addAction(self.act_quit)
        self._rebuild_recent()

        e = mb.addMenu("&Edit")
        self.act_undo = self._action("&Undo", self.undo, QKeySequence.StandardKey.Undo)
        self.act_redo = self._action("&Redo", self.redo, None)
        self.act_redo.setShortcuts([QKeySequence(QKeySequence.StandardKey.Redo),
                                    QKeySequence("Ctrl+Y")])
        self.undo_stack.indexChanged.connect(lambda _i: self._stack_changed())
        self._update_undo()
        e.addAction(self.act_undo)
        e.addAction(self.act_redo)
        e.addSeparator()
        self.act_request = self._action("Record a recount &request…",
                                        lambda: self.record_request(None), "Ctrl+R",
                                        "Record a recount request for the selected contest")
        e.addAction(self.act_request)
        self.act_whole = self._action(
            "&Whole race and the county's part…", lambda: self.open_whole_race(None),
            "Ctrl+Shift+H", "A multicounty or statewide contest: the whole race's figures, "
            "the lieutenant governor's recount order and the county's transmittal")
        e.addAction(self.act_whole)
        e.addAction(self.act_people)
        self.act_retab = self._action("&Load re-tabulated results…", self._load_retab,
                                      "Ctrl+Shift+L", "Load the tabulators' re-tabulated "
                                      "statement of votes as the recount's tallies")
        self.act_sheets = self._action("Print tally &sheets…", self._print_sheets, None,
                                       "Blank tally sheets for a hand count, one per unit")
        e.addAction(self.act_retab)
        e.addAction(self.act_sheets)

        v = mb.addMenu("&View")
        self.act_contests = self._action("&Contests", lambda: self.tabs.setCurrentIndex(0),
                                         "Ctrl+1")
        self.act_requests = self._action("&Requests", lambda: self.tabs.setCurrentIndex(1),
                                         "Ctrl+2")
        self.act_recount = self._action(
            "Recou&nt", lambda: (self._ensure_pages(),
                                 self.tabs.setCurrentWidget(self.recount_page)), "Ctrl+3")
        self.act_within = self._action("Within the &margin only",
                                       self._ensure_pages, "Ctrl+M")
        self.act_within.setCheckable(True)
        self.act_find = self._action("&Find…", self._focus_search, QKeySequence.StandardKey.Find)
        self.act_detail = self._action("&Decision text", self._focus_detail, "F6",
                                       "Move to the decision text of the selected contest")
        self.act_refresh = self._action("Re&fresh", self.refresh, QKeySequence.StandardKey.Refresh)
        self.act_contrast = self._action(
            "&High contrast", lambda: self.set_high_contrast(self.act_contrast.isChecked()),
            "Ctrl+Alt+H", "White on black, every colour of the window's own given up (on "
            "by itself when the system asks for more contrast)")
        self.act_contrast.setCheckable(True)
        for a in (self.act_contests, self.act_requests, self.act_recount, None,
                  self.act_within, self.act_find, self.act_detail, None, self.act_refresh,
                  self.act_contrast):
            v.addSeparator() if a is None else v.addAction(a)

        h = mb.addMenu("&Help")
        self.act_statute = self._action("The &statute (Utah Code 20A-4-401)", self.show_statute,
                                        QKeySequence.StandardKey.HelpContents)
        self.act_notes = self._action("The law in &plain words", self.show_plain_words,
                                      "Shift+F1")
        self.act_law_notes = self._action(
            "The program's &law notes", self.show_law_notes, None,
            "Where the program's reading of the law comes from, section by section (the "
            "messages cite them as \u201cprogram's law notes, section 1b\u201d)")
        self.act_about = self._action("&About Recount Desk", self.show_about)
        self.act_guide = self._action("&Getting started", self.show_getting_started, None,
                                      "A first recount, step by step")
        for a in (self.act_guide, None, self.act_statute, self.act_notes, self.act_law_notes,
                  None, self.act_about):
            h.addSeparator() if a is None else h.addAction(a)

    # -- undo ----------------------------------------------------------------------------------
    def _current_seq(self) -> int:
        from recount_desk.actions import case as case_actions

        if self.case is None:
            return 0
        last = case_actions.last_action(self.case)
        return last.seq if last else 0

    def _stack_changed(self) -> None:
        from shiboken6 import isValid

        if not isValid(self.undo_stack) or not isValid(self):
            return  # the stack empties itself as the window is destroyed
        if not self._undoing:
            self._known_seq = self._current_seq()
        if self.undo_stack.canUndo():
            self._irreversible = None
        self._update_undo()

    def _update_undo(self) -> None:
        s = self.undo_stack
        if s.canUndo():
            self.act_undo.setText(f"&Undo {s.undoText()}")
            self.act_undo.setEnabled(True)
        elif self._irreversible:
            self.act_undo.setText(f"&Undo — not possible for {self._irreversible}")
            self.act_undo.setEnabled(True)  # Ctrl+Z then says why nothing was undone
        else:
            self.act_undo.setText("&Undo")
            self.act_undo.setEnabled(False)
        self.act_redo.setText(f"&Redo {s.redoText()}" if s.canRedo() else "&Redo")
        self.act_redo.setEnabled(s.canRedo())

    def note_changes(self) -> None:
        """After any action: an audit entry the undo stack did not make is an action that
        cannot be undone here, so older ones can no longer be undone past it."""
        from recount_desk.actions import case as case_actions

        if self.case is None or self._undoing or self._pending_writes:
            return
        last = case_actions.last_action(self.case)
        seq = last.seq if last else 0
        if seq > self._known_seq and last is not None:
            self._known_seq = seq
            self._irreversible = action_words(last.action, last.payload)
            self.undo_stack.clear()
            self._update_undo()

    def undo(self) -> None:
        """Undo the last action, saying which; or say why the last one cannot be undone."""
        if not self.undo_stack.canUndo():
            text = (f"The last action, {self._irreversible}, cannot be undone with Ctrl+Z."
                    if self._irreversible else "There is nothing to undo.")
            self.statusBar().showMessage(text, 10000)
            return
        what = self.undo_stack.undoText()
        self._undoing = True
        try:
            self.undo_stack.undo()
        finally:
            self._undoing = False
        self._known_seq = self._current_seq()
        self._update_undo()
        self.statusBar().showMessage(f"Undone: {what} (the undo is recorded in the audit "
                                     "log). Ctrl+Y redoes it.", 10000)

    def redo(self) -> None:
        if not self.undo_stack.canRedo():
            self.statusBar().showMessage("There is nothing to redo.", 10000)
            return
        what = self.undo_stack.redoText()
        self._undoing = True
        try:
            self.undo_stack.redo()
        finally:
            self._undoing = False
        self._known_seq = self._current_seq()
        self._update_undo()
        self.statusBar().showMessage(f"Redone: {what} (recorded in the audit log).", 10000)

    # -- unsaved work and confirmations ---------------------------------------------------------
    def confirm(self, title: str, text: str) -> bool:
        """Ask before an action that is hard to take back (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Question, title, text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                          self)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        return box.exec() == QMessageBox.StandardButton.Yes

    def choose_person(self, names: list[str], current: str | None) -> str | None:
        """Who is using the window, chosen from the roster (tests replace this)."""
        from PySide6.QtWidgets import QInputDialog

        at = names.index(current) if current in names else 0
        name, ok = QInputDialog.getItem(self, "Who is using Recount Desk?",
                                        "Choose your name. Everything you do in this case "
                                        "is recorded under it.", names, at, False)
        return name if ok else None

    def switch_person(self, name: str | None = None, refresh: bool = True) -> bool:
        """Say who is using the window; returns whether someone is chosen (the pages shown
        again unless not ``refresh``)."""
        from recount_desk.actions.case import WhoAreYou

        if self.case is None:
            return False
        names = [p.name for p in self.case.roster.people]
        key = f"person/{self.case.path}"
        if name is None:
            current = self.case.person.name if self.case.person else str(
                self.settings.value(key, ""))
            name = self.choose_person(names, current or None)
            if name is None:
                return self.case.person is not None
        try:
            person = self.case.act_as(name)
        except WhoAreYou as e:
            self.tell("Not on the roster", str(e))
            return False
        self.settings.setValue(key, person.name)
        if refresh and hasattr(self, "status_case"):
            self.refresh()
        return True

    def edit_people(self) -> None:
        from .dialogs.people import PeopleDialog

        if self.case is None:
            return
        dlg = PeopleDialog(self.case, self)
        dlg.finished.connect(lambda _r: self.refresh())
        dlg.open()

    def ask_unsaved(self, text: str) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel for a sheet typed but not saved (tests replace this)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "A tally sheet is not saved", text,
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        return QMessageBox.StandardButton(box.exec())

    def unsaved_work(self) -> str | None:
        """What has been typed and not saved, in words; None when nothing is."""
        page = getattr(self, "recount_page", None) if self._contests_page else None
        if page is None or self.case is None:
            return None
        return page.unsaved_work()

    def keep_unsaved_work(self, doing: str) -> bool:
        """Before quitting or switching case: True when it may go ahead (the sheet was saved
        or the officer chose to discard it), False when it must not."""
        what = self.unsaved_work()
        if what is None:
            return True
        answer = self.ask_unsaved(
            f"{what[0].upper()}{what[1:]} has numbers typed that are not saved. Save the sheet "
            f"before {doing}?")
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Discard:
            return True
        self.recount_page.save_unsaved_work()
        return self.unsaved_work() is None  # a refused save keeps the window as it is

    def _update_actions(self) -> None:
        has_case = self.case is not None
        for a in (self.act_import, self.act_details, self.act_closed, self.act_copy,
                  self.act_print, self.act_request):
            a.setEnabled(has_case)
        self.act_request.setEnabled(has_case and bool(self.rows))
        self.act_print.setEnabled(has_case and bool(self.rows))

    def _focus_search(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.contests_page.search.setFocus()
        self.contests_page.search.selectAll()

    def _focus_detail(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.contests_page.detail.explanation.setFocus()

    # -- messages ------------------------------------------------------------------------------
    def tell(self, title: str, text: str, icon: QMessageBox.Icon = QMessageBox.Icon.Warning,
             details: str | None = None) -> QMessageBox:
        from .dialogs.messages import show_message

        self.last_message = show_message(self, title, text, icon, details)
        return self.last_message

    # -- opening ---------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(Path(self.settings.value("lastFolder", str(Path.home()))))
        got, _ = QFileDialog.getOpenFileName(self, "Open a case", start, CASE_FILTER)
        if got:
            self.open_path(Path(got))

    def open_path(self, path: Path | str) -> None:
        """Open (and, for an older file, migrate) in a worker; then attach here. ``path``
        may be a ``postgresql://`` URL of a case on the counting-center server."""
        from recount_desk.actions import case as case_actions

        from . import workers

        path = case_actions.location(path)
        if not self.keep_unsaved_work(f"opening {path.name}"):
            return

        def job(progress: workers.Progress, cancelled: Any) -> Opened:
            with case_actions.open_case(path) as case:
                return Opened.read(case)

        workers.start(job, on_done=self._attach, on_failed=self._open_failed, parent=self,
                      title="Opening the case", label=f"Opening {path.name}…")

    def open_demo(self, fresh: bool = False) -> None:
        from recount_desk.actions import demo as demo_actions

        from . import workers

        if not self.keep_unsaved_work("opening the demo election"):
            return

        def job(progress: workers.Progress, cancelled: Any) -> Opened:
            with demo_actions.open_demo_case(fresh=fresh) as case:
                return Opened.read(case)

        workers.start(job, on_done=self._attach, on_failed=self._open_failed, parent=self,
                      title="Opening the demo election", label="Preparing the demo election…")

    def open_initial(self, path: Path | None = None, demo: bool = False) -> None:
        """At start-up: the given file, the demo, the last case, or on first run the demo."""
        if path is not None:
            self.open_path(path)
            return
        last = self.settings.value("lastCase", "")
        if not demo and last and Path(str(last)).exists():
            self.open_path(Path(str(last)))
        else:
            self.open_demo()

    def _open_failed(self, error: BaseException) -> None:
        from recount_desk.actions.case import CaseFileError

        if isinstance(error, CaseFileError):
            text = str(error)
        else:
            text = f"The case could not be opened: {error}"
        self.tell("The case could not be opened", text)
        self.case_open_failed.emit(text)

    def _attach(self, opened: Opened | Path,
                when_shown: Callable[[], Any] | None = None) -> None:
        """Take over a case a worker opened (and read the overview of, so that the window's
        thread does not); verification and the backup follow in the background (a statewide
        case is shown at once, not after checking every vote). ``when_shown`` runs once
        every page shows the case."""
        from recount_desk.actions import case as case_actions
        from recount_desk.actions.case import CaseFileError

        from . import workers

        path = opened.path if isinstance(opened, Opened) else Path(opened)
        try:
            case = case_actions.open_case(path)
        except CaseFileError as e:
            self._open_failed(e)
            return
        self._show_banner(case.readonly_reason, [])

        def check(progress: workers.Progress, cancelled: Any) -> list[str]:
            return case_actions.check_after_open(path)

        def checked(problems: list[str]) -> None:
            if self.case is not None and self.case.path == path:
                self._show_banner(self.case.readonly_reason, problems)
                if not problems:  # sound: the first action need not check it again
                    case_actions.take_known_check(self.case)
            self.case_checked.emit(str(path))

        # The history emptied while the case it belongs to is still open (emptying it reads
        # the case's last action: a closed one raised "Cannot operate on a closed database").
        self.undo_stack.clear()
        if self.case is not None:
            self.case.close()
        self.case = case
        self._irreversible = None
        self._known_seq = self._current_seq()
        self._update_undo()
        self.rows = []  # the case shown before: no page built now may show its contests
        rebuilding: list[Callable[[], Any]] = []
        if self._pages_used:
            self._discard_pages()
            rebuilding = [self._build_page_step]  # a step taken again until it is done
        self._pages_used = True
        if case.person is None and not case.readonly:
            self.switch_person(refresh=False)  # the pages are shown below
        # The overview first, then the other pages, each in a turn of its own so that the
        # window paints in between and no step stalls it long (benchmarks/gui_keystroke.py).
        rows = opened.rows if isinstance(opened, Opened) else None

        def remember() -> None:
            self.settings.setValue("lastCase", str(path))
            if case.on_server:
                self.settings.setValue("lastServer", str(path))
            else:
                self.settings.setValue("lastFolder", str(path.parent))
            self._remember_recent(path)

        def shown() -> None:
            if self.contests_page.model.rowCount():
                self.contests_page.table.setFocus()
            self._watch_server()
            if when_shown is not None:
                when_shown()
            self.case_opened.emit(str(path))
            # Verified once it is shown: a worker checking every vote while the pages are
            # filled takes the interpreter from them in turns and stalls the window.
            workers.start(check, on_done=checked, on_failed=lambda e: checked([str(e)]),
                          parent=self)
            self._clear_wreckage()

        self._in_turns(case, [*rebuilding, lambda: self._refresh_overview(rows, select=False),
                              self._select_first, self._refresh_status,
                              self._refresh_requests, remember,
                              lambda: self._refresh_others(opened=True, pages=False),
                              lambda: self.recount_page.case_opened()], shown)

    def _in_turns(self, case: Case, steps: list[Callable[[], Any]],
                  then: Callable[[], Any]) -> None:
        """Run ``steps`` one per turn of the event loop (``turns``: painting and input come
        in between), then ``then``; stop if another case is opened meanwhile."""
        from . import turns

        todo = list(steps)

        def step() -> None:
            if self.case is not case:
                return
            if not todo:
                then()
                return
            if todo[0]() is not False:  # a step returning False is taken again
                todo.pop(0)
            turns.later(self, step)

        turns.later(self, step)

    # -- the counting center: a case on a server, several stations at once ---------------------
    def connect_server(self, url: str | None = None) -> None:
        """File › Connect to a counting-center server…: open a case by its address there."""
        if url is None:
            from PySide6.QtWidgets import QInputDialog

            url, ok = QInputDialog.getText(
                self, "Connect to a counting-center server",
                "The case's address on the counting center's server, as the election "
                "officer gave it:\npostgresql://YOUR-ROLE@SERVER/DATABASE",
                text=str(self.settings.value("lastServer", "postgresql://")))
            if not ok or not url.strip():
                return
        self.open_path(url.strip())

    def _watch_server(self) -> None:
        """For a case on the server: every few seconds, see whether another station saved
        something (then every page is read again) and whether the server still answers."""
        if not hasattr(self, "server_timer"):
            self.server_timer = QTimer(self)
            self.server_timer.setInterval(3000)
            self.server_timer.timeout.connect(self.poll_server)
            self.server_lost = False
        self.server_lost = False
        if self.case is not None and self.case.on_server:
            from recount_desk.actions import center

            self._server_seq = center.latest_entry(self.case)
            self.server_timer.start()
            self._listen_for_saves()
        else:
            self.server_timer.stop()
            self._stop_listening()

    def _listen_for_saves(self) -> None:
        """Hear the other stations' saves as they are committed (the server's NOTIFY), so
        the pages show them at once; the look every few seconds stays, for a lost server."""
        from recount_desk.actions import case as case_actions
        from recount_desk.actions import center

        self._stop_listening()
        if self.case is None:
            return
        try:
            watcher = center.watch_saves(self.case)
        except (case_actions.CaseFileError, case_actions.ServerUnavailable):
            return  # the look every few seconds still sees the others' work
        if watcher is None:
            return
        self.save_watcher = watcher
        self.save_notifier = QSocketNotifier(watcher.fileno(), QSocketNotifier.Type.Read, self)
        self.save_notifier.activated.connect(self._heard_save)

    def _stop_listening(self) -> None:
        notifier = getattr(self, "save_notifier", None)
        if notifier is not None:
            notifier.setEnabled(False)
            notifier.deleteLater()
            self.save_notifier = None
        watcher = getattr(self, "save_watcher", None)
        if watcher is not None:
            watcher.close()
            self.save_watcher = None

    def _heard_save(self) -> None:
        from recount_desk.actions import case as case_actions

        watcher = getattr(self, "save_watcher", None)
        if watcher is None:
            return
        try:
            heard = watcher.heard()
        except case_actions.ServerUnavailable:
            self._stop_listening()  # the next look at the server says what happened
            return
        if heard:
            self.poll_server()

    def poll_server(self) -> None:
        from recount_desk.actions import case as case_actions
        from recount_desk.actions import center

        case = self.case
        if case is None or not case.on_server:
            self.server_timer.stop()
            return
        if self.server_lost:  # try again; read-only until the server answers
            try:
                center.reconnect(case, readonly=False)
            except (case_actions.CaseFileError, case_actions.ServerUnavailable):
                return
            self.server_lost = False
            case.readonly, case.readonly_reason = False, None
            self._show_banner(None, [])
            self.statusBar().showMessage("The counting-center server answers again; this "
                                         "station can save again.", 15000)
            self._server_seq = center.latest_entry(case)
            self._listen_for_saves()
            self.refresh()
            return
        try:
            seq = center.latest_entry(case)
        except case_actions.ServerUnavailable:
            self.server_lost = True
            case.readonly = True
            case.readonly_reason = (
                "The connection to the counting-center server was lost at "
                f"{datetime.now():%H:%M:%S}: this station is read-only until the server "
                "answers again (it tries every few seconds). Everything this station saved "
                "before is on the server; a save that was interrupted was not made, and what "
                "is typed on the page is kept until it can be saved.")
            self._show_banner(case.readonly_reason, [])
            return
        if seq == self._server_seq:
            return
        others = center.saved_elsewhere(case, self._server_seq)
        self._server_seq = seq
        if not others:
            return  # this station's own saves: the pages were read again after each
        last = others[-1]
        more = f" and {len(others) - 1} more" if len(others) > 1 else ""
        who = f": {last.actor}, {action_words(last.action, last.payload)}{more}"
        if self.unsaved_work():  # never under the officer's fingers: after their save
            self.statusBar().showMessage(f"Another station saved work{who}. The pages show "
                                         "it once this sheet is saved or set aside.", 15000)
            self._server_seq = min(self._server_seq, last.seq - 1)  # again next tick
            return
        self.statusBar().showMessage(f"Another station saved work{who}.", 15000)
        self.refresh()

    def _show_banner(self, readonly_reason: str | None, problems: list[str]) -> None:
        warnings = []
        if problems:
            warnings.append("<b>This case file does not match its audit log</b>: "
                            + html.escape("; ".join(problems))
                            + ". No official report can be made from it and nothing can be "
                            "changed in it. Use File › Restore a backup… to go back to a copy "
                            "made when it was opened earlier, or File › Accept the file as it "
                            "is… to go on from it with a reason the report will show.")
        if readonly_reason:
            warnings.append(html.escape(readonly_reason))
        self.banner.setText("<br>".join(warnings))
        self.banner.setVisible(bool(warnings))

    def close_case(self) -> None:
        self._stop_listening()
        if self.case is not None:
            self.undo_stack.clear()  # its actions belong to this case (while it is open)
            self.case.close()
            self.case = None

    # -- recent files ---------------------------------------------------------------------------
    def recent(self) -> list[str]:
        value = self.settings.value("recentCases", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or [])]

    def _remember_recent(self, path: Path) -> None:
        items = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("recentCases", items[:MAX_RECENT])
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        items = self.recent()
        for n, p in enumerate(items, start=1):
            a = self.recent_menu.addAction(f"&{n} {Path(p).name}")
            a.setStatusTip(p)
            a.triggered.connect(lambda _c=False, p=p: self.open_path(Path(p)))
        self.recent_menu.setEnabled(bool(items))

    # -- new case --------------------------------------------------------------------------------
    def new_case(self) -> NewCaseDialog | None:
        from .dialogs.new_case import NewCaseDialog

        if not self.keep_unsaved_work("creating a new case"):
            return None
        folder = Path(str(self.settings.value("lastFolder", str(Path.home()))))
        dlg = NewCaseDialog(folder, self)
        dlg.accepted.connect(lambda: self._create(dlg))
        dlg.open()
        return dlg

    def _create(self, dlg: NewCaseDialog) -> None:
        from recount_desk.actions import case as case_actions

        from . import workers

        election, path = dlg.election(), dlg.path()

        def job(progress: workers.Progress, cancelled: Any) -> Opened:
            with case_actions.create_case(path, election) as case:
                return Opened.read(case)

        def created(opened: Opened) -> None:
            self._attach(opened, when_shown=lambda: None if self.rows else self.lead_to_import())

        workers.start(job, on_done=created, on_failed=self._open_failed, parent=self,
                      title="Creating the case")

    def lead_to_import(self) -> None:
        """A new case's next step is the import: the Contests page says so and its button
        has the focus (Enter starts the import)."""
        self.tabs.setCurrentWidget(self.contests_page)
        self._focus_import()
        self.statusBar().showMessage("The case is created. Next: import the canvass "
                                     "(Enter, or File › Import canvass…, Ctrl+I).", 15000)

    def _focus_import(self) -> None:
        button = self.contests_page.import_button
        if self.isActiveWindow():
            button.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        # Some platforms leave the closed dialog the active window: the window takes the
        # keyboard back. Activation is asynchronous, and a window becoming active gives the
        # focus back to its old focus widget: the button takes it after that.
        self._focus_on_activation = button
        self.activateWindow()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if (event.type() == QEvent.Type.ActivationChange and self.isActiveWindow()
                and self._focus_on_activation is not None):
            # After the window has given the focus back to its old focus widget.
            QTimer.singleShot(0, self._focus_pending)

    def _focus_pending(self) -> None:
        widget, self._focus_on_activation = self._focus_on_activation, None
        if widget is not None and widget.isVisible():
            widget.setFocus(Qt.FocusReason.OtherFocusReason)

    # -- election details -------------------------------------------------------------------------
    def edit_election(self) -> NewCaseDialog | None:
        from .dialogs.new_case import NewCaseDialog

        if self.case is None:
            self.tell("No case is open", "Open or create a case first (File › New case…).")
            return None
        dlg = NewCaseDialog(self.case.path.parent, self, existing=self.case.election)
        dlg.accepted.connect(lambda: self._save_election(dlg))
        dlg.open()
        return dlg

    def _save_election(self, dlg: NewCaseDialog) -> None:
        from recount_desk.actions import case as case_actions
        from recount_desk.actions.case import CaseFileError

        if self.case is None:
            return
        try:
            case_actions.update_election(self.case, dlg.election())
        except (case_actions.ElectionDetailsRefused, CaseFileError) as e:
            self.tell("The election details were not changed", str(e))
            return
        self.refresh()

    def edit_closed_days(self) -> Any:
        """File › Proclaimed holidays…: the case's extra closed days (63G-1-301)."""
        from .dialogs.closed_days import ClosedDaysDialog

        if self.case is None:
            self.tell("No case is open", "Open or create a case first (File › New case…).")
            return None
        dlg = ClosedDaysDialog(self.case.closed_days, self)
        dlg.accepted.connect(lambda: self._save_closed_days(dlg))
        dlg.open()
        return dlg

    def _save_closed_days(self, dlg: Any) -> None:
        from recount_desk.actions import case as case_actions
        from recount_desk.actions.case import CaseFileError

        if self.case is None:
            return
        try:
            case_actions.set_closed_days(self.case, dlg.days())
        except (case_actions.ElectionDetailsRefused, CaseFileError) as e:
            self.tell("The proclaimed holidays were not changed", str(e))
            return
        self.refresh()

    # -- import ----------------------------------------------------------------------------------
    def import_canvass(self, source: Path | None = None) -> ImportWizard | None:
        from recount_desk.actions import case as case_actions

        from .dialogs.import_wizard import ImportWizard, TargetCase

        if self.case is None:
            self.tell("No case is open", "Open or create a case first (File › New case…).")
            return None
        s = case_actions.summary(self.case)
        target = TargetCase(self.case.path, s.election.kind.is_primary, s.source, s.requests,
                            s.election.kind, s.election.date,
                            self.case.person.name if self.case.person else None)
        wiz = ImportWizard(target, self, source)
        wiz.imported.connect(self._imported)
        wiz.open()
        return wiz

    def _imported(self, _import_id: int) -> None:
        self.undo_stack.clear()
        self.refresh()
        self.canvass_imported.emit()

    # -- overview ---------------------------------------------------------------------------------
    def refresh(self, opened: bool = False, rows: list[ContestRow] | None = None) -> None:
        """Re-read every page (overview, requests, recount) and the status bar and menus
        from the case: after any action, whatever showed what it changed is current."""
        if self.case is None:
            self.rows = []
            self.contests_page.set_rows([])
            self.status_case.setText("No case open — File › New case… or Open…")
            self.recount_page.reload_contests()
            self._update_actions()
            return
        self._refresh_overview(rows)
        self._refresh_others(opened)

    def _refresh_overview(self, rows: list[ContestRow] | None = None,
                          select: bool = True) -> None:
        """The Contests page from the overview (``rows`` when a worker has read it);
        without ``select`` its first row is chosen by ``_select_first`` later."""
        from recount_desk.actions import contests as contest_actions

        assert self.case is not None
        self.rows = rows if rows is not None else contest_actions.overview(self.case)
        self.refreshing = True
        try:
            self.contests_page.set_rows(self.rows, select=select)
        finally:
            self.refreshing = False
        if not self.rows:
            self.contests_page.detail.title.setText(
                "This case holds no canvass yet. Choose File › Import canvass… (Ctrl+I).")

    def _select_first(self) -> None:
        """The first contest of the overview chosen and its detail shown (opening a case)."""
        page = self.contests_page
        if page.model.rowCount() and page.current_contest_id() is None:
            self.refreshing = True
            try:
                page.select_row(0)
            finally:
                self.refreshing = False

    def _refresh_others(self, opened: bool = False, pages: bool = True) -> None:
        """Every page but the Contests page (unless not ``pages``), the status bar and the
        menus."""
        if self.case is None:
            return
        if pages:
            self._refresh_requests()
            self._refresh_status()
            if opened:
                self.recount_page.case_opened()
            else:
                self.recount_page.reload_contests()
        self.note_changes()
        self._update_actions()

    def _refresh_requests(self) -> None:
        from recount_desk.actions import contests as contest_actions

        if self.case is None:
            return
        labels = {r.id: r.check.totals.contest.key.label() for r in self.rows}
        self.requests_page.set_requests(contest_actions.requests(self.case), labels)

    def _refresh_status(self) -> None:
        from recount_desk.actions import case as case_actions

        if self.case is None:
            return
        s = case_actions.summary(self.case)
        e = s.election
        self.setWindowTitle(f"{e.name} — {e.jurisdiction} — Recount Desk")
        held = (f"{s.contests} contests · {s.precincts:,} precincts · {s.rows:,} vote rows"
                if s.source else "no canvass imported yet")
        self.status_case.setText(
            f"{e.name}, {e.jurisdiction} · {held} · {s.requests} request"
            f"{'s' if s.requests != 1 else ''} · {s.edition.label.split(' (')[0]}"
            + (" · READ-ONLY" if self.case.readonly else "")
            + (f" · {self.case.person.name} ({self.case.person.role.label.lower()})"
               if self.case.person else " · nobody chosen (File › Switch person…)"))
        self.status_case.setToolTip(
            f"Case file {self.case.path}\n{e.kind.label}\nCanvass from {s.source or '—'}\n"
            f"{s.edition.label}")
        n = sum(1 for r in self.rows if r.check.decision.within_margin)
        self.status_margin.setText(f"{n} contest(s) within the recount margin")

    def _contest_selected(self, contest_id: int) -> None:
        from recount_desk.actions import contests as contest_actions

        if self.case is None:
            return
        row = next((r for r in self.rows if r.id == contest_id), None)
        table = contest_actions.precinct_table(self.case, contest_id)
        self.contests_page.detail.election_date = self.case.election.date
        self.contests_page.detail.show_row(row, table)

    # -- contest settings (undoable) ----------------------------------------------------------
    def _settings_requested(self, contest_id: int, before: ContestSettings,
                            after: ContestSettings) -> None:
        row = next((r for r in self.rows if r.id == contest_id), None)
        label = row.check.totals.contest.key.label() if row else str(contest_id)
        self.undo_stack.push(ContestSettingsCommand(self, contest_id, label, before, after))

    def apply_settings(self, contest_id: int, s: ContestSettings) -> None:
        """Write the settings in a worker (its own connection), then show the new verdict."""
        from recount_desk.actions import case as case_actions
        from recount_desk.actions import contests as contest_actions

        from . import workers

        if self.case is None:
            return
        path = self.case.path

        actor = self.case.person.name if self.case.person else None

        def job(progress: workers.Progress, cancelled: Any) -> ContestRow:
            with case_actions.open_case(path, actor=actor) as case:
                return contest_actions.set_contest_settings(
                    case, contest_id, seats=s.seats, scope=s.scope,
                    voting_method=s.voting_method, pass_rule=s.pass_rule)

        # The write is the undo stack's own (this command's redo or undo), made in a worker.
        self._pending_writes += 1

        def settle() -> None:
            self._pending_writes -= 1
            self._known_seq = self._current_seq()

        def done(_row: ContestRow) -> None:
            settle()
            self.refresh()
            self.contests_page.select_contest(contest_id)
            self.settings_applied.emit(contest_id)

        def failed(e: BaseException) -> None:
            settle()
            self.tell("The settings were not changed", str(e))
            self.refresh()

        workers.start(job, on_done=done, on_failed=failed)

    # -- requests -----------------------------------------------------------------------------
    def record_request(self, contest_id: int | None) -> RequestDialog | None:
        from .dialogs.request import RequestDialog

        if self.case is None or not self.rows:
            self.tell("Nothing to request", "Open a case that holds a canvass first.")
            return None
        if contest_id is None:
            contest_id = self.contests_page.current_contest_id()
        dlg = RequestDialog(self.case, self.rows, contest_id, self)
        dlg.recorded.connect(self._request_recorded)
        dlg.open()
        return dlg

    def open_whole_race(self, contest_id: int | None) -> WholeRaceDialog | None:
        """The whole race of the selected (or given) contest and the county's part in its
        recount."""
        from .dialogs.whole_race import WholeRaceDialog

        if self.case is None or not self.rows:
            self.tell("No contest", "Open a case that holds a canvass first.")
            return None
        if contest_id is None:
            on_recount = self.tabs.currentWidget() is getattr(self, "recount_page", None)
            contest_id = (self.recount_page.contest_id if on_recount else None) \
                or self.contests_page.current_contest_id()
        if contest_id is None:
            self.tell("No contest", "Select a contest first.")
            return None
        dlg = WholeRaceDialog(self, contest_id)
        dlg.open()
        return dlg

    def export_results(self, dest: Path | None = None) -> Path | None:
        """Every contest's votes and verdict to a spreadsheet (the same as ``recount-desk
        export``); .xlsx unless a .csv name is chosen."""
        from PySide6.QtWidgets import QFileDialog

        from recount_desk.actions import export as export_actions

        if self.case is None or not self.rows:
            self.tell("Nothing to export", "Open a case that holds a canvass first.")
            return None
        if dest is None:
            default = self.case.path.with_name(self.case.path.stem + " — results.xlsx")
            name, _ = QFileDialog.getSaveFileName(
                self, "Export results", str(default),
                "Excel workbook (*.xlsx);;Comma-separated values (*.csv)")
            if not name:
                return None
            dest = Path(name)
        if dest.suffix.lower() not in (".xlsx", ".csv"):
            dest = dest.with_suffix(".xlsx")
        try:
            out = export_actions.export_results(self.case, dest)
        except (export_actions.ExportError, OSError) as e:
            self.tell("The results were not exported", str(e))
            return None
        self.statusBar().showMessage(f"Exported {len(self.rows)} contests to {out}", 15000)
        return out

    def _load_retab(self) -> None:
        if getattr(self, "recount_page", None) is None:
            self.tell("Nothing to load into", "Open a case that holds a canvass first.")
            return
        self.tabs.setCurrentWidget(self.recount_page)
        self.recount_page.show_panel("start")
        self.recount_page.start.retab_box.load()

    def _print_sheets(self) -> None:
        if getattr(self, "recount_page", None) is None:
            self.tell("No recount", "Open a case that holds a canvass first.")
            return
        self.tabs.setCurrentWidget(self.recount_page)
        self.recount_page.start.retab_box.print_sheets()

    def _request_recorded(self, rid: int) -> None:
        keep = self.contests_page.current_contest_id()
        self.refresh()
        if keep is not None:
            self.contests_page.select_contest(keep)
        self.request_recorded.emit(rid)

    # -- copy, print --------------------------------------------------------------------------
    def restore_backup(self, backup: Path | None = None) -> None:
        """Replace the open case with one of its automatic backups (verified first)."""
        from recount_desk.actions import case as case_actions

        if self.case is None or not self.keep_unsaved_work("restoring a backup"):
            return
        path = self.case.path
        if backup is None:
            found = case_actions.backups(path)
            if not found:
                self.tell("No backups", f"There are no automatic backups of {path.name} yet; "
                          "one is made each time the case is opened.",
                          QMessageBox.Icon.Information)
                return
            got, _ = QFileDialog.getOpenFileName(self, "Restore a backup copy",
                                                 str(found[0].parent), CASE_FILTER)
            if not got:
                return
            backup = Path(got)
        self.close_case()
        try:
            aside = case_actions.restore_backup(path, backup)
        except case_actions.CaseFileError as e:
            self.tell("The backup was not restored", str(e))
            self.open_path(path)
            return
        self.statusBar().showMessage(f"Restored from {backup.name}; the replaced file was kept "
                                     f"as {aside.name}.", 10000)
        self.open_path(path)

    def accept_file_as_is(self, reason: str | None = None) -> None:
        """Record that the officer goes on from a case changed outside Recount Desk."""
        from PySide6.QtWidgets import QInputDialog

        from recount_desk.actions import case as case_actions

        if self.case is None:
            return
        found = case_actions.changed_outside(self.case)
        if not found:
            self.tell("Nothing to accept", "This case matches its audit log.",
                      QMessageBox.Icon.Information)
            return
        if reason is None:
            text, ok = QInputDialog.getMultiLineText(
                self, "Accept the file as it is",
                "This case was changed outside Recount Desk:\n• " + "\n• ".join(found)
                + "\n\nWhy is it accepted as it is (who changed it, and how was it checked)? "
                "The audit log and the report show this.")
            if not ok:
                return
            reason = text
        try:
            case_actions.accept_file_as_is(self.case, reason)
        except (case_actions.AcceptRefused, case_actions.CaseFileError) as e:
            self.tell("The file was not accepted", str(e))
            return
        self._show_banner(self.case.readonly_reason, [])
        self.refresh()
        self.statusBar().showMessage("The file was accepted as it is; the reason is in the "
                                     "audit log.", 10000)

    def save_copy(self, dest: Path | None = None) -> None:
        from recount_desk.actions import case as case_actions

        from . import workers

        if self.case is None:
            return
        if dest is None:
            start = str(self.case.path.with_name(self.case.path.stem + " (copy).recount"))
            got, _ = QFileDialog.getSaveFileName(self, "Save a copy of the case", start,
                                                 CASE_FILTER)
            if not got:
                return
            dest = Path(got)
        path = self.case.path
        target = dest

        def job(progress: workers.Progress, cancelled: Any) -> Path:
            with case_actions.open_case(path, readonly=True) as case:
                return case_actions.save_copy(case, target)

        def done(p: Path) -> None:
            self.statusBar().showMessage(f"A copy was saved to {p}", 8000)
            self.copy_saved.emit(str(p))

        workers.start(job, on_done=done,
                      on_failed=lambda e: self.tell("The copy was not saved", str(e)),
                      parent=self, title="Saving a copy")

    def overview_html(self) -> str:
        """The overview as shown (filters applied), as an HTML table for printing."""
        from .models import CONTEST_COLUMNS

        rows = self.contests_page.shown_rows()
        title = self.windowTitle().replace(" — Recount Desk", "")
        head = "".join(f"<th>{html.escape(c.title)}</th>" for c in CONTEST_COLUMNS)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c.text(r))}</td>" for c in CONTEST_COLUMNS)
            + "</tr>" for r in rows)
        notes = "".join(f"<p><b>{html.escape(r.check.totals.contest.key.label())}:</b> "
                        f"{html.escape(r.check.decision.explanation)}</p>"
                        for r in rows if r.check.decision.within_margin)
        return (f"<h2>{html.escape(title)}</h2><p>{html.escape(self.status_case.text())}</p>"
                "<table border='1' cellspacing='0' cellpadding='3' style='font-size:8pt'>"
                f"<tr>{head}</tr>{body}</table>{notes}")

    def print_overview(self) -> None:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageOrientation(QPageLayout.Orientation.Landscape)
        dlg = QPrintDialog(printer, self)
        if dlg.exec() != QPrintDialog.DialogCode.Accepted:
            return
        doc = QTextDocument()
        doc.setHtml(self.overview_html())
        doc.print_(printer)

    def open_report(self) -> ReportDialog | None:
        """The official recount report: generate, preview, print, sign, verify."""
        from .dialogs.report import ReportDialog

        if self.case is None:
            self.tell("No case open", "Open a case first: the report is made from its recount.",
                      QMessageBox.Icon.Information)
            return None
        current = self.contests_page.current_contest_id() if self._contests_page else None
        dlg = ReportDialog(self.case, self.rows, current, self)
        dlg.signing_recorded.connect(lambda _cid: self.refresh())
        dlg.open()
        return dlg

    # -- help ------------------------------------------------------------------------------------
    def show_statute(self) -> LawTextDialog:
        from .dialogs.messages import LawTextDialog

        dlg = LawTextDialog("Utah Code 20A-4-401 — Recounts",
                            resource("law", "statute-20A-4-401.txt"), self)
        dlg.show()
        return dlg

    def show_plain_words(self) -> LawTextDialog:
        from .dialogs.messages import LawTextDialog

        dlg = LawTextDialog("Recounts in Utah, in plain words",
                            resource("law", "plain-words.md"), self)
        dlg.show()
        return dlg

    def show_law_notes(self) -> LawTextDialog:
        from .dialogs.messages import LawTextDialog

        dlg = LawTextDialog("The program's law notes", resource("law", "utah-law-notes.md"),
                            self, more=(resource("law", "law-notes.md"),))
        dlg.show()
        return dlg

    def show_getting_started(self) -> LawTextDialog:
        from .dialogs.messages import LawTextDialog

        dlg = LawTextDialog("Getting started", resource("help", "getting-started.md"), self)
        dlg.show()
        return dlg

    def show_about(self) -> QMessageBox:
        return self.tell(
            "About Recount Desk",
            f"<b>Recount Desk {__version__}</b><br>Recounts under Utah Code 20A-4-401, from "
            "the canvass to the board of canvassers' report.<br><br>Every change is written to "
            "the case file at once and to its audit log.", QMessageBox.Icon.Information)

    # -- drag and drop: a case opens, a canvass starts the import ------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls: list[QUrl] = [u for u in event.mimeData().urls() if u.isLocalFile()]
        if not urls:
            return
        p = Path(urls[0].toLocalFile())
        event.acceptProposedAction()
        if p.suffix.lower() == ".recount":
            self.open_path(p)
        else:
            self.import_canvass(p)

    def set_high_contrast(self, on: bool, remember: bool = True) -> None:
        """Show the window in high contrast (View › High contrast), or not."""
        from . import theme

        theme.use_high_contrast(on)
        self.act_contrast.setChecked(on)
        if remember:
            self.settings.setValue("view/highContrast", on)
        if self.case is not None:
            self.refresh()

    # -- layout --------------------------------------------------------------------------------
    def _restore_geometry(self) -> None:
        s = self.settings
        geo = s.value("window/geometry")
        if isinstance(geo, QByteArray):
            self.restoreGeometry(geo)
        state = s.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def _fit_screen(self) -> None:
        """Never larger than the screen's free area (a scaled or small screen, or a size
        kept from a larger monitor): what is below the fold cannot be reached."""
        screen = self.screen()
        if screen is None:
            return
        free = screen.availableGeometry()
        w, h = min(self.width(), free.width()), min(self.height(), free.height() - 30)
        if (w, h) != (self.width(), self.height()):
            self.resize(max(w, 640), max(h, 480))
            self.move(free.topLeft())

    def _restore_pages(self) -> None:
        s = self.settings
        for key, splitter in (("window/contestsSplitter", self.contests_page.splitter),
                              ("window/detailSplitter", self.contests_page.detail.splitter)):
            v = s.value(key)
            if isinstance(v, QByteArray):
                splitter.restoreState(v)
        tab = s.value("window/tab", 0)
        self.tabs.setCurrentIndex(int(tab) if str(tab).isdigit() else 0)

    def save_layout(self) -> None:
        s = self.settings
        s.setValue("window/geometry", self.saveGeometry())
        s.setValue("window/state", self.saveState())
        if self._contests_page is None:
            s.sync()
            return
        s.setValue("window/contestsSplitter", self.contests_page.splitter.saveState())
        s.setValue("window/detailSplitter", self.contests_page.detail.splitter.saveState())
        s.setValue("window/tab", self.tabs.currentIndex())
        s.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        from . import workers

        if not self.keep_unsaved_work("quitting"):
            event.ignore()
            return
        self.save_layout()
        workers.wait_all()
        self.close_case()
        event.accept()


__all__ = ["ContestSettingsCommand", "MainWindow"]
