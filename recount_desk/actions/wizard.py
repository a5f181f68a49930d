"""What the import wizard needs beyond reading: a raw preview of a sheet, and mappings.

The mapping family (``formats/mapping.py``) reads layouts nobody recognised, from a mapping
the officer builds on the wizard's mapping page. This module is the window's only door to
it, so the window never imports ``formats``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recount_desk.core.model import Contest, PassRule, Scope, VotingMethod
from recount_desk.formats import ImportFailed, ParsedCanvass

# The roles a mapped column can play; the first four are required.
REQUIRED_ROLES = ("precinct", "contest", "choice", "votes")
OPTIONAL_ROLES = ("district", "party")
ROLE_LABELS = {
    "precinct": "Precinct",
    "contest": "Contest (office or proposition)",
    "choice": "Candidate or choice",
    "votes": "Votes",
    "district": "District (optional)",
    "party": "Party (optional)",
}

__all__ = [
    "OPTIONAL_ROLES",
    "REQUIRED_ROLES",
    "ROLE_LABELS",
    "Block",
    "ContestSettings",
    "ImportFailed",
    "TablePreview",
    "column_choices",
    "column_position",
    "load_mapping",
    "make_mapping",
    "make_wide_mapping",
    "mapping_problems",
    "missing_roles",
    "preview_table",
    "propose_mapping",
    "save_mapping",
    "saved_mapping_for",
    "settings_of",
    "wide_problems",
    "with_contest_settings",
]


@dataclass(frozen=True)
class TablePreview:
    """The first rows of one sheet, as text, with the header row the mapping would use."""

    file: str
    sheets: list[str]
    sheet: str | None
    header_row: int  # 1-based
    header: list[str]
    rows: list[list[str]] = field(default_factory=list)


def preview_table(path: Path | str, sheet: str | None = None, header_row: int | None = None,
                  nrows: int = 20) -> TablePreview:
    """The header row and the ``nrows`` rows under it, of ``sheet`` (default: the first).

    ``header_row`` is 1-based; by default the first non-empty row. Raises ImportFailed for
    files that are not spreadsheets.
    """
    from recount_desk.formats import mapping

    path = Path(path)
    if header_row is None:
        names, head = mapping.preview(path, sheet=sheet, nrows=30)
        header_row = next((i + 1 for i, r in enumerate(head) if any(c.strip() for c in r)), 1)
    names, rows = mapping.preview(path, sheet=sheet, header_row=header_row, nrows=nrows + 1)
    if sheet is None and names:
        sheet = names[0]
    header = [" ".join(c.split()) for c in rows[0]] if rows else []
    width = len(header)
    body = [(list(r) + [""] * (width - len(r)))[:width] for r in rows[1:]]
    return TablePreview(path.name, list(names), sheet, header_row, header, body)


def workbook_sheets(path: Path | str) -> list[str]:
    """The sheets of a workbook (XLSX, XLS, ODS) in its order, to choose the one to read;
    [] for a CSV or any other file (a reading of it says what is wrong)."""
    from recount_desk.formats.tabular import sheet_names, sniff

    p = Path(path)
    try:
        kind = sniff(p)
        return sheet_names(p, kind) if kind in ("xlsx", "xls", "ods") else []
    except ImportFailed:
        return []


def mapping_problems(mapping: dict[str, Any]) -> list[str]:
    """What is wrong with the shape of a mapping, as sentences (empty when it is sound)."""
    from recount_desk.formats import mapping as family

    return list(family.validate(mapping))


def make_mapping(*, sheet: str | None, header_row: int, columns: dict[str, str | None]
                 ) -> dict[str, Any]:
    """The mapping dictionary the mapping family reads (long layout)."""
    cols: dict[str, str | None] = {r: columns.get(r) or None for r in REQUIRED_ROLES}
    cols.update({r: columns.get(r) or None for r in OPTIONAL_ROLES})
    out: dict[str, Any] = {"layout": "long", "header_row": header_row, "columns": cols}
    if sheet is not None:
        out["sheet"] = sheet
    return out


@dataclass(frozen=True)
class Block:
    """One contest of a wide sheet: its title and the columns (1-based, inclusive) of its
    choices."""

    contest: str
    first: int
    last: int
    seats: int = 1


def column_choices(header: list[str]) -> list[tuple[str, int]]:
    """("C: Ann Smith", 3) for each column of a header: letter, name, 1-based position."""
    from recount_desk.formats.tabular import col_letter

    return [(f"{col_letter(i)}: {h or '(no name)'}", i + 1) for i, h in enumerate(header)]


def make_wide_mapping(*, sheet: str | None, header_row: int, precinct_column: int,
                      blocks: list[Block], header: list[str] | None = None
                      ) -> dict[str, Any]:
    """The mapping dictionary for a wide sheet: columns named by position, so repeated
    headers (a YES and a NO in every proposition) are never ambiguous; ``header`` (the
    column names it was made on) lets a sheet of the same layout be recognised later."""
    out: dict[str, Any] = {
        "layout": "wide", "header_row": header_row, "precinct_column": precinct_column,
        "blocks": [{"contest": b.contest.strip(), "seats": b.seats,
                    "columns": list(range(b.first, b.last + 1))} for b in blocks],
    }
    if header is not None:
        out["header"] = list(header)
    if sheet is not None:
        out["sheet"] = sheet
    return out


def wide_problems(precinct_column: int | None, blocks: list[Block],
                  header: list[str]) -> list[str]:
    """What keeps a wide mapping from being read, as sentences (empty when it can be)."""
    out: list[str] = []
    if precinct_column is None:
        out.append("Choose the column that names the precinct.")
    if not blocks:
        out.append("Add a contest for each block of columns.")
    owner: dict[int, str] = {}
    names = dict(column_choices(header))
    label = {pos: text for text, pos in names.items()}
    for n, b in enumerate(blocks, start=1):
        title = b.contest.strip()
        if not title:
            out.append(f"Contest {n} has no title.")
            continue
        if b.first > b.last:
            out.append(f"{title}: its first column comes after its last.")
            continue
        for pos in range(b.first, b.last + 1):
            if pos == precinct_column:
                out.append(f"{title} takes in the precinct column ({label.get(pos, pos)}).")
                break
            if pos in owner:
                out.append(f"{owner[pos]} and {title} both take column "
                           f"{label.get(pos, pos)}.")
                break
            owner[pos] = title
    return out


def save_mapping(path: Path | str, mapping: dict[str, Any]) -> None:
    """Write a mapping as JSON, for the next file of this layout or for
    ``recount-desk check --mapping``."""
    import json

    Path(path).write_text(json.dumps(mapping, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")


def load_mapping(path: Path | str) -> dict[str, Any]:
    """A mapping read from a JSON file; ImportFailed with one sentence when it is not one."""
    import json

    from recount_desk.core.model import Issue, Severity

    path = Path(path)
    try:
        mapping = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ImportFailed(Issue(path.name, f"This is not a mapping file (JSON): {e}.",
                                 severity=Severity.ERROR)) from e
    problems = mapping_problems(mapping)
    if problems:
        raise ImportFailed(Issue(path.name, " ".join(problems), severity=Severity.ERROR))
    return dict(mapping)


def propose_mapping(path: Path | str, sheet: str | None = None,
                    header_row: int | None = None) -> dict[str, Any]:
    """A mapping for ``sheet`` guessed from what its columns hold (the header row, long or
    wide, each column's role, contests' blocks), for the officer to check on the mapping
    page; ImportFailed when the file is no spreadsheet."""
    from recount_desk.formats import mapping

    return mapping.propose(Path(path), sheet, header_row)


def saved_mapping_for(path: Path | str, header: list[str]) -> tuple[Path, dict[str, Any]] | None:
    """A saved mapping beside ``path`` that fits a sheet with this ``header`` (every column
    it names is there): ``<file>.mapping.json`` first, then the folder's other
    ``*.mapping.json`` files, newest first. For another sheet of the workbook, or next
    election's file of the same layout."""
    from recount_desk.formats import mapping

    path = Path(path)
    own = path.with_suffix(".mapping.json")
    try:
        others = sorted((p for p in path.parent.glob("*.mapping.json") if p != own),
                        key=lambda p: -p.stat().st_mtime)
    except OSError:
        return None
    for candidate in ([own] if own.is_file() else []) + others[:50]:
        try:
            m = load_mapping(candidate)
        except ImportFailed:
            continue
        if mapping.fits(m, header):
            return candidate, m
    return None


def column_position(header: list[str], ref: object) -> int | None:
    """Where a mapping's column reference (name, number or letter) points in ``header``
    (1-based), or None."""
    from recount_desk.formats.mapping import column_position as find

    return find(header, ref)


def missing_roles(columns: dict[str, str | None]) -> list[str]:
    """The required roles the officer has not given a column yet, as labels."""
    return [ROLE_LABELS[r] for r in REQUIRED_ROLES if not columns.get(r)]


@dataclass(frozen=True)
class ContestSettings:
    """What the officer sets per contest before the import (the file rarely says)."""

    seats: int
    scope: Scope
    voting_method: VotingMethod
    pass_rule: PassRule


def settings_of(contest: Contest) -> ContestSettings:
    return ContestSettings(contest.seats, contest.scope, contest.voting_method,
                           contest.pass_rule)


def with_contest_settings(parsed: ParsedCanvass, settings: dict[int, ContestSettings]
                          ) -> ParsedCanvass:
    """The read canvass with the officer's settings for contests by index, so the import
    stores them in its one transaction. Seats set here count as stated (not assumed)."""
    for i, s in settings.items():
        if s.seats < 1:
            raise ValueError("A contest fills at least one seat.")
        t = parsed.totals[i]
        c = dataclasses.replace(t.contest, seats=s.seats, scope=s.scope,
                                voting_method=s.voting_method, pass_rule=s.pass_rule,
                                seats_from_file=t.contest.seats_from_file
                                or s.seats != t.contest.seats)
        parsed.totals[i] = dataclasses.replace(t, contest=c)
        if i < len(parsed.contests):
            parsed.contests[i] = c
    return parsed
