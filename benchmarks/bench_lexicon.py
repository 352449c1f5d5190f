"""Lexicon benchmarks on the real SJP dump: build time and peak memory, file size, load time,
`check-word WORD` as a whole process, and a million words streamed through `check-word -`.

    python benchmarks/bench_lexicon.py [--runs N]

Targets (issue 2): build <= 90 s and <= 3 GB RSS, file <= 40 MB with the GADDAG (12 MB without), load <= 50 ms,
`check-word ŻÓŁW` <= 0.3 s, 1,000,000 words through `check-word -` <= 5 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine, median_p90, require_sjp, run_process  # noqa: E402

from literaki_cli.engine.lexicon import Lexicon  # noqa: E402

LITERAKI = [sys.executable, "-m", "literaki_cli"]


def million_words(lexicon: Lexicon, path: Path, n: int = 1_000_000, seed: int = 2026) -> int:
    """n words: 80 % drawn from the lexicon, 20 % the same with one letter changed (mostly invalid)."""
    rng = random.Random(seed)
    words = lexicon.words.text().splitlines()
    letters = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"
    out = []
    for _ in range(n):
        w = rng.choice(words)
        if rng.random() < 0.2:
            i = rng.randrange(len(w))
            w = w[:i] + rng.choice(letters) + w[i + 1 :]
        out.append(w.upper() if rng.random() < 0.1 else w)
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (median reported)")
    args = parser.parse_args()
    sjp = require_sjp()
    print(f"machine: {machine()}")
    print(f"source:  {sjp} ({sjp.stat().st_size / 1e6:.1f} MB)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sjp.lexicon"
        builds = [
            run_process(LITERAKI + ["build-lexicon", str(sjp), "-o", str(out), "--json"])
            for _ in range(max(3, args.runs // 2))
        ]
        if any(code for _, _, code in builds):
            sys.exit("build failed")
        build_s, _ = median_p90([w for w, _, _ in builds])
        build_rss = max(r for _, r, _ in builds)
        size = out.stat().st_size

        loads = []
        for _ in range(max(20, args.runs)):
            t = time.perf_counter()
            lex = Lexicon.open(out)
            loads.append(time.perf_counter() - t)
        load_s, load_p90 = median_p90(loads)

        run_process(LITERAKI + ["check-word", "--lexicon", str(out), "ŻÓŁW"])  # warm the numba cache, page cache
        singles = [run_process(LITERAKI + ["check-word", "--lexicon", str(out), "ŻÓŁW"]) for _ in range(args.runs * 2)]
        single_s, single_p90 = median_p90([w for w, _, _ in singles])
        single_rss = max(r for _, r, _ in singles)

        words_file = Path(tmp) / "words.txt"
        n = million_words(lex, words_file)
        run_process(LITERAKI + ["check-word", "--lexicon", str(out), "-"], words_file)
        streams = [
            run_process(LITERAKI + ["check-word", "--lexicon", str(out), "-"], words_file) for _ in range(args.runs)
        ]
        stream_s, stream_p90 = median_p90([w for w, _, _ in streams])
        stream_rss = max(r for _, r, _ in streams)

    print()
    print(f"{'measurement':<44}{'median':>12}{'p90':>12}{'target':>12}")
    rows = [
        ("build-lexicon (whole process)", f"{build_s:.1f} s", "", "90 s"),
        ("build-lexicon peak RSS", f"{build_rss:.0f} MB", "", "3000 MB"),
        ("lexicon file size (DAWG + GADDAG)", f"{size / 1e6:.2f} MB", "", "40 MB"),
        ("load (Lexicon.open, verified)", f"{load_s * 1e3:.2f} ms", f"{load_p90 * 1e3:.2f} ms", "50 ms"),
        ("check-word ŻÓŁW (whole process)", f"{single_s:.3f} s", f"{single_p90:.3f} s", "0.3 s"),
        ("check-word ŻÓŁW peak RSS", f"{single_rss:.0f} MB", "", ""),
        (f"check-word - ({n:,} words)", f"{stream_s:.2f} s", f"{stream_p90:.2f} s", "5 s"),
        ("check-word - peak RSS", f"{stream_rss:.0f} MB", "", ""),
    ]
    for name, med, p90, target in rows:
        print(f"{name:<44}{med:>12}{p90:>12}{target:>12}")


if __name__ == "__main__":
    main()
