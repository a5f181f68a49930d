"""ODS files are bounded like XLSX ones: a sheet whose repeated rows and columns ask for
more cells than any canvass is refused, naming the sheet and its farthest cell, before the
spreadsheet library builds it (no hang, no memory blow-up); a DTD is refused as unsafe."""

from __future__ import annotations

import resource
import zipfile
from pathlib import Path

import pytest

from recount_desk.formats import ImportFailed, ReadOptions, read_canvass
from recount_desk.formats._workbook_checks import ods_extents

NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def _cell(v: object, repeat: int = 1) -> str:
    kind = 'office:value-type="float" office:value="{v}"' if isinstance(v, int) else \
        'office:value-type="string"'
    rep = f' table:number-columns-repeated="{repeat}"' if repeat > 1 else ""
    return f'<table:table-cell{rep} {kind.format(v=v)}><text:p>{v}</text:p></table:table-cell>'


def _ods(path: Path, body: str, *, prolog: str = "") -> Path:
    content = (f'<?xml version="1.0" encoding="UTF-8"?>{prolog}<office:document-content {NS} '
               'office:version="1.2"><office:body><office:spreadsheet>'
               f'{body}</office:spreadsheet></office:body></office:document-content>')
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", content)
        z.writestr("META-INF/manifest.xml", '<?xml version="1.0"?><manifest:manifest xmlns:'
                   'manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:'
                   'file-entry manifest:full-path="/" manifest:media-type="application/'
                   'vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>')
    return path


def _results(rows: list[list[object]]) -> str:
    return '<table:table table:name="Results">' + "".join(
        "<table:table-row>" + "".join(_cell(v) for v in r) + "</table:table-row>"
        for r in rows) + "</table:table>"


MAPPING = {"layout": "long", "columns": {"precinct": "Precinct", "contest": "Contest",
                                         "choice": "Choice", "votes": "Votes"}}
ROWS: list[list[object]] = [["Precinct", "Contest", "Choice", "Votes"],
                            ["P1", "Mayor", "Ann", 12], ["P1", "Mayor", "Bob", 9],
                            ["P2", "Mayor", "Ann", 7], ["P2", "Mayor", "Bob", 11]]


def test_a_plain_ods_is_read(tmp_path):
    parsed = read_canvass(_ods(tmp_path / "ok.ods", _results(ROWS)),
                          options=ReadOptions(mapping=MAPPING))
    assert {c.choice.name: c.votes for c in parsed.totals[0].choices} == {"Ann": 19, "Bob": 20}
    assert ods_extents(tmp_path / "ok.ods") == {"Results": (5, 4)}


@pytest.mark.parametrize(("rows", "cols", "cell"), [(1_000_000, 1_000, "ALL1000000"),
                                                    (30_000, 3_000, "DKJ30000")])
def test_repeated_rows_and_columns_far_beyond_a_canvass_are_refused(tmp_path, rows, cols, cell):
    vast = (f'<table:table table:name="Notes"><table:table-row '
            f'table:number-rows-repeated="{rows}">{_cell(1, cols)}</table:table-row>'
            '</table:table>')
    path = _ods(tmp_path / "hostile.ods", _results(ROWS[:2]) + vast)
    assert path.stat().st_size < 2_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ImportFailed) as e:
        read_canvass(path, options=ReadOptions(mapping=MAPPING))
    issue = e.value.issue
    assert issue.sheet == "Notes" and cell in issue.message and "cells" in issue.message
    assert f"{issue.column}{issue.row}" == cell
    # Refused before anything was built: the process did not grow by hundreds of MB.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000


def test_empty_repeated_rows_after_the_table_are_not_counted(tmp_path):
    body = _results(ROWS)[:-len("</table:table>")] + (
        '<table:table-row table:number-rows-repeated="1048571">'
        '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
        "</table:table>")
    path = _ods(tmp_path / "formatted.ods", body)
    assert ods_extents(path) == {"Results": (5, 4)}
    parsed = read_canvass(path, options=ReadOptions(mapping=MAPPING))
    assert len(parsed.precincts) == 2


def test_a_dtd_in_an_ods_is_refused_as_unsafe(tmp_path):
    prolog = '<!DOCTYPE office:document-content [<!ENTITY a "aaaaaaaaaa">]>'
    path = _ods(tmp_path / "bomb.ods", _results(ROWS), prolog=prolog)
    with pytest.raises(ImportFailed, match="DTD"):
        read_canvass(path, options=ReadOptions(mapping=MAPPING))
