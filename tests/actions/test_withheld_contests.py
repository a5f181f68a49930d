"""An error in one contest's own figures withholds that contest's verdict and no other's: the
file is imported, the contest has no verdict until the file is corrected, and a whole race
is not added up from a county file whose reading refused its figures (issue 16).

Piute 2022 is OpenElections' file (tests/data/openelections): its County Clerk/Auditor
candidate is spelled three ways (``KALI GLEAVE``, ``KALI CLEAVE``, ``KALE GLEAVE``), and
several contests are spelled two ways (``County Commissioner B``, ``County Cornmissioner B``).
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime
from pathlib import Path

import pytest

from recount_desk.actions import canvass, contests, verify, whole_case
from recount_desk.actions.case import Case, create_case, open_case
from recount_desk.core.model import Election, ElectionKind, Severity
from recount_desk.core.rules import Verdict
from recount_desk.store import repo

DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"
PIUTE = DATA / "20221108__ut__general__piute__precinct.csv"
GRAND = DATA / "20181106__ut__general__grand__precinct.csv"
CARBON = DATA / "trimmed" / "2018" / "20181106__ut__general__carbon__precinct.csv"
OTHERS = [DATA / "trimmed" / "2018" / f"20181106__ut__general__{c}__precinct.csv"
          for c in ("duchesne", "emery")]


def new_case(path: Path, name: str, when: date, county: str) -> Case:
    return create_case(path, Election(name, when, ElectionKind.GENERAL, county,
                                      datetime.combine(when, datetime.min.time()), "Clerk"),
                       actor="clerk")


def by_title(case: Case) -> dict[str, contests.ContestRow]:
    return {r.check.totals.contest.key.label(): r for r in contests.overview(case)}


def test_a_contest_with_errors_in_its_own_figures_is_imported_with_no_verdict(
        tmp_path: Path) -> None:
    parsed = canvass.read_file(PIUTE)
    assert parsed.errors and not parsed.blocking
    withheld = {c.key.label() for c in parsed.withheld}
    assert {"County Clerk/Auditor", "County Commissioner B",
            "County Cornmissioner B"} <= withheld
    checked = {c.totals.contest.key.label(): c for c in canvass.check_parsed(parsed).contests}

    case = new_case(tmp_path / "piute.recount", "2022 General", date(2022, 11, 8),
                    "Piute County")
    canvass.import_canvass(case, parsed)
    rows = by_title(case)
    for label, row in rows.items():
        d = row.check.decision
        if label in withheld:
            # No verdict on the contest's figures: they are not the contest's as read.
            assert d.verdict in (Verdict.UNDECIDABLE, Verdict.PORTION), label
            if d.verdict is Verdict.UNDECIDABLE:
                assert "own figures" in d.explanation
        else:
            # The others are decided as the check of the file decides them.
            assert d.verdict is checked[label].decision.verdict, label
    assert rows["County Clerk/Auditor"].check.decision.verdict is Verdict.UNDECIDABLE
    assert rows["County Sheriff"].check.decision.verdict is Verdict.UNCONTESTED
    # The errors are kept with the contest they are bound to, and the audit entry says so.
    stored = [i for i in repo.import_issues(case.conn) if i.severity is Severity.ERROR]
    assert {i.contest.label() for i in stored if i.contest} == withheld
    assert all(i.contest is not None for i in stored)
    payload = json.loads(case.conn.execute(
        "SELECT payload FROM audit WHERE action='import canvass'").fetchone()[0])
    assert set(payload["data"]["withheld"]) == withheld
    case.close()
    assert verify.verify_case(tmp_path / "piute.recount").ok
    with open_case(tmp_path / "piute.recount", actor="clerk") as again:
        assert by_title(again)["County Clerk/Auditor"].check.decision.verdict \
            is Verdict.UNDECIDABLE


def test_an_error_that_could_be_any_contests_still_refuses_the_whole_file(
        tmp_path: Path) -> None:
    lines = PIUTE.read_text().splitlines()
    # A count in a row whose contest is not known (no office): it could be any contest's.
    k = next(k for k, line in enumerate(lines) if ",County Sheriff,,REP," in line)
    lines[k] = lines[k].replace(",County Sheriff,,REP,", ",,,REP,")
    bad = tmp_path / "20221108__ut__general__piute__precinct.csv"
    bad.write_text("\n".join(lines) + "\n")
    parsed = canvass.read_file(bad)
    assert [(i.row, i.column) for i in parsed.blocking] == [(k + 1, "office")]
    case = new_case(tmp_path / "piute.recount", "2022 General", date(2022, 11, 8),
                    "Piute County")
    case.close()
    before = hashlib.sha256((tmp_path / "piute.recount").read_bytes()).hexdigest()
    with open_case(tmp_path / "piute.recount", actor="clerk") as case, \
            pytest.raises(canvass.ImportRefused, match="Nothing was changed"):
        canvass.import_canvass(case, parsed)
    assert hashlib.sha256((tmp_path / "piute.recount").read_bytes()).hexdigest() == before


def test_a_whole_race_is_not_added_up_from_a_county_file_with_errors_in_it(
        tmp_path: Path) -> None:
    case = new_case(tmp_path / "grand.recount", "2018 General", date(2018, 11, 6),
                    "Grand County")
    canvass.import_canvass(case, canvass.read_file(GRAND))
    # One of Carbon's counts is no number: the reader refuses it, and a count not read
    # could be any of the file's contests', so Carbon's figures of the race are not known.
    text = CARBON.read_text().replace(
        "Carbon,02 Scofield,State House,69,Dem,Tim Glenn,6",
        "Carbon,02 Scofield,State House,69,Dem,Tim Glenn,6?")
    carbon = tmp_path / CARBON.name
    carbon.write_text(text)
    assert [i.row for i in canvass.read_file(carbon).errors] == [82]
    out = {c.label: c for c in whole_case.combine_counties(case, [carbon, *OTHERS])}
    hd69 = out["State House — District 69"]
    assert hd69.refused is not None and "error" in hd69.refused
    row = by_title(case)["State House — District 69"]
    # Still Grand's portion: no whole-race figure was recorded from the files.
    assert row.check.decision.verdict is Verdict.PORTION
    assert {c.choice.name: c.votes for c in row.check.totals.choices} != {
        "Tim Glenn": 3320, "Christine Watkins": 8589}
    case.close()
