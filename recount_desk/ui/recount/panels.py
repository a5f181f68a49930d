"""The recount's other panels: start, variance, witnesses, envelopes, costs, board, declaration."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import recount as rc
from recount_desk.actions.case import CaseFileError
from recount_desk.core.model import ContestKind
from recount_desk.core.recount import (
    OPPONENTS,
    PROPONENTS,
    BoardKind,
    BoardMember,
    BoardRole,
    CostKind,
    EntryMode,
    EnvelopeCheck,
    EnvelopeOutcome,
    EnvelopeVotes,
    Lot,
    RecountMethod,
    RecountUnit,
    RejectionReason,
    format_cents,
    parse_cents,
    parse_hours,
)
from recount_desk.core.report_model import short_code

from ..dates import DateTimeField
from ..models import TextTableModel
from ..theme import WIDTH_SAMPLE, fit_columns, fit_row_height
from .common import (
    NOTE_STYLE,
    WARN_STYLE,
    combo,
    datetime_edit,
    heading,
    line_edit,
    py_datetime,
    stamp_text,
    when_text,
    wrap_label,
)

if TYPE_CHECKING:
    from ..pages.recount import RecountPage

ERRORS = (rc.RecountError, CaseFileError)


def table(name: str, model: TextTableModel) -> QTableView:
    t = QTableView()
    t.setModel(model)
    t.setAccessibleName(name)
    t.verticalHeader().setVisible(False)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setAlternatingRowColors(True)
    t.horizontalHeader().setStretchLastSection(True)
    fit_row_height(t)  # rows as high as their text, as on the Contests page
    # Columns fitted to the rows in view and 200 more, not to every one of 3,000 units (a
    # second and more on each re-read); the Contests page does the same.
    t.verticalHeader().setResizeContentsPrecision(WIDTH_SAMPLE)
    return t


def scrolled(inner: QWidget) -> QScrollArea:
    s = QScrollArea()
    s.setWidgetResizable(True)
    s.setFrameShape(QFrame.Shape.NoFrame)
    s.setWidget(inner)
    return s


def form(*rows: tuple[str, QWidget]) -> QFormLayout:
    f = QFormLayout()
    f.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    for text, w in rows:
        lab = QLabel(text)
        lab.setBuddy(w)
        f.addRow(lab, w)
    return f


def selected_row(view: QTableView) -> int:
    idx = view.selectionModel().currentIndex() if view.selectionModel() else None
    return idx.row() if idx is not None and idx.isValid() else -1


class Panel(QWidget):
    """A panel of the Recount page: shows the contest's state; writes through the page."""

    def __init__(self, page: RecountPage) -> None:
        super().__init__()
        self.page = page

    def show_state(self, st: rc.RecountState | None) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, title: str, fn: Any, *args: Any, **kw: Any) -> Any:
        return self.page.act(title, fn, *args, **kw)


# ------------------------------------------------------------------------------------------
class StartPanel(Panel):
    """Start the recount: the method, single or double entry, precincts or named batches."""

    started = Signal()

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.retab = QRadioButton("&Re-tabulation (ballots run through the tabulators again)")
        self.hand = QRadioButton("&Hand count")
        self.retab.setChecked(True)
        g1 = QButtonGroup(self)
        g1.addButton(self.retab)
        g1.addButton(self.hand)
        self.double = QRadioButton("&Double entry: two officers enter each sheet, the second "
                                   "blind (recommended)")
        self.single = QRadioButton("&Single entry: one officer enters each sheet (the report "
                                   "says so)")
        self.double.setChecked(True)
        g2 = QButtonGroup(self)
        g2.addButton(self.double)
        g2.addButton(self.single)
        self.by_precinct = QRadioButton("One unit per &precinct of the canvass")
        self.by_batch = QRadioButton("Counting &batches I name")
        self.by_precinct.setChecked(True)
        g3 = QButtonGroup(self)
        g3.addButton(self.by_precinct)
        g3.addButton(self.by_batch)
        self.batches = QPlainTextEdit()
        self.batches.setAccessibleName("Batches, one per line: name = precinct; precinct")
        self.batches.setPlaceholderText("One batch per line:  Batch A = precinct; precinct")
        self.batches.setTabChangesFocus(True)
        self.batches.setEnabled(False)
        self.by_batch.toggled.connect(self.batches.setEnabled)
        self.precincts = wrap_label("", "Precincts of this contest")
        self.precincts.setStyleSheet("color: #444;")
        self.precincts.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.current = wrap_label("", "Current settings")
        self.start_button = QPushButton("S&tart the recount")
        self.start_button.setAccessibleName("Start the recount")
        self.start_button.clicked.connect(self.start)

        m = QGroupBox("Method (20A-4-401(1)(e)(ii))")
        ml = QVBoxLayout(m)
        ml.addWidget(self.retab)
        ml.addWidget(self.hand)
        e = QGroupBox("Entry of the tally sheets")
        el = QVBoxLayout(e)
        el.addWidget(self.double)
        el.addWidget(self.single)
        u = QGroupBox("Units (every precinct exactly once: all ballots are recounted)")
        ul = QVBoxLayout(u)
        ul.addWidget(self.by_precinct)
        ul.addWidget(self.by_batch)
        ul.addWidget(self.batches)
        ul.addWidget(self.precincts)
        from .retab import RetabGroup  # the re-tabulation load (issue 15)

        self.retab_box = RetabGroup(page)
        inner = QWidget()
        v = QVBoxLayout(inner)
        v.addWidget(self.current)
        v.addWidget(self.retab_box)
        v.addWidget(m)
        v.addWidget(e)
        v.addWidget(u)
        v.addWidget(self.start_button, 0, Qt.AlignmentFlag.AlignLeft)
        v.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(scrolled(inner))
        self._precinct_names: list[str] = []

    def show_state(self, st: rc.RecountState | None) -> None:
        self.setEnabled(st is not None)
        self.retab_box.show_state(st)
        if st is None:
            return
        names = [p for u in st.units for p in u.precincts] or list(self.page.precincts())
        self._precinct_names = names
        self.precincts.setText("Precincts: " + "; ".join(names))
        self.batches.setPlaceholderText(
            "One batch per line:  Batch A = " + "; ".join(names[:2]) if names else
            "One batch per line:  Batch A = precinct; precinct")
        s = st.settings
        entered = any(u.first_officer or u.second_officer for u in st.units)
        if s is None:
            self.current.setText("<b>The recount has not started.</b> Choose how it is done, "
                                 "then start it. Until the first sheet is entered you may "
                                 "start again with other settings.")
            self.start_button.setText("S&tart the recount")
        else:
            self.current.setText(
                f"<b>Started</b> {stamp_text(s.started_at)} by {s.started_by}: "
                f"{s.method.label}, {s.entry_mode.label.lower()}, {len(st.units)} "
                f"{'precincts' if s.unit_kind.value == 'precincts' else 'batches'}."
                + (" Tally sheets have been entered, so these settings are fixed."
                   if entered else " No sheet entered yet: you may still change them."))
            self.start_button.setText("S&tart again with these settings")
            (self.retab if s.method is RecountMethod.RETABULATION else self.hand).setChecked(True)
            (self.double if s.entry_mode is EntryMode.DOUBLE else self.single).setChecked(True)
        for w in (self.retab, self.hand, self.double, self.single, self.by_precinct,
                  self.by_batch, self.start_button):
            w.setEnabled(not entered)
        self.batches.setEnabled(not entered and self.by_batch.isChecked())

    def parse_batches(self) -> list[RecountUnit]:
        out = []
        for line in self.batches.toPlainText().splitlines():
            if not line.strip():
                continue
            name, sep, rest = line.partition("=")
            precincts = tuple(p.strip() for p in rest.split(";") if p.strip()) if sep else ()
            out.append(RecountUnit(name.strip(), precincts))
        return out

    def start(self) -> None:
        st = self.page.state
        unrequested = st is not None and not any(s.done for s in st.checklist.steps
                                                 if s.stage.value == "requested")
        if st is not None and unrequested and not self.page.confirm(
                    "No recount request is recorded",
                    f"No recount request is recorded for {st.title}. A recount is held on a "
                    "timely request (20A-4-401(1)(d)) or, for a tie, without one. Record the "
                    "request first (Edit › Record a recount request…), or start anyway?"):
            return
        method = RecountMethod.RETABULATION if self.retab.isChecked() else \
            RecountMethod.HAND_COUNT
        mode = EntryMode.DOUBLE if self.double.isChecked() else EntryMode.SINGLE
        batches = self.parse_batches() if self.by_batch.isChecked() else None
        if self.run("The recount was not started", rc.start_recount, method=method,
                    entry_mode=mode, batches=batches) is not None:
            self.page.say(f"Recount started: {method.label}, {mode.label.lower()}.")
            self.started.emit()


# ------------------------------------------------------------------------------------------
class VariancePanel(Panel):
    """Canvass vs recount per unit and in total, net change per choice, a note per unit."""

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.model = TextTableModel()
        self.view = table("Variance: canvass against recount", self.model)
        self.view.selectionModel().currentRowChanged.connect(lambda _c, _p: self._selected())
        self.summary = wrap_label("", "Net change per choice")
        self.note_unit = QLabel("Select a unit to write its note.")
        self.note = line_edit("Variance note", "why the recount differs from the canvass")
        self.save_note = QPushButton("Save &note")
        self.save_note.clicked.connect(self.save)
        self.note.returnPressed.connect(self.save)
        self.units: list[str] = []
        row = QHBoxLayout()
        row.addWidget(self.note_unit)
        row.addWidget(self.note, 1)
        row.addWidget(self.save_note)
        box = QVBoxLayout(self)
        box.addWidget(self.summary)
        box.addWidget(self.view, 1)
        box.addLayout(row)

    def show_state(self, st: rc.RecountState | None) -> None:
        case, cid = self.page.case, self.page.contest_id
        if st is None or st.settings is None or case is None or cid is None:
            self.model.set_table(("Unit",), [])
            self.summary.setText("The variance appears once units are reconciled.")
            self.units = []
            return
        vt = rc.variance(case, cid, st.loaded)
        from recount_desk.actions.retab import unit_sources

        sources = unit_sources(case, cid, st.loaded)
        header = ["Unit"]
        for c in vt.choices:
            header += [f"{c}\ncanvass", f"{c}\nrecount", f"{c}\nchange"]
        header += ["Net", "Source", "Note"]
        rows: list[list[Any]] = []
        brushes = {}
        for n, r in enumerate(vt.rows):
            cells: list[Any] = [r.unit]
            for c in vt.choices:
                cells += [r.canvass[c], "not counted" if r.recount is None else r.recount[c],
                          "" if r.change is None else f"{r.change[c]:+,}"]
            # Not colour alone: a unit that differs says so in words (votes may move between
            # choices with a net change of zero).
            cells += ["" if r.net is None else f"{r.net:+,}" + (" differs" if r.differs
                                                                else ""),
                      sources[r.unit].short if r.unit in sources else "", r.note]
            rows.append(cells)
            if r.differs:
                brushes[n] = QBrush(QColor("#fde9b0" if not r.note else "#fff8e0"))
        left = len(vt.rows) - vt.units_counted
        if left:
            # Counted units against the same units' canvass; the rest are named apart.
            counted: list[Any] = [f"Counted units ({vt.units_counted})"]
            for c in vt.choices:
                counted += [vt.counted_canvass_total[c], vt.recount_total[c],
                            f"{vt.change_total[c]:+,}"]
            counted += [f"{sum(vt.change_total.values()):+,}", "", ""]
            rows.append(counted)
            rest: list[Any] = [f"Not counted yet ({left})"]
            for c in vt.choices:
                rest += [vt.canvass_total[c] - vt.counted_canvass_total[c], "not counted", ""]
            rest += ["", "", ""]
            rows.append(rest)
        total: list[Any] = ["Total" if not left else "Canvass, every unit"]
        for c in vt.choices:
            total += [vt.canvass_total[c], vt.recount_total[c] if not left else "",
                      f"{vt.change_total[c]:+,}" if not left else ""]
        total += [f"{sum(vt.change_total.values()):+,}" if not left else "", "", ""]
        rows.append(total)
        numeric = [i for i in range(1, len(header) - 2)]
        self.model.set_table(header, rows, numeric=numeric, bold_last=True, row_brushes=brushes)
        fit_columns(self.view)
        self.units = [r.unit for r in vt.rows]
        change = ", ".join(f"{c} {vt.change_total[c]:+,}" for c in vt.choices)
        if vt.complete:
            head = f"<b>Net change on the recount:</b> {change} — every unit counted"
        else:
            head = (f"<b>Change so far, in the {vt.units_counted} units counted</b> (against "
                    f"the same units' canvass): {change if vt.units_counted else '—'}. "
                    f"<b>{left} of {len(vt.rows)} units not counted yet.</b>")
        self.summary.setText(
            head + ". Accepted absentee ballots are included in their precinct's unit. Rows "
            "that differ from the canvass are marked (“differs” in the Net column) and "
            "tinted; explain each in its note.")
        self._selected()

    def _selected(self) -> None:
        i = selected_row(self.view)
        if 0 <= i < len(self.units):
            self.note_unit.setText(f"Note for <b>{self.units[i]}</b>:")
            self.note.setText(str(self.model.cell(i, self.model.columnCount() - 1)))
            self.note.setEnabled(True)
            self.save_note.setEnabled(True)
        else:
            self.note_unit.setText("Select a unit to write its note:")
            self.note.setEnabled(False)
            self.save_note.setEnabled(False)

    def save(self) -> None:
        i = selected_row(self.view)
        if not 0 <= i < len(self.units):
            return
        unit = self.units[i]
        self.run("The note was not saved", rc.set_variance_note, unit, self.note.text())
        self.view.selectRow(i)


# ------------------------------------------------------------------------------------------
class WitnessesPanel(Panel):
    """Representatives designated to watch the recount, by whom, and when they attended."""

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.model = TextTableModel()
        self.view = table("Witnesses", self.model)
        self.ids: list[int] = []
        self.name = line_edit("Witness name")
        self.designated_by = line_edit("Designated by", "the candidate, or who for the side")
        self.side = QComboBox()
        self.side.setAccessibleName("Side or candidate represented")
        self.designated_at = datetime_edit("Designated at")
        self.attended = QCheckBox("Record &attendance")
        self.from_ = datetime_edit("Attended from")
        self.to = datetime_edit("Attended until")
        self.add_button = QPushButton("&Add witness")
        self.add_button.clicked.connect(self.add)
        self.attend_button = QPushButton("Record attendance of the &selected witness")
        self.attend_button.clicked.connect(self.attend)
        f = form(("&Name:", self.name), ("Designated &by:", self.designated_by),
                 ("Re&presents:", self.side), ("Designated at:", self.designated_at))
        times = QHBoxLayout()
        times.addWidget(self.attended)
        times.addWidget(QLabel("from"))
        times.addWidget(self.from_)
        times.addWidget(QLabel("until"))
        times.addWidget(self.to)
        times.addStretch(1)
        g = QGroupBox("Add a witness")
        gl = QVBoxLayout(g)
        gl.addLayout(f)
        gl.addLayout(times)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.attend_button)
        buttons.addStretch(1)
        gl.addLayout(buttons)
        self.basis = wrap_label("", style=NOTE_STYLE)
        box = QVBoxLayout(self)
        box.addWidget(self.basis)
        box.addWidget(self.view, 1)
        box.addWidget(g)

    def show_state(self, st: rc.RecountState | None) -> None:
        case, cid = self.page.case, self.page.contest_id
        if st is None or case is None or cid is None:
            self.model.set_table(("Name",), [])
            return
        prop = st.canvass.contest.kind is ContestKind.PROPOSITION
        self.side.clear()
        sides = [PROPONENTS, OPPONENTS] if prop else list(st.layout.choices)
        for s in sides:
            self.side.addItem(s.capitalize() if prop else s, s)
        self.basis.setText(
            "Proponents and opponents may each designate witnesses (20A-4-401(2)(e))."
            if prop else "Each candidate may designate a representative to watch the "
            "recount (a practice; the statute does not govern it for races).")
        ws = rc.witnesses(case, cid)
        self.ids = [w.id for w in ws]
        self.model.set_table(
            ("Name", "Designated by", "Represents", "Designated at", "Attended from",
             "Attended until"),
            [[w.name, w.designated_by, w.side.capitalize() if prop else w.side,
              when_text(w.designated_at), when_text(w.attended_from), when_text(w.attended_to)]
             for w in ws])
        fit_columns(self.view)

    def add(self) -> None:
        kw: dict[str, Any] = {}
        if self.attended.isChecked():
            kw = {"attended_from": py_datetime(self.from_), "attended_to": py_datetime(self.to)}
        if self.run("The witness was not added", rc.add_witness, name=self.name.text(),
                    designated_by=self.designated_by.text(),
                    side=str(self.side.currentData() or ""),
                    designated_at=py_datetime(self.designated_at), **kw) is not None:
            self.page.say(f"Witness {self.name.text().strip()} added.")
            self.name.clear()
            self.name.setFocus()

    def attend(self) -> None:
        i = selected_row(self.view)
        if not 0 <= i < len(self.ids):
            self.page.fail("No witness selected", "Select the witness in the list first.")
            return
        self.run("The attendance was not recorded", rc.record_witness_attendance, self.ids[i],
                 attended_from=py_datetime(self.from_), attended_to=py_datetime(self.to))


# ------------------------------------------------------------------------------------------
CHECK_CHOICES = [(None, "Not checked yet"), (True, "Passed"), (False, "Failed")]


class EnvelopesPanel(Panel):
    """Unopened absentee envelopes: the list, each one's checks and decision, the summary."""

    imported = Signal(int)
    decided = Signal(str)

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.views: list[rc.EnvelopeView] = []
        self.model = TextTableModel()
        self.view = table("Unopened envelopes", self.model)
        self.view.selectionModel().currentRowChanged.connect(lambda _c, _p: self._selected())
        self.summary = wrap_label("", "Envelope summary")
        self.rule = wrap_label("", "Return rule", NOTE_STYLE)

        self.import_button = QPushButton("&Import a CSV list…")
        self.import_button.setToolTip("Columns: envelope id, precinct, original reason")
        self.import_button.clicked.connect(self.choose_csv)
        self.none_button = QPushButton("There were &no unopened envelopes")
        self.none_button.clicked.connect(self.confirm_none)
        self.env_id = line_edit("Envelope id", "the clerk's number")
        self.precinct = QComboBox()
        self.precinct.setAccessibleName("Precinct of the envelope")
        self.reason = line_edit("Original reason", "why it was not opened")
        self.add_button = QPushButton("A&dd envelope")
        self.add_button.clicked.connect(self.add)
        self.reason.returnPressed.connect(self.add)
        add = QGroupBox("Add an envelope by hand")
        # A field a row, so that each keeps a readable width in the narrow left column.
        al = form(("Envelope:", self.env_id), ("Precinct:", self.precinct),
                  ("Reason:", self.reason))
        button_row = QHBoxLayout()
        button_row.addWidget(self.add_button)
        button_row.addStretch(1)
        al.addRow("", button_row)
        add.setLayout(al)

        # Checks and decision of the selected envelope.
        self.which = heading("Select an envelope")
        self.checks: dict[EnvelopeCheck, QComboBox] = {}
        self.checks_box = QGroupBox("Checks made")
        self.checks_grid = QGridLayout(self.checks_box)
        self.postmark_known = QCheckBox("Postmark")
        self.postmarked = DateTimeField("Postmark date", with_time=False)
        self.received_known = QCheckBox("Received")
        self.received = datetime_edit("Received at")
        self.check_note = line_edit("Note on the checks")
        self.checked_by = line_edit("Checked by")
        self.record_checks = QPushButton("Record the &checks")
        self.record_checks.clicked.connect(self.save_checks)
        self.assessment = wrap_label("", "What the checks allow")

        self.outcome = combo([(o, o.label) for o in (EnvelopeOutcome.ACCEPTED,
                                                     EnvelopeOutcome.REJECTED,
                                                     EnvelopeOutcome.PENDING)], "Decision")
        self.reject_reason = combo([(r, r.label) for r in RejectionReason],
                                   "Reason it stays rejected")
        self.reject_text = line_edit("Other reason")
        for c in (self.outcome, self.reject_reason):  # long labels must not widen the column
            c.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            c.setMinimumContentsLength(14)
        self.votes_box = QGroupBox("The ballot's votes in this contest")
        self.votes_layout = QVBoxLayout(self.votes_box)  # a column: room for long names
        self.vote_checks: dict[str, QCheckBox] = {}
        self.write_in = QCheckBox("Write-in", self.votes_box)
        self.over_voted = QCheckBox("Over-voted", self.votes_box)
        self.decided_by = line_edit("Decided by")
        self.decide_button = QPushButton("Record the d&ecision")
        self.decide_button.clicked.connect(self.decide)
        self.outcome.currentIndexChanged.connect(lambda _i: self._outcome_changed())

        self.timeliness = wrap_label("", "Returned in time?", NOTE_STYLE)
        dates = QGridLayout()
        dates.addWidget(self.postmark_known, 0, 0)
        dates.addWidget(self.postmarked, 0, 1)
        dates.addWidget(self.received_known, 1, 0)
        dates.addWidget(self.received, 1, 1)
        dates.setColumnStretch(2, 1)
        cf = form(("Note:", self.check_note), ("Checked by:", self.checked_by))
        # The checks and the decision side by side: at 1280×720 "Record the decision" is
        # in view without scrolling.
        checks = QWidget()
        cl = QVBoxLayout(checks)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.checks_box)
        cl.addLayout(dates)
        cl.addWidget(self.timeliness)
        cl.addLayout(cf)
        cl.addWidget(self.record_checks, 0, Qt.AlignmentFlag.AlignLeft)
        cl.addWidget(self.assessment)
        cl.addStretch(1)
        dec = QGroupBox("Decision")
        decl = QVBoxLayout(dec)
        decl.addLayout(form(("Decision:", self.outcome), ("Reason:", self.reject_reason),
                            ("Other reason:", self.reject_text)))
        decl.addWidget(self.votes_box)
        decl.addLayout(form(("Decided by:", self.decided_by)))
        decl.addWidget(self.decide_button, 0, Qt.AlignmentFlag.AlignLeft)
        decl.addStretch(1)
        detail = QWidget()
        dl = QGridLayout(detail)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.addWidget(self.which, 0, 0, 1, 2)
        dl.addWidget(checks, 1, 0)
        dl.addWidget(dec, 1, 1)
        dl.setColumnStretch(0, 1)
        dl.setColumnStretch(1, 1)
        dl.setRowStretch(2, 1)

        top = QVBoxLayout()  # one above the other: the list's column stays narrow
        top.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignLeft)
        top.addWidget(self.none_button, 0, Qt.AlignmentFlag.AlignLeft)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.rule)
        lv.addLayout(top)
        lv.addWidget(self.view, 1)
        lv.addWidget(add)
        lv.addWidget(self.summary)
        self._left, self._detail, self._detail_grid = left, detail, dl
        self._checks, self._decision = checks, dec
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(left)
        self._detail_scroll = scrolled(detail)
        self.split.addWidget(self._detail_scroll)
        self._split_sizes = [270, 730]
        self.split.setSizes(self._split_sizes)
        # On a narrow page (a small screen, or a large text scale) the list, the checks and
        # the decision are put one under the other in one scrolled column, so that nothing
        # needs scrolling sideways and every field keeps its width.
        self._column = QScrollArea()
        self._column.setWidgetResizable(True)
        self._column.setFrameShape(QFrame.Shape.NoFrame)
        self._column.hide()
        self.narrow = False
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.split)
        box.addWidget(self._column)

    #: Below this width (in the window's own units) the panel is one column.
    NARROW_WIDTH = 760

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        narrow = event.size().width() < self.NARROW_WIDTH
        if narrow != self.narrow:
            self._arrange(narrow)

    def _arrange(self, narrow: bool) -> None:
        """Side by side (the list beside the selected envelope, checks beside decision), or
        one column; the widgets are the same ones, moved, so nothing typed is lost."""
        self.narrow = narrow
        focus = QApplication.focusWidget()
        grid = self._detail_grid
        grid.removeWidget(self._decision)
        if narrow:
            if self.split.isVisible() and sum(self.split.sizes()) > 0:
                self._split_sizes = self.split.sizes()
            self._detail_scroll.takeWidget()
            column = QWidget()
            cv = QVBoxLayout(column)
            cv.setContentsMargins(0, 0, 0, 0)
            cv.addWidget(self._left)
            cv.addWidget(self._detail)
            grid.addWidget(self._decision, 2, 0)
            grid.setColumnStretch(1, 0)
            grid.setRowStretch(2, 0)
            grid.setRowStretch(3, 1)
            view = self.view  # a short list does not take the column's height
            view.setMaximumHeight(view.horizontalHeader().height() + 24
                                  + 7 * view.verticalHeader().defaultSectionSize())
            self._column.setWidget(column)
            self.split.hide()
            self._column.show()
        else:
            column = self._column.takeWidget()
            self.split.insertWidget(0, self._left)
            self._detail_scroll.setWidget(self._detail)
            self.split.setSizes(self._split_sizes)
            grid.addWidget(self._decision, 1, 1)
            grid.setColumnStretch(1, 1)
            grid.setRowStretch(3, 0)
            grid.setRowStretch(2, 1)
            self.view.setMaximumHeight(16777215)  # Qt's QWIDGETSIZE_MAX
            if column is not None:
                column.deleteLater()
            self._column.hide()
            self.split.show()
        self._left.show()
        self._detail.show()
        if focus is not None and self.isAncestorOf(focus):
            focus.setFocus()

    # -- showing ---------------------------------------------------------------------------
    def show_state(self, st: rc.RecountState | None) -> None:
        case, cid = self.page.case, self.page.contest_id
        keep = self.current_id()
        if st is None or case is None or cid is None:
            self.views = []
            self.model.set_table(("Envelope",), [])
            self._selected()
            return
        self.rule.setText(f"Returned in time means: {st.envelope_rule.text} "
                          f"({st.envelope_rule.basis})")
        self.precinct.clear()
        self.precinct.addItems([p for u in st.units for p in u.precincts])
        self.views = rc.envelope_list(case, cid, st.loaded)
        self.model.set_table(
            ("Envelope", "Precinct", "Original reason", "Checks", "Decision", "Decided by"),
            [[v.record.envelope_id, v.record.precinct, v.record.original_reason,
              "all passed" if v.assessment.may_accept else
              (f"{len(v.assessment.failed)} failed" if v.assessment.failed else
               f"{len(v.assessment.unchecked)} to check"),
              (v.record.reason.label if v.record.reason else v.record.outcome.label)
              if v.record.outcome is EnvelopeOutcome.REJECTED else v.record.outcome.label,
              v.record.decided_by or "—"] for v in self.views],
            row_brushes={i: QBrush(QColor("#e3f1e1" if v.record.outcome is
                                          EnvelopeOutcome.ACCEPTED else "#ececec"))
                         for i, v in enumerate(self.views)
                         if v.record.outcome is not EnvelopeOutcome.PENDING})
        fit_columns(self.view)
        # The checks the law of the election's date asks for.
        while self.checks_grid.count():
            item = self.checks_grid.takeAt(0)
            if item and item.widget():
                item.widget().deleteLater()
        self.checks = {}
        for n, c in enumerate(st.envelope_rule.checks()):
            box = combo(CHECK_CHOICES, c.label)
            lab = QLabel(c.label + ":")
            lab.setBuddy(box)
            lab.setToolTip(c.basis)
            self.checks_grid.addWidget(lab, n, 0)
            self.checks_grid.addWidget(box, n, 1)
            self.checks[c] = box
        while self.votes_layout.count():
            item = self.votes_layout.takeAt(0)
            if item and item.widget() and item.widget() not in (self.write_in, self.over_voted):
                item.widget().deleteLater()
        self.vote_checks = {}
        for c in st.layout.choices:
            cb = QCheckBox(c)
            cb.setAccessibleName(f"Vote for {c}")
            self.votes_layout.addWidget(cb)
            self.vote_checks[c] = cb
        self.votes_layout.addWidget(self.write_in)
        self.votes_layout.addWidget(self.over_voted)
        self.write_in.setVisible(st.layout.write_in_line)
        self.votes_layout.addStretch(1)
        self._seats = st.layout.seats
        rows = rc.envelope_summary_of(case, cid, st.loaded)
        r = st.readiness
        self.summary.setText(
            f"<b>{r.envelopes_decided} of {r.envelopes_total} envelopes reexamined.</b> "
            + ("; ".join(f"{x.reason}: {x.count}" for x in rows) if rows else
               ("No unopened envelopes (confirmed)." if r.envelopes_confirmed else
                "None listed yet: import the list, add them, or confirm there were none.")))
        self.none_button.setEnabled(not self.views)
        ids = [v.record.envelope_id for v in self.views]
        if keep in ids:
            self.view.selectRow(ids.index(keep))
        elif ids:
            pending = [i for i, v in enumerate(self.views)
                       if v.record.outcome is EnvelopeOutcome.PENDING]
            self.view.selectRow(pending[0] if pending else 0)
        self._selected()

    def current_id(self) -> str | None:
        i = selected_row(self.view)
        return self.views[i].record.envelope_id if 0 <= i < len(self.views) else None

    def select(self, envelope_id: str) -> None:
        ids = [v.record.envelope_id for v in self.views]
        self.view.selectRow(ids.index(envelope_id))
        self._selected()

    def _selected(self) -> None:
        i = selected_row(self.view)
        v = self.views[i] if 0 <= i < len(self.views) else None
        for w in (self.record_checks, self.decide_button):
            w.setEnabled(v is not None)
        if v is None:
            self.which.setText("Select an envelope")
            self.assessment.setText("")
            self.timeliness.setText("")
            # Nothing of another envelope or another contest stays in the fields.
            for w in (self.check_note, self.checked_by, self.decided_by):
                w.clear()
            for cb in self.vote_checks.values():
                cb.setChecked(False)
            return
        rec = v.record
        self.which.setText(f"Envelope {rec.envelope_id} — {rec.precinct}")
        for c, box in self.checks.items():
            box.select(rec.checks.get(c))
        self.postmark_known.setChecked(v.postmarked is not None)
        if v.postmarked:
            self.postmarked.setDate(v.postmarked)
        self.received_known.setChecked(v.received_at is not None)
        if v.received_at:
            self.received.setDateTime(v.received_at)
        self.check_note.setText(v.check_note)
        self.checked_by.setText(v.checked_by)
        self.decided_by.setText(rec.decided_by)
        self.timeliness.setText(f"Returned in time: {v.timeliness.text}")
        self.assessment.setStyleSheet("" if v.assessment.may_accept else NOTE_STYLE)
        self.assessment.setText(v.assessment.text)
        if rec.outcome is not EnvelopeOutcome.PENDING:
            self.outcome.select(rec.outcome)
        elif v.assessment.suggested_reason is not None:
            self.outcome.select(EnvelopeOutcome.REJECTED)
            self.reject_reason.select(v.assessment.suggested_reason)
        if rec.reason is not None:
            self.reject_reason.select(rec.reason)
        for c, cb in self.vote_checks.items():
            cb.setChecked(bool(rec.votes and rec.votes.votes.get(c)))
        self._outcome_changed()

    def _outcome_changed(self) -> None:
        o = self.outcome.value()
        self.votes_box.setEnabled(o is EnvelopeOutcome.ACCEPTED)
        self.reject_reason.setEnabled(o is EnvelopeOutcome.REJECTED)
        self.reject_text.setEnabled(o is EnvelopeOutcome.REJECTED)

    # -- writing ---------------------------------------------------------------------------
    def choose_csv(self) -> None:
        got, _ = QFileDialog.getOpenFileName(self, "Import the list of unopened envelopes",
                                             "", "CSV files (*.csv *.txt);;All files (*)")
        if got:
            self.import_csv(Path(got))

    def import_csv(self, path: Path) -> None:
        """Import in a worker (its own connection); the page re-reads when it is done."""
        from recount_desk.actions import case as case_actions

        from .. import workers

        case, cid = self.page.case, self.page.contest_id
        if case is None or cid is None:
            return
        case_path = case.path
        actor = case.person.name if case.person else None

        def job(_progress: Any, _cancelled: Any) -> rc.EnvelopeImport:
            with case_actions.open_case(case_path, actor=actor) as c:
                return rc.import_envelopes_csv(c, cid, path)

        def done(result: rc.EnvelopeImport) -> None:
            self.page.say(f"{result.added} envelope(s) imported from {result.file}.")
            self.page.reload()
            self.imported.emit(result.added)

        def failed(e: BaseException) -> None:
            details = None
            if isinstance(e, rc.EnvelopeImportRefused):
                details = "\n".join(f"Row {i.row or '—'}, {i.column or ''}: {i.message}"
                                    for i in e.issues)
            self.page.fail("The envelopes were not imported", e, details)

        workers.start(job, on_done=done, on_failed=failed, parent=self,
                      title="Importing envelopes", label=f"Reading {path.name}…")

    def add(self) -> None:
        no = self.env_id.text().strip()
        if self.run("The envelope was not added", rc.add_envelope, envelope_id=no,
                    precinct=self.precinct.currentText(),
                    original_reason=self.reason.text()) is not None:
            self.env_id.clear()
            self.reason.clear()
            self.select(no)
            self.env_id.setFocus()

    def confirm_none(self) -> None:
        self.run("Not recorded", rc.confirm_no_envelopes, confirmed=True,
                 note="Confirmed on the Recount page")

    def save_checks(self) -> None:
        eid = self.current_id()
        if eid is None:
            return
        checks = {c: box.value() for c, box in self.checks.items()}
        if self.run("The checks were not recorded", rc.record_envelope_checks, eid,
                    checks=checks,
                    postmarked=self.postmarked.date().toPython()
                    if self.postmark_known.isChecked() else None,
                    received_at=py_datetime(self.received)
                    if self.received_known.isChecked() else None,
                    note=self.check_note.text(),
                    checked_by=self.checked_by.text() or None) is not None:
            self.select(eid)

    def decide(self) -> None:
        eid = self.current_id()
        if eid is None:
            return
        outcome = self.outcome.value()
        votes = None
        if outcome is EnvelopeOutcome.ACCEPTED:
            if self.over_voted.isChecked():
                votes = EnvelopeVotes({c: 0 for c in self.vote_checks}, 0, self._seats, 0)
            else:
                chosen = {c: int(cb.isChecked()) for c, cb in self.vote_checks.items()}
                wi = int(self.write_in.isChecked() and self.write_in.isVisible())
                votes = EnvelopeVotes(chosen, wi, 0,
                                      max(0, self._seats - sum(chosen.values()) - wi))
        if self.run("The decision was not recorded", rc.decide_envelope, eid, outcome=outcome,
                    decided_by=self.decided_by.text(),
                    reason=self.reject_reason.value()
                    if outcome is EnvelopeOutcome.REJECTED else None,
                    reason_text=self.reject_text.text(), votes=votes) is not None:
            self.page.say(f"Envelope {eid}: {outcome.label.lower()}.")
            self.select(eid)
            self.decided.emit(eid)


# ------------------------------------------------------------------------------------------
class CostsPanel(Panel):
    """Cost items ((2)(f)), the total, who pays, and the statement for the requesters."""

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.ids: list[int] = []
        self.model = TextTableModel()
        self.view = table("Cost items", self.model)
        self.kind = combo([(k, k.label) for k in CostKind], "Kind of cost")
        self.description = line_edit("Description", "e.g. Tally entry, 2 deputies × 6.5 h")
        self.hours = line_edit("Hours", "e.g. 6.5 or 6:30")
        self.rate = line_edit("Hourly rate", "e.g. 24.50")
        self.amount = line_edit("Amount", "e.g. 42.00")
        self.add_button = QPushButton("&Add cost")
        self.add_button.clicked.connect(self.add)
        self.remove_button = QPushButton("&Remove selected")
        self.remove_button.clicked.connect(self.remove)
        self.statement = wrap_label("", "Cost statement")
        self.statement.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.kind.currentIndexChanged.connect(lambda _i: self._kind_changed())
        for w in (self.description, self.hours, self.rate, self.amount):
            w.returnPressed.connect(self.add)
        g = QGroupBox("Add a cost item")
        gl = QGridLayout(g)
        for col, (text, w) in enumerate((("&Kind:", self.kind), ("&Description:",
                                                                   self.description))):
            lab = QLabel(text)
            lab.setBuddy(w)
            gl.addWidget(lab, 0, col * 2)
            gl.addWidget(w, 0, col * 2 + 1)
        for col, (text, w) in enumerate((("&Hours:", self.hours), ("Ra&te ($/h):", self.rate),
                                         ("A&mount ($):", self.amount))):
            lab = QLabel(text)
            lab.setBuddy(w)
            gl.addWidget(lab, 1, col * 2)
            gl.addWidget(w, 1, col * 2 + 1)
        gl.setColumnStretch(3, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        gl.addLayout(buttons, 2, 0, 1, 6)
        box = QVBoxLayout(self)
        box.addWidget(self.view, 1)
        box.addWidget(self.statement)
        box.addWidget(g)
        self._kind_changed()

    def _kind_changed(self) -> None:
        staff = self.kind.value() is CostKind.STAFF
        self.hours.setEnabled(staff)
        self.rate.setEnabled(staff)
        self.amount.setEnabled(not staff)

    def show_state(self, st: rc.RecountState | None) -> None:
        case, cid = self.page.case, self.page.contest_id
        if st is None or case is None or cid is None:
            self.model.set_table(("Kind",), [])
            return
        items = rc.costs(case, cid)
        self.ids = [c.id for c in items]
        self.model.set_table(
            ("Kind", "Description", "Hours", "Rate", "Amount"),
            [[c.item.kind.label, c.item.description,
              "" if c.item.hours_hundredths is None else f"{c.item.hours_hundredths / 100:g}",
              "" if c.item.rate_cents is None else format_cents(c.item.rate_cents),
              format_cents(c.item.amount_cents)] for c in items], numeric=(2, 3, 4))
        fit_columns(self.view)
        s = rc.cost_statement_of(case, cid)
        kinds = ", ".join(f"{k.label} {format_cents(v)}" for k, v in s.by_kind.items() if v)
        self.statement.setText(
            f"<b>Total: {format_cents(s.total_cents)}</b>" + (f" ({kinds})" if kinds else "")
            + f"<br><b>Who pays:</b> {s.payer} ({s.basis})"
            + "".join(f"<br><span style='color:#5a4500'>⚠ {a}</span>" for a in s.assumptions))

    def add(self) -> None:
        kind = self.kind.value()
        kw: dict[str, Any] = {}
        try:
            if kind is CostKind.STAFF:
                kw = {"hours_hundredths": parse_hours(self.hours.text()),
                      "rate_cents": parse_cents(self.rate.text())}
            else:
                kw = {"amount_cents": parse_cents(self.amount.text())}
        except ValueError as e:
            self.page.fail("The cost was not added", e)
            return
        if self.run("The cost was not added", rc.add_cost, kind=kind,
                    description=self.description.text(), **kw) is not None:
            for w in (self.description, self.hours, self.rate, self.amount):
                w.clear()
            self.description.setFocus()

    def remove(self) -> None:
        i = selected_row(self.view)
        if 0 <= i < len(self.ids):
            self.run("The cost was not removed", rc.remove_cost, self.ids[i])


# ------------------------------------------------------------------------------------------
ROLE_LABELS = {BoardRole.MEMBER: "Member", BoardRole.SUBSTITUTE: "Substitute",
               BoardRole.CLERK: "Clerk of the board"}


class BoardPanel(Panel):
    """The board of canvassers ((4)(a)): members, the quorum, convened at date, time, place."""

    convened = Signal()

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.members: list[BoardMember] = []
        self.model = TextTableModel()
        self.view = table("Board members", self.model)
        self.name = line_edit("Member name")
        self.title = line_edit("Member title", "e.g. Council Member")
        self.role = combo([(r, t) for r, t in ROLE_LABELS.items()], "Role on the board")
        self.present = QCheckBox("&Present")
        self.present.setChecked(True)
        self.add_button = QPushButton("&Add member")
        self.add_button.clicked.connect(self.add)
        self.title.returnPressed.connect(self.add)
        self.toggle_button = QPushButton("Mark selected present / a&bsent")
        self.toggle_button.clicked.connect(self.toggle)
        self.remove_button = QPushButton("&Remove selected")
        self.remove_button.clicked.connect(self.remove)
        self.kind = combo([(k, k.label) for k in BoardKind], "Board")
        self.body_size = QSpinBox()
        self.body_size.setRange(1, 99)
        self.body_size.setValue(5)
        self.body_size.setAccessibleName("Seats on the legislative body")
        self.convened_at = datetime_edit("Convened at")
        self.place = line_edit("Where the board met")
        self.convene_button = QPushButton("Record that the board &convened")
        self.convene_button.clicked.connect(self.convene)
        self.place.returnPressed.connect(self.convene)
        self.quorum = wrap_label("", "Quorum")
        self.convening = wrap_label("", "Convening")

        add = QGroupBox("Add a member")
        al = QGridLayout(add)
        for n, (text, w) in enumerate((("&Name:", self.name), ("&Title:", self.title),
                                       ("R&ole:", self.role))):
            lab = QLabel(text)
            lab.setBuddy(w)
            al.addWidget(lab, n, 0)
            al.addWidget(w, n, 1)
        al.addWidget(self.present, 2, 2)
        al.addWidget(self.add_button, 2, 3)
        al.setColumnStretch(1, 1)
        conv = QGroupBox("Convening (20A-4-401(4)(a); 20A-4-301)")
        cl = QVBoxLayout(conv)
        cl.addLayout(form(("Boar&d:", self.kind),
                          ("Seats on the &legislative body:", self.body_size),
                          ("Convened &at:", self.convened_at), ("&Place:", self.place)))
        cl.addWidget(self.convene_button, 0, Qt.AlignmentFlag.AlignLeft)
        cl.addWidget(self.convening)
        buttons = QHBoxLayout()
        buttons.addWidget(self.toggle_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        left = QVBoxLayout()
        left.addWidget(self.view, 1)
        left.addLayout(buttons)
        left.addWidget(add)
        right = QVBoxLayout()
        right.addWidget(conv)
        right.addWidget(self.quorum)
        right.addStretch(1)
        box = QHBoxLayout(self)
        box.addLayout(left, 3)
        box.addLayout(right, 2)

    def show_state(self, st: rc.RecountState | None) -> None:
        if st is None:
            self.model.set_table(("Name",), [])
            return
        b = st.board
        self.members = list(b.members)
        self.model.set_table(("Name", "Title", "Role", "Present"),
                             [[m.name, m.title, ROLE_LABELS[m.role],
                               "Yes" if m.present else "No"] for m in self.members])
        fit_columns(self.view)
        if b.convening is None:
            self.kind.select(b.default_kind)
            self.convening.setText("Not convened yet.")
        else:
            c = b.convening
            self.kind.select(c.board_kind)
            self.body_size.setValue(c.body_size)
            self.convened_at.setDateTime(c.convened_at)
            self.place.setText(c.place)
            self.convening.setText(f"<b>Convened</b> {when_text(c.convened_at)} at {c.place} "
                                   f"({c.board_kind.label}).")
        if b.quorum is not None:
            mark = "✔" if b.quorum.ok else "✘"
            self.quorum.setStyleSheet("" if b.quorum.ok else WARN_STYLE)
            self.quorum.setText(f"<b>{mark} Quorum:</b> {b.quorum.text} ({b.quorum.basis})")
        else:
            self.quorum.setStyleSheet("")
            self.quorum.setText(f"{b.present} member(s) present. The quorum is checked when the "
                                "board is recorded as convened.")

    def _save(self, members: list[BoardMember], title: str) -> bool:
        return self.run(title, rc.set_board_members, members) is not None

    def add(self) -> None:
        m = BoardMember(self.name.text(), self.title.text(), self.role.value(),
                        self.present.isChecked())
        if self._save([*self.members, m], "The member was not added"):
            self.name.clear()
            self.title.clear()
            self.name.setFocus()

    def toggle(self) -> None:
        i = selected_row(self.view)
        if 0 <= i < len(self.members):
            m = self.members[i]
            ms = list(self.members)
            ms[i] = BoardMember(m.name, m.title, m.role, not m.present)
            self._save(ms, "The member was not changed")
            self.view.selectRow(i)

    def remove(self) -> None:
        i = selected_row(self.view)
        if 0 <= i < len(self.members) and self.page.confirm(
                "Remove a board member", f"Remove {self.members[i].name} from the board?"):
            self._save([m for j, m in enumerate(self.members) if j != i],
                       "The member was not removed")

    def convene(self) -> None:
        if self.run("The convening was not recorded", rc.convene_board,
                    convened_at=py_datetime(self.convened_at), place=self.place.text(),
                    body_size=self.body_size.value(),
                    board_kind=self.kind.value()) is not None:
            self.page.say("The board's convening is recorded.")
            self.convened.emit()


# ------------------------------------------------------------------------------------------
class DeclarePanel(Panel):
    """Preview and declare the result (with the lot for a tie, an override when incomplete),
    sign and lock, reopen with a reason."""

    declared = Signal()
    signed = Signal()
    reopened = Signal()

    def __init__(self, page: RecountPage) -> None:
        super().__init__(page)
        self.preview = wrap_label("", "Result on the recount")
        f = self.preview.font()
        f.setPointSizeF(f.pointSizeF() * 1.1)
        self.preview.setFont(f)
        self.blockers = wrap_label("", "What is not complete")
        self.override = line_edit("Reason to declare before the recount is complete",
                                  "why the result must be declared now (recorded)")
        self.override_label = QLabel("&Override reason:")
        self.override_label.setBuddy(self.override)
        self.declare_button = QPushButton("&Declare the result")
        self.declare_button.clicked.connect(self.declare)
        self.current = wrap_label("", "Declaration made")

        self.lot_box = QGroupBox("Tie: the lot drawn under 20A-1-304")
        self.lot_rule = wrap_label("", style=NOTE_STYLE)
        self.drawn_by = line_edit("Who drew the lot")
        self.drawn_at = datetime_edit("When the lot was drawn")
        self.lot_place = line_edit("Where the lot was drawn")
        self.lot_method = line_edit("How the lot was drawn", "e.g. names drawn from a hat")
        self.lot_witnesses = line_edit("Witnesses of the lot", "names, separated by ;")
        self.chosen_box = QWidget()
        self.chosen_layout = QHBoxLayout(self.chosen_box)
        self.chosen_layout.setContentsMargins(0, 0, 0, 0)
        self.chosen: dict[str, QCheckBox] = {}
        ll = QVBoxLayout(self.lot_box)
        ll.addWidget(self.lot_rule)
        ll.addLayout(form(("Drawn &by:", self.drawn_by), ("Drawn at:", self.drawn_at),
                          ("Place:", self.lot_place), ("Method:", self.lot_method),
                          ("Witnesses:", self.lot_witnesses), ("Chosen by the lot:",
                                                                self.chosen_box)))
        self.lot_box.hide()

        self.signed_at = datetime_edit("Signed at")
        self.sign_place = line_edit("Where the report was signed", "default: where the "
                                    "board met")
        # Who signs is chosen from the board step (members present, the clerk of the board)
        # and the election officer: a name not on the board cannot be typed in.
        self.signers_box = QWidget()
        self.signers_box.setAccessibleName("Who signed")
        self.signers_layout = QVBoxLayout(self.signers_box)
        self.signers_layout.setContentsMargins(0, 0, 0, 0)
        self.signer_boxes: dict[str, QCheckBox] = {}
        self.no_signers = QLabel("Record the board's members at the board step first.")
        self.signers_layout.addWidget(self.no_signers)
        self.sign_button = QPushButton("&Sign and lock")
        self.sign_button.setToolTip("Record that the board and the election officer signed "
                                    "the report; the contest is then locked")
        self.sign_button.clicked.connect(self.sign)
        self.signing = wrap_label("", "Signing")
        self.reopen_reason = line_edit("Reason for reopening", "why the signed contest must "
                                       "change (recorded)")
        self.reopen_button = QPushButton("Re&open…")
        self.reopen_button.clicked.connect(self.reopen)
        self.reopens = wrap_label("", "Earlier reopenings", NOTE_STYLE)

        d = QGroupBox("Declaration (20A-4-401(1)(e)(iv)-(v), (2)(d)(iv))")
        dl = QVBoxLayout(d)
        dl.addWidget(self.preview)
        dl.addWidget(self.blockers)
        orow = QHBoxLayout()
        orow.addWidget(self.override_label)
        orow.addWidget(self.override, 1)
        dl.addLayout(orow)
        dl.addWidget(self.lot_box)
        dl.addWidget(self.declare_button, 0, Qt.AlignmentFlag.AlignLeft)
        dl.addWidget(self.current)
        s = QGroupBox("Signing the report (20A-4-401(4)(b)) — locks the contest")
        sl = QVBoxLayout(s)
        sl.addLayout(form(("Si&gned at:", self.signed_at), ("Wh&ere signed:", self.sign_place),
                          ("Signed by:", self.signers_box)))
        sl.addWidget(self.sign_button, 0, Qt.AlignmentFlag.AlignLeft)
        sl.addWidget(self.signing)
        r = QGroupBox("Reopen a signed contest")
        rl = QHBoxLayout(r)
        rl.addWidget(QLabel("Reason:"))
        rl.addWidget(self.reopen_reason, 1)
        rl.addWidget(self.reopen_button)
        inner = QWidget()
        v = QVBoxLayout(inner)
        v.addWidget(d)
        v.addWidget(s)
        v.addWidget(r)
        v.addWidget(self.reopens)
        v.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(scrolled(inner))

    def show_state(self, st: rc.RecountState | None) -> None:
        if st is None or st.settings is None:
            self.preview.setText("Start the recount first.")
            self.setEnabled(st is not None and st.settings is not None)
            return
        self.setEnabled(True)
        p = st.preview
        self.preview.setText(f"<b>On the recount now:</b> {p.text if p else '—'}")
        r = st.readiness
        if r.complete:
            self.blockers.setStyleSheet("color: #1d5e20;")
            self.blockers.setText("✔ Every unit is reconciled and every envelope reexamined.")
        else:
            self.blockers.setStyleSheet(WARN_STYLE)
            self.blockers.setText("<b>Not complete:</b> " + " ".join(r.blockers)
                                  + " To declare now anyway, give the reason for the "
                                  "override.")
        self.override.setVisible(not r.complete)
        self.override_label.setVisible(not r.complete)
        needs_lot = bool(p and p.needs_lot)
        self.lot_box.setVisible(needs_lot)
        if needs_lot and p is not None:
            self.lot_rule.setText((p.lot_rule.text if p.lot_rule else "") + " "
                                  + (p.lot_rule.basis if p.lot_rule else ""))
            tied = p.outcome.tied
            if list(self.chosen) != list(tied):
                for cb in self.chosen.values():
                    cb.deleteLater()
                self.chosen = {}
                for t in tied:
                    cb = QCheckBox(t)
                    cb.setAccessibleName(f"The lot chose {t}")
                    self.chosen_layout.addWidget(cb)
                    self.chosen[t] = cb
        dec = st.declaration
        self.declare_button.setText("&Declare the result" if dec is None else
                                    "&Declare again (replaces the declaration above)")
        if dec is None:
            self.current.setText("Not declared yet.")
        else:
            self.current.setText(
                f"<b>Declared</b> {stamp_text(dec.declared_at)} by {dec.declared_by}: "
                f"{dec.text}" + (f"<br>Override: {dec.override_reason}"
                                 if dec.override_reason else ""))
        self._show_signers(st)
        if st.signing is not None:
            self.signing.setStyleSheet("QLabel { color: #10264d; }")
            self.signing.setText(f"<b>Signed and locked</b> {when_text(st.signing.signed_at)} by "
                                 f"{', '.join(st.signing.signers)}. The contest is locked; "
                                 "the case's state when it was signed has the code "
                                 f"{short_code(st.signing.state_digest)} (written as a "
                                 "report's fingerprint is).")
        else:
            blockers = [s.blocker for s in st.checklist.steps
                        if s.stage.value == "signed" and s.blocker]
            self.signing.setStyleSheet("")
            self.signing.setText("Not signed. " + (blockers[0] if blockers else ""))
        self.sign_button.setEnabled(st.signing is None)
        self.declare_button.setEnabled(st.signing is None)
        self.reopen_button.setEnabled(st.signing is not None)
        self.reopen_reason.setEnabled(st.signing is not None)
        self.reopens.setText("".join(
            f"Reopened {stamp_text(x.reopened_at)} by {x.reopened_by}: {x.reason}<br>"
            for x in st.reopens))

    def declare(self) -> None:
        lot = None
        if self.lot_box.isVisible():
            lot = Lot(self.drawn_by.text(), py_datetime(self.drawn_at), self.lot_place.text(),
                      self.lot_method.text(),
                      tuple(w.strip() for w in self.lot_witnesses.text().split(";")),
                      tuple(t for t, cb in self.chosen.items() if cb.isChecked()))
        case, cid = self.page.case, self.page.contest_id
        st = self.page.state
        if case is None or cid is None:
            return
        result = st.preview.text if st is not None and st.preview else "the result"
        if not self.page.confirm("Declare the result",
                                 f"Declare {result}? The declaration is recorded in the "
                                 "audit log and printed in the report."):
            return
        try:
            rc.declare(case, cid, override_reason=self.override.text() or None, lot=lot)
        except rc.OverrideRequired as e:
            self.page.fail("An override reason is needed", e)
            self.override.setFocus()
            return
        except rc.LotRequired as e:
            self.lot_box.show()
            self.page.fail("The tie is decided by lot", e)
            self.drawn_by.setFocus()
            return
        except ERRORS as e:
            self.page.fail("The result was not declared", e)
            return
        self.page.say("The result is declared.")
        self.page.reload()
        self.declared.emit()

    def _show_signers(self, st: rc.RecountState) -> None:
        """One box per person who may sign: the members present at the board step (ticked),
        the clerk of the board, and the election officer of the roster."""
        names = [m.name for m in st.board.members if m.present]
        case = self.page.case
        officer = case.roster.election_officer if case is not None else None
        if officer is not None and officer.name not in names:
            names.append(officer.name)
        conv = st.board.convening
        if conv is not None and not self.sign_place.text().strip():
            self.sign_place.setText(conv.place)
        if list(self.signer_boxes) == names:
            return
        for cb in self.signer_boxes.values():
            cb.deleteLater()
        self.signer_boxes = {}
        titles = {m.name: m.title for m in st.board.members}
        for n in names:
            cb = QCheckBox(f"{n} — {titles[n]}" if titles.get(n) else
                           f"{n} — election officer")
            cb.setAccessibleName(f"{n} signed")
            cb.setChecked(True)
            self.signers_layout.addWidget(cb)
            self.signer_boxes[n] = cb
        self.no_signers.setVisible(not names)

    def signers(self) -> list[str]:
        return [n for n, cb in self.signer_boxes.items() if cb.isChecked()]

    def sign(self) -> None:
        """Check the signing (board, quorum, time, place), ask to confirm, then record it."""
        case, cid = self.page.case, self.page.contest_id
        if case is None or cid is None:
            return
        kw = {"signed_at": py_datetime(self.signed_at), "signers": self.signers(),
              "place": self.sign_place.text().strip() or None}
        try:
            rc.sign_report(case, cid, **kw)
        except rc.SigningNeedsConfirmation as ask:
            if not self.page.confirm("Record the signing", str(ask)):
                return
        except ERRORS as e:
            self.page.fail("The report was not signed", e)
            return
        if self.run("The report was not signed", rc.sign_report, confirmed=True,
                    **kw) is not None:
            self.page.say("Signed: the contest is locked.")
            self.signed.emit()

    def reopen(self) -> None:
        if not self.page.confirm("Reopen the signed contest",
                                 "Reopen the signed contest? The signed report no longer "
                                 "stands once the contest changes; the reason is recorded."):
            return
        if self.run("The contest was not reopened", rc.reopen,
                    reason=self.reopen_reason.text()) is not None:
            self.reopen_reason.clear()
            self.page.say("Reopened: the reason is recorded.")
            self.reopened.emit()
