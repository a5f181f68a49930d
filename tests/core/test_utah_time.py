"""Record stamps (UTC) read as Utah time, the same in the window and on the report, whatever
the workstation's own time-zone setting (core.calendar.utah_local)."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime

import pytest

from recount_desk.core.calendar import utah_local


@pytest.mark.parametrize("tz", ["UTC", "Asia/Tokyo", "America/Denver"])
def test_a_utc_stamp_is_read_as_utah_time_on_any_workstation(
        tz: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", tz)
    if hasattr(time, "tzset"):
        time.tzset()
    try:
        # the demo's declaration: 4:02 p.m. on December 5, 2016 in Salt Lake City (MST)
        assert utah_local(datetime(2016, 12, 5, 23, 2, tzinfo=UTC)) == \
            datetime(2016, 12, 5, 16, 2)
        # summer: daylight saving time (MDT, UTC-6), e.g. a June primary's canvass
        assert utah_local(datetime(2024, 7, 9, 18, 0, tzinfo=UTC)) == \
            datetime(2024, 7, 9, 12, 0)
        # a time the officer typed is local already
        assert utah_local(datetime(2016, 11, 29, 10, 15, 30)) == datetime(2016, 11, 29, 10, 15, 30)
    finally:
        monkeypatch.delenv("TZ")
        if hasattr(time, "tzset"):
            time.tzset()
    assert os.environ.get("TZ") is None


def test_the_window_shows_a_stamp_as_the_report_prints_it() -> None:
    from recount_desk.ui.recount.common import stamp_text

    assert stamp_text("2016-12-05T23:02:00+00:00") == "Dec 5, 2016 4:02 p.m."
