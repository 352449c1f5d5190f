"""``build-lexicon``: source -> filtered word set -> word graph -> one lexicon file."""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import numpy as np

from lexicon_build import popular, sources
from lexicon_build.dawg import buffer_lengths, build_word_graph, sorted_code_buffer
from literaki_cli import __version__
from literaki_cli.engine import alphabet, lexfile
from literaki_cli.engine.variant import Variant
from literaki_cli.engine.wordrules import WordRules
from literaki_cli.errors import InputError

T = TypeVar("T")

#: The stages a build reports through its ``on_stage`` callback, in order.
STAGES = ("read", "filter", "popular", "compile", "write")


@dataclass
class BuildReport:
    """What a build did: the figures ``build-lexicon`` prints and stores in the metadata."""

    output: Path
    meta: dict
    kept: int
    dropped: dict[str, int]
    popular_count: int
    arcs: int
    file_size: int
    seconds: float
    stage_seconds: dict[str, float] = field(default_factory=dict)


class NoUsableWords(InputError):
    """The source holds no word the variant's rules allow: nothing worth a lexicon file."""

    def __init__(self, source: sources.Source, dropped: Counter) -> None:
        what = "it is empty" if not dropped else f"{sum(dropped.values()):,} entries dropped"
        where = f"{source.path}:{source.member}" if source.member else str(source.path)
        super().__init__(f"{where}: no usable word ({what}); no lexicon written")
        self.source = source
        self.dropped = dict(dropped)


def check_popular_rule(rule: str) -> str:
    """A popular rule is one of :data:`popular.RULES`."""
    if rule not in popular.RULES:
        raise InputError(
            f"--popular-rule {rule!r}: choose {' or '.join(popular.RULES)} (default {popular.DEFAULT_RULE})"
        )
    return rule


def check_popular_zipf(value: float | None) -> float:
    """A Zipf threshold is a finite number between 0 and 10 (log10 of occurrences per billion words);
    None is the default."""
    if value is None:
        return popular.DEFAULT_ZIPF_THRESHOLD
    if not isinstance(value, int | float) or not math.isfinite(value) or not 0 <= value <= 10:
        default = popular.DEFAULT_ZIPF_THRESHOLD
        raise InputError(f"--popular-zipf {value!r}: give a Zipf frequency between 0 and 10 (default {default:g})")
    return float(value)


def in_background(work: Callable[[], T]) -> Callable[[], T]:
    """Start ``work`` on a daemon thread, so that work which releases the GIL (the Rust core's)
    runs beside the caller's Python; the function returned waits for its result (or raises its
    exception), and Ctrl-C is still heard while it waits."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="literaki-build", daemon=True)
    thread.start()

    def result() -> T:
        while thread.is_alive():
            thread.join(0.05)
        if "error" in outcome:
            raise outcome["error"]  # type: ignore[misc]
        return outcome["value"]  # type: ignore[return-value]

    return result


def filter_entries(entries: list[str], rules: WordRules) -> tuple[set[str], Counter]:
    """The distinct playable words of ``entries`` and, per reason, how many were dropped."""
    kept: set[str] = set()
    dropped: Counter = Counter()
    for entry in entries:
        if rules.is_playable(entry):
            if entry in kept:
                dropped["duplicate"] += 1
            else:
                kept.add(entry)
        else:
            reason = rules.rejection(entry)
            if reason != "empty":  # blank lines are formatting, not dropped words
                dropped[reason] += 1
    return kept, dropped


def build_lexicon(
    source_path: Path,
    output: Path,
    variant: Variant,
    kind: str | None = None,
    popular_zipf: float | None = None,
    on_stage: Callable[[str], None] | None = None,
    allow_empty: bool = False,
    popular_rule: str = popular.DEFAULT_RULE,
) -> BuildReport:
    """Compile ``source_path`` into the lexicon file ``output`` (written atomically).

    The popular subset follows ``popular_rule`` at the Zipf threshold ``popular_zipf`` (None:
    the default).
    Refused before any work: an output that cannot be written, a threshold that is no number,
    an unknown popular rule.
    Refused after reading (:class:`NoUsableWords`), leaving any file at ``output`` as it was:
    a source with no usable word, unless ``allow_empty`` (a test that needs a lexicon of no word)."""
    popular_rule = check_popular_rule(popular_rule)
    popular_zipf = check_popular_zipf(popular_zipf)
    lexfile.check_writable(output)
    timings: dict[str, float] = {}
    started = last = time.perf_counter()

    def stage_done(name: str) -> None:
        nonlocal last
        now = time.perf_counter()
        timings[name] = round(now - last, 3)
        last = now
        if on_stage:
            on_stage(name)

    source = sources.read_source(source_path, kind)
    stage_done("read")
    rules = WordRules.of(variant)
    kept, dropped = filter_entries(source.entries, rules)
    del source.entries
    if not kept and not allow_empty:
        raise NoUsableWords(source, dropped)
    stage_done("filter")
    sorted_words = in_background(lambda: sorted_code_buffer(kept))  # the core sorts while popular runs
    popular_set = popular.popular_words(kept, popular.PopularRule(popular_rule, popular_zipf))
    stage_done("popular")
    code_words = sorted_words()
    popular_codes = sorted_code_buffer(popular_set)
    arcs, roots = build_word_graph(
        {"all": code_words, "popular": popular_codes},
        gaddags={"gaddag": code_words, "popular_gaddag": popular_codes},
    )
    stage_done("compile")
    word_count, popular_count = len(kept), len(popular_set)  # both sets of distinct words
    values, counts = np.unique(buffer_lengths(code_words), return_counts=True)
    lengths = dict(zip(values.tolist(), counts.tolist(), strict=True))
    meta = {
        "format": "literaki-lexicon",
        "letters": alphabet.LETTERS,
        "alphabet": variant.tile_letters,
        "word_count": word_count,
        "min_length": min(lengths) if lengths else 0,
        "max_length": max(lengths) if lengths else 0,
        "length_counts": {str(k): lengths[k] for k in sorted(lengths)},
        "source": {
            "name": source.name,
            "file": source.path.name,
            "member": source.member,
            "sha256": source.sha256,
            "kind": source.kind,
            "kind_label": sources.KIND_LABELS[source.kind],
            "encoding": source.encoding,
            "lines": source.lines,
        },
        "rules": {
            "variant": variant.name,
            "letters": rules.letters,
            "min_length": rules.min_length,
            "max_length": rules.max_length,
        },
        "dropped": dict(sorted(dropped.items())),
        "popular": {
            "word_count": popular_count,
            "zipf_threshold": popular_zipf,
            "rule": popular_rule,
            "frequency_list": popular.frequency_source(popular_rule),
        },
        "graph": {"kind": "dawg+gaddag", "arcs": int(arcs.shape[0]), "roots": roots},
        "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "tool_version": __version__,
    }
    size = lexfile.write_container(output, meta, {"arcs": arcs})
    stage_done("write")
    return BuildReport(
        output=Path(output),
        meta=meta,
        kept=word_count,
        dropped=dict(dropped),
        popular_count=popular_count,
        arcs=int(arcs.shape[0]),
        file_size=size,
        seconds=round(time.perf_counter() - started, 3),
        stage_seconds=timings,
    )
