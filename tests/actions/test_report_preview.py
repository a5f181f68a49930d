"""report_preview: report pages as RGB images without Qt, and whole-file copies."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from recount_desk.actions import report as report_actions
from recount_desk.actions.report_preview import (
    PreviewError,
    copy_report,
    iter_pages,
    page_count,
    render_pages,
)

sys.path.insert(0, str(Path(__file__).parent.parent / "report"))
from report_fixtures import house_69


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("preview") / "house69.pdf"
    path.write_bytes(report_actions.render(house_69()))
    return path


def test_every_page_is_rendered_at_the_scale_asked(pdf: Path) -> None:
    pages = render_pages(pdf, 0.5)
    assert len(pages) == page_count(pdf) >= 6
    for i, p in enumerate(pages):
        assert p.index == i
        assert (p.width, p.height) == (306, 396)  # US Letter at 36 pixels per inch
        assert p.stride >= 3 * p.width
        assert len(p.rgb) == p.stride * p.height


def test_a_page_has_ink_and_paper(pdf: Path) -> None:
    first = render_pages(pdf, 1.0)[0]
    rows = [first.rgb[y * first.stride:y * first.stride + 3 * first.width]
            for y in range(first.height)]
    dark = sum(1 for row in rows for v in row[::3] if v < 128)
    light = sum(1 for row in rows for v in row[::3] if v > 200)
    assert dark > 2000, "the first page looks blank"
    assert light > dark * 5, "the first page looks black"


def test_chosen_pages_only_and_progress(pdf: Path) -> None:
    assert [p.index for p in iter_pages(pdf, 0.25, [2, 0])] == [2, 0]
    seen: list[tuple[int, int]] = []
    render_pages(pdf, 0.25, on_progress=lambda d, t: seen.append((d, t)))
    n = page_count(pdf)
    assert seen[-1] == (n, n) and len(seen) == n


def test_cancelled_rendering_stops_early(pdf: Path) -> None:
    assert render_pages(pdf, 0.25, cancelled=lambda: True) == []


@pytest.mark.parametrize("content", [b"", b"not a pdf at all", b"%PDF-1.4\n%broken"],
                         ids=["empty", "text", "truncated"])
def test_a_file_that_is_not_a_pdf_is_a_preview_error(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(content)
    with pytest.raises(PreviewError, match=r"bad\.pdf cannot be opened as a PDF"):
        render_pages(bad, 1.0)


def test_a_missing_file_is_a_preview_error(tmp_path: Path) -> None:
    with pytest.raises(PreviewError):
        page_count(tmp_path / "missing.pdf")


def test_copy_has_the_same_bytes_and_leaves_no_partial_file(pdf: Path, tmp_path: Path) -> None:
    dest = copy_report(pdf, tmp_path / "copy.pdf")
    assert dest.read_bytes() == pdf.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["copy.pdf"]


def test_scale_must_be_positive(pdf: Path) -> None:
    with pytest.raises(ValueError, match="scale"):
        list(iter_pages(pdf, 0))
