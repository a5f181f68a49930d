"""Utah's legal holidays and the computation of time, for recount deadlines.

Sources (see docs/utah-law-notes.md §4):
- Utah Code 63G-1-301 (legal holidays), by version:
  * every Sunday, always (63G-1-301(1)(c));
  * fixed dates Jan 1, Jul 4, Jul 24, Nov 11, Dec 25: a date on a Saturday makes the
    preceding Friday the legal holiday, one on a Sunday the following Monday (63G-1-301(1)(a));
  * floating days: 3rd Monday of January and of February, last Monday of May, 1st Monday of
    September, 2nd Monday of October, 4th Thursday of November (63G-1-301(1)(b));
  * Juneteenth from 2022 (2022 H.B. 238), with Utah's own rule: June 19 on Tuesday to
    Friday makes the preceding Monday the legal holiday, on Saturday or Sunday the
    following Monday (63G-1-301(1)(b), as amended);
  * Easter Sunday from 2025 (2025 S.B. 259), a Sunday in any case.
- Utah Code 68-3-7 and 20A-1-401(3): leave out the first day, include the last; a last day
  on a Saturday, Sunday or legal holiday moves to the next day that is none of those.

- Days the governor proclaims as legal holidays under 63G-1-301 (a day of fasting or
  thanksgiving, or an extra holiday in extraordinary conditions) cannot be computed: the
  officer enters them in the case as extra closed days (:class:`ClosedDay`), and every
  deadline here takes them into account.

Assumption shown to users: the 2026 version that adds Good Friday is NOT CONFIRMED
(utah-law-notes §4b) and is not applied.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache


def _utah() -> tzinfo:
    try:
        from zoneinfo import ZoneInfo

        return ZoneInfo("America/Denver")
    except (ImportError, KeyError, OSError):  # no time-zone data: Mountain Standard Time
        return timezone(timedelta(hours=-7), "MST")


# Utah keeps Mountain Time, with daylight saving time (15 U.S.C. 260a).
UTAH = _utah()


def utah_local(dt: datetime) -> datetime:
    """A time as the clerk and the report read it: Utah local time, without a zone. Record
    stamps are stored in UTC (with their zone) and are converted; times the officer typed (a
    request's filing, the board's meeting) are local already. The workstation's own zone
    setting plays no part, so the window and the paper show the same time."""
    if dt.tzinfo is not None:
        dt = dt.astimezone(UTAH)
    return dt.replace(tzinfo=None, microsecond=0)

JUNETEENTH_FROM_YEAR = 2022
EASTER_FROM_YEAR = 2025
REQUEST_DEADLINE_TIME = time(17, 0)

HOLIDAY_ASSUMPTION = (
    "Legal holidays follow Utah Code 63G-1-301 as read for Recount Desk: Juneteenth from 2022 "
    "(Monday rule), Easter Sunday from 2025; Good Friday (a 2026 amendment) is not confirmed "
    "and is not applied."
)


@dataclass(frozen=True, slots=True)
class Holiday:
    day: date
    name: str


@dataclass(frozen=True, slots=True, order=True)
class ClosedDay:
    """A day the governor proclaimed a legal holiday (63G-1-301), entered in the case."""

    day: date
    reason: str

    @property
    def label(self) -> str:
        return f"{self.reason} (proclaimed by the governor, 63G-1-301)"


Closed = Collection[ClosedDay]


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    first = date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    return first + timedelta(days=offset + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> date:
    nxt = date(year + (month == 12), month % 12 + 1, 1)
    last = nxt - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def easter_sunday(year: int) -> date:
    """Gregorian Easter (anonymous Gregorian algorithm)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, day = divmod(h + ell - 7 * m + 114, 31)
    return date(year, month, day + 1)


def _observed_fixed(d: date) -> date:
    """63G-1-301(1)(a): Saturday -> preceding Friday; Sunday -> following Monday."""
    if d.weekday() == 5:
        return d - timedelta(days=1)
    if d.weekday() == 6:
        return d + timedelta(days=1)
    return d


def _observed_juneteenth(year: int) -> date:
    """63G-1-301(1)(b): June 19 on Tue-Fri -> the preceding Monday; Sat/Sun -> next Monday."""
    d = date(year, 6, 19)
    wd = d.weekday()
    if wd == 0:
        return d
    if wd <= 4:
        return d - timedelta(days=wd)
    return d + timedelta(days=7 - wd)


@lru_cache(maxsize=64)
def legal_holidays(year: int) -> tuple[Holiday, ...]:
    """The named legal holidays of ``year`` (Sundays, always holidays, are not listed).

    Kept per year (an immutable answer of a pure function): an overview of 1,000 contests
    asks for the same year's list once per contest."""
    mon, thu = 0, 3
    days = [
        Holiday(_observed_fixed(date(year, 1, 1)), "New Year's Day"),
        Holiday(_nth_weekday(year, 1, mon, 3), "Dr. Martin Luther King, Jr. Day"),
        Holiday(_nth_weekday(year, 2, mon, 3), "Washington and Lincoln Day"),
        Holiday(_last_weekday(year, 5, mon), "Memorial Day"),
        Holiday(_observed_fixed(date(year, 7, 4)), "Independence Day"),
        Holiday(_observed_fixed(date(year, 7, 24)), "Pioneer Day"),
        Holiday(_nth_weekday(year, 9, mon, 1), "Labor Day"),
        Holiday(_nth_weekday(year, 10, mon, 2), "Columbus Day"),
        Holiday(_observed_fixed(date(year, 11, 11)), "Veterans Day"),
        Holiday(_nth_weekday(year, 11, thu, 4), "Thanksgiving Day"),
        Holiday(_observed_fixed(date(year, 12, 25)), "Christmas"),
    ]
    if year >= JUNETEENTH_FROM_YEAR:
        days.append(Holiday(_observed_juneteenth(year), "Juneteenth National Freedom Day"))
    if year >= EASTER_FROM_YEAR:
        days.append(Holiday(easter_sunday(year), "Easter Sunday"))
    # A Saturday-observed Jan 1 falls on Dec 31 of the year before.
    nxt = _observed_fixed(date(year + 1, 1, 1))
    if nxt.year == year:
        days.append(Holiday(nxt, "New Year's Day (observed)"))
    return tuple(sorted((h for h in days if h.day.year == year), key=lambda h: h.day))


def holiday_name(d: date, closed: Closed = ()) -> str | None:
    """The reason ``d`` is not a business day, or None if it is one. ``closed``: the days
    the governor proclaimed legal holidays, as entered in the case."""
    if d.weekday() == 6:
        return "Sunday (a legal holiday, 63G-1-301)"
    for h in legal_holidays(d.year):
        if h.day == d:
            return h.name
    for c in closed:
        if c.day == d:
            return c.label
    if d.weekday() == 5:
        return "Saturday"
    return None


def is_business_day(d: date, closed: Closed = ()) -> bool:
    return holiday_name(d, closed) is None


def next_business_day(d: date, closed: Closed = ()) -> date:
    """``d`` itself if it is a business day, else the next day that is one."""
    while not is_business_day(d, closed):
        d += timedelta(days=1)
    return d


@dataclass(frozen=True, slots=True)
class Deadline:
    """A filing deadline: the last moment, and how it was computed."""

    due: datetime
    days: int
    start: date
    moved_from: date | None
    moved_because: str | None
    basis: str

    def explain(self) -> str:
        last = self.start + timedelta(days=self.days)
        text = (
            f"{self.days} days after the canvass completed on {long_date(self.start)}"
            f" is {long_date(last)}"
        )
        if self.moved_from is not None:
            text += f", a {self.moved_because}, so the period runs to {long_date(self.due.date())}"
        return text + f"; the request must be filed before 5:00 p.m. ({self.basis})."


def long_date(d: date) -> str:
    """'Tue Nov 24, 2026' on every platform (strftime's %-d is not portable)."""
    return f"{d:%a %b} {d.day}, {d.year}"


def add_days_utah(start: date, days: int, basis: str, closed: Closed = ()) -> Deadline:
    """Count ``days`` after ``start`` (first day excluded), moved off weekends and holidays
    (and the case's proclaimed ``closed`` days).

    Utah Code 68-3-7; 20A-1-401(3); 63G-1-301.
    """
    last = start + timedelta(days=days)
    due = next_business_day(last, closed)
    return Deadline(
        due=datetime.combine(due, REQUEST_DEADLINE_TIME),
        days=days,
        start=start,
        moved_from=last if due != last else None,
        moved_because=holiday_name(last, closed) if due != last else None,
        basis=basis,
    )


def first_business_day_at_least(start: date, days: int, closed: Closed = ()) -> date:
    """The first business day at least ``days`` calendar days after ``start`` (20A-1-304)."""
    return next_business_day(start + timedelta(days=days), closed)
