"""A long table whose party and candidate columns are swapped (Rich County's real 2022
file, tests/data/openelections/SOURCES.md, with the two columns' cells exchanged under the
same header): every "candidate" is then a party ("REP", "DEM"), a wrong reading the
plausibility gate must refuse, naming the contest, not present as read."""

from __future__ import annotations

import csv
from pathlib import Path

from recount_desk.actions.canvass import read_file
from recount_desk.core.model import Severity

RICH = (Path(__file__).resolve().parents[1] / "data" / "openelections"
        / "20221108__ut__general__rich__precinct.csv")


def test_the_party_column_read_as_the_candidates_is_refused(tmp_path: Path) -> None:
    rows = list(csv.reader(RICH.open(encoding="utf-8", newline="")))
    ci, pi = rows[0].index("candidate"), rows[0].index("party")
    swapped = tmp_path / RICH.name
    with swapped.open("w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(rows[0])
        for r in rows[1:]:
            r = list(r)
            r[ci], r[pi] = r[pi], r[ci]
            w.writerow(r)
    errors = [i for i in read_file(swapped).issues if i.severity is Severity.ERROR]
    assert any("named like a party" in i.message and "U.S. Senate" in i.message
               for i in errors)
    # The file as published reads without that doubt.
    assert not any("named like a party" in i.message for i in read_file(RICH).issues)
