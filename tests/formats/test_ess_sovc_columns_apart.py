"""ES&S SOVC: one title in two places of the header band. Apart from each other and with
votes in the same precincts, the file cannot tell one contest with a column moved away
(Utah County 2020, GREG SKORDAS moved to the last column, read as a second Attorney General
"elected" alone) from two contests of one title: an error on each, no verdict on either.
Apart and in other precincts, they stay two districts' contests, as before."""

from __future__ import annotations

from pathlib import Path

from recount_desk.core.model import ContestKey, Severity
from recount_desk.formats import read_canvass

HEAD = ("COUNTY NUMBER,PRECINCT CODE,PRECINCT NAME,REGISTERED VOTERS TOTAL,BALLOTS CAST TOTAL,"
        "BALLOTS CAST BLANK,")


def _sovc(tmp_path: Path, titles: list[str], names: list[str],
          rows: list[tuple[str, list[int]]]) -> Path:
    lines = [HEAD + ",".join(titles), ",,,,,," + ",".join(["NON"] * len(titles)),
             ",,,VOTERS,BALLOTS CAST,BALLOTS CAST," + ",".join(names)]
    sums = [0] * len(titles)
    for k, (precinct, votes) in enumerate(rows):
        lines.append(f"10,{k + 1},{precinct},100,90,0," + ",".join(map(str, votes)))
        sums = [a + b for a, b in zip(sums, votes, strict=True)]
    lines.append("10,ZZZ,COUNTY TOTALS,300,270,0," + ",".join(map(str, sums)))
    p = tmp_path / "apart_sovc.csv"
    p.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return p


def test_a_column_moved_away_from_its_contest_withholds_both_parts(tmp_path: Path) -> None:
    # COUNTY COMMISSION: ANN, BOB in G–H and CY moved to the end (K), all in the same
    # precincts; CITY COUNCIL comes twice too, apart, but in other precincts (two cities).
    titles = ["COUNTY COMMISSION", "COUNTY COMMISSION", "CITY COUNCIL", "MAYOR", "MAYOR",
              "CITY COUNCIL", "COUNTY COMMISSION"]
    names = ["ANN", "BOB", "DEE", "EVE", "FAY", "GUS", "CY"]
    p = _sovc(tmp_path, titles, names, [
        ("Alpine 1", [40, 20, 11, 30, 25, 0, 30]),
        ("Alpine 2", [35, 25, 12, 28, 31, 0, 28]),
        ("Nebo 1", [30, 30, 0, 26, 33, 14, 25])])
    pc = read_canvass(p)
    errs = [i for i in pc.issues if i.severity is Severity.ERROR]
    assert {i.contest for i in errs} == {ContestKey("COUNTY COMMISSION", "#1"),
                                         ContestKey("COUNTY COMMISSION", "#2")}
    assert all(i.only_contest and "not side by side" in i.message for i in errs)
    first = next(i for i in errs if i.contest == ContestKey("COUNTY COMMISSION", "#1"))
    assert "columns G–H (ANN, BOB) and the columns M (CY)" in first.message
    assert "3 of the 3 with votes in M" in first.message and first.column == "G"
    assert {c.key for c in pc.withheld} == {ContestKey("COUNTY COMMISSION", "#1"),
                                            ContestKey("COUNTY COMMISSION", "#2")}
    # The two cities' councils share no precinct: two contests, read as before.
    council = {t.contest.key.district: {c.choice.name: c.votes for c in t.choices}
               for t in pc.totals if t.contest.key.title == "CITY COUNCIL"}
    assert council == {"#1": {"DEE": 23}, "#2": {"GUS": 14}}
    assert pc.blocking == []
