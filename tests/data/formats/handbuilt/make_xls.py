"""Write the small BIFF ``.xls`` fixtures of the hand-built and sideways tests (needs
``pip install xlwt``).

Recount Desk only reads ``.xls`` (with calamine); no runtime dependency writes it, so the
files are committed and this script says exactly what is in them. Run:

    python tests/data/formats/handbuilt/make_xls.py

* ``cache_2020_like.xls`` — the kind of Cache County 2020 workbook: sheet ``Canvass`` in the
  hand-built layout (title, contest row, header ``Precinct Name, Total Reg. Voters, Total
  Ballots Cast, Turn out %``, candidate names, precincts, ``COUNTY TOTALS``), then sheet
  ``Provisional Statistics`` (provisional envelopes received, accepted, rejected per precinct).
* ``summit_2020_like.xls`` — the kind of Summit County 2020 workbook: a ballot summary only
  (ballots mailed, returned, counted, rejected per precinct), no contest results.

* ``../sideways/garfield_2020_as.xls`` — the real Garfield 2020 sideways canvass (sheet
  ``2012 Canvas Report`` of ``../sideways/2020 General Election Garfield Precinct Level
  Results.xlsx``), every cell value copied as it is into a BIFF workbook.

The figures of the first two are invented.
"""

from __future__ import annotations

from pathlib import Path

import xlwt

HERE = Path(__file__).parent

CANVASS = [
    ["2020 General Election - Official Canvass"],
    ["", "", "", "", "President", "President", "President", "US House Dist 1",
     "US House Dist 1", "Prop #4", "Prop #4"],
    ["Precinct Name", "Total Reg. Voters", "Total Ballots Cast", "Turn out %", "Joseph R. Biden",
     "Donald J. Trump", "Write In", "Blake Moore", "Darren Parry", "For", "Against"],
    ["", "", "", "", "DEM", "REP", "", "REP", "DEM", "", ""],
    ["Logan 01", 1200, 1000, 0.8333, 400, 580, 3, 560, 410, 600, 350],
    ["Logan 02", 900, 700, 0.7778, 300, 390, 2, 380, 300, 420, 260],
    ["Hyde Park 01", 1500, 1300, 0.8667, 350, 930, 5, 900, 360, 700, 560],
    ["COUNTY TOTALS", 3600, 3000, 0.8333, 1050, 1900, 10, 1840, 1070, 1720, 1170],
]
PROVISIONAL = [
    ["2020 General Election - Provisional Ballot Statistics"],
    ["Precinct", "Provisional Ballots Received", "Accepted", "Rejected"],
    ["Logan 01", 12, 10, 2],
    ["Logan 02", 7, 7, 0],
    ["Hyde Park 01", 9, 8, 1],
    ["Total", 28, 25, 3],
]
SUMMIT = [
    ["Summit County 2020 General Election - Ballot Summary"],
    ["Precinct", "Registered Voters", "Ballots Mailed", "Ballots Returned", "Ballots Counted",
     "Ballots Rejected", "Turnout %"],
    ["SNY01", 800, 800, 640, 635, 5, 0.79],
    ["PCW02", 1200, 1195, 1010, 1003, 7, 0.84],
    ["Total", 2000, 1995, 1650, 1638, 12, 0.82],
]


def write(path: Path, sheets: dict[str, list[list[object]]]) -> None:
    wb = xlwt.Workbook()
    for name, rows in sheets.items():
        ws = wb.add_sheet(name)
        for i, row in enumerate(rows):
            for j, v in enumerate(row):
                if v != "":
                    ws.write(i, j, v)
    wb.save(str(path))


def garfield_rows() -> list[list[object]]:
    import openpyxl

    src = HERE.parent / "sideways" / "2020 General Election Garfield Precinct Level Results.xlsx"
    ws = openpyxl.load_workbook(src)["2012 Canvas Report"]
    return [["" if v is None else v for v in r] for r in ws.iter_rows(values_only=True)]


if __name__ == "__main__":
    write(HERE / "cache_2020_like.xls", {"Canvass": CANVASS, "Provisional Statistics": PROVISIONAL})
    write(HERE / "summit_2020_like.xls", {"Ballot Summary": SUMMIT})
    write(HERE.parent / "sideways" / "garfield_2020_as.xls", {"2012 Canvas Report": garfield_rows()})
