"""`recount-desk check FILE FILE …` and `--scope`: whole races and the officer's scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recount_desk.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "openelections"
TRIM = DATA / "trimmed" / "2018"
FOUR = [TRIM / f"20181106__ut__general__{c}__precinct.csv"
        for c in ("carbon", "duchesne", "emery", "grand")]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    code = main(["check", *args, "--json"])
    out = json.loads(capsys.readouterr().out)
    out["_code"] = code
    return out


def hd(out: dict, district: str) -> dict:  # type: ignore[type-arg]
    return next(c for c in out["contests"]
                if (c["title"], c["district"]) == ("State House", district))


def test_four_counties_decide_state_house_69_on_the_whole_race(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, *map(str, FOUR))
    c = hd(out, "69")
    assert c["whole"] is True and c["portion"] is False
    assert c["within_margin"] is False
    assert {x["name"]: x["votes"] for x in c["choices"]} == {"Christine Watkins": 8589,
                                                            "Tim Glenn": 3320}
    assert c["counties"] == ["Carbon", "Duchesne", "Emery", "Grand"]
    assert c["filing_office"] == "the lieutenant governor"
    assert len(c["parts"]) == 4
    assert c["name_matches"]  # Duchesne's CHRISTINE F WATKINS, shown for confirmation
    # State House 70 covers Sanpete and Sevier too: still a portion.
    assert hd(out, "70")["portion"] is True and hd(out, "70")["within_margin"] is None


def test_one_county_with_the_state_canvass_rests_on_the_official_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, str(FOUR[3]), "--state-canvass",
              str(DATA / "20181106__ut__general__county.csv"))
    c = hd(out, "69")
    assert c["official"] is True and c["within_margin"] is False
    assert c["total"] == 11909


def test_scope_option_sets_a_contest_within_the_county(
        capsys: pytest.CaptureFixture[str]) -> None:
    grand = DATA / "20181106__ut__general__grand__precinct.csv"
    out = run(capsys, str(grand), "--scope", "State House 69=county")
    c = hd(out, "69")
    assert c["scope"] == "county" and c["scope_set_by_officer"] is True
    assert c["within_margin"] is True and c["filing_office"] == "the county clerk"
    assert hd(out, "70")["portion"] is True
    with pytest.raises(SystemExit, match="SCOPE one of"):
        main(["check", str(grand), "--scope", "State House=regional"])


def test_portion_demo_shows_both_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--demo-portion"]) == 0
    text = capsys.readouterr().out
    one, two = text.split("Step 2")
    line69 = next(ln for ln in one.splitlines() if "State House — District 69" in ln)
    assert "County portion" in line69 and "threshold      —" in line69
    line69 = next(ln for ln in two.splitlines() if "State House — District 69" in ln)
    assert "Not eligible (whole race)" in line69 and "11,909" in line69


def test_a_race_not_added_up_gives_no_figures_in_text_or_json(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Two counties' files list different candidates for State House 69: nothing is added
    # up, and neither the line nor the JSON gives the first file's figures as the race's.
    import csv
    files = []
    for county, other in (("Carbon", "Tim Glenn"), ("Grand", "Timothy Glennon")):
        path = tmp_path / f"20181106__ut__general__{county.lower()}__precinct.csv"
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["county", "precinct", "office", "district", "candidate", "party",
                        "votes"])
            w.writerow([county, "P1", "State House", "69", "Christine Watkins", "REP", 10])
            w.writerow([county, "P1", "State House", "69", other, "DEM", 9])
        files.append(str(path))
    c = hd(run(capsys, *files), "69")
    assert c["refused"] and c["total"] is None and c["choices"] == [] and c["winners"] == []
    assert c["within_margin"] is False and c["decided"] is False
    assert main(["check", *files]) == 1
    line = next(x for x in capsys.readouterr().out.splitlines()
                if x.startswith("State House — District 69"))
    assert "total         —" in line and "Cannot be decided (not added up)" in line
