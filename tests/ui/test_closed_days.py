"""Issue #12 (8): File › Proclaimed holidays… (63G-1-301), an audited case setting."""

from __future__ import annotations

from datetime import date

import pytest
from pytestqt.qtbot import QtBot

from recount_desk.core.calendar import ClosedDay
from recount_desk.ui.dialogs.closed_days import parse_closed_days
from recount_desk.ui.main_window import MainWindow


@pytest.mark.parametrize(
    ("text", "days", "problems"),
    [("2026-11-24 Day of mourning\n", [ClosedDay(date(2026, 11, 24), "Day of mourning")], 0),
     ("11/24/2026 Day of mourning", [ClosedDay(date(2026, 11, 24), "Day of mourning")], 0),
     ("Nov 24, 2026 Day of mourning",
      [ClosedDay(date(2026, 11, 24), "Day of mourning")], 0),
     ("\n\n", [], 0), ("24/11/2026 Mourning", [], 1), ("2026-11-24", [], 1)],
    ids=["63G-1-301 one day", "63G-1-301 US date", "63G-1-301 month in words",
         "63G-1-301 none", "63G-1-301 not a US date", "63G-1-301 no reason"],
)
def test_parse_closed_days(text: str, days: list[ClosedDay], problems: int) -> None:
    got, errs = parse_closed_days(text)
    assert got == days
    assert len(errs) == problems


def test_proclaimed_holiday_moves_the_deadline_shown(empty_case: MainWindow,
                                                     qtbot: QtBot) -> None:
    window = empty_case
    assert window.case is not None
    dlg = window.edit_closed_days()
    assert dlg is not None
    dlg.text.setPlainText("2024-11-26 Day of mourning")  # the case's canvass: 2024-11-19
    dlg._accept()
    qtbot.waitUntil(lambda: bool(window.case and window.case.closed_days))
    assert window.case.closed_days == (ClosedDay(date(2024, 11, 26), "Day of mourning"),)
    again = window.edit_closed_days()
    assert again is not None
    assert again.text.toPlainText() == "11/26/2024 Day of mourning"  # as a US clerk writes it
    again.reject()
