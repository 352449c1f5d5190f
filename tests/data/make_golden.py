"""Golden answers: what today's code answers on a generated lexicon, kept so that a change of answer
fails tests/test_golden_answers.py (issue 26, "The answers must not change").

    python tests/data/make_golden.py            # rewrites tests/data/golden/

Run it only when an answer is *meant* to change (a rule fixed, a new leave file or win model
shipped, a deliberate change of the tie-break between equal moves, a new field in the JSON), and
say in the commit why the answers changed: the diff of the golden files is the record of what
changed.  Never run it to make the test pass after an optimisation (the best-move search,
``solve --sim``, self-play, ``solve --batch``): an optimisation must give the same answers, bit
for bit, timing fields aside.

Nothing here comes from the SJP dump (it may not be committed): the lexicon is built from a word
list made here, deterministically, in about two seconds: every 2-letter string, the 3-letter
strings of common letters (the ``flowing_lexicon`` of tests/conftest.py), and
:data:`EXTRA_WORDS` seeded random strings of 4-8 letters drawn with the tile frequencies, so that
long moves and bingos happen.  Its popular subset is empty (``--popular-zipf 10``, rule ``word``):
it would depend on the installed ``wordfreq`` data, and the levels file in golden/ gives every
level the whole lexicon (the built-in levels.toml with only ``vocabulary = "all"`` changed).

What is recorded (golden/), with the shipped leave values and win model:

* ``positions.jsonl``: the ``solve --batch`` input: the 33 positions of examples/positions/ and
  positions from seeded greedy self-play on the generated lexicon (benchmarks/make_positions.py
  ``greedy_turns``), some with their rack changed to hold 1 or 2 blanks or a 7-letter word, some
  with the opponent's rack given; each twice, ``"by": "equity"`` and ``"by": "score"``;
* ``batch.jsonl.gz``: ``literaki solve --batch positions.jsonl -n 20`` line by line, without
  ``generation_ms`` (the top 20 moves and the exchanges of every position, both rankings);
* ``best.jsonl``: ``MoveGenerator.best`` (the bounded best-move search) for every position's
  rack with the shipped leave values at the position's bag;
* ``sim.json``: ``solve --sim --json`` on a few mid-game positions (fixed seeds, one worker),
  without ``seconds``;
* ``literki_sim.json``: ``solve --sim --json`` on three turns of a seeded greedy Literki game, 4
  plies (its forced-exchange squares fire inside the rollouts); made with the Python rollout of
  commit 07a133c before the compiled one replaced it (``--literki-only`` makes this file alone);
* ``simulate/{turns,games,players}.csv``: ``literaki simulate`` of mistrz, trudny and normalny
  (:data:`SIMULATE_GAMES` games, one seed), sorted by game and turn, every float as ``repr``;
* ``endgames.json`` (issue 27, ``--endgames-only`` makes this file alone): ``EndgameSolver.solve``
  (a fresh table, the 5 best first moves, the principal variation) on the example endgame and on a
  seeded battery of :data:`ENDGAME_COUNT` endgames of 3-7 tiles a side from greedy self-play on the
  generated lexicon that the code of commit 1489bc5 solved exactly within
  :data:`ENDGAME_SECONDS` s; the values, best moves and lines, without nodes or times (those
  change with the search, the answers must not; the depth at which an answer became exact is
  recorded but not compared, for the same reason);
* ``levels.toml``: the levels of that run; ``manifest.json``: the digests of the word list and of
  the lexicon's graph, the commands, and the counts.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import importlib.util
import io
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

GOLDEN = ROOT / "tests" / "data" / "golden"
EXAMPLES = ROOT / "examples" / "positions"

WORD_SEED = 26
EXTRA_WORDS = 100_000
COMMON = "aeiouyznrstwkcdlpm"

SELF_PLAY_SEED = 2026
SELF_PLAY_GAMES = 10
SELF_PLAY_POSITIONS = 200  # turns taken evenly from every turn of the games
# Position number n keeps the rack of its game, except: n % 20 == 5 a shuffled 7-letter word of the
# list (when the unseen tiles allow one), else n % 6 == 1 a rack redrawn with 1 blank, n % 6 == 3
# with 2 blanks (when the unseen tiles still hold them); odd n also state the opponent's rack.
TOP = 20

#: solve --sim runs: (position id, seed): mid-game positions (an example with a blank; self-play with two
#: blanks and the opponent's rack given, with neither, with the rack given), and a late one (bag 7)
#: whose best exchange is among the 10 candidates
SIMS = [("ex-14-middle-33tiles-1blank", 1), ("sp-027", 2), ("sp-046", 3), ("sp-087", 4), ("sp-175", 5)]
SIM_OPTIONS = ["--iterations", "20", "--candidates", "10", "--plies", "2", "--workers", "1"]

#: solve --sim on Literki (its forced-exchange squares swap racks inside the rollouts): turns of one
#: seeded greedy Literki game, each with a seed; more plies, so that more rollouts reach the squares
LITERKI_TURNS = [(4, 1), (9, 2), (14, 3)]
LITERKI_SIM_OPTIONS = ["--iterations", "16", "--candidates", "6", "--plies", "4", "--workers", "1"]

SIMULATE_PLAYERS = "mistrz,trudny,normalny"
SIMULATE_GAMES = 200
SIMULATE_SEED = 26
SIMULATE_WORKERS = 2
SIMULATE_TABLES = ("turns", "games", "players")
SIMULATE_ORDER = {"turns": ["gameID", "turn"], "games": ["gameID"], "players": ["gameID", "seat"]}

#: The endgame battery: endgames of 3-7 tiles a side (the larger rack of game g holds at most
#: 3 + g % 5 tiles) from greedy self-play seeded ENDGAME_SEED + g, those solved within ENDGAME_SECONDS
ENDGAME_SEED = 27_000
ENDGAME_COUNT = 40
ENDGAME_SECONDS = 60.0
ENDGAME_EXAMPLE = ROOT / "examples" / "endgame.cgp"

#: fields that are times, dropped before any comparison (wherever they are in an answer)
TIMING_FIELDS = frozenset({"generation_ms", "seconds"})


# --------------------------------------------------------------------------- the lexicon


def word_list() -> list[str]:
    """The generated word list, sorted: the same on every machine (a seeded ``random.Random`` and
    ``choice`` over a fixed list; manifest.json holds its SHA-256, which the test checks first)."""
    from literaki_cli.engine import alphabet
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.bag import full_bag

    words = {a + b for a in alphabet.POLISH_LETTERS for b in alphabet.POLISH_LETTERS}
    words |= {"".join(t) for t in itertools.product(COMMON, repeat=3)}
    letters = sorted(t for t in full_bag(load_variant()) if t != "?")  # tile frequencies
    lengths = [4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8]
    rng = random.Random(WORD_SEED)
    target = len(words) + EXTRA_WORDS
    while len(words) < target:
        words.add("".join(rng.choice(letters) for _ in range(rng.choice(lengths))))
    return sorted(words)


def word_list_text() -> str:
    return "\n".join(word_list()) + "\n"


def build(folder: Path) -> Path:
    """Writes ``folder/words.txt`` and builds ``folder/golden.lexicon`` from it; returns its path."""
    from lexicon_build.build import build_lexicon
    from literaki_cli.engine.variant import load_variant

    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "words.txt"
    source.write_text(word_list_text(), encoding="utf-8")
    out = folder / "golden.lexicon"
    build_lexicon(source, out, load_variant(), popular_rule="word", popular_zipf=10)
    return out


def lexicon_digest(path: Path) -> dict[str, Any]:
    """What identifies a built lexicon, without its build time: the SHA-256 of its arcs, its
    metadata (less ``built_at``), the word counts."""
    from literaki_cli.engine.lexfile import read_container

    meta, arrays = read_container(path)
    meta = {k: v for k, v in meta.items() if k != "built_at"}
    popular = meta.get("popular", {})
    return {
        "arcs_sha256": hashlib.sha256(arrays["arcs"].tobytes()).hexdigest(),
        "meta_sha256": hashlib.sha256(_canonical_meta(meta).encode()).hexdigest(),
        "word_count": meta["word_count"],
        "popular_word_count": popular.get("word_count"),
        "length_counts": meta["length_counts"],
    }


def lexicon_parts(path: Path) -> tuple[dict, bytes]:
    """A built lexicon's metadata less its build time, and its arcs as bytes: what two builds of
    the same word list must share (the file differs only by ``built_at``)."""
    from literaki_cli.engine.lexfile import read_container

    meta, arrays = read_container(path)
    return {k: v for k, v in meta.items() if k != "built_at"}, arrays["arcs"].tobytes()


def _canonical_meta(meta: dict) -> str:
    # The frequency list's version names the installed wordfreq, which chose no word (zipf 10).
    meta = json.loads(json.dumps(meta))
    meta.get("popular", {}).pop("frequency_list", None)
    meta.pop("tool_version", None)
    return json.dumps(meta, sort_keys=True, ensure_ascii=False)


# --------------------------------------------------------------------------- the positions


def _make_positions_module():
    spec = importlib.util.spec_from_file_location("make_positions", ROOT / "benchmarks" / "make_positions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_positions() -> list[dict]:
    """The 33 positions of examples/positions/, as they are (their words need not be words of the
    generated lexicon: what the generator answers on them is recorded)."""
    return [{"id": f"ex-{p.stem}", "position": p.read_text(encoding="utf-8").strip()}
            for p in sorted(EXAMPLES.glob("*.cgp"))]  # fmt: skip


def _fits(rack: str, pool: Counter) -> bool:
    return not (Counter(rack) - pool)


def self_play_positions(lexicon_path: Path) -> list[dict]:
    """Positions of seeded greedy games on the generated lexicon (CGP lines, with ids)."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import MoveGenerator
    from literaki_cli.engine.position import Position, validate
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.bag import unseen_tiles
    from literaki_cli.io.positionio import write_position

    variant = load_variant()
    generator = MoveGenerator(Lexicon.open(lexicon_path), variant)
    greedy_turns = _make_positions_module().greedy_turns
    rng = random.Random(SELF_PLAY_SEED)
    turns = []
    for game in range(SELF_PLAY_GAMES):
        for turn, (board, racks, scores, mover, idle) in enumerate(greedy_turns(generator, variant, rng)):
            turns.append((game, turn, board.copy(), racks[mover], racks[1 - mover], list(scores), mover, idle))
    chosen = [turns[i * len(turns) // SELF_PLAY_POSITIONS] for i in range(SELF_PLAY_POSITIONS)]
    seven = [w for w in word_list() if len(w) == 7]
    out = []
    for number, (game, turn, board, rack, other, scores, mover, idle) in enumerate(chosen):
        opponent = other if number % 2 else ""  # every other position states the opponent's rack
        pool = Counter(unseen_tiles(variant, board)) - Counter(opponent)
        kind = "word" if number % 20 == 5 else {1: "blank1", 3: "blank2"}.get(number % 6, "natural")
        if kind.startswith("blank"):
            blanks = int(kind[-1])
            letters = sorted(t for t in pool.elements() if t != "?")
            if pool["?"] >= blanks and len(letters) >= 7 - blanks:
                rack = "".join(rng.sample(letters, 7 - blanks)) + "?" * blanks
            else:
                kind = "natural"
        elif kind == "word":
            fitting = [w for w in seven if _fits(w, pool)]
            if fitting:
                rack = "".join(rng.sample(rng.choice(fitting), 7))
            else:
                kind = "natural"
        if not rack:
            continue
        position = Position(variant, board, [rack, opponent], [scores[mover], scores[1 - mover]], idle,
                            {"gid": f"golden-g{game}-t{turn}"})  # fmt: skip
        validate(position)
        out.append({"id": f"sp-{number:03d}", "position": write_position(position, "cgp").strip(), "kind": kind})
    return out


def literki_positions(lexicon_path: Path) -> list[dict]:
    """The Literki positions of ``LITERKI_TURNS``: a seeded greedy game's turns, the mover's rack."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import MoveGenerator
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.io.positionio import write_position

    variant = load_variant("literki")
    generator = MoveGenerator(Lexicon.open(lexicon_path), variant)
    seeds = dict(LITERKI_TURNS)
    out = []  # each turn written as it comes: the game goes on in the same board and racks
    for turn, (board, racks, scores, mover, idle) in enumerate(
        _make_positions_module().greedy_turns(generator, variant, random.Random(SELF_PLAY_SEED))
    ):
        if turn in seeds:
            position = Position(variant, board.copy(), [racks[mover], ""], [scores[mover], scores[1 - mover]], idle,
                                {"gid": f"golden-literki-t{turn}"})  # fmt: skip
            cgp = write_position(position, "cgp").strip()
            out.append({"id": f"literki-t{turn}", "seed": seeds[turn], "position": cgp})
    return out


def run_literki_sims(lexicon: Path) -> list[dict]:
    """``solve --sim --json`` of every Literki position (timing fields dropped)."""
    return [{**p, "answer": run_sim(lexicon, p["position"], p["seed"], LITERKI_SIM_OPTIONS)}
            for p in literki_positions(lexicon)]  # fmt: skip


def batch_lines(positions: list[dict]) -> list[dict]:
    """The ``solve --batch`` input: every position ranked by equity, then by score."""
    return [{"id": f"{p['id']}/{by}", "position": p["position"], "by": by}
            for p in positions for by in ("equity", "score")]  # fmt: skip


def all_positions(lexicon_path: Path) -> list[dict]:
    """Every position: ``id``, ``position`` (a CGP line) and ``kind`` (example, natural, blank1,
    blank2, word)."""
    return [{**p, "kind": "example"} for p in example_positions()] + self_play_positions(lexicon_path)


# --------------------------------------------------------------------------- running literaki


def cli_env() -> dict[str, str]:
    """This environment without the variables that choose other data files."""
    return {k: v for k, v in os.environ.items() if not k.startswith("LITERAKI_")}


def literaki(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "literaki_cli", *args], capture_output=True, text=True,
                          encoding="utf-8", env=cli_env(), cwd=ROOT, timeout=timeout)  # fmt: skip


def without_timing(value: Any) -> Any:
    """``value`` with every timing field dropped, at any depth."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


def run_batch(lexicon: Path, input_file: Path) -> tuple[int, list[dict]]:
    done = literaki("solve", "--batch", str(input_file), "--lexicon", str(lexicon), "-n", str(TOP))
    if done.returncode not in (0, 4):
        raise RuntimeError(f"solve --batch exit {done.returncode}: {done.stderr.strip()}")
    return done.returncode, [without_timing(json.loads(line)) for line in done.stdout.splitlines()]


def run_sim(lexicon: Path, cgp: str, seed: int, options: list[str] = SIM_OPTIONS) -> dict:
    done = literaki("solve", cgp, "--sim", "--json", "--seed", str(seed), *options, "--lexicon", str(lexicon))
    if done.returncode != 0:
        raise RuntimeError(f"solve --sim exit {done.returncode}: {done.stderr.strip()}")
    return without_timing(json.loads(done.stdout))


def simulate_args(lexicon: Path, levels: Path, out: Path) -> list[str]:
    return ["simulate", "--games", str(SIMULATE_GAMES), "--players", SIMULATE_PLAYERS, "--seed", str(SIMULATE_SEED),
            "--workers", str(SIMULATE_WORKERS), "--levels", str(levels), "--lexicon", str(lexicon),
            "--out", str(out)]  # fmt: skip


def cell(value: Any) -> str:
    """A table value as text that reads back exactly: floats by ``repr`` (shortest round trip)."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return json.dumps([v for v in value], ensure_ascii=False)
    return str(value)


def table_rows(path: Path, name: str) -> list[list[str]]:
    """A simulate table (parquet) as canonical text rows: header first, rows sorted by game and
    turn, timing columns dropped."""
    import polars as pl

    frame = pl.read_parquet(path)
    frame = frame.drop([c for c in frame.columns if c in TIMING_FIELDS])
    frame = frame.sort(SIMULATE_ORDER[name])
    return [frame.columns] + [[cell(v) for v in row] for row in frame.iter_rows()]


def run_simulate(lexicon: Path, levels: Path, out: Path) -> dict[str, list[list[str]]]:
    done = literaki(*simulate_args(lexicon, levels, out))
    if done.returncode != 0:
        raise RuntimeError(f"simulate exit {done.returncode}: {done.stderr.strip()}")
    return {name: table_rows(out / f"{name}.parquet", name) for name in SIMULATE_TABLES}


def levels_text() -> str:
    """The built-in levels with every vocabulary the whole lexicon (the generated one has no
    popular subset); nothing else changed."""
    text = (ROOT / "literaki_cli" / "games" / "levels.toml").read_text(encoding="utf-8")
    header = '# tests/data/make_golden.py: literaki_cli/games/levels.toml with vocabulary = "all" for every level.\n'
    return header + text.replace('vocabulary = "popular"', 'vocabulary = "all"')


# --------------------------------------------------------------------------- the best-move search


def best_moves(lexicon_path: Path, positions: list[dict]) -> list[dict]:
    """``MoveGenerator.best`` for each position's rack (shipped leave values at the bag the mover
    sees, as ``solve`` values them): the move (coordinate, word, score, leave, tiles laid) and its
    equity, or null when there is none."""
    from literaki_cli.analysis.positionquery import tiles_in_bag
    from literaki_cli.analysis.solve import found_move
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import SCORE, MoveGenerator
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import SHIPPED, open_leaves
    from literaki_cli.io.positionio import read_cgp

    variant = load_variant()
    generator = MoveGenerator(Lexicon.open(lexicon_path), variant)
    equity = Equity(open_leaves(SHIPPED), variant)  # not $LITERAKI_LEAVES: the CLI runs ignore it too
    out = []
    for p in positions:
        position = read_cgp(p["position"], None, p["id"])
        rack = position.rack
        bag = tiles_in_bag(position, rack)
        leaves = equity.for_rack(rack, bag)
        record = generator.best(position.board, rack, leaves)
        answer: dict[str, Any] = {"id": p["id"], "rack": rack, "bag": bag, "move": None}
        if record is not None:
            move = found_move(record, 1, position.board, variant, rack)
            equity_of = float(record[SCORE] + leaves.of_moves(record[None])[0])
            answer["move"] = {"coord": move.coord, "word": move.word, "score": int(record[SCORE]), "leave": move.leave,
                              "tiles": len(move.tiles), "equity": equity_of}  # fmt: skip
        out.append(answer)
    return out


# --------------------------------------------------------------------------- reading and writing goldens


def write_jsonl(path: Path, rows: list[dict]) -> None:
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
    if path.suffix == ".gz":
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as f:
            f.write(text)
        text = buffer.getvalue()
    path.write_bytes(text)


def read_jsonl(path: Path) -> list[dict]:
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def write_rows(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def read_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def write_literki_sims(lexicon: Path) -> None:
    sims = run_literki_sims(lexicon)
    text = json.dumps(sims, ensure_ascii=False, indent=1) + "\n"
    (GOLDEN / "literki_sim.json").write_text(text, encoding="utf-8")


def endgame_positions(lexicon_path: Path) -> Iterator[dict]:
    """Candidate endgames, without end: per seeded greedy game, the first turn with the bag empty,
    both racks of at least 3 tiles and the larger of at most 3 + game % 5 (CGP lines, with ids)."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import MoveGenerator
    from literaki_cli.engine.position import Position, validate
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.bag import full_bag
    from literaki_cli.io.positionio import write_position

    variant = load_variant()
    generator = MoveGenerator(Lexicon.open(lexicon_path), variant)
    greedy_turns = _make_positions_module().greedy_turns
    total = len(full_bag(variant))
    game = 0
    while True:
        most = 3 + game % 5
        for board, racks, scores, mover, idle in greedy_turns(generator, variant, random.Random(ENDGAME_SEED + game)):
            on_board = int((board.letters != 0).sum())
            if on_board + len(racks[0]) + len(racks[1]) != total:
                continue
            sizes = sorted((len(racks[0]), len(racks[1])))
            if sizes[0] >= 3 and sizes[1] <= most:
                gid = {"gid": f"golden-endgame-{game}"}
                position = Position(variant, board.copy(), [racks[mover], racks[1 - mover]],
                                    [scores[mover], scores[1 - mover]], idle, gid)  # fmt: skip
                validate(position)
                yield {"id": f"eg-{game:03d}", "position": write_position(position, "cgp").strip(),
                       "tiles": [len(racks[mover]), len(racks[1 - mover])]}  # fmt: skip
                break
            if sizes[1] < most:
                break
        game += 1


def solve_endgame(lexicon_path: Path, cgp: str, seconds: float | None) -> dict:
    """``EndgameSolver.solve`` on a CGP line with a fresh table: the answer without nodes and times."""
    from literaki_cli.endgame.solver import EndgameSolver
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.io.positionio import read_position

    position = read_position(cgp, "golden")
    solver = EndgameSolver(Lexicon.open(lexicon_path), position.variant)
    result = solver.solve(position.board, (position.racks[0], position.racks[1]), position.zero_turns, seconds=seconds)
    answer = result.as_dict()["endgame"]
    del answer["nodes"], answer["seconds"]
    return answer


def endgame_battery(lexicon: Path) -> list[dict]:
    """The example endgame and the first ENDGAME_COUNT candidates solved exactly in ENDGAME_SECONDS."""
    import time

    example = ENDGAME_EXAMPLE.read_text(encoding="utf-8").strip()
    battery = [{"id": "example-endgame", "position": example, "answer": solve_endgame(lexicon, example, None)}]
    solved = 0
    for candidate in endgame_positions(lexicon):
        started = time.perf_counter()
        answer = solve_endgame(lexicon, candidate["position"], ENDGAME_SECONDS)
        took = time.perf_counter() - started
        print(f"{candidate['id']} {candidate['tiles']}: exact {answer['exact']} in {took:.1f} s", flush=True)
        if answer["exact"]:
            battery.append({**candidate, "old_seconds": round(took, 2), "answer": answer})
            solved += 1
            if solved == ENDGAME_COUNT:
                break
    return battery


def write_endgames(lexicon: Path) -> None:
    battery = endgame_battery(lexicon)
    text = json.dumps(battery, ensure_ascii=False, indent=1) + "\n"
    (GOLDEN / "endgames.json").write_text(text, encoding="utf-8")


def main() -> None:
    import time

    if sys.argv[1:] == ["--endgames-only"]:  # the endgame battery alone (added by issue 27)
        with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
            write_endgames(build(Path(tmp) / "lex"))
        return
    if sys.argv[1:] == ["--literki-only"]:  # the Literki runs alone (added after the others were made)
        with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
            write_literki_sims(build(Path(tmp) / "lex"))
        return

    started = time.perf_counter()
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / "simulate").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
        tmp = Path(tmp)
        lexicon = build(tmp / "lex")
        digest = lexicon_digest(lexicon)
        again = build(tmp / "again")
        if lexicon_parts(again) != lexicon_parts(lexicon):
            raise SystemExit("the same word list built twice gave two different lexicons")
        print(f"lexicon: {digest['word_count']} words, {time.perf_counter() - started:.1f} s")

        positions = all_positions(lexicon)
        lines = batch_lines(positions)
        write_jsonl(GOLDEN / "positions.jsonl", lines)
        code, answers = run_batch(lexicon, GOLDEN / "positions.jsonl")
        write_jsonl(GOLDEN / "batch.jsonl.gz", answers)
        print(f"solve --batch: {len(answers)} answers (exit {code}), {time.perf_counter() - started:.1f} s")

        best = best_moves(lexicon, positions)
        write_jsonl(GOLDEN / "best.jsonl", best)

        by_id = {p["id"]: p["position"] for p in positions}
        sims = [{"id": pid, "seed": seed, "answer": run_sim(lexicon, by_id[pid], seed)} for pid, seed in SIMS]
        (GOLDEN / "sim.json").write_text(json.dumps(sims, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"solve --sim: {len(sims)} runs, {time.perf_counter() - started:.1f} s")
        write_literki_sims(lexicon)
        write_endgames(lexicon)

        levels = GOLDEN / "levels.toml"
        levels.write_text(levels_text(), encoding="utf-8")
        sim_started = time.perf_counter()
        tables = run_simulate(lexicon, levels, tmp / "simulate")
        for name, rows in tables.items():
            write_rows(GOLDEN / "simulate" / f"{name}.csv", rows)
        print(f"simulate: {SIMULATE_GAMES} games in {time.perf_counter() - sim_started:.1f} s")

    kinds = Counter(p["kind"] for p in positions)
    manifest = {
        "about": "Golden answers of tests/test_golden_answers.py, by tests/data/make_golden.py (see its docstring).",
        "word_list_sha256": hashlib.sha256(word_list_text().encode("utf-8")).hexdigest(),
        "lexicon": digest,
        "positions": len(positions),
        "position_kinds": dict(sorted(kinds.items())),
        "batch_exit_code": code,
        "batch_command": ["solve", "--batch", "positions.jsonl", "--lexicon", "LEXICON", "-n", str(TOP)],
        "sim_command": ["solve", "POSITION", "--sim", "--json", "--seed", "SEED", *SIM_OPTIONS, "--lexicon", "LEXICON"],
        "simulate_command": simulate_args(Path("LEXICON"), Path("levels.toml"), Path("OUT")),
        "simulate_games": SIMULATE_GAMES,
        "timing_fields_dropped": sorted(TIMING_FIELDS),
    }
    (GOLDEN / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN} in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
