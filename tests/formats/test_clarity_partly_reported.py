"""Clarity detail.xml of a count under way: a <Contest> whose own attributes say fewer
counties or precincts had reported than take part in it (precinctsReported against
precinctsParticipating, a precinctsReportingPercent below 100; the older county schema's
precinctsReporting against precinctsReported) is an error bound to that contest, and it
gets no verdict; a contest fully reported keeps its verdict. Before, such a file was
decided as if it were the canvass. The element layout follows the shared corpus's
formats/clarity_detail_xml files (a state's and a county's)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.actions.canvass import check_parsed, read_file
from recount_desk.core.model import ContestKey, Severity
from recount_desk.core.rules import Verdict

DATA = Path(__file__).resolve().parents[1] / "data" / "formats" / "clarity"


def _contest(key: str, title: str, attrs: str, ann: tuple[int, int], bob: tuple[int, int]
             ) -> str:
    def choice(ckey: str, name: str, votes: tuple[int, int]) -> str:
        return (f'<Choice key="{ckey}" text="{name}" party="NON" totalVotes="{sum(votes)}">'
                f'<VoteType name="Election Day" votes="{sum(votes)}">'
                f'<Precinct name="Alpha" votes="{votes[0]}" />'
                f'<Precinct name="Beta" votes="{votes[1]}" /></VoteType></Choice>')
    return (f'<Contest key="{key}" text="{title}" voteFor="1" isQuestion="false" {attrs}>\n  '
            + choice("1", "ANN", ann) + "\n  " + choice("2", "BOB", bob) + "\n</Contest>\n")


def _file(tmp_path: Path, first_attrs: str) -> Path:
    p = tmp_path / "detail.xml"
    p.write_text('<?xml version="1.0"?>\n<ElectionResult><ElectionName>2014 General Election'
                 "</ElectionName><ElectionDate>11/4/2014</ElectionDate><VoterTurnout "
                 'totalVoters="900" ballotsCast="800"><Precincts><Precinct name="Alpha" />'
                 '<Precinct name="Beta" /></Precincts></VoterTurnout>\n'
                 + _contest("1", "Mayor", first_attrs, (100, 101), (100, 100))
                 + _contest("2", "Sheriff", 'precinctsParticipating="2" precinctsReported="2" '
                            'precinctsReportingPercent="100.00"', (300, 10), (50, 60))
                 + "</ElectionResult>", encoding="utf-8")
    return p


@pytest.mark.parametrize(("attrs", "said"), [
    ('countiesParticipating="1" countiesReported="1" precinctsParticipating="2" '
     'precinctsReported="1" precinctsReportingPercent="50.00"',
     'precinctsReported="1" against precinctsParticipating="2"'),
    ('countiesParticipating="3" countiesReported="2"',
     'countiesReported="2" against countiesParticipating="3"'),
    ('precinctsReportingPercent="99.62"', 'precinctsReportingPercent="99.62"'),
    ('precinctsReporting="2" precinctsReported="1"',
     'precinctsReported="1" against precinctsReporting="2"'),
    ('precinctsParticipating="2" precinctsReported="3"', "contradicts itself"),
])
def test_a_contest_not_fully_reported_gets_no_verdict(tmp_path: Path, attrs: str,
                                                      said: str) -> None:
    parsed = read_file(_file(tmp_path, attrs))
    errors = [i for i in parsed.issues if i.severity is Severity.ERROR]
    assert len(errors) == 1 and errors[0].contest == ContestKey("Mayor")
    assert said in errors[0].message and "no verdict" in errors[0].message
    checks = {c.totals.contest.key.title: c.decision for c in check_parsed(parsed).contests}
    # Mayor: 200 to 201, within the margin on these figures; they are not the canvass.
    assert checks["Mayor"].verdict is Verdict.UNDECIDABLE
    assert checks["Sheriff"].verdict is Verdict.NOT_ELIGIBLE


@pytest.mark.parametrize("attrs", [
    "",
    'countiesParticipating="1" countiesReported="1" precinctsParticipating="2" '
    'precinctsReported="2" precinctsReportingPercent="100.00"',
    'precinctsReporting="2" precinctsReported="2"',
    'precinctsReported="" precinctsParticipating="n/a"',
])
def test_a_contest_fully_reported_or_silent_keeps_its_verdict(tmp_path: Path,
                                                              attrs: str) -> None:
    parsed = read_file(_file(tmp_path, attrs))
    assert not [i for i in parsed.issues if i.severity is Severity.ERROR]
    checks = {c.totals.contest.key.title: c.decision for c in check_parsed(parsed).contests}
    assert checks["Mayor"].verdict is Verdict.WITHIN_MARGIN


@pytest.mark.parametrize("name", ["arkansas-2014-general-detail.xml",
                                  "greenup-ky-2014-primary-detail.xml"])
def test_the_real_files_say_every_precinct_reported(name: str) -> None:
    parsed = read_file(DATA / name)
    assert not [i for i in parsed.issues if "had reported" in i.message]
