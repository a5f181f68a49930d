"""Make resources/fonts/WenQuanYiMicroHei-subset.ttf: the CJK fallback font of the report.

WenQuanYi Micro Hei (Apache License 2.0, or GPL-3+ with font exception: we use it under
Apache 2.0; Debian package fonts-wqy-microhei), a TrueType font reportlab can embed, cut
down to
the characters of the common national character sets: GB 2312 (simplified Chinese),
JIS X 0208 (Japanese kanji and kana) and KS X 1001
(Korean Hangul syllables), with CJK punctuation and full-width forms. Run once by hand:

    python packaging/fonts/subset_cjk.py /usr/share/fonts/truetype/wqy/wqy-microhei.ttc
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parents[2] / "resources" / "fonts" / "WenQuanYiMicroHei-subset.ttf"
RANGES = [(0x3000, 0x30FF), (0x3100, 0x312F), (0x3130, 0x318F), (0xFF00, 0xFFEF)]
CODECS = ("gb2312", "shift_jis", "euc_kr")


def wanted() -> set[int]:
    out = {c for lo, hi in RANGES for c in range(lo, hi + 1)}
    for cp in list(range(0x4E00, 0xA000)) + list(range(0xAC00, 0xD7A4)):
        ch = chr(cp)
        for codec in CODECS:
            try:
                ch.encode(codec)
            except UnicodeEncodeError:
                continue
            out.add(cp)
            break
    return out


def main(source: str) -> None:
    font = TTFont(source, fontNumber=0)
    have = set(font.getBestCmap())
    codes = sorted(wanted() & have)
    opts = subset.Options()
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=codes)
    sub.subset(font)
    font.save(OUT)
    print(f"{len(codes)} characters, {OUT.stat().st_size:,} bytes -> {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
