"""Which strings can be Literaki words, and why not: shared by the lexicon builder (to filter a
source) and by ``check-word`` (to explain a rejection), so both give the same reasons.

The rules come from the variant: the letters that have tiles and the word-length limits.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from literaki_cli.engine import alphabet

if TYPE_CHECKING:  # check-word reads its rules from the lexicon, not from a variant
    from literaki_cli.engine.variant import Variant

#: Reason key -> human text.  The keys are stable (JSON output, build metadata).
REASONS = {
    "empty": "empty line",
    "space": "contains a space (a phrase)",
    "hyphen": "contains a hyphen",
    "apostrophe": "contains an apostrophe",
    "dot": "contains a dot (an abbreviation)",
    "digit": "contains a digit",
    "capital": "has a capital letter (a proper noun or an abbreviation)",
    "no-tile": "has a letter without a tile",
    "not-a-letter": "has a character outside the Polish alphabet",
    "too-short": "too short",
    "too-long": "too long",
    "duplicate": "duplicate",
    "not-in-list": "not in the word list",
}

_APOSTROPHES = "'’`ʼ"
_HYPHENS = "-‐‑–—"


@dataclass(frozen=True)
class WordRules:
    """The word-shape rules of a variant."""

    letters: str
    min_length: int
    max_length: int

    @classmethod
    def of(cls, variant: Variant) -> WordRules:
        return cls(variant.tile_letters, variant.min_word_length, variant.max_word_length)

    def __post_init__(self) -> None:
        pattern = f"[{re.escape(self.letters)}]{{{self.min_length},{self.max_length}}}"
        object.__setattr__(self, "_playable", re.compile(pattern))

    def is_playable(self, word: str) -> bool:
        """True when ``word`` (already normalised) has only tile letters and a valid length."""
        return self._playable.fullmatch(word) is not None  # type: ignore[attr-defined]

    def rejection(self, word: str) -> str | None:
        """The reason key (see :data:`REASONS`) why ``word`` cannot be a word, or None.

        Checked in a fixed order, so each rejected word is counted under one reason.
        """
        if self.is_playable(word):
            return None
        if not word:
            return "empty"
        if any(ch.isspace() for ch in word):
            return "space"
        if any(ch in _HYPHENS for ch in word):
            return "hyphen"
        if any(ch in _APOSTROPHES for ch in word):
            return "apostrophe"
        if "." in word:
            return "dot"
        if any(ch.isdigit() for ch in word):
            return "digit"
        if any(ch.isupper() for ch in word):
            return "capital"
        if any(ch not in self.letters for ch in word):
            if all(ch in alphabet.CODE_OF for ch in word):
                return "no-tile"
            return "not-a-letter"
        if len(word) < self.min_length:
            return "too-short"
        return "too-long"

    def explain(self, word: str, reason: str) -> str:
        """A one-line explanation of ``reason`` for ``word``, naming the offending part."""
        text = REASONS[reason]
        if reason in ("no-tile", "not-a-letter"):
            bad = sorted({ch for ch in word if ch not in self.letters}, key=alphabet.collation_key)
            return f"{text}: {', '.join(bad)}"
        if reason == "too-short":
            return f"{text}: {len(word)} letter{'s' if len(word) != 1 else ''}, at least {self.min_length}"
        if reason == "too-long":
            return f"{text}: {len(word)} letters, at most {self.max_length}"
        return text
