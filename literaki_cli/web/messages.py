"""The API's messages in the board page's words: what the engine says to the command line (in
English, naming its options) said again in the page's language, naming only what the page has.

The page sends its language in the ``x-literaki-lang`` header; a script that sends none gets the
command line's own message.  Every message the API can send is made by
:func:`literaki_cli.errors.said` from an English template and its fields;
``locales/messages.<lang>.toml`` maps each template to its text in that language (Polish: every
template; English: the templates whose command-line words name an option, or read better said
otherwise), :func:`literaki_cli.locales.said_in` fills it in.  ``tests/test_messages.py`` checks
that every template has its texts and every raise site the API reaches says its message so."""

from __future__ import annotations

import re

from literaki_cli.errors import Joined, Said
from literaki_cli.locales import MESSAGE_FORMAT, MISFIT, message_texts, said_in


def page_message(message: str, lang: str | None) -> str:
    """``message`` as the page says it in ``lang`` (None: as the command line says it)."""
    if lang is None:
        return str(message)
    try:
        text, own = str(said_in(message, lang)), isinstance(message, Said | Joined)
    except MISFIT:  # a text that does not fit its fields: a bug, and the page still hears the message
        text, own = str(message), False
    if not own:  # the command line's words: less what names its options (the page has none)
        text = _OPTION_HINT.sub("", text).strip()
    # a sentence of the page starts with a capital (the command line's start lower-case), but not
    # a name it starts with (a file's, a square's, a word's)
    lead = message.parts[0] if isinstance(message, Joined) and message.parts else message
    capital = own and isinstance(lead, Said) and _starts_with_words(lead, lang)
    return text[:1].upper() + text[1:] if capital else text


def _starts_with_words(message: Said, lang: str) -> bool:
    """Whether ``message`` in ``lang`` starts with a text's own lower-case word, or a field said so."""
    text = message_texts(lang).get(message.template, message.template)
    literal, name, _, _ = next(iter(MESSAGE_FORMAT.parse(text)), ("", None, "", None))
    if literal:
        return literal[0].islower()
    value = message.fields.get(name or "")
    return isinstance(value, Said) and _starts_with_words(value, lang)


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


__all__ = ["in_page_words", "page_message"]
