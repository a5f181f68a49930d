"""Clarity detail.xml: one <Contest key> twice. A key names one contest, so a second element
of it is a copy (identical: read once, with a warning) or a contradiction (different: an
error on each, no verdict on either); it was read as a phantom second contest '… #2'."""

from __future__ import annotations

from pathlib import Path

from recount_desk.core.model import ContestKey, Severity
from recount_desk.formats import read_canvass


def _contest(key: str, title: str, ann: tuple[int, int], bob: tuple[int, int]) -> str:
    def choice(ckey: str, name: str, votes: tuple[int, int]) -> str:
        return (f'<Choice key="{ckey}" text="{name}" party="NON" totalVotes="{sum(votes)}">'
                f'<VoteType name="Election Day" votes="{sum(votes)}">'
                f'<Precinct name="Alpha" votes="{votes[0]}" />'
                f'<Precinct name="Beta" votes="{votes[1]}" /></VoteType></Choice>')
    return (f'<Contest key="{key}" text="{title}" voteFor="1" isQuestion="false">\n  '
            + choice("1", "ANN", ann) + "\n  " + choice("2", "BOB", bob) + "\n</Contest>\n")


def _file(tmp_path: Path, contests: list[str]) -> Path:
    p = tmp_path / "detail.xml"
    p.write_text('<?xml version="1.0"?>\n<ElectionResult><ElectionName>2014 General Election'
                 "</ElectionName><ElectionDate>11/4/2014</ElectionDate><VoterTurnout "
                 'totalVoters="90" ballotsCast="80"><Precincts><Precinct name="Alpha" />'
                 '<Precinct name="Beta" /></Precincts></VoterTurnout>\n'
                 + "".join(contests) + "</ElectionResult>", encoding="utf-8")
    return p


def test_a_contest_element_written_twice_identically_is_read_once(tmp_path: Path) -> None:
    mayor = _contest("4", "MAYOR", (20, 15), (10, 12))
    pc = read_canvass(_file(tmp_path, [mayor, _contest("5", "SHERIFF", (5, 6), (7, 8)),
                                       mayor]))
    assert [c.key for c in pc.contests] == [ContestKey("MAYOR"), ContestKey("SHERIFF")]
    t = next(t for t in pc.totals if t.contest.key.title == "MAYOR")
    assert {c.choice.name: c.votes for c in t.choices} == {"ANN": 35, "BOB": 22}
    hits = [i for i in pc.issues if "key=\"4\" ('MAYOR')" in i.message]
    assert len(hits) == 1 and hits[0].severity is Severity.WARNING
    assert "read once" in hits[0].message and pc.errors == []


def test_one_key_on_two_different_contest_elements_is_an_error_on_both(tmp_path: Path) -> None:
    pc = read_canvass(_file(tmp_path, [_contest("4", "MAYOR", (20, 15), (10, 12)),
                                       _contest("4", "MAYOR", (20, 15), (10, 2))]))
    errs = [i for i in pc.issues if i.severity is Severity.ERROR]
    assert {i.contest for i in errs} == {ContestKey("MAYOR"), ContestKey("MAYOR", "#2")}
    assert all('key="4" comes twice' in i.message and "'MAYOR', then 'MAYOR'" in i.message
               and i.only_contest for i in errs)
    assert {c.key for c in pc.withheld} == {ContestKey("MAYOR"), ContestKey("MAYOR", "#2")}
