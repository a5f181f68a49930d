"""Where bundled resources live: a source checkout, an installed package, or a frozen app."""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    """The folder holding the demo election, icons and fonts."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        return Path(frozen) / "resources"
    checkout = Path(__file__).resolve().parent.parent / "resources"
    if (checkout / "demo").is_dir():
        return checkout
    from importlib.resources import files

    return Path(str(files("recount_desk.resources")))


def resource(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
