"""Polish alphabetical order (collation) of words.

Letter by letter in the Polish alphabet: a ą b c ć d e ę f g h i j k l ł m n ń o ó p (q) r s ś
t u (v) w (x) y z ź ż, a word before its extensions (``kot`` < ``kota`` < ``kotek``), case not
mattering.  Python's own ``sorted`` puts every letter with a diacritic after ``z``.

The word graph stores its 32 letters in this order, so a graph walk already yields Polish order;
only q, v and x (loanword letters that have no tile in Literaki, coded after ż) need a re-sort
where a lexicon built with other rules holds them.
"""

from __future__ import annotations

from literaki_cli.engine import alphabet

#: The alphabet in collation order, the loanword letters in their Latin places.
COLLATION_ORDER = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_RANK = str.maketrans({ch: chr(i + 1) for i, ch in enumerate(COLLATION_ORDER)})
#: Letters whose collation place differs from their letter code's.
OUT_OF_CODE_ORDER = frozenset(alphabet.FOREIGN_LETTERS)


def collation_key(word: str) -> str:
    """Sort key of Polish alphabetical order (a character that is no letter keeps its code point)."""
    return alphabet.normalize(word).translate(_RANK)


def polish_sorted(words, reverse: bool = False) -> list[str]:
    """``words`` in Polish alphabetical order."""
    return sorted(words, key=collation_key, reverse=reverse)


def in_graph_order_is_polish(words: list[str]) -> bool:
    """Whether words in graph (letter-code) order are already in Polish order: none has q, v or x."""
    return not any(letter in word for word in words for letter in OUT_OF_CODE_ORDER)
