"""Recount › Whole race and the county's part…: a county's portion of a multicounty or
statewide contest, the whole race when known, and the county's part in a recount the
lieutenant governor orders (the order, then the transmittal of the county's figures).

Everything shown is what the actions say (actions.contests, actions.whole_case); every
change is one audited action, after which the whole window is shown again.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import whole_case as wc
from recount_desk.actions.contests import ContestRow, contest_check
from recount_desk.core.model import Scope

from ..dates import DateTimeField, datetime_text
from ..models import TextTableModel

if TYPE_CHECKING:
    from ..main_window import MainWindow

LAW_PORTION = ("Utah Code 20A-4-401(1)(b): the margin is measured on the votes cast “in the "
               "race”; (1)(d)(ii)(D): a request about a multicounty or statewide race is filed "
               "with the lieutenant governor; 20A-4-304 and 20A-4-306: the state board "
               "canvasses and declares such races.")
LAW_CITY = ("Utah Code 20A-4-401(1)(b): the margin is measured on the votes cast “in the "
            "race”: for a city that crosses a county line, every county's part of it; "
            "20A-4-301: the city's board of municipal canvassers canvasses its municipal "
            "elections.")
LAW_PART = ("Utah Code 20A-4-401(4)(c) and 20A-4-304(7): when the lieutenant governor orders "
            "a recount of a multicounty race, each county recounts its portion and its board "
            "of canvassers sends the result to the lieutenant governor. The county's report "
            "certifies its canvass and recount figures per precinct and declares no winner "
            "(20A-4-306: the state board declares).")


def _esc(text: str) -> str:
    return html.escape(text, quote=False)  # Qt's rich text shows &#x27; as written


def _when(iso: object) -> str:
    """A recorded time as a US clerk writes it."""
    try:
        return _esc(datetime_text(datetime.fromisoformat(str(iso))))
    except ValueError:
        return _esc(str(iso or ""))


def _label(text: str, name: str) -> QLabel:
    lab = QLabel(text)
    lab.setWordWrap(True)
    lab.setAccessibleName(name)
    return lab


class WholeRaceDialog(QDialog):
    """One contest's whole race and the county's part in its recount."""

    changed = Signal()  # an action was recorded and the window shown again

    def __init__(self, window: MainWindow, contest_id: int) -> None:
        super().__init__(window)
        self.window_ = window
        self.contest_id = contest_id
        self.row: ContestRow | None = None
        self.setWindowTitle("Whole race and the county's part")
        self.setAccessibleName("Whole race and the county's part")

        self.title = _label("", "Contest")
        f = self.title.font()
        f.setPointSizeF(f.pointSizeF() * 1.25)
        f.setBold(True)
        self.title.setFont(f)
        self.scope = _label("", "Scope of the contest")
        self.figures = _label("", "Which figures the verdict stands on")
        self.verdict = _label("", "Verdict")
        self.law = _label(LAW_PORTION, "The law on a county's portion")
        self.law.setStyleSheet("color: palette(placeholder-text);")

        self.votes_model = TextTableModel()
        self.votes = QTableView()
        self.votes.setModel(self.votes_model)
        self.votes.setAccessibleName("The county's figures and the whole race's")
        self.votes.verticalHeader().setVisible(False)
        self.votes.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.votes.horizontalHeader().setStretchLastSection(True)

        # The whole race: typed from the state canvass, or the other counties' files.
        self.typed_box = QGroupBox("Type the whole race's official totals (state canvass)")
        self.typed_form = QFormLayout(self.typed_box)
        self.typed: dict[str, QSpinBox] = {}
        self.source = QLineEdit()
        self.source.setAccessibleName("Where the whole race's totals come from")
        self.source.setPlaceholderText("e.g. State canvass, Nov 26, 2018")
        self.save_totals = QPushButton("Record the &totals")
        self.save_totals.setAccessibleName("Record the whole race's official totals")
        self.save_totals.clicked.connect(self.record_totals)
        self.add_files = QPushButton("Add the other counties' canvass &files…")
        self.add_files.setAccessibleName("Add the other counties' canvass files")
        self.add_files.setAccessibleDescription(
            "Combine this county's figures with the other counties' canvass files into the "
            "whole race (recorded in the audit log with each file's SHA-256)")
        self.add_files.clicked.connect(lambda: self.combine_files())
        self.combined = _label("", "What the files combined")

        # The county's part in a recount the lieutenant governor orders.
        self.part_box = QGroupBox("The county's part in the recount the lieutenant governor "
                                  "orders")
        self.part_law = _label(LAW_PART, "The law on the county's part")
        self.part_law.setStyleSheet("color: palette(placeholder-text);")
        self.order_state = _label("", "The lieutenant governor's order")
        self.ordered_at = DateTimeField("Order received", follow_now=True)
        self.reference = QLineEdit()
        self.reference.setAccessibleName("The order's reference")
        self.reference.setPlaceholderText("letter or email, its date")
        self.record_order_button = QPushButton("Record the &order")
        self.record_order_button.setAccessibleName("Record the lieutenant governor's order")
        self.record_order_button.clicked.connect(self.record_order)
        self.transmit_state = _label("", "The transmittal to the lieutenant governor")
        self.sent_at = DateTimeField("Report sent", follow_now=True)
        self.how = QLineEdit()
        self.how.setAccessibleName("How the report was sent")
        self.how.setPlaceholderText("e.g. registered mail, the state's secure upload")
        self.record_sent_button = QPushButton("Record the &transmittal")
        self.record_sent_button.setAccessibleName("Record the transmittal of the county's "
                                                  "report to the lieutenant governor")
        self.record_sent_button.clicked.connect(self.record_transmittal)
        self.problem = _label("", "Problem")
        self.problem.setStyleSheet("color: #8a1c1c; font-weight: bold;")

        self.order_form = QWidget()
        pf = QFormLayout(self.order_form)
        pf.setContentsMargins(0, 0, 0, 0)
        pf.addRow("Order received:", self.ordered_at)
        pf.addRow("Reference:", self.reference)
        pf.addRow("", self.record_order_button)
        self.sent_form = QWidget()
        tf = QFormLayout(self.sent_form)
        tf.setContentsMargins(0, 0, 0, 0)
        tf.addRow("Report sent:", self.sent_at)
        tf.addRow("Sent by:", self.how)
        tf.addRow("", self.record_sent_button)
        pv = QVBoxLayout(self.part_box)
        pv.addWidget(self.part_law)
        pv.addWidget(self.order_state)
        pv.addWidget(self.order_form)
        pv.addWidget(self.transmit_state)
        pv.addWidget(self.sent_form)

        files_row = QHBoxLayout()
        files_row.addWidget(self.add_files)
        files_row.addStretch(1)
        body = QWidget()
        lv = QVBoxLayout(body)
        for w in (self.title, self.scope, self.figures, self.verdict, self.law, self.votes):
            lv.addWidget(w)
        lv.addLayout(files_row)
        lv.addWidget(self.combined)
        lv.addWidget(self.typed_box)
        lv.addWidget(self.part_box)
        lv.addWidget(self.problem)
        lv.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        scroll.setAccessibleName("Whole race and the county's part")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(scroll, 1)
        box.addWidget(buttons)
        self.resize(820, 660)
        self.reload()

    # -- showing -------------------------------------------------------------------------------
    def reload(self) -> None:
        """Show the contest as the actions see it now."""
        case = self.window_.case
        if case is None:
            return
        row = contest_check(case, self.contest_id)
        self.row = row
        check = row.check
        c = check.totals.contest
        self.title.setText(_esc(c.key.label()))
        self.scope.setText(f"<b>Scope: {_esc(c.scope.label)}</b> — "
                           + _esc(check.scope.reason if check.scope else ""))
        self.figures.setText(_esc(check.figures_text()))
        self.verdict.setText(f"<b>{_esc(check.decision.verdict.label)}.</b> "
                             + _esc(check.decision.explanation))
        whole = wc.whole_races(case).get(self.contest_id)
        own = {ch.choice.name: ch.votes for ch in (check.county_totals or check.totals).choices}
        whole_votes = dict(whole.votes) if whole else {}
        header = ["Candidate or choice", "This county", "Whole race"]
        rows = [[name, v, whole_votes.get(name, "not known")]
                for name, v in own.items()]
        self.votes_model.set_table(header, rows, numeric=(1, 2))
        self.votes.resizeColumnsToContents()
        # As tall as its rows: the order and the transmittal stay in view below it.
        self.votes.setFixedHeight(self.votes.horizontalHeader().height() + 4
                                  + sum(self.votes.rowHeight(i) for i in range(len(rows))))
        if whole is not None:
            self.combined.setText(
                f"Whole race on record ({'every county' if whole.whole else 'part of it'}): "
                f"{_esc(whole.source)}"
                + (f" — {_esc(', '.join(whole.counties))}" if whole.counties else ""))
        city = c.scope is Scope.MUNICIPAL  # a city across a county line (core.scope)
        self.law.setText(LAW_CITY if city else LAW_PORTION)
        self.typed_box.setTitle("Type the whole race's official totals ("
                                + ("the city's canvass)" if city else "state canvass)"))
        self.source.setPlaceholderText("e.g. Park City canvass, Nov 21, 2023" if city
                                       else "e.g. State canvass, Nov 26, 2018")
        multi = check.portion or c.scope in (Scope.MULTICOUNTY, Scope.STATEWIDE)
        for w in (self.typed_box, self.add_files):
            w.setEnabled(multi)
        self._fill_typed(list(own), own, whole_votes)
        part = wc.county_part(case, self.contest_id)
        # The lieutenant governor orders recounts of multicounty and statewide races, not of
        # a city's that crosses a county line (actions.whole_case.record_recount_order).
        self.part_box.setEnabled(part.portion and c.scope is not Scope.MUNICIPAL)
        if part.ordered:
            o = part.ordered
            self.order_state.setText(
                f"<b>Recount ordered</b> by {_esc(str(o.get('ordered_by', '')))} — "
                f"{_esc(str(o.get('reference', '')))} (received "
                f"{_when(o.get('ordered_at'))}). The recount "
                "runs on the county's units (the Recount page); the county's report declares "
                "no winner.")
        else:
            self.order_state.setText("No recount order from the lieutenant governor is on "
                                     "record for this contest.")
        if part.transmitted:
            t = part.transmitted
            self.transmit_state.setText(
                f"<b>Sent to the lieutenant governor</b> "
                f"{_when(t.get('sent_at'))} — "
                f"{_esc(str(t.get('how', '')))}.")
        elif part.ordered:
            self.transmit_state.setText("Not sent yet: after the board signs the county's "
                                        "report, record here when and how it was sent.")
        else:
            self.transmit_state.setText("The transmittal follows the order.")
        self.record_sent_button.setEnabled(part.ordered is not None)
        self.sent_at.setEnabled(part.ordered is not None)
        self.how.setEnabled(part.ordered is not None)
        # What is on record is said above; its form only while it is still to be recorded.
        for w, done in ((self.order_form, part.ordered), (self.sent_form, part.transmitted)):
            w.setVisible(done is None)
        locked = case.readonly
        for w in (self.typed_box, self.add_files, self.part_box):
            if locked:
                w.setEnabled(False)

    def _fill_typed(self, names: list[str], own: dict[str, int],
                    whole: dict[str, int]) -> None:
        if list(self.typed) != names:
            while self.typed_form.rowCount():
                self.typed_form.removeRow(0)
            self.typed = {}
            for name in names:
                spin = QSpinBox()
                spin.setRange(0, 99_999_999)
                spin.setGroupSeparatorShown(True)
                spin.setAccessibleName(f"Whole-race votes for {name}")
                self.typed[name] = spin
                self.typed_form.addRow(f"{name}:", spin)
            hint = self.source.placeholderText()
            self.source = QLineEdit(self.source.text())
            self.source.setAccessibleName("Where the whole race's totals come from")
            self.source.setPlaceholderText(hint)
            self.typed_form.addRow("Source:", self.source)
            self.save_totals = QPushButton("Record the &totals")
            self.save_totals.setAccessibleName("Record the whole race's official totals")
            self.save_totals.clicked.connect(self.record_totals)
            self.typed_form.addRow("", self.save_totals)
        for name, spin in self.typed.items():
            spin.setValue(whole.get(name, own.get(name, 0)))

    # -- actions -------------------------------------------------------------------------------
    def _act(self, title: str, fn: Callable[..., Any], *args: Any, **kw: Any) -> bool:
        case = self.window_.case
        if case is None:
            return False
        self.problem.clear()
        try:
            fn(case, self.contest_id, *args, **kw)
        except (wc.WholeRaceRefused, ValueError) as e:
            self.problem.setText(f"{title}: {e}")
            return False
        self._done()
        return True

    def _done(self) -> None:
        self.window_.refresh()
        self.reload()
        self.changed.emit()

    def record_totals(self) -> bool:
        return self._act("The totals were not recorded", wc.enter_whole_race_totals,
                         {n: s.value() for n, s in self.typed.items()},
                         source=self.source.text())

    def record_order(self) -> bool:
        problem = self.ordered_at.problem()
        if problem:
            self.problem.setText(f"The order was not recorded: {problem}")
            return False
        return self._act("The order was not recorded", wc.record_recount_order,
                         ordered_at=self.ordered_at.value(), reference=self.reference.text())

    def record_transmittal(self) -> bool:
        problem = self.sent_at.problem()
        if problem:
            self.problem.setText(f"The transmittal was not recorded: {problem}")
            return False
        return self._act("The transmittal was not recorded", wc.record_transmittal,
                         sent_at=self.sent_at.value(), how=self.how.text())

    def combine_files(self, paths: list[Path] | None = None) -> None:
        """Combine the other counties' canvass files in a worker (its own connection)."""
        from recount_desk.actions import case as case_actions
        from recount_desk.actions.canvass import ImportFailed

        from .. import workers

        case = self.window_.case
        if case is None:
            return
        if paths is None:
            names, _ = QFileDialog.getOpenFileNames(
                self, "The other counties' canvass files", str(case.path.parent),
                "Canvass files (*.csv *.xlsx *.xls *.ods);;All files (*)")
            paths = [Path(n) for n in names]
        if not paths:
            return
        path, actor = case.path, case.person.name if case.person else None
        self.problem.clear()
        self.combined.setText("Combining the files…")

        def job(progress: workers.Progress, cancelled: Any) -> list[wc.CombinedContest]:
            with case_actions.open_case(path, actor=actor) as c:
                return wc.combine_counties(c, paths)

        def done(out: list[wc.CombinedContest]) -> None:
            self._done()
            lines = []
            for x in out:
                what = ("the whole race" if x.whole else
                        f"{len(x.counties)} of its counties") if not x.refused else \
                    f"refused: {x.refused}"
                lines.append(f"<b>{_esc(x.label)}</b>: {_esc(what)}"
                             + "".join(f"<br>&nbsp;&nbsp;Please confirm: {_esc(m)}"
                                       for m in x.confirm))
            self.combined.setText("<br>".join(lines))

        def failed(e: BaseException) -> None:
            if not isinstance(e, (wc.WholeRaceRefused, ImportFailed, OSError)):
                raise e
            self.combined.clear()
            self.problem.setText(f"The files were not combined: {e}")

        workers.start(job, on_done=done, on_failed=failed, parent=self,
                      title="Combining the counties' canvasses")
