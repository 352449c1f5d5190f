"""The "popular words" subset the computer players use: words of the lexicon that are common
in real Polish text, by the Zipf frequency of the ``wordfreq`` package (list ``large``, ``pl``).

Zipf = log10(occurrences per billion words); the threshold (``build-lexicon --popular-zipf``,
default 2.5, about once in 3 million words) applies by one of two rules (``--popular-rule``):

``lemma`` (the default)
    a word is popular when its *lemma* is: the frequencies of all the lemma's forms in
    ``wordfreq`` are summed and compared with the threshold.  A person who knows a word knows
    its forms, so every form of a common word is known (``psom`` as well as ``pies``) and a rare
    word is unknown however it is inflected (``trajkotaliśmy``).  About 29,000 lemmas, 503,000
    forms of sjp-20260201.  The lemma of a form comes from the Polish dictionary of ``simplemma``
    by exact look-up (no guessing): 2 million of the 3.2 million game words are in it; a form it
    lacks is its own lemma and so is judged by its own frequency, as in the ``word`` rule.  It
    gives one lemma per form, so a form shared by two words follows one of them (``żółwiowi``
    counts as the rare adjective ``żółwiowy``, not as ``żółw``).
``word``
    a word is popular when its own frequency reaches the threshold: about 78,000 forms, few of
    them long.  Computer levels knowing only these end a quarter to over half of their games
    with both players stuck (measured by benchmarks/pass_endings.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache

RULES = ("lemma", "word")
DEFAULT_RULE = "lemma"
DEFAULT_ZIPF_THRESHOLD = 2.5
WORDLIST = "large"
LANGUAGE = "pl"

Lemmatizer = Callable[[str], str]


@dataclass(frozen=True)
class PopularRule:
    """What makes a word popular: the rule's name (one of :data:`RULES`) and the Zipf threshold."""

    name: str = DEFAULT_RULE
    zipf: float = DEFAULT_ZIPF_THRESHOLD

    def __str__(self) -> str:
        return describe(self.name, self.zipf)


def describe(rule: str, zipf_threshold: float) -> str:
    """How a rule reads in build reports and ``lexicon-info``: ``lemma Zipf >= 2.5``."""
    return f"{rule} Zipf >= {zipf_threshold:g}"


def wordfreq_version() -> str:
    from importlib.metadata import version

    return version("wordfreq")


def simplemma_version() -> str:
    from importlib.metadata import version

    return version("simplemma")


def frequency_source(rule: str) -> str:
    """What the popular set was computed from, for the lexicon metadata."""
    source = f"wordfreq {wordfreq_version()} ({LANGUAGE}, {WORDLIST})"
    if rule == "lemma":
        source += f"; lemmas: simplemma {simplemma_version()} ({LANGUAGE} dictionary)"
    return source


@cache
def _polish_dictionary() -> Mapping[str, str]:
    """simplemma's Polish dictionary, form -> lemma, loaded once per process (about 6 s and
    430 MB): a session building many small lexicons (the tests) would otherwise pay that for
    every build."""
    from simplemma.strategies.dictionaries import DefaultDictionaryFactory

    return DefaultDictionaryFactory().get_dictionary(LANGUAGE)


def polish_lemmatizer() -> Lemmatizer:
    """Form -> lemma (lower case) by exact look-up in simplemma's Polish dictionary; a form it
    lacks is its own lemma (no guessing from affixes)."""
    dictionary = _polish_dictionary()
    raw = _raw_dictionary()
    if raw is not None:  # the same look-up on the dictionary's own bytes (a third of the time)
        get = raw.get

        def lemma_of(form: str) -> str:
            lemma = get(form.encode())
            return form if lemma is None else lemma.decode().lower()

        return lemma_of

    def lemma_of(form: str) -> str:
        lemma = dictionary.get(form)
        return form if lemma is None else lemma.lower()

    return lemma_of


def _raw_dictionary() -> dict[bytes, bytes] | None:
    """simplemma's Polish dictionary as the bytes -> bytes dict it wraps (UTF-8 form -> lemma),
    or None when it is not one (another simplemma: use its mapping)."""
    raw = getattr(_polish_dictionary(), "_dict", None)
    if not isinstance(raw, dict) or not all(isinstance(x, bytes) for x in next(iter(raw.items()), (b"", b""))):
        return None
    return raw


def lemma_frequencies(frequencies: Mapping[str, float], lemma_of: Lemmatizer) -> dict[str, float]:
    """Each lemma's frequency: the sum of its forms' frequencies (how often the word is used, in
    any form)."""
    totals: dict[str, float] = defaultdict(float)
    for form, frequency in frequencies.items():
        totals[lemma_of(form)] += frequency
    return dict(totals)


@cache
def _polish_lemma_frequencies() -> dict[str, float]:
    """The lemma frequencies of wordfreq's Polish list, computed once per process."""
    import wordfreq  # imported here: it loads a 4 MB table that only builds need

    return lemma_frequencies(wordfreq.get_frequency_dict(LANGUAGE, WORDLIST), polish_lemmatizer())


def select_popular(
    words: Iterable[str], frequencies: Mapping[str, float], min_frequency: float, lemma_of: Lemmatizer | None = None
) -> list[str]:
    """The words, in their order, whose own frequency (``lemma_of`` None: the word rule) or whose
    lemma's summed frequency (the lemma rule) is at least ``min_frequency`` (per word of text)."""
    if lemma_of is None:
        return [w for w in words if frequencies.get(w, 0.0) >= min_frequency]
    return select_by_lemma(words, lemma_frequencies(frequencies, lemma_of), min_frequency, lemma_of)


def select_by_lemma(
    words: Iterable[str], lemma_totals: Mapping[str, float], min_frequency: float, lemma_of: Lemmatizer
) -> list[str]:
    """The words, in their order, whose lemma's frequency in ``lemma_totals`` is at least ``min_frequency``."""
    return [w for w in words if lemma_totals.get(lemma_of(w), 0.0) >= min_frequency]


def select_by_lemma_quick(words: Iterable[str], min_frequency: float) -> list[str] | None:
    """:func:`select_by_lemma` with simplemma's Polish dictionary and the lemma frequencies of
    wordfreq's list, by set operations on the dictionary's own bytes instead of a decoded look-up
    per word (3.2 million of them took 7 s): a form is popular when the dictionary gives it a
    popular lemma, or when the dictionary lacks it and it is a popular lemma itself.  None when the
    dictionary is not the bytes-backed mapping this reads (another simplemma): use
    :func:`select_by_lemma`."""
    raw = _raw_dictionary()
    if raw is None:
        return None
    popular_lemmas = {lemma for lemma, frequency in _polish_lemma_frequencies().items() if frequency >= min_frequency}
    popular_values = {value for value in set(raw.values()) if value.decode().lower() in popular_lemmas}
    own = {lemma.encode() for lemma in popular_lemmas}
    lemma_of = raw.get
    return [w for w in words
            if (b in own if (lemma := lemma_of(b := w.encode())) is None else lemma in popular_values)]  # fmt: skip


def zipf_to_frequency(zipf: float) -> float:
    """Zipf value -> occurrences per word of text (Zipf 3 = once per million words)."""
    return 10 ** (zipf - 9)


def popular_words(words: Iterable[str], rule: PopularRule | float | None = None) -> list[str]:
    """The words (normalised, lower case) that are popular by ``rule`` (a bare number is the
    default rule at that Zipf threshold; None the default rule and threshold)."""
    if not isinstance(rule, PopularRule):
        rule = PopularRule(zipf=DEFAULT_ZIPF_THRESHOLD if rule is None else rule)
    if rule.name not in RULES:
        raise ValueError(f"unknown popular rule {rule.name!r}")
    min_frequency = zipf_to_frequency(rule.zipf)
    if rule.name == "lemma":
        words = list(words)
        quick = select_by_lemma_quick(words, min_frequency)
        if quick is not None:
            return quick
        return select_by_lemma(words, _polish_lemma_frequencies(), min_frequency, polish_lemmatizer())
    import wordfreq

    return select_popular(words, wordfreq.get_frequency_dict(LANGUAGE, WORDLIST), min_frequency)
