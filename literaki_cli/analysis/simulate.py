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
from functools import partial
from pathlib import Path
from typing import Any

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


# --------------------------------------------------------------------------- the kinds of game


@dataclass(frozen=True)
class GameKind:
    """What a run needs from one kind of game; everything else (seeding, seats, the tables,
    the workers) is the same for all.

    ``load_rules(config)`` gives the rules (a ``Variant`` or ``GridRules``: both name the game
    and its player range); ``new_table(rules, lexicon, levels, specs)`` gives the players and a
    factory ``(seed, game_id, first) -> game``; ``turn_row(game, turn)`` and
    ``player_stats(game, seat)`` fill the shared tables; ``to_gcg`` records a game, if it can be.
    """

    load_rules: Callable[[RunConfig], Any]
    new_table: Callable[..., tuple[list, Callable[..., Any]]]
    turn_row: Callable[[Any, Any], dict]
    player_stats: Callable[[Any, int], dict]
    to_gcg: Callable[[Any, str], str] | None = None


def _rules_file(config: RunConfig) -> Path | None:
    return Path(config.rules) if config.rules else None


def _levels(config: RunConfig) -> dict:
    from literaki_cli.games.players import load_levels

    return load_levels(Path(config.levels) if config.levels else None)


def _board_rules(config: RunConfig):
    from literaki_cli.engine.variant import load_variant

    return load_variant(config.variant, _rules_file(config))


def _board_table(variant, lexicon, levels, specs):
    from literaki_cli.games.game import Game
    from literaki_cli.games.players import make_players

    players = make_players(specs, lexicon, variant, levels)
    return players, partial(Game, variant, players, lexicon.words)


def _board_turn(game, t) -> dict:
    return {
        "playerID": t.nick, "gameID": game.game_id, "turn": t.turn, "rack": t.rack.upper(), "play": t.play,
        "score": t.score, "totalscore": t.total, "tilesplayed": t.tiles_played, "leave": t.leave.upper(),
        "equity": t.equity, "tilesremaining": t.tiles_remaining, "oppscore": t.opp_score,
        "kind": t.kind, "exchanged": t.exchanged.upper(), "blanks_played": t.blanks_played,
        "colour_points": t.colour_points, "bingo": t.bingo, "words": " ".join(t.words),
        "word_length": t.main_word_length, "level": game.players[t.player].level.name,
    }  # fmt: skip


def _board_stats(game, seat: int) -> dict:
    mine = [t for t in game.turns if t.player == seat]
    return {
        "score": game.scores[seat], "bingos": sum(t.bingo for t in mine), "turns": len(mine),
        "exchanges": sum(t.kind == "exchange" for t in mine), "passes": sum(t.kind == "pass" for t in mine),
        "adjustment": sum(a.points for a in game.adjustments if a.player == seat),
    }  # fmt: skip


def _board_gcg(game, lexicon_name: str) -> str:
    from literaki_cli.io.gcg import game_to_gcg

    return game_to_gcg(game, lexicon_name)


def _grid_rules(config: RunConfig):
    from literaki_cli.games.grid5 import load_grid_rules

    return load_grid_rules(_rules_file(config))


def _grid_table(rules, lexicon, levels, specs):
    from literaki_cli.games.gridgame import GridGame, make_grid_players

    players = make_grid_players(specs, lexicon, rules, levels)
    return players, partial(GridGame, rules, players)


def _grid_turn(game, t) -> dict:
    """A grid turn in the board game's columns: rack/leave empty, a reshuffle counted as an
    exchange, the word and its path as the play, the rounds left as the tiles remaining."""
    from literaki_cli.engine.coords import square_name
    from literaki_cli.games.gridgame import PASS, RESHUFFLE, WORD

    play = {WORD: t.word.upper() + " " + " ".join(square_name(r, c) for r, c in t.path), PASS: "-"}
    return {
        "playerID": t.nick, "gameID": game.game_id, "turn": t.turn, "rack": "", "play": play.get(t.kind, "reshuffle"),
        "score": t.score, "totalscore": t.total, "tilesplayed": len(t.word), "leave": "",
        "equity": float(t.score), "tilesremaining": game.rules.rounds - t.round - 1, "oppscore": t.opp_score,
        "kind": {WORD: "place", PASS: "pass", RESHUFFLE: "exchange"}[t.kind], "exchanged": "",
        "blanks_played": 0, "colour_points": t.score - len(t.word) * game.rules.letter_points if t.word else 0,
        "bingo": False, "words": t.word.upper(), "word_length": len(t.word), "level": game.players[t.player].level.name,
    }  # fmt: skip


def _grid_stats(game, seat: int) -> dict:
    from literaki_cli.games.gridgame import PASS, RESHUFFLE

    mine = [t for t in game.turns if t.player == seat]
    return {"score": game.scores[seat], "bingos": 0, "turns": sum(t.kind != RESHUFFLE for t in mine),
            "exchanges": sum(t.kind == RESHUFFLE for t in mine), "passes": sum(t.kind == PASS for t in mine),
            "adjustment": 0}  # fmt: skip


GAME_KINDS: dict[str, GameKind] = {
    "literaki": GameKind(_board_rules, _board_table, _board_turn, _board_stats, _board_gcg),
    "grid5": GameKind(_grid_rules, _grid_table, _grid_turn, _grid_stats),
}


def game_kind(name: str) -> GameKind:
    """The kind of game called ``name``; InputError naming the known ones otherwise."""
    if name not in GAME_KINDS:
        raise InputError(f"unknown game {name!r}; choose {' or '.join(GAME_KINDS)}")
    return GAME_KINDS[name]


def check_run_config(config: RunConfig) -> None:
    """Refuse, before any game starts, a run that cannot be played: an unknown game or player
    level, GCG for a game that has none, or a player count its rules do not allow (InputError)."""
    from literaki_cli.games.common import check_player_count
    from literaki_cli.games.players import level_named

    levels = _levels(config)
    for spec in config.players:
        level_named(spec, levels)
    kind = game_kind(config.game)
    rules = kind.load_rules(config)
    if config.gcg and kind.to_gcg is None:
        raise InputError(f"--gcg records board games; {rules.name} has no GCG")
    check_player_count(rules.name, len(config.players), rules.min_players, rules.max_players)


# --------------------------------------------------------------------------- one game (in a worker)

_WORKER: dict = {}


def _init_worker(config: RunConfig) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    _setup(config)


def _setup(config: RunConfig) -> None:
    from literaki_cli.engine.lexicon import Lexicon

    kind = game_kind(config.game)
    lexicon = Lexicon.open(Path(config.lexicon))
    players, new_game = kind.new_table(kind.load_rules(config), lexicon, _levels(config), config.players)
    _WORKER.update(config=config, kind=kind, lexicon=lexicon, players=players, new_game=new_game)


def play_one(game_id: int) -> GameOutput:
    """Game ``game_id`` of the run, played to the end and turned into table rows."""
    config: RunConfig = _WORKER["config"]
    kind: GameKind = _WORKER["kind"]
    players = _WORKER["players"]
    game = _WORKER["new_game"](seed=config.seed, game_id=game_id, first=game_id % len(players)).play()
    turns = [kind.turn_row(game, t) for t in game.turns]
    row, player_rows = _game_rows(game_id, game, players, [kind.player_stats(game, p) for p in range(len(players))])
    gcg = None
    if config.gcg and kind.to_gcg is not None:
        gcg = kind.to_gcg(game, _WORKER["lexicon"].meta["source"]["file"].removesuffix(".zip"))
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
    check_run_config(config)
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
