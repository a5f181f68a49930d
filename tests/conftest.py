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


# --- PostgreSQL (the counting center's server): one throwaway server for the session -------

@pytest.fixture(scope="session")
def pg_server():  # type: ignore[no-untyped-def]
    """A PostgreSQL server to make cases on (tests/pg_cluster.py): ``RECOUNT_DESK_TEST_PG``,
    or a throwaway cluster; the test is skipped, saying why, only when none can be had."""
    from tests import pg_cluster

    server = pg_cluster.start_server()
    if server is None:
        pytest.skip("PostgreSQL tests need a server: " + pg_cluster.why_not())
    yield server
    if server.cluster is not None:
        server.cluster.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_case_at(request: pytest.FixtureRequest, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Where to make a new case, on each engine: a file path, or the URL of a new empty
    database on the test server. Call it with a file name (used for SQLite)."""
    if request.param == "sqlite":
        return lambda name="case.recount": tmp_path / name
    server = request.getfixturevalue("pg_server")
    return lambda name="case.recount": server.new_database()
