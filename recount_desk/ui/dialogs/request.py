"""Recording a recount request: who filed, when, with whom, and the program's findings."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import contests as contest_actions
from recount_desk.actions.case import Case
from recount_desk.actions.contests import ContestRow, RequestRefused
from recount_desk.core.model import ContestKind
from recount_desk.core.rules import Office, Requester, RequestEvaluation, Verdict

from ..dates import DateTimeField
from ..pages.requests import OFFICE_LABELS

MIN_VOTERS = 10


def office_from_name(name: str) -> Office:
    """The Office for the office text the overview shows ('the county clerk' …)."""
    low = name.lower()
    if "lieutenant" in low:
        return Office.LIEUTENANT_GOVERNOR
    if "municipal" in low:
        return Office.MUNICIPAL_CLERK
    if "district" in low:
        return Office.DISTRICT_CLERK
    return Office.COUNTY_CLERK


class VoterRow(QWidget):
    def __init__(self, n: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = QLineEdit()
        self.name.setPlaceholderText(f"Voter {n}: full name")
        self.name.setAccessibleName(f"Voter {n} name")
        self.voted = QCheckBox("Confirmed voted")
        self.voted.setAccessibleName(f"Voter {n} confirmed as having voted")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(f"{n}."))
        lay.addWidget(self.name, 1)
        lay.addWidget(self.voted)


class RequestDialog(QDialog):
    """Record a request for one contest; live findings; accept-anyway only with a reason."""

    recorded = Signal(int)
    evaluated = Signal()

    def __init__(self, case: Case, rows: Sequence[ContestRow], contest_id: int | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Record a recount request")
        self.case = case
        self.rows = [r for r in rows if r.check.decision.verdict is not Verdict.EXCLUDED_IRV]
        self.evaluation: RequestEvaluation | None = None

        self.contest = QComboBox()
        self.contest.setAccessibleName("Contest")
        for r in self.rows:
            d = r.check.decision
            self.contest.addItem(f"{r.check.totals.contest.key.label()} — {d.verdict.label}",
                                 r.id)
        if contest_id is not None:
            i = self.contest.findData(contest_id)
            if i >= 0:
                self.contest.setCurrentIndex(i)
        self.explanation = QLabel()
        self.explanation.setWordWrap(True)
        self.explanation.setStyleSheet("color: #333;")

        self.by_candidate = QRadioButton("The &candidate")
        self.by_voters = QRadioButton("Ten or more &voters")
        self.by_candidate.setAccessibleName("Requested by the candidate")
        self.by_voters.setAccessibleName("Requested by voters")
        group = QButtonGroup(self)
        group.addButton(self.by_candidate)
        group.addButton(self.by_voters)
        self.candidate = QComboBox()
        self.candidate.setEditable(True)
        self.candidate.setAccessibleName("Candidate who requests")
        self.candidate.lineEdit().setAccessibleName("Candidate who requests (type or choose)")

        self.voter_rows: list[VoterRow] = []
        self.voters_box = QWidget()
        self.voters_layout = QVBoxLayout(self.voters_box)
        self.voters_layout.setContentsMargins(0, 0, 0, 0)
        for _ in range(MIN_VOTERS):
            self._add_voter()
        self.add_voter = QPushButton("&Add a voter")
        self.add_voter.setAccessibleName("Add a voter")
        self.add_voter.clicked.connect(self._add_voter_focus)
        voters_scroll = QScrollArea()
        voters_scroll.setWidgetResizable(True)
        voters_scroll.setWidget(self.voters_box)
        voters_scroll.setMinimumHeight(160)
        self.voters_group = QGroupBox("Voters who request (each must have voted in the "
                                      "election)")
        vg = QVBoxLayout(self.voters_group)
        vg.addWidget(voters_scroll)
        vg.addWidget(self.add_voter, 0, Qt.AlignmentFlag.AlignLeft)

        self.filed_at = DateTimeField("Filed at (date and time)", follow_now=True)
        self.filed_with = QComboBox()
        self.filed_with.setAccessibleName("Filed with (office)")
        for o in Office:
            self.filed_with.addItem(OFFICE_LABELS[o.value], o.value)

        self.findings = QLabel()
        self.findings.setWordWrap(True)
        self.findings.setAccessibleName("Findings")
        self.findings.setTextFormat(Qt.TextFormat.RichText)
        self.findings.setMinimumHeight(90)
        self.reason = QPlainTextEdit()
        self.reason.setPlaceholderText("Why the request is accepted although a check fails "
                                       "(kept with the request and in the audit log)")
        self.reason.setAccessibleName("Reason to accept anyway")
        self.reason.setTabChangesFocus(True)
        self.reason.setFixedHeight(64)
        self.reason_label = QLabel("Reason to accept anyway:")

        form = QFormLayout()
        form.addRow("Con&test:", self.contest)
        form.addRow("", self.explanation)
        who = QGridLayout()
        who.addWidget(self.by_candidate, 0, 0)
        who.addWidget(self.candidate, 0, 1)
        who.addWidget(self.by_voters, 1, 0)
        who.setColumnStretch(1, 1)
        form.addRow("Requested by:", who)
        form.addRow("", self.voters_group)
        form.addRow("&Filed at:", self.filed_at)
        form.addRow("Filed &with:", self.filed_with)
        checks = QGroupBox("What the law says of this request")
        cl = QVBoxLayout(checks)
        cl.addWidget(self.findings)
        cl.addWidget(self.reason_label)
        cl.addWidget(self.reason)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.record_button = self.buttons.addButton("&Record request",
                                                    QDialogButtonBox.ButtonRole.AcceptRole)
        self.record_button.setAccessibleName("Record request")
        self.buttons.accepted.connect(self._record)
        self.buttons.rejected.connect(self.reject)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b3261e;")
        self.error.setWordWrap(True)

        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(checks)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.resize(760, 820)

        self.contest.currentIndexChanged.connect(self._contest_changed)
        self.by_candidate.toggled.connect(self._who_changed)
        self.by_voters.toggled.connect(self._who_changed)
        self.candidate.currentTextChanged.connect(self.reevaluate)
        self.filed_at.dateTimeChanged.connect(self.reevaluate)
        self.filed_with.currentIndexChanged.connect(self.reevaluate)
        self.reason.textChanged.connect(self._update_button)
        self._contest_changed()

    # -- state -----------------------------------------------------------------------------
    def current_row(self) -> ContestRow | None:
        cid = self.contest.currentData()
        return next((r for r in self.rows if r.id == cid), None)

    def _add_voter(self) -> VoterRow:
        row = VoterRow(len(self.voter_rows) + 1)
        row.name.textChanged.connect(self.reevaluate)
        row.voted.toggled.connect(self.reevaluate)
        row.name.returnPressed.connect(row.voted.setFocus)
        self.voter_rows.append(row)
        self.voters_layout.addWidget(row)
        return row

    def _add_voter_focus(self) -> None:
        self._add_voter().name.setFocus()

    def voters(self) -> list[tuple[str, bool]]:
        return [(v.name.text().strip(), v.voted.isChecked()) for v in self.voter_rows
                if v.name.text().strip()]

    def requester(self) -> Requester:
        return Requester.VOTERS if self.by_voters.isChecked() else Requester.CANDIDATE

    def office(self) -> Office:
        return Office(self.filed_with.currentData())

    def filed_at_value(self) -> datetime:
        return self.filed_at.value()

    def set_filed_at(self, when: datetime) -> None:
        self.filed_at.setDateTime(when)

    def _contest_changed(self) -> None:
        row = self.current_row()
        if row is None:
            self.explanation.setText("No contest can take a request.")
            return
        d = row.check.decision
        self.explanation.setText(d.explanation)
        self.candidate.blockSignals(True)
        self.candidate.clear()
        for loser in d.losers:
            self.candidate.addItem(loser.name)
        self.candidate.blockSignals(False)
        proposition = row.check.totals.contest.kind is ContestKind.PROPOSITION
        (self.by_voters if proposition else self.by_candidate).setChecked(True)
        i = self.filed_with.findData(office_from_name(row.check.office).value)
        if i >= 0:
            self.filed_with.setCurrentIndex(i)
        self._who_changed()

    def _who_changed(self) -> None:
        voters = self.by_voters.isChecked()
        self.candidate.setEnabled(not voters)
        self.voters_group.setEnabled(voters)
        self.reevaluate()

    def reevaluate(self) -> None:
        row = self.current_row()
        if row is None:
            self.evaluation = None
            self._update_button()
            return
        self.evaluation = contest_actions.evaluate(
            self.case, row.id, requester=self.requester(),
            candidate=self.candidate.currentText().strip() or None
            if self.requester() is Requester.CANDIDATE else None,
            voters=self.voters(), filed_at=self.filed_at_value(),
            filed_with=self.office())
        lines = []
        for title, f in zip(("Timely", "May request", "Right office"),
                            self.evaluation.findings(), strict=True):
            mark = ("<span style='color:#2e6b30'>✔ Yes</span>" if f.ok
                    else "<span style='color:#b3261e'>✘ No</span>")
            lines.append(f"<b>{title}:</b> {mark} — {f.text} <i>(Utah Code {f.basis})</i>")
        self.findings.setText("<br>".join(lines))
        self._update_button()
        self.evaluated.emit()

    def _update_button(self) -> None:
        ev = self.evaluation
        ok = ev is not None and ev.ok
        needs_reason = ev is not None and not ev.ok
        self.reason.setEnabled(needs_reason)
        self.reason_label.setEnabled(needs_reason)
        has_reason = bool(self.reason.toPlainText().strip())
        if needs_reason:
            self.record_button.setText("&Accept anyway, with the reason")
            self.record_button.setEnabled(has_reason)
            self.error.setText("" if has_reason else
                               "A check fails: the request can be accepted only with a "
                               "recorded reason.")
        else:
            self.record_button.setText("&Record request")
            self.record_button.setEnabled(ok)
            self.error.setText("")

    def _record(self) -> None:
        row = self.current_row()
        if row is None or self.evaluation is None:
            return
        try:
            rid, _ = contest_actions.record_request(
                self.case, row.id, requester=self.requester(),
                candidate=self.candidate.currentText().strip() or None
                if self.requester() is Requester.CANDIDATE else None,
                voters=self.voters(), filed_at=self.filed_at_value(),
                filed_with=self.office(),
                override_reason=self.reason.toPlainText().strip() or None)
        except RequestRefused as e:
            self.error.setText(str(e))
            return
        self.recorded.emit(rid)
        self.accept()
