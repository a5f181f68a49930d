"""A proposition's votes are its votes for and against (20A-4-401(2)(a)). Daggett County's
2022 file (the shared corpus, openelections-ut/2022/counties) writes 'NO,' for 'NO' in one
precinct of a retention: that is the against side (a stray mark at the end of a stance), not
a third choice whose 21 votes fell out of both sides. A third line that is no stance at all
('N0', as a scan reads 'NO') withholds the verdict, with an error naming it. Rows made up."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import ChoiceKind, Severity
from recount_desk.core.rules import Verdict, proposition_votes

HEADER = "county,precinct,office,district,party,candidate,votes\n"


def _read(tmp_path: Path, third: str) -> tuple[object, object]:
    path = tmp_path / "20221108__ut__general__daggett__precinct.csv"
    path.write_text(HEADER
                    + "Daggett,1001,Daggett County Proposition 1,,,YES,150\n"
                    + "Daggett,1001,Daggett County Proposition 1,,,NO,120\n"
                    + "Daggett,1002,Daggett County Proposition 1,,,YES,90\n"
                    + f"Daggett,1002,Daggett County Proposition 1,,,{third},119\n",
                    encoding="utf-8")
    parsed = read_file(path)
    (check,) = check_parsed(parsed, election_date=date(2022, 11, 8)).contests
    return parsed, check


def test_a_stance_with_a_stray_comma_is_that_stance(tmp_path: Path) -> None:
    parsed, check = _read(tmp_path, '"NO,"')
    (prop,) = parsed.totals  # type: ignore[attr-defined]
    assert {c.choice.name: c.choice.kind for c in prop.choices} == {
        "YES": ChoiceKind.FOR, "NO": ChoiceKind.AGAINST, "NO,": ChoiceKind.AGAINST}
    assert proposition_votes(prop) == (240, 239)
    assert check.decision.verdict is Verdict.WITHIN_MARGIN  # type: ignore[attr-defined]


def test_a_third_line_that_is_no_stance_withholds_the_verdict(tmp_path: Path) -> None:
    parsed, check = _read(tmp_path, "N0")
    (err,) = [i for i in parsed.issues if i.severity is Severity.ERROR]  # type: ignore[attr-defined]
    assert "'N0' (119) are neither for nor against" in err.message
    assert err.contest.title == "Daggett County Proposition 1" and err.only_contest
    assert check.decision.verdict is Verdict.UNDECIDABLE  # type: ignore[attr-defined]
