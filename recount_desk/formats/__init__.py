"""Canvass importers: detect a file's family and read it into a :class:`ParsedCanvass`.

Each family is a module with ``FAMILY``, ``LABEL``, ``detect(path, kind) -> Detection|None``
and either ``read(path, options) -> RawCanvass`` or the two stages ``locate``/``map``; it is
listed in :data:`FAMILY_MODULES`. Every reading goes through the stages of
:mod:`recount_desk.formats.pipeline` (open, locate, map, validate, build, gate).

What families share lives in the stage modules, so that a family module holds its
detection and its layout's specifics: :mod:`.stages` (sheet: the head of a file read once
for every detector, the sheet to read; header band; grid: a file's cells as text, counts
tested once per distinct cell with every bad cell named, :func:`.blocks.count_cells`;
contests: stated seats, the multicounty note; rows: :func:`.stages.melt` from a grid, raw
rows as categoricals), :mod:`.longtable` (the rows stage of every long table: kinds,
counts, totals rows, write-in totals, hidden cells, per distinct text; the long mapping
too) and :mod:`.blocks` (the layouts of blocks: a header band split into contests, a
grid's choice columns as raw rows with the totals rows set apart, contests told apart by
an id, a row's count checked once; the ES&S families, GEMS and the wide mapping).

How many lines a family takes (``wc -l``, and lines of code without docstrings, comments
and blank lines), 2026-12-02: ``long`` 189 (140 of code: detection, column names, reading
its CSV as codes and its sheet); ``dominion`` 252 (199: also its undervote/overvote columns
and the seat arithmetic); the ES&S, GEMS and mapping modules, on :mod:`.blocks`, 294–534
(README, "How a reader is built", has each). A new family of
a layout the stages cover (a long table, a grid under a header band) takes about what
``long`` took: some 150 lines, 100 of them code. The older layouts are what their own
header bands, blocks and checks make them.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, cast

from recount_desk.core.model import Remedy

from . import pipeline
from .base import Cancelled, Detection, FormatFamily, ImportFailed, RawCanvass, ReadOptions, fail
from .canvass import ParsedCanvass, file_sha256
from .stages import one_look
from .tabular import read_sheet_text, sniff

# Module names under recount_desk.formats, most specific first. A family whose module is not
# there (yet) is skipped.
FAMILY_MODULES: tuple[str, ...] = (
    "clarity",          # Clarity ENR detail.xls (SpreadsheetML), .zip, re-saved .xlsx, detail.xml
    "ess_sovc",         # ES&S Electionware SOVC export, 3 header rows (CSV/XLSX)
    "ess_report",       # Electionware long results workbook report.xlsx
    "ess_summary",      # Electionware "Summary Results Report" CSV (stacked blocks)
    "ess_custom",       # Electionware "Statement of Votes Cast" custom table XLSX (Davis)
    "slco_sovc",        # Salt Lake County SOVC 2016-2018 and the 2024 printed SOVC
    "gems",             # GEMS text export (headerless ten fields)
    "dominion",         # Dominion Statement / Summary of Votes (CSV/XLSX)
    "long",             # long table, OpenElections style
    "stacked",          # county workbooks with contests stacked down, a table each
    "sideways",         # county workbooks with precincts across, contests stacked down
    "handbuilt",        # hand-built county workbooks
    "mapping",          # anything else through a user mapping
)
# A family module may say the most confidence its detect() ever claims (MAX_CONFIDENCE);
# when only the best reading is wanted, it is not asked once another has claimed as much.

__all__ = [
    "Cancelled",
    "Detection",
    "ImportFailed",
    "ParsedCanvass",
    "RawCanvass",
    "ReadOptions",
    "detect",
    "families",
    "odd_separator",
    "read_canvass",
    "read_canvass_with_raw",
    "unread_hint",
]


@functools.cache
def families() -> tuple[FormatFamily, ...]:
    """The registry: every family module, most specific first."""
    return tuple(cast("FormatFamily", importlib.import_module(f"{__name__}.{m}"))
                 for m in FAMILY_MODULES
                 if importlib.util.find_spec(f"{__name__}.{m}") is not None)


if TYPE_CHECKING:  # every family module fulfils the protocol (mypy checks these lines)
    from . import (
        clarity,
        dominion,
        ess_custom,
        ess_report,
        ess_sovc,
        ess_summary,
        gems,
        handbuilt,
        long,
        mapping,
        sideways,
        slco_sovc,
        stacked,
    )

    _REGISTRY_CHECK: tuple[FormatFamily, ...] = (
        clarity, dominion, ess_custom, ess_report, ess_sovc, ess_summary, gems, handbuilt,
        long, mapping, sideways, slco_sovc, stacked)


def detect(path: Path, *, best_only: bool = False, kind: str | None = None
           ) -> list[Detection]:
    """Every family that claims the file, most confident first (``best_only``: enough of
    them to know the best). Raises ImportFailed for files that are not canvass spreadsheets
    at all (PDF, picture, HTML, damaged…). ``kind``: what ``sniff`` said of the file, when
    it was asked already."""
    if kind is None:
        kind = sniff(path)
    found: list[Detection] = []
    with one_look(path):
        for mod in families():
            if best_only and found and \
                    getattr(mod, "MAX_CONFIDENCE", 100) <= max(d.confidence for d in found):
                continue  # it could not claim more than what has been claimed already
            d = mod.detect(path, kind)
            if d is not None:
                found.append(d)
    return sorted(found, key=lambda d: -d.confidence)


def read_canvass(path: Path | str, *, family: str | None = None, primary: bool | None = None,
                 seats: dict[str, int] | None = None,
                 options: ReadOptions | None = None,
                 detection: Detection | None = None) -> ParsedCanvass:
    """Detect (unless ``family`` is given), read, build and pass the plausibility gate.
    Raises ImportFailed with a clear message when the file cannot be read as a canvass at
    all. ``detection``: the claim of ``family`` made earlier, for the gate to lower."""
    return read_canvass_with_raw(path, family=family, primary=primary, seats=seats,
                                 options=options, detection=detection)[1]


def odd_separator(path: Path, kind: str | None = None) -> str | None:
    """"tabs" or "semicolons" for a text file whose columns are separated so (Excel's
    'Text (Tab delimited)', or a comma-decimal locale's CSV), else None (and for a workbook,
    or a file that is not one at all): the readers take commas; the column mapping sniffs
    the separator. ``kind``: what ``sniff`` said of the file, when it was asked already."""
    try:
        if (kind or sniff(path)) != "csv":
            return None
    except ImportFailed:
        return None
    try:
        with open(path, "rb") as f:
            lines = [ln for ln in f.read(8192).splitlines() if ln.strip()][:5]
    except OSError:
        return None
    for sep, name in ((b"\t", "tabs"), (b";", "semicolons")):
        if lines and all(ln.count(sep) >= 2 and ln.count(sep) > ln.count(b",")
                         for ln in lines):
            return name
    return None


def _separated_by(path: Path, kind: str) -> str:
    """What a refusal says of a file :func:`odd_separator` names (empty for any other)."""
    name = odd_separator(path, kind)
    return "" if name is None else (
        f" Its columns are separated by {name}, not commas: the column mapping reads it "
        "(the window's import wizard), or save it from Excel as 'CSV UTF-8 (Comma "
        "delimited)' and import that copy.")


def unread_hint(path: Path, kind: str | None = None) -> str:
    """What a refusal says of a long table whose votes are split by mode with no total
    ("" for any other file). ``kind``: what ``sniff`` said of the file, when asked already."""
    from . import long

    try:
        return long.why_not(path, kind or sniff(path)).strip()
    except ImportFailed:
        return ""


def read_canvass_with_raw(path: Path | str, *, family: str | None = None,
                          primary: bool | None = None, seats: dict[str, int] | None = None,
                          options: ReadOptions | None = None,
                          detection: Detection | None = None
                          ) -> tuple[RawCanvass, ParsedCanvass]:
    """``read_canvass``, with the family's raw reading beside it (whose rows the recount
    load names)."""
    path = Path(path)
    kind = sniff(path)  # refuses at once what is no regular file (a FIFO would hang the read)
    options = options or ReadOptions()
    if options.mapping is not None and family is None:
        family = "mapping"
    if family is None:
        found = detect(path, best_only=True, kind=kind)
        if not found:
            if kind in ("xlsx", "xls", "ods"):
                # Readers skip a workbook they cannot open; say it is damaged, not unknown.
                read_sheet_text(path, 0, nrows=2)
            raise fail(path, "Recount Desk does not recognise this layout: a column mapping "
                       "must say which columns hold the precinct, contest, choice and votes."
                       + _separated_by(path, kind)
                       + (f" {hint}" if (hint := unread_hint(path, kind)) else ""),
                       remedy=Remedy.MAP_COLUMNS)
        family, detection = found[0].family, found[0]
    elif detection is not None and detection.family != family:
        detection = None
    mods = {m.FAMILY: m for m in families()}
    if family not in mods:
        raise pipeline.unknown_family(path, family)
    return pipeline.run_with_raw(mods[family], path, options, primary=primary, seats=seats,
                                 detection=detection, sha256=file_sha256, kind=kind)
