"""The "popular words" subset the computer players use: words of the lexicon that are common
in real Polish text, by the Zipf frequency of the ``wordfreq`` package (list ``large``, ``pl``).

Zipf = log10(occurrences per billion words).  The default threshold 2.5 (about one occurrence
in 3 million words) keeps roughly 70,000 forms of the SJP games list: everyday words and their
common inflections, without rare or technical ones.  It is a build parameter
(``build-lexicon --popular-zipf``).
"""

from __future__ import annotations

from collections.abc import Iterable

DEFAULT_ZIPF_THRESHOLD = 2.5
WORDLIST = "large"
LANGUAGE = "pl"


def wordfreq_version() -> str:
    from importlib.metadata import version

    return version("wordfreq")


def popular_words(words: Iterable[str], zipf_threshold: float = DEFAULT_ZIPF_THRESHOLD) -> list[str]:
    """The words (normalised, lower case) whose Polish Zipf frequency is at least the threshold."""
    import wordfreq  # imported here: it loads a 4 MB table that only builds need

    min_freq = 10 ** (zipf_threshold - 9)
    frequencies = wordfreq.get_frequency_dict(LANGUAGE, WORDLIST)
    return [w for w in words if frequencies.get(w, 0.0) >= min_freq]
