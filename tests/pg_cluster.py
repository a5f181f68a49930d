"""A throwaway PostgreSQL server for the tests and the counting-center benchmark.

``RECOUNT_DESK_TEST_PG`` (a ``postgresql://`` URL of a role allowed to create databases)
names a server to use; otherwise a cluster is made with ``initdb`` in a temporary folder and
started with ``pg_ctl`` on a unix socket there (and a free loopback port), run by an
ordinary user when we are root (PostgreSQL refuses to run as root). ``None`` when no server
can be had; :func:`why_not` then says why.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

_why: list[str] = []


def why_not() -> str:
    return "; ".join(_why) or "no reason recorded"


def _bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    for cand in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(cand) / "pg_ctl").exists():
            return Path(cand)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A PostgreSQL server the tests may create databases on."""

    def __init__(self, admin_url: str, cluster: Cluster | None = None) -> None:
        self.admin_url = admin_url
        self.cluster = cluster

    def url(self, database: str) -> str:
        parts = urlsplit(self.admin_url)
        return urlunsplit((parts.scheme, parts.netloc, "/" + quote(database), parts.query, ""))

    def new_database(self, prefix: str = "case") -> str:
        """The URL of a new, empty database."""
        import psycopg

        name = f"{prefix}_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.admin_url, autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}" TEMPLATE template0 ENCODING \'UTF8\'')
        return self.url(name)

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as c:
            c.execute(sql)


class Cluster:
    """A cluster in a temporary folder, started and stopped with ``pg_ctl``."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="recount-desk-pg-"))
        self.data = self.root / "data"
        self.socket_dir = self.root
        self.port = _free_port()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = _unprivileged_user()
            uid = pwd.getpwnam(self.user).pw_uid
            os.chown(self.root, uid, -1)
            os.chmod(self.root, 0o755)

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(args)
        if self.user is not None:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)

    def init(self) -> None:
        self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")

    def start(self) -> None:
        opts = (f"-k {self.socket_dir} -p {self.port} -c listen_addresses=127.0.0.1 "
                "-c fsync=off -c synchronous_commit=on -c max_connections=60")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l",
                  str(self.root / "server.log"), "-o", opts, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                  "stop", check=False)

    def restart(self) -> None:
        """Stop the server as a power cut would (immediate) and start it again."""
        self.stop("immediate")
        self.start()

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


def _unprivileged_user() -> str:
    for name in ("postgres", "recount-desk-pg"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(["useradd", "--system", "--no-create-home", "recount-desk-pg"],
                   check=True, capture_output=True)
    return "recount-desk-pg"


def start_server() -> Server | None:
    """The server the tests use, or None (and :func:`why_not` says why)."""
    url = os.environ.get("RECOUNT_DESK_TEST_PG")
    if url:
        try:
            import psycopg

            with psycopg.connect(url, autocommit=True, connect_timeout=5):
                pass
        except Exception as e:  # any failure to reach the named server is reported
            _why.append(f"RECOUNT_DESK_TEST_PG={url} cannot be reached ({e})")
            return None
        return Server(url)
    bindir = _bindir()
    if bindir is None:
        _why.append("no PostgreSQL programs found (pg_ctl is not on PATH nor in "
                    "/usr/lib/postgresql/*/bin; install Debian's postgresql package, as "
                    ".ci/run does, or set RECOUNT_DESK_TEST_PG)")
        return None
    try:
        cluster = Cluster(bindir)
        cluster.init()
        cluster.start()
    except (OSError, subprocess.SubprocessError, KeyError) as e:
        detail = getattr(e, "stderr", "") or ""
        _why.append(f"a throwaway PostgreSQL cluster could not be started with {bindir} "
                    f"({e}{': ' + detail.strip() if detail else ''})")
        return None
    return Server(cluster.admin_url, cluster)
