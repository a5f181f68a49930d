"""Copy the every-county 2018 and 2022 general-election files, trimmed to district races.

Run from the repository root with the corpus's ``openelections-ut`` folder:

    python tests/data/openelections/trimmed/trim.py CORPUS/openelections-ut

(CORPUS: the project's shared corpus folder, beside the repository; tests read only the
trimmed copies.)

Each county file keeps its own header, column order and every row whose office is a U.S.
House, State Senate, State House or State School Board race (the offices the district
table in ``recount_desk/core/districts.py`` covers), byte for byte; other rows are left out
to keep the copies small. Written to ``tests/data/openelections/trimmed/<year>/``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DISTRICT_OFFICE = re.compile(
    r"^\W*(utah\s+)?(u\.?\s?s\.?\s?house|state\s+house|state\s+senate|state\s+school\s+board|"
    r"state\s+board\s+of\s+education)", re.IGNORECASE)


def office_column(header: str) -> int:
    return [c.strip().strip('"').lower() for c in header.split(",")].index("office")


def trim(src: Path, dest: Path) -> None:
    lines = src.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    col = office_column(lines[0])
    kept = [lines[0]]
    for line in lines[1:]:
        # Office cells in these files hold no commas or quotes, so a split is exact.
        cells = line.split(",")
        if len(cells) > col and DISTRICT_OFFICE.match(cells[col].strip('"')):
            kept.append(line)
    dest.write_text("".join(kept), encoding="utf-8", newline="")


def main(corpus: str) -> None:
    root = Path(corpus)
    for year, pattern in (("2018", "2018/counties/20181106__ut__general__*"),
                          ("2022", "2022/counties/20221108__ut__general__*")):
        out = HERE / year
        out.mkdir(exist_ok=True)
        for src in sorted(root.glob(pattern)):
            trim(src, out / src.name)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: trim.py CORPUS/openelections-ut")
    main(sys.argv[1])
