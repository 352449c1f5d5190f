"""The Polish alphabet: the one place that knows letters, their order and their codes.

Everything else (lexicon files, boards, racks, move notation) works with letter *codes*:
small integers 1..32 in Polish alphabetical order.  Code 0 is reserved (the separator of a
GADDAG, "no letter" on a board), so a code fits a 6-bit field and a set of letters fits a
32-bit mask as ``1 << (code - 1)``.
"""

from __future__ import annotations

import unicodedata

import numpy as np

#: The 32 letters in Polish alphabetical order (a ą b c ć ... ź ż) plus q, v, x at the end.
#: Q, V and X are not part of the Polish alphabet proper but occur in ~800 loanwords of the
#: SJP games list; they get codes so that a word containing them can be *recognised* and
#: rejected with the right reason ("letter without a tile") instead of "not a letter".
POLISH_LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
FOREIGN_LETTERS = "qvx"
LETTERS = POLISH_LETTERS + FOREIGN_LETTERS

#: The Polish vowels (the leave model balances vowels against consonants).
VOWELS = "aąeęioóuy"

#: Number of letters of the Polish alphabet (codes 1..32).
ALPHABET_SIZE = len(POLISH_LETTERS)
#: Largest letter code in use, foreign letters included.
MAX_CODE = len(LETTERS)
#: Code reserved for "no letter" / the GADDAG separator.
NO_LETTER = 0

CODE_OF: dict[str, int] = {ch: i + 1 for i, ch in enumerate(LETTERS)}
LETTER_OF: dict[int, str] = {i + 1: ch for i, ch in enumerate(LETTERS)}

# str.translate tables between text and "code strings" (one character chr(code) per letter).
# Code strings sort in Polish alphabetical order with plain string comparison, and encode to
# bytes with latin-1, which is what the compiled kernels consume.
_TO_CODES = str.maketrans({ch: chr(code) for ch, code in CODE_OF.items()})
# chr(255), the word separator of flat code buffers, decodes to a newline.
_FROM_CODES = str.maketrans({chr(code): ch for ch, code in CODE_OF.items()} | {"\xff": "\n"})
_FROM_CODES_UPPER = str.maketrans({chr(code): ch.upper() for ch, code in CODE_OF.items()} | {"\xff": "\n"})

#: Look-up table from a Unicode code point (< len) to a letter code, 0 when not a letter.
#: Covers lower case only: callers normalise (NFC, lower case) first.
CODEPOINT_TABLE_SIZE = 0x180
CODEPOINT_TO_CODE = np.zeros(CODEPOINT_TABLE_SIZE, dtype=np.uint8)
for _ch, _code in CODE_OF.items():
    CODEPOINT_TO_CODE[ord(_ch)] = _code


#: Look-up table from a byte of a flat code buffer to a code point: letters, 255 -> newline.
CODE_TO_CODEPOINT = np.full(256, ord("?"), dtype=np.uint32)
CODE_TO_CODEPOINT[255] = ord("\n")
for _ch, _code in CODE_OF.items():
    CODE_TO_CODEPOINT[_code] = ord(_ch)


def decode_buffer(codes: np.ndarray) -> str:
    """Text of a flat ``uint8`` code buffer (words separated by 255 become lines), vectorised."""
    return CODE_TO_CODEPOINT[codes].tobytes().decode("utf-32-le")


def normalize(text: str) -> str:
    """Case-fold and NFC-normalise user text, so 'ŻÓŁW', 'żółw' and decomposed forms agree.

    ``str.lower`` (not ``casefold``) is used on purpose: casefold would turn a German sharp s
    into "ss" and make a non-Polish input look Polish.
    """
    return unicodedata.normalize("NFC", text).lower()


def normalize_case_keeping(text: str) -> str:
    """NFC-normalise without folding case (where case carries meaning, as blanks in moves)."""
    return unicodedata.normalize("NFC", text)


def is_polish_letter(ch: str) -> bool:
    """True for the 32 lower-case letters of the Polish alphabet."""
    return ch in POLISH_LETTERS and len(ch) == 1


def to_code_string(word: str) -> str:
    """Map a normalised word to its code string (letters outside ``LETTERS`` are kept)."""
    return word.translate(_TO_CODES)


def from_code_string(codes: str, upper: bool = False) -> str:
    """Inverse of :func:`to_code_string`; the separator chr(255) becomes a newline."""
    return codes.translate(_FROM_CODES_UPPER if upper else _FROM_CODES)


def encode(word: str) -> bytes:
    """Letter codes of a normalised word; raises ``ValueError`` on a character that is not a letter."""
    out = bytearray()
    for ch in word:
        code = CODE_OF.get(ch)
        if code is None:
            raise ValueError(f"not a letter of the alphabet: {ch!r}")
        out.append(code)
    return bytes(out)


def decode(codes: bytes | bytearray | np.ndarray, upper: bool = False) -> str:
    """Letters of a sequence of codes."""
    text = "".join(LETTER_OF[int(c)] for c in codes)
    return text.upper() if upper else text


def collation_key(word: str) -> str:
    """Sort key giving Polish alphabetical order (a < ą < b ... < ż), letter by letter."""
    return normalize(word).translate(_TO_CODES)


def polish_sorted(words) -> list[str]:
    """Words sorted in Polish alphabetical order."""
    return sorted(words, key=collation_key)


def mask_of(letters: str) -> int:
    """32-bit set of Polish letters, bit ``code - 1`` for each letter."""
    mask = 0
    for ch in letters:
        code = CODE_OF[ch]
        if code > ALPHABET_SIZE:
            raise ValueError(f"{ch!r} is not in the 32-letter Polish alphabet")
        mask |= 1 << (code - 1)
    return mask
