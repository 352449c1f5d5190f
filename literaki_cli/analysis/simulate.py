"""``simulate``: computer-vs-computer games in parallel worker processes, written as tables.

Every game is seeded by (seed, game number) and the starting player is game number mod the
number of players, so the results are the same whatever the number of workers.  Finished
games are kept when the run is interrupted (and checkpointed to disk as it goes); a run
continues with ``--resume DIR``.
"""

from __future__ import annotations

import json
import multiprocessing
import signal
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from literaki_cli.errors import InputError

TURN_COLUMNS = ["playerID", "gameID", "turn", "rack", "play", "score", "totalscore", "tilesplayed", "leave",
                "equity", "tilesremaining", "oppscore"]  # fmt: skip
TURN_EXTRAS = ["kind", "exchanged", "blanks_played", "colour_points", "bingo", "words", "word_length", "level"]
CHECKPOINT_SECONDS = 30.0


@dataclass
class RunConfig:
    players: list[str]
    games: int
    seed: int
    variant: str = "literaki"
    rules: str | None = None
    levels: str | None = None
    lexicon: str = ""
    gcg: bool = False
    game: str = "literaki"  # "grid5": the 5x5 letter-grid game


@dataclass
class GameOutput:
    game_id: int
    turns: list[dict]
    game: dict
    players: list[dict]
    gcg: str | None = None


# --------------------------------------------------------------------------- one game (in a worker)

_WORKER: dict = {}


def _init_worker(config: RunConfig) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _setup(config)


def _setup(config: RunConfig) -> None:
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.players import load_levels, make_players

    lexicon = Lexicon.open(Path(config.lexicon))
    levels = load_levels(Path(config.levels) if config.levels else None)
    if config.game == "grid5":
        from literaki_cli.games.grid5 import load_grid_rules
        from literaki_cli.games.gridgame import GridComputer

        rules = load_grid_rules(Path(config.rules) if config.rules else None)
        players = []
        for i, spec in enumerate(config.players):
            level = levels[spec]
            nick = spec if config.players.count(spec) == 1 else f"{spec}{config.players[: i + 1].count(spec)}"
            words = lexicon.popular if level.vocabulary == "popular" else lexicon.words
            players.append(GridComputer(nick, level, words, rules))
        _WORKER.update(config=config, rules=rules, lexicon=lexicon, players=players)
        return
    variant = load_variant(config.variant, Path(config.rules) if config.rules else None)
    _WORKER.update(config=config, variant=variant, lexicon=lexicon,
                   players=make_players(config.players, lexicon, variant, levels))  # fmt: skip


def play_one(game_id: int) -> GameOutput:
    from literaki_cli.games.game import Game
    from literaki_cli.io.gcg import game_to_gcg

    config: RunConfig = _WORKER["config"]
    players = _WORKER["players"]
    if config.game == "grid5":
        return play_one_grid(game_id)
    game = Game(_WORKER["variant"], players, seed=config.seed, game_id=game_id, first=game_id % len(players)).play()
    levels = {p.name: p.level.name for p in players}
    turns = [
        {
            "playerID": t.nick, "gameID": game_id, "turn": t.turn, "rack": t.rack.upper(), "play": t.play,
            "score": t.score, "totalscore": t.total, "tilesplayed": t.tiles_played, "leave": t.leave.upper(),
            "equity": t.equity, "tilesremaining": t.tiles_remaining, "oppscore": t.opp_score,
            "kind": t.kind, "exchanged": t.exchanged.upper(), "blanks_played": t.blanks_played,
            "colour_points": t.colour_points, "bingo": t.bingo, "words": " ".join(t.words),
            "word_length": t.main_word_length, "level": levels[t.nick],
        }
        for t in game.turns
    ]  # fmt: skip
    stats = []
    for p in range(len(players)):
        mine = [t for t in game.turns if t.player == p]
        stats.append({
            "score": game.scores[p], "bingos": sum(t.bingo for t in mine), "turns": len(mine),
            "exchanges": sum(t.kind == "exchange" for t in mine), "passes": sum(t.kind == "pass" for t in mine),
            "adjustment": sum(a.points for a in game.adjustments if a.player == p),
        })  # fmt: skip
    row, player_rows = _game_rows(game_id, game, players, stats)
    lexicon_name = _WORKER["lexicon"].meta["source"]["file"].removesuffix(".zip")
    gcg = game_to_gcg(game, lexicon_name) if config.gcg else None
    return GameOutput(game_id, turns, row, player_rows, gcg)


def _game_rows(game_id: int, game, players, stats: list[dict]) -> tuple[dict, list[dict]]:
    """The per-game row (Macondo/wolges columns plus extras) and one row per player."""
    winners = game.winners()
    row: dict = {"gameID": game_id}
    player_rows = []
    for p, player in enumerate(players):
        for key in ("score", "bingos", "turns"):
            row[f"{player.name}_{key}"] = stats[p][key]
        player_rows.append({"gameID": game_id, "player": player.name, "level": player.level.name, "seat": p,
                            "first": p == game.first, "won": p in winners and len(winners) == 1,
                            "draw": len(winners) > 1 and p in winners, **stats[p]})  # fmt: skip
    row["first"] = players[game.first].name
    row["winner"] = players[winners[0]].name if len(winners) == 1 else "draw"
    row["ended_by"] = game.ended_by
    row["turns"] = len(game.turns)
    return row, player_rows


def play_one_grid(game_id: int) -> GameOutput:
    """One game of the grid game, in the same tables (rack/leave empty, reshuffles counted as
    exchanges, the word and its path as the play)."""
    from literaki_cli.engine.coords import square_name
    from literaki_cli.games.gridgame import PASS, RESHUFFLE, WORD, GridGame

    config: RunConfig = _WORKER["config"]
    players = _WORKER["players"]
    game = GridGame(_WORKER["rules"], players, seed=config.seed, game_id=game_id, first=game_id % len(players)).play()
    turns = []
    running = [0] * len(players)
    for t in game.turns:
        running[t.player] = t.total
        others = [s for i, s in enumerate(running) if i != t.player]
        turns.append({
            "playerID": t.nick, "gameID": game_id, "turn": t.turn, "rack": "",
            "play": t.word.upper() + " " + " ".join(square_name(r, c) for r, c in t.path) if t.kind == WORD
            else ("-" if t.kind == PASS else "reshuffle"),
            "score": t.score, "totalscore": t.total, "tilesplayed": len(t.word), "leave": "",
            "equity": float(t.score), "tilesremaining": game.rules.rounds - t.round - 1, "oppscore": max(others),
            "kind": {WORD: "place", PASS: "pass", RESHUFFLE: "exchange"}[t.kind], "exchanged": "",
            "blanks_played": 0, "colour_points": t.score - len(t.word) * game.rules.letter_points if t.word else 0,
            "bingo": False, "words": t.word.upper(), "word_length": len(t.word), "level": players[t.player].level.name,
        })  # fmt: skip
    stats = []
    for p in range(len(players)):
        mine = [t for t in game.turns if t.player == p]
        stats.append({"score": game.scores[p], "bingos": 0, "turns": sum(t.kind != RESHUFFLE for t in mine),
                      "exchanges": sum(t.kind == RESHUFFLE for t in mine),
                      "passes": sum(t.kind == PASS for t in mine), "adjustment": 0})  # fmt: skip
    row, player_rows = _game_rows(game_id, game, players, stats)
    return GameOutput(game_id, turns, row, player_rows, None)


# --------------------------------------------------------------------------- the run


@dataclass
class RunResult:
    config: RunConfig
    outputs: list[GameOutput] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0


def _write_tables(out_dir: Path, outputs: list[GameOutput], config: RunConfig) -> None:
    import polars as pl

    outputs = sorted(outputs, key=lambda o: o.game_id)
    turns = pl.DataFrame([t for o in outputs for t in o.turns], schema_overrides={"equity": pl.Float64})
    games = pl.DataFrame([o.game for o in outputs])
    players = pl.DataFrame([p for o in outputs for p in o.players])
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, frame in (("turns", turns), ("games", games), ("players", players)):
        tmp = out_dir / f".{name}.parquet.tmp"
        frame.write_parquet(tmp)
        tmp.replace(out_dir / f"{name}.parquet")
        frame.write_csv(out_dir / f"{name}.csv")
    (out_dir / "run.json").write_text(json.dumps(asdict(config), indent=2), encoding="utf-8")
    if config.gcg:
        gcg_dir = out_dir / "gcg"
        gcg_dir.mkdir(exist_ok=True)
        for o in outputs:
            path = gcg_dir / f"game-{o.game_id:06d}.gcg"
            if o.gcg and not path.exists():
                path.write_text(o.gcg, encoding="utf-8")


def _load_previous(out_dir: Path, config: RunConfig) -> list[GameOutput]:
    """Finished games of an earlier run in ``out_dir`` (for --resume)."""
    import polars as pl

    run_file = out_dir / "run.json"
    if not run_file.is_file():
        raise InputError(f"{out_dir}: nothing to resume (no run.json)")
    previous = json.loads(run_file.read_text(encoding="utf-8"))
    for key in ("players", "seed", "variant", "rules", "levels", "game"):
        if previous.get(key) != getattr(config, key):
            raise InputError(
                f"{out_dir}: the run there has {key} = {previous.get(key)!r}, not {getattr(config, key)!r}"
            )
    turns = pl.read_parquet(out_dir / "turns.parquet").to_dicts()
    games = pl.read_parquet(out_dir / "games.parquet").to_dicts()
    players = pl.read_parquet(out_dir / "players.parquet").to_dicts()
    by_game: dict[int, GameOutput] = {g["gameID"]: GameOutput(g["gameID"], [], g, []) for g in games}
    for t in turns:
        by_game[t["gameID"]].turns.append(t)
    for p in players:
        by_game[p["gameID"]].players.append(p)
    return list(by_game.values())


def run_simulation(
    config: RunConfig,
    workers: int,
    out_dir: Path | None,
    resume: bool = False,
    on_game: Callable[[GameOutput], None] | None = None,
) -> RunResult:
    """Play ``config.games`` games (minus those already in ``out_dir`` with ``resume``)."""
    done = _load_previous(out_dir, config) if resume and out_dir else []
    result = RunResult(config, list(done))
    finished = {o.game_id for o in done}
    pending = [g for g in range(config.games) if g not in finished]
    started = last_checkpoint = time.perf_counter()
    pool = None
    try:
        if workers <= 1:
            _setup(config)
            results = map(play_one, pending)
        else:
            pool = multiprocessing.get_context("fork").Pool(workers, initializer=_init_worker, initargs=(config,))
            results = pool.imap_unordered(play_one, pending, chunksize=max(1, min(8, len(pending) // (workers * 8))))
        for output in results:
            result.outputs.append(output)
            if on_game:
                on_game(output)
            if out_dir and time.perf_counter() - last_checkpoint > CHECKPOINT_SECONDS:
                _write_tables(out_dir, result.outputs, config)
                last_checkpoint = time.perf_counter()
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if pool is not None:
            if result.interrupted:
                pool.terminate()
            else:
                pool.close()
            pool.join()
    result.seconds = time.perf_counter() - started
    result.outputs.sort(key=lambda o: o.game_id)
    if out_dir and result.outputs:
        _write_tables(out_dir, result.outputs, config)
    return result
