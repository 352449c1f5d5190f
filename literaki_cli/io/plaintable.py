"""A table drawn as rich draws it for a pipe or a file (no colour, no wrapping, the heavy-head
box), without importing rich: rich takes 0.05-0.08 s to import and draw, a tenth of a whole
``literaki solve`` that prints its 20 moves to a file or a pipe.  On a terminal the commands
still use rich, which fits the table to the window.  tests/test_startup.py checks that both
give the same text.

Cells must be plain text (no rich markup) whose characters are one column wide each, as
Polish words, numbers and coordinates are.
"""

from __future__ import annotations

#: How each column lines its cells up: "left" or "right".
Column = tuple[str, str]


def plain_table(title: str | None, columns: list[Column], rows: list[list[str]]) -> str:
    """The table's text, ending with a newline: the title on its own line, then the box."""
    widths = [max([len(name), *(len(row[k]) for row in rows)]) for k, (name, _) in enumerate(columns)]
    justify = [how for _, how in columns]

    def line(values: list[str], bar: str) -> str:
        laid = zip(values, widths, justify, strict=True)
        cells = (value.rjust(w) if how == "right" else value.ljust(w) for value, w, how in laid)
        return bar + bar.join(f" {cell} " for cell in cells) + bar

    def rule(left: str, fill: str, cross: str, right: str) -> str:
        return left + cross.join(fill * (w + 2) for w in widths) + right

    lines = [title] if title else []
    lines += [rule("┏", "━", "┳", "┓"), line([name for name, _ in columns], "┃"), rule("┡", "━", "╇", "┩")]
    lines += [line(row, "│") for row in rows]
    lines.append(rule("└", "─", "┴", "┘"))
    return "\n".join(lines) + "\n"
