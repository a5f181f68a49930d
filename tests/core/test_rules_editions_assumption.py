"""Which text of 20A-4-401 is applied, and when that is an assumption (core.rules.Edition)."""

from __future__ import annotations

from datetime import date

from recount_desk.core.rules import Edition, edition_for


def test_an_election_before_the_oldest_text_held_says_the_text_is_assumed() -> None:
    ed = edition_for(date(2016, 11, 8))
    assert ed is Edition.Y2019
    said = ed.assumption(date(2016, 11, 8))
    assert said is not None and said.startswith("ASSUMED") and "2016" in said
    assert "2013 H.B. 85" in said  # the margin rule is the one confirmed unchanged since


def test_no_assumption_for_elections_the_texts_held_cover() -> None:
    assert Edition.Y2019.assumption(date(2022, 11, 8)) is None
    assert edition_for(date(2024, 11, 5)).assumption(date(2024, 11, 5)) is None
    assert "2024 H.B. 515" in Edition.Y2024.label and "2019–2023" in Edition.Y2019.label
