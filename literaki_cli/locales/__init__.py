"""The interface's words in each language: ``<lang>.toml`` (the command line's ``play``, the board
page's ``[board]``, the plain-text legend) and ``messages.<lang>.toml`` (each message template of
:func:`literaki_cli.errors.said` in that language's words), and a said message in them.

A message text is a ``str.format`` template of its template's fields, and may spell a Polish
number's noun with ``{count:~płytka/płytki/płytek}`` ("1 płytka", "3 płytki", "5 płytek")."""

from __future__ import annotations

import string
import tomllib
from functools import cache
from importlib import resources

from literaki_cli.errors import Joined, Said

#: What a message text that does not fit its fields raises when filled (a bug the catalog's test
#: catches; a caller falls back to the command line's words).
MISFIT = (KeyError, IndexError, ValueError, TypeError)


@cache
def locale_file(name: str) -> dict:
    """The tables of ``locales/<name>.toml`` (read once a process)."""
    return tomllib.loads((resources.files(__name__) / f"{name}.toml").read_text(encoding="utf-8"))


def message_texts(lang: str) -> dict[str, str]:
    """The ``[messages]`` table of ``messages.<lang>.toml``: template -> that language's text."""
    return locale_file(f"messages.{lang}")["messages"]


def said_in(message, lang: str):
    """``message`` in ``lang``'s words when :func:`~literaki_cli.errors.said` made it (its said
    fields so too; :func:`~literaki_cli.errors.joined` ones each), else as it is.  A template with
    no text in ``lang`` keeps its English; a text that does not fit its fields raises one of
    :data:`MISFIT`."""
    if isinstance(message, Said):
        fields = {name: said_in(value, lang) for name, value in message.fields.items()}
        return MESSAGE_FORMAT.format(message_texts(lang).get(message.template, message.template), **fields)
    if isinstance(message, Joined):
        return message.separator.join(str(said_in(part, lang)) for part in message.parts)
    return message


def polish_plural(count: int, one: str, few: str, many: str) -> str:
    """``count`` with its noun in Polish: 1 płytka, 2-4 (22-24, ...) płytki, else płytek."""
    if count == 1:
        return one
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return few
    return many


class _MessageFormatter(string.Formatter):
    """``str.format`` that also reads ``{count:~one/few/many}``: the number and its noun."""

    def format_field(self, value, format_spec: str) -> str:
        if format_spec.startswith("~"):
            one, few, many = format_spec[1:].split("/")
            return f"{value} {polish_plural(int(value), one, few, many)}"
        return super().format_field(value, format_spec)


MESSAGE_FORMAT = _MessageFormatter()


__all__ = ["MESSAGE_FORMAT", "MISFIT", "locale_file", "message_texts", "polish_plural", "said_in"]
