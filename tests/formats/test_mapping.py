"""The column mapping: long and wide layouts, the wizard's preview, and clear mapping errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, ReadOptions, detect, read_canvass
from recount_desk.formats.mapping import preview, validate

DATA = Path(__file__).parents[1] / "data" / "formats"
JUAB = DATA / "handbuilt" / "Juab Precinct Results.xlsx"
BOULDER = DATA / "dominion" / "2025C-Boulder-County-Official-Statement-of-Votes.csv"

JUAB_WIDE = {
    "layout": "wide", "sheet": "2022 General", "header_row": 4, "precinct_column": 1,
    "totals_row": "Totals:",
    "blocks": [{"contest": "US Senate", "seats": 1,
                "columns": ["Evan McMullin", "Mike Lee", "G", "H", 9]},
               {"contest": "US House Dist 2", "columns": ["Chris Stewart", "Nick Mitchell",
                                                          "Jaymac McFarland", "Cassie Easley"]}],
}
BOULDER_LONG = {
    "layout": "long",
    "columns": {"precinct": "Precinct Code", "contest": "Contest Title",
                "choice": "Choice Name", "votes": "Total Votes", "district": None,
                "party": None},
}


def totals_of(parsed, title: str):
    for t in parsed.totals:
        if t.contest.key.title == title:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("path", "mapping", "contests", "title", "expected"),
    [
        (JUAB, JUAB_WIDE, 2, "US Senate",
         {"Evan McMullin": 714, "Mike Lee": 3886, "James Arther Hansen": 70,
          "Tommy Williams": 61, "Write In": 2}),
        (BOULDER, BOULDER_LONG, 32, "City of Boulder Council Candidates",
         {"Nicole Speer": 16165, "Rob Kaplan": 15867, "Montserrat Palacios": 2957,
          "Rob Smoke": 1499, "Maxwell Lord": 2853, "Jennifer Robins": 14781,
          "Aaron Stone": 2707, "Lauren Folkerts": 14222, "Mark Wallach": 17476,
          "Matt Benjamin": 20276, "Rachel Rose Isaacson": 5085}),
    ],
    ids=["juab-wide-blocks", "boulder-long-columns"],
)
def test_mapped_files_give_hand_checked_totals(path, mapping, contests, title, expected):
    # The mapping survives a JSON round trip (check --mapping mapping.json).
    mapping = json.loads(json.dumps(mapping))
    parsed = read_canvass(path, options=ReadOptions(mapping=mapping))
    assert parsed.family == "mapping"
    assert len(parsed.contests) == contests
    assert {c.choice.name: c.votes for c in totals_of(parsed, title).choices} == expected


def test_wide_mapping_checks_the_totals_row_and_takes_seats():
    parsed = read_canvass(JUAB, options=ReadOptions(mapping=JUAB_WIDE))
    assert not [i for i in parsed.issues if "do not add up" in i.message]
    senate = totals_of(parsed, "US Senate").contest
    assert senate.seats == 1
    assert senate.seats_from_file
    assert "Totals:" not in parsed.precincts


def test_long_mapping_keeps_over_under_apart_and_reads_suppressed_cells(tmp_path):
    path = tmp_path / "results.csv"
    path.write_text("Unit,Race,Who,N\nP1,Mayor,Ann,10\nP1,Mayor,Bob,7\nP1,Mayor,Over Votes,2\n"
                    "P1,Mayor,Under Votes,4\nP2,Mayor,Ann,*\nP2,Mayor,Bob,*\n"
                    "Total,Mayor,Ann,12\nTotal,Mayor,Bob,9\n")
    mapping = {"layout": "long", "columns": {"precinct": "Unit", "contest": "Race",
                                             "choice": "Who", "votes": "N"}}
    parsed = read_canvass(path, options=ReadOptions(mapping=mapping))
    t = totals_of(parsed, "Mayor")
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 12, "Bob": 9}
    assert {k.value: v for k, v in t.extras.items()} == {"over": 2, "under": 4}
    assert any("suppressed" in i.message for i in parsed.issues)


def test_preview_shows_sheets_and_rows_from_the_header():
    sheets, rows = preview(JUAB, sheet="2022 Primary", header_row=3, nrows=3)
    assert sheets == ["2022 General", "2022 Primary", "2021 General"]
    assert rows[0][0].strip() == "Precinct name"
    assert rows[2][:3] == ["DG01", "41", "13"]
    assert len(rows) == 3


def test_mapping_never_detects_a_file():
    assert all(d.family != "mapping" for d in detect(JUAB))


@pytest.mark.parametrize(
    ("path", "mapping", "message"),
    [
        (BOULDER, {"layout": "diagonal"}, 'must be "long" or "wide"'),
        (BOULDER, {"layout": "long", "columns": {"precinct": "Precinct Code"}},
         "needs a column for 'contest'"),
        (BOULDER, {**BOULDER_LONG, "columns": {**BOULDER_LONG["columns"], "votes": "Votes"}},
         "names the column 'Votes' for votes, but row 1 has no such column"),
        (JUAB, {**JUAB_WIDE, "sheet": "2019"}, "does not have; its sheets are"),
        (JUAB, {**JUAB_WIDE, "blocks": [{"contest": "US Senate", "columns": ["Write In"]}]},
         "appears 2 times in the header"),
        (JUAB, {**JUAB_WIDE, "blocks": [{"contest": "X", "seats": 0, "columns": ["E"]}]},
         '"seats" must be a whole number'),
    ],
    ids=["unknown-layout", "missing-column-key", "unknown-column", "unknown-sheet",
         "ambiguous-column", "bad-seats"],
)
def test_bad_mappings_are_refused_with_a_clear_sentence(path, mapping, message):
    with pytest.raises(ImportFailed) as e:
        read_canvass(path, options=ReadOptions(mapping=mapping))
    assert message in str(e.value)


def test_validate_lists_every_problem_at_once():
    errs = validate({"layout": "wide", "header_row": 0, "colour": "red"})
    assert len(errs) == 4  # header_row, unknown key, precinct_column, blocks


def test_a_proposal_reads_the_header_band_and_leaves_statistics_out():
    from recount_desk.formats.mapping import propose

    m = propose(JUAB, "2022 General")
    # The candidates' row is the header (the contests' row above it names the blocks);
    # 'Reg. Voters', 'Ballots Cast' and the turnout fractions are no choices.
    assert (m["layout"], m["header_row"], m["precinct_column"]) == ("wide", 4, 1)
    assert m["blocks"][:2] == [{"contest": "US Senate", "seats": 1, "columns": [5, 6, 7, 8, 9]},
                               {"contest": "US House Dist 2", "seats": 1,
                                "columns": [10, 11, 12, 13]}]
    parsed = read_canvass(JUAB, options=ReadOptions(mapping={**m, "blocks": m["blocks"][:1]}))
    assert {c.choice.name: c.votes for c in totals_of(parsed, "US Senate").choices} == \
        JUAB_SENATE


JUAB_SENATE = {"Evan McMullin": 714, "Mike Lee": 3886, "James Arther Hansen": 70,
               "Tommy Williams": 61, "Write In": 2}


def test_a_proposal_for_a_long_file_takes_roles_from_names_and_contents():
    from recount_desk.formats.mapping import propose

    m = propose(BOULDER)
    assert m["layout"] == "long"
    assert {k: v for k, v in m["columns"].items() if v} == {
        "precinct": "Precinct Code", "contest": "Contest Title", "choice": "Choice Name",
        "votes": "Total Votes"}


def test_a_proposal_without_telling_names_goes_by_contents(tmp_path):
    from recount_desk.formats.mapping import propose

    path = tmp_path / "odd.csv"
    rows = ["A,B,C,D,E"] + [f"P{p},Mayor,{c},{p * 3 + k},REP" for p in range(1, 6)
                            for k, c in enumerate(("Ann", "Bob", "Cy"))]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    m = propose(path)
    assert m["layout"] == "long"
    assert {k: v for k, v in m["columns"].items() if v} == {
        "precinct": "A", "contest": "B", "choice": "C", "votes": "D", "party": "E"}


def test_a_saved_mapping_fits_a_header_of_its_layout_only():
    from recount_desk.formats.mapping import fits

    long = {"layout": "long", "columns": {"precinct": "Ward", "contest": "Race",
                                          "choice": "Name", "votes": "Count"}}
    assert fits(long, ["Ward", "Race", "Name", "Count", "Notes"])
    assert not fits(long, ["Ward", "Race", "Candidate", "Count"])
    wide = {"layout": "wide", "precinct_column": 1, "header": ["Precinct", "Ann", "Bob"],
            "blocks": [{"contest": "Mayor", "columns": [2, 3]}]}
    assert fits(wide, ["precinct", "Ann", "Bob "])
    assert not fits(wide, ["Precinct", "Cy", "Di"])
    assert not fits({**wide, "header": []}, ["Precinct", "Ann", "Bob"])  # cannot tell
