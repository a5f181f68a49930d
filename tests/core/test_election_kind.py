"""Issue #12 (1): the election kind from the file, never guessed silently (20A-4-401(1)(d))."""

from __future__ import annotations

from datetime import date

import pytest

from recount_desk.core.election_kind import KindSource, infer_kind
from recount_desk.core.model import Contest, ContestKey, ElectionKind
from recount_desk.core.rules import seats_assumption, seats_in_title, several_seats_hint

K = ElectionKind


@pytest.mark.parametrize(
    ("names", "when", "primary", "titles", "kind", "source"),
    [
        (("2025 Municipal Primary Election",), None, None, ["Mayor"], K.MUNICIPAL_PRIMARY,
         KindSource.FILE),
        (("Primary Election",), date(2025, 8, 12), None, ["Council Seat 2"],
         K.MUNICIPAL_PRIMARY, KindSource.FILE),
        ((None, "results"), None, True, ["Mayor", "City Council"], K.MUNICIPAL_PRIMARY,
         KindSource.FILE),
        (("2026 Primary Election",), date(2026, 6, 23), None, ["U.S. House"], K.PRIMARY,
         KindSource.FILE),
        (("Municipal General Election",), None, None, ["Mayor"], K.MUNICIPAL_GENERAL,
         KindSource.FILE),
        (("General Election",), date(2023, 11, 7), None, ["Mayor"], K.MUNICIPAL_GENERAL,
         KindSource.FILE),
        ((None, "20181106__ut__general__grand__precinct"), date(2018, 11, 6), None,
         ["U.S. Senate"], K.GENERAL, KindSource.FILE),
        (("Special Election",), None, None, ["Prop 1"], K.SPECIAL, KindSource.FILE),
        (("Weber Fire Special District Election",), None, None, [], K.SPECIAL_DISTRICT,
         KindSource.FILE),
        ((None, "export1"), None, None, ["U.S. Senate"], K.GENERAL, KindSource.ASSUMED),
        ((None, "export1"), date(2025, 11, 4), None, ["Mayor"], K.MUNICIPAL_GENERAL,
         KindSource.ASSUMED),
        ((None, "export1"), None, None, ["Mayor", "City Council"], K.MUNICIPAL_GENERAL,
         KindSource.ASSUMED),
    ],
    ids=["(1)(d)(i) title says municipal primary", "(1)(d)(i) primary in an odd year",
         "(1)(d)(i) primary of city offices only", "(1)(d)(ii) even-year primary",
         "(1)(d)(ii)(A) title says municipal general",
         "(1)(d)(ii)(A) general in an odd year", "(1)(d)(ii)(C) general in the file name",
         "(1)(d)(ii) special election", "(1)(d)(ii)(B) special district election",
         "(1)(d)(ii) nothing tells: general assumed",
         "(1)(d)(ii)(A) odd year, kind unnamed: assumed municipal general",
         "(1)(d)(ii)(A) city offices, kind unnamed: assumed"],
)
def test_kind_from_the_file_or_shown_as_assumed(names: tuple[str | None, ...],
                                                when: date | None, primary: bool | None,
                                                titles: list[str], kind: ElectionKind,
                                                source: KindSource) -> None:
    got = infer_kind(names=names, election_date=when, primary=primary, titles=titles)
    assert (got.kind, got.source) == (kind, source)
    assert got.reason
    if source is KindSource.ASSUMED:
        assert "ASSUMED" in got.describe()


@pytest.mark.parametrize(
    ("title", "seats", "hint"),
    [("City Council (Vote for 2)", 2, "Council"), ("U.S. SENATE ( 1)", 1, None),
     ("Council Member At-Large", None, "Council"), ("Lake Point City Council 3 yr", None,
                                                     "Council"),
     ("School Board Members Vote For 3", 3, "Members"), ("U.S. Senate", None, None),
     ("CONSTABLE, JUSTICE PRECINCT 1", None, None), ("At-Large Seat", None, "At-Large")],
    ids=["(1)(e)(v) 'Vote for 2' states two seats", "(1)(e)(iv) Clarity '( 1)'",
         "(1)(e)(v) at-large council suggests several", "(1)(e)(v) '3 yr' council",
         "(1)(e)(v) 'Vote For 3'", "(1)(e)(iv) plain office", "(1)(e)(iv) one constable",
         "(1)(e)(v) at-large"],
)
def test_seats_from_the_title(title: str, seats: int | None, hint: str | None) -> None:
    assert seats_in_title(title) == seats
    got = several_seats_hint(title)
    assert (got is None) is (hint is None)
    if hint:
        assert got is not None and got.casefold() == hint.casefold()


def test_seats_assumption_is_loud_only_where_the_title_suggests_several() -> None:
    loud = seats_assumption(Contest(ContestKey("City Council At-Large")))
    quiet = seats_assumption(Contest(ContestKey("Mayor")))
    stated = seats_assumption(Contest(ContestKey("City Council"), seats=2,
                                      seats_from_file=True))
    assert loud is not None and loud.startswith("SEATS NOT STATED")
    assert quiet is not None and not quiet.startswith("SEATS NOT STATED")
    assert stated is None
