"""A new case file: the election's details, checked field by field as they are typed."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions.case import FieldError, validate_election
from recount_desk.core.model import Election, ElectionKind

from ..dates import DateTimeField

ERROR_STYLE = "color: #b3261e;"


class NewCaseDialog(QDialog):
    """Asks for the election; ``election()`` and ``path()`` give the answer once accepted.

    Given ``existing``, it edits an open case's election instead (File › Election details):
    the fields start from it and there is no file to choose."""

    def __init__(self, folder: Path, parent: QWidget | None = None,
                 existing: Election | None = None) -> None:
        super().__init__(parent)
        self.editing = existing is not None
        self.setWindowTitle("Election details" if self.editing else "New case")
        self.folder = folder
        self._path_edited = self.editing

        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. 2026 General Election")
        self.date = DateTimeField("Election date", date.today(), with_time=False)
        self.kind = QComboBox()
        for k in ElectionKind:
            self.kind.addItem(k.label, k.value)
        self.jurisdiction = QLineEdit()
        self.jurisdiction.setPlaceholderText("e.g. Wasatch County, or Heber City")
        self.canvass_known = QCheckBox("Known")
        self.canvass_known.setToolTip("The recount request deadline runs from this moment")
        # Until it is typed, the canvass follows the election: boards usually canvass one
        # to two weeks after it, so the date starts at the latest usual day.
        self.canvass = DateTimeField("Canvass completed (date and time)",
                                     self._usual_canvass(date.today()))
        self.canvass.setEnabled(False)
        self._canvass_typed = False
        self.officer = QLineEdit()
        self.officer.setPlaceholderText("e.g. Jane Doe, County Clerk")
        self.file = QLineEdit()
        self.browse = QPushButton("&Browse…")
        self.browse.clicked.connect(self._browse)

        names = {self.name: "Election name", self.date: "Election date",
                 self.kind: "Kind of election", self.jurisdiction: "Jurisdiction",
                 self.canvass_known: "Canvass completion known",
                 self.canvass: "Canvass completed (date and time)",
                 self.officer: "Election officer", self.file: "Case file location",
                 self.browse: "Browse for the case file location"}
        for w, n in names.items():
            w.setAccessibleName(n)

        self.errors: dict[str, QLabel] = {}
        labels: dict[str, QLabel] = {}
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setColumnMinimumWidth(2, 300)
        rows: list[tuple[str, str, QWidget]] = [
            ("name", "Election &name:", self.name),
            ("date", "Election &date:", self.date),
            ("kind", "&Kind:", self.kind),
            ("jurisdiction", "&Jurisdiction:", self.jurisdiction),
            ("canvass_completed", "&Canvass completed:", self._pair(self.canvass_known,
                                                                   self.canvass)),
            ("officer", "Election &officer:", self.officer),
            ("file", "Case &file:", self._pair(self.file, self.browse, stretch_first=True)),
        ]
        for i, (key, label, w) in enumerate(rows):
            lab = labels[key] = QLabel(label)
            lab.setBuddy(w if not isinstance(w, _Pair) else w.first)
            err = QLabel()
            err.setStyleSheet(ERROR_STYLE)
            err.setWordWrap(True)
            err.setAccessibleName(f"Problem with {key.replace('_', ' ')}")
            self.errors[key] = err
            grid.addWidget(lab, i, 0)
            grid.addWidget(w, i, 1)
            grid.addWidget(err, i, 2)

        intro = QLabel("One election is one case file. It holds the canvass you import, every "
                       "recount request and entry, and the audit log.")
        if self.editing:
            intro.setText("The election's date and kind decide which law applies and where "
                          "a request is filed; the moment the canvass was completed starts "
                          "the time to request a recount. The change is recorded in the "
                          "audit log.")
            for w in (self.file, self.browse, labels["file"]):
                w.hide()
        intro.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.create = self.buttons.addButton("Sa&ve details" if self.editing else "C&reate case",
                                             QDialogButtonBox.ButtonRole.AcceptRole)
        # Enter moves from field to field (the officer types the form like a paper one);
        # on the last field it creates the case. So no button takes Enter by default.
        for b in self.buttons.buttons():
            b.setAutoDefault(False)
            b.setDefault(False)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(grid)
        lay.addStretch(1)
        lay.addWidget(self.buttons)

        self.name.textChanged.connect(self._name_changed)
        self.file.textEdited.connect(self._file_edited)
        for sig in (self.date.dateChanged, self.kind.currentIndexChanged,
                    self.jurisdiction.textChanged, self.canvass.dateTimeChanged,
                    self.canvass_known.toggled, self.file.textChanged):
            sig.connect(self.validate)
        self.canvass_known.toggled.connect(self.canvass.setEnabled)
        for field in (self.date, self.canvass):  # a date half typed is said at once
            field.edit.textEdited.connect(lambda _t: self.validate())
        self.canvass.edit.textEdited.connect(lambda _t: setattr(self, "_canvass_typed", True))
        self.date.dateChanged.connect(lambda _d: self._follow_election())
        # Enter moves on to the next field; on the last one it creates the case.
        for w in (self.name, self.jurisdiction, self.officer):
            w.returnPressed.connect(self.focusNextChild)
        # The last field accepts: the file, or when editing (no file) the officer.
        (self.officer if self.editing else self.file).returnPressed.connect(self._accept)
        self._touched: set[str] = set()
        self.name.textEdited.connect(lambda _t: self._touched.add("name"))
        self.jurisdiction.textEdited.connect(lambda _t: self._touched.add("jurisdiction"))
        self._name_changed("")
        if existing is not None:
            self._fill(existing)
        self.resize(900, 300 if self.editing else 420)

    def _fill(self, e: Election) -> None:
        self.name.setText(e.name)
        self.date.setDate(e.date)
        self.kind.setCurrentIndex(self.kind.findData(e.kind.value))
        self.jurisdiction.setText(e.jurisdiction)
        self.canvass_known.setChecked(e.canvass_completed is not None)
        if e.canvass_completed is not None:
            self.canvass.setDateTime(e.canvass_completed)
            self._canvass_typed = True
        self.officer.setText(e.officer)
        self._touched.update({"name", "jurisdiction"})
        self.validate()

    @staticmethod
    def _usual_canvass(election_day: date) -> datetime:
        return datetime.combine(election_day + timedelta(days=14), time(10, 0))

    def _follow_election(self) -> None:
        if not self._canvass_typed and not self.editing:
            self.canvass.blockSignals(True)
            self.canvass.setDateTime(self._usual_canvass(self.election_date()))
            self.canvass.blockSignals(False)

    def _pair(self, first: QWidget, second: QWidget, stretch_first: bool = False) -> _Pair:
        return _Pair(first, second, stretch_first)

    # -- values ------------------------------------------------------------------------------
    def election_date(self) -> date:
        return self.date.date().toPython()

    def canvass_completed(self) -> datetime | None:
        if not self.canvass_known.isChecked():
            return None
        return self.canvass.dateTime().toPython()

    def election(self) -> Election:
        return Election(self.name.text().strip(), self.election_date(),
                        ElectionKind(self.kind.currentData()), self.jurisdiction.text().strip(),
                        self.canvass_completed(), self.officer.text().strip())

    def path(self) -> Path:
        text = self.file.text().strip()
        p = Path(text)
        if not p.name:
            return p  # a folder, or nothing: problems() says to choose a name
        return p if p.suffix == ".recount" else p.with_name(p.name + ".recount")

    def _name_changed(self, text: str) -> None:
        if not self._path_edited:
            safe = "".join(ch for ch in text.strip() if ch not in '<>:"/\\|?*').strip()
            self.file.setText(str(self.folder / f"{safe or 'New case'}.recount"))
        self.validate()

    def _file_edited(self, _text: str) -> None:
        self._path_edited = True

    def _browse(self) -> None:
        got, _ = QFileDialog.getSaveFileName(self, "Save the new case as", self.file.text(),
                                             "Recount Desk case (*.recount)")
        if got:
            self._path_edited = True
            self.file.setText(got)

    # -- checks ------------------------------------------------------------------------------
    def problems(self, everything: bool = False) -> list[FieldError]:
        errs = validate_election(self.name.text(), self.election_date(),
                                 self.kind.currentData(), self.jurisdiction.text(),
                                 self.canvass_completed())
        text = self.file.text().strip()
        if self.editing:
            pass  # the case file is the open one
        elif not text:
            errs.append(FieldError("file", "Choose where to save the case file."))
        elif not self.path().name or text.endswith(("/", "\\")):
            errs.append(FieldError("file", "Give the case file a name, not only a folder."))
        elif self.path().exists():
            errs.append(FieldError("file", "A file of this name exists; choose another name."))
        elif not self.path().parent.is_dir():
            errs.append(FieldError("file", "This folder does not exist."))
        for key, field in (("date", self.date), ("canvass_completed", self.canvass)):
            if field.problem() and (key == "date" or self.canvass_known.isChecked()):
                errs = [e for e in errs if e.field != key]
                errs.append(FieldError(key, field.problem() or ""))
        if not everything:
            # Empty text fields are not scolded before the officer has typed in them.
            errs = [e for e in errs if e.field not in ("name", "jurisdiction")
                    or e.field in self._touched]
        return errs

    def validate(self, everything: bool = False) -> bool:
        errs = self.problems(bool(everything))
        by_field = {e.field: e.message for e in errs}
        for key, lab in self.errors.items():
            lab.setText(("⚠ " + by_field[key]) if key in by_field else "")
        return not self.problems(True)

    def _accept(self) -> None:
        self._touched.update({"name", "jurisdiction"})
        if self.validate(True):
            self.accept()
            return
        first = next((e.field for e in self.problems(True)), None)
        target = {"name": self.name, "date": self.date, "kind": self.kind,
                  "jurisdiction": self.jurisdiction, "canvass_completed": self.canvass,
                  "file": self.file}.get(first or "")
        if target is not None:
            target.setFocus()


class _Pair(QWidget):
    """Two widgets side by side in one grid cell."""

    def __init__(self, first: QWidget, second: QWidget, stretch_first: bool) -> None:
        super().__init__()
        self.first = first
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(first, 1 if stretch_first else 0)
        lay.addWidget(second, 0 if stretch_first else 1)
