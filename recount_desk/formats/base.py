"""The contract every canvass reader fulfils: a long table of raw rows plus what the file says.

A reader turns one file into a :class:`RawCanvass`: one row per precinct × contest × choice
(pandas DataFrame with the columns of :data:`RAW_COLUMNS`), the seats the file states, the
file's own totals, and the problems it found. :mod:`recount_desk.formats.canvass` then
builds contests and totals the same way for every family, so the rules about over/under
votes, seats and totals rows live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from recount_desk.core.model import Issue, Remedy, Severity

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

# kind: "candidate" | "write_in" | "over" | "under" | "blank". A reader may add a "row"
# column (the file's row number of each raw row) for messages that name rows.
RAW_COLUMNS = ("precinct", "contest", "district", "party", "choice", "choice_party", "kind",
               "votes")
ROW_KINDS = ("candidate", "write_in", "over", "under", "blank")

ContestTuple = tuple[str, str, str]  # (contest, district, party) exactly as in the raw rows


class ImportFailed(Exception):
    """The file cannot be read as a canvass at all; the message says what it is and what to do."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(str(issue))
        self.issue = issue


class Cancelled(Exception):
    """The user cancelled a long read."""


def _not_ours() -> tuple[type[BaseException], ...]:
    import csv
    import zipfile
    from xml.etree.ElementTree import ParseError

    return (ImportFailed, OSError, UnicodeError, EOFError, zipfile.BadZipFile, csv.Error,
            ParseError)


# What a detector may meet in a file of another family, or a damaged one: it then claims
# nothing. Anything else raised in a detect() is a bug, and is raised, not taken for
# "unrecognised layout".
NOT_OURS: tuple[type[BaseException], ...] = _not_ours()


def fail(path: Path | str, message: str, *, sheet: str | None = None, row: int | None = None,
         column: str | None = None, remedy: Remedy | None = None) -> ImportFailed:
    """``remedy``: what to do about it, worded by the front end (core.model.Remedy)."""
    return ImportFailed(Issue(Path(path).name, message, sheet, row, column, Severity.ERROR,
                              remedy))


@dataclass
class RawCanvass:
    """What a reader read, before contests are built."""

    file: str
    family: str
    rows: pd.DataFrame
    issues: list[Issue] = field(default_factory=list)
    # Seats the file states, per (contest, district, party) of the raw rows.
    seats: dict[ContestTuple, int] = field(default_factory=dict)
    # The file's own totals row: {(contest, district, party): {choice: votes}}.
    file_totals: dict[ContestTuple, dict[str, int]] = field(default_factory=dict)
    # Contests where some precincts are suppressed for privacy (counts hidden).
    suppressed: set[ContestTuple] = field(default_factory=set)
    # True/False when the file says whether it is a primary; None when it does not.
    primary: bool | None = None
    election_name: str | None = None
    election_date: str | None = None  # ISO date when the file says
    sheet: str | None = None
    # The counties the file's rows name (a county column), in the file's order.
    counties: tuple[str, ...] = ()
    # Precinct cells whose count the file hides (a privacy mark) or leaves blank, per
    # contest and choice: {(contest, district, party): {choice: [precinct, …]}}. They are
    # read as 0; without the file's own totals the verdict must not rest on them (a hidden
    # cell holds at most the precinct's ballots cast, where ``ballots`` gives them).
    hidden: dict[ContestTuple, dict[str, list[str]]] = field(default_factory=dict)
    # Where each contest (choice "") and choice sits in the file, for the plausibility gate's
    # messages: {(contest, district, party, choice): (row, column letter)}.
    where: dict[tuple[str, str, str, str], tuple[int | None, str | None]] = \
        field(default_factory=dict)
    # Ballots cast per precinct and in all, where the file gives them (the gate checks that
    # no contest has more votes than ballots); the row of each precinct and the column.
    ballots: dict[str, int] = field(default_factory=dict)
    ballots_rows: dict[str, int] = field(default_factory=dict)
    ballots_column: str | None = None
    ballots_total: int | None = None
    # Cells that held fractions or percentages where votes were expected, per choice.
    fractional: dict[tuple[str, str, str, str], int] = field(default_factory=dict)
    # The file's row of each contest's totals row, where it is known.
    totals_rows: dict[ContestTuple, int] = field(default_factory=dict)
    # What the reader itself doubts about its reading (a guess it had to make); these are
    # also among ``issues``, and the plausibility gate counts them against the reading.
    doubts: list[Issue] = field(default_factory=list)


@dataclass(frozen=True)
class CodedRows:
    """Raw rows held as codes: for each of :data:`RAW_COLUMNS` but ``votes``, an integer
    code per row into that column's distinct texts (``columns[name] = (codes, texts)``,
    the texts distinct, every code valid); the votes, and the file's row of each row. The
    same rows as :meth:`frame` makes of them; a long table keeps them so, and the build
    stage reads the codes without making the frame (whose categorical columns cost a
    millisecond to make, more than reading a county's file)."""

    columns: dict[str, tuple[np.ndarray, list[str]]]
    votes: np.ndarray
    row: np.ndarray
    # False where the reader keeps no rows (``row`` is then empty, and the frame has no
    # "row" column).
    has_rows: bool = True

    def __len__(self) -> int:
        return len(self.votes)

    def frame(self) -> pd.DataFrame:
        """The rows as :class:`RawCanvass` holds them: categorical text columns."""
        import pandas as pd

        def part(name: str) -> pd.Categorical:
            codes, texts = self.columns[name]
            # The codes index exactly these distinct texts: nothing to validate.
            return pd.Categorical.from_codes(codes, categories=pd.Index(texts, dtype=object),
                                             validate=False)

        return pd.DataFrame({**{c: part(c) for c in RAW_COLUMNS if c != "votes"},
                             "votes": self.votes,
                             **({"row": self.row} if self.has_rows else {})})


@dataclass
class CodedRawCanvass(RawCanvass):
    """A :class:`RawCanvass` whose rows are :class:`CodedRows` (give ``rows`` None): the
    frame is made from them the first time ``rows`` is asked for. A frame given for
    ``rows`` (``dataclasses.replace(raw, rows=...)``) is the rows from then on, and
    :meth:`codes` is None."""

    coded: CodedRows | None = None

    @property  # type: ignore[misc]  # (a field of RawCanvass, made lazily here)
    def rows(self) -> pd.DataFrame:
        given = self.__dict__.get("_given")
        if given is not None:
            return given
        made = self.__dict__.get("_made")
        if made is None and self.coded is not None:
            made = self.__dict__["_made"] = self.coded.frame()
        return made

    @rows.setter
    def rows(self, value: pd.DataFrame | None) -> None:
        self.__dict__["_given"] = value

    def codes(self) -> CodedRows | None:
        """The rows as codes with the file's row of each, unless a frame was given for
        them (or the reader keeps no rows: see :meth:`coded_rows`)."""
        coded = self.coded_rows()
        return coded if coded is not None and coded.has_rows else None

    def coded_rows(self) -> CodedRows | None:
        """The rows as codes (the file's rows or not), unless a frame was given for them."""
        return self.coded if self.__dict__.get("_given") is None else None


@dataclass(frozen=True)
class Detection:
    """A reader's claim on a file."""

    family: str
    label: str
    confidence: int  # 0-100
    reason: str


class FormatFamily(Protocol):
    """What a family module provides (checked by mypy against every module of the registry,
    :data:`recount_desk.formats.FAMILY_MODULES`): its name and label, a claim on a file,
    and the reading. ``detect`` returns None for a file of another family and raises only
    for a bug; ``read`` raises :class:`ImportFailed` with a clear sentence."""

    FAMILY: str
    LABEL: str

    def detect(self, path: Path, kind: str) -> Detection | None: ...

    def read(self, path: Path, options: ReadOptions | None = None) -> RawCanvass: ...


class Progress(Protocol):
    def __call__(self, done: int, total: int) -> None: ...


def no_progress(done: int, total: int) -> None:
    return None


def never_cancelled() -> bool:
    return False


@dataclass
class ReadOptions:
    """Options from the user: a sheet to use, the mapping for unknown layouts, callbacks."""

    sheet: str | None = None
    mapping: dict[str, Any] | None = None
    on_progress: Progress = no_progress
    cancelled: Any = never_cancelled
