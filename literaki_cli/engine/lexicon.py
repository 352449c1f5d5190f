"""Loading a lexicon file and asking it about words.

A :class:`Lexicon` maps its file (see :mod:`literaki_cli.engine.lexfile`) and exposes the word sets
it holds as :class:`WordSet` objects: ``lexicon.words`` (every allowed word) and
``lexicon.popular`` (the words the computer players use).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from literaki_cli.engine import alphabet, lexfile, wordgraph
from literaki_cli.errors import LexiconError, said

ENV_VAR = "LITERAKI_LEXICON"
DEFAULT_FILE_NAME = "sjp.lexicon"

#: Batches up to this many words are looked up interpreted; larger ones in the Rust core.
COMPILE_THRESHOLD = 256


def default_lexicon_path() -> Path:
    """Where ``build-lexicon`` writes without ``-o`` and where commands look last."""
    import platformdirs

    return platformdirs.user_data_path("literaki") / DEFAULT_FILE_NAME


def resolve_lexicon_path(explicit: Path | None = None) -> Path:
    """``--lexicon FILE``, else ``$LITERAKI_LEXICON``, else the default file; error if none."""
    if explicit is not None:
        return Path(explicit)
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return Path(from_env)
    default = default_lexicon_path()
    if default.is_file():
        return default
    raise LexiconError(said(
        "no lexicon found (looked for {source}): build one with 'literaki build-lexicon sjp-YYYYMMDD.zip' (the SJP.PL "
        "games list, https://sjp.pl/sl/growy/) or 'literaki build-lexicon --download', or pass --lexicon FILE or set "
        "${variable}",
        source=default, variable=ENV_VAR,
    ))


def encode_many(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Flat letter codes of normalised words, with the start and end of each word.

    A character that is not a letter becomes :data:`wordgraph.NOT_A_LETTER`, which no word
    contains.  Words must not contain newlines (they are stripped lines).
    """
    if not words:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0, dtype=np.uint8), empty, empty
    points = np.frombuffer("\n".join(words).encode("utf-32-le"), dtype=np.uint32)
    in_table = points < alphabet.CODEPOINT_TABLE_SIZE
    codes = alphabet.CODEPOINT_TO_CODE[np.where(in_table, points, 0)]
    codes = np.where(in_table & (codes != 0), codes, wordgraph.NOT_A_LETTER).astype(np.uint8)
    breaks = np.flatnonzero(points == 10)
    starts = np.concatenate(([0], breaks + 1)).astype(np.int64)
    ends = np.concatenate((breaks, [points.shape[0]])).astype(np.int64)
    return codes, starts, ends


def encode_few(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`encode_many` for a handful of words, in plain Python (its array work costs more)."""
    table, size = alphabet.CODEPOINT_TO_CODE, alphabet.CODEPOINT_TABLE_SIZE
    codes: list[int] = []
    starts: list[int] = []
    for word in words:
        starts.append(len(codes))
        for ch in word:
            point = ord(ch)
            code = int(table[point]) if point < size else 0
            codes.append(code or wordgraph.NOT_A_LETTER)
    ends = starts[1:] + [len(codes)]
    return np.array(codes, dtype=np.uint8), np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)


#: Up to this many words, a lookup walks them in plain Python (encoding arrays for a kernel costs more).
FEW_WORDS = 8


@dataclass(frozen=True)
class WordSet:
    """One word set of a lexicon file: the arc array and the root of its graph."""

    arcs: np.ndarray
    root: int
    count: int
    max_length: int

    def __contains__(self, word: str) -> bool:
        return bool(self.lookup([alphabet.normalize(word)])[0])

    def lookup(self, words: list[str], compiled: bool | None = None) -> np.ndarray:
        """For each normalised word: is it in the set?  In the Rust core for large batches, or when
        ``compiled`` is True (a caller that looks up a few words many times, like a game)."""
        few = len(words) <= FEW_WORDS
        if few and not compiled:
            return np.array([self._walk(word) for word in words], dtype=np.bool_)
        codes, starts, ends = encode_few(words) if few else encode_many(words)
        kernel = wordgraph.lookup_words
        if compiled or (compiled is None and len(words) > COMPILE_THRESHOLD):
            kernel = wordgraph.core_lookup
        return kernel(self.arcs, self.root, codes, starts, ends)

    def _walk(self, word: str) -> bool:
        """One word looked up in plain Python: for a handful of words (a game's move), cheaper
        than encoding them into arrays for a kernel."""
        arcs, node, accepted = self.arcs, self.root, False
        for ch in word:
            point = ord(ch)
            code = int(alphabet.CODEPOINT_TO_CODE[point]) if point < alphabet.CODEPOINT_TABLE_SIZE else 0
            if code == 0 or node == 0:
                return False
            position = wordgraph.find_arc(arcs, node, code)
            if position < 0:
                return False
            arc = int(arcs[position])
            accepted = bool(arc & wordgraph.ACCEPTS_BIT)
            node = arc & wordgraph.INDEX_MASK
        return accepted

    def text(self) -> str:
        """Every word, one per line (each followed by a newline), in Polish alphabetical order."""
        capacity = self.count * (self.max_length + 1)
        buf = wordgraph.core_words(self.arcs, self.root, self.max_length, capacity)
        return alphabet.decode_buffer(buf)

    def __iter__(self):
        return iter(self.text().splitlines())


#: Bounds on header counts: far above any real lexicon (SJP: 3.2 M words of at most 15 letters),
#: low enough that buffers sized from them stay allocatable.
MAX_WORD_COUNT = 100_000_000
MAX_WORD_LENGTH = 64
ROOT_NAMES = ("all", "popular", "gaddag", "popular_gaddag")

# The metadata fields commands read (path of keys -> type); a file lacking one is corrupt.
_REQUIRED_META: dict[tuple[str, ...], type | tuple[type, ...]] = {
    ("format",): str,
    ("letters",): str,
    ("alphabet",): str,
    ("word_count",): int,
    ("min_length",): int,
    ("max_length",): int,
    ("length_counts",): dict,
    ("source", "name"): str,
    ("source", "file"): str,
    ("source", "sha256"): str,
    ("source", "kind"): str,
    ("source", "kind_label"): str,
    ("source", "encoding"): str,
    ("popular", "word_count"): int,
    ("popular", "zipf_threshold"): (int, float),
    ("graph", "roots"): dict,
    ("built_at",): str,
    ("tool_version",): str,
}


def _meta_field(meta: dict, keys: tuple[str, ...], kind: type | tuple[type, ...], where: str) -> Any:
    value: Any = meta
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise LexiconError(said("{where}: metadata lacks {key}", where=where, key=".".join(keys)))
        value = value[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise LexiconError(said("{where}: metadata {key} is {value!r}, of the wrong type", where=where,
                                key=".".join(keys), value=value))
    return value


def check_arcs(arcs: Any, where: str) -> np.ndarray:
    """The arc array, once it is safe for every kernel whatever the file says: 32-bit arcs,
    every target inside the array, letter codes in range, and the last arc ending its sibling
    list (so a scan along any list stops inside the array).  One pass over the array."""
    if not isinstance(arcs, np.ndarray) or arcs.dtype != np.dtype("<u4") or arcs.ndim != 1 or arcs.shape[0] < 1:
        raise LexiconError(said("{where}: the arc array is missing, empty or not of 32-bit arcs", where=where))
    highest_target, highest_arc = _arc_maxima(arcs)
    if highest_target >= arcs.shape[0]:
        raise LexiconError(said("{where}: an arc points outside the graph", where=where))
    if highest_arc >> wordgraph.LETTER_SHIFT > wordgraph.MAX_LETTER:
        raise LexiconError(said("{where}: an arc carries an unknown letter code", where=where))
    if not int(arcs[-1]) & wordgraph.END_BIT:
        raise LexiconError(said("{where}: the last sibling list of the graph does not end", where=where))
    return arcs


#: Arcs checked at a time: a slice and its masked copy stay in the CPU cache, so the array is
#: read from memory once (3 ms for SJP's 5 million arcs, instead of 10 for whole-array passes).
_CHECK_STEP = 1 << 15


def _arc_maxima(arcs: np.ndarray) -> tuple[int, int]:
    """The highest arc target in ``arcs``, and the highest arc but the first (the letter codes
    are its top bits; arc 0 is the graph's sentinel)."""
    mask = np.uint32(wordgraph.INDEX_MASK)
    scratch = np.empty(min(_CHECK_STEP, arcs.shape[0]), dtype=np.uint32)
    highest_target = highest_arc = 0
    for start in range(0, arcs.shape[0], _CHECK_STEP):
        chunk = arcs[start : start + _CHECK_STEP]
        masked = scratch[: chunk.shape[0]]
        np.bitwise_and(chunk, mask, out=masked)
        highest_target = max(highest_target, int(masked.max()))
        rest = chunk[1:] if start == 0 else chunk
        if rest.shape[0]:
            highest_arc = max(highest_arc, int(rest.max()))
    return highest_target, highest_arc


class Lexicon:
    """A lexicon file, memory-mapped."""

    def __init__(self, path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        self.path = Path(path)
        self.meta = meta
        self._arrays = arrays
        where = said("{source}: corrupt lexicon file", source=path)
        if not isinstance(meta, dict):
            raise LexiconError(said("{where}: metadata is not a table", where=where))
        for keys, kind in _REQUIRED_META.items():
            _meta_field(meta, keys, kind, where)
        self.arcs = check_arcs(arrays.get("arcs"), where)
        #: The first Rust generator made on these arcs: it keeps the graph as the core reads it
        #: (made from the arcs in 20-70 ms) alive for every later generator of this lexicon.
        self.core_generator = None
        roots = meta["graph"]["roots"]
        root_where = said("{where} (graph root)", where=where)
        self._roots = {name: _meta_field(roots, (name,), int, root_where) for name in ROOT_NAMES}
        if any(not 0 <= r < self.arcs.shape[0] for r in self._roots.values()):
            raise LexiconError(said("{where}: a root lies outside the graph", where=where))
        self.word_count = int(meta["word_count"])
        self.popular_count = int(meta["popular"]["word_count"])
        self.max_length = int(meta["max_length"])
        self.letters = str(meta["letters"])
        if not 0 <= self.popular_count <= self.word_count <= MAX_WORD_COUNT:
            raise LexiconError(said("{where}: word counts {words} (popular {popular}) out of range", where=where,
                                    words=self.word_count, popular=self.popular_count))
        if not 0 <= int(meta["min_length"]) <= self.max_length <= MAX_WORD_LENGTH:
            raise LexiconError(said("{where}: word lengths {least}..{most} out of range", where=where,
                                    least=meta["min_length"], most=self.max_length))
        if self.letters != alphabet.LETTERS:
            raise LexiconError(said("{source}: lexicon built for another alphabet; rebuild it", source=path))

    @classmethod
    def open(cls, path: Path | None = None, verify: bool = True) -> Lexicon:
        """Open ``path`` or the lexicon :func:`resolve_lexicon_path` finds."""
        resolved = resolve_lexicon_path(path)
        meta, arrays = lexfile.read_container(resolved, verify=verify)
        return cls(resolved, meta, arrays)

    @cached_property
    def words(self) -> WordSet:
        """Every allowed word."""
        return WordSet(self.arcs, self._roots["all"], self.word_count, self.max_length)

    @cached_property
    def popular(self) -> WordSet:
        """The popular subset (the computer players' vocabulary)."""
        return WordSet(self.arcs, self._roots["popular"], self.popular_count, self.max_length)

    def gaddag_root(self, popular: bool = False) -> int:
        """Root of the GADDAG of every word (or of the popular words), for move generation."""
        return self._roots["popular_gaddag" if popular else "gaddag"]

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def __repr__(self) -> str:
        return f"Lexicon({str(self.path)!r}, {self.word_count} words)"
