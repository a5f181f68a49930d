"""Mappings saved and loaded as files (the wizard's page and check --mapping share them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recount_desk.actions import wizard


def test_a_saved_mapping_loads_back_the_same(tmp_path: Path) -> None:
    m = wizard.make_wide_mapping(sheet="Results", header_row=3, precinct_column=1,
                                 blocks=[wizard.Block("Mayor", 2, 4, 1),
                                         wizard.Block("Council", 5, 9, 2)])
    path = tmp_path / "m.json"
    wizard.save_mapping(path, m)
    assert wizard.load_mapping(path) == m


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "This is not a mapping file (JSON)"),
    ('{"layout": "diagonal"}', "must be \"long\" or \"wide\""),
    ('{"layout": "long", "columns": {"precinct": "P"}}', "needs a column for 'contest'"),
])
def test_a_file_that_is_no_mapping_is_refused_in_one_sentence(
        tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(wizard.ImportFailed) as e:
        wizard.load_mapping(path)
    assert message in e.value.issue.message
    assert e.value.issue.file == "m.json"


def test_column_references_resolve_like_the_reader_does() -> None:
    header = ["Ward", "Ann Lee", "Yes", "No", "Yes"]
    assert wizard.column_position(header, "ann lee") == 2
    assert wizard.column_position(header, 4) == 4
    assert wizard.column_position(header, "C") == 3
    assert wizard.column_position(header, "Yes") is None  # repeated: name it by position
    assert wizard.column_position(header, "Nobody") is None
