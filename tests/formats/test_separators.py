"""A long table saved with tabs or semicolons between its columns (Excel's 'Text (Tab
delimited)', a comma-decimal locale's CSV): refused by the readers with a sentence that says
so, and read by the column mapping with the same figures as the comma-separated file."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, ReadOptions, read_canvass

RICH = Path(__file__).parents[1] / "data" / "openelections" / \
    "20221108__ut__general__rich__precinct.csv"
MAPPING = {"layout": "long", "columns": {
    "precinct": "precinct", "contest": "office", "choice": "candidate", "votes": "votes",
    "district": "district", "party": "party"}}


def _totals(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.label(): {c.choice.name: c.votes for c in t.choices}
            for t in parsed.totals}


@pytest.mark.parametrize(("sep", "word", "name"), [("\t", "tabs", "rich.txt"),
                                                   (";", "semicolons", "rich.csv")])
def test_a_long_table_with_another_separator_is_refused_saying_so_and_mapped_right(
        tmp_path: Path, sep: str, word: str, name: str) -> None:
    text = RICH.read_text(encoding="utf-8")
    assert sep not in text
    path = tmp_path / name
    path.write_text(text.replace(",", sep), encoding="utf-8")
    with pytest.raises(ImportFailed, match=f"separated by {word}, not commas"):
        read_canvass(path)
    mapped = read_canvass(path, options=ReadOptions(mapping=MAPPING))
    assert _totals(mapped) == _totals(read_canvass(RICH))


def test_a_file_the_readers_do_not_know_is_not_said_to_have_another_separator(
        tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text("a,b,c\n1,2,3\n4,5,6\n", encoding="utf-8")
    with pytest.raises(ImportFailed) as err:
        read_canvass(path)
    assert "separated by" not in str(err.value)
