"""Build the district table of ``recount_desk/core/districts.py`` from public canvass files.

    python tests/data/districts/make_table.py           # rewrite the table in districts.py
    python tests/data/districts/make_table.py --check   # exit 1 if the table differs

It reads only files kept in this repository (see tests/data/openelections/SOURCES.md):

* 2012–2021 maps: the lieutenant governor's county-level canvasses of the 2016 and 2018
  general elections (``tests/data/openelections/2016…county.csv``, ``2018…county.csv``),
  which name, per county, every U.S. House, State Senate and State House district voted in
  it (the State Senate's 29 seats are split between 2016 and 2018), and the 29 counties'
  own 2018 precinct files (trimmed copies in ``tests/data/openelections/trimmed/2018``).
* 2022 maps: the 29 counties' own 2022 precinct files (``…/trimmed/2022``).

Every county file is cross-checked before it is used: against the state canvass (2018),
against the district numbers that exist, and across counties (a district's candidates are
the same in every county it covers). A label that fails is a known exception below, with its
correction, or the build stops: a file is never trusted blindly.
"""

from __future__ import annotations

import csv
import re
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "openelections"
TARGET = ROOT / "recount_desk" / "core" / "districts.py"

COUNTIES = ("Beaver", "Box Elder", "Cache", "Carbon", "Daggett", "Davis", "Duchesne",
            "Emery", "Garfield", "Grand", "Iron", "Juab", "Kane", "Millard", "Morgan",
            "Piute", "Rich", "Salt Lake", "San Juan", "Sanpete", "Sevier", "Summit",
            "Tooele", "Uintah", "Utah", "Wasatch", "Washington", "Wayne", "Weber")
SEATS = {"us_house": 4, "state_senate": 29, "state_house": 75, "state_school_board": 15}

# (file year, county, office as read, district as read) -> (office, district) it really is.
KNOWN_MISLABELS: dict[tuple[str, str, str, str], tuple[str, int]] = {
    # Grand's 2018 file labels its U.S. House race district 1; the state canvass and the
    # candidates (Curtis, Singer) are those of district 3.
    ("2018", "Grand", "us_house", "1"): ("us_house", 3),
    # Kane's 2018 file calls the State House 73 rows "U.S. House", district 73.
    ("2018", "Kane", "us_house", "73"): ("state_house", 73),
    # Morgan's 2018 file leaves the U.S. House district empty (Rob Bishop: district 1).
    ("2018", "Morgan", "us_house", ""): ("us_house", 1),
}


def county_name(text: str) -> str:
    t = " ".join(text.split()).title()
    t = {"Salt Lake City": "Salt Lake", "San Pete": "Sanpete"}.get(t, t)
    if t not in COUNTIES:
        raise SystemExit(f"unknown county {text!r}")
    return t


def office_of(title: str) -> tuple[str, str] | None:
    """(office, district named in the title or '') for a district office, else None."""
    t = " ".join(title.replace(".", " ").lower().split())
    m = re.search(r"(\d+)\s*$", t)
    dist = m.group(1) if m else ""
    for pattern, office in ((r"^(u ?s ?house|us house)", "us_house"),
                            (r"^(utah )?state house", "state_house"),
                            (r"^(utah )?state senate", "state_senate"),
                            (r"^(state school board|state board of education)",
                             "state_school_board")):
        if re.match(pattern, t):
            return office, dist
    return None


def rows(path: Path) -> list[tuple[str, str, str, str]]:
    """(county, office, district, candidate) of every district-office row of a file."""
    out = []
    with open(path, newline="", encoding="utf-8-sig") as fh:
        for r in csv.DictReader(fh):
            found = office_of(r["office"])
            if not found:
                continue
            office, in_title = found
            dist = re.sub(r"\.0$", "", (r.get("district") or "").strip()) or in_title
            out.append((county_name(r["county"]), office, dist, r.get("candidate") or ""))
    return out


def surname(name: str) -> str | None:
    words = re.sub(r"[^a-z ]", " ", name.lower()).split()
    if not words or any(w in ("write", "over", "under", "votes", "blank", "total")
                        for w in words):
        return None
    # The first two letters: counties spell the same name differently (Heusser, Heiser).
    return words[-1][:2]


def build() -> tuple[dict[tuple[str, str, int], set[str]], list[str]]:
    table: dict[tuple[str, str, int], set[str]] = defaultdict(set)
    notes: list[str] = []
    state = set()
    for f in ("20161108__ut__general__county.csv", "20181106__ut__general__county.csv"):
        for county, office, dist, _ in rows(DATA / f):
            table[("2012", office, int(dist))].add(county)
            if f.startswith("2018"):
                state.add((county, office, dist))
    for year, cycle in (("2018", "2012"), ("2022", "2022")):
        candidates: dict[tuple[str, int], dict[str, set[str]]] = defaultdict(
            lambda: defaultdict(set))
        for path in sorted((DATA / "trimmed" / year).glob("*.csv")):
            seen = set()
            for county, office, dist, cand in rows(path):
                key = (year, county, office, dist)
                if key in KNOWN_MISLABELS:
                    office, n = KNOWN_MISLABELS[key]
                    if key not in seen:
                        notes.append(f"{path.name}: {office_label(key[2])} {key[3] or '(none)'}"
                                     f" read as {office_label(office)} {n}")
                        seen.add(key)
                elif not dist.isdigit() or not 1 <= int(dist) <= SEATS[office]:
                    raise SystemExit(f"{path.name}: {office} district {dist!r} does not exist")
                elif (year == "2018" and office != "state_school_board"
                      and (county, office, dist) not in state):
                    raise SystemExit(f"{path.name}: {office} {dist} is not in the state "
                                     "canvass for " + county)
                else:
                    n = int(dist)
                s = surname(cand)
                if s:
                    candidates[(office, n)][county].add(s)
                table[(cycle, office, n)].add(county)
        for (office, n), by_county in candidates.items():
            # Write-ins differ from county to county; the ballot's candidates do not.
            common = set.intersection(*by_county.values())
            if len(common) < min(2, *(len(v) for v in by_county.values())):
                raise SystemExit(f"{year} {office} {n}: the counties' candidates differ: "
                                 f"{dict(by_county)}")
    return table, notes


def office_label(office: str) -> str:
    return {"us_house": "U.S. House", "state_senate": "State Senate",
            "state_house": "State House", "state_school_board": "State School Board"}[office]


def render(table: dict[tuple[str, str, int], set[str]]) -> str:
    lines = ["_TABLE: dict[tuple[str, str, int], tuple[str, ...]] = {"]
    for key in sorted(table, key=lambda k: (k[0], k[1], k[2])):
        line = f"    {key!r}: {tuple(sorted(table[key]))!r},"
        if len(line) <= 99:
            lines.append(line)
            continue
        lines.append(f"    {key!r}: (")
        lines.extend(textwrap.wrap(", ".join(repr(c) for c in sorted(table[key])) + ",",
                                   95, initial_indent=" " * 8, subsequent_indent=" " * 8,
                                   break_on_hyphens=False))
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


BEGIN, END = "# BEGIN GENERATED by tests/data/districts/make_table.py\n", "# END GENERATED\n"


def main(argv: list[str]) -> int:
    table, notes = build()
    text = TARGET.read_text(encoding="utf-8")
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    new = head + BEGIN + render(table) + END + tail
    for n in notes:
        print("exception applied:", n)
    if "--check" in argv:
        if new != text:
            print("districts.py differs from the table the data gives", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
