"""Large block letters for the word judge's verdict, readable across a tournament table.

A small bitmap font of capital letters, Polish ones included: each glyph is 5 rows of body, a
row above for the acute and the dot (Ć, Ż) and a row below for the ogonek (Ą, Ę).  Rendered
with full blocks, scaled up to the width available; text the font lacks, or that does not fit
even at scale 1, is left to the caller (it shows the plain word).
"""

from __future__ import annotations

_BASE = {
    "A": ".##.|#..#|####|#..#|#..#",
    "B": "###.|#..#|###.|#..#|###.",
    "C": ".###|#...|#...|#...|.###",
    "D": "###.|#..#|#..#|#..#|###.",
    "E": "####|#...|###.|#...|####",
    "F": "####|#...|###.|#...|#...",
    "G": ".###|#...|#.##|#..#|.###",
    "H": "#..#|#..#|####|#..#|#..#",
    "I": "###|.#.|.#.|.#.|###",
    "J": "..##|...#|...#|#..#|.##.",
    "K": "#..#|#.#.|##..|#.#.|#..#",
    "L": "#...|#...|#...|#...|####",
    "Ł": "#...|#.#.|##..|#...|####",
    "M": "#...#|##.##|#.#.#|#...#|#...#",
    "N": "#..#|##.#|#.##|#..#|#..#",
    "O": ".##.|#..#|#..#|#..#|.##.",
    "P": "###.|#..#|###.|#...|#...",
    "Q": ".##.|#..#|#..#|#.##|.###",
    "R": "###.|#..#|###.|#.#.|#..#",
    "S": ".###|#...|.##.|...#|###.",
    "T": "#####|..#..|..#..|..#..|..#..",
    "U": "#..#|#..#|#..#|#..#|.##.",
    "V": "#...#|#...#|#...#|.#.#.|..#..",
    "W": "#...#|#...#|#.#.#|##.##|#...#",
    "X": "#...#|.#.#.|..#..|.#.#.|#...#",
    "Y": "#...#|.#.#.|..#..|..#..|..#..",
    "Z": "####|...#|.##.|#...|####",
    " ": "..|..|..|..|..",
    "!": "#|#|#|.|#",
}
#: Letters built from a base letter and a mark above ("acute", "dot") or below ("ogonek").
_MARKED = {"Ą": ("A", "ogonek"), "Ę": ("E", "ogonek"), "Ć": ("C", "acute"), "Ń": ("N", "acute"),
           "Ó": ("O", "acute"), "Ś": ("S", "acute"), "Ź": ("Z", "acute"), "Ż": ("Z", "dot")}  # fmt: skip
ROWS = 7  # above-mark row, 5 body rows, below-mark row


def _glyph(ch: str) -> list[str] | None:
    """The 7 rows of ``ch`` ('#' = ink), or None when the font lacks it."""
    mark = None
    base = ch
    if ch in _MARKED:
        base, mark = _MARKED[ch]
    body = _BASE.get(base)
    if body is None:
        return None
    rows = body.split("|")
    width = len(rows[0])
    blank = "." * width
    above = blank
    below = blank
    if mark == "acute":
        above = "." * (width - 2) + "#."
    elif mark == "dot":
        above = "." * (width // 2 - 1) + "#" + "." * (width - width // 2)
    elif mark == "ogonek":
        below = "." * (width - 1) + "#"
    return [above, *rows, below]


def render(text: str, scale: int = 1) -> list[str] | None:
    """``text`` in block letters (lines of '█' and spaces, each glyph ``scale`` times wider and
    taller, one blank column between letters, every line as wide); rows no letter inks are dropped.  None when the
    font lacks a character."""
    glyphs = []
    for ch in text.upper():
        glyph = _glyph(ch)
        if glyph is None:
            return None
        glyphs.append(glyph)
    if not glyphs:
        return []
    rows = [".".join(glyph[r] for glyph in glyphs) for r in range(ROWS)]
    rows = [row for row in rows if "#" in row]
    lines = []
    for row in rows:
        line = "".join(("█" if cell == "#" else " ") * scale for cell in row)
        lines.extend([line] * scale)
    return lines


def width(text: str, scale: int = 1) -> int | None:
    """Columns ``render(text, scale)`` needs (None when the font lacks a character)."""
    lines = render(text, 1)
    if lines is None:
        return None
    return max((len(line) for line in lines), default=0) * scale


def fit(text: str, columns: int, rows: int, max_scale: int = 3) -> list[str] | None:
    """``text`` in block letters at the largest scale (up to ``max_scale``) that fits in
    ``columns`` x ``rows``; None when even scale 1 does not fit (or a character is missing)."""
    for scale in range(max_scale, 0, -1):
        lines = render(text, scale)
        if lines is None:
            return None
        if len(lines) <= rows and max((len(line) for line in lines), default=0) <= columns:
            return lines
    return None
