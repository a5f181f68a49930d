"""The import wizard: file → format → (mapping) → preview → issues → settings → import.

Reading and importing run in workers; nothing is written until the officer confirms on the
last page, and then in one transaction (actions.canvass.import_canvass).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from recount_desk.actions import canvass as canvass_actions
from recount_desk.actions import wizard as wizard_actions
from recount_desk.actions.canvass import (
    Detection,
    ImportFailed,
    ImportRefused,
    ParsedCanvass,
    ReadOptions,
)
from recount_desk.actions.case import open_case
from recount_desk.core.model import ContestKind, ElectionKind

from .. import workers
from ..models import (
    ISSUE_HEADER,
    METHOD_COL,
    METHOD_TEXT,
    PASS_COL,
    PASS_TEXT,
    SCOPE_COL,
    SCOPE_TEXT,
    SEATS_COL,
    ContestSettingsModel,
    TextTableModel,
    issue_rows,
    issue_text,
)
from .messages import show_message

FILE_PAGE, FORMAT_PAGE, MAPPING_PAGE, PREVIEW_PAGE, ISSUES_PAGE, SETTINGS_PAGE, CONFIRM_PAGE = \
    range(7)
MAP_MYSELF = "__mapping__"
FILE_FILTER = "Canvass files (*.csv *.xlsx *.xls *.ods *.xml *.zip *.txt);;All files (*)"


@dataclass(frozen=True)
class TargetCase:
    """What the wizard knows of the case it imports into."""

    path: Path
    primary: bool
    existing_source: str | None
    existing_requests: int
    kind: ElectionKind | None = None
    election_date: date | None = None
    actor: str | None = None  # who imports (the person using the window)


def _table(name: str) -> QTableView:
    t = QTableView()
    t.setAccessibleName(name)
    t.setAlternatingRowColors(True)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setStretchLastSection(True)
    return t


class FilePage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Choose the canvass file")
        self.setSubTitle("Step 1. The official canvass exported from the election system: "
                         "CSV, Excel (XLSX, XLS), ODS, or a Clarity detail file. You can also "
                         "drag the file onto this window.")
        self.setAcceptDrops(True)
        self.path = QLineEdit()
        self.path.setAccessibleName("Canvass file")
        self.path.setPlaceholderText("Type a path, choose Browse, or drop the file here")
        self.browse = QPushButton("&Browse…")
        self.browse.setAccessibleName("Browse for the canvass file")
        self.browse.clicked.connect(self._browse)
        self.drop = QLabel("Drop a canvass file here")
        self.drop.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.drop.setMinimumHeight(140)
        self.drop.setStyleSheet("border: 2px dashed #8a8a8a; border-radius: 8px; color: #444;"
                                "font-size: 14pt;")
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b3261e;")
        self.message.setAccessibleName("Problem with the file")
        row = QHBoxLayout()
        lab = QLabel("&File:")
        lab.setBuddy(self.path)
        row.addWidget(lab)
        row.addWidget(self.path, 1)
        row.addWidget(self.browse)
        lay = QVBoxLayout(self)
        lay.addLayout(row)
        lay.addWidget(self.drop)
        lay.addWidget(self.message)
        lay.addStretch(1)
        self.path.textChanged.connect(self.completeChanged)
        self.path.textChanged.connect(lambda _t: self.message.clear())
        self.path.returnPressed.connect(lambda: self.wizard().next())

    def _browse(self) -> None:
        got, _ = QFileDialog.getOpenFileName(self, "Choose the canvass file", self.path.text(),
                                             FILE_FILTER)
        if got:
            self.path.setText(got)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        urls = [u for u in event.mimeData().urls() if u.isLocalFile()]
        if urls:
            self.path.setText(urls[0].toLocalFile())
            event.acceptProposedAction()

    def isComplete(self) -> bool:
        return bool(self.path.text().strip())

    def validatePage(self) -> bool:
        return self.wizard().detect_then_read(Path(self.path.text().strip()), self)

    def nextId(self) -> int:
        return FORMAT_PAGE


class FormatPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("What kind of file this is")
        self.setSubTitle("Step 2. Recount Desk recognises the common canvass exports by their "
                         "layout; anything else is read through a column mapping.")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("Detected format")
        self.options_box = QVBoxLayout()
        self.buttons: list[QRadioButton] = []
        # A workbook of several sheets (one election a sheet: "2024 General", "2024
        # Primary", "2024 Primary Recount"): the sheet read is shown and can be changed.
        self.sheet = QComboBox()
        self.sheet.setAccessibleName("Sheet to read")
        self.sheet_label = QLabel("&Sheet to read:")
        self.sheet_label.setBuddy(self.sheet)
        sheet_row = QHBoxLayout()
        sheet_row.addWidget(self.sheet_label)
        sheet_row.addWidget(self.sheet, 1)
        sheet_row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addLayout(sheet_row)
        lay.addLayout(self.options_box)
        lay.addStretch(1)

    def initializePage(self) -> None:
        for b in self.buttons:
            b.deleteLater()
        self.buttons = []
        wiz = self.wizard()
        found = wiz.detections
        sheets = wiz.sheets
        read = wiz.parsed.sheet if wiz.parsed is not None else None
        self.sheet.clear()
        self.sheet.addItems(sheets)
        if read in sheets:
            self.sheet.setCurrentText(read)
        # (not for a reading of every sheet, as of Clarity's contest pages)
        several = len(sheets) > 1 and read is not None
        self.sheet.setVisible(several)
        self.sheet_label.setVisible(several)
        which = (f"<br>The workbook has {len(sheets)} sheets; this reading is of the sheet "
                 f"<b>“{read}”</b>. If the election is on another sheet, choose it here."
                 if several and read else "")
        if found:
            best = found[0]
            self.summary.setText(
                f"<b>{wiz.source.name}</b> looks like a <b>{best.label}</b> "
                f"(confidence {best.confidence} %: {best.reason}).<br>"
                "If that is wrong, pick another reading below or map the columns yourself."
                + (f"<br><b>But this reading does not look right:</b> {wiz.parsed.doubts[0]}"
                   if wiz.parsed is not None and wiz.parsed.doubtful else "") + which)
        else:
            self.summary.setText(
                f"Recount Desk does not recognise the layout of <b>{wiz.source.name}</b>. "
                "On the next page, say how its columns are laid out: which hold the "
                "precinct, the contest, the choice and the votes, or which block of columns "
                "is which contest."
                + (f"<br>Its columns are separated by {wiz.separator}, not commas: the "
                   "mapping reads them as they are." if wiz.separator else "")
                + (f"<br>{html.escape(wiz.unread_hint)}" if wiz.unread_hint else ""))
        for d in found:
            b = QRadioButton(f"{d.label} — {d.confidence} %")
            b.setProperty("family", d.family)
            b.setAccessibleName(f"Read as {d.label}")
            self.buttons.append(b)
        b = QRadioButton("None of these: I will map the columns myself")
        b.setProperty("family", MAP_MYSELF)
        b.setAccessibleName("Map the columns myself")
        self.buttons.append(b)
        for b in self.buttons:
            self.options_box.addWidget(b)
        chosen = wiz.family or MAP_MYSELF
        for b in self.buttons:
            b.setChecked(b.property("family") == chosen)

    def chosen(self) -> str:
        return next((b.property("family") for b in self.buttons if b.isChecked()), MAP_MYSELF)

    def chosen_sheet(self) -> str | None:
        """The sheet the officer chose, where the workbook has several."""
        return self.sheet.currentText() or None if self.sheet.isVisibleTo(self) else None

    def validatePage(self) -> bool:
        family = self.chosen()
        wiz = self.wizard()
        if family == MAP_MYSELF:
            return True
        sheet = self.chosen_sheet()
        if wiz.parsed is not None and wiz.family == family and wiz.mapping is None and \
                sheet in (None, wiz.parsed.sheet):
            return True
        return wiz.read(family=family, mapping=None, page=self, sheet=sheet)

    def nextId(self) -> int:
        return MAPPING_PAGE if self.chosen() == MAP_MYSELF else PREVIEW_PAGE


LONG, WIDE = 0, 1


class MappingPage(QWizardPage):
    """The officer says how an unrecognised sheet is laid out: one row per precinct, contest
    and choice (long: which column plays which role), or one row per precinct with a column
    per choice (wide: the precinct column, and each contest's block of columns)."""

    preview_loaded = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Map the columns")
        self.setSubTitle("Step 3. Pick the sheet and the row that holds the column names, say "
                         "how the sheet is laid out, then which columns hold what.")
        self.sheet = QComboBox()
        self.sheet.setAccessibleName("Sheet")
        self.header_row = QSpinBox()
        self.header_row.setRange(1, 500)
        self.header_row.setAccessibleName("Header row")
        self.layout_choice = QComboBox()
        self.layout_choice.setAccessibleName("Layout")
        self.layout_choice.addItem("One row per precinct, contest and choice", LONG)
        self.layout_choice.addItem("One row per precinct, a column per choice", WIDE)
        self.header: list[str] = []

        # Long: a column for each role.
        self.roles: dict[str, QComboBox] = {}
        long_form = QFormLayout()
        for role in (*wizard_actions.REQUIRED_ROLES, *wizard_actions.OPTIONAL_ROLES):
            box = QComboBox()
            box.setAccessibleName(wizard_actions.ROLE_LABELS[role])
            box.currentIndexChanged.connect(self.completeChanged)
            self.roles[role] = box
            long_form.addRow(wizard_actions.ROLE_LABELS[role] + ":", box)
        long_page = QWidget()
        long_page.setLayout(long_form)

        # Wide: the precinct column and one row per contest.
        self.precinct_column = QComboBox()
        self.precinct_column.setAccessibleName("Precinct column")
        self.precinct_column.currentIndexChanged.connect(self.completeChanged)
        self.blocks = QTableWidget(0, 4)
        self.blocks.setAccessibleName("Contests and their columns")
        self.blocks.setHorizontalHeaderLabels(["Contest", "First column", "Last column",
                                               "Seats"])
        head = self.blocks.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            head.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.blocks.verticalHeader().setVisible(False)
        self.blocks.itemChanged.connect(self.completeChanged)
        add = QPushButton("&Add contest")
        add.clicked.connect(lambda: self.add_block())
        remove = QPushButton("Re&move contest")
        remove.clicked.connect(self._remove_block)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        wide_form = QFormLayout()
        wide_form.addRow("&Precinct column:", self.precinct_column)
        wide_page = QWidget()
        wl = QVBoxLayout(wide_page)
        wl.setContentsMargins(0, 0, 0, 0)
        wl.addLayout(wide_form)
        hint = QLabel("Each contest is a block of side-by-side columns, one per choice (over "
                      "and under votes included: they are kept apart):")
        hint.setWordWrap(True)
        wl.addWidget(hint)
        wl.addWidget(self.blocks, 1)
        wl.addLayout(buttons)

        self.forms = QStackedWidget()
        self.forms.addWidget(long_page)
        self.forms.addWidget(wide_page)
        self.layout_choice.currentIndexChanged.connect(self._layout_changed)

        form = QFormLayout()
        form.addRow("S&heet:", self.sheet)
        form.addRow("Header &row:", self.header_row)
        form.addRow("&Layout:", self.layout_choice)
        self.missing = QLabel()
        self.missing.setWordWrap(True)
        self.missing.setStyleSheet("color: #b3261e;")
        # Where the columns shown come from: a proposal from what they hold, or a saved
        # mapping of the same layout (the officer checks either before going on).
        self.origin = QLabel()
        self.origin.setWordWrap(True)
        self.origin.setAccessibleName("Where the mapping comes from")
        self.preview_model = TextTableModel()
        self.preview = _table("Preview of the sheet")
        self.preview.setModel(self.preview_model)
        save = QPushButton("&Save this mapping…")
        save.setToolTip("Keep the mapping as a file, to use again for the next file of this "
                        "layout")
        save.clicked.connect(self._save_mapping)
        load = QPushButton("Use a saved ma&pping…")
        load.clicked.connect(self._load_mapping)
        files = QHBoxLayout()
        files.addWidget(load)
        files.addWidget(save)
        files.addStretch(1)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.addLayout(form)
        ll.addWidget(self.origin)
        ll.addWidget(self.forms, 1)
        ll.addWidget(self.missing)
        ll.addLayout(files)
        lay = QHBoxLayout(self)
        lay.addWidget(left, 1)
        lay.addWidget(self.preview, 1)
        self.sheet.currentIndexChanged.connect(self._reload)
        self.header_row.valueChanged.connect(self._reload)
        self._loading = False
        self._shown_sheet: str | None = None

    def initializePage(self) -> None:
        self.propose(None)

    def _layout_changed(self) -> None:
        self.forms.setCurrentIndex(self.layout_choice.currentData())
        self.completeChanged.emit()

    def _reload(self) -> None:
        if self._loading:
            return
        sheet = self.sheet.currentText() or None
        if sheet != self._shown_sheet:
            self.propose(sheet)  # another sheet: its own proposal
        else:
            self._load(sheet, self.header_row.value())

    def propose(self, sheet: str | None) -> None:
        """Fill the page for ``sheet``: from a saved mapping beside the file that fits the
        sheet (another sheet of this workbook, or an earlier file of the same layout), else
        from a proposal made from what the columns hold."""
        wiz = self.wizard()
        try:
            proposal: dict[str, Any] | None = wizard_actions.propose_mapping(wiz.source, sheet)
        except ImportFailed:
            proposal = None
        self._load(sheet, proposal["header_row"] if proposal else None)
        saved = wizard_actions.saved_mapping_for(wiz.source, self.header)
        if saved is not None:
            where, mapping = saved
            self._apply(mapping)
            made_for = mapping.get("sheet")
            self.origin.setText(
                f"Filled from the saved mapping “{where.name}”"
                + (f" (made for the sheet “{made_for}”)" if made_for and made_for !=
                   self.sheet.currentText() else "")
                + ": its columns fit this sheet. Check each choice before going on.")
        elif proposal is not None:
            self._apply(proposal)
            self.origin.setText("Proposed from what the columns hold (names, counts, "
                                "statistics and percentages left out): check each choice, "
                                "and name each contest, before going on.")
        self.completeChanged.emit()

    def _load(self, sheet: str | None, header_row: int | None) -> None:
        wiz = self.wizard()
        try:
            pv = wizard_actions.preview_table(wiz.source, sheet=sheet, header_row=header_row)
        except ImportFailed as e:
            self.missing.setText(f"{e.issue.where()}: {issue_text(e.issue)}")
            return
        self._loading = True
        self.sheet.clear()
        self.sheet.addItems(pv.sheets)
        self.sheet.setEnabled(bool(pv.sheets))
        if pv.sheet:
            self.sheet.setCurrentText(pv.sheet)
        self.header_row.setValue(pv.header_row)
        self.header = list(pv.header)
        for role, box in self.roles.items():
            keep = box.currentText()
            box.clear()
            box.addItem("— none —" if role in wizard_actions.OPTIONAL_ROLES
                        else "— choose a column —", None)
            for h in pv.header:
                if h:
                    box.addItem(h, h)
            i = box.findText(keep) if keep else -1
            if i < 0:
                i = next((n for n in range(box.count()) if box.itemData(n) and
                          _guess(role, box.itemData(n))), 0)
            box.setCurrentIndex(i)
        choices = wizard_actions.column_choices(self.header)
        keep_pos = self.precinct_column.currentData()
        self.precinct_column.clear()
        self.precinct_column.addItem("— choose a column —", None)
        for text, pos in choices:
            self.precinct_column.addItem(text, pos)
        i = self.precinct_column.findData(keep_pos) if keep_pos else -1
        if i < 0:
            i = next((n for n in range(1, self.precinct_column.count())
                      if _guess("precinct", self.header[n - 1])), 0)
        self.precinct_column.setCurrentIndex(i)
        for row in range(self.blocks.rowCount()):
            for col in (1, 2):
                self._fill_columns(self._box(row, col), choices)
        self._loading = False
        self._shown_sheet = self.sheet.currentText() or None
        self.preview_model.set_table(pv.header, pv.rows)
        self.completeChanged.emit()
        self.preview_loaded.emit()

    # -- wide blocks ---------------------------------------------------------------------

    def _box(self, row: int, col: int) -> QComboBox:
        w = self.blocks.cellWidget(row, col)
        assert isinstance(w, QComboBox)
        return w

    @staticmethod
    def _fill_columns(box: QComboBox, choices: list[tuple[str, int]]) -> None:
        keep = box.currentData()
        box.blockSignals(True)
        box.clear()
        for text, pos in choices:
            box.addItem(text, pos)
        i = box.findData(keep)
        box.setCurrentIndex(i if i >= 0 else 0)
        box.blockSignals(False)

    def add_block(self, contest: str = "", first: int | None = None, last: int | None = None,
                  seats: int = 1) -> int:
        """A new contest row (after the last block's columns unless told); returns its row."""
        row = self.blocks.rowCount()
        self.blocks.blockSignals(True)  # the row is read only once it is whole
        self.blocks.insertRow(row)
        self.blocks.setItem(row, 0, QTableWidgetItem(contest))
        choices = wizard_actions.column_choices(self.header)
        used = max([self._box(r, 2).currentData() or 0 for r in range(row)]
                   + [self.precinct_column.currentData() or 0])
        for col, pos in ((1, first or used + 1), (2, last or used + 1)):
            box = QComboBox()
            box.setAccessibleName(["", "First column", "Last column"][col] + f" of contest "
                                  f"{row + 1}")
            self._fill_columns(box, choices)
            i = box.findData(min(pos, len(choices)))
            box.setCurrentIndex(max(i, 0))
            box.currentIndexChanged.connect(self.completeChanged)
            self.blocks.setCellWidget(row, col, box)
        spin = QSpinBox()
        spin.setRange(1, 99)
        spin.setValue(seats)
        spin.setAccessibleName(f"Seats of contest {row + 1}")
        self.blocks.setCellWidget(row, 3, spin)
        self.blocks.setCurrentCell(row, 0)
        self.blocks.blockSignals(False)
        self.completeChanged.emit()
        return row

    def _remove_block(self) -> None:
        row = self.blocks.currentRow()
        if row >= 0:
            self.blocks.removeRow(row)
            self.completeChanged.emit()

    def wide_blocks(self) -> list[wizard_actions.Block]:
        out = []
        for row in range(self.blocks.rowCount()):
            item = self.blocks.item(row, 0)
            spin = self.blocks.cellWidget(row, 3)
            assert isinstance(spin, QSpinBox)
            out.append(wizard_actions.Block(item.text() if item else "",
                                            self._box(row, 1).currentData() or 0,
                                            self._box(row, 2).currentData() or 0,
                                            spin.value()))
        return out

    # -- the page ------------------------------------------------------------------------

    def columns(self) -> dict[str, str | None]:
        return {role: box.currentData() for role, box in self.roles.items()}

    def _problems(self) -> list[str]:
        if self.layout_choice.currentData() == WIDE:
            return wizard_actions.wide_problems(self.precinct_column.currentData(),
                                                self.wide_blocks(), self.header)
        missing = wizard_actions.missing_roles(self.columns())
        out = ["Still to choose: " + ", ".join(missing) + "."] if missing else []
        # One column holds one thing: a column chosen for two roles is a wrong guess or a
        # slip, never a layout (say which, so it is fixed before anything is read).
        by_column: dict[str, list[str]] = {}
        for role, column in self.columns().items():
            if column:
                by_column.setdefault(column, []).append(wizard_actions.ROLE_LABELS[role])
        out += [f"The column “{column}” is chosen for {' and '.join(roles)}: choose one "
                "column for each." for column, roles in by_column.items() if len(roles) > 1]
        return out

    def isComplete(self) -> bool:
        problems = self._problems()
        self.missing.setText(" ".join(problems))
        return not problems

    def mapping(self) -> dict[str, Any]:
        sheet = self.sheet.currentText() or None
        if self.layout_choice.currentData() == WIDE:
            return wizard_actions.make_wide_mapping(
                sheet=sheet, header_row=self.header_row.value(),
                precinct_column=self.precinct_column.currentData(),
                blocks=self.wide_blocks(), header=self.header)
        return wizard_actions.make_mapping(sheet=sheet, header_row=self.header_row.value(),
                                           columns=self.columns())

    def _save_mapping(self) -> None:
        problems = self._problems()
        if problems:
            self.missing.setText(" ".join(problems))
            return
        start = str(self.wizard().source.with_suffix(".mapping.json"))
        got, _ = QFileDialog.getSaveFileName(self, "Save the mapping as", start,
                                             "Column mapping (*.json)")
        if got:
            self.save_mapping_to(Path(got))

    def save_mapping_to(self, path: Path) -> None:
        try:
            wizard_actions.save_mapping(path, self.mapping())
        except OSError as e:
            self.missing.setText(f"The mapping was not saved: {e.strerror or e}.")
            return
        self.missing.setText("")

    def _load_mapping(self) -> None:
        start = str(self.wizard().source.parent)
        got, _ = QFileDialog.getOpenFileName(self, "Use a saved mapping", start,
                                             "Column mapping (*.json)")
        if got:
            self.load_mapping_from(Path(got))

    def load_mapping_from(self, path: Path) -> None:
        """Fill the page from a saved mapping (the officer still checks it and goes on).
        A mapping made for a sheet this workbook does not have (another file of the same
        layout), or for another sheet than the one chosen, is used for the chosen sheet."""
        try:
            m = wizard_actions.load_mapping(path)
        except ImportFailed as e:
            self.missing.setText(f"{e.issue.where()}: {issue_text(e.issue)}")
            return
        sheet = m.get("sheet")
        use = self.sheet.currentText() or None  # the sheet the officer chose
        self._load(use, int(m.get("header_row", 1)))
        self.origin.setText(f"Filled from the saved mapping “{path.name}”"
                            + (f", made for the sheet “{sheet}”, used for “{use}”"
                               if isinstance(sheet, str) and use and sheet != use else "")
                            + ". Check each choice before going on.")
        self._apply(m)

    def _apply(self, m: dict[str, Any]) -> None:
        """Set the layout, the roles or the blocks from a mapping (saved or proposed)."""
        def find(ref: object) -> int | None:
            return wizard_actions.column_position(self.header, ref)

        unknown: list[str] = []
        if m["layout"] == "long":
            self.layout_choice.setCurrentIndex(self.layout_choice.findData(LONG))
            for role, box in self.roles.items():
                ref = m["columns"].get(role)
                pos = find(ref) if ref not in (None, "") else None
                if ref not in (None, "") and pos is None:
                    unknown.append(str(ref))
                box.setCurrentIndex(max(box.findText(self.header[pos - 1]), 0) if pos else 0)
        else:
            self.layout_choice.setCurrentIndex(self.layout_choice.findData(WIDE))
            pos = find(m["precinct_column"]) if m.get("precinct_column") else None
            if pos is None and m.get("precinct_column"):
                unknown.append(str(m["precinct_column"]))
            self.precinct_column.setCurrentIndex(max(self.precinct_column.findData(pos), 0))
            self.blocks.setRowCount(0)
            for b in m["blocks"]:
                cols = [find(c) for c in b["columns"]]
                unknown += [str(c) for c, p in zip(b["columns"], cols, strict=True) if p is None]
                found = sorted(p for p in cols if p is not None)
                if found and found != list(range(found[0], found[-1] + 1)):
                    unknown.append(f"{b['contest']} (its columns are not side by side)")
                if found:
                    self.add_block(str(b["contest"]), found[0], found[-1],
                                   int(b.get("seats") or 1))
        if unknown:
            self.missing.setText("The saved mapping names columns this sheet does not have: "
                                 + ", ".join(unknown) + ".")
        else:
            self.completeChanged.emit()

    def validatePage(self) -> bool:
        mapping = self.mapping()
        problems = wizard_actions.mapping_problems(mapping)
        if problems:
            self.missing.setText(" ".join(problems))
            return False
        return self.wizard().read(family=None, mapping=mapping, page=self)

    def nextId(self) -> int:
        return PREVIEW_PAGE


def _guess(role: str, header: str) -> bool:
    h = header.strip().lower()
    words = {"precinct": ("precinct", "ward", "unit"), "contest": ("contest", "office", "race"),
             "choice": ("candidate", "choice", "name"), "votes": ("votes", "count", "total"),
             "district": ("district",), "party": ("party",)}[role]
    return any(w in h for w in words)


class PreviewPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("What was read")
        self.setSubTitle("Step 4. Check the contests, choices and precinct counts against the "
                         "canvass you certified. Nothing has been written yet.")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("What was read")
        self.model = TextTableModel()
        self.table = _table("Contests read from the file")
        self.table.setModel(self.model)
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addWidget(self.table, 1)

    def initializePage(self) -> None:
        p = self.wizard().parsed
        assert p is not None
        rows: list[list[Any]] = []
        for t in p.totals:
            c = t.contest
            ranked = sorted(t.choices, key=lambda ch: -ch.votes)
            rows.append([c.key.label(), "Proposition" if c.kind is ContestKind.PROPOSITION
                         else "Race", len(t.choices), t.precincts, t.total,
                         ", ".join(f"{ch.choice.name} {ch.votes:,}" for ch in ranked)])
        self.model.set_table(["Contest", "Kind", "Choices", "Precincts", "Votes",
                              "Choices and votes"], rows, numeric=(2, 3, 4))
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(0, min(self.table.columnWidth(0), 360))
        self.summary.setText(
            f"<b>{p.file}</b> ({self.wizard().family_label()}): {len(p.totals)} contests, "
            f"{len(p.precincts):,} precincts, {p.rows:,} vote rows"
            + (", a primary election (each party's race is a contest of its own)"
               if p.primary else "") + ".")


class IssuesPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Problems found in the file")
        self.setSubTitle("Step 5. Each problem with where it is: file, sheet, row and column. "
                         "Errors must be fixed before the canvass can be imported, but "
                         "for those in one contest's figures: that contest gets no verdict.")
        self.banner = QLabel()
        self.banner.setWordWrap(True)
        self.banner.setAccessibleName("Can the canvass be imported")
        self.model = TextTableModel()
        self.table = _table("Problems found in the file")
        self.table.setModel(self.model)
        self.table.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.banner)
        lay.addWidget(self.table, 1)

    def initializePage(self) -> None:
        p = self.wizard().parsed
        assert p is not None
        rows, brushes = issue_rows(p.issues)
        self.model.set_table(ISSUE_HEADER, rows, numeric=(3,), row_brushes=brushes)
        self.table.resizeColumnsToContents()
        for c in range(1, 5):
            self.table.setColumnWidth(c, min(self.table.columnWidth(c), 220))
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        n_err = len(p.blocking)
        if n_err:
            self.banner.setText(
                f"<span style='color:#b3261e'><b>✘ This canvass cannot be imported:</b></span> "
                f"{n_err} error(s), listed first, must be fixed in the file (or in the column "
                "mapping) and the file read again. Nothing has been written to the case. "
                "Use Back to choose another file or mapping.")
        elif p.withheld:
            names = ", ".join(html.escape(c.key.label()) for c in p.withheld[:5]) + (
                ", …" if len(p.withheld) > 5 else "")
            self.banner.setText(
                "<b>✔ The canvass can be imported,</b> <span style='color:#b3261e'><b>but "
                f"{len(p.withheld)} contest(s) will have no verdict</b></span> until the file "
                f"is corrected ({names}): the errors listed first are in their own figures. "
                "The other contests are not touched by them.")
        elif p.issues:
            self.banner.setText(f"<b>✔ The canvass can be imported.</b> {len(p.issues)} "
                                "warning(s) and note(s) to read; they are kept with the "
                                "import.")
        else:
            self.banner.setText("<b>✔ No problems found.</b>")
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        p = self.wizard().parsed
        return p is not None and not p.blocking


class SettingsDelegate(QStyledItemDelegate):
    """Spin box for seats, lists for scope, voting method and pass rule."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Any) -> QWidget:
        col = index.column()
        if col == SEATS_COL:
            spin = QSpinBox(parent)
            spin.setRange(1, 99)
            spin.setAccessibleName("Seats")
            return spin
        box = QComboBox(parent)
        items = {SCOPE_COL: SCOPE_TEXT, METHOD_COL: METHOD_TEXT, PASS_COL: PASS_TEXT}[col]
        for value, label in items.items():
            box.addItem(label, value.value)
        box.setAccessibleName({SCOPE_COL: "Scope", METHOD_COL: "Voting method",
                               PASS_COL: "Pass rule"}[col])
        return box

    def setEditorData(self, editor: QWidget, index: Any) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QSpinBox):
            editor.setValue(int(value))
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData(str(value))))

    def setModelData(self, editor: QWidget, model: Any, index: Any) -> None:
        if isinstance(editor, QSpinBox):
            model.setData(index, editor.value())
        elif isinstance(editor, QComboBox):
            model.setData(index, editor.currentData())


class SettingsPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Seats, scope and voting method")
        self.setSubTitle("Step 6. The file rarely says these. Seats decide who the lowest "
                         "winner is; the scope decides where requests are filed; instant-runoff "
                         "races are outside 20A-4-401. Double-click or press F2 to change a "
                         "cell.")
        self.model = ContestSettingsModel()
        self.table = _table("Contest settings")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.delegate = SettingsDelegate(self.table)
        self.table.setItemDelegate(self.delegate)
        self.note = QLabel()
        self.note.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.note)

    def initializePage(self) -> None:
        p = self.wizard().parsed
        assert p is not None
        self.model.set_contests([t.contest.key.label() for t in p.totals],
                                [t.contest.kind for t in p.totals],
                                [wizard_actions.settings_of(t.contest) for t in p.totals])
        self.table.resizeColumnsToContents()
        self.table.setColumnWidth(0, min(max(self.table.columnWidth(0), 260), 420))
        for c in range(2, 6):
            self.table.setColumnWidth(c, max(self.table.columnWidth(c), 150))
        assumed = [t.contest.key.label() for t in p.totals
                   if t.contest.kind is ContestKind.RACE and not t.contest.seats_from_file]
        self.note.setText(f"The file does not state the seats of {len(assumed)} race(s); one "
                          "seat each is assumed until you change it." if assumed else "")
        self.table.setCurrentIndex(self.model.index(0, SEATS_COL))


class ConfirmPage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle("Import the canvass")
        self.setSubTitle("Step 7. Nothing is written to the case until you choose Import.")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAccessibleName("What will be imported")
        self.replace = QCheckBox()
        self.replace.setAccessibleName("Replace the canvass the case holds")
        self.replace.toggled.connect(self.completeChanged)
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addWidget(self.replace)
        lay.addStretch(1)

    def initializePage(self) -> None:
        wiz = self.wizard()
        p = wiz.parsed
        assert p is not None
        changed = len(wiz.settings_page.model.changed())
        self.summary.setText(
            f"Import <b>{p.file}</b> into <b>{wiz.target.path.name}</b>: {len(p.totals)} "
            f"contests, {len(p.precincts):,} precincts, {p.rows:,} vote rows"
            + (f", with your settings for {changed} contest(s)" if changed else "")
            + ".<br><br>The import is written in one step and recorded in the audit log; "
            "if anything fails, nothing is written.")
        t = wiz.target
        self.replace.setVisible(t.existing_source is not None)
        self.replace.setChecked(False)
        if t.existing_source is not None:
            self.replace.setText(
                f"&Replace the canvass from {t.existing_source} that this case holds"
                + (f" (this also removes the {t.existing_requests} recount request(s) "
                   "recorded against it)" if t.existing_requests else ""))

    def isComplete(self) -> bool:
        return self.wizard().target.existing_source is None or self.replace.isChecked()

    def validatePage(self) -> bool:
        return self.wizard().run_import(self)


class ImportWizard(QWizard):
    """The whole import, page by page; ``imported`` fires once the case holds the canvass."""

    read_finished = Signal()
    read_failed = Signal(str)
    imported = Signal(int)
    import_failed = Signal(str)

    def __init__(self, target: TargetCase, parent: QWidget | None = None,
                 source: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import canvass")
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.HaveHelpButton, False)
        self.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, True)
        self.target = target
        self.source = Path()
        self.detections: list[Detection] = []
        self.family: str | None = None
        self.mapping: dict[str, Any] | None = None
        self.parsed: ParsedCanvass | None = None
        self.sheets: list[str] = []  # the workbook's sheets, to choose the one to read
        # Of a text file no reader recognised: "tabs" or "semicolons" between its columns.
        self.separator: str | None = None
        self.unread_hint = ""  # why a file no reader recognised is not one (its votes by mode)
        self.busy = False
        self._advance = False
        self.file_page = FilePage()
        self.format_page = FormatPage()
        self.mapping_page = MappingPage()
        self.preview_page = PreviewPage()
        self.issues_page = IssuesPage()
        self.settings_page = SettingsPage()
        self.confirm_page = ConfirmPage()
        for pid, page in ((FILE_PAGE, self.file_page), (FORMAT_PAGE, self.format_page),
                          (MAPPING_PAGE, self.mapping_page), (PREVIEW_PAGE, self.preview_page),
                          (ISSUES_PAGE, self.issues_page), (SETTINGS_PAGE, self.settings_page),
                          (CONFIRM_PAGE, self.confirm_page)):
            self.setPage(pid, page)
        self.setButtonText(QWizard.WizardButton.FinishButton, "&Import")
        self.resize(1000, 640)
        if source is not None:
            self.file_page.path.setText(str(source))

    def family_label(self) -> str:
        if self.mapping is not None:
            return "read through your column mapping"
        d = next((d for d in self.detections if d.family == self.family), None)
        return d.label if d else (self.family or "")

    # -- the background steps -------------------------------------------------------------
    def _passed(self) -> bool:
        """validatePage is called again by next() once a worker is done: let it pass once."""
        if self._advance:
            self._advance = False
            return True
        return False

    def _go_on(self) -> None:
        self._advance = True
        self.next()

    def detect_then_read(self, path: Path, page: FilePage) -> bool:
        if self._passed():
            return True
        if self.busy:
            return False
        if not path.is_file():
            page.message.setText(f"{path.name or path} does not exist or is not a file.")
            return False
        self.busy = True
        primary = self.target.primary

        def job(progress: workers.Progress, cancelled: Any) -> tuple[
                list[Detection], ParsedCanvass | None, list[str], str | None, str]:
            sheets = wizard_actions.workbook_sheets(path)
            found = canvass_actions.detect_file(path)
            if not found:  # (a text file with tabs or semicolons between its columns, or
                # a long table's votes by mode with no total: said)
                return (found, None, sheets, canvass_actions.odd_separator(path),
                        canvass_actions.unread_hint(path))
            parsed = canvass_actions.read_file(
                path, family=found[0].family, primary=primary,
                options=ReadOptions(on_progress=progress, cancelled=cancelled),
                detection=found[0])
            return canvass_actions.with_gate(found, parsed), parsed, sheets, None, ""

        def done(result: tuple[list[Detection], ParsedCanvass | None, list[str], str | None,
                               str]) -> None:
            self.busy = False
            self.source = path
            (self.detections, self.parsed, self.sheets, self.separator,
             self.unread_hint) = result
            self._point_out_kind()
            self.family = self.detections[0].family if self.detections else None
            if self.parsed is not None:
                # The plausibility gate doubts the reading: the mapping page, not "done".
                self.family = None if self.parsed.doubtful else self.parsed.family
            self.mapping = None
            self.read_finished.emit()
            self._go_on()

        def failed(e: BaseException) -> None:
            self.busy = False
            text = (f"{e.issue.where()}: {issue_text(e.issue)}" if isinstance(e, ImportFailed)
                    else f"The file could not be read: {e}")
            page.message.setText(text)
            self.read_failed.emit(text)

        workers.start(job, on_done=done, on_failed=failed, on_cancelled=self._cancelled,
                      parent=self, title="Reading the canvass",
                      label=f"Reading {path.name}…")
        return False

    def _cancelled(self) -> None:
        self.busy = False
        self.read_failed.emit("Cancelled.")

    def read(self, *, family: str | None, mapping: dict[str, Any] | None,
             page: QWizardPage, sheet: str | None = None) -> bool:
        """Read the file again as ``family`` (through ``mapping``), of ``sheet`` if the
        officer chose one."""
        if self._passed():
            return True
        if self.busy:
            return False
        self.busy = True
        path, primary = self.source, self.target.primary

        def job(progress: workers.Progress, cancelled: Any) -> ParsedCanvass:
            return canvass_actions.read_file(
                path, family=family, primary=primary,
                options=ReadOptions(sheet=sheet, mapping=mapping, on_progress=progress,
                                    cancelled=cancelled))

        def done(parsed: ParsedCanvass) -> None:
            self.busy = False
            self.parsed, self.family, self.mapping = parsed, family or "mapping", mapping
            self._point_out_kind()
            self.read_finished.emit()
            self._go_on()

        def failed(e: BaseException) -> None:
            self.busy = False
            text = (f"{e.issue.where()}: {issue_text(e.issue)}" if isinstance(e, ImportFailed)
                    else f"The file could not be read: {e}")
            show_message(self, "The file could not be read", text)
            self.read_failed.emit(text)

        workers.start(job, on_done=done, on_failed=failed, on_cancelled=self._cancelled,
                      parent=self, title="Reading the canvass", label=f"Reading {path.name}…")
        return False

    def _point_out_kind(self) -> None:
        """A file that says it is from another kind of election than the case's is pointed
        out among the problems (the deadline and office follow the case's kind)."""
        if self.parsed is None or self.target.kind is None:
            return
        conflict = canvass_actions.kind_mismatch(self.parsed, self.target.kind,
                                                 self.target.election_date)
        if conflict is not None and conflict not in self.parsed.issues:
            self.parsed.issues.append(conflict)

    def run_import(self, page: ConfirmPage) -> bool:
        if self._passed():
            return True
        if self.busy or self.parsed is None:
            return False
        self.busy = True
        parsed = wizard_actions.with_contest_settings(self.parsed,
                                                      self.settings_page.model.changed())
        case_path = self.target.path
        replace = page.replace.isChecked()

        def job(progress: workers.Progress, cancelled: Any) -> int:
            with open_case(case_path, actor=self.target.actor) as case:
                return canvass_actions.import_canvass(case, parsed, replace=replace)

        def done(import_id: int) -> None:
            self.busy = False
            self.imported.emit(import_id)
            self._advance = True
            self.accept()

        def failed(e: BaseException) -> None:
            self.busy = False
            text = str(e)
            if isinstance(e, ImportRefused) and e.issues:
                text += "\n\n" + "\n".join(f"{i.where()}: {issue_text(i)}"
                                            for i in e.issues[:20])
            show_message(self, "The canvass was not imported", text)
            self.import_failed.emit(text)

        workers.start(job, on_done=done, on_failed=failed, parent=self,
                      title="Importing the canvass", label=f"Writing {parsed.file} into the "
                      "case…")
        return False


__all__ = ["ImportWizard", "TargetCase"]
