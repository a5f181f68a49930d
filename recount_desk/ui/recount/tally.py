"""Tally entry laid out like the paper sheet (blind second entry, undo), and the differences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeySequence, QShortcut, QUndoCommand
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import recount as rc
from recount_desk.actions.case import Case, CaseFileError
from recount_desk.core.recount import (
    EntryMode,
    ResolutionKind,
    SheetLayout,
    TallyEntry,
    TallySheet,
    UnitStatus,
    consistency,
    field_label,
    sheet_from_fields,
)

from ..models import TextTableModel
from ..theme import WIDTH_SAMPLE, fit_columns, fit_row_height
from .common import OK_STYLE, WARN_STYLE, NumberField, heading, line_edit, wrap_label

if TYPE_CHECKING:
    from ..pages.recount import RecountPage

STATUS_TINT = {
    UnitStatus.RECONCILED: "#e3f1e1",
    UnitStatus.ACCEPTED_WITH_WARNING: "#eef6d9",
    UnitStatus.MISMATCH: "#f9d3cc",
    UnitStatus.WARNING_NEEDS_NOTE: "#fde9b0",
}


def next_needing(rows: list[rc.UnitRow], number: int) -> rc.UnitRow | None:
    """The first unit (of ``rows``, in order) to open for entry ``number``: for the second
    entry one whose first entry is done comes before one not started."""
    if number == 2:
        ready = next((r for r in rows if r.status is UnitStatus.AWAITING_SECOND), None)
        if ready is not None:
            return ready
    return next((r for r in rows if r.needs_entry(number)), None)


@dataclass(frozen=True)
class SaveRequest:
    """One save of a sheet as it was typed: what ``enter_tally`` gets, taken from the form
    before the save starts (so a worker never reads a widget)."""

    contest_id: int
    unit: str
    number: int
    officer: str
    sheet: TallySheet
    note: str
    expect_new: bool

    def write(self, case: Case) -> tuple[TallyEntry | None, rc.EntryResult]:
        """The entry it replaces (for undo) and the save's result, on ``case``'s connection
        (the window's, or a worker's own): one action."""
        res = rc.enter_tally(case, self.contest_id, self.unit, entry=self.number,
                             officer=self.officer, sheet=self.sheet, warning_note=self.note,
                             expect_new=self.expect_new)
        return res.replaced, res


class TallyEntryCommand(QUndoCommand):
    """One saved entry. Undo re-enters the previous values through ``enter_tally``, so the
    undo is itself a recorded action; redo enters the new values again."""

    def __init__(self, panel: TallyEntryPanel, contest_id: int, unit: str,
                 before: TallyEntry | None, after: TallyEntry) -> None:
        super().__init__(f"entry {after.number} of {unit}")
        self.panel, self.contest_id, self.unit = panel, contest_id, unit
        self.before, self.after = before, after
        self._done = True  # pushed after the save succeeded: the first redo is a no-op

    def redo(self) -> None:
        if self._done:
            self._done = False
            return
        self.panel.apply_entry(self.contest_id, self.unit, self.after)

    def undo(self) -> None:
        # No earlier entry: the entry goes back to "not entered" (every field empty).
        prev = self.before or TallyEntry(self.after.number, self.after.officer, TallySheet())
        self.panel.apply_entry(self.contest_id, self.unit, prev)


class TallyEntryPanel(QWidget):
    """One officer's entry of one unit's tally sheet, in the order of the paper sheet.

    Enter moves to the next field; Enter on the last field saves and moves to the next unit
    that still needs this entry. The second entry is blind: it never shows entry 1.
    """

    tally_saved = Signal(str, int)
    note_needed = Signal()
    save_finished = Signal()  # a save made in a worker was acknowledged or refused

    #: From this many units a save runs in a worker (``background``).
    BACKGROUND_FROM_UNITS = 1000

    def __init__(self, page: RecountPage) -> None:
        super().__init__()
        self.page = page
        self.layout_: SheetLayout | None = None
        self.fields: dict[str, NumberField] = {}
        self.rows: list[rc.UnitRow] = []
        self._officer = {1: "", 2: ""}
        self._loading = False
        self._loaded: dict[str, int | None] = {}  # the fields as last loaded or saved
        self._saving = False

        self.unit = QComboBox()
        self.unit.setAccessibleName("Unit (precinct or batch)")
        self.unit.setMinimumWidth(260)
        self.first = QRadioButton("Entry 1 (F7)")
        self.second = QRadioButton("Entry 2, blind (F8)")
        self.first.setAccessibleName("First entry")
        self.second.setAccessibleName("Second entry, blind")
        self.first.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.first)
        group.addButton(self.second)
        self.officer = line_edit("Officer who enters this sheet", "full name of the officer")
        self.officer.setMinimumWidth(240)

        unit_label = QLabel("&Unit:")
        unit_label.setBuddy(self.unit)
        officer_label = QLabel("&Officer:")
        officer_label.setBuddy(self.officer)
        top = QGridLayout()
        top.addWidget(unit_label, 0, 0)
        top.addWidget(self.unit, 0, 1)
        top.addWidget(self.first, 0, 2)
        top.addWidget(self.second, 0, 3)
        top.addWidget(officer_label, 1, 0)
        top.addWidget(self.officer, 1, 1, 1, 3)
        top.setColumnStretch(4, 1)

        self.blind = wrap_label("", "About this entry")
        self.blind.setStyleSheet("color: #10264d;")
        self.sheet = QFrame()
        self.sheet.setFrameShape(QFrame.Shape.Box)
        self.sheet.setStyleSheet("QFrame#sheet { background: #fffef8; border: 1px solid #999; }")
        self.sheet.setObjectName("sheet")
        self.sheet_grid = QGridLayout(self.sheet)
        self.sheet_grid.setHorizontalSpacing(18)
        self.sheet_title = heading("Tally sheet")
        self.check = wrap_label("", "Sheet check")
        self.note_label = QLabel("Warning &note:")
        self.note = line_edit("Note accepting the warning",
                              "why the sheet is right although the check fails")
        self.note_label.setBuddy(self.note)
        self.note_label.hide()
        self.note.hide()
        self.note.returnPressed.connect(self.save)
        self.save_button = QPushButton("&Save sheet")
        self.save_button.setAccessibleName("Save this tally sheet")
        self.save_button.setToolTip("Save (Enter on the last field does the same; Ctrl+Z "
                                    "undoes a saved entry)")
        self.save_button.clicked.connect(self.save)
        self.clear_button = QPushButton("C&lear fields")
        self.clear_button.clicked.connect(self._clear)
        self.result = wrap_label("", "Last save")

        note_row = QHBoxLayout()
        note_row.addWidget(self.note_label)
        note_row.addWidget(self.note, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)

        left = QWidget()
        self.form = QWidget()  # what a save under way locks (the sheet stays shown)
        fv = QVBoxLayout(self.form)
        fv.setContentsMargins(0, 0, 0, 0)
        fv.addLayout(top)
        fv.addWidget(self.blind)
        fv.addWidget(self.sheet)
        fv.addWidget(self.check)
        fv.addLayout(note_row)
        fv.addLayout(buttons)
        lv = QVBoxLayout(left)
        lv.addWidget(self.form)
        lv.addWidget(self.result)
        lv.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(left)

        self.units_model = TextTableModel()
        self.units = QTableView()
        fit_row_height(self.units)
        self.units.setModel(self.units_model)
        self.units.setAccessibleName("Units and their status")
        self.units.verticalHeader().setVisible(False)
        self.units.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.units.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.units.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.units.horizontalHeader().setStretchLastSection(True)
        self.units.verticalHeader().setResizeContentsPrecision(WIDTH_SAMPLE)
        self.units.clicked.connect(lambda i: self.unit.setCurrentIndex(i.row()))
        self.progress = wrap_label("", "Progress")
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.progress)
        rv.addWidget(self.units)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(scroll)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([560, 400])
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(split)

        self.unit.currentIndexChanged.connect(lambda _i: self.load_current())
        self.first.toggled.connect(self._entry_switched)
        self.officer.returnPressed.connect(self._officer_done)
        for key, radio in (("F7", self.first), ("F8", self.second)):
            sc = QShortcut(QKeySequence(key), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(lambda r=radio: r.isEnabled() and r.setChecked(True))
        self.officer.textEdited.connect(lambda t: self._officer.__setitem__(self.number(), t))

    # -- state --------------------------------------------------------------------------------
    def number(self) -> int:
        return 2 if self.second.isChecked() else 1

    def current_unit(self) -> str | None:
        i = self.unit.currentIndex()
        return self.rows[i].name if 0 <= i < len(self.rows) else None

    def show_state(self, st: rc.RecountState | None) -> None:
        if self._saving:
            return  # the sheet being saved stays as it is; the page re-reads after the save
        keep = self.current_unit()
        self._loading = True
        try:
            if st is None or st.settings is None:
                self.rows = []
                self.unit.clear()
                self._build_sheet(None)
                self.units_model.set_table(("Unit",), [])
                self.progress.setText("Start the recount first (the Start tab): the units "
                                      "appear here.")
                self.check.setText("")
                self.blind.setText("<b>The recount of this contest has not started.</b> "
                                   "Choose the method and the units on the Start tab (Alt+1).")
                self.sheet.hide()
                return
            self.setEnabled(True)
            self.sheet.show()
            if self.layout_ != st.layout:
                self._build_sheet(st)
            double = st.settings.entry_mode is EntryMode.DOUBLE
            self.second.setEnabled(double)
            if not double and self.second.isChecked():
                self.first.setChecked(True)
            self.rows = list(st.units)
            self.unit.clear()
            for r in self.rows:
                self.unit.addItem(f"{r.name} — {r.status.label}", r.name)
            names = [r.name for r in self.rows]
            self.unit.setCurrentIndex(names.index(keep) if keep in names else 0)
            self._fill_units(st)
        finally:
            self._loading = False
        self.load_current()

    def _fill_units(self, st: rc.RecountState) -> None:
        double = st.settings is not None and st.settings.entry_mode is EntryMode.DOUBLE
        header = ["Unit", "Status", "Entry 1 by"] + (["Entry 2 by"] if double else [])
        rows, brushes = [], {}
        for n, r in enumerate(self.rows):
            rows.append([r.name, r.status.label, r.first_officer or "—"]
                        + ([r.second_officer or "—"] if double else []))
            tint = STATUS_TINT.get(r.status)
            if tint:
                brushes[n] = QBrush(QColor(tint))
        self.units_model.set_table(header, rows, row_brushes=brushes)
        fit_columns(self.units)
        r = st.readiness
        self.progress.setText(f"<b>{r.units_counted} of {r.units_total} units reconciled</b> "
                              f"· {st.settings.method.label if st.settings else ''} · "
                              f"{st.settings.entry_mode.label if st.settings else ''}")

    def _build_sheet(self, st: rc.RecountState | None) -> None:
        while self.sheet_grid.count():
            item = self.sheet_grid.takeAt(0)
            w = item.widget() if item else None
            if w is not None and w is not self.sheet_title:
                w.deleteLater()
        self.fields = {}
        self.layout_ = st.layout if st else None
        if st is None:
            return
        self.sheet_title.setText(f"Tally sheet — {st.title}")
        self.sheet_grid.addWidget(self.sheet_title, 0, 0, 1, 3)
        keys = st.layout.fields()
        for n, key in enumerate(keys, start=1):
            label = field_label(key)
            f = NumberField(label)
            lab = QLabel(label + ":")
            lab.setBuddy(f)
            if key.startswith("votes:"):
                lab.setText("    " + label + ":")
            self.sheet_grid.addWidget(lab, n, 0)
            self.sheet_grid.addWidget(f, n, 1)
            self.fields[key] = f
            f.returnPressed.connect(lambda k=key: self._field_done(k))
            f.textChanged.connect(self._update_check)
        hint = QLabel("Empty means not entered yet; type 0 for none.")
        hint.setStyleSheet("color: #555;")
        self.sheet_grid.addWidget(hint, len(keys) + 1, 0, 1, 3)
        self.sheet_grid.setColumnStretch(2, 1)
        prev: QWidget = self.officer
        for f in self.fields.values():
            QWidget.setTabOrder(prev, f)
            prev = f
        QWidget.setTabOrder(prev, self.note)
        QWidget.setTabOrder(self.note, self.save_button)

    # -- loading an entry --------------------------------------------------------------------
    def _entry_switched(self, _checked: bool) -> None:
        if self._loading:
            return
        self.officer.setText(self._officer[self.number()])
        # Open the first unit that still needs this entry.
        n, unit = self.number(), self.current_unit()
        row = next((r for r in self.rows if r.name == unit), None)
        if row is not None and (not row.needs_entry(n) or (
                n == 2 and row.status is not UnitStatus.AWAITING_SECOND)):
            target = next_needing(self.rows, n) or row
            if target is not None:
                self._loading = True
                self.unit.setCurrentIndex(self.rows.index(target))
                self._loading = False
        self.load_current()
        self.focus_entry()

    def load_current(self) -> None:
        """Show the current unit's entry of the chosen number (never the other entry); not
        while a save is under way (the sheet being saved stays shown)."""
        if self._loading or self._saving:
            return
        unit = self.current_unit()
        case = self.page.case
        n = self.number()
        self._hide_note()
        self.result.setText("")
        if unit is None or case is None or self.page.contest_id is None:
            return
        if n == 2:
            self.blind.setText("<b>Second entry, made blind.</b> The first entry's numbers "
                               "are not shown: enter the sheet as you read it. Differences "
                               "are shown only after both entries are saved.")
        else:
            self.blind.setText("<b>First entry.</b> Type each number from the paper sheet and "
                               "press Enter; Enter on the last line saves and opens the next "
                               "unit.")
        got = rc.entry_of(case, self.page.contest_id, unit, n)
        for key, f in self.fields.items():
            f.blockSignals(True)
            f.set_value(got.sheet.value(key) if got else None)
            f.blockSignals(False)
        self._loaded = self._values()
        if got is not None:
            self.officer.setText(got.officer)
            if got.warning_note:
                self._show_note(got.warning_note)
        else:
            self.officer.setText(self._officer[n])
        self._update_check()

    def unsaved_work(self) -> str | None:
        """The entry whose typed numbers are not saved, in words; None when all are. A save
        under way is waited for first (quitting or switching case waits for it)."""
        self.wait_for_save()
        unit = self.current_unit()
        if unit is None or not self.fields or self._values() == self._loaded:
            return None
        return f"entry {self.number()} of {unit}"

    def focus_entry(self) -> None:
        """Focus where typing starts: the officer's name, or the first line of the sheet."""
        (self.officer if not self.officer.text().strip() else self._first_field()).setFocus()

    def _clear(self) -> None:
        for f in self.fields.values():
            f.clear()
        self._first_field().setFocus()

    def _first_field(self) -> QWidget:
        return next(iter(self.fields.values()), self.officer)

    # -- keyboard flow -----------------------------------------------------------------------
    def _officer_done(self) -> None:
        self._officer[self.number()] = self.officer.text()
        if self.officer_refused():
            self.officer.setFocus()
            self.officer.selectAll()
            return
        self._first_field().setFocus()

    def officer_refused(self) -> bool:
        """Whether the named officer may not make this entry (the roster does not know them,
        or they made the other entry): said before any figure is typed."""
        case, cid, unit = self.page.case, self.page.contest_id, self.current_unit()
        if case is None or cid is None or unit is None:
            return False
        why = rc.may_enter(case, cid, unit, self.number(), self.officer.text())
        if why is None:
            return False
        self.page.fail("This officer may not make this entry", why)
        return True

    def _field_done(self, key: str) -> None:
        keys = list(self.fields)
        i = keys.index(key)
        if i + 1 < len(keys):
            nxt = self.fields[keys[i + 1]]
            nxt.setFocus()
            nxt.selectAll()
        else:
            self.save()

    def _values(self) -> dict[str, int | None]:
        return {k: f.value() for k, f in self.fields.items()}

    def _update_check(self) -> None:
        if self.layout_ is None:
            return
        sheet = sheet_from_fields(self._values(), self.layout_)
        check = consistency(sheet, self.layout_)
        if check is None:
            missing = sheet.missing(self.layout_)
            self.check.setStyleSheet("color: #555;")
            self.check.setText(f"{len(missing)} line(s) not entered yet." if missing else "")
        elif check.ok:
            self.check.setStyleSheet(OK_STYLE)
            self.check.setText("✔ " + check.text)
        else:
            self.check.setStyleSheet(WARN_STYLE)
            self.check.setText("⚠ " + check.text + " (" + check.basis + ")")

    def _show_note(self, text: str = "") -> None:
        self.note_label.show()
        self.note.show()
        if text:
            self.note.setText(text)

    def _hide_note(self) -> None:
        self.note.clear()
        self.note.hide()
        self.note_label.hide()

    # -- saving -----------------------------------------------------------------------------
    def background(self) -> bool:
        """Whether a save runs off the GUI thread: on a counting-center server (every
        statement crosses the network) or in a recount of ``BACKGROUND_FROM_UNITS`` units or
        more, where it can take time. A local file's small recount saves at once, here."""
        case = self.page.case
        return case is not None and (case.on_server
                                     or len(self.rows) >= self.BACKGROUND_FROM_UNITS)

    @property
    def saving(self) -> bool:
        """A save is under way (in a worker): the sheet stays shown, and locked, until the
        save is acknowledged or refused."""
        return self._saving

    def save(self) -> None:
        """Save the sheet as typed (``actions.recount.enter_tally``); a refusal is shown and
        the typed numbers stay. Off the GUI thread where it can take time (``background``):
        the worker opens its own connection to the case (``actions.case.open_case``, as every
        worker does: SQLite connections belong to the thread that made them, and the case's
        WAL journal lets the window read while the worker writes); the form is locked until
        the save is acknowledged, and a second save cannot start meanwhile."""
        if self._saving:
            self.page.say("The sheet is still being saved: wait for the save to finish.")
            return
        case, cid, unit = self.page.case, self.page.contest_id, self.current_unit()
        if case is None or cid is None or unit is None or self.layout_ is None:
            return
        n = self.number()
        officer = self.officer.text().strip()
        self._officer[n] = officer
        # On the counting center's server another station may have saved this entry since
        # the list was read: a unit shown as free is saved only if it still is.
        shown = next((r for r in self.rows if r.name == unit), None)
        req = SaveRequest(cid, unit, n, officer, sheet_from_fields(self._values(), self.layout_),
                          self.note.text().strip() if self.note.isVisible() else "",
                          shown is not None and (shown.first_officer if n == 1
                                                 else shown.second_officer) is None)
        if not self.background():
            try:
                before, res = req.write(case)
            except (rc.RecountError, CaseFileError) as e:
                self._refused(e)
                return
            self._saved(req, before, res)
            return
        self._start_saving(case, req)

    def _start_saving(self, case: Case, req: SaveRequest) -> None:
        from recount_desk.actions import case as case_actions

        from .. import workers

        path, actor = case.path, case.person.name if case.person else None

        def job(_progress: object, _cancelled: object) -> tuple[
                TallyEntry | None, rc.EntryResult, rc.RecountState | None]:
            with case_actions.open_case(path, actor=actor) as own:
                before, res = req.write(own)
                # The page's re-read of the contest after the save (a few hundred ms at
                # 3,000 units) done here too, so the window only shows it.
                try:
                    state = rc.recount_state(own, req.contest_id)
                except (rc.RecountError, CaseFileError):
                    state = None  # the window reads it itself, and says what is wrong
                return before, res, state

        def done(got: tuple[TallyEntry | None, rc.EntryResult, rc.RecountState | None]
                 ) -> None:
            self._set_saving(False)
            self._saved(req, got[0], got[1], got[2])
            self.save_finished.emit()

        def failed(e: BaseException) -> None:
            self._set_saving(False)
            if self.page.contest_id != req.contest_id or self.current_unit() != req.unit:
                self._restore(req)  # the page moved on meanwhile: back to the sheet typed
            self._refused(e)
            self.save_finished.emit()

        self._set_saving(True)
        self.result.setStyleSheet("")
        self.result.setText(f"Saving entry {req.number} of {req.unit}…")
        workers.start(job, on_done=done, on_failed=failed)

    def _set_saving(self, on: bool) -> None:
        """Lock the form while a save is under way (so what is saved is what is shown), and
        tell the window a write is in flight (its undo history waits for it)."""
        self._saving = on
        self.form.setEnabled(not on)
        self.page.contest.setEnabled(not on)
        window = self.page.window
        if hasattr(window, "_pending_writes"):
            window._pending_writes += 1 if on else -1

    def _restore(self, req: SaveRequest) -> None:
        """Show again the sheet of a refused save, as it was typed: its contest, its unit,
        its entry, its numbers, officer and note."""
        if self.page.contest_id != req.contest_id:
            self.page.select_contest(req.contest_id, force=True)
        names = [r.name for r in self.rows]
        self._loading = True
        try:
            (self.second if req.number == 2 else self.first).setChecked(True)
            if req.unit in names:
                self.unit.setCurrentIndex(names.index(req.unit))
        finally:
            self._loading = False
        self.load_current()
        for key, f in self.fields.items():
            f.set_value(req.sheet.value(key))
        self.officer.setText(req.officer)
        if req.note:
            self._show_note(req.note)

    def wait_for_save(self) -> None:
        """Return once a save under way is acknowledged or refused (quitting waits)."""
        while self._saving:
            QCoreApplication.processEvents(
                QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
                | QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 100)

    def _refused(self, e: BaseException) -> None:
        """Show why the sheet was not saved; the typed numbers stay as they are."""
        if isinstance(e, rc.WarningNeedsNote):
            self._show_note()
            self.check.setStyleSheet(WARN_STYLE)
            self.check.setText("⚠ " + e.check.text + " To save the sheet as it is, write a "
                               "note saying why, then press Enter.")
            self.note.setFocus()
            self.note_needed.emit()
            return
        self.page.fail("The sheet was not saved", e)
        if isinstance(e, rc.AlreadyEntered):
            self.page.reload()  # the list shows who entered it

    def _saved(self, req: SaveRequest, before: TallyEntry | None, res: rc.EntryResult,
               state: rc.RecountState | None = None) -> None:
        unit, n, officer = req.unit, req.number, req.officer
        after = TallyEntry(n, officer, req.sheet, req.note)
        self.page.window.undo_stack.push(TallyEntryCommand(self, req.contest_id, unit, before,
                                                           after))
        left = f" Not entered yet: {', '.join(res.missing)}." if res.missing else ""
        msg = f"{unit}: entry {n} saved by {officer} — {res.state.status.label}.{left}"
        self.page.reload(state)
        self.result.setStyleSheet("")
        self.result.setText(msg)
        self.page.say(msg)
        self.tally_saved.emit(unit, n)
        if not res.missing:
            self.next_unit(n, unit)
        if res.state.status is UnitStatus.MISMATCH:
            # Said in the form, where the officer is looking (and kept as the form moves on
            # to the next unit), not only in the status bar and a tab's title.
            self.result.setStyleSheet(WARN_STYLE)
            self.result.setText(f"⚠ <b>{unit}: the two entries differ.</b> Entry {n} is "
                                "saved; the difference must be resolved before the unit "
                                "counts: see the Differences tab (Alt+3).")

    def next_unit(self, n: int, after: str) -> None:
        """Move to the next unit that still needs entry ``n`` (wrapping round)."""
        names = [r.name for r in self.rows]
        start = names.index(after) if after in names else -1
        order = self.rows[start + 1:] + self.rows[:start + 1]
        target = next_needing(order, n)
        if target is None:
            self.result.setText(self.result.text() + f" Every unit has its entry {n}.")
            self.save_button.setFocus()
            return
        self.unit.setCurrentIndex(names.index(target.name))
        f = self._first_field()
        f.setFocus()

    def apply_entry(self, contest_id: int, unit: str, entry: TallyEntry) -> None:
        """Enter ``entry`` again (undo / redo); a refusal is shown, never raised."""
        case = self.page.case
        if case is None:
            return
        try:
            rc.enter_tally(case, contest_id, unit, entry=entry.number, officer=entry.officer,
                           sheet=entry.sheet, warning_note=entry.warning_note)
        except (rc.RecountError, CaseFileError) as e:
            self.page.fail("The entry could not be restored", e)
            return
        self.page.say(f"{unit}: entry {entry.number} restored (recorded in the audit log).")
        if self.page.contest_id == contest_id:
            self.page.reload()
            self.show_entry(unit, entry.number)

    def show_entry(self, unit: str, number: int) -> None:
        """Open a unit's entry ``number`` (e.g. the one an undo just restored)."""
        names = [r.name for r in self.rows]
        if unit not in names:
            return
        self._loading = True
        self.unit.setCurrentIndex(names.index(unit))
        (self.second if number == 2 else self.first).setChecked(True)
        self._loading = False
        self.load_current()


class MismatchPanel(QWidget):
    """Units whose two entries differ: the fields side by side, and the recorded resolution."""

    resolved = Signal(str)

    def __init__(self, page: RecountPage) -> None:
        super().__init__()
        self.page = page
        self.rows: list[rc.UnitRow] = []
        self.layout_: SheetLayout | None = None
        self.corrections: dict[str, NumberField] = {}

        self.unit = QComboBox()
        self.unit.setAccessibleName("Unit whose entries differ")
        self.unit.setMinimumWidth(300)
        self.diff_model = TextTableModel()
        self.diffs = QTableView()
        fit_row_height(self.diffs)
        self.diffs.setModel(self.diff_model)
        self.diffs.setAccessibleName("Fields that differ, side by side")
        self.diffs.verticalHeader().setVisible(False)
        self.diffs.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.diffs.setMaximumHeight(220)
        self.summary = wrap_label("", "What to do")

        self.keep_first = QRadioButton("Keep the &first entry")
        self.keep_second = QRadioButton("Keep the s&econd entry")
        self.correct = QRadioButton("Enter &corrected values (after looking at the ballots "
                                    "or the tape)")
        self.keep_first.setChecked(True)
        g = QButtonGroup(self)
        for b in (self.keep_first, self.keep_second, self.correct):
            g.addButton(b)
        self.correct_box = QWidget()
        self.correct_grid = QGridLayout(self.correct_box)
        self.correct_grid.setContentsMargins(24, 0, 0, 0)
        self.correct_box.setVisible(False)
        self.correct.toggled.connect(self.correct_box.setVisible)
        self.by = line_edit("Who resolved the difference", "a supervisor or the election "
                            "officer, not one of the two officers")
        self.joint = QCheckBox("The two officers settled it &together (recorded as joint)")
        self.joint.toggled.connect(lambda on: self.by.setEnabled(not on))
        self.note = line_edit("Resolution note", "what was checked (kept in the audit log)")
        self.resolve_button = QPushButton("&Resolve and record")
        self.resolve_button.setAccessibleName("Resolve the difference")
        self.resolve_button.clicked.connect(self.resolve)
        self.by.returnPressed.connect(self.note.setFocus)
        self.note.returnPressed.connect(self.resolve)

        res = QGroupBox("Resolution (a recorded action)")
        rl = QGridLayout(res)
        rl.addWidget(self.keep_first, 0, 0, 1, 2)
        rl.addWidget(self.keep_second, 1, 0, 1, 2)
        rl.addWidget(self.correct, 2, 0, 1, 2)
        rl.addWidget(self.correct_box, 3, 0, 1, 2)
        by_label = QLabel("Resolved &by:")
        by_label.setBuddy(self.by)
        note_label = QLabel("&Note:")
        note_label.setBuddy(self.note)
        rl.addWidget(by_label, 4, 0)
        rl.addWidget(self.by, 4, 1)
        rl.addWidget(self.joint, 5, 1)
        rl.addWidget(note_label, 6, 0)
        rl.addWidget(self.note, 6, 1)
        rl.addWidget(self.resolve_button, 7, 1, Qt.AlignmentFlag.AlignLeft)

        unit_label = QLabel("&Unit:")
        unit_label.setBuddy(self.unit)
        top = QHBoxLayout()
        top.addWidget(unit_label)
        top.addWidget(self.unit)
        top.addStretch(1)
        box = QVBoxLayout(self)
        box.addWidget(wrap_label("Double entry: when the two officers' entries of a sheet "
                                 "differ, the unit does not count until the difference is "
                                 "resolved. Compare the fields, look at the sheet or the "
                                 "ballots, then keep one entry or enter the right values."))
        box.addLayout(top)
        box.addWidget(self.summary)
        box.addWidget(self.diffs)
        box.addWidget(res)
        box.addStretch(1)
        self.unit.currentIndexChanged.connect(lambda _i: self._show_unit())

    def current_unit(self) -> str | None:
        d = self.unit.currentData()
        return str(d) if d is not None else None

    def show_state(self, st: rc.RecountState | None) -> None:
        keep = self.current_unit()
        self.layout_ = st.layout if st else None
        self.rows = [r for r in (st.units if st else ())
                     if r.status is UnitStatus.MISMATCH or r.state.diffs]
        self.unit.blockSignals(True)
        self.unit.clear()
        for r in self.rows:
            self.unit.addItem(f"{r.name} — {r.status.label}", r.name)
        names = [r.name for r in self.rows]
        if keep in names:
            self.unit.setCurrentIndex(names.index(keep))
        else:
            # Open the first unit still to resolve.
            todo = [i for i, r in enumerate(self.rows) if r.status is UnitStatus.MISMATCH]
            self.unit.setCurrentIndex(todo[0] if todo else 0)
        self.unit.blockSignals(False)
        self._show_unit()

    def pending(self) -> int:
        return sum(1 for r in self.rows if r.status is UnitStatus.MISMATCH)

    def _row(self) -> rc.UnitRow | None:
        u = self.current_unit()
        return next((r for r in self.rows if r.name == u), None)

    def _show_unit(self) -> None:
        row = self._row()
        while self.correct_grid.count():
            item = self.correct_grid.takeAt(0)
            if item and item.widget():
                item.widget().deleteLater()
        self.corrections = {}
        if row is None:
            self.diff_model.set_table(("Field", "Entry 1", "Entry 2"), [])
            self.summary.setText("No unit has differing entries." if self.page.state
                                 else "")
            self.resolve_button.setEnabled(False)
            return
        a = f"Entry 1 ({row.first_officer or '—'})"
        b = f"Entry 2 ({row.second_officer or '—'})"
        diffs = row.state.diffs
        self.diff_model.set_table(
            ("Field", a, b),
            [[d.label, "—" if d.first is None else d.first,
              "—" if d.second is None else d.second] for d in diffs],
            numeric=(1, 2),
            row_brushes={i: QBrush(QColor("#f9d3cc")) for i in range(len(diffs))})
        if row.status is UnitStatus.MISMATCH:
            self.summary.setText(f"<b>{row.name}</b>: {row.state.todo}")
            self.resolve_button.setEnabled(True)
        else:
            kind = row.state.resolution.label if row.state.resolution else ""
            self.summary.setText(f"<b>{row.name}</b>: resolved — {kind}. "
                                 f"{row.state.note}")
            self.resolve_button.setEnabled(False)
        for n, d in enumerate(diffs):
            f = NumberField(f"Corrected {d.label}")
            lab = QLabel(f"Corrected {d.label}:")
            lab.setBuddy(f)
            self.correct_grid.addWidget(lab, n, 0)
            self.correct_grid.addWidget(f, n, 1)
            self.corrections[d.key] = f

    def resolve(self) -> None:
        case, cid, row = self.page.case, self.page.contest_id, self._row()
        if case is None or cid is None or row is None or self.layout_ is None:
            return
        kind = (ResolutionKind.KEEP_FIRST if self.keep_first.isChecked() else
                ResolutionKind.KEEP_SECOND if self.keep_second.isChecked() else
                ResolutionKind.CORRECTED)
        corrected = None
        try:
            if kind is ResolutionKind.CORRECTED:
                first = rc.entry_of(case, cid, row.name, 1)
                values: dict[str, Any] = {k: (first.sheet.value(k) if first else None)
                                          for k in self.layout_.fields()}
                for k, f in self.corrections.items():
                    values[k] = f.value()
                corrected = sheet_from_fields(values, self.layout_)
            rc.resolve_mismatch(case, cid, row.name, kind=kind, by=self.by.text(),
                                corrected=corrected, note=self.note.text(),
                                joint=self.joint.isChecked())
        except rc.WarningNeedsNote as e:
            self.page.fail("A note is needed", e)
            self.note.setFocus()
            return
        except (rc.RecountError, CaseFileError) as e:
            self.page.fail("The difference was not resolved", e)
            return
        self.note.clear()
        self.page.say(f"{row.name}: {kind.label.lower()} — recorded.")
        self.page.reload()
        self.resolved.emit(row.name)
