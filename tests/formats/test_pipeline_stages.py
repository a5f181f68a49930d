"""The reading pipeline's stages and shared pieces: families in stages, the issue log that
caps a repeated problem, and a frozen reading."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import ess_sovc, families, gems, read_canvass
from recount_desk.formats.base import ReadOptions
from recount_desk.formats.pipeline import IssueLog, Located, StagedFamily, open_source

DATA = Path(__file__).parents[1] / "data" / "formats"


def test_staged_families_are_known_as_such_and_every_family_is_registered():
    assert isinstance(ess_sovc, StagedFamily) and isinstance(gems, StagedFamily)
    assert {"ess_sovc", "gems", "long", "clarity"} <= {f.FAMILY for f in families()}


def test_an_issue_log_caps_a_repeated_problem_where_it_would_have_gone_on():
    log = IssueLog("f.csv", "S")
    for k in range(13):
        log.repeated("bad", f"bad {k}", Severity.ERROR, more="bad cells", cap=3, row=k)
    log.note("after")
    issues = log.close()
    assert [i.message for i in issues] == ["bad 0", "bad 1", "bad 2", "… and 10 more bad cells.",
                                           "after"]
    assert issues[3].severity is Severity.ERROR and issues[3].sheet == "S"
    assert log.count("bad") == 13


def test_gems_read_in_its_stages_names_each_bad_row_and_counts_the_rest(tmp_path):
    good = '"7",10,"P1","MAYOR","1","NP","ANN","1","NP",12\n'
    path = tmp_path / "export.txt"
    path.write_text(good * 2 + '"7",10,"P1","MAYOR"\n' * 12 + good.replace("ANN", "BOB"),
                    encoding="utf-8")
    located = gems.locate(open_source(path), ReadOptions())
    assert isinstance(located, Located) and len(located.rows) == 3
    raw = gems.map(located, ReadOptions())
    shape = [i for i in raw.issues if "fields" in i.message]
    assert [i.row for i in shape[:10]] == list(range(3, 13))
    assert shape[10].message == "… and 2 more rows without ten fields."
    assert read_canvass(path, family="gems").errors  # refused whole: rows were left out


def test_a_reading_is_frozen():
    parsed = read_canvass(DATA / "gems" / next(p.name for p in (DATA / "gems").iterdir()
                                               if p.suffix == ".txt"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.totals = []  # type: ignore[misc]
