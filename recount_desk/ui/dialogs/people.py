"""The case's roster of people: who may enter, resolve, sign; the election officer edits it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions import case as case_actions
from recount_desk.actions.case import Case
from recount_desk.core.people import Person, Role

_Index = QModelIndex | QPersistentModelIndex


class PeopleTableModel(QAbstractTableModel):
    HEADERS = ("Name", "Role")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.people: list[Person] = []

    def reset_to(self, people: list[Person]) -> None:
        self.beginResetModel()
        self.people = people
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.people)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else 2

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or not index.isValid():
            return None
        p = self.people[index.row()]
        return p.name if index.column() == 0 else p.role.label

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None


class PeopleDialog(QDialog):
    """The roster: add a person with a role, change a role, take someone off."""

    def __init__(self, case: Case, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.case = case
        self.setWindowTitle("People of this case")
        self.model = PeopleTableModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("Full name, e.g. Kim Nguyen")
        self.name.setAccessibleName("Name of the person to add")
        self.role = QComboBox(self)
        self.role.setAccessibleName("Role")
        for r in Role:
            self.role.addItem(r.label, r)
        self.role.setCurrentIndex(list(Role).index(Role.DEPUTY))
        add = QPushButton("&Add", self)
        add.clicked.connect(self.add)
        self.name.returnPressed.connect(self.add)
        set_role = QPushButton("Give the selected person this &role", self)
        set_role.clicked.connect(self.change_role)
        remove = QPushButton("&Take off the roster", self)
        remove.clicked.connect(self.remove)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        who = case.person
        note = QLabel(("Only the election officer changes the roster; every change is in the "
                       "audit log. ") + (f"Acting now: {who.name} ({who.role.label.lower()})."
                                         if who else "Nobody is acting yet."), self)
        note.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.name, 2)
        row.addWidget(self.role, 1)
        row.addWidget(add)
        row2 = QHBoxLayout()
        row2.addWidget(set_role)
        row2.addWidget(remove)
        row2.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(note)
        lay.addWidget(self.table)
        lay.addLayout(row)
        lay.addLayout(row2)
        lay.addWidget(self.message)
        lay.addWidget(buttons)
        self.resize(560, 420)
        self.reload()

    def reload(self) -> None:
        self.model.reset_to(list(case_actions.roster(self.case).people))

    def _selected(self) -> Person | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.people[rows[0].row()] if rows else None

    def _run(self, fn: Any, *args: Any) -> bool:
        try:
            fn(self.case, *args)
        except (case_actions.RosterRefused, case_actions.CaseFileError) as e:
            self.message.setText(str(e))
            return False
        self.message.setText("")
        self.reload()
        return True

    def add(self) -> None:
        if self._run(case_actions.add_person, self.name.text(), self.role.currentData()):
            self.name.clear()

    def change_role(self) -> None:
        p = self._selected()
        if p is None:
            self.message.setText("Select a person first.")
            return
        self._run(case_actions.change_role, p.name, self.role.currentData())

    def remove(self) -> None:
        p = self._selected()
        if p is None:
            self.message.setText("Select a person first.")
            return
        self._run(case_actions.remove_person, p.name)
