"""A totals row in the precinct column ("Total", "Totals", "COUNTY TOTALS", "Grand Total"…)
is the file's own totals in every family: never counted as a precinct (twice), never
dropped without a word; where it disagrees with the precincts, that is said."""

from __future__ import annotations

import csv
from pathlib import Path

import handbuilt_layouts as hl
import pandas as pd
import pytest

from recount_desk.core.model import Severity
from recount_desk.formats import ReadOptions, read_canvass
from recount_desk.formats.base import RawCanvass
from recount_desk.formats.pipeline import validate

LABELS = ["Total", "Totals", "TOTALS:", "Grand Total", "Grand Totals", "County Totals",
          "Election Total"]


def _csv(path: Path, rows: list[list[str]]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows(rows)
    return path


def _figures(parsed) -> dict[str, dict[str, int]]:
    return {t.contest.key.title.title(): {c.choice.name.title(): c.votes for c in t.choices}
            for t in parsed.totals}


def _sovc(tmp: Path, label: str, bob_total: int) -> Path:
    head = ["COUNTY NUMBER", "PRECINCT CODE", "PRECINCT NAME", "REGISTERED VOTERS TOTAL",
            "BALLOTS CAST TOTAL", "BALLOTS CAST BLANK", "MAYOR", "MAYOR"]
    return _csv(tmp / "mayor_sovc.csv", [
        head, ["", "", "", "", "", "", "NON", "NON"],
        ["", "", "", "VOTERS", "BALLOTS CAST", "BALLOTS CAST", "ANN", "BOB"],
        ["10", "1", "Moab 1", "100", "50", "0", "30", "15"],
        ["10", "2", "Moab 2", "100", "60", "0", "25", "30"],
        ["10", "999", label, "200", "110", "0", "55", str(bob_total)]])


def _long(tmp: Path, label: str, bob_total: int) -> Path:
    rows = [["county", "precinct", "office", "district", "party", "candidate", "votes"]]
    for p, a, b in (("Moab 1", 30, 15), ("Moab 2", 25, 30), (label, 55, bob_total)):
        rows += [["Grand", p, "Mayor", "", "", "Ann", str(a)],
                 ["Grand", p, "Mayor", "", "", "Bob", str(b)]]
    return _csv(tmp / "20241105__ut__general__grand__precinct.csv", rows)


def _dominion(tmp: Path, label: str, bob_total: int) -> Path:
    head = ["Precinct Code", "Precinct Number", "Contest Title", "Choice Name",
            "Active Voters", "Total Ballots", "Total Votes", "Total Undervotes",
            "Total Overvotes"]
    rows = [head]
    for p, a, b in (("001", 30, 15), ("002", 25, 30), (label, 55, bob_total)):
        rows += [[p, "1", "Mayor", "Ann", "100", "60", str(a), "5", "0"],
                 [p, "1", "Mayor", "Bob", "100", "60", str(b), "5", "0"]]
    return _csv(tmp / "sov.csv", rows)


def _mapped(tmp: Path, label: str, bob_total: int) -> tuple[Path, ReadOptions]:
    rows = [["Where", "Race", "Name", "Count"]]
    for p, a, b in (("Moab 1", 30, 15), ("Moab 2", 25, 30), (label, 55, bob_total)):
        rows += [[p, "Mayor", "Ann", str(a)], [p, "Mayor", "Bob", str(b)]]
    mapping = {"layout": "long", "columns": {"precinct": "Where", "contest": "Race",
                                             "choice": "Name", "votes": "Count"}}
    return _csv(tmp / "mapped.csv", rows), ReadOptions(mapping=mapping)


def _read(kind: str, tmp: Path, label: str, bob_total: int):
    if kind == "mapping":
        path, options = _mapped(tmp, label, bob_total)
        return read_canvass(path, options=options)
    return read_canvass({"ess_sovc": _sovc, "long": _long, "dominion": _dominion}[kind](
        tmp, label, bob_total))


@pytest.mark.parametrize("label", LABELS)
@pytest.mark.parametrize("kind", ["ess_sovc", "long", "dominion", "mapping"])
def test_a_totals_row_is_the_files_totals_in_every_family(tmp_path, kind, label):
    parsed = _read(kind, tmp_path, label, 45)
    assert not any(label.rstrip(":").lower() == p.lower().rstrip(":") for p in parsed.precincts)
    assert len(parsed.precincts) == 2
    assert _figures(parsed)["Mayor"] == {"Ann": 55, "Bob": 45}  # not doubled
    assert not parsed.errors, parsed.errors
    t = parsed.totals[0]
    assert t.official or any("totals" in i.message.lower() for i in parsed.issues)


@pytest.mark.parametrize("kind", ["ess_sovc", "long", "dominion", "mapping"])
def test_a_totals_row_that_disagrees_with_the_precincts_is_said(tmp_path, kind):
    parsed = _read(kind, tmp_path, "Totals", 47)  # the precincts give Bob 45
    said = [i for i in parsed.issues if "bob" in i.message.lower() and "45" in i.message
            and i.severity in (Severity.ERROR, Severity.WARNING)]
    assert said, [i.message for i in parsed.issues]
    assert len(parsed.precincts) == 2


@pytest.mark.parametrize("label", ["Total", "Totals", "Grand Total", "COUNTY TOTALS"])
def test_a_handbuilt_totals_row_under_any_of_its_names(tmp_path, label):
    layout = hl.Layout(totals_label=label, federal_row=False)
    exp = hl.write(layout, tmp_path / "county.xlsx")
    parsed = read_canvass(tmp_path / "county.xlsx")
    assert sorted(parsed.precincts) == sorted(exp.precincts)
    assert _figures(parsed) == {t.title(): {c.title(): v for c, v in ch.items()}
                                for t, ch in exp.totals.items()}
    assert all(t.official for t in parsed.totals)


def _raw(rows: list[tuple[str, str, int, int]], file_totals=None) -> RawCanvass:
    df = pd.DataFrame([(p, "Mayor", "", "", ch, "", "candidate", v, r) for p, ch, v, r in rows],
                      columns=["precinct", "contest", "district", "party", "choice",
                               "choice_party", "kind", "votes", "row"])
    return RawCanvass("f.csv", "test", df, file_totals=file_totals or {})


def test_validate_takes_a_totals_row_out_and_makes_it_the_files_totals():
    raw = validate(_raw([("A", "Ann", 3, 2), ("B", "Ann", 4, 3), ("Total", "Ann", 7, 4)]))
    assert raw.rows["precinct"].tolist() == ["A", "B"]
    assert raw.file_totals == {("Mayor", "", ""): {"Ann": 7}}
    assert any("'Total'" in i.message and i.severity is Severity.NOTE for i in raw.issues)


def test_validate_refuses_a_totals_row_that_contradicts_the_files_totals():
    raw = validate(_raw([("A", "Ann", 3, 2), ("Total", "Ann", 9, 4)],
                        {("Mayor", "", ""): {"Ann": 3}}))
    err = [i for i in raw.issues if i.severity is Severity.ERROR]
    assert len(err) == 1 and err[0].row == 4 and "contradicts itself" in err[0].message
    assert raw.rows["precinct"].tolist() == ["A"]


def test_validate_leaves_a_reading_without_totals_rows_as_it_was():
    raw = _raw([("A", "Ann", 3, 2)])
    assert validate(raw) is raw


def _neither(kind: str, tmp: Path):
    """A 'Total' row whose every figure differs from the precincts' sums (Ann 55, Bob 45)."""
    if kind == "mapping":
        path, options = _mapped(tmp, "Total", 9)
        return path, options
    return {"long": _long, "dominion": _dominion}[kind](tmp, "Total", 9), None


@pytest.mark.parametrize("kind", ["long", "dominion", "mapping"])
def test_a_totals_named_row_that_is_no_sum_is_refused_not_counted(tmp_path, kind):
    path, options = _neither(kind, tmp_path)
    # Ann's figure is off too: the row is the sum of nothing.
    data = path.read_bytes().replace(b",55,", b",1,").replace(b",55\r", b",1\r")
    path.write_bytes(data)
    parsed = read_canvass(path, options=options)
    assert parsed.errors and "agrees with the precincts for no choice" in \
        parsed.errors[0].message
    assert parsed.doubtful
    assert "Total" not in parsed.precincts


def test_a_county_totals_row_a_few_votes_off_its_precincts_is_still_a_totals_row():
    # Iron County's 2018 file (tests/data/openelections/trimmed, from OpenElections) has a
    # precinct 'IRON UT' holding the county's totals, two of whose counts are some votes off
    # its precincts' sums (Jeffrey Whipple 853 against 864): read as a precinct, it doubled
    # every race, and State House 72 was 'not eligible' on twice its votes.
    iron = (Path(__file__).resolve().parents[1] / "data" / "openelections" / "trimmed" / "2018"
            / "20181106__ut__general__iron__precinct.csv")
    parsed = read_canvass(iron)
    [err] = [i for i in parsed.errors if "IRON UT" in i.message]
    assert err.message.startswith("Precinct 'IRON UT' holds, in 8 of its 10 counts (and nearly "
                                  "in the others), the sum of all the other precincts")
    assert parsed.blocking
