"""Test set-up shared by every test: Qt offscreen, a private data folder, the data files."""

from __future__ import annotations

import os
from pathlib import Path

# Without a display Qt aborts the whole process; this must precede any Qt import.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import tempfile

import pytest

DATA = Path(__file__).parent / "data"
# Module-scoped fixtures run before the per-test folder below is set: they too must keep
# the chain heads and backups they write out of the real user's data folder.
os.environ.setdefault("RECOUNT_DESK_DATA", tempfile.mkdtemp(prefix="recount-desk-tests-"))


@pytest.fixture(autouse=True)
def _private_user_data(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the demo case and settings out of the real user's folders."""
    monkeypatch.setenv("RECOUNT_DESK_DATA", str(tmp_path_factory.mktemp("userdata")))


@pytest.fixture
def data_dir() -> Path:
    return DATA
