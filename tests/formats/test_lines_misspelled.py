"""A race's line that is no candidate, misspelled as a scan reads it into text ('Ovetvotes'
in Piute County's 2022 file, 'Llortervotes' and 'No1 Assigned' in Kane's,
the shared corpus's openelections-ut/2022/counties), is read as a candidate: said, and where it
holds votes (they are in the race's total, and it ranks among the candidates) the race gets
no verdict. Candidates' names that only resemble such a word are left alone. Rows made up."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import Severity
from recount_desk.core.rules import Verdict

HEADER = "county,precinct,office,district,party,candidate,votes\n"


def _check(tmp_path: Path, name: str, votes: int) -> tuple[list[object], Verdict]:
    path = tmp_path / "20221108__ut__general__piute__precinct.csv"
    path.write_text(HEADER
                    + "Piute,Junction,County Commissioner B,,REP,Pat Able,240\n"
                    + "Piute,Junction,County Commissioner B,,DEM,Lee Baker,150\n"
                    + f"Piute,Junction,County Commissioner B,,,{name},{votes}\n",
                    encoding="utf-8")
    parsed = read_file(path)
    said = [i for i in parsed.issues if "misspelled" in i.message]
    (check,) = check_parsed(parsed, election_date=date(2022, 11, 8)).contests
    return said, check.decision.verdict


def test_a_misspelled_line_with_votes_withholds_the_verdict(tmp_path: Path) -> None:
    said, verdict = _check(tmp_path, "Underv0tes", 260)
    (err,) = said
    assert err.severity is Severity.ERROR and err.only_contest  # type: ignore[attr-defined]
    assert "'Underv0tes' (260 votes) looks like 'Undervotes' misspelled" in \
        err.message  # type: ignore[attr-defined]
    assert verdict is Verdict.UNDECIDABLE


@pytest.mark.parametrize(("name", "like"), [("Ovetvotes", "'Overvotes'"),
                                            ("Llortervotes", "a count line"),
                                            ("No1 Assigned", "'Not Assigned'")])
def test_a_misspelled_line_without_votes_is_said(tmp_path: Path, name: str, like: str) -> None:
    said, verdict = _check(tmp_path, name, 0)
    (warn,) = said
    assert warn.severity is Severity.WARNING  # type: ignore[attr-defined]
    assert f"looks like {like} misspelled" in warn.message  # type: ignore[attr-defined]
    assert verdict is Verdict.NOT_ELIGIBLE


@pytest.mark.parametrize("name", ["Don Blankenship", "Undervood", "Ovett Voss", "Overton"])
def test_names_that_only_resemble_a_line_are_candidates(tmp_path: Path, name: str) -> None:
    said, _ = _check(tmp_path, name, 30)
    assert said == []
