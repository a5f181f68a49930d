"""The C XML parser the Clarity reader uses refuses a DTD wherever the prolog hides it, and
gives the same elements as the standard parser otherwise."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from recount_desk.formats import ImportFailed, read_canvass
from recount_desk.formats._xml import HostileXml, iterparse

DOC = b'<?xml version="1.0"?>\n<?mso-application progid="Excel.Sheet"?>\n<a><b x="1">t</b></a>'


def _events(data: bytes, chunk: int = 7) -> list[tuple[str, str]]:
    import recount_desk.formats._xml as mod

    old = mod.CHUNK
    mod.CHUNK = chunk  # a prolog split across reads
    try:
        return [(e, el.tag) for e, el in iterparse(io.BytesIO(data), ("start", "end"))]
    finally:
        mod.CHUNK = old


def test_the_same_elements_as_the_standard_parser():
    want = [(e, el.tag) for e, el in ET.iterparse(io.BytesIO(DOC), ("start", "end"))]
    assert _events(DOC) == want == [("start", "a"), ("start", "b"), ("end", "b"), ("end", "a")]
    assert _events(b"\xef\xbb\xbf" + DOC) == want


@pytest.mark.parametrize("prolog", [
    b'<!DOCTYPE a [<!ENTITY e "eeeeeeeeee">]>',
    b'<!-- <a> looks like an element --><!DOCTYPE a [<!ENTITY e "x">]>',
    b'<!DOCTYPE a SYSTEM "file:///etc/passwd">',
    b"<!doctype a>",
    b'<?pi <a ?><!ENTITY e "x">',
])
def test_a_dtd_anywhere_in_the_prolog_is_refused(prolog):
    data = b'<?xml version="1.0"?>\n' + prolog + b"\n<a>&e;</a>"
    with pytest.raises(HostileXml):
        _events(data)


def test_an_entity_reference_without_a_dtd_is_a_parse_error():
    with pytest.raises(ET.ParseError):
        _events(b"<a>&e;</a>")
    with pytest.raises(ET.ParseError):  # a DTD after the first element is no DTD
        _events(b'<a></a><!DOCTYPE a [<!ENTITY e "x">]>')


def test_utf16_xml_is_refused_not_read_blind():
    with pytest.raises(HostileXml):
        _events("<a/>".encode("utf-16"))


def test_a_clarity_workbook_with_a_dtd_behind_a_comment_is_refused(tmp_path):
    path = tmp_path / "detail.xls"
    path.write_bytes(b'<?xml version="1.0"?>\n<!-- <Workbook> --><!DOCTYPE Workbook [<!ENTITY a '
                     b'"aaaa">]>\n<Workbook xmlns="urn:schemas-microsoft-com:office:spreadsheet">'
                     b"<!-- SOE Software -->&a;</Workbook>")
    with pytest.raises(ImportFailed, match="forbidden DTD"):
        read_canvass(path, family="clarity")
