"""The API's messages in the board page's words: what the engine says to the command line (in
English, naming its options) said again in the page's language, naming only what the page has.

The page sends its language in the ``x-literaki-lang`` header; a script that sends none gets the
command line's own message.  Every message the API can send is made by
:func:`literaki_cli.errors.said` from an English template and its fields; ``locales/messages.<lang>.toml``
maps each template to the page's text in that language (Polish: every template; English: the
templates whose command-line words name an option, or read better said otherwise).  A text is a
``str.format`` template of the same fields, and may spell a Polish number's noun with
``{count:~płytka/płytki/płytek}`` ("1 płytka", "3 płytki", "5 płytek").  ``tests/test_messages.py``
checks that every template has its texts and every raise site the API reaches says its message so."""

from __future__ import annotations

import re
import string
import tomllib
from functools import cache
from importlib import resources

from literaki_cli.errors import Joined, Said

#: The languages of the page's messages.
MESSAGE_LANGUAGES = ("pl", "en")


@cache
def message_texts(lang: str) -> dict[str, str]:
    """The ``[messages]`` table of ``locales/messages.<lang>.toml``: template -> the page's text."""
    text = (resources.files("literaki_cli") / "locales" / f"messages.{lang}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)["messages"]


def page_message(message: str, lang: str | None) -> str:
    """``message`` as the page says it in ``lang`` (None: as the command line says it)."""
    if lang is None:
        return str(message)
    if not isinstance(message, Said | Joined):  # made without said(): the command line's words,
        return _OPTION_HINT.sub("", message).strip()  # less what names its options
    try:
        text = str(_field_in(message, lang))
    except (KeyError, IndexError, ValueError, TypeError):  # a text that does not fit its fields: a bug,
        return _OPTION_HINT.sub("", message).strip()  # and the page still hears the message
    # a sentence of the page starts with a capital (the command line's start lower-case), but not
    # a name it starts with (a file's, a square's, a word's)
    lead = message.parts[0] if isinstance(message, Joined) and message.parts else message
    return text[:1].upper() + text[1:] if isinstance(lead, Said) and _starts_with_words(lead, lang) else text


def _said_in(message: Said, lang: str) -> str:
    """``message``'s text in ``lang`` with its fields, those said themselves said in ``lang`` too."""
    fields = {name: _field_in(value, lang) for name, value in message.fields.items()}
    return _PAGE_FORMAT.format(message_texts(lang).get(message.template, message.template), **fields)


def _starts_with_words(message: Said, lang: str) -> bool:
    """Whether ``message`` in ``lang`` starts with a text's own lower-case word, or a field said so."""
    text = message_texts(lang).get(message.template, message.template)
    literal, name, _, _ = next(iter(_PAGE_FORMAT.parse(text)), ("", None, "", None))
    if literal:
        return literal[0].islower()
    value = message.fields.get(name or "")
    return isinstance(value, Said) and _starts_with_words(value, lang)


def _field_in(value, lang: str):
    """A field as the page says it: a message said in ``lang``, joined ones each so, else as it is."""
    if isinstance(value, Said):
        return _said_in(value, lang)
    if isinstance(value, Joined):
        return value.separator.join(str(_field_in(part, lang)) for part in value.parts)
    return value


def polish_plural(count: int, one: str, few: str, many: str) -> str:
    """``count`` with its noun in Polish: 1 płytka, 2-4 (22-24, ...) płytki, else płytek."""
    if count == 1:
        return one
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return few
    return many


class _PageFormatter(string.Formatter):
    """``str.format`` that also reads ``{count:~one/few/many}``: the number and its noun."""

    def format_field(self, value, format_spec: str) -> str:
        if format_spec.startswith("~"):
            one, few, many = format_spec[1:].split("/")
            return f"{value} {polish_plural(int(str(value).replace(',', '')), one, few, many)}"
        return super().format_field(value, format_spec)


_PAGE_FORMAT = _PageFormatter()

#: A hint that names a command-line option: "(--lenient accepts it ...)", "; use --sim", "(or give --variant)".
_OPTION_HINT = re.compile(r"\s*\([^()]*--[a-z][^()]*\)|[;:,]\s*(?:use|give|try)\s+--[a-z][\w-]*[^;.]*")


def in_page_words(value, lang: str | None):
    """``value`` (an answer: dicts, lists, numbers, text) with every message in it said as the
    page says it in ``lang``; the rest (names, words, moves) as it is."""
    if lang is None:
        return value
    if isinstance(value, Said | Joined):
        return page_message(value, lang)
    if isinstance(value, dict):
        return {key: in_page_words(item, lang) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [in_page_words(item, lang) for item in value]
    return value


__all__ = ["MESSAGE_LANGUAGES", "in_page_words", "message_texts", "page_message", "polish_plural"]
