"""Word study on the full SJP lexicon: the time of each kind of search (in process, after
warm-up, median of several runs; the words made into Python strings, and the walk of the
graph alone for the slowest query of each kind), and of lexicon-diff between two full lexicons.

    python benchmarks/bench_words.py [--lexicon FILE] [--old FILE] [--runs N]

Targets (issue 18): a pattern with a fixed first letter, an anagram, a subanagram of 7 tiles
with a blank, hooks: each at most 50 ms; a pattern starting with '*' at most 1 s; lexicon-diff
of two full lexicons at most 10 s.

Without --old, an "older" lexicon is made from the current one: 1% of its words dropped
(seeded) and 2,000 made-up words added, so the diff has a known size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import LITERAKI, ensure_lexicon  # noqa: E402
from common import SJP_ZIP, machine, run_process  # noqa: E402

from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.engine.variant import load_variant  # noqa: E402
from literaki_cli.engine.wordrules import WordRules  # noqa: E402
from literaki_cli.wordstudy.probability import TileBag  # noqa: E402
from literaki_cli.wordstudy.search import WordFacts, WordQuery, hooks_of, order_words  # noqa: E402
from literaki_cli.wordstudy.versions import diff_versions, open_versions  # noqa: E402

KINDS = {
    "pattern, fixed first letter": [WordQuery(pattern=p) for p in ("K?T*", "PRZE*ŚĆ", "Ż??W*", "A?A", "S*")],
    "pattern starting with *": [WordQuery(pattern=p) for p in ("*RZ*", "*ŚĆ", "*Ą?", "*K*T*Y")],
    "regex": [WordQuery(regex=r) for r in ("^k.t", "rz.*ść$", "^(prze|przy)", "ó[^w]")],
    "anagram, 7 tiles": [WordQuery(anagram=t) for t in ("KOTEŁAS", "AEIORST", "ŻÓŁWIAK", "ZAKRĘTY")],
    "anagram, 7 tiles with a blank": [WordQuery(anagram=t) for t in ("KOTEŁA?", "AEIORS?", "ŻÓŁWIA?", "RZEKAM?")],
    "subanagram, 7 tiles with a blank": [WordQuery(subanagram=t) for t in ("KOTEŁA?", "AEIORS?", "ŻÓŁWIA?", "RZEKAM?")],
    "subanagram, 7 tiles with two blanks": [WordQuery(subanagram=t) for t in ("KOTEŁ??", "AEIOR??")],
    "contains + length": [WordQuery(contains="rz", length=7), WordQuery(starts="nie", ends="ść", max_length=9)],
}


def median_ms(fn, runs: int) -> float:
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def older_lexicon(lexicon: Lexicon, folder: Path) -> Path:
    """The current words less 1% plus 2,000 made-up ones, built into a lexicon (about a minute)."""
    rng = random.Random(18)
    words = [w for w in lexicon.words if rng.random() >= 0.01]
    words += ["".join(rng.choice("aąbcćdeęfghijklłmnńoóprsśtuwyzźż") for _ in range(12)) for _ in range(2000)]
    source = folder / "older.txt"
    source.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = folder / "older.lexicon"
    print("building an older lexicon (1% fewer words, 2,000 made up) ...", flush=True)
    subprocess.run(LITERAKI + ["build-lexicon", str(source), "-o", str(out), "--json"], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--old", type=Path, default=None, help="An older lexicon for the diff (else made).")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = ensure_lexicon(args.lexicon, Path(tmp))
        lexicon = Lexicon.open(path)
        words = lexicon.words
        letters = lexicon.meta["alphabet"]
        print(f"lexicon: {path} ({lexicon.word_count:,} words); median of {args.runs} runs after warm-up\n")
        print(f"{'search':<36} {'median ms':>10} {'slowest':>9} {'its walk':>9}  words found")
        for kind, queries in KINDS.items():
            per_query = []
            for query in queries:
                compiled = query.compile(words.max_length)
                as_strings = median_ms(lambda c=compiled: c.words(words, None, letters), args.runs)
                walk_only = median_ms(lambda c=compiled: c.buffer(words), args.runs)
                per_query.append((as_strings, walk_only, len(compiled.words(words))))
            med = statistics.median(t for t, _, _ in per_query)
            slowest = max(per_query)
            print(f"{kind:<36} {med:>10.2f} {slowest[0]:>9.2f} {slowest[1]:>9.2f}  {[n for _, _, n in per_query]}")
        compiled = WordQuery(pattern="*RZ*").compile()
        print(f"{'count only, *RZ*':<36} {median_ms(lambda: compiled.count(words), args.runs):>10.2f}")
        probe = ["kot", "żółw", "rzeka", "ab", "zając", "przedszkole", "nie", "ósmy"]
        per_word = median_ms(lambda: [hooks_of(words, [w]) for w in probe], args.runs) / len(probe)
        print(f"{'hooks, one word':<36} {per_word:>10.3f}")
        print(f"{'hooks, 1,000 words at once':<36} "
              f"{median_ms(lambda: hooks_of(words, probe * 125), args.runs):>10.2f}")  # fmt: skip

        bag = TileBag.of(load_variant())
        start = time.perf_counter()
        WordFacts(words, bag).rank_table.ranks(*_all_lengths())
        print(f"\nprobability table, every length (first --json or probability order of a run): "
              f"{time.perf_counter() - start:.2f} s")  # fmt: skip
        racks = WordQuery(subanagram="ŻÓŁWIA?").compile().words(words)
        print(f"probability table, lengths 2..7 only (a subanagram's): "
              f"{median_ms(lambda: WordFacts(words, bag).records(racks), 3):.1f} ms "
              f"with the {len(racks):,} records")  # fmt: skip
        facts = WordFacts(words, bag)
        facts.records(["kot"])
        found = WordQuery(pattern="K*").compile().words(words)
        facts.rank_table.ranks(*_all_lengths())
        print(f"records (JSON fields) of {len(found):,} words (K*), table built: "
              f"{median_ms(lambda: facts.records(found), 3):.0f} ms; probability order of them: "
              f"{median_ms(lambda: order_words(found, 'probability', facts), 3):.0f} ms")  # fmt: skip

        cli = [sys.executable, "-c", "import sys, literaki_cli.commands.words; from literaki_cli.commands import main;"
               " sys.exit(main(sys.argv[1:]))", "words", "K?T*", "--lexicon", str(path)]  # fmt: skip
        walls = [run_process(cli)[0] for _ in range(3)]
        print(f"whole process 'literaki words K?T*' (start-up, imports, lexicon check): "
              f"{statistics.median(walls):.2f} s\n")  # fmt: skip

        old = args.old or older_lexicon(lexicon, Path(tmp))
        rules = WordRules.of(load_variant())
        times = []
        for _ in range(3):
            start = time.perf_counter()
            diff = diff_versions(*open_versions(old, path, rules))
            times.append(time.perf_counter() - start)
        print(
            f"lexicon-diff of two full lexicons (open, enumerate, merge, decode): median "
            f"{statistics.median(times):.2f} s of 3; {len(diff.added):,} added, {len(diff.removed):,} removed"
        )
        walls = [run_process(LITERAKI + ["lexicon-diff", str(old), str(path), "--count"])[0] for _ in range(3)]
        print(f"whole process 'literaki lexicon-diff OLD NEW --count': {statistics.median(walls):.2f} s")
        if SJP_ZIP.is_file():
            for label, pair in (("the SJP dump and a lexicon", (SJP_ZIP, path)), ("two dumps (the SJP dump twice)",
                                                                                   (SJP_ZIP, SJP_ZIP))):  # fmt: skip
                start = time.perf_counter()
                diff = diff_versions(*open_versions(*pair, rules))
                print(
                    f"lexicon-diff of {label} (each dump read, decoded, filtered, packed): "
                    f"{time.perf_counter() - start:.2f} s; {len(diff.added):,} added, {len(diff.removed):,} removed"
                )


def _all_lengths():
    import numpy as np

    lengths = np.arange(2, 16, dtype=np.int64)
    return np.zeros(lengths.shape[0], dtype=np.int64), lengths


if __name__ == "__main__":
    main()
