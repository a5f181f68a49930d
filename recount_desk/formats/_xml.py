"""XML read with the C parser (expat and the C tree builder), DTDs and entities refused.

A DTD — where entities are declared (the "billion laughs"), external ones included — can
only stand in the prolog, before the document's first element: once the first element has
begun, expat takes a later ``<!DOCTYPE`` for a syntax error and an undeclared ``&name;``
for an undefined entity. So the prolog is read first and refused if it declares a DTD, and
the rest is streamed through ``xml.etree.ElementTree.XMLPullParser`` (C-accelerated), which
is several times faster than the pure-Python parser ``defusedxml`` subclasses.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Literal, cast
from xml.etree.ElementTree import Element, XMLPullParser

CHUNK = 16 * 1024  # what the parser digests best (larger chunks: slower, more memory)
_MAX_PROLOG = 1 << 20  # a prolog (declaration, comments, processing instructions) this long
# is no workbook's


class HostileXml(ValueError):
    """The XML declares a DTD or entities (what no spreadsheet writes; how XML bombs are
    made), or its prolog cannot be told apart."""


def _first_element(text: bytes) -> int | None:
    """Where the first element starts, after the prolog's declaration, comments and
    processing instructions; None when ``text`` ends first. A DTD raises."""
    i = 0
    while True:
        while i < len(text) and text[i] in b" \t\r\n":
            i += 1
        if i >= len(text):
            return None
        if text.startswith(b"<?", i):
            end = text.find(b"?>", i + 2)
            if end < 0:
                return None
            i = end + 2
        elif text.startswith(b"<!--", i):
            end = text.find(b"-->", i + 4)
            if end < 0:
                return None
            i = end + 3
        elif text.startswith(b"<!", i):
            raise HostileXml("the XML declares a DTD (entity declarations)")
        elif text.startswith(b"<", i) or len(text) > i:
            return i  # the first element (or text that expat refuses as it is)


def _prolog(source: IO[bytes]) -> bytes:
    """The bytes read up to and past the start of the first element, the prolog checked."""
    head = b""
    while True:
        chunk = source.read(CHUNK)
        head += chunk
        text = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
        if text.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in text[:4096]:
            raise HostileXml("the XML is not UTF-8 or ASCII text")
        if _first_element(text) is not None or not chunk:
            return head
        if len(head) > _MAX_PROLOG:
            raise HostileXml("the XML's prolog is too long")


def iterparse(source: IO[bytes], events: tuple[Literal["start", "end"], ...] = ("end",)
              ) -> Iterator[tuple[str, Element]]:
    """(event, element) pairs as :func:`xml.etree.ElementTree.iterparse` gives them, from
    the C parser; raises :class:`HostileXml` for a DTD and ``ParseError`` for bad XML."""
    parser: XMLPullParser[Element] = XMLPullParser(events=events)
    data = _prolog(source)
    while data:
        parser.feed(data)
        for ev in parser.read_events():
            yield cast("tuple[str, Element]", ev)
        data = source.read(CHUNK)
    parser.close()
    for ev in parser.read_events():
        yield cast("tuple[str, Element]", ev)


def end_elements(source: IO[bytes]) -> Iterator[list[Element]]:
    """The elements whose end the parser has met, a list per chunk fed (fewer Python steps
    per element than one event at a time); DTDs refused as by :func:`iterparse`."""
    parser: XMLPullParser[Element] = XMLPullParser(events=("end",))
    data = _prolog(source)
    while data:
        parser.feed(data)
        yield [cast(Element, ev[1]) for ev in parser.read_events()]  # type: ignore[misc]
        data = source.read(CHUNK)
    parser.close()
    yield [cast(Element, ev[1]) for ev in parser.read_events()]  # type: ignore[misc]
