"""Pictures of a board: in the terminal (rich, square colours) and as SVG/PNG (matplotlib).

Both draw from the same description of each square (:func:`square_look`), so the terminal and
the image agree.  Colours of the colour squares follow the tile colours of the variant.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import COLUMN_LETTERS
from literaki_cli.engine.variant import SquareKind, Variant
from literaki_cli.errors import InputError, said

#: Fill colours by colour name; a variant's own colour names fall back to grey.
COLOUR_FILL = {"red": "#d64541", "green": "#3fa34d", "yellow": "#f2c12e", "blue": "#3a7bd5"}
PLAIN_FILL = "#efe6d2"
WORD_FILL = {2: "#b784d6", 3: "#6c3483", 4: "#2c3e50"}
LETTER_FILL = {2: "#9fd3e6", 3: "#2e86c1"}
EFFECT_FILL = "#555555"
BLANK_TILE_FILL = "#fffaf0"
#: Literaki's tiles are coloured: a tile's face is a light tint of its colour.
TILE_TINT = {"red": "#f4b4b2", "green": "#b5dfbb", "yellow": "#fbe7a1", "blue": "#b3ccf2"}
#: The words of the plain-text board's legend, in English.  ``play`` gives its interface
#: language's (``[legend]`` of ``locales/<lang>.toml``): ``text`` (``{marks}``: ``new_tile`` when
#: new tiles are marked; ``{squares}``: each colour square's label and name) and a colour
#: square's name by its colour (else the variant's name for it); a label is its name's initial.
LEGEND_WORDS = {"text": "{marks}{squares} squares; lower case = blank", "new_tile": "[X] new tile; "}


@dataclass(frozen=True)
class SquareLook:
    fill: str
    label: str  # short text on an empty square ("2×", "3L", "★")


def square_look(kind: SquareKind, is_start: bool) -> SquareLook:
    if kind.colour is not None:
        fill = COLOUR_FILL.get(kind.colour, "#999999")
    elif kind.word_multiplier > 1 or kind.directional_word_multiplier > 1:
        factor = max(kind.word_multiplier, kind.directional_word_multiplier)
        fill = WORD_FILL.get(factor, "#2c3e50")
    elif kind.letter_multiplier > 1:
        fill = LETTER_FILL.get(kind.letter_multiplier, "#2e86c1")
    elif kind.effect:
        fill = EFFECT_FILL
    else:
        fill = PLAIN_FILL
    if is_start:
        label = "★"
    elif kind.word_multiplier > 1:
        label = f"{kind.word_multiplier}×"
    elif kind.directional_word_multiplier > 1:
        arrows = {"across-start": "→", "across-end": "←", "down-start": "↓", "down-end": "↑"}
        label = f"{kind.directional_word_multiplier}" + "".join(arrows[d] for d in sorted(kind.directions))
    elif kind.letter_multiplier > 1:
        label = f"{kind.letter_multiplier}L"
    elif kind.effect:
        label = "WYM" if kind.effect == "forced-exchange" else kind.effect[:3]
    else:
        label = ""
    return SquareLook(fill, label)


def _tile_text(board: Board, row: int, col: int) -> str:
    code = int(board.letters[row, col])
    letter = alphabet.LETTER_OF[code]
    return letter if board.blanks[row, col] else letter.upper()


def tile_fill(board: Board, variant: Variant, row: int, col: int) -> str:
    """The face colour of the tile on (row, col): its colour's tint, white for a blank."""
    if board.blanks[row, col]:
        return BLANK_TILE_FILL
    tile = variant.tiles.get(alphabet.LETTER_OF[int(board.letters[row, col])])
    return TILE_TINT.get(tile.colour, BLANK_TILE_FILL) if tile else BLANK_TILE_FILL


def board_to_rich(board: Board, variant: Variant, highlight: set[tuple[int, int]] = frozenset(),
                  legend: Mapping[str, str] | None = None) -> BoardPicture:  # fmt: skip
    """A rich renderable of the board, new tiles highlighted; ``legend``: the plain-text
    legend's words in the interface language (see :data:`LEGEND_WORDS`; None: English)."""
    return BoardPicture(board, variant, frozenset(highlight), legend)


@dataclass(frozen=True)
class BoardPicture:
    """The board for a terminal: square and tile colours where the console has colour; where it
    has none (piped, NO_COLOR) the colour squares are written as ``(r)``-style labels with a
    legend, so no square information is lost in plain text."""

    board: Board
    variant: Variant
    highlight: frozenset[tuple[int, int]]
    legend_words: Mapping[str, str] | None = field(default=None, compare=False)

    def __rich_console__(self, console, options):
        yield self.text(coloured=console.color_system is not None and not console.no_color)

    def text(self, coloured: bool):
        from rich.text import Text

        board, variant = self.board, self.variant
        text = Text()
        text.append("    " + "".join(f"{ch:^3}" for ch in COLUMN_LETTERS[: board.columns]) + "\n", style="dim")
        for r in range(board.rows):
            text.append(f"{r + 1:>3} ", style="dim")
            for c in range(board.columns):
                kind = variant.board.kind_at(r, c)
                look = square_look(kind, (r, c) == variant.board.start)
                if board.letters[r, c]:
                    new = " underline reverse" if (r, c) in self.highlight else ""
                    letter = _tile_text(board, r, c)
                    shown = f" {letter} " if coloured or not new else f"[{letter}]"
                    text.append(shown, style=f"bold black on {tile_fill(board, variant, r, c)}{new}")
                elif coloured:
                    colour = "white" if look.fill not in (PLAIN_FILL, COLOUR_FILL["yellow"]) else "black"
                    text.append(f"{look.label or '·':^3}", style=f"{colour} on {look.fill}")
                else:
                    label = look.label or (self._label(kind) if kind.colour else "·")
                    text.append(f"{label:^3}")
            text.append("\n")
        if not coloured:
            text.append(self.legend() + "\n")
        return text

    def _label(self, kind: SquareKind) -> str:
        """The plain-text label of an empty colour square: the initial of its colour's name in
        the legend's language (``(r)`` red, ``(c)`` czerwone)."""
        return f"({(self.legend_words or {}).get(kind.colour, kind.colour)[0]})"

    def legend(self) -> str:
        """What the plain-text labels of the colour squares stand for (``(r) red``, ...), in
        the language of :attr:`legend_words` (English without them)."""
        words = LEGEND_WORDS | dict(self.legend_words or {})
        kinds = {kind.colour: kind for kind in self.variant.board.kinds.values() if kind.colour}
        squares = ", ".join(f"{self._label(kind)} {words.get(colour, kind.name)}" for colour, kind in kinds.items())
        marks = words["new_tile"] if self.highlight else ""
        return "    " + words["text"].format(marks=marks, squares=squares)


#: The formats a board image is drawn in.
IMAGE_FORMATS = ("svg", "png", "pdf")


def write_board_image(path: Path, board: Board, variant: Variant, highlight=frozenset(), title: str = "") -> None:
    """Draw the board to ``path``; the format (svg, png, pdf) follows the file extension."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in IMAGE_FORMATS:
        raise InputError(said("{path}: image format {value!r} not supported (use .svg, .png or .pdf)", path=path,
                              value=fmt))  # fmt: skip
    try:
        draw_board_image(path, fmt, board, variant, highlight, title)
    except OSError as exc:
        raise InputError(said("{path}: cannot write image: {error}", path=path, error=exc.strerror or exc)) from None


def board_image_bytes(fmt: str, board: Board, variant: Variant, highlight=frozenset(), title: str = "",
                      caption: tuple[str, ...] = ()) -> bytes:  # fmt: skip
    """The board drawn as :func:`write_board_image` draws it, as the bytes of a ``fmt`` file;
    ``caption``: lines written under it (the players' scores and racks, who is to move), kept as
    text in an SVG."""
    import io

    if fmt not in IMAGE_FORMATS:
        raise InputError(said("image format {value!r} not supported (use svg, png or pdf)", value=fmt))
    out = io.BytesIO()
    draw_board_image(out, fmt, board, variant, highlight, title, caption)
    return out.getvalue()


def draw_board_image(target, fmt: str, board: Board, variant: Variant, highlight=frozenset(), title: str = "",
                     caption: tuple[str, ...] = ()) -> None:  # fmt: skip
    """Draw the board into ``target`` (a path or a binary file) in ``fmt``, with the lines of
    ``caption`` under it."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    if not caption:
        _draw_board(plt, target, fmt, board, variant, highlight, title, caption)
        return
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # the caption searchable and copyable in an SVG
        _draw_board(plt, target, fmt, board, variant, highlight, title, caption)


def _draw_board(plt, target, fmt: str, board: Board, variant: Variant, highlight, title: str, caption) -> None:
    from matplotlib.patches import FancyBboxPatch, Rectangle

    rows, cols = board.rows, board.columns
    below = 0.55 * len(caption)
    fig, ax = plt.subplots(figsize=(cols * 0.42 + 0.6, (rows + below) * 0.42 + 0.9))
    ax.set_xlim(-0.8, cols)
    ax.set_ylim(rows + below + (0.2 if caption else 0), -0.8 - (0.6 if title else 0))
    ax.set_aspect("equal")
    ax.axis("off")
    for c in range(cols):
        ax.text(c + 0.5, -0.4, COLUMN_LETTERS[c], ha="center", va="center", fontsize=8, color="#555")
    for r in range(rows):
        ax.text(-0.4, r + 0.5, str(r + 1), ha="center", va="center", fontsize=8, color="#555")
        for c in range(cols):
            look = square_look(variant.board.kind_at(r, c), (r, c) == variant.board.start)
            ax.add_patch(Rectangle((c, r), 1, 1, facecolor=look.fill, edgecolor="white", linewidth=1))
            if board.letters[r, c]:
                new = (r, c) in highlight
                face = FancyBboxPatch(
                    (c + 0.08, r + 0.08), 0.84, 0.84, boxstyle="round,pad=0,rounding_size=0.12",
                    facecolor=tile_fill(board, variant, r, c), edgecolor="#000" if new else "#555",
                    linewidth=2.4 if new else 0.8,
                )  # fmt: skip
                ax.add_patch(face)
                letter = alphabet.LETTER_OF[int(board.letters[r, c])]
                blank = bool(board.blanks[r, c])
                ax.text(c + 0.45, r + 0.55, letter if blank else letter.upper(), ha="center", va="center",
                        fontsize=11, fontweight="bold", color="#888" if blank else "#111")  # fmt: skip
                if not blank:
                    ax.text(c + 0.8, r + 0.8, str(variant.value_of(letter)), ha="center", va="center", fontsize=5)
            elif look.label:
                ax.text(c + 0.5, r + 0.5, look.label, ha="center", va="center", fontsize=7, color="white")
    if title:
        ax.text(cols / 2, -1.1, title, ha="center", va="center", fontsize=10)
    for k, line in enumerate(caption):
        ax.text(0, rows + 0.5 + 0.55 * k, line, ha="left", va="center", fontsize=9, color="#222")
    try:
        fig.savefig(target, format=fmt, bbox_inches="tight", dpi=150)
    finally:
        plt.close(fig)
