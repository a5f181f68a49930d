"""GEMS text export (family 7): Wayne County 2016 general.

Each row comes three times (two counting groups, then their total); the figures below are
the third value of the file's ``Election Total`` (999999) rows, read by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import detect, read_canvass

DATA = Path(__file__).parent.parent / "data" / "formats" / "gems"
WAYNE = DATA / "wayne_2016g_gems.txt"


def totals_of(pc, title: str) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == title)
    return {c.choice.name: c.votes for c in t.choices}


def test_gems_export_is_detected() -> None:
    found = detect(WAYNE)
    assert found[0].family == "gems"
    assert all(d.confidence < found[0].confidence for d in found[1:])


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("US SENATE", {"Misty K Snow": 260, "Bill Barron": 51, "Stoney Fonua": 23,
                       "Mike Lee": 1079}),
        ("US HOUSE D2", {"Chris Stewart": 1046, "Charlene Albarran": 294,
                         "Paul J McCollaum Jr.": 52}),
    ],
    ids=["us-senate", "us-house-2"],
)
def test_last_of_each_repeat_is_used_and_matches_election_total(
        title: str, expected: dict[str, int]) -> None:
    pc = read_canvass(WAYNE)
    assert len(pc.contests) == 18          # 20 races less Race Statistics and STRAIGHT PARTY
    assert len(pc.precincts) == 7          # Election Total is the file's totals, not a precinct
    assert "Election Total" not in pc.precincts
    assert totals_of(pc, title) == expected
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert pc.errors == []
    assert any("last one is the sum of the others" in i.message for i in pc.issues)


def test_pseudo_candidates_are_not_choices_and_party_is_the_candidates() -> None:
    pc = read_canvass(WAYNE)
    t = next(t for t in pc.totals if t.contest.key.title == "US SENATE")
    names = {c.choice.name for c in t.choices}
    assert not names & {"Registered Voters", "Number of Precincts for Race",
                        "Number of Precincts Reporting"}
    assert {c.choice.name: c.choice.party for c in t.choices}["Mike Lee"] == "REP"
    assert t.contest.key.party == ""


def test_over_under_pseudo_candidates_are_kept_apart(tmp_path: Path) -> None:
    rows = [
        '"28",10,"Fremont","MAYOR","500","NP","ANN","501","NP",5,',
        '"28",10,"Fremont","MAYOR","500","NP","BOB","502","NP",3,',
        '"28",10,"Fremont","MAYOR","500","NP","Times Over Voted","","NP",1,',
        '"28",10,"Fremont","MAYOR","500","NP","Number of Under Votes","","NP",2,',
        '"28",10,"Fremont","MAYOR","500","NP","Times Counted","","NP",11,',
        '"28",999999,"Election Total","MAYOR","500","NP","ANN","501","NP",5,',
        '"28",999999,"Election Total","MAYOR","500","NP","BOB","502","NP",3,',
    ]
    p = tmp_path / "tiny_gems.txt"
    p.write_text("\r\n".join(rows) + "\r\n", encoding="utf-8")
    pc = read_canvass(p)
    assert totals_of(pc, "MAYOR") == {"ANN": 5, "BOB": 3}
    assert {k.value: v for k, v in pc.totals[0].extras.items()} == {"over": 1, "under": 2}


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda line: line.rsplit(",", 6)[0], "fields instead of the ten"),
        (lambda line: line.replace(",20,", ",2O,"), "not a whole number"),
    ],
    ids=["cut-row", "letter-in-count"],
)
def test_damaged_row_is_an_error_with_its_row_number(tmp_path: Path, damage, words: str) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    # Row 22: "28",10,"Fremont","STRAIGHT PARTY","","NP","REPUBLICAN","","REP",20,
    assert lines[21].endswith('"REPUBLICAN","","REP",20,')
    lines[21] = damage(lines[21])
    bad = tmp_path / "damaged.txt"
    bad.write_text("\r\n".join(lines) + "\r\n", encoding="cp1252")
    pc = read_canvass(bad)
    hits = [i for i in pc.issues if words in i.message]
    assert hits
    assert (hits[0].row, hits[0].severity) == (22, Severity.ERROR)


def test_a_repeat_that_does_not_end_with_its_total_is_reported(tmp_path: Path) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    i = next(k for k, line in enumerate(lines)
             if '"Fremont","US SENATE"' in line and '"Mike Lee"' in line)
    head, value, tail = lines[i].rsplit(",", 2)
    lines[i] = f"{head},{int(value) + 5},{tail}"
    bad = tmp_path / "odd_repeat.txt"
    bad.write_text("\r\n".join(lines) + "\r\n", encoding="cp1252")
    pc = read_canvass(bad)
    hits = [x for x in pc.issues if "do not end with their total" in x.message]
    assert hits
    assert hits[0].severity is Severity.WARNING
    assert "Fremont / US SENATE / Mike Lee" in hits[0].message
    assert totals_of(pc, "US SENATE")["Mike Lee"] == 1079   # the last (total) row is used


# --- More real figures, and variants built at test time ---------------------------------------

GRAND = DATA / "grand_2016g_gems_trimmed.txt"


def test_grand_trimmed_export_matches_its_election_total_rows() -> None:
    pc = read_canvass(GRAND)
    assert [c.key.title for c in pc.contests] == [
        "STATE REP D70", "COUNTY COUNCIL AT LARGE", "STATE REP D69", "COUNTY COUNCIL D4",
        "SCHOOL BOARD D3"]
    assert totals_of(pc, "STATE REP D69") == {"BRAD KING": 877, "CHRISTINE F WATKINS": 867}
    assert totals_of(pc, "COUNTY COUNCIL D4") == {"GREG HALLIDAY": 662,
                                                  "HEATHER JO WHITE": 526}
    assert len(pc.precincts) == 18 and "Election Total" not in pc.precincts
    assert "Moab 1:70" in pc.precincts
    assert not [i for i in pc.issues if "do not add up" in i.message]
    assert pc.errors == [] and pc.primary is False


def _triples(lines: list[str]) -> list[list[str]]:
    out: list[list[str]] = []
    for line in lines:
        key = line.rsplit(",", 2)[0]
        if out and len(out[-1]) < 3 and out[-1][0].rsplit(",", 2)[0] == key:
            out[-1].append(line)
        else:
            out.append([line])
    assert all(len(t) == 3 for t in out)
    return out


def test_total_written_first_in_each_repeat_is_found_and_used(tmp_path: Path) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    moved = [line for t in _triples(lines) for line in (t[2], t[0], t[1])]
    p = tmp_path / "total_first.txt"
    p.write_text("\r\n".join(moved) + "\r\n", encoding="cp1252")
    pc = read_canvass(p)
    assert totals_of(pc, "US SENATE") == {"Misty K Snow": 260, "Bill Barron": 51,
                                          "Stoney Fonua": 23, "Mike Lee": 1079}
    assert any("the first one is the sum of the others" in i.message for i in pc.issues)
    assert not [i for i in pc.issues if "do not add up" in i.message] and pc.errors == []


@pytest.mark.parametrize(("encoding", "tail"), [
    ("utf-8-sig", ""), ("cp1252", "\x1a"), ("utf-8", "\r\n\x1a"),
], ids=["utf8-bom", "cp1252-ctrl-z", "utf8-ctrl-z-line"])
def test_bom_encoding_and_dos_end_mark_read_the_same(tmp_path: Path, encoding: str,
                                                     tail: str) -> None:
    text = WAYNE.read_text(encoding="cp1252").replace("Mike Lee", "Mike Léé")
    p = tmp_path / "wayne.txt"
    p.write_bytes((text + tail).encode(encoding))
    assert detect(p)[0].family == "gems"
    pc = read_canvass(p)
    assert totals_of(pc, "US SENATE")["Mike Léé"] == 1079
    assert len(pc.contests) == 18 and pc.errors == []


def test_primary_party_races_with_one_title_are_separate_contests(tmp_path: Path) -> None:
    """Carbon 2016 primary style: each party's race is its own contest, here both titled
    US SENATE (Wayne's US SENATE made the REP race and its US HOUSE D2 the DEM one)."""
    out = []
    for line in WAYNE.read_text(encoding="cp1252").splitlines():
        if ',"US SENATE","300050","NP",' in line:
            line = line.replace(',"US SENATE","300050","NP",', ',"US SENATE","300050","REP",')
        elif ',"US HOUSE D2",' in line:
            line = line.replace(',"US HOUSE D2","300150","NP",', ',"US SENATE","300150","DEM",')
        out.append(line)
    p = tmp_path / "carbon_like_primary.txt"
    p.write_text("\r\n".join(out) + "\r\n", encoding="cp1252")
    pc = read_canvass(p)
    senate = {t.contest.key.party: {c.choice.name: c.votes for c in t.choices}
              for t in pc.totals if t.contest.key.title == "US SENATE"}
    assert senate == {
        "REP": {"Misty K Snow": 260, "Bill Barron": 51, "Stoney Fonua": 23, "Mike Lee": 1079},
        "DEM": {"Chris Stewart": 1046, "Charlene Albarran": 294, "Paul J McCollaum Jr.": 52}}
    assert {t.contest.key.district for t in pc.totals} == {""}
    assert pc.primary is True
    assert not [i for i in pc.issues if "do not add up" in i.message]


def _tiny_primary(tmp_path: Path) -> Path:
    """Two counting groups and their total per row; a REP and a DEM race sharing title and
    race id, with the contest-level pseudo-candidates."""
    def rows(pno: str, pname: str, race: str, party: str, cand: str, votes: tuple[int, int]
             ) -> list[str]:
        a, b = votes
        return [f'"7",{pno},"{pname}","{race}","1200","{party}","{cand}","","{party}",{v},'
                for v in (a, b, a + b)]

    out: list[str] = []
    for pno, pname, k in (("10", "Helper", 1), ("20", "Price 1", 2),
                          ("999999", "Election Total", 3)):
        m = 3 if k == 3 else k   # the totals row holds both precincts' sum: 1 + 2
        out += rows(pno, pname, "Race Statistics", "NP", "Times Counted", (50 * m, 5 * m))
        for party, cands in (("REP", (("ANN", 10), ("BOB", 7))), ("DEM", (("CY", 4),))):
            out += rows(pno, pname, "COUNTY COMMISSION (Vote for 2)", party,
                        "Registered Voters", (90 * m, 0))
            for cand, v in cands:
                out += rows(pno, pname, "COUNTY COMMISSION (Vote for 2)", party, cand,
                            (v * m, m))
            out += rows(pno, pname, "COUNTY COMMISSION (Vote for 2)", party,
                        "Times Blank Voted", (m, 0))
            out += rows(pno, pname, "COUNTY COMMISSION (Vote for 2)", party,
                        "Times Over Voted", (2 * m, 0))
            out += rows(pno, pname, "COUNTY COMMISSION (Vote for 2)", party,
                        "Number of Under Votes", (3 * m, m))
    p = tmp_path / "tiny_primary.txt"
    p.write_text("\r\n".join(out) + "\r\n", encoding="utf-8")
    return p


def test_pseudo_candidates_and_party_races_sharing_a_race_id(tmp_path: Path) -> None:
    pc = read_canvass(_tiny_primary(tmp_path))
    by_party = {t.contest.key.party: t for t in pc.totals}
    assert set(by_party) == {"REP", "DEM"}
    rep, dem = by_party["REP"], by_party["DEM"]
    # Per precinct: (10·k + k) for ANN, (7·k + k) for BOB; Helper k=1, Price 1 k=2.
    assert {c.choice.name: c.votes for c in rep.choices} == {"ANN": 33, "BOB": 24}
    assert {c.choice.name: c.votes for c in dem.choices} == {"CY": 15}
    assert {k.value: v for k, v in rep.extras.items()} == {"blank": 3, "over": 6, "under": 12}
    assert (rep.contest.seats, rep.contest.seats_from_file) == (2, True)
    assert pc.precincts == ["Helper", "Price 1"]
    assert not [i for i in pc.issues if "do not add up" in i.message] and pc.errors == []


def test_two_precinct_numbers_with_one_name_stay_two_precincts(tmp_path: Path) -> None:
    rows = [
        '"28",10,"Loa","MAYOR","500","NP","ANN","501","NP",5,',
        '"28",20,"Loa","MAYOR","500","NP","ANN","501","NP",4,',
        '"28",999999,"Election Total","MAYOR","500","NP","ANN","501","NP",9,',
    ]
    p = tmp_path / "same_name.txt"
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    pc = read_canvass(p)
    assert sorted(pc.precincts) == ["10 Loa", "20 Loa"]
    assert totals_of(pc, "MAYOR") == {"ANN": 9}
    assert any("share a name" in i.message for i in pc.issues)


def test_short_export_ending_in_ctrl_z_is_still_detected(tmp_path: Path) -> None:
    p = tmp_path / "short.txt"
    p.write_bytes(b'"28",10,"Loa","MAYOR","500","NP","ANN","501","NP",5,\r\n'
                  b'"28",999999,"Election Total","MAYOR","500","NP","ANN","501","NP",5,\r\n\x1a')
    assert detect(p)[0].family == "gems"
    pc = read_canvass(p)
    assert totals_of(pc, "MAYOR") == {"ANN": 5} and pc.errors == []


def test_party_named_in_the_title_when_the_race_party_field_is_blank(tmp_path: Path) -> None:
    rows = [
        '"7",10,"Helper","US SENATE (REP)","100","NP","ANN","101","REP",5,',
        '"7",10,"Helper","US SENATE (REP)","100","NP","BOB","102","REP",3,',
        '"7",10,"Helper","Republican for Governor","200","","CY","201","REP",4,',
        '"7",10,"Helper","SCHOOL BOARD","300","NP","DEE","301","NP",2,',
    ]
    p = tmp_path / "title_party.txt"
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    pc = read_canvass(p)
    assert {c.key.title: c.key.party for c in pc.contests} == {
        "US SENATE (REP)": "REP", "Republican for Governor": "REP", "SCHOOL BOARD": ""}
    assert pc.primary is True


def test_a_header_line_added_by_hand_is_passed_over_with_a_note(tmp_path: Path) -> None:
    head = "county,precinct no,precinct,race,race id,race party,candidate,cand id,cand party,votes"
    p = tmp_path / "with_header.txt"
    p.write_bytes(head.encode() + b"\r\n" + WAYNE.read_bytes())
    assert detect(p)[0].family == "gems"
    pc = read_canvass(p)
    assert totals_of(pc, "US SENATE")["Mike Lee"] == 1079
    assert pc.errors == []
    assert any(i.row == 1 and "column names" in i.message for i in pc.issues)


def test_other_spellings_of_pseudo_candidates_never_count_as_votes(tmp_path: Path) -> None:
    rows = [
        '"28",10,"Fremont","MAYOR","500","NP","ANN","501","NP",5,',
        '"28",10,"Fremont","MAYOR","500","NP","BOB","502","NP",3,',
        '"28",10,"Fremont","MAYOR","500","NP","Number of Over Votes","","NP",1,',
        '"28",10,"Fremont","MAYOR","500","NP","Times Under Voted","","NP",2,',
        '"28",10,"Fremont","MAYOR","500","NP","Number of Ballots Issued","","NP",40,',
    ]
    p = tmp_path / "spellings.txt"
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    pc = read_canvass(p)
    assert totals_of(pc, "MAYOR") == {"ANN": 5, "BOB": 3}
    assert {k.value: v for k, v in pc.totals[0].extras.items()} == {"over": 1, "under": 2}
    warned = [i for i in pc.issues if "'Number of Ballots Issued'" in i.message]
    assert warned and warned[0].severity is Severity.WARNING


@pytest.mark.parametrize(("race_level", "title"), [
    (True, "CITY COUNCIL"), (False, "CITY COUNCIL"), (True, "CITY COUNCIL (Vote for 2)"),
], ids=["race-times-counted", "precinct-times-counted", "seats-stated"])
def test_more_votes_than_ballots_counted_is_a_warning_unless_seats_are_stated(
        tmp_path: Path, race_level: bool, title: str) -> None:
    race = title if race_level else "Race Statistics"
    rows = []
    # Two counting groups, then their total: 30 ballots, 27 + 27 votes.
    for ballots, ann, bob in ((20, 15, 14), (10, 12, 13), (30, 27, 27)):
        rows += [
            f'"28",10,"Loa","{race}","{"600" if race_level else ""}","NP","Times Counted","",'
            f'"NP",{ballots},',
            f'"28",10,"Loa","{title}","600","NP","ANN","601","NP",{ann},',
            f'"28",10,"Loa","{title}","600","NP","BOB","602","NP",{bob},',
        ]
    p = tmp_path / "council.txt"
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    pc = read_canvass(p)
    assert totals_of(pc, title) == {"ANN": 27, "BOB": 27}
    warned = [i for i in pc.issues if "more votes than ballots" in i.message]
    if "Vote for" in title:
        assert warned == [] and pc.contests[0].seats == 2
    else:
        assert len(warned) == 1 and "Loa: 54 votes on 30 ballots" in warned[0].message
        assert warned[0].severity is Severity.WARNING
