"""Dominion Statement of Votes and Summary of Votes, CSV and XLSX (Boulder County CO, 2025)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, detect, read_canvass

DATA = Path(__file__).parents[1] / "data" / "formats" / "dominion"
STATEMENT_CSV = DATA / "2025C-Boulder-County-Official-Statement-of-Votes.csv"
STATEMENT_XLSX = DATA / "2025C-Boulder-County-Official-Statement-of-Votes.xlsx"
SUMMARY_CSV = DATA / "2025C-Boulder-County-Official-Summary-of-Votes.csv"
SUMMARY_XLSX = DATA / "2025C-Boulder-County-Official-Summary-of-Votes.xlsx"
BOULDER_COUNCIL = {
    "Nicole Speer": 16165, "Rob Kaplan": 15867, "Montserrat Palacios": 2957, "Rob Smoke": 1499,
    "Maxwell Lord": 2853, "Jennifer Robins": 14781, "Aaron Stone": 2707,
    "Lauren Folkerts": 14222, "Mark Wallach": 17476, "Matt Benjamin": 20276,
    "Rachel Rose Isaacson": 5085,
}


def totals_of(parsed, title: str):
    for t in parsed.totals:
        if t.contest.key.title == title:
            return t
    raise AssertionError(f"{title!r} not in {[t.contest.key for t in parsed.totals]}")


@pytest.mark.parametrize(
    ("path", "precincts"),
    [(STATEMENT_CSV, 198), (STATEMENT_XLSX, 198), (SUMMARY_CSV, 1), (SUMMARY_XLSX, 1)],
    ids=["statement-csv", "statement-xlsx", "summary-csv", "summary-xlsx"],
)
def test_boulder_council_totals_seats_and_over_under(path, precincts):
    found = detect(path)
    assert found[0].family == "dominion"
    parsed = read_canvass(path)
    assert len(parsed.contests) == 32
    assert len(parsed.precincts) == precincts
    t = totals_of(parsed, "City of Boulder Council Candidates")
    assert {c.choice.name: c.votes for c in t.choices} == BOULDER_COUNCIL
    # Undervotes/overvotes repeat on each of the 11 choice rows: counted once, kept apart.
    assert {k.value: v for k, v in t.extras.items()} == {"under": 22288, "over": 65}
    # 4 x 34,109 ballots = 113,888 votes + 22,288 undervotes + 4 x 65 overvotes.
    assert t.contest.seats == 4
    assert t.contest.seats_from_file
    assert totals_of(parsed, "City of Longmont City Council At Large").contest.seats == 2
    assert any("inferred from the ballot arithmetic" in i.message for i in parsed.issues)


def test_statement_adds_up_to_the_summary_for_every_contest():
    def table(parsed):
        return {t.contest.key.title: ({c.choice.name: c.votes for c in t.choices},
                                      dict(t.extras), t.contest.seats) for t in parsed.totals}

    assert table(read_canvass(STATEMENT_CSV)) == table(read_canvass(SUMMARY_CSV))


def test_thousands_separators_and_line_broken_headers(tmp_path):
    path = tmp_path / "sov.csv"
    path.write_text(
        '"Precinct \nCode","Precinct \nNumber","Contest \nTitle","Choice \nName",'
        '"Active \nVoters*","Total \nBallots","Total \nVotes","Total \nUndervotes",'
        '"Total \nOvervotes"\n'
        '"001","9001","Mayor","Ann","3,000","1,500","1,075",5,0\n'
        '"001","9001","Mayor","Bob","3,000","1,500",420,5,0\n', encoding="utf-8")
    parsed = read_canvass(path)
    assert parsed.family == "dominion"
    t = totals_of(parsed, "Mayor")
    assert {c.choice.name: c.votes for c in t.choices} == {"Ann": 1075, "Bob": 420}
    assert {k.value: v for k, v in t.extras.items()} == {"under": 5, "over": 0}
    assert t.contest.seats == 1  # 1,500 = 1,495 + 5


def test_a_file_without_undervote_columns_is_refused_clearly(tmp_path):
    path = tmp_path / "sov.csv"
    path.write_text("Precinct Code,Contest Title,Choice Name,Total Votes\n001,Mayor,Ann,3\n")
    assert all(d.family != "dominion" for d in detect(path))
    with pytest.raises(ImportFailed, match="not a Dominion Statement of Votes"):
        read_canvass(path, family="dominion")
