"""One way to turn the bytes of any text input (word lists, word files, stdin, positions, grids) into text.

UTF-8 (with or without a byte-order mark) is taken when the whole input decodes as UTF-8
(the byte-order mark is dropped).
Otherwise the input is a Windows file: Windows-1250, or ISO-8859-2 when the bytes only that
code page uses for Polish letters are the more frequent.  Each line of such input is read on
its own, so a file that mixes lines of both (one list appended to another) loses no word:

* a line that is not UTF-8 is read in the code page;
* a line that is UTF-8 spelling only characters the code page can also write is read as UTF-8
  (no Polish line in Windows-1250 forms such UTF-8: it would need a non-Polish capital like
  Ă or Ĺ before the next byte);
* a line whose UTF-8 reading spells letters of another script or unassigned code points
  ("ężą" in Windows-1250 is the Hangul "꿹" in UTF-8) is read in the code page;
* a line that reads sensibly both ways, or neither way, is refused with its line number.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from literaki_cli.errors import InputError, said

BOM = b"\xef\xbb\xbf"

# Bytes that tell Windows-1250 from ISO-8859-2: ą Ą ś Ś ź Ź sit at different places.
_CP1250_ONLY = frozenset(b"\xb9\xa5\x9c\x8c\x9f\x8f")
_ISO8859_2_ONLY = frozenset(b"\xb1\xa1\xb6\xa6\xbc\xac")

_NAMES = {"cp1250": "Windows-1250", "iso-8859-2": "ISO-8859-2"}


@dataclass(frozen=True)
class DecodedText:
    """Decoded text (NFC) and the encoding it was read in, as a label for reports."""

    text: str
    encoding: str


def single_byte_encoding(raw: bytes, minus: bytes = b"") -> str:
    """Windows-1250 or ISO-8859-2, by the bytes that only one of them uses for Polish letters
    (counted in ``raw`` less those in ``minus``, the lines read as UTF-8)."""
    cp1250 = sum(raw.count(b) - minus.count(b) for b in _CP1250_ONLY)
    iso = sum(raw.count(b) - minus.count(b) for b in _ISO8859_2_ONLY)
    return "iso-8859-2" if iso > cp1250 else "cp1250"


# Undecodable bytes (kept as lone surrogates by "surrogateescape") and C1 control characters,
# which ISO-8859-2 gives bytes 0x80-0x9f but no text holds.
_UNDECODABLE = re.compile("[\udc80-\udcff]")
_NOT_TEXT = re.compile("[\x80-\x9f\udc80-\udcff]")


def _foreign_letters(text: str, encoding: str) -> bool | None:
    """None when ``encoding`` can write every character of ``text``; else whether any it
    cannot write is a letter of another script or an unassigned or private code point
    (which no text holds) rather than a symbol such as an emoji."""
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        pass
    else:
        return None
    for char in text:
        if not char.isascii() and unicodedata.category(char)[0] == "L" or unicodedata.category(char) in ("Cn", "Co"):
            try:
                char.encode(encoding)
            except UnicodeEncodeError:
                return True
    return False


def _decode_line(as_utf8: str, as_single: str, number: int, encoding: str, source: str) -> tuple[str, bool]:
    """One line of mixed input, given both readings, and whether it was read as UTF-8."""
    single_ok = not _NOT_TEXT.search(as_single)
    if _UNDECODABLE.search(as_utf8):
        if not single_ok:
            raise InputError(said("{source}: line {line}: neither UTF-8 nor {encoding} text; save the file as UTF-8",
                                  source=source, line=number, encoding=_NAMES[encoding]))  # fmt: skip
        return as_single, False
    foreign_letters = _foreign_letters(as_utf8, encoding)
    if foreign_letters is None:
        # Characters the code page could have written: a Polish line in that code page never
        # forms such UTF-8 (it would need a non-Polish capital like Ă or Ĺ before the byte).
        return as_utf8, True
    if foreign_letters and single_ok:
        return as_single, False  # e.g. "ężą" in Windows-1250 is the Hangul "꿹" in UTF-8
    if not single_ok:
        return as_utf8, True
    raise InputError(said("{source}: line {line}: reads as UTF-8 {utf8!r} and as {encoding} {other!r} in a file that "
                          "mixes both; save the file as UTF-8", source=source, line=number, utf8=as_utf8.strip(),
                          encoding=_NAMES[encoding], other=as_single.strip()))  # fmt: skip


# The start of a line that is valid UTF-8 (no undecodable byte) and not plain ASCII.
_UTF8_NON_ASCII_LINE = re.compile("(?m)^(?=[^\n\udc80-\udcff]*+$)[\x00-\x09\x0b-\x7f]*+[^\x00-\x7f]")


def _decode_mixed(data: bytes, source: str) -> DecodedText:
    """Line-by-line decoding of input that is not UTF-8 as a whole (see the module docstring).

    Only the lines that are valid UTF-8 and not ASCII are looked at one by one; the rest is
    decoded in one go, so a 3-million-line Windows-1250 dump takes a second or two."""
    as_utf8 = data.decode("utf-8", "surrogateescape")
    utf8_lines: dict[int, str] = {}
    line, pos = 0, 0
    for match in _UTF8_NON_ASCII_LINE.finditer(as_utf8):
        line += as_utf8.count("\n", pos, match.start())
        pos = match.start()
        end = as_utf8.find("\n", pos)
        utf8_lines[line] = as_utf8[pos : len(as_utf8) if end < 0 else end]
    # Detect the code page on the lines that will be read in it: those that are not UTF-8 and
    # those whose UTF-8 reading is another script (in both code pages).
    utf8_bytes = "\n".join(
        line for line in utf8_lines.values() if not all(_foreign_letters(line, page) for page in _NAMES)
    ).encode()
    encoding = single_byte_encoding(data, minus=utf8_bytes)
    as_single = data.decode(encoding, "surrogateescape")
    single_lines = as_single.split("\n") if utf8_lines else []
    read_as_utf8 = 0
    for index, utf8_line in utf8_lines.items():
        text, was_utf8 = _decode_line(utf8_line, single_lines[index], index + 1, encoding, source)
        single_lines[index] = text
        read_as_utf8 += was_utf8
    line, pos, scanned = 0, 0, 0
    while bad := _NOT_TEXT.search(as_single, pos):
        line += as_single.count("\n", scanned, bad.start())
        scanned = bad.start()
        if line not in utf8_lines:
            raise InputError(said("{source}: line {line}: neither UTF-8 nor {encoding} text; save the file as UTF-8",
                                  source=source, line=line + 1, encoding=_NAMES[encoding]))  # fmt: skip
        end = as_single.find("\n", bad.start())
        if end < 0:
            break
        pos = end
    text = "\n".join(single_lines) if utf8_lines else as_single
    label = f"utf-8+{encoding} (per line)" if read_as_utf8 else encoding
    return DecodedText(text, label)


def decode_text_with_encoding(data: bytes, source: str) -> DecodedText:
    """Decode ``data`` (named ``source`` in errors) and say which encoding it was in."""
    if data.startswith(BOM):
        data, bom = data[len(BOM) :], True
    else:
        bom = False
    try:
        result = DecodedText(data.decode("utf-8"), "utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError:
        result = _decode_mixed(data, source)
    if not unicodedata.is_normalized("NFC", result.text):
        result = DecodedText(unicodedata.normalize("NFC", result.text), result.encoding)
    return result


def decode_text(data: bytes, source: str) -> str:
    """The text of ``data`` (UTF-8, UTF-8 with BOM, Windows-1250 or ISO-8859-2, or lines of
    UTF-8 mixed with one of the latter), NFC-normalised; :class:`InputError` naming ``source``
    and the line when a line cannot be read one way."""
    return decode_text_with_encoding(data, source).text
