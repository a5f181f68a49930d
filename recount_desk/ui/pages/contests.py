"""The contests overview: every contest with its verdict, filters, and the detail pane."""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from datetime import date, datetime

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from recount_desk.actions.contests import ContestRow
from recount_desk.actions.wizard import ContestSettings
from recount_desk.core.model import ContestKind, PassRule, Scope, VotingMethod
from recount_desk.core.rules import Verdict

from .. import turns
from ..models import (
    CONTEST_COLUMNS,
    VERDICT_COLUMN,
    VERDICT_INK,
    ContestsTableModel,
    TextTableModel,
    countdown,
    format_deadline,
    verdict_icon,
)
from ..theme import fit_row_height

SCOPE_LABELS = [(s, s.label) for s in Scope]
METHOD_LABELS = [(VotingMethod.PLURALITY, "Plurality (most votes win)"),
                 (VotingMethod.IRV, "Instant runoff (ranked choice)")]
PASS_LABELS = [(PassRule.MAJORITY, "Majority"), (PassRule.TWO_THIRDS, "Two-thirds")]
# Rows measured per turn of the event loop when the columns are fitted to a long list.
FIT_TURN = 250

SHOW_ALL, SHOW_RACES, SHOW_PROPOSITIONS = 0, 1, 2


def search_text(r: ContestRow) -> str:
    """What the search box looks in: the contest, its district and party, the choices."""
    c = r.check.totals.contest
    return " ".join([c.key.label(), c.key.district, c.key.party,
                     *(ch.choice.name for ch in r.check.totals.choices)]).casefold()


def filter_rows(rows: Sequence[ContestRow], *, within_only: bool, show: int,
                text: str, hay: Sequence[str] | None = None) -> list[ContestRow]:
    """The rows a filter keeps (done on the list, not by a proxy model). ``hay``: each
    row's ``search_text``, made once per data change rather than at every keystroke."""
    # Every word typed must appear ("House 32" finds "State House — District 32").
    needles = text.casefold().split()
    out = []
    for i, r in enumerate(rows):
        d = r.check.decision
        c = r.check.totals.contest
        if within_only and not d.within_margin:
            continue
        if show == SHOW_RACES and c.kind is not ContestKind.RACE:
            continue
        if show == SHOW_PROPOSITIONS and c.kind is not ContestKind.PROPOSITION:
            continue
        if needles:
            where = hay[i] if hay is not None else search_text(r)
            if not all(n in where for n in needles):
                continue
        out.append(r)
    return out


def _combo(items: Sequence[tuple[object, str]], name: str) -> QComboBox:
    box = QComboBox()
    for value, label in items:
        box.addItem(label, str(value))  # Qt hands enums back as plain text
    box.setAccessibleName(name)
    return box


def _select(box: QComboBox, value: object) -> None:
    i = box.findData(str(value))
    if i >= 0:
        box.setCurrentIndex(i)


class ContestDetailPane(QWidget):
    """The selected contest: its decision in words, deadline, settings, precinct table."""

    settings_requested = Signal(int, object, object)  # contest id, before, after
    request_wanted = Signal(int)
    whole_race_wanted = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row: ContestRow | None = None
        self.now = datetime.now  # replaced in tests, so countdowns are reproducible
        self.election_date: date | None = None  # set by the window with the case

        self.title = QLabel("Select a contest above to see its verdict and why.")
        f = self.title.font()
        f.setPointSizeF(f.pointSizeF() * 1.3)
        f.setBold(True)
        self.title.setFont(f)
        self.title.setWordWrap(True)
        self.verdict = QLabel()
        self.verdict.setAccessibleName("Verdict")
        self.verdict_icon = QLabel()
        self.explanation = QLabel()
        self.explanation.setAccessibleName("Decision")
        self.explanation.setWordWrap(True)
        self.explanation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                 | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        ef = self.explanation.font()
        ef.setPointSizeF(ef.pointSizeF() * 1.08)
        self.explanation.setFont(ef)

        self.who = self._value("Who may request")
        self.office = self._value("File with")
        self.deadline = self._value("Request deadline")
        self.edition = self._value("Law applied")
        self.assumptions = self._value("Assumptions")
        self.assumptions.setStyleSheet("color: #5a4500;")

        facts = QFormLayout()
        facts.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.figures = self._value("Figures")
        facts.addRow("Figures:", self.figures)
        facts.addRow("Who may request:", self.who)
        facts.addRow("File with:", self.office)
        facts.addRow("Deadline:", self.deadline)
        facts.addRow("Law applied:", self.edition)
        facts.addRow("Assumptions:", self.assumptions)

        self.seats = QSpinBox()
        self.seats.setRange(1, 99)
        self.seats.setAccessibleName("Seats")
        self.scope = _combo(SCOPE_LABELS, "Scope")
        self.method = _combo(METHOD_LABELS, "Voting method")
        self.pass_rule = _combo(PASS_LABELS, "Pass rule")
        self.apply = QPushButton("&Apply settings")
        self.apply.setAccessibleName("Apply contest settings")
        self.apply.setToolTip("Recompute the verdict with these settings (recorded in the "
                              "audit log; Ctrl+Z undoes it)")
        self.apply.clicked.connect(self._apply)
        for w in (self.seats, self.scope, self.method, self.pass_rule):
            sig = w.valueChanged if isinstance(w, QSpinBox) else w.currentIndexChanged
            sig.connect(self._settings_edited)
        for w in (self.seats, self.scope, self.method, self.pass_rule):
            w.setMaximumWidth(340)
        self.seats.setMaximumWidth(90)
        settings = QGroupBox("Contest settings")
        sf = QFormLayout(settings)
        sf.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        sf.addRow("&Seats:", self.seats)
        sf.addRow("Sc&ope:", self.scope)
        sf.addRow("&Voting method:", self.method)
        sf.addRow("Pass &rule:", self.pass_rule)
        sf.addRow("", self.apply)
        self.request = QPushButton("Record a recount &request…")
        self.request.setAccessibleName("Record a recount request for this contest")
        self.request.clicked.connect(lambda: self._row and self.request_wanted.emit(self._row.id))

        # A multicounty or statewide contest: the whole race and the county's part.
        self.whole = QPushButton("&Whole race…")
        self.whole.setAccessibleName("The whole race and the county's part in its recount")
        self.whole.setToolTip("The whole race's figures (typed from the state canvass or the "
                              "other counties' files), the lieutenant governor's recount order "
                              "and the county's transmittal (Ctrl+Shift+H)")
        self.whole.clicked.connect(
            lambda: self._row and self.whole_race_wanted.emit(self._row.id))
        self.whole.hide()

        head = QHBoxLayout()
        head.addWidget(self.verdict_icon)
        head.addWidget(self.verdict, 1)
        # Beside the verdict, not under the settings: above the fold at 1280×720.
        head.addWidget(self.whole)
        head.addWidget(self.request)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.addWidget(self.title)
        lv.addLayout(head)
        lv.addWidget(self.explanation)
        lv.addLayout(facts)
        lv.addWidget(settings)
        lv.addStretch(1)
        scroll = QScrollArea()
        scroll.setAccessibleName("Contest settings and details (scrolled area)")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(left)

        self.precinct_model = TextTableModel()
        self.precincts = QTableView()
        self.precincts.setModel(self.precinct_model)
        self.precincts.setAccessibleName("Canvass by precinct")
        self.precincts.setAlternatingRowColors(True)
        self.precincts.verticalHeader().setVisible(False)
        self.precincts.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        # Columns are sized from the first rows only: measuring thousands of precincts
        # on every selection would take a second.
        self.precincts.horizontalHeader().setResizeContentsPrecision(60)
        fit_row_height(self.precincts)
        self.precinct_caption = QLabel("Canvass by precinct")
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(self.precinct_caption)
        rv.addWidget(self.precincts)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.splitter)
        self.show_row(None)

    def _value(self, name: str) -> QLabel:
        lab = QLabel()
        lab.setWordWrap(True)
        lab.setAccessibleName(name)
        lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        return lab

    @property
    def row(self) -> ContestRow | None:
        return self._row

    def show_row(self, row: ContestRow | None,
                 table: tuple[list[str], list[str], list[list[int]]] | None = None) -> None:
        self._row = row
        enabled = row is not None
        for w in (self.seats, self.scope, self.method, self.pass_rule, self.request):
            w.setEnabled(enabled)
        self.apply.setEnabled(False)
        if row is None:
            self.title.setText("Select a contest above to see its verdict and why.")
            for lab in (self.verdict, self.explanation, self.who, self.office, self.deadline,
                        self.edition, self.assumptions, self.figures):
                lab.clear()
            self.verdict_icon.clear()
            self.whole.hide()
            self.precinct_model.set_table([], [])
            return
        d = row.check.decision
        c = row.check.totals.contest
        self.title.setText(c.key.label())
        self.verdict.setText(f"<b>{d.verdict.label}</b>")
        self.verdict.setStyleSheet(f"color: {VERDICT_INK[d.verdict].name()};")
        self.verdict_icon.setPixmap(verdict_icon(d.verdict).pixmap(24, 24))
        self.explanation.setText(d.explanation)
        self.figures.setText(row.check.figures_text())
        self.who.setText(d.who_may_request)
        self.office.setText(f"{row.check.office[:1].upper()}{row.check.office[1:]} "
                            f"(Utah Code {row.check.office_basis})")
        if row.check.deadline:
            due = datetime.fromisoformat(row.check.deadline)
            self.deadline.setText(f"Before {format_deadline(row.check.deadline)} — "
                                  f"<b>{countdown(due, self.now())}</b><br>"
                                  f"<small>{row.check.deadline_explained or ''}</small>")
        else:
            self.deadline.setText("Not known: enter the date the canvass was completed "
                                  "(File › Election details).")
        assumed = d.edition.assumption(self.election_date) if self.election_date else None
        self.edition.setText(d.edition.label + (f"<br><small>{assumed}</small>" if assumed
                                                else ""))
        # (the law's own text, when it is assumed, is said in the row above: "None" alone
        # under an "ASSUMED:" would read as a contradiction)
        self.assumptions.setText("<br>".join(f"Assumption: {a}" for a in d.assumptions)
                                 if d.assumptions else
                                 "None besides the law's text, above" if assumed else "None")
        for w in (self.seats, self.scope, self.method, self.pass_rule):
            w.blockSignals(True)
        self.seats.setValue(c.seats)
        _select(self.scope, c.scope)
        _select(self.method, c.voting_method)
        _select(self.pass_rule, c.pass_rule)
        for w in (self.seats, self.scope, self.method, self.pass_rule):
            w.blockSignals(False)
        self.seats.setEnabled(c.kind is ContestKind.RACE)
        self.pass_rule.setEnabled(c.kind is ContestKind.PROPOSITION)
        self.method.setEnabled(c.kind is ContestKind.RACE)
        self.request.setEnabled(d.verdict is not Verdict.EXCLUDED_IRV)
        self.whole.setVisible(row.check.portion
                              or c.scope in (Scope.MULTICOUNTY, Scope.STATEWIDE))
        if table is not None:
            names, choices, votes = table
            totals = [sum(v[i] for v in votes) for i in range(len(choices))]
            rows: list[list[object]] = [[n, *v] for n, v in zip(names, votes, strict=True)]
            rows.append(["Total", *totals])
            self.precinct_model.set_table(["Precinct", *choices], rows,
                                          numeric=range(1, len(choices) + 1), bold_last=True)
            self.precinct_caption.setText(f"Canvass by precinct — {len(names):,} precincts")
            self.precincts.resizeColumnsToContents()

    def current_settings(self) -> ContestSettings:
        return ContestSettings(self.seats.value(), Scope(self.scope.currentData()),
                               VotingMethod(self.method.currentData()),
                               PassRule(self.pass_rule.currentData()))

    def _before(self) -> ContestSettings | None:
        if self._row is None:
            return None
        c = self._row.check.totals.contest
        return ContestSettings(c.seats, c.scope, c.voting_method, c.pass_rule)

    def _settings_edited(self) -> None:
        self.apply.setEnabled(self._row is not None and self.current_settings() != self._before())

    def _apply(self) -> None:
        before = self._before()
        if self._row is None or before is None:
            return
        after = self.current_settings()
        if after != before:
            self.apply.setEnabled(False)
            self.settings_requested.emit(self._row.id, before, after)


class ContestsPage(QWidget):
    """Filters over the contests table, and the detail pane below it."""

    contest_selected = Signal(int)
    filtered = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._all: list[ContestRow] = []
        self._shown: int | None = None  # the contest the detail pane shows
        self._hay: list[str] = []
        self._n_within = 0
        self._fitted = False  # the column widths fit the data
        self._fit_generation = 0  # a later fitting is for the rows it was asked for
        self.within = QCheckBox("&Within the recount margin only")
        self.within.setAccessibleName("Show only contests within the recount margin")
        self.show_kind = QComboBox()
        self.show_kind.addItems(["All contests", "Races only", "Propositions only"])
        self.show_kind.setAccessibleName("Which contests to show")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search contests and candidates (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search contests")
        self.count = QLabel()
        self.count.setAccessibleName("Contests shown")
        show_label = QLabel("&Show:")
        show_label.setBuddy(self.show_kind)
        bar = QHBoxLayout()
        bar.addWidget(self.within)
        bar.addSpacing(12)
        bar.addWidget(show_label)
        bar.addWidget(self.show_kind)
        bar.addSpacing(12)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.count)

        # A case without a canvass shows its next step (and nothing of another case).
        self.import_button = QPushButton("&Import the canvass…")
        self.import_button.setAccessibleName("Import the canvass")
        self.import_button.setAccessibleDescription(
            "This case holds no canvass yet: import the official canvass file (Ctrl+I)")
        self.import_button.hide()

        self.model = ContestsTableModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAccessibleName("Contests")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicatorShown(True)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().setVisible(False)
        fit_row_height(self.table)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.Interactive)
        bold = QFont(self.table.horizontalHeader().font())
        bold.setBold(True)
        self.table.horizontalHeader().setFont(bold)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.activated.connect(lambda _i: self.detail.explanation.setFocus())

        self.detail = ContestDetailPane()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([240, 520])

        lay = QVBoxLayout(self)
        lay.addLayout(bar)
        lay.addWidget(self.import_button, 0, Qt.AlignmentFlag.AlignLeft)
        lay.addWidget(self.splitter, 1)

        self.within.toggled.connect(lambda _on: self.apply_filter())
        self.show_kind.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.search.textChanged.connect(lambda _t: self.apply_filter())
        self.setTabOrder(self.within, self.show_kind)
        self.setTabOrder(self.show_kind, self.search)
        self.setTabOrder(self.search, self.table)
        self.setTabOrder(self.table, self.detail.seats)

    def set_rows(self, rows: Sequence[ContestRow], select: bool = True) -> None:
        """Show ``rows``; without ``select`` no row is chosen (nor its detail read) yet: the
        window opening a case does that in a turn of its own."""
        self._all = list(rows)
        self.import_button.setVisible(not self._all)
        self._hay = []  # what the search box looks in: made at the first search
        self._n_within = sum(1 for r in self._all if r.check.decision.within_margin)
        self._shown = None  # new data: the detail pane is shown again
        self.apply_filter(resize=True, select=select)

    def all_rows(self) -> list[ContestRow]:
        return list(self._all)

    def shown_rows(self) -> list[ContestRow]:
        return self.model.rows()

    def apply_filter(self, resize: bool = False, select: bool = True) -> None:
        keep = self.current_contest_id()
        text = self.search.text()
        if text.strip() and len(self._hay) != len(self._all):
            self._hay = [search_text(r) for r in self._all]
        rows = filter_rows(self._all, within_only=self.within.isChecked(),
                           show=self.show_kind.currentIndex(), text=text,
                           hay=self._hay or None)
        self.model.set_rows(rows)
        n_within = self._n_within
        self.count.setText(f"{len(rows)} of {len(self._all)} shown · {n_within} within the "
                           "margin")
        # The widths are fitted when the data changes, not at each keystroke of a filter
        # (fitting 14 columns costs more than the filter itself: benchmarks/gui_keystroke.py).
        if resize or not self._fitted:
            self._fitted = bool(rows)
            self._fit_generation += 1
            if len(rows) <= FIT_TURN:
                self.fit_columns(rows)
            else:  # an even sample now, every row in later turns (no long stall)
                self.fit_columns(rows[::len(rows) // FIT_TURN + 1])
                self._fit_in_turns(rows, self._fit_generation)
        target = self.model.row_of(keep) if keep is not None else -1
        if target < 0 and rows:
            target = 0
        if not select:
            self._shown = None
        elif target >= 0:
            self.select_row(target)
        else:
            self._shown = None
            self.detail.show_row(None)
        self.filtered.emit()

    def _fit_in_turns(self, rows: Sequence[ContestRow], generation: int) -> None:
        """Measure every row, ``FIT_TURN`` rows per turn of the event loop (1,000 contests
        at once stalled the window for 50 ms: benchmarks/gui_keystroke.py), then set the
        widths; given up when the rows change meanwhile."""
        longest: list[list[str]] = [[] for _ in CONTEST_COLUMNS]
        todo = list(rows)

        def turn() -> None:
            if generation != self._fit_generation:
                return
            chunk = todo[:FIT_TURN]
            del todo[:FIT_TURN]
            for c, col in enumerate(CONTEST_COLUMNS):
                longest[c] = heapq.nlargest(3, {*longest[c], *(col.text(r) for r in chunk)},
                                            key=len)
            if todo:
                turns.later(self, turn)
            else:
                self._set_widths(longest)

        turns.later(self, turn)

    def fit_columns(self, rows: Sequence[ContestRow]) -> None:
        """Fit each column to its longest text (capped at 240 px).

        Measured here rather than by Qt's resizeColumnToContents, which asks the model for
        every role of every sampled cell through Python and stalled the opening of a case
        for a quarter of a second (benchmarks/gui_keystroke.py): only each column's few
        longest texts are measured.
        """
        self._set_widths([heapq.nlargest(3, {col.text(r) for r in rows}, key=len)
                          for col in CONTEST_COLUMNS])

    def _set_widths(self, longest: list[list[str]]) -> None:
        """Each column as wide as the longest of its ``longest`` texts and its title."""
        style = self.table.style()
        margin = 2 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None,
                                        self.table) + 1) + 4
        cell = QFontMetrics(self.table.font())
        head = QFontMetrics(self.table.horizontalHeader().font())
        sort_mark = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None,
                                      self.table) + 2 * margin
        icon = self.table.iconSize().width() if self.table.iconSize().isValid() else 0
        icon = (icon or style.pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)) + margin
        for c, col in enumerate(CONTEST_COLUMNS):
            width = max((cell.horizontalAdvance(t) for t in longest[c]), default=0) + margin
            if c == VERDICT_COLUMN:
                width += icon
            width = max(width, head.horizontalAdvance(col.title) + sort_mark)
            self.table.setColumnWidth(c, min(width, 240))

    def select_row(self, i: int) -> None:
        idx = self.model.index(i, 0)
        self.table.selectionModel().setCurrentIndex(
            idx, QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows)
        self.table.scrollTo(idx)

    def select_contest(self, contest_id: int) -> None:
        i = self.model.row_of(contest_id)
        if i >= 0:
            self.select_row(i)

    def current_contest_id(self) -> int | None:
        row = self.model.row_at(self.table.currentIndex().row())
        return row.id if row else None

    def _current_changed(self, current: object, _previous: object) -> None:
        row = self.model.row_at(self.table.currentIndex().row())
        if row is None:
            self._shown = None
            self.detail.show_row(None)
            return
        if row.id == self._shown:
            return  # the same contest after a filter: its detail is already shown
        self._shown = row.id
        self.contest_selected.emit(row.id)
