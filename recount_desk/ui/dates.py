"""Dates and times typed the way a US clerk writes them: one edit used by every dialog.

``11/8/2016``, ``11/08/2016``, ``2016-11-08`` and ``Nov 8, 2016`` are all November 8,
2016; a time may follow (``10:00 AM``, ``2:30 p.m.``, ``14:30``). A calendar button is
beside the field for those who prefer to click. What cannot be read is said beside the
field and never turned into another date.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time

from PySide6.QtCore import QDate, QDateTime, QTime, Signal
from PySide6.QtGui import QFocusEvent, QShowEvent
from PySide6.QtWidgets import (
    QCalendarWidget,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QToolButton,
    QWidget,
    QWidgetAction,
)

MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
    start=1)}

_US = re.compile(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$")
_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_WORDS = re.compile(r"^(?:[a-z]+,?\s+)?([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$")
_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$")


def parse_date(text: str) -> date | None:
    """A date as a US clerk types it; None when it is not one (never a guess)."""
    t = " ".join(text.strip().lower().split())
    m = _US.match(t)
    try:
        if m:
            month, day, year = int(m[1]), int(m[2]), int(m[3])
            if len(m[3]) == 2:
                year += 2000
            return date(year, month, day)
        m = _ISO.match(t)
        if m:
            return date(int(m[1]), int(m[2]), int(m[3]))
        m = _WORDS.match(t)
        if m and m[1] in MONTHS:
            return date(int(m[3]), MONTHS[m[1]], int(m[2]))
    except ValueError:
        return None
    return None


def parse_time(text: str) -> time | None:
    """``10:00 AM``, ``2:30 p.m.``, ``14:30``, ``9 am``; None when it is not a time."""
    t = text.strip().lower().replace(" ", "")
    m = _TIME.match(t)
    if not m:
        return None
    hour, minute = int(m[1]), int(m[2] or 0)
    ampm = m[3]
    if ampm:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if ampm.startswith("p") else 0)
    elif m[2] is None:
        return None  # a bare number is not a time of day
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


def parse_datetime(text: str, default_time: time | None = None) -> datetime | None:
    """A date, then optionally a time (``11/8/2016 2:30 PM``); without a time,
    ``default_time`` (None: a time is required)."""
    t = " ".join(text.strip().split())
    d = parse_date(t)
    if d is not None:
        return datetime.combine(d, default_time) if default_time is not None else None
    # Split where the time starts: the last one or two words.
    words = t.split(" ")
    for n in (1, 2, 3):
        if len(words) <= n:
            break
        d = parse_date(" ".join(words[:-n]).rstrip(","))
        tm = parse_time(" ".join(words[-n:]))
        if d is not None and tm is not None:
            return datetime.combine(d, tm)
    return None


def date_text(d: date) -> str:
    return f"{d.month}/{d.day}/{d.year}"


def datetime_text(dt: datetime) -> str:
    hour = dt.hour % 12 or 12
    return f"{date_text(dt.date())} {hour}:{dt.minute:02d} {'AM' if dt.hour < 12 else 'PM'}"


class DateTimeField(QWidget):
    """A date (``with_time=False``) or a date and time, typed or picked from a calendar.

    ``dateTime()``/``date()`` give the value last typed correctly; ``problem()`` says what
    is wrong with the text now in the field (None when it reads). With ``follow_now`` the
    field shows and gives the current time until someone types in it or it is set: a
    record keyed in at once needs no typing, one keyed in later takes the real time.
    """

    dateTimeChanged = Signal(QDateTime)
    dateChanged = Signal(QDate)

    def __init__(self, name: str = "", when: datetime | date | None = None, *,
                 with_time: bool = True, follow_now: bool = False,
                 default_time: time = time(10, 0), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.with_time = with_time
        self.default_time = default_time
        self.follow_now = follow_now and when is None
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("m/d/yyyy h:mm AM" if with_time else "m/d/yyyy")
        self.button = QToolButton()
        self.button.setText("…")
        self.button.setAccessibleName(f"Pick {name.lower() or 'the date'} from a calendar")
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.calendar = QCalendarWidget()
        self.calendar.setAccessibleName(f"Calendar for {name.lower() or 'the date'}")
        menu = QMenu(self.button)
        act = QWidgetAction(menu)
        act.setDefaultWidget(self.calendar)
        menu.addAction(act)
        self.button.setMenu(menu)
        self.calendar.clicked.connect(lambda d: (menu.close(), self._picked(d)))
        box = QHBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(2)
        box.addWidget(self.edit, 1)
        box.addWidget(self.button)
        self.setFocusProxy(self.edit)
        if name:
            self.setAccessibleName(name)
        self._value = self._now() if when is None else self._as_datetime(when)
        self._problem: str | None = None
        self._show()
        self.edit.textEdited.connect(self._typed)
        self.edit.editingFinished.connect(self._finished)

    # -- the API the dialogs use (as QDateTimeEdit's) -------------------------------------
    def setAccessibleName(self, name: str) -> None:
        super().setAccessibleName(name)
        self.edit.setAccessibleName(name)
        self.edit.setAccessibleDescription(
            "Type a date like 11/8/2016" + (" and a time like 2:30 PM" if self.with_time
                                            else ""))

    def dateTime(self) -> QDateTime:
        v = self._now() if self.follow_now else self._value
        return QDateTime(QDate(v.year, v.month, v.day), QTime(v.hour, v.minute))

    def date(self) -> QDate:
        v = self._now() if self.follow_now else self._value
        return QDate(v.year, v.month, v.day)

    def value(self) -> datetime:
        return self._now() if self.follow_now else self._value

    def setDateTime(self, when: QDateTime | datetime) -> None:
        self._set(self._as_datetime(when))

    def setDate(self, when: QDate | date) -> None:
        d = when.toPython() if isinstance(when, QDate) else when
        t = self._value.time() if self.with_time else self.default_time
        self._set(datetime.combine(d, t))

    def problem(self) -> str | None:
        return self._problem

    def text(self) -> str:
        return self.edit.text()

    # -- inside ----------------------------------------------------------------------------
    def _now(self) -> datetime:
        now = datetime.now().replace(second=0, microsecond=0)
        return now if self.with_time else datetime.combine(now.date(), self.default_time)

    def _as_datetime(self, when: QDateTime | QDate | datetime | date) -> datetime:
        if isinstance(when, QDateTime | QDate):
            when = when.toPython()
        if isinstance(when, datetime):
            return when.replace(second=0, microsecond=0, tzinfo=None)
        return datetime.combine(when, self.default_time)

    def _set(self, v: datetime) -> None:
        self.follow_now = False
        changed = v != self._value
        self._value = v
        self._problem = None
        self._show()
        if changed:
            self._emit()

    def _show(self) -> None:
        v = self.value()
        self.edit.setText(datetime_text(v) if self.with_time else date_text(v.date()))
        self._mark()

    def _emit(self) -> None:
        self.dateTimeChanged.emit(self.dateTime())
        self.dateChanged.emit(self.date())

    def _typed(self, text: str) -> None:
        self.follow_now = False
        got = (parse_datetime(text, None) or parse_datetime(text, self._value.time())
               if self.with_time else parse_datetime(text, self.default_time))
        if got is None:
            self._problem = ("Type the date like 11/8/2016" + (" and the time like 2:30 PM"
                                                               if self.with_time else ""))
        else:
            self._problem = None
            if got != self._value:
                self._value = got
                self._emit()
        self._mark()

    def _finished(self) -> None:
        if self._problem is None:
            self._show()  # the value as read, written out in full

    def _picked(self, d: QDate) -> None:
        self.setDate(d)
        self.edit.setFocus()

    def _mark(self) -> None:
        self.edit.setStyleSheet("" if self._problem is None else
                                "QLineEdit { border: 2px solid #b3261e; }")
        self.edit.setToolTip(self._problem or "")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.follow_now:
            self._show()

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        if self.follow_now:
            self._show()

    def setCalendarPopup(self, _on: bool) -> None:
        """The calendar button is always there."""

    def setDisplayFormat(self, _fmt: str) -> None:
        """One format everywhere: m/d/yyyy and h:mm AM."""
