"""Lines per format-family module, as README's table "How a reader is built" gives them.

    python -m benchmarks.family_lines [MODULE …]

For each module of ``recount_desk/formats`` (or each one named): its lines (``wc -l``) and,
in brackets, its lines of code — lines that are not blank, not only a comment and not part
of a docstring (a string that is a module's, class's or function's first statement),
counted with :mod:`ast` and :mod:`tokenize`. ``mapping`` is also given for its ``read``
stages alone (from ``read`` to the end of its last ``_read_…`` function).
"""

from __future__ import annotations

import ast
import io
import sys
import tokenize
from pathlib import Path

FORMATS = Path(__file__).resolve().parent.parent / "recount_desk" / "formats"
FAMILIES = ("long", "dominion", "ess_custom", "ess_sovc", "ess_report", "ess_summary", "gems",
            "mapping", "handbuilt", "sideways", "stacked", "slco_sovc", "clarity", "blocks",
            "_workbook_checks", "grid", "stages", "longtable", "vocab")


def _docstring_lines(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and \
                    isinstance(body[0].value, ast.Constant) and \
                    isinstance(body[0].value.value, str):
                out.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return out


def code_lines(source: str, first: int = 1, last: int | None = None) -> int:
    """Lines of code of ``source`` (between lines ``first`` and ``last``, 1-based)."""
    docs = _docstring_lines(ast.parse(source))
    code: set[int] = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                        tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        code.update(range(tok.start[0], tok.end[0] + 1))
    code -= docs
    end = last if last is not None else len(source.splitlines())
    return len([n for n in code if first <= n <= end])


def measure(name: str) -> str:
    source = (FORMATS / f"{name}.py").read_text(encoding="utf-8")
    lines = len(source.splitlines())
    out = f"{lines} ({code_lines(source)})"
    if name == "mapping":
        # Its read stages: from ``read`` to the end of the last ``_read_…`` function.
        tree = ast.parse(source)
        nodes = [n for n in tree.body if isinstance(n, ast.FunctionDef)
                 and (n.name == "read" or n.name.startswith("_read_"))]
        if nodes:
            first, last = nodes[0].lineno, max(n.end_lineno or n.lineno for n in nodes)
            out += f"; read {last - first + 1} ({code_lines(source, first, last)})"
    return out


def main(argv: list[str]) -> None:
    for name in argv or FAMILIES:
        print(f"{name:18} {measure(name)}")


if __name__ == "__main__":
    main(sys.argv[1:])
