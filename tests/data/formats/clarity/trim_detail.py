"""Cut Salt Lake County's 27 MB Clarity detail.xls down to a few sheets, keeping it valid XML.

Usage: python trim_detail.py "salt lake county.zip" out.zip  (keeps sheets 'Table of
Contents', 'Registered Voters', '2' and '3').
"""

import sys
import zipfile

KEEP = {"Table of Contents", "Registered Voters", "2", "3"}


def main(src: str, dst: str) -> None:
    with zipfile.ZipFile(src) as z:
        text = z.read("detail.xls").decode("utf-8-sig")
    out, keep, inside = [], True, False
    for line in text.splitlines(keepends=True):
        s = line.strip()
        if s.startswith("<s:Worksheet "):
            name = s.split('s:Name="', 1)[1].split('"', 1)[0]
            keep, inside = name in KEEP, True
        if not inside or keep:
            out.append(line)
        if s.startswith("</s:Worksheet>"):
            inside, keep = False, True
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("detail.xls", "\ufeff" + "".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
