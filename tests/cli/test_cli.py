"""The command line: check (text and JSON), new, import, verify."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from recount_desk.cli import main

OE = Path(__file__).parents[1] / "data" / "openelections"
GRAND = OE / "20181106__ut__general__grand__precinct.csv"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    code = main(["check", *args, "--json"])
    out = json.loads(capsys.readouterr().out)
    out["_code"] = code
    return out


def by_label(result: dict, title: str, district: str = "", party: str = "") -> dict:
    for c in result["contests"]:
        if (c["title"], c["district"], c["party"]) == (title, district, party):
            return c
    raise AssertionError(title)


def test_check_json_contract_on_grand_2018(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, str(GRAND))
    assert out["_code"] == 0
    assert out["source"] == GRAND.name
    assert out["detection"] == {"family": "long", "label": out["detection"]["label"],
                                "confidence": 95,
                                "reason": "columns office, candidate, votes"}
    assert out["edition"] == "2019"
    hd69 = by_label(out, "State House", "69")
    assert hd69 == hd69 | {
        "kind": "race", "seats": 1, "voting_method": "plurality", "total": 1684,
        "choices": [{"name": "Tim Glenn", "votes": 843},
                    {"name": "Christine Watkins", "votes": 841}],
        "winners": ["Tim Glenn"], "result": "elected", "closest_loser": "Christine Watkins",
        "margin": 2, "within_margin": None, "tie": False, "portion": True,
        "scope": "multicounty", "automatic_recount": False,
        "filing_office": "the lieutenant governor", "verdict": "county_portion",
        "district_counties": ["Carbon", "Duchesne", "Emery", "Grand"],
    }
    # Grand's 843 to 841 is its part of the race: never "may request" (issue #20).
    assert "may request" not in hd69["explanation"]
    assert "county clerk" not in hd69["explanation"] + hd69["filing_office"]
    assert "whole race" in hd69["explanation"]
    assert "(1)(d)(ii)(D)" in hd69["basis"]
    senate = by_label(out, "U.S. Senate")
    assert senate["scope"] == "statewide"
    assert senate["within_margin"] is None
    assert senate["margin"] == 203
    # Grand's file labels U.S. House 3 as district 1: the table says so.
    assert any("district 3" in i["message"] for i in out["issues"])
    assert out["issues"][0]["file"] == GRAND.name


def test_check_emery_2016_dem_senate_tie(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, str(OE / "20160628__ut__primary__emery__precinct.csv"))
    senate = by_label(out, "U.S. Senate", "", "DEM")
    # Emery's figures are its portion of a statewide race: no verdict on them.
    assert senate["scope"] == "statewide"
    assert senate["portion"] is True
    assert senate["within_margin"] is None
    assert senate["filing_office"] == "the lieutenant governor"
    assert senate["result"] == "tie"
    # Were it a race within the county (the officer's setting), the tie would decide.
    out = run_json(capsys, str(OE / "20160628__ut__primary__emery__precinct.csv"),
                   "--scope", "U.S. Senate=county")
    senate = by_label(out, "U.S. Senate", "", "DEM")
    assert senate["tie"] is True
    assert senate["within_margin"] is True
    assert senate["margin"] == 0
    assert senate["automatic_recount"] is False  # 2016: the 2019 edition applies
    out = run_json(capsys, str(OE / "20160628__ut__primary__emery__precinct.csv"),
                   "--edition", "2024", "--scope", "U.S. Senate=county")
    assert by_label(out, "U.S. Senate", "", "DEM")["automatic_recount"] is True


def test_check_seats_option_makes_multi_seat(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, str(GRAND), "--seats", "U.S. Senate=2")
    senate = by_label(out, "U.S. Senate")
    assert senate["seats"] == 2
    assert senate["winners"] == ["Jenny Wilson", "Mitt Romney"]


def test_check_demo_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--demo"]) == 0
    text = capsys.readouterr().out
    assert "State House — District 32" in text
    assert "Within the recount margin" in text
    assert "Tue Nov 29, 2016" in text


def test_check_unreadable_file_exit_1_with_message(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "report.xlsx"
    p.write_bytes(b"%PDF-1.5 not a workbook")
    assert main(["check", str(p)]) == 1
    assert "PDF" in capsys.readouterr().err


def test_new_import_verify_and_tamper(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "case.recount"
    assert main(["new", str(case), "--name", "2026 General", "--date", "2026-11-03",
                 "--kind", "general", "--jurisdiction", "Grand County",
                 "--canvass-completed", "2026-11-17"]) == 0
    assert main(["import", str(case), str(GRAND)]) == 0
    assert main(["import", str(case), str(GRAND)]) == 1
    assert "already holds" in capsys.readouterr().err
    assert main(["verify", str(case)]) == 0
    conn = sqlite3.connect(case)
    conn.execute("UPDATE canvass_column SET votes = zeroblob(length(votes)) WHERE choice_id = 1")
    conn.commit()
    conn.close()
    capsys.readouterr()
    assert main(["verify", str(case)]) == 1
    assert "NOT OK" in capsys.readouterr().out


def test_new_rejects_bad_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "x.recount"), "--name", " ", "--date", "2026-11-03",
                 "--kind", "general", "--jurisdiction", "Grand",
                 "--canvass-completed", "2026-10-01"]) == 1
    err = capsys.readouterr().err
    assert "name:" in err
    assert "canvass_completed:" in err


def test_cli_does_not_import_qt() -> None:
    code = ("import sys, recount_desk.cli as c; c.build_parser(); "
            "assert 'PySide6' not in sys.modules, 'Qt imported'; "
            "assert 'pandas' not in sys.modules, 'pandas imported at start-up'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_check_text_names_the_detected_family_and_confidence(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(GRAND)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "Long table (one row per precinct, contest and choice), detected with 95 % " \
        "confidence" in first
    assert main(["check", str(GRAND), "--format", "long"]) == 0
    assert "(long format)" in capsys.readouterr().out.splitlines()[0]


def test_election_details_shown_and_changed_as_an_audited_action(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "e.recount"
    assert main(["new", str(case), "--name", "2026 General", "--date", "2026-11-03",
                 "--kind", "general", "--jurisdiction", "Grand County"]) == 0
    assert main(["election", str(case)]) == 0
    assert "canvass completed: not known" in capsys.readouterr().out
    assert main(["election", str(case), "--canvass-completed", "2026-11-17T10:00",
                 "--officer", "Jane Doe"]) == 0
    out = capsys.readouterr().out
    assert "canvass completed: 2026-11-17T10:00" in out
    assert "officer: Jane Doe" in out
    assert main(["election", str(case), "--canvass-completed", "2026-10-01T10:00"]) == 1
    assert "before the election" in capsys.readouterr().err
    conn = sqlite3.connect(case)
    actions = [r[0] for r in conn.execute("SELECT action FROM audit ORDER BY seq")]
    conn.close()
    assert actions == ["create case", "update election"]
    assert main(["verify", str(case)]) == 0
