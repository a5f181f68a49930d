"""GEMS text exports with an exact copy in them: the whole body written twice, or one
precinct's block written again. A copy is not a counting group, so it is read once with a
warning naming its lines (added up, every figure of Wayne 2016 came out four times over:
each key's six rows, parts and total twice, were summed)."""

from __future__ import annotations

from pathlib import Path

from recount_desk.core.model import Severity
from recount_desk.formats import read_canvass

WAYNE = Path(__file__).parent.parent / "data" / "formats" / "gems" / "wayne_2016g_gems.txt"
SENATE = {"Misty K Snow": 260, "Bill Barron": 51, "Stoney Fonua": 23, "Mike Lee": 1079}


def _senate(pc) -> dict[str, int]:
    t = next(t for t in pc.totals if t.contest.key.title == "US SENATE")
    return {c.choice.name: c.votes for c in t.choices}


def test_the_whole_export_written_twice_is_read_once_with_a_warning_naming_the_lines(
        tmp_path: Path) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    assert len(lines) == 2535
    p = tmp_path / "twice.txt"
    p.write_text("\r\n".join(lines + lines) + "\r\n", encoding="cp1252")
    pc = read_canvass(p)
    assert _senate(pc) == SENATE
    assert len(pc.contests) == 18 and pc.errors == []
    hits = [i for i in pc.issues if "repeat lines 1–2,535 exactly" in i.message]
    assert len(hits) == 1 and hits[0].severity is Severity.WARNING
    assert "lines 2,536–5,070" in hits[0].message and "read once" in hits[0].message
    assert not [i for i in pc.issues if "added up" in i.message]


def test_one_precincts_block_written_again_at_the_end_is_read_once(tmp_path: Path) -> None:
    lines = WAYNE.read_text(encoding="cp1252").splitlines()
    torrey = [line for line in lines if line.startswith('"28",60,"Torrey",')]
    assert len(torrey) == 315
    p = tmp_path / "torrey_twice.txt"
    p.write_text("\r\n".join(lines + torrey) + "\r\n", encoding="cp1252")
    pc = read_canvass(p)
    assert _senate(pc) == SENATE
    assert pc.errors == []
    hits = [i for i in pc.issues if "precinct 'Torrey'" in i.message]
    assert len(hits) == 1 and hits[0].severity is Severity.WARNING
    assert "lines 2,536–2,850" in hits[0].message and hits[0].row == 2536
    assert not [i for i in pc.issues if "do not end with their total" in i.message]


def test_a_copy_of_an_export_listing_its_groups_block_after_block_is_read_once(
        tmp_path: Path) -> None:
    """A precinct's lines in parts (group one, group two, their total): two groups with
    equal counts are not a copy of each other (their total differs), the whole written
    twice is."""
    rows = []
    for ann, bob in ((6, 4), (6, 4), (12, 8)):
        rows += [f'"28",10,"Loa","MAYOR","600","NP","ANN","601","NP",{ann},',
                 f'"28",10,"Loa","MAYOR","600","NP","BOB","602","NP",{bob},']
    p = tmp_path / "parts.txt"
    p.write_text("\n".join(rows + rows) + "\n", encoding="utf-8")
    pc = read_canvass(p)
    t = pc.totals[0]
    assert {c.choice.name: c.votes for c in t.choices} == {"ANN": 12, "BOB": 8}
    assert any("repeat lines 1–6 exactly" in i.message for i in pc.issues)
