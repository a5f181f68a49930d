"""The output of ``recount-desk check`` on every file of a corpus folder, one text file each,
so that a change to the readers can be compared before/after (``diff -r`` of two snapshots).

    python -m benchmarks.corpus_snapshot /work/shared/corpus OUTDIR

Runs each check in-process (stdout and stderr captured with the exit code); a file the
readers refuse is recorded with its message, as a clerk would see it.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path


def snapshot(corpus: Path, out: Path) -> int:
    from recount_desk.cli import main

    out.mkdir(parents=True, exist_ok=True)
    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.name != "README.md")
    for p in files:
        so, se = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se):
            try:
                rc = main(["check", str(p)])
            except SystemExit as e:  # argparse
                rc = int(e.code or 0)
        name = str(p.relative_to(corpus)).replace("/", "__")
        (out / f"{name}.txt").write_text(f"exit {rc}\n--- stdout\n{so.getvalue()}"
                                         f"--- stderr\n{se.getvalue()}", encoding="utf-8")
        print(f"{rc} {p.relative_to(corpus)}", file=sys.__stdout__, flush=True)
    return len(files)


if __name__ == "__main__":
    snapshot(Path(sys.argv[1]), Path(sys.argv[2]))
