"""Errors the command line turns into one clear line and a stable exit code."""

from __future__ import annotations


class LiterakiError(Exception):
    """An error caused by input or environment, reported without a traceback.

    ``exit_code`` is the process exit status the CLI uses (see README, "Exit codes").
    """

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class LexiconError(LiterakiError):
    """A lexicon file is missing, truncated, corrupt or of another format version."""


class InputError(LiterakiError):
    """A user-supplied file or value cannot be used (names the file/line/column or value)."""


class Said(str):
    """A message in the command line's English words that also keeps the template and fields it
    was made of, so the board page can say the same in its own language
    (``locales/messages.<lang>.toml``, :mod:`literaki_cli.web.messages`).  It is a ``str``: everything
    that prints or compares a message goes on as before."""

    template: str
    fields: dict[str, object]

    def with_fields(self, **changes: object) -> Said:
        """The same message of some fields changed (a line counted from elsewhere, say)."""
        return said(self.template, **{**self.fields, **changes})


def said(template: str, /, **fields: object) -> Said:
    """``template.format(**fields)``, remembering both: ``said("rack {rack} holds {count} tiles",
    rack=1, count=9)`` is the message ``"rack 1 holds 9 tiles"``.  A field that is itself
    :class:`Said` (a label such as ``what``, a message wrapped in another) is said in the page's
    language too."""
    message = Said(template.format(**fields))
    message.template = template
    message.fields = fields
    return message


class Joined(str):
    """Messages joined into one (``"a; b"``) that keeps its parts, each said on the page in its language."""

    parts: tuple[str, ...]
    separator: str


def joined(parts, separator: str = "; ") -> Joined:
    """``separator.join(parts)``, remembering the parts (a field of :func:`said` such as a list of problems)."""
    parts = tuple(parts)
    message = Joined(separator.join(parts))
    message.parts, message.separator = parts, separator
    return message


def message_of(exc: BaseException) -> str:
    """``exc``'s message, a :class:`Said` one kept as it is (``str(exc)`` makes it a plain str)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, Said) else str(exc)
