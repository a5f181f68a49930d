"""A party word or code glued to a candidate's name (trial B, session 16): 'Republican Mike
Lee', 'Mike Lee REP', 'Lee, Mike - R', 'Mike Lee Republican', 'Mike Lee - Republican' were
read with the party in the name (the votes right, the winner's name wrong, no party). The
party is taken off where it is sure to be one; a surname that is a party's word stays."""

from __future__ import annotations

from workbooks import write_workbook

from recount_desk.formats import grid, read_canvass

TAKEN = [
    ("Republican Mike Lee", ("Mike Lee", "REP")),
    ("Unaffiliated Evan McMullin", ("Evan McMullin", "UNA")),
    ("Independent American Jo Doe", ("Jo Doe", "IAP")),
    ("Mike Lee REP", ("Mike Lee", "REP")),
    ("MIKE LEE REP", ("MIKE LEE", "REP")),
    ("Ed Eads NP", ("Ed Eads", "")),
    ("Lee, Mike - R", ("Lee, Mike", "REP")),
    ("Woodward, Nathaniel - D", ("Woodward, Nathaniel", "DEM")),
    ("Mike Lee - Republican", ("Mike Lee", "REP")),
    ("Jane Smith - Green", ("Jane Smith", "GRN")),
    ("Di Dunn \u2013 Dem.", ("Di Dunn", "DEM")),
    ("Mike Lee Republican", ("Mike Lee", "REP")),
    ("Di Dunn Democrat", ("Di Dunn", "DEM")),
    ("Jo Doe United Utah", ("Jo Doe", "UUP")),
    ("Jo Doe Green Party", ("Jo Doe", "GRN")),
    ("Mike Lee (R)", ("Mike Lee", "REP")),
    ("Mike Lee (Republican)", ("Mike Lee", "REP")),
]
KEPT = [
    "Evan Green", "Mary Ann Green", "Tom Independent", "Green Evan Smith", "Smith-Green",
    "Mike Lee R", "Mike Lee Rep", "John Doe (I)", "Proposition 4 - For",
    "Constitution Amendment A", "Write-in Republican", "Republican", "United Utah",
    "Joseph R. Biden / Kamala D. Harris"]


def test_a_party_glued_to_a_name_is_taken_off_where_it_is_sure_to_be_one():
    assert {n: grid.choice_party(n) for n, _ in TAKEN} == dict(TAKEN)
    # A party's word that may be a name, a letter not set off, a word after a dash that
    # names no party: the name as written.
    assert {n: grid.choice_party(n) for n in KEPT} == {n: (n, "") for n in KEPT}
    # (what was read before, and still is)
    assert grid.choice_party("Mike Lee (REP)") == ("Mike Lee", "REP")
    assert grid.choice_party("REP Mike Lee") == ("Mike Lee", "REP")


def _choices(parsed) -> dict[str, dict[str, tuple[int, str]]]:
    return {t.contest.key.label(): {c.choice.name: (c.votes, c.choice.party)
                                    for c in t.choices} for t in parsed.totals}


def test_a_stacked_sheet_reads_a_party_word_after_the_names_as_their_party(tmp_path):
    def table(title: str, names: list[str], first: int) -> list[list[object]]:
        return [[title], ["Precinct", *names],
                *[[p, *[first + k + 10 * c for c in range(len(names))]]
                  for k, p in enumerate(["Fremont", "Loa", "Lyman"])], []]
    path = write_workbook(tmp_path / "st.xlsx", {"Canvass": [
        ["Wayne County 2024 General Election"], [],
        *table("US Senate", ["Mike Lee Republican", "Evan McMullin Unaffiliated"], 100),
        *table("County Sheriff", ["Cy Cole Republican", "Di Dunn Democrat"], 50)]})
    parsed = read_canvass(path)
    assert parsed.family == "stacked"
    assert _choices(parsed) == {
        "US Senate": {"Mike Lee": (303, "REP"), "Evan McMullin": (333, "UNA")},
        "County Sheriff": {"Cy Cole": (153, "REP"), "Di Dunn": (183, "DEM")}}


def test_a_sideways_sheet_reads_a_party_after_a_dash_as_the_choices_party(tmp_path):
    path = write_workbook(tmp_path / "sw.xlsx", {"Canvass": [
        ["Garfield County 2024 General Election Canvass"], [],
        [None, "Total", "P1", "P2", "P3"], ["Ballots Cast", 300, 100, 100, 100], [],
        ["US Senate"], ["Mike Lee - Republican", 90, 30, 30, 30],
        ["Evan McMullin - Unaffiliated", 60, 20, 20, 20], [],
        ["County Sheriff"], ["Cy Cole - Republican", 150, 50, 50, 50],
        ["Di Dunn - Democrat", 120, 40, 40, 40]]})
    parsed = read_canvass(path)
    assert parsed.family == "sideways"
    assert not parsed.errors
    assert _choices(parsed) == {
        "US Senate": {"Mike Lee": (90, "REP"), "Evan McMullin": (60, "UNA")},
        "County Sheriff": {"Cy Cole": (150, "REP"), "Di Dunn": (120, "DEM")}}
