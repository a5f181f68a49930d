"""Table models over plain row lists: sorting and filtering happen on the list, then reset.

No QSortFilterProxyModel: the rows are sorted and filtered in Python (or by the actions)
and the model is reset, which stays fast for large tables.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QRectF,
    Qt,
)
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap

from recount_desk.actions.contests import ContestRow
from recount_desk.actions.wizard import ContestSettings
from recount_desk.core.model import (
    ContestKind,
    Issue,
    PassRule,
    Remedy,
    Scope,
    Severity,
    VotingMethod,
)
from recount_desk.core.rules import Result, Verdict

from .theme import high_contrast

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

# Verdict colours: light tints behind dark text, readable in print and for colour-blind
# users, who also get the text and a distinct icon shape.
VERDICT_TINT = {
    Verdict.WITHIN_MARGIN: QColor("#fde9b0"),
    Verdict.AUTOMATIC: QColor("#f9d3cc"),
    Verdict.NOT_ELIGIBLE: QColor("#e3f1e1"),
    Verdict.EXCLUDED_IRV: QColor("#e4e4e4"),
    Verdict.UNCONTESTED: QColor("#ececec"),
    Verdict.PORTION: QColor("#dde8f6"),
    Verdict.NO_RESULT: QColor("#f3e0f0"),
    Verdict.UNDECIDABLE: QColor("#dde6f6"),
}
VERDICT_INK = {
    Verdict.WITHIN_MARGIN: QColor("#8a5a00"),
    Verdict.AUTOMATIC: QColor("#b3261e"),
    Verdict.NOT_ELIGIBLE: QColor("#2e6b30"),
    Verdict.EXCLUDED_IRV: QColor("#555555"),
    Verdict.UNCONTESTED: QColor("#555555"),
    Verdict.PORTION: QColor("#1f4e8c"),
    Verdict.NO_RESULT: QColor("#7a2a6e"),
    Verdict.UNDECIDABLE: QColor("#1f4f99"),
}

_ICONS: dict[str, QIcon] = {}


def verdict_icon(verdict: Verdict) -> QIcon:
    """A small painted icon whose shape alone tells the verdict (not only its colour)."""
    if verdict.value in _ICONS:
        return _ICONS[verdict.value]
    icon = QIcon()
    for size in (16, 24, 32, 48):
        pm = QPixmap(size, size)
        pm.fill(Qt.GlobalColor.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        ink = VERDICT_INK[verdict]
        s = float(size)
        pen = QPen(QColor("white"), max(1.5, s / 9))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        if verdict is Verdict.WITHIN_MARGIN:  # a warning triangle with "!"
            path = QPainterPath()
            path.moveTo(s / 2, s * 0.06)
            path.lineTo(s * 0.96, s * 0.92)
            path.lineTo(s * 0.04, s * 0.92)
            path.closeSubpath()
            p.fillPath(path, QColor("#d99100"))
            p.setPen(pen)
            p.drawLine(int(s / 2), int(s * 0.36), int(s / 2), int(s * 0.62))
            p.drawPoint(int(s / 2), int(s * 0.78))
        elif verdict is Verdict.AUTOMATIC:  # a round badge with "="
            p.setBrush(ink)
            p.setPen(Qt.PenStyle.NoPen)
            p.drawEllipse(QRectF(s * 0.05, s * 0.05, s * 0.9, s * 0.9))
            p.setPen(pen)
            p.drawLine(int(s * 0.3), int(s * 0.4), int(s * 0.7), int(s * 0.4))
            p.drawLine(int(s * 0.3), int(s * 0.6), int(s * 0.7), int(s * 0.6))
        elif verdict is Verdict.NOT_ELIGIBLE:  # a check mark: nothing to do
            check = QPen(ink, max(2.0, s / 7))
            check.setCapStyle(Qt.PenCapStyle.RoundCap)
            p.setPen(check)
            p.drawLine(int(s * 0.15), int(s * 0.55), int(s * 0.4), int(s * 0.8))
            p.drawLine(int(s * 0.4), int(s * 0.8), int(s * 0.85), int(s * 0.22))
        elif verdict is Verdict.PORTION:  # a ring with one slice filled: a part of a race
            p.setPen(QPen(ink, max(1.5, s / 9)))
            rect = QRectF(s * 0.12, s * 0.12, s * 0.76, s * 0.76)
            p.drawEllipse(rect)
            p.setBrush(ink)
            p.drawPie(rect, 90 * 16, -90 * 16)
        elif verdict in (Verdict.UNDECIDABLE, Verdict.NO_RESULT):  # a square with "?"
            p.setBrush(ink)
            p.setPen(Qt.PenStyle.NoPen)
            p.drawRoundedRect(QRectF(s * 0.08, s * 0.08, s * 0.84, s * 0.84), s / 6, s / 6)
            p.setPen(QColor("white"))
            font = p.font()
            font.setPixelSize(max(8, int(s * 0.7)))
            font.setBold(True)
            p.setFont(font)
            p.drawText(QRectF(0, 0, s, s), int(Qt.AlignmentFlag.AlignCenter), "?")
        else:  # excluded or uncontested: a circle with a bar
            ring = QPen(ink, max(1.5, s / 9))
            p.setPen(ring)
            p.drawEllipse(QRectF(s * 0.12, s * 0.12, s * 0.76, s * 0.76))
            p.drawLine(int(s * 0.3), int(s / 2), int(s * 0.7), int(s / 2))
        p.end()
        icon.addPixmap(pm)
    _ICONS[verdict.value] = icon
    return icon


def countdown(due: datetime, now: datetime) -> str:
    """'3 days 4 hours left', '5 hours left', or 'passed 2 days ago', in plain words."""
    delta = due - now
    secs = int(delta.total_seconds())
    if secs <= 0:
        ago = -secs
        days = ago // 86400
        if days >= 1:
            return f"passed {days:,} day{'s' if days != 1 else ''} ago"
        hours = ago // 3600
        return f"passed {hours} hour{'s' if hours != 1 else ''} ago" if hours else "just passed"
    days, rest = divmod(secs, 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return f"{days} day{'s' if days != 1 else ''} {hours} hour{'s' if hours != 1 else ''} left"
    if hours:
        return f"{hours} hour{'s' if hours != 1 else ''} {rest // 60} min left"
    return f"{rest // 60} minutes left"


def format_deadline(iso: str | None) -> str:
    if not iso:
        return "—"
    dt = datetime.fromisoformat(iso)
    hour = dt.hour % 12 or 12
    ampm = "a.m." if dt.hour < 12 else "p.m."
    return f"{dt:%a %b} {dt.day}, {dt.year}, {hour}:{dt.minute:02d} {ampm}"


@functools.lru_cache(maxsize=512)  # a case has a handful of deadlines, painted again and again
def short_deadline(iso: str | None) -> str:
    """'Nov 27, 2018 5 p.m.' for the table (the detail pane gives the full sentence)."""
    if not iso:
        return "—"
    dt = datetime.fromisoformat(iso)
    hour = dt.hour % 12 or 12
    minutes = f":{dt.minute:02d}" if dt.minute else ""
    return f"{dt:%b} {dt.day}, {dt.year} {hour}{minutes} {'a.m.' if dt.hour < 12 else 'p.m.'}"


WHOLE_RACE = "decided on the whole race"


def _whole(text: Callable[[ContestRow], str]) -> Callable[[ContestRow], str]:
    """A column of the verdict's figures: for a county's portion of a multicounty or
    statewide contest it says the verdict is the whole race's (no winner, margin or
    threshold of a portion is shown as if it were one, 20A-4-401(1)(b))."""
    return lambda r: "—" if r.check.portion else text(r)


def result_text(row: ContestRow) -> str:
    if row.check.portion:
        return WHOLE_RACE
    d = row.check.decision
    o = d.outcome
    if o.result is Result.PASSED:
        return "Passed"
    if o.result is Result.FAILED:
        return "Failed"
    if o.result is Result.NO_VOTES:
        return "No votes"
    if o.result is Result.TIE:
        sure = ", ".join(o.winners)
        tied = " = ".join(o.tied)
        return (f"{sure}; tie: {tied}" if sure else f"Tie: {tied}")
    return ", ".join(o.winners)


def percent_text(row: ContestRow) -> str:
    h = row.check.decision.margin_percent_hundredths()
    return "—" if h is None else f"{h // 100}.{h % 100:02d} %"


@dataclass(frozen=True)
class Column:
    title: str
    text: Callable[[ContestRow], str]
    key: Callable[[ContestRow], Any]
    numeric: bool = False
    tip: str = ""


def _title(r: ContestRow) -> str:
    key = r.check.totals.contest.key
    return f"{key.title} ({key.party})" if key.party else key.title


def _margin_key(r: ContestRow) -> int:
    m = r.check.decision.margin
    return -1 if m is None else m


CONTEST_COLUMNS: tuple[Column, ...] = (
    # The district has its own column, so the contest column shows the title (and party).
    Column("Contest", lambda r: _title(r), lambda r: r.check.totals.contest.key.label().casefold(),
           tip="The contest's title; the full label is in the detail pane"),
    Column("District", lambda r: r.check.totals.contest.key.district or "—",
           lambda r: r.check.totals.contest.key.district),
    Column("Kind", lambda r: "Proposition" if r.check.totals.contest.kind is
           ContestKind.PROPOSITION else "Race", lambda r: r.check.totals.contest.kind.value),
    Column("Seats", lambda r: str(r.check.totals.contest.seats),
           lambda r: r.check.totals.contest.seats, True),
    Column("Total", lambda r: f"{r.check.decision.total:,}",
           lambda r: r.check.decision.total, True),
    Column("Winner(s) / result", result_text, lambda r: result_text(r).casefold()),
    Column("Closest loser", _whole(lambda r: r.check.decision.closest_loser or "—"),
           lambda r: (r.check.decision.closest_loser or "").casefold()),
    Column("Margin", _whole(lambda r: "—" if r.check.decision.margin is None
                            else f"{r.check.decision.margin:,}"), _margin_key, True,
           "Difference in votes between the closest loser and the lowest winner, or between "
           "for and against (a county's portion: decided on the whole race)"),
    Column("Margin %", _whole(percent_text), _margin_key, True),
    Column("Threshold", _whole(lambda r: f"{r.check.decision.threshold:,}"),
           lambda r: r.check.decision.threshold, True,
           "The largest difference, in votes, still within the recount margin (a county's "
           "portion: decided on the whole race)"),
    Column("Verdict", lambda r: r.check.decision.verdict.label,
           lambda r: list(Verdict).index(r.check.decision.verdict)),
    Column("Request deadline", lambda r: short_deadline(r.check.deadline),
           lambda r: r.check.deadline or ""),
    Column("File with", lambda r: r.check.office.removeprefix("the ").capitalize(),
           lambda r: r.check.office),
    Column("Requests", lambda r: str(r.requests), lambda r: r.requests, True),
)
VERDICT_COLUMN = 10


_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole)
_FONT = int(Qt.ItemDataRole.FontRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_DECORATION = int(Qt.ItemDataRole.DecorationRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_TEXT_ROLES = frozenset((_DISPLAY, _TOOLTIP, _ALIGN, _FONT, _BACKGROUND))
_CONTEST_ROLES = frozenset((_DISPLAY, _TOOLTIP, _ALIGN, _BACKGROUND, _DECORATION, _FOREGROUND,
                            int(Qt.ItemDataRole.UserRole) + 1))


class ContestsTableModel(QAbstractTableModel):
    """Every contest of the case with its verdict (ContestRow list)."""

    ROW_ROLE = int(Qt.ItemDataRole.UserRole) + 1

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[ContestRow] = []
        self._sort: tuple[int, Qt.SortOrder] | None = None

    def set_rows(self, rows: Sequence[ContestRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        if self._sort is not None:
            self._apply_sort(*self._sort)
        self.endResetModel()

    def rows(self) -> list[ContestRow]:
        return list(self._rows)

    def row_at(self, i: int) -> ContestRow | None:
        return self._rows[i] if 0 <= i < len(self._rows) else None

    def row_of(self, contest_id: int) -> int:
        return next((i for i, r in enumerate(self._rows) if r.id == contest_id), -1)

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(CONTEST_COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation is Qt.Orientation.Horizontal:
            col = CONTEST_COLUMNS[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return col.title
            if role == Qt.ItemDataRole.ToolTipRole and col.tip:
                return col.tip
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        role = int(role)  # compared as ints: see TextTableModel.data
        if role not in _CONTEST_ROLES or not index.isValid():
            return None
        row = self._rows[index.row()]
        column = index.column()
        col = CONTEST_COLUMNS[column]
        if role == _DISPLAY:
            return col.text(row)
        if role == _ALIGN:
            return RIGHT if col.numeric else None
        if role == _TOOLTIP:
            return row.check.decision.explanation
        if role == self.ROW_ROLE:
            return row
        if column != VERDICT_COLUMN:
            return None
        verdict = row.check.decision.verdict
        if role == _DECORATION:
            return verdict_icon(verdict)
        if high_contrast():
            return None  # the palette's colours; the icon's shape and the words tell it
        if role == _BACKGROUND:
            return QBrush(VERDICT_TINT[verdict])
        return QBrush(QColor("#1a1a1a"))  # the foreground

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        self._sort = (column, order)
        self._apply_sort(column, order)
        self.layoutChanged.emit()

    def _apply_sort(self, column: int, order: Qt.SortOrder) -> None:
        key = CONTEST_COLUMNS[column].key
        self._rows.sort(key=key, reverse=order == Qt.SortOrder.DescendingOrder)


class ChoiceListModel(QAbstractListModel):
    """The items of a combo box as one list of (text, value), set at once: 1,000 contests
    put in one by one with addItem cost more than the rest of the page's loading."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._items: list[tuple[str, Any]] = []

    def set_items(self, items: Sequence[tuple[str, Any]]) -> None:
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else 1

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        text, value = self._items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole,
                    Qt.ItemDataRole.ToolTipRole):
            return text
        if role == Qt.ItemDataRole.UserRole:
            return value
        return None


class TextTableModel(QAbstractTableModel):
    """A read-only table of text cells (previews, precinct tables, issues, requests)."""

    def __init__(self, header: Sequence[str] = (), rows: Sequence[Sequence[Any]] = (),
                 numeric: Sequence[int] = (), parent: Any = None) -> None:
        super().__init__(parent)
        self._header: list[str] = list(header)
        self._rows: list[list[Any]] = [list(r) for r in rows]
        self._numeric = set(numeric)
        self._bold_last = False
        self._brushes: dict[int, QBrush] = {}

    def set_table(self, header: Sequence[str], rows: Sequence[Sequence[Any]],
                  numeric: Sequence[int] = (), bold_last: bool = False,
                  row_brushes: dict[int, QBrush] | None = None) -> None:
        self.beginResetModel()
        self._header = list(header)
        self._rows = [list(r) for r in rows]
        self._numeric = set(numeric)
        self._bold_last = bold_last
        self._brushes = row_brushes or {}
        self.endResetModel()

    def cell(self, row: int, column: int) -> Any:
        return self._rows[row][column]

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._header)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation is Qt.Orientation.Horizontal:
            return self._header[section] if section < len(self._header) else None
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # Roles compared as plain ints: a Qt enum in the comparison costs more than the rest
        # of the call, and fitting a table's columns asks for every role of every cell.
        role = int(role)
        if role not in _TEXT_ROLES or not index.isValid():
            return None
        r, c = index.row(), index.column()
        if role in (_DISPLAY, _TOOLTIP):
            row = self._rows[r]
            v = row[c] if c < len(row) else ""
            if isinstance(v, int) and not isinstance(v, bool):
                return f"{v:,}"
            return "" if v is None else str(v)
        if role == _ALIGN:
            return RIGHT if c in self._numeric else None
        if role == _FONT:
            if self._bold_last and r == len(self._rows) - 1:
                from PySide6.QtGui import QFont

                f = QFont()
                f.setBold(True)
                return f
            return None
        return None if high_contrast() else self._brushes.get(r)  # the background


SEVERITY_TEXT = {Severity.ERROR: "Error", Severity.WARNING: "Warning", Severity.NOTE: "Note"}
ISSUE_HEADER = ("Severity", "File", "Sheet", "Row", "Column", "What")


# What to do about an issue, in the window's terms (the command line words its own).
REMEDY_WORDS = {Remedy.SET_SEATS: "Set the number of seats in the contest settings (step 6 "
                                  "of this import, or later on the Contests page).",
                Remedy.MAP_COLUMNS: "Say which column is which on the import's mapping page "
                                    "(step 3).",
                Remedy.CHOOSE_SHEET: "To read another, choose it under “Sheet to read” (step "
                                     "2 of the import)."}


def issue_text(i: Issue) -> str:
    """The issue's message with what to do about it in the window."""
    return f"{i.message} {REMEDY_WORDS[i.remedy]}" if i.remedy else i.message


def issue_rows(issues: Sequence[Issue]) -> tuple[list[list[Any]], dict[int, QBrush]]:
    """Issues as table rows, errors first, with a tint on each error row."""
    order = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.NOTE: 2}
    ordered = sorted(issues, key=lambda i: order[i.severity])
    rows = [[SEVERITY_TEXT[i.severity], i.file, i.sheet or "—",
             "—" if i.row is None else i.row, i.column or "—", issue_text(i)] for i in ordered]
    brushes = {n: QBrush(QColor("#f9d3cc")) for n, i in enumerate(ordered)
               if i.severity is Severity.ERROR}
    return rows, brushes


SCOPE_TEXT = {s: s.label for s in Scope}
METHOD_TEXT = {VotingMethod.PLURALITY: "Plurality", VotingMethod.IRV: "Instant runoff"}
PASS_TEXT = {PassRule.MAJORITY: "Majority", PassRule.TWO_THIRDS: "Two-thirds"}
SETTINGS_HEADER = ("Contest", "Kind", "Seats", "Scope", "Voting method", "Pass rule")
SEATS_COL, SCOPE_COL, METHOD_COL, PASS_COL = 2, 3, 4, 5


class ContestSettingsModel(QAbstractTableModel):
    """The import wizard's per-contest settings: seats, scope, voting method, pass rule."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._labels: list[str] = []
        self._kinds: list[ContestKind] = []
        self._values: list[ContestSettings] = []
        self._initial: list[ContestSettings] = []

    def set_contests(self, labels: Sequence[str], kinds: Sequence[ContestKind],
                     values: Sequence[ContestSettings]) -> None:
        self.beginResetModel()
        self._labels, self._kinds = list(labels), list(kinds)
        self._values, self._initial = list(values), list(values)
        self.endResetModel()

    def changed(self) -> dict[int, ContestSettings]:
        return {i: v for i, (v, w) in enumerate(zip(self._values, self._initial, strict=True))
                if v != w}

    def value(self, row: int) -> ContestSettings:
        return self._values[row]

    def set_value(self, row: int, value: ContestSettings) -> None:
        self._values[row] = value
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(SETTINGS_HEADER) - 1))

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._values)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(SETTINGS_HEADER)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation is Qt.Orientation.Horizontal:
            return SETTINGS_HEADER[section]
        return None

    def _editable(self, row: int, col: int) -> bool:
        race = self._kinds[row] is ContestKind.RACE
        return col == SCOPE_COL or (col in (SEATS_COL, METHOD_COL) and race) or (
            col == PASS_COL and not race)

    def flags(self, index: Index) -> Qt.ItemFlag:
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.isValid() and self._editable(index.row(), index.column()):
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r, c = index.row(), index.column()
        v = self._values[r]
        if role == Qt.ItemDataRole.DisplayRole:
            race = self._kinds[r] is ContestKind.RACE
            return [self._labels[r], "Race" if race else "Proposition",
                    str(v.seats) if race else "—", SCOPE_TEXT[v.scope],
                    METHOD_TEXT[v.voting_method] if race else "—",
                    PASS_TEXT[v.pass_rule] if not race else "—"][c]
        if role == Qt.ItemDataRole.EditRole:
            return [self._labels[r], None, v.seats, v.scope, v.voting_method, v.pass_rule][c]
        if role == Qt.ItemDataRole.ForegroundRole and not self._editable(r, c) and c > 1:
            return QBrush(QColor("#777777"))
        if role == Qt.ItemDataRole.BackgroundRole and self._values[r] != self._initial[r]:
            return QBrush(QColor("#e8f0fe"))
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        r, c = index.row(), index.column()
        v = self._values[r]
        if c == SEATS_COL:
            v = dataclasses.replace(v, seats=max(1, int(value)))
        elif c == SCOPE_COL:
            v = dataclasses.replace(v, scope=Scope(value))
        elif c == METHOD_COL:
            v = dataclasses.replace(v, voting_method=VotingMethod(value))
        elif c == PASS_COL:
            v = dataclasses.replace(v, pass_rule=PassRule(value))
        else:
            return False
        self.set_value(r, v)
        return True
