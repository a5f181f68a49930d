"""Record every real file's figures (family, contests, choices, totals), or compare with a record.

    python benchmarks/figures.py record FIGURES.json [DIR ...]
    python benchmarks/figures.py compare FIGURES.json [DIR ...]

Every file under the folders (default: tests/data and ../shared/corpus) is read the way
``check`` reads it; a refusal is recorded by its message. ``compare`` reads them again and
names every file whose figures changed, so a change to the readers can be shown to leave
the figures of the real files as they were.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from recount_desk.formats import ImportFailed, read_canvass

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIRS = (ROOT / "tests" / "data", ROOT.parent.parent / "shared" / "corpus")
SKIP = {".md", ".json", ".py", ".png", ".txt.md"}


def figures(path: Path) -> dict[str, object]:
    try:
        parsed = read_canvass(path)
    except ImportFailed as e:
        return {"refused": e.issue.message}
    except Exception as e:  # a crash is a figure too: it must not change silently
        return {"crash": f"{type(e).__name__}: {e}"}
    contests = []
    for t in parsed.totals:
        k = t.contest.key
        contests.append([k.title, k.district, k.party, t.contest.seats, t.precincts,
                         [[c.choice.name, c.choice.party, c.votes] for c in t.choices],
                         sorted((str(x.value), v) for x, v in t.extras.items())])
    return {"family": parsed.family, "precincts": len(parsed.precincts),
            "primary": parsed.primary, "errors": len(parsed.errors), "contests": contests}


def files(dirs: list[Path]) -> list[Path]:
    out: list[Path] = []
    for d in dirs:
        out.extend(p for p in sorted(d.rglob("*")) if p.is_file() and p.suffix.lower() not in SKIP
                   and p.name != "SOURCES.md")
    return out


def main(argv: list[str]) -> int:
    mode, record = argv[0], Path(argv[1])
    dirs = [Path(a) for a in argv[2:]] or [d for d in DEFAULT_DIRS if d.is_dir()]
    now = {}
    for p in files(dirs):
        now[str(p.resolve())] = figures(p)
        print(".", end="", flush=True, file=sys.stderr)
    print(file=sys.stderr)
    if mode == "record":
        record.write_text(json.dumps(now, indent=1, ensure_ascii=False))
        print(f"{len(now)} files recorded in {record}")
        return 0
    before = json.loads(record.read_text())
    now = json.loads(json.dumps(now, ensure_ascii=False))  # tuples as the record has them
    new = sorted(set(now) - set(before))
    for f in new:
        print(f"NEW (not in the record) {f}")
    changed = [f for f in sorted(before) if before.get(f) != now.get(f)]
    for f in changed:
        b, a = before.get(f), now.get(f)
        print(f"CHANGED {f}\n  before: {json.dumps(b)[:300]}\n  after:  {json.dumps(a)[:300]}")
    print(f"{len(now)} files read, {len(changed)} of the {len(before)} recorded changed, "
          f"{len(new)} new")
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
