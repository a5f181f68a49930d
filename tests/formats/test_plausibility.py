"""The plausibility gate and hand-built layouts the readers once misread (issue #16).

Every layout of :mod:`tests.formats.handbuilt_layouts` reads right, or is refused, or is
marked doubtful so the wizard goes to the mapping page: never a wrong reading offered as done.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from handbuilt_layouts import NAMED, REFUSED, Expected, Layout, write
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recount_desk.formats import ImportFailed, ReadOptions, read_canvass


def reading(parsed) -> tuple[dict, dict]:
    totals = {t.contest.key.title: {c.choice.name: c.votes for c in t.choices}
              for t in parsed.totals}
    parties = {t.contest.key.title: {c.choice.name: c.choice.party for c in t.choices}
               for t in parsed.totals}
    return totals, parties


def right(parsed, exp: Expected) -> bool:
    totals, parties = reading(parsed)
    want_parties = {t: {c: p for c, p in cs.items()} for t, cs in exp.parties.items()}
    # A precinct suppressed in its only contest has no counts to read.
    missing = set(exp.precincts) - set(parsed.precincts)
    seats = {c.key.title: c.seats for c in parsed.contests if c.key.title in exp.seats}
    return (not exp.refused and totals == exp.totals and parties == want_parties
            and set(parsed.precincts) <= set(exp.precincts) and missing <= set(exp.hidden)
            and seats == exp.seats)


def offered_as_done(parsed) -> bool:
    return not parsed.doubtful and not parsed.errors


@pytest.mark.parametrize("name", list(NAMED), ids=list(NAMED))
def test_named_layouts_read_right_and_are_offered_as_done(tmp_path, name):
    exp = write(NAMED[name], tmp_path / f"{name}.xlsx")
    parsed = read_canvass(tmp_path / f"{name}.xlsx")
    assert parsed.family == "handbuilt"
    assert reading(parsed) == (exp.totals, exp.parties)
    assert right(parsed, exp)
    assert offered_as_done(parsed), parsed.doubts + [str(i) for i in parsed.errors]
    assert parsed.detection is not None and parsed.detection.confidence >= 50


@pytest.mark.parametrize("name", list(REFUSED), ids=list(REFUSED))
def test_layouts_with_no_right_reading_are_refused_with_a_sentence(tmp_path, name):
    exp = write(REFUSED[name], tmp_path / f"{name}.xlsx")
    assert exp.refused
    with pytest.raises(ImportFailed) as e:
        read_canvass(tmp_path / f"{name}.xlsx")
    said = e.value.issue.message
    assert ("no 'Total' column" in said and "'Mike Lee'" in said) or \
        ("no 'Total' row" in said and "'Vote Type'" in said)
    assert e.value.issue.row is not None


def test_a_vote_for_row_gives_each_contest_its_seats(tmp_path):
    write(NAMED["vote-for-row"], tmp_path / "t.xlsx")
    parsed = read_canvass(tmp_path / "t.xlsx")
    seats = {c.key.title: (c.seats, c.seats_from_file) for c in parsed.contests}
    assert seats["County Commission Seat A"] == (2, True)
    assert seats["US Senate"] == (1, True)
    assert not any("does not say how many seats" in i.message for i in parsed.issues)


def test_a_turnout_column_between_contests_is_left_out_and_named(tmp_path):
    write(NAMED["turnout-between-contests"], tmp_path / "t.xlsx")
    parsed = read_canvass(tmp_path / "t.xlsx")
    assert not any("Turn out" in ch.name for chs in parsed.choices for ch in chs)
    note = next(i for i in parsed.issues if "Statistics columns" in i.message)
    assert "'Turn out %'" in note.message and note.row == 4


def test_the_primary_recount_sheet_is_a_primary_named_by_its_sheet(tmp_path):
    write(NAMED["primary-recount-sheet"], tmp_path / "t.xlsx")
    parsed = read_canvass(tmp_path / "t.xlsx")
    assert parsed.primary is True


def _sheet(path: Path, rows: list[list[object]], title: str = "2024 General") -> Path:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for r in rows:
        ws.append(r)
    wb.save(path)
    return path


def _raw(rows, where=None):
    import pandas as pd

    from recount_desk.formats.base import RawCanvass

    df = pd.DataFrame(rows, columns=["precinct", "contest", "district", "party", "choice",
                                     "choice_party", "kind", "votes"])
    return RawCanvass("x.csv", "long", df, sheet="S", where=where or {})


def test_every_contest_with_one_candidate_is_an_error_naming_where():
    from recount_desk.formats import plausibility
    from recount_desk.formats.canvass import build

    names = ["Ann Able", "Bob Baker", "Cy Cole", "Di Dunn"]
    raw = _raw([("P1", n, "", "", "Republican", "", "candidate", 10 + k)
                for k, n in enumerate(names)], {("Ann Able", "", "", ""): (3, "E")})
    parsed = plausibility.gate(raw, build(raw))
    err = next(i for i in parsed.errors if "single candidate" in i.message)
    assert (err.sheet, err.row, err.column) == ("S", 3, "E")
    assert parsed.doubtful


def test_a_party_row_in_unknown_words_is_not_read_as_contests_silently(tmp_path):
    names = ["Ann Able", "Bob Baker", "Cy Cole", "Di Dunn", "Ed Eads"]
    path = _sheet(tmp_path / "c.xlsx", [
        ["2024 General Election"],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", *names],
        ["", "", "", "", "Whig", "Tory", "Whig", "Tory", "Whig"],
        ["P1", 100, 60, 0.6, 10, 20, 30, 25, 5],
        ["P2", 100, 60, 0.6, 11, 21, 31, 26, 6],
    ])
    parsed = read_canvass(path)
    assert parsed.doubtful
    w = next(i for i in parsed.issues if "names 'Whig' again" in i.message)
    assert (w.sheet, w.row, w.column) == ("2024 General", 2, "E")
    assert parsed.detection is not None and parsed.detection.confidence < 50


def test_a_statistic_read_as_a_choice_is_an_error():
    from recount_desk.formats import plausibility
    from recount_desk.formats.canvass import build

    raw = _raw([("P1", "Mayor", "", "", n, "", "candidate", v)
                for n, v in (("Ann", 30), ("Bob", 20), ("Turn out %", 55))],
               {("Mayor", "", "", "Turn out %"): (7, "C")})
    parsed = plausibility.gate(raw, build(raw))
    err = next(i for i in parsed.errors if "'Turn out %'" in i.message)
    assert (err.row, err.column) == (7, "C") and parsed.doubtful


def test_fractions_under_a_candidate_are_an_error_and_doubtful(tmp_path):
    path = _sheet(tmp_path / "f.xlsx", [
        ["", "", "", "", "Mayor", ""],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turnover", "Ann", "Bob"],
        ["P1", 100, 60, 0.6, 30, 0.25],
        ["P2", 100, 60, 0.6, 31, 0.5],
    ])
    parsed = read_canvass(path)
    assert parsed.doubtful
    assert any("fractions or percentages" in i.message and i.column == "F"
               for i in parsed.errors)


def test_more_votes_than_ballots_is_an_error_naming_the_precinct_row(tmp_path):
    path = _sheet(tmp_path / "b.xlsx", [
        ["", "", "", "", "Mayor (Vote for 1)", ""],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann", "Bob"],
        ["P1", 100, 60, 0.6, 30, 20],
        ["P2", 100, 40, 0.4, 31, 29],
        ["COUNTY TOTALS", 200, 100, 0.5, 61, 49],
    ])
    parsed = read_canvass(path)
    err = next(i for i in parsed.errors if "ballots cast" in i.message)
    assert "'P2'" in err.message and (err.row, err.column) == (4, "C")
    assert parsed.doubtful


def test_a_contest_titled_with_a_candidates_name_is_doubtful(tmp_path):
    path = _sheet(tmp_path / "n.xlsx", [
        ["", "", "", "", "Mayor", "", "Ann Able", ""],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann Able",
         "Bob Baker", "Cy Cole", "Di Dunn"],
        ["P1", 100, 60, 0.6, 30, 20, 25, 30],
    ])
    parsed = read_canvass(path)
    assert parsed.doubtful
    w = next(i for i in parsed.issues if "titled with the name of a candidate" in i.message)
    assert (w.row, w.column) == (2, "G")


def test_a_sheet_without_contest_titles_is_doubtful_not_done(tmp_path):
    path = _sheet(tmp_path / "r.xlsx", [
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann",
         "Bob", "Cy", "Di"],
        ["P1", 100, 60, 0.6, 30, 20, 25, 30],
    ])
    parsed = read_canvass(path)
    assert [c.key.title for c in parsed.contests] == ["Results"]
    assert parsed.doubtful


def test_check_says_the_reading_looks_wrong_and_fails(tmp_path, capsys):
    from recount_desk import cli

    path = _sheet(tmp_path / "r.xlsx", [
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann",
         "Bob"],
        ["P1", 100, 60, 0.6, 30, 20],
    ])
    code = cli.main(["check", str(path), "--date", "2024-11-05"])
    out = capsys.readouterr().out
    assert code != 0
    assert "THIS READING LOOKS WRONG" in out and "'Results'" in out


def test_real_files_stay_plausible():
    data = Path(__file__).parents[1] / "data"
    for p in [data / "formats" / "handbuilt" / "Juab Precinct Results.xlsx",
              data / "formats" / "clarity" / "arkansas-2014-general-detail.xml"]:
        parsed = read_canvass(p)
        assert not parsed.doubtful, (p.name, parsed.doubts)
    for sheet in ("2022 Primary", "2021 General"):
        parsed = read_canvass(data / "formats" / "handbuilt" / "Juab Precinct Results.xlsx",
                              options=ReadOptions(sheet=sheet))
        assert not parsed.doubtful, (sheet, parsed.doubts)


layouts = st.builds(
    Layout,
    band=st.permutations(["contest", "names", "party"]).map(tuple)
    | st.permutations(["contest", "names"]).map(tuple),
    stats_on=st.sampled_from(["contest", "names"]),
    party_style=st.sampled_from(sorted(["codes", "words", "letters"])),
    merged_titles=st.booleans(), turnout_between=st.booleans(), shuffle_rows=st.booleans(),
    federal_row=st.booleans(), suppressed=st.booleans(), stats_sheet_first=st.booleans(),
    contests=st.integers(1, 5), precincts=st.integers(2, 8), seed=st.integers(0, 10**6),
    modes=st.sampled_from(["", "total-last", "total-first", "no-total", "total-votes", "tot",
                           "grand-total"]),
    vote_for=st.booleans(), subtotal=st.booleans(),
    mode_rows=st.sampled_from(["", "", "total", "no-total"]), split_names=st.booleans(),
    no_stats=st.booleans(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(layout=layouts)
def test_no_generated_layout_is_read_wrong_and_offered_as_done(tmp_path, layout):
    path = tmp_path / "layout.xlsx"
    exp = write(layout, path)
    try:
        parsed = read_canvass(path)
    except ImportFailed as e:
        refusal = e.issue.message
        parsed = None
    if parsed is None:
        assert refusal  # refused, with a sentence
    elif offered_as_done(parsed):
        assert right(parsed, exp), (layout, reading(parsed), exp)


def test_a_bug_in_a_detector_is_raised_not_taken_for_an_unknown_layout(monkeypatch, tmp_path):
    from recount_desk.formats import detect, handbuilt

    path = _sheet(tmp_path / "x.xlsx", [["Precinct Name", "Reg. Voters", "Ballots Cast",
                                         "Ann"], ["P1", 10, 5, 3]])

    def broken(*_a, **_k):
        raise KeyError("a bug")

    monkeypatch.setattr(handbuilt, "_find_header", broken)
    with pytest.raises(KeyError):
        detect(path)


def test_a_damaged_file_is_still_not_claimed(tmp_path):
    from recount_desk.formats import detect

    path = tmp_path / "x.xlsx"
    path.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ImportFailed):
        detect(path) or read_canvass(path)


@pytest.mark.parametrize(("cell", "hidden"), [("Suppressed", True), (" **** ", True),
                                               ("*", True), ("SUPPRESSED", True),
                                               ("0", False), ("", False), ("-", False)])
def test_one_vocabulary_of_suppressed_cells(cell, hidden):
    from recount_desk.formats import vocab

    assert vocab.is_suppressed(cell) is hidden


@pytest.mark.parametrize(("text", "garbled", "mojibake"), [
    ("JULI\u00c3\u0081N CASTRO", True, True), ("Jos\u00c3\u00a9", True, True),
    ("it\u00e2\u20ac\u2122s", True, False), ("Bad \ufffd byte", True, False),
    ("JULI\u00c1N CASTRO", False, False), ("A\u00c5\u017d", False, False)])
def test_one_vocabulary_of_garbled_text(text, garbled, mojibake):
    from recount_desk.formats import vocab

    assert bool(vocab.GARBLED.search(text)) is garbled
    assert bool(vocab.MOJIBAKE.search(text)) is mojibake


def test_hand_built_precincts_against_a_disagreeing_totals_row_are_doubtful(tmp_path):
    path = _sheet(tmp_path / "t.xlsx", [
        ["", "", "", "", "Mayor", ""],
        ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Ann", "Bob"],
        ["P1", 100, 60, 0.6, 30, 20],
        ["P2", 100, 60, 0.6, 31, 19],
        ["COUNTY TOTALS", 200, 120, 0.6, 61, 93],
    ])
    parsed = read_canvass(path)
    assert parsed.doubtful
    assert any("do not add up" in d for d in parsed.doubts)
    # A surely recognised family whose file disagrees with itself stays offered (warned).
    clarity = read_canvass(Path(__file__).parents[1] / "data" / "formats" / "clarity"
                           / "arkansas-2014-general-detail.xml")
    assert not clarity.doubtful and clarity.detection.confidence < 97


_HEAD = ["Total Reg. Voters", "Total Ballots Cast", "Turn out %"]


def _mayor(parsed) -> dict[str, int]:
    return {c.choice.name: c.votes for t in parsed.totals if t.contest.key.title == "Mayor"
            for c in t.choices}


def test_a_share_column_beside_each_candidate_is_a_statistic(tmp_path):
    # 'Ann Able, %, Bob Baker, %': the shares were read as choices (duplicate-row errors).
    path = _sheet(tmp_path / "c.xlsx", [
        ["2024 General Election"], ["", "", "", "", "Mayor", "Mayor", "Mayor", "Mayor"],
        ["Precinct Name", *_HEAD, "Ann Able", "%", "Bob Baker", "Pct"],
        ["P1", 300, 200, 0.66, 120, 0.6, 80, 0.4], ["P2", 200, 100, 0.5, 30, 0.3, 70, 0.7]])
    parsed = read_canvass(path)
    assert _mayor(parsed) == {"Ann Able": 150, "Bob Baker": 150}
    assert not parsed.errors and not parsed.doubtful


def test_a_precinct_id_column_before_the_names_is_no_candidate(tmp_path):
    path = _sheet(tmp_path / "c.xlsx", [
        ["2024 General Election"], ["", "", "", "", "", "Mayor", "Mayor"],
        ["Precinct ID", "Precinct Name", *_HEAD, "Ann Able", "Bob Baker"],
        [1001, "P1", 300, 200, 0.66, 120, 80], [1002, "P2", 200, 100, 0.5, 30, 70]])
    parsed = read_canvass(path)
    assert _mayor(parsed) == {"Ann Able": 150, "Bob Baker": 150}
    assert not parsed.errors and not parsed.doubtful


def test_a_band_whose_rows_each_begin_with_the_statistics_reads_its_contests(tmp_path):
    # Both band rows start 'Precinct Name, Reg. Voters …': the upper names the contests.
    path = _sheet(tmp_path / "c.xlsx", [
        ["2024 General Election"],
        ["Precinct Name", *_HEAD, "Mayor", "Mayor", "Sheriff", "Sheriff"],
        ["Precinct Name", *_HEAD, "Ann Able", "Bob Baker", "Cy Cole", "Di Dunn"],
        ["P1", 300, 200, 0.66, 120, 80, 100, 90], ["P2", 200, 100, 0.5, 30, 70, 50, 40]])
    parsed = read_canvass(path)
    assert _mayor(parsed) == {"Ann Able": 150, "Bob Baker": 150}
    assert {t.contest.key.title for t in parsed.totals} == {"Mayor", "Sheriff"}
    assert not parsed.doubts
