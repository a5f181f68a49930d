"""A statistic row filed under a contest in a long table (Sevier's 2022 OpenElections file,
the shared corpus's ``openelections-ut/2022/counties/20221108__ut__general__sevier__precinct.csv``,
puts "REGISTERED VOTERS - TOTAL" and "BALLOTS CAST - TOTAL" under "Constitutional Amendment
A" in some precincts): never read as a choice of the contest."""

from __future__ import annotations

from pathlib import Path

from recount_desk.actions.canvass import read_file


def test_a_statistic_under_an_office_is_no_choice(tmp_path: Path) -> None:
    path = tmp_path / "20221108__ut__general__sevier__precinct.csv"
    path.write_text(
        "county,precinct,office,district,party,candidate,votes\n"
        "SEVIER,Annabella 1,,,,REGISTERED VOTERS - TOTAL,542\n"
        "SEVIER,Annabella 1,,,,BALLOTS CAST - TOTAL,369\n"
        "SEVIER,Annabella 1,Constitutional Amendment A,,,FOR,120\n"
        "SEVIER,Annabella 1,Constitutional Amendment A,,,AGAINST,200\n"
        "SEVIER,Aurora 2,Constitutional Amendment A,,,REGISTERED VOTERS - TOTAL,702\n"
        "SEVIER,Aurora 2,Constitutional Amendment A,,,BALLOTS CAST - TOTAL,468\n"
        "SEVIER,Aurora 2,Constitutional Amendment A,,,FOR,150\n"
        "SEVIER,Aurora 2,Constitutional Amendment A,,,AGAINST,250\n", encoding="utf-8")
    parsed = read_file(path)
    (amendment,) = parsed.totals
    assert [(c.choice.name, c.votes) for c in amendment.choices] == [("FOR", 270),
                                                                     ("AGAINST", 450)]
