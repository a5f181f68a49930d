"""The recount requests recorded in the case, per contest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..models import TextTableModel

OFFICE_LABELS = {
    "municipal_clerk": "Municipal clerk",
    "district_clerk": "Special (local) district clerk",
    "county_clerk": "County clerk",
    "lieutenant_governor": "Lieutenant governor",
}

HEADER = ("Contest", "Requested by", "Filed at", "Filed with", "Timely", "May request",
          "Right office", "Accepted anyway because", "Recorded by")


def _yes(ok: bool) -> str:
    return "Yes" if ok else "No"


class RequestsPage(QWidget):
    """A table of every recount request, with a button to record another."""

    request_wanted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = TextTableModel(HEADER, [])
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Recount requests")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.caption = QLabel()
        self.record = QPushButton("Record a recount &request…")
        self.record.setAccessibleName("Record a recount request")
        self.record.clicked.connect(self.request_wanted.emit)
        top = QHBoxLayout()
        top.addWidget(self.caption, 1)
        top.addWidget(self.record)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)

    def set_requests(self, requests: Sequence[Any], labels: dict[int, str]) -> None:
        rows = []
        brushes = {}
        for n, r in enumerate(requests):
            who = (f"Candidate {r.candidate}" if r.requester == "candidate"
                   else f"{sum(1 for _, ok in r.voters if ok)} voters: "
                   + ", ".join(v for v, _ in r.voters))
            rows.append([labels.get(r.contest_id, str(r.contest_id)),
                         who, f"{r.filed_at:%Y-%m-%d %H:%M}",
                         OFFICE_LABELS.get(r.filed_with, r.filed_with),
                         _yes(r.timely), _yes(r.eligible),
                         _yes(r.right_office),
                         r.override_reason or "—", r.recorded_by])
            if r.override_reason:
                brushes[n] = QBrush(QColor("#fdf0c8"))
        self.model.set_table(HEADER, rows, row_brushes=brushes)
        self.caption.setText(f"{len(rows)} request(s) recorded. Requests that failed a check "
                             "and were accepted anyway are tinted, with the reason recorded."
                             if rows else "No recount request has been recorded yet.")
