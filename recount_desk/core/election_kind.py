"""What kind of election a canvass file is from, where the file says, and why.

The kind decides the request deadline and the office ((1)(d)(i): a municipal primary has
three days and the municipal clerk; every other election seven days, 20A-4-401(1)(d)(ii)),
so it is never guessed silently: :func:`infer_kind` says what it found and whether the
file stated it or the program assumed it.

Clues, strongest first: the election's name (the file's title, or its file name) naming
the kind; the year (Utah's regular general and primary elections are held in even years,
its municipal elections in odd years: 20A-1-201, 20A-1-201.5, 20A-1-202); the contests
(a primary whose races are all city or town offices is a municipal primary).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from .model import ElectionKind


class KindSource(StrEnum):
    GIVEN = "given"      # the officer said (the case, or --kind)
    FILE = "file"        # the file says (its title, its year, its contests)
    ASSUMED = "assumed"  # nothing in the file tells: a default, shown as an assumption


@dataclass(frozen=True, slots=True)
class KindInference:
    kind: ElectionKind
    source: KindSource
    reason: str

    def describe(self) -> str:
        if self.source is KindSource.GIVEN:  # the reason says by whom
            return f"{self.kind.label} ({self.reason})"
        how = {KindSource.FILE: "from the file", KindSource.ASSUMED: "ASSUMED"}[self.source]
        return f"{self.kind.label} ({how}: {self.reason})"


_MUNICIPAL_OFFICE = re.compile(
    r"\b(mayor|city council|town council|council ?(member|seat|person)s?|city|town|"
    r"municipal|councilmember)\b", re.IGNORECASE)
_NOT_MUNICIPAL = re.compile(
    r"\b(county|state|u\.? ?s\.?|united states|senate|house|governor|president|attorney "
    r"general|treasurer|auditor|school board|board of education|judge|justice|amendment|"
    r"sheriff|assessor|recorder|surveyor|commission)\b", re.IGNORECASE)


def _words(text: str) -> str:
    return " ".join(re.sub(r"[_\-.,/()]+", " ", text).casefold().split())


def _named(text: str) -> tuple[ElectionKind, str] | None:
    t = _words(text)
    if "municipal primary" in t:
        return ElectionKind.MUNICIPAL_PRIMARY, "it says “municipal primary”"
    if re.search(r"municipal (general )?election|municipal general", t):
        return ElectionKind.MUNICIPAL_GENERAL, "it says “municipal general election”"
    if re.search(r"(special|local) district election", t):
        return ElectionKind.SPECIAL_DISTRICT, "it says “special district election”"
    if re.search(r"\bspecial( election)?\b", t) and "primary" not in t and "general" not in t:
        return ElectionKind.SPECIAL, "it says “special election”"
    if "primary" in t:
        what = "presidential primary" if "presidential" in t else "primary"
        return ElectionKind.PRIMARY, f"it says “{what}”"
    if "general" in t:
        return ElectionKind.GENERAL, "it says “general”"
    return None


def infer_kind(*, names: Iterable[str | None], election_date: date | None,
               primary: bool | None, titles: Iterable[str]) -> KindInference:
    """The kind of election, from what the file says (``names``: its election name and its
    file name; ``primary``: whether its layout says it is a primary; ``titles``: its race
    titles), with the reason; ASSUMED when nothing tells."""
    found: tuple[ElectionKind, str] | None = None
    for n in names:
        if n and (found := _named(n)) is not None:
            found = (found[0], f"the name {n!r}: {found[1]}")
            break
    titles = [t for t in titles if t.strip()]
    municipal = bool(titles) and all(
        _MUNICIPAL_OFFICE.search(t) and not _NOT_MUNICIPAL.search(t) for t in titles)
    odd = election_date is not None and election_date.year % 2 == 1
    year = f"{election_date.year} is an odd year, when Utah holds municipal elections " \
           "(20A-1-202)" if election_date is not None else ""

    if found is not None:
        kind, why = found
        if kind is ElectionKind.PRIMARY and (odd or municipal):
            extra = year if odd else "every race on it is a city or town office"
            return KindInference(ElectionKind.MUNICIPAL_PRIMARY, KindSource.FILE,
                                 f"{why}, and {extra}")
        if kind is ElectionKind.GENERAL and odd:
            return KindInference(ElectionKind.MUNICIPAL_GENERAL, KindSource.FILE,
                                 f"{why}, and {year}")
        return KindInference(kind, KindSource.FILE, why)
    if primary:
        if odd or municipal:
            extra = year if odd else "every race on it is a city or town office"
            return KindInference(ElectionKind.MUNICIPAL_PRIMARY, KindSource.FILE,
                                 f"the file's layout is a primary's, and {extra}")
        return KindInference(ElectionKind.PRIMARY, KindSource.FILE,
                             "the file's layout is a primary's (a party's race per contest)")
    if odd:
        return KindInference(ElectionKind.MUNICIPAL_GENERAL, KindSource.ASSUMED,
                             f"the file does not name the kind; {year}; a municipal "
                             "primary is also held in odd years (3-day deadline)")
    if municipal:
        return KindInference(ElectionKind.MUNICIPAL_GENERAL, KindSource.ASSUMED,
                             "the file does not name the kind, and every race on it is a "
                             "city or town office; it could be a municipal primary "
                             "(3-day deadline)")
    return KindInference(ElectionKind.GENERAL, KindSource.ASSUMED,
                         "the file does not name the kind of election and nothing in it "
                         "says primary" + ("" if election_date else " (nor its date)"))
