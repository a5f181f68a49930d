"""Canvass importers: detect a file's family and read it into a :class:`ParsedCanvass`.

Each family is a module with ``FAMILY``, ``LABEL``, ``detect(path, kind) -> Detection|None``
and ``read(path, options) -> RawCanvass``; it is listed in :data:`FAMILIES`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from .base import Cancelled, Detection, ImportFailed, RawCanvass, ReadOptions, fail
from .canvass import ParsedCanvass, build, file_sha256
from .tabular import sniff

# Module names under recount_desk.formats, most specific first.
FAMILY_MODULES: tuple[str, ...] = ("long",)

__all__ = ["Cancelled", "Detection", "ImportFailed", "ParsedCanvass", "RawCanvass",
           "ReadOptions", "detect", "read_canvass", "families"]


def families() -> list[ModuleType]:
    return [importlib.import_module(f"{__name__}.{m}") for m in FAMILY_MODULES]


def detect(path: Path) -> list[Detection]:
    """Every family that claims the file, most confident first. Raises ImportFailed for
    files that are not canvass spreadsheets at all (PDF, picture, HTML, damaged…)."""
    kind = sniff(path)
    found = []
    for mod in families():
        d = mod.detect(path, kind)
        if d is not None:
            found.append(d)
    return sorted(found, key=lambda d: -d.confidence)


def read_canvass(path: Path | str, *, family: str | None = None, primary: bool | None = None,
                 seats: dict[str, int] | None = None,
                 options: ReadOptions | None = None) -> ParsedCanvass:
    """Detect (unless ``family`` is given), read and build. Raises ImportFailed with a clear
    message when the file cannot be read as a canvass at all."""
    path = Path(path)
    options = options or ReadOptions()
    if options.mapping is not None and family is None:
        family = "mapping"
    if family is None:
        found = detect(path)
        if not found:
            raise fail(path, "Recount Desk does not recognise this layout. Use the column "
                       "mapping (the import wizard's mapping page, or check --mapping) to say "
                       "which columns hold the precinct, contest, choice and votes.")
        family = found[0].family
    mods = {m.FAMILY: m for m in families()}
    if family not in mods:
        raise fail(path, f"Unknown format family {family!r}.")
    raw = mods[family].read(path, options)
    if options.cancelled():
        raise Cancelled()
    return build(raw, primary=primary, seats=seats, sha256=file_sha256(path))
