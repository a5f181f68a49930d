"""The county-portion demo: Grand's 2018 canvass holds only its part of State House 69.

State House District 69 (2012–2021 maps) covered Carbon, Duchesne, Emery and Grand. In
Grand, Tim Glenn led Christine Watkins 843 to 841 — a county portion, on which nobody may
be told they can request a recount. With the four counties' files the whole race is known:
Watkins 8,589, Glenn 3,320, not within the recount margin, and any request would go to the
lieutenant governor (20A-4-401(1)(b), (1)(d)(ii)(D)). Both steps use the bundled public files
and the same actions as `recount-desk check FILE …` and the case's "whole race" action.
"""

from __future__ import annotations

from pathlib import Path

from recount_desk.paths import resource

from .case import Case, create_case
from .demo import DemoSpec, load_spec
from .whole import WholeCheck, check_files
from .whole_case import CombinedContest, combine_counties

PORTION_CONTEST = ("State House", "69")


def portion_spec() -> DemoSpec:
    """Grand County's 2018 general election (``resources/demo/portion/election.json``)."""
    return load_spec(resource("demo", "portion"))


def portion_files() -> list[Path]:
    """Grand's canvass and the three other counties' files of State House 69."""
    grand = portion_spec().canvass
    others = sorted(p for p in resource("demo", "portion").glob("*.csv") if p != grand)
    return [grand, *others]


def check_portion_demo() -> tuple[WholeCheck, WholeCheck]:
    """(Grand alone, the four counties combined): the portion, then the whole race."""
    files = portion_files()
    return check_files(files[:1]), check_files(files)


def build_portion_demo_case(path: Path) -> tuple[Case, list[CombinedContest]]:
    """A case of Grand's canvass with the other counties' files added as the whole race."""
    from .canvass import import_canvass, read_file

    spec = portion_spec()
    case = create_case(path, spec.election, actor="demo")
    import_canvass(case, read_file(spec.canvass))
    return case, combine_counties(case, portion_files()[1:])
