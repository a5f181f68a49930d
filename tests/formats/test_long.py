"""The long-format importer on real OpenElections Utah files (tests/data/openelections)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recount_desk.core.model import ContestKind, Severity
from recount_desk.core.rules import Edition, Result, Verdict, decide
from recount_desk.formats import ImportFailed, detect, read_canvass

OE = Path(__file__).parents[1] / "data" / "openelections"


def contest(parsed, label: str):
    for t in parsed.totals:
        if t.contest.key.label() == label:
            return t
    raise AssertionError(f"{label!r} not in {[t.contest.key.label() for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("file", "contests", "label", "expected"),
    [
        ("20181106__ut__general__grand__precinct.csv", 4, "State House — District 69",
         {"Tim Glenn": 843, "Christine Watkins": 841}),
        ("20160628__ut__primary__emery__precinct.csv", 3, "U.S. Senate (DEM)",
         {"Misty K. Snow": 46, "Jonathan Swinton": 46}),
        ("20201103__ut__general__cache__precinct.csv", 45, "Constitutional Amendment A",
         {"FOR": 29749, "AGAINST": 25895}),
        ("20180626__ut__primary__washington__precinct.csv", 2, "U.S. Senate",
         {"Mitt Romney": 11094, "Mike Kennedy": 8808}),
        ("20161108__ut__general__county.csv", 100, "State House — District 32",
         {"Lavar Christensen": 8541, "Suzanne Harrison": 8536}),
        # Turnout rows carry the statistic in the candidate column and no office: they are
        # statistics, not choices without a contest. Write-In Totals (264) is the named
        # write-ins plus 228 invalid ones, so neither it nor the invalid ones count.
        ("20221108__ut__general__weber__precinct.csv", 33, "U.S. Senate",
         {"EVAN MCMULLIN": 31265, "JAMES ARTHUR HANSEN": 2756, "MIKE LEE": 42007,
          "IAP TOMMY WILLIAMS": 1011, "WRITE-IN: ABRAHAM KORB": 2,
          "WRITE-IN: MICHAEL SEGUIIN": 16, "WRITE-IN: LAIRD FETZER HAMBLIN": 18,
          "NOT ASSIGNED": 0}),
    ],
    ids=["grand-2018", "emery-2016-primary", "cache-2020-props", "washington-2018-primary",
         "statewide-2016-county", "weber-2022-turnout-rows"],
)
def test_real_files_give_hand_checked_totals(file: str, contests: int, label: str,
                                             expected: dict[str, int]) -> None:
    parsed = read_canvass(OE / file)
    assert parsed.family == "long"
    assert len(parsed.contests) == contests
    t = contest(parsed, label)
    assert {c.choice.name: c.votes for c in t.choices} == expected


def test_detected_as_long_with_high_confidence() -> None:
    found = detect(OE / "20181106__ut__general__grand__precinct.csv")
    assert found[0].family == "long"
    assert found[0].confidence >= 90


def test_totals_equal_sum_of_candidate_rows() -> None:
    import csv

    path = OE / "20181106__ut__general__salt_lake__precinct.csv"
    parsed = read_canvass(path)
    sums: dict[tuple[str, str, str], int] = {}
    with open(path, encoding="utf-8-sig", newline="") as f:
        for row in csv.DictReader(f):
            key = (row["office"], row["district"], row["candidate"])
            sums[key] = sums.get(key, 0) + int(row["votes"] or 0)
    checked = 0
    for t in parsed.totals:
        for c in t.choices:
            assert c.votes == sums[(t.contest.key.title, t.contest.key.district, c.choice.name)]
            checked += 1
    assert checked > 200


def test_primary_contest_belongs_to_party_and_tie_is_flagged() -> None:
    parsed = read_canvass(OE / "20160628__ut__primary__emery__precinct.csv")
    t = contest(parsed, "U.S. Senate (DEM)")
    assert t.contest.key.party == "DEM"
    d = decide(t, Edition.Y2019)
    assert d.outcome.result is Result.TIE
    assert d.verdict is Verdict.WITHIN_MARGIN
    assert decide(t, Edition.Y2024).verdict is Verdict.AUTOMATIC


def test_general_election_party_belongs_to_candidate() -> None:
    parsed = read_canvass(OE / "20181106__ut__general__grand__precinct.csv")
    t = contest(parsed, "U.S. Senate")
    assert t.contest.key.party == ""
    assert {c.choice.name: c.choice.party for c in t.choices}["Mitt Romney"] == "Rep"


def test_propositions_are_recognised_by_for_against() -> None:
    parsed = read_canvass(OE / "20201103__ut__general__cache__precinct.csv")
    t = contest(parsed, "Constitutional Amendment A")
    assert t.contest.kind is ContestKind.PROPOSITION
    assert decide(t, Edition.Y2019).outcome.result is Result.PASSED


def test_invalid_write_ins_and_write_in_totals_are_not_double_counted() -> None:
    parsed = read_canvass(OE / "20201103__ut__general__cache__precinct.csv")
    names = {c.choice.name for t in parsed.totals for c in t.choices}
    assert "Write-In Totals" not in names
    assert "Write-In: Not Certified" not in names
    assert "Write-In: Brian Carroll" in names
    assert any("invalid write-in" in i.message for i in parsed.issues)


def test_statistics_offices_are_not_contests() -> None:
    parsed = read_canvass(OE / "20221108__ut__general__piute__precinct.csv")
    titles = {c.key.title for c in parsed.contests}
    assert not titles & {"Registered Voters", "Ballots Cast", "Cards Cast",
                         "Ballots Cast - Blank"}


def test_over_and_under_votes_kept_apart() -> None:
    parsed = read_canvass(OE / "20221108__ut__general__piute__precinct.csv")
    names = {c.choice.name for t in parsed.totals for c in t.choices}
    assert not names & {"Overvotes", "Undervotes"}
    assert any(t.extras for t in parsed.totals)


def test_suppressed_values_are_noted() -> None:
    parsed = read_canvass(OE / "20181106__ut__general__weber__precinct.csv")
    assert any("suppressed" in i.message for i in parsed.issues)


def test_totals_row_is_checked_not_counted() -> None:
    parsed = read_canvass(OE / "20180626__ut__primary__washington__precinct.csv")
    assert "Total" not in parsed.precincts
    assert not any("do not add up" in i.message for i in parsed.issues)


def test_disagreeing_duplicates_are_errors() -> None:
    parsed = read_canvass(OE / "20201103__ut__general__cache__precinct.csv")
    errs = [i for i in parsed.errors if "Duplicate rows disagree" in i.message]
    assert errs
    assert "RIVER HEIGHTS 02" in errs[0].message


@pytest.mark.parametrize(
    ("content", "message", "row"),
    [
        (b"office,candidate,votes,precinct\nMayor,Ann,12,P1\nMayor,Bob,1O,P1\n",
         "is not a number", 3),
        (b"office,candidate,votes,precinct\nMayor,Ann,-4,P1\n", "is negative", 2),
        (b"office,candidate,votes,precinct\nMayor,Ann,2.5,P1\n", "not a whole number", 2),
    ],
    ids=["text", "negative", "fraction"],
)
def test_bad_vote_counts_name_row_and_column(tmp_path: Path, content: bytes, message: str,
                                             row: int) -> None:
    p = tmp_path / "bad.csv"
    p.write_bytes(content)
    parsed = read_canvass(p)
    err = parsed.errors[0]
    assert message in err.message
    assert err.row == row
    assert err.column == "votes"
    assert err.severity is Severity.ERROR


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"%PDF-1.4\n...", "PDF"),
        (b"<html><frameset></frameset></html>", "web page"),
        (b"\x00\x01\x02garbage", "binary"),
        (b"office,candidate,votes\n", "no rows"),
        (b"a,b,c\n1,2,3\n", "does not recognise"),
    ],
    ids=["empty", "pdf", "html", "binary", "header-only", "unknown"],
)
def test_unreadable_files_get_one_clear_sentence(tmp_path: Path, content: bytes,
                                                 message: str) -> None:
    p = tmp_path / "canvass.csv"
    p.write_bytes(content)
    with pytest.raises(ImportFailed) as exc:
        read_canvass(p)
    assert message in str(exc.value)
    assert exc.value.issue.file == "canvass.csv"


def test_latin1_csv_is_read_with_a_note(tmp_path: Path) -> None:
    p = tmp_path / "latin.csv"
    p.write_bytes("office,candidate,votes,precinct\nMayor,Julián,12,P1\nMayor,Bo,3,P1\n"
                  .encode("cp1252"))
    parsed = read_canvass(p)
    assert parsed.totals[0].choices[0].choice.name == "Julián"
    assert any("Windows-1252" in i.message for i in parsed.issues)


def test_xlsx_long_format(tmp_path: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Precinct", "Office", "Candidate", "Party", "Votes"])
    ws.append(["P1", "Mayor", "Ann", "", 120])
    ws.append(["P2", "Mayor", "Ann", "", 80])
    ws.append(["P1", "Mayor", "Bob", "", 199])
    p = tmp_path / "long.xlsx"
    wb.save(p)
    parsed = read_canvass(p)
    assert {c.choice.name: c.votes for c in parsed.totals[0].choices} == {"Ann": 200, "Bob": 199}


def test_a_block_misattributed_to_the_next_precinct_is_an_error_naming_both_rows() -> None:
    """In the real Cache 2020 file, Amendments D–G of RIVER HEIGHTS 01 sit at the top of
    RIVER HEIGHTS 02's block, which later has its own: two counts for one choice in one
    precinct. No guess is made; the message names both rows."""
    parsed = read_canvass(OE / "20201103__ut__general__cache__precinct.csv")
    first = parsed.errors[0]
    assert first.row == 6739
    assert ("Duplicate rows disagree for 'FOR' in 'Constitutional Amendment D', precinct "
            "'RIVER HEIGHTS 02' (rows 6739, 6821): 255, 436") in first.message
    assert len(parsed.errors) == 8


@pytest.mark.parametrize(("senate_row", "severity", "lee"), [
    ("7,5", "note", 7),        # the contest's totals: read as the file's totals row
    ("70,50", "warning", 77),  # something else: kept as a 'precinct', and the officer told
])
def test_a_contest_title_in_the_precinct_column(tmp_path: Path, senate_row: str,
                                                severity: str, lee: int) -> None:
    """Some exports put the contest's title in the precinct column (Duchesne and Summit
    2020 in OpenElections)."""
    lee_total, mcm_total = senate_row.split(",")
    path = tmp_path / "20201103__ut__general__duchesne__precinct.csv"
    path.write_text(
        "county,precinct,office,district,party,candidate,votes\n"
        "Duchesne,D1,U.S. Senate,,REP,Mike Lee,3\n"
        "Duchesne,D1,U.S. Senate,,IND,Evan McMullin,2\n"
        "Duchesne,D2,U.S. Senate,,REP,Mike Lee,4\n"
        "Duchesne,D2,U.S. Senate,,IND,Evan McMullin,3\n"
        f"Duchesne,U.S. SENATE,U.S. Senate,,REP,Mike Lee,{lee_total}\n"
        f"Duchesne,U.S. SENATE,U.S. Senate,,IND,Evan McMullin,{mcm_total}\n",
        encoding="utf-8")
    parsed = read_canvass(path)
    t = contest(parsed, "U.S. Senate")
    assert t.votes_of("Mike Lee") == lee
    found = [i for i in parsed.issues if "contest title in the precinct column" in i.message]
    assert [i.severity.value for i in found] == [severity]
    assert found[0].row == 6
    assert found[0].column == "precinct"
    assert not [i for i in parsed.issues if "do not add up" in i.message]


def test_a_row_longer_than_the_header_is_refused_even_beside_unused_columns(
        tmp_path: Path) -> None:
    """Reading only the columns it uses must not let a malformed row through."""
    path = tmp_path / "ragged.csv"
    path.write_text("precinct,office,candidate,votes,mail\nP1,Mayor,Ann,3,1\n"
                    "P1,Mayor,Bob,2,1,9\n", encoding="utf-8")
    with pytest.raises(ImportFailed) as e:
        read_canvass(path)
    assert e.value.issue.row == 3
    assert "more fields than the header" in e.value.issue.message


def test_a_contest_spelled_two_ways_by_a_scanned_canvass_is_pointed_out() -> None:
    """Piute 2022 (OCR): 'District'/'Distriet', 'Commissioner'/'Cornmissioner', 'L.'/'L' …
    Each part is kept (no guess), with an error bound to each: neither part's figures are
    the contest's, so neither gets a verdict."""
    parsed = read_canvass(OE / "20221108__ut__general__piute__precinct.csv")
    told = [i for i in parsed.issues if "one contest spelled two ways" in i.message]
    assert all(i.severity is Severity.ERROR and i.contest is not None
               and i.message.startswith(repr(i.contest.label())) for i in told)
    pairs = {frozenset(re.findall(r"'([^']+)' \(", i.message)) for i in told}
    assert len(told) == 2 * len(pairs)
    assert pairs == {frozenset(p) for p in [
        ("BRODY L. KEISEL Judicial Retention", "BRODY L KEISEL Judicial Retention"),
        ("Constitutional Amendment A", "Constitutionel Amendment A"),
        ("County Commissioner B", "County Cornmissioner B"),
        ("State House District 70", "State House Distriet 70"),
        ("State House District 70", "State House — District 70"),
        ("State House Distriet 70", "State House — District 70"),
        ("U.S. House District 2", "U.S. House — District 2"),
    ]}


def test_contests_named_alike_but_different_are_not_called_one(tmp_path: Path) -> None:
    rows = ["precinct,office,district,candidate,votes"]
    contests = [("County Council North", "", "P1"), ("County Council South", "", "P2"),
                ("State House", "69", "P1"), ("State House", "70", "P2"),
                ("Commissioner Seat A", "", "P1"), ("Commissioner Seat B", "", "P2"),
                # alike and one letter apart, but on the same ballots: two contests
                ("Judge Smith Retention", "", "P1"), ("Judge Smyth Retention", "", "P1")]
    for office, district, precinct in contests:
        rows += [f"{precinct},{office},{district},Ann,5", f"{precinct},{office},{district},Bo,3"]
    path = tmp_path / "alike.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    parsed = read_canvass(path)
    assert len(parsed.contests) == 8
    assert not [i for i in parsed.issues if "spelled two ways" in i.message]


def test_an_unreadable_value_in_a_statistics_row_is_said_not_dropped_silently(
        tmp_path: Path) -> None:
    """Turnout rows (the statistic in the choice column, no office) feed no contest; a value
    there that is not a number is named with its row, as a warning."""
    p = tmp_path / "stats.csv"
    p.write_text("county,precinct,office,district,party,candidate,votes\n"
                 "Wayne,Fremont,,,,PAPER BALLOTS CAST-TOTAL,150\n"
                 "Wayne,Fremont,,,,PAPER BALLOTS CAST-BLANK,n/a\n"
                 "Wayne,Fremont,Mayor,,,Ann,80\n"
                 "Wayne,Fremont,Mayor,,,Bob,70\n", encoding="utf-8")
    parsed = read_canvass(p)
    said = [i for i in parsed.issues if "statistics row" in i.message]
    assert len(said) == 1 and said[0].row == 3 and said[0].severity.value == "warning"
    assert "'n/a'" in said[0].message and "PAPER BALLOTS CAST-BLANK" in said[0].message
    assert not [i for i in parsed.issues if i.severity.value == "error"]


@pytest.mark.parametrize(("header", "hinted"), [
    ("precinct,office,candidate,election_day,absentee,provisional", True),
    ("precinct,office,candidate,Election Day,Mail Ballots", True),
    ("precinct,office,candidate,tally", False),  # no vote modes: the general refusal
])
def test_votes_split_by_mode_without_a_total_are_refused_saying_so(
        tmp_path: Path, header: str, hinted: bool) -> None:
    """The modes' sum is not taken for the total (a file's modes may leave votes out): the
    refusal names the contest, choice and mode columns and asks for the total's."""
    f = tmp_path / "modes.csv"
    n = len(header.split(",")) - 3
    f.write_text(header + "\n" + "".join(f"P{i},Mayor,Ann,{','.join(['3'] * n)}\n"
                                          for i in range(3)))
    with pytest.raises(ImportFailed) as e:
        read_canvass(f)
    said = str(e.value)
    assert "does not recognise this layout" in said
    assert ("no column of total votes" in said) is hinted
    if hinted:
        assert "'office'" in said and "'candidate'" in said
        assert repr(header.split(",")[3]) in said


_MODES = "precinct,office,candidate,election_day,mail,votes\n"


def test_a_total_column_beside_votes_that_disagrees_is_refused_naming_the_row(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("precinct,office,candidate,votes,total\n"
                 "P1,Mayor,Ann,10,10\nP1,Mayor,Bo,4,9\nP2,Mayor,Ann,3,3\n")
    with pytest.raises(ImportFailed) as e:
        read_canvass(f)
    assert "both 'votes' and 'total'" in str(e.value) and "row 3: 4 against 9" in str(e.value)
    assert e.value.issue.row == 3 and e.value.issue.column == "total"
    f.write_text("precinct,office,candidate,votes,total\nP1,Mayor,Ann,10,10\nP1,Mayor,Bo,4,4\n")
    assert not read_canvass(f).errors  # agreeing: read


def test_votes_by_mode_adding_up_to_more_than_the_votes_withhold_that_contests_verdict(
        tmp_path):
    # A file cut short inside its last cell: 509 became 5; the modes still add up to 509.
    from datetime import date

    from recount_desk.actions.canvass import check_parsed

    f = tmp_path / "t.csv"
    f.write_text(_MODES + "P1,Mayor,Ann,10,20,30\nP1,Mayor,Bo,1,2,3\n"
                 "P1,Council,Cy,5,5,10\nP1,Council,Di,1,1,2\n"
                 "P2,Registered Voters,,900,900,900\n"  # (a statistic repeats its figure)
                 "P2,Council,Cy,7,8,15\nP2,Council,Di,0,1,1\n"
                 "P2,Mayor,Ann,21,473,5")
    parsed = read_canvass(f)
    [err] = [i for i in parsed.errors if "votes by mode" in i.message]
    assert err.row == 9 and err.column == "votes" and err.contest.title == "Mayor"
    assert "election_day 21 + mail 473 = 494; votes 5" in err.message
    verdicts = {c.totals.contest.key.title: c.decision
                for c in check_parsed(parsed, election_date=date(2024, 11, 5)).contests}
    assert not verdicts["Mayor"].decided and verdicts["Council"].decided


def test_modes_that_leave_votes_out_are_no_error(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text(_MODES + "P1,Mayor,Ann,10,15,30\nP1,Mayor,Bo,1,2,3\n")
    assert not read_canvass(f).errors


def test_a_csv_cut_short_inside_its_last_row_is_refused(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("precinct,office,candidate,party,votes\nP1,Mayor,Ann,,10\nP1,Mayor,Bo,")
    with pytest.raises(ImportFailed) as e:
        read_canvass(f)
    assert "cut short" in str(e.value) and "4 of the header's 5 cells" in str(e.value)
    assert e.value.issue.row == 3
    f.write_text("precinct,office,candidate,party,votes\nP1,Mayor,Ann,,10\nP1,Mayor,Bo,,4")
    assert read_canvass(f).totals[0].total == 14  # no line end after a whole row: read


@pytest.mark.parametrize("titles", ["Morgan County Official Canvass\nGeneral Election 2018\n",
                                    "Morgan County Official Canvass,,,\n\n"])
def test_title_lines_above_a_csv_header_are_passed_over_and_said(tmp_path, titles):
    # A sheet with its title saved from Excel as CSV: once "does not recognise this layout".
    f = tmp_path / "t.csv"
    f.write_text(titles + "precinct,office,candidate,votes\nP1,Mayor,Ann,10\nP1,Mayor,Bo,x\n")
    parsed = read_canvass(f)
    n = titles.count("\n")
    note = next(i for i in parsed.issues if "title line" in i.message)
    assert "'Morgan County Official Canvass'" in note.message
    assert note.row == n + 1
    [bad] = [i for i in parsed.errors if "'x'" in i.message]
    assert bad.row == n + 3  # the file's own row


def test_a_table_under_lines_of_many_cells_is_no_long_table(tmp_path):
    f = tmp_path / "t.csv"
    f.write_text("a,b,c,d\n1,2,3,4\nprecinct,office,candidate,votes\nP1,Mayor,Ann,10\n")
    with pytest.raises(ImportFailed):
        read_canvass(f)
