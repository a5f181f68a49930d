"""The re-tabulated results on the Recount page: load them, compare before committing, hand
counts of loaded units, printed tally sheets. The rules are in ``core.retab``; the writes in
``actions.retab`` and ``actions.tally_sheets``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import recount as rc
from recount_desk.actions import retab as retab_actions
from recount_desk.actions import tally_sheets as sheet_actions
from recount_desk.actions.case import CaseFileError
from recount_desk.core.recount import RecountMethod
from recount_desk.core.retab import UnitSource

from ..models import TextTableModel
from ..theme import fit_columns
from .common import WARN_STYLE, ValueCombo, line_edit, stamp_text, wrap_label
from .panels import table

if TYPE_CHECKING:
    from ..pages.recount import RecountPage

RETAB_FILTER = ("Statements of votes (*.xlsx *.xlsm *.xls *.ods *.csv *.txt *.xml *.zip);;"
                "All files (*)")
ERRORS = (rc.RecountError, CaseFileError)


class RetabLoadDialog(QDialog):
    """Canvass against the re-tabulated figures, per unit and in total, and what the load
    would record — shown before anything is written."""

    contest_changed = Signal(int)

    def __init__(self, preview: retab_actions.RetabPreview, parent: QWidget | None = None
                 ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Load re-tabulated results")
        self.setAccessibleName("Load re-tabulated results: compare before loading")
        self.resize(980, 680)
        self.preview = preview
        self.file_label = wrap_label("", "The file")
        self.file_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.contest = ValueCombo([(m.contest.index, self._match_text(m))
                                   for m in preview.matches], "The file's contest to load")
        lab = QLabel("The file's &contest:")
        lab.setBuddy(self.contest)
        self.model = TextTableModel()
        self.view = table("Canvass against the re-tabulated figures", self.model)
        self.result = wrap_label("", "Whether the declared result changes")
        self.problems = QPlainTextEdit()
        self.problems.setReadOnly(True)
        self.problems.setAccessibleName("What does not fit")
        self.problems.setMaximumHeight(130)
        self.confirm_listed = QCheckBox("Load the others; the listed units are &counted by "
                                        "hand")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.load_button = self.buttons.addButton("&Load", QDialogButtonBox.ButtonRole.AcceptRole)
        self.load_button.setAccessibleName("Load the re-tabulated figures")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.confirm_listed.toggled.connect(lambda _on: self._enable())
        self.contest.currentIndexChanged.connect(
            lambda _i: self.contest_changed.emit(int(self.contest.value())))
        row = QHBoxLayout()
        row.addWidget(lab)
        row.addWidget(self.contest, 1)
        box = QVBoxLayout(self)
        box.addWidget(self.file_label)
        box.addLayout(row)
        box.addWidget(self.view, 1)
        box.addWidget(self.result)
        box.addWidget(self.problems)
        box.addWidget(self.confirm_listed)
        box.addWidget(self.buttons)
        self.show_preview(preview)

    @staticmethod
    def _match_text(m: Any) -> str:
        mark = "✓ " if m.sure else ""
        return f"{mark}{m.contest.label} — {'; '.join(m.reasons)}"

    def show_preview(self, p: retab_actions.RetabPreview) -> None:
        self.preview = p
        self.contest.blockSignals(True)
        self.contest.select(p.chosen.index)
        self.contest.blockSignals(False)
        f = p.file
        self.file_label.setText(
            f"<b>{f.file}</b>" + (f", sheet <b>{f.sheet}</b>" if f.sheet else "")
            + f" — SHA-256 <tt>{f.sha256}</tt><br>Recount of <b>{p.title}</b>: "
            f"{len(p.plan.sheets)} of {p.plan.units_total} units would be loaded from the "
            "file as one audited action. A machine export is not keyed, so no second entry "
            "is needed.")
        c = p.comparison
        header = ["Unit"]
        for ch in c.choices:
            header += [f"{ch}\ncanvass", f"{ch}\nrecount", f"{ch}\nchange"]
        header.append("From")
        rows: list[list[Any]] = []
        brushes: dict[int, QBrush] = {}
        words = {"file": "the file", "kept": "hand-entered (kept)", "open": "not counted"}
        for n, r in enumerate(c.rows):
            cells: list[Any] = [r.unit]
            for ch in c.choices:
                cells += [r.canvass[ch], "—" if r.recount is None else r.recount[ch],
                          "" if r.recount is None else f"{r.recount[ch] - r.canvass[ch]:+,}"]
            cells.append(words[r.source])
            rows.append(cells)
            if r.differs or r.recount is None:
                brushes[n] = QBrush(QColor("#fde9b0"))
        total: list[Any] = ["Total"]
        for ch in c.choices:
            total += [c.canvass_total[ch], c.recount_total[ch], f"{c.change_total[ch]:+,}"]
        total.append(f"{c.units_counted} of {c.units_total} units")
        rows.append(total)
        self.model.set_table(header, rows, numeric=list(range(1, len(header) - 1)),
                             bold_last=True, row_brushes=brushes)
        fit_columns(self.view)
        net = ", ".join(f"{ch} {c.change_total[ch]:+,}" for ch in c.choices)
        self.result.setText(f"<b>Net change per choice:</b> {net}. <b>{c.result_text}</b>"
                            + (f" {c.envelope_note}" if c.envelope_note else ""))
        self.result.setStyleSheet(WARN_STYLE if c.result_changes else "")
        lines = retab_actions.refusal_problems(p.problems)
        if p.replaced:
            lines.append(f"Replaces the earlier load of {len(p.replaced)} unit(s).")
        if p.kept:
            lines.append("Keeps the hand-entered unit(s): " + ", ".join(p.kept) + ".")
        self.problems.setPlainText("\n".join(lines) or "Every unit of the recount is in the "
                                   "file, with every candidate of the canvass.")
        self.problems.setStyleSheet("" if not p.problems else "QPlainTextEdit { background: "
                                    "#fff4ce; }")
        self.confirm_listed.setVisible(p.needs_confirmation and not p.refused)
        self.confirm_listed.setChecked(False)
        self._enable()

    def _enable(self) -> None:
        p = self.preview
        ok = not p.refused and bool(p.plan.sheets) and (
            not p.needs_confirmation or self.confirm_listed.isChecked())
        self.load_button.setEnabled(ok)
        self.load_button.setText(f"&Load {len(p.plan.sheets)} unit(s)" if not p.refused
                                 else "Refused")


class RetabGroup(QGroupBox):
    """On the Start panel: load the tabulators' re-tabulated statement, hand counts of
    loaded units, printed tally sheets."""

    loaded = Signal(int)
    dialog_shown = Signal(object)

    def __init__(self, page: RecountPage) -> None:
        super().__init__("Re-tabulated results and tally sheets")
        self.page = page
        self.dialog: RetabLoadDialog | None = None
        self._file: retab_actions.RetabFile | None = None
        self.info = wrap_label("", "Loads of re-tabulated results")
        self.load_button = QPushButton("&Load re-tabulated results…")
        self.load_button.setAccessibleName("Load re-tabulated results")
        self.load_button.clicked.connect(lambda: self.load())
        self.print_button = QPushButton("Print tally &sheets…")
        self.print_button.setAccessibleName("Print tally sheets for a hand count")
        self.print_button.clicked.connect(lambda: self.print_sheets())
        self.hand_unit = ValueCombo([], "Loaded unit to count by hand")
        self.hand_note = line_edit("Why this unit is counted by hand",
                                   "why: e.g. ballot bag damaged, tabulator could not read it")
        self.hand_button = QPushButton("Count by &hand instead")
        self.hand_button.clicked.connect(self.hand_count)
        buttons = QHBoxLayout()
        buttons.addWidget(self.load_button)
        buttons.addWidget(self.print_button)
        buttons.addStretch(1)
        hand = QHBoxLayout()
        hand.addWidget(QLabel("Loaded unit:"))
        hand.addWidget(self.hand_unit)
        hand.addWidget(self.hand_note, 1)
        hand.addWidget(self.hand_button)
        box = QVBoxLayout(self)
        box.addWidget(self.info)
        box.addLayout(buttons)
        box.addLayout(hand)

    def show_state(self, st: rc.RecountState | None) -> None:
        case, cid = self.page.case, self.page.contest_id
        started = st is not None and st.settings is not None
        retab = started and st is not None and st.settings is not None and \
            st.settings.method is RecountMethod.RETABULATION
        writable = st is not None and not st.locked and case is not None and \
            not case.readonly
        self.setEnabled(started)
        self.load_button.setEnabled(bool(retab and writable))
        self.print_button.setEnabled(started)
        loads: list[Any] = []
        sources: dict[str, retab_actions.SourceInfo] = {}
        if started and case is not None and cid is not None:
            loads = retab_actions.loads(case, cid)
            sources = retab_actions.unit_sources(case, cid, st.loaded)
        loaded_units = [u for u, s in sources.items() if s.source is UnitSource.LOADED]
        self.hand_unit.values = list(loaded_units)
        self.hand_unit.clear()
        self.hand_unit.addItems(loaded_units)
        for w in (self.hand_unit, self.hand_note, self.hand_button):
            w.setEnabled(bool(loaded_units) and writable)
        if not started:
            self.info.setText("Start the recount first.")
        elif not retab:
            self.info.setText("A hand count: print a tally sheet for each unit, then enter "
                              "each sheet on the Tally entry panel.")
        elif not loads:
            self.info.setText("Load the statement of votes the election system printed after "
                              "the ballots were run through the tabulators again (any format "
                              "the canvass import reads; one sheet of a workbook). You see "
                              "the comparison with the canvass before anything is recorded.")
        else:
            last = loads[-1]
            hand = sum(1 for s in sources.values() if s.source is UnitSource.HAND)
            self.info.setText(
                f"<b>Loaded</b> {stamp_text(last.loaded_at)} by {last.loaded_by}: "
                f"<b>{last.file}</b>" + (f" (sheet {last.sheet})" if last.sheet else "")
                + f", contest “{last.file_contest}”, SHA-256 <tt>{last.sha256[:16]}…</tt>. "
                f"Units from the file: {len(loaded_units)}; hand-entered: {hand}."
                + (f" ({len(loads)} loads in all.)" if len(loads) > 1 else ""))

    # -- loading ------------------------------------------------------------------------
    def load(self, path: Path | str | None = None, sheet: str | None = None,
             wait: bool = False) -> None:
        """Pick the file (and a workbook's sheet), read it off the GUI thread, show the
        comparison. ``wait``: read on this thread (tests, scripts)."""
        if self.page.case is None or self.page.contest_id is None:
            return
        if path is None:
            got, _ = QFileDialog.getOpenFileName(self, "Load re-tabulated results", "",
                                                 RETAB_FILTER)
            if not got:
                return
            path = got
            sheet = self._ask_sheet(Path(got))
            if sheet == "\x00cancel":
                return
        p = Path(path)

        def job(_progress: Any, cancelled: Any) -> retab_actions.RetabFile:
            return retab_actions.read_retab_file(p, sheet=sheet, cancelled=cancelled)

        if wait:
            try:
                self._read(job(None, lambda: False))
            except (retab_actions.ImportFailed, *ERRORS) as e:
                self._failed(e)
            return
        from .. import workers

        workers.start(job, on_done=self._read, on_failed=self._failed, parent=self,
                      title="Reading the re-tabulated results", label=f"Reading {p.name}…")

    def _ask_sheet(self, path: Path) -> str | None:
        """A workbook with several sheets: which one holds the recount (or let the program
        find it)."""
        from recount_desk.actions import wizard

        if path.suffix.lower() not in (".xlsx", ".xlsm", ".xls", ".ods"):
            return None
        try:
            names = wizard.preview_table(path).sheets
        except Exception:  # the reader will say what is wrong with the file
            return None
        if len(names) < 2:
            return None
        auto = "(let Recount Desk find the contest)"
        pick = [auto, *names]
        recount_like = next((i for i, n in enumerate(names, 1) if "recount" in n.lower()), 0)
        got, ok = QInputDialog.getItem(self, "Which sheet?", f"{path.name} has "
                                       f"{len(names)} sheets. Which holds the recount?", pick,
                                       recount_like, False)
        if not ok:
            return "\x00cancel"
        return None if got == auto else got

    def _failed(self, e: BaseException) -> None:
        if isinstance(e, retab_actions.ImportFailed):
            self.page.fail("The file cannot be read", str(e.issue))
        else:
            self.page.fail("The file cannot be loaded", e)

    def _read(self, f: retab_actions.RetabFile) -> None:
        case, cid = self.page.case, self.page.contest_id
        if case is None or cid is None:
            return
        self._file = f
        try:
            preview = retab_actions.preview_load(case, cid, f)
        except ERRORS as e:
            self.page.fail("The file cannot be loaded", e)
            return
        dlg = RetabLoadDialog(preview, self)
        dlg.contest_changed.connect(self._contest_changed)
        dlg.accepted.connect(self._confirmed)
        self.dialog = dlg
        dlg.open()
        self.dialog_shown.emit(dlg)

    def _contest_changed(self, index: int) -> None:
        case, cid, dlg = self.page.case, self.page.contest_id, self.dialog
        if case is None or cid is None or dlg is None or self._file is None:
            return
        try:
            dlg.show_preview(retab_actions.preview_load(case, cid, self._file,
                                                        file_contest=index))
        except ERRORS as e:
            self.page.fail("The file cannot be loaded", e)

    def _confirmed(self) -> None:
        dlg = self.dialog
        if dlg is None:
            return
        preview = dlg.preview
        res = self.page.act("The re-tabulated results were not loaded",
                            lambda case, _cid: retab_actions.load_retab(
                                case, preview, confirm=dlg.confirm_listed.isChecked()))
        if res is not None:
            self.page.say(f"Loaded {res.loaded} of {preview.plan.units_total} units from "
                          f"{preview.file.file} as one action.")
            self.loaded.emit(res.loaded)

    # -- mixed recounts and paper ------------------------------------------------------------
    def hand_count(self) -> None:
        unit = self.hand_unit.value()
        if unit is None:
            return
        if self.page.act("The unit was not set aside", retab_actions.hand_count_unit, unit,
                         note=self.hand_note.text()) is not None:
            self.hand_note.clear()
            self.page.say(f"{unit} is set aside for a hand count: enter its sheet on the "
                          "Tally entry panel.")

    def print_sheets(self, path: Path | str | None = None) -> Path | None:
        case, cid = self.page.case, self.page.contest_id
        if case is None or cid is None:
            return None
        if path is None:
            got, _ = QFileDialog.getSaveFileName(self, "Print tally sheets",
                                                 "tally sheets.pdf", "PDF (*.pdf)")
            if not got:
                return None
            path = got
        try:
            res = sheet_actions.make_tally_sheets(case, cid, path)
        except ERRORS as e:
            self.page.fail("The tally sheets were not written", e)
            return None
        self.page.reload()
        self.page.say(f"Wrote {res.pages} tally sheet(s) to {res.path}.")
        return res.path

