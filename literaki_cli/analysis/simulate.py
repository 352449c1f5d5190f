"""``simulate``: computer-vs-computer games in parallel worker processes, written as tables.

Every game is seeded by (seed, game number) and the starting player is game number mod the
number of players, so the results are the same whatever the number of workers.  Finished
games are kept when the run is interrupted (and checkpointed to disk as it goes); a run
continues with ``--resume DIR``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from literaki_cli.datafiles import RUN_FILE, RUN_SETTING_TYPES
from literaki_cli.errors import InputError
from literaki_cli.inputs import dumps_json, read_json_file, shown

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
    leaves: str | None = None  # the leave file of levels that use the default one


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

    return load_levels(Path(config.levels) if config.levels else None, config.leaves)


def _board_rules(config: RunConfig):
    from literaki_cli.engine.variant import load_variant

    return load_variant(config.variant, _rules_file(config))


def _board_table(variant, lexicon, levels, specs):
    from literaki_cli.analysis.lookahead import level_lookahead
    from literaki_cli.games.game import Game
    from literaki_cli.games.players import make_players

    players = make_players(specs, lexicon, variant, levels, lookahead_factory=level_lookahead)
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
    from literaki_cli.games.record import game_to_gcg

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
    from literaki_cli.equity.leaves import open_leaves
    from literaki_cli.games.common import check_player_count
    from literaki_cli.games.players import DEFAULT_LEAVES, NO_LEAVES, level_named

    levels = _levels(config)
    for spec in config.players:
        level = level_named(spec, levels)
        if config.game == "literaki" and level.leaves != NO_LEAVES:
            open_leaves(None if level.leaves == DEFAULT_LEAVES else level.leaves)  # a missing file fails here
    kind = game_kind(config.game)
    rules = kind.load_rules(config)
    if config.gcg and kind.to_gcg is None:
        raise InputError(f"--gcg records board games; {rules.name} has no GCG")
    check_player_count(rules.name, len(config.players), rules.min_players, rules.max_players)


# --------------------------------------------------------------------------- one game (in a worker)

_WORKER: dict = {}


def _init_worker(config: RunConfig) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    for fd in _HELD_LOCKS:  # the folder lock is the parent's: a worker outliving it must not hold it
        with suppress(OSError):
            os.close(fd)
    _HELD_LOCKS.clear()
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


def game_columns(names: list[str]) -> list[str]:
    """games.csv's columns (README): Macondo's ``gameID, <p1>_score, <p2>_score, <p1>_bingos,
    <p2>_bingos, <p1>_turns, <p2>_turns, first`` for any number of players, then ours."""
    per_player = [f"{name}_{key}" for key in ("score", "bingos", "turns") for name in names]
    return ["gameID", *per_player, "first", "winner", "ended_by", "turns"]


def _game_rows(game_id: int, game, players, stats: list[dict]) -> tuple[dict, list[dict]]:
    """The per-game row (Macondo/wolges columns plus extras) and one row per player."""
    winners = game.winners()
    names = [player.name for player in players]
    values: dict = {"gameID": game_id}
    player_rows = []
    for p, player in enumerate(players):
        for key in ("score", "bingos", "turns"):
            values[f"{player.name}_{key}"] = stats[p][key]
        player_rows.append({"gameID": game_id, "player": player.name, "level": player.level.name, "seat": p,
                            "first": p == game.first, "won": p in winners and len(winners) == 1,
                            "draw": len(winners) > 1 and p in winners, **stats[p]})  # fmt: skip
    values["first"] = names[game.first]
    values["winner"] = names[winners[0]] if len(winners) == 1 else "draw"
    values["ended_by"] = game.ended_by
    values["turns"] = len(game.turns)
    return {column: values[column] for column in game_columns(names)}, player_rows


# --------------------------------------------------------------------------- the output folder

LOCK_FILE = ".simulate.lock"
TABLES = ("turns", "players", "games")  # written in this order: games.parquet names the finished games
REPORT_FILES = ("report.md", "report.json", "score_distribution.png", "points_per_turn.png")
PATH_SETTINGS = ("rules", "levels", "lexicon", "leaves")
_HELD_LOCKS: list[int] = []  # lock descriptors of this process; a forked worker closes its copies


def _own_files(out_dir: Path) -> list[Path]:
    """The files a run writes in ``out_dir`` (what --force may delete): nothing else is touched."""
    names = [f"{t}.{ext}" for t in TABLES for ext in ("parquet", "csv")] + [RUN_FILE, *REPORT_FILES]
    files = [out_dir / name for name in names] + sorted(out_dir.glob(".*.tmp"))
    gcg_dir = out_dir / "gcg"
    if gcg_dir.is_dir():
        files += sorted(gcg_dir.glob("game-*.gcg")) + sorted(gcg_dir.glob(".*.tmp"))
    return [f for f in files if f.is_file()]


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """``write`` into a temporary file beside ``path``, then rename it over ``path``: a reader (or
    an interrupted run) sees the old file or the new one, never half of one."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _lock(out_dir: Path) -> int:
    """Lock ``out_dir`` for this process (an advisory lock on a lock file, which the system
    releases if the process dies, so no lock outlives its run).  Another run holding it is an
    InputError.  The file is re-checked after locking: a run that finished meanwhile has
    deleted it, and the lock must be on the file that is there."""
    path = out_dir / LOCK_FILE
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            _try_lock(fd)
        except OSError:
            os.close(fd)
            try:
                holder = path.read_text(encoding="ascii").strip() or "?"
            except (OSError, UnicodeDecodeError):
                holder = "?"
            raise InputError(f"{out_dir}: another simulate (pid {holder}) is writing there; "
                             "wait for it or choose another --out") from None  # fmt: skip
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    except OSError:
        _unlock(out_dir, fd)
        raise
    _HELD_LOCKS.append(fd)
    return fd


def _try_lock(fd: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _unlock(out_dir: Path, fd: int) -> None:
    with suppress(OSError):
        (out_dir / LOCK_FILE).unlink()  # before closing: a waiting run then re-checks and retries
    if fd in _HELD_LOCKS:
        _HELD_LOCKS.remove(fd)
    os.close(fd)


def _prepare_folder(out_dir: Path, resume: bool, force: bool) -> None:
    """A new run needs an empty folder, or ``force``: an earlier run's files are deleted (other
    files are never touched), so no old table or GCG file is mistaken for the new run's.  A
    resumed run needs its record."""
    if resume:
        if not (out_dir / RUN_FILE).is_file():
            raise InputError(f"{out_dir}: nothing to resume (no {RUN_FILE})")
        return
    if force:
        for f in _own_files(out_dir):
            f.unlink()
        with suppress(OSError):
            (out_dir / "gcg").rmdir()  # only if empty
        return
    left = sorted(entry.name for entry in out_dir.iterdir() if entry.name != LOCK_FILE)
    if left:
        listed = ", ".join(left[:3]) + (", ..." if len(left) > 3 else "")
        raise InputError(f"{out_dir}: not empty ({listed}); continue its run with --resume, "
                         "or replace it with --force (other files than a run's are left alone)")  # fmt: skip


def load_run_config(out_dir: Path) -> RunConfig:
    """The settings of the run in ``out_dir`` (its run.json), checked field by field."""
    path = out_dir / RUN_FILE
    data = read_json_file(path, "run record")  # strict and bounded: a crafted file is one line
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a run record (a JSON object)")
    for key, value in data.items():
        if key not in RUN_SETTING_TYPES:
            raise InputError(f"{path}: unknown key {key!r}")
        kinds = RUN_SETTING_TYPES[key]
        if not isinstance(value, kinds) or (int in kinds and isinstance(value, bool)):
            raise InputError(f"{path}: key {key!r} has a bad value {shown(value)}")
    for key in ("players", "games", "seed"):
        if key not in data:
            raise InputError(f"{path}: missing key {key!r}")
    if not all(isinstance(p, str) for p in data["players"]) or data["games"] < 1:
        raise InputError(f"{path}: bad 'players' or 'games'")
    return RunConfig(**data)


def _same_setting(key: str, recorded: Any, given: Any) -> bool:
    if key in PATH_SETTINGS and recorded is not None and given is not None:
        return Path(recorded).resolve() == Path(given).resolve()
    return recorded == given


def resumed_config(out_dir: Path, given: dict[str, Any]) -> RunConfig:
    """The recorded settings of the run in ``out_dir``; a setting in ``given`` (what the command
    line stated explicitly) that differs from the record is an InputError naming it."""
    recorded = load_run_config(out_dir)
    for key, value in given.items():
        if not _same_setting(key, getattr(recorded, key), value):
            raise InputError(f"{out_dir}: the run there has {key} = {getattr(recorded, key)!r}, not {value!r} "
                             "(--resume continues it with its own settings; leave the option out)")  # fmt: skip
    return recorded


def _write_tables(out_dir: Path, outputs: list[GameOutput], config: RunConfig) -> None:
    """Save every finished game: GCG files first, then turns, players and last games, each file
    replaced whole, so whatever stops the run, games.parquet names games whose rows are saved."""
    import polars as pl

    outputs = sorted(outputs, key=lambda o: o.game_id)
    try:
        if config.gcg:
            gcg_dir = out_dir / "gcg"
            gcg_dir.mkdir(exist_ok=True)
            for o in outputs:
                path = gcg_dir / f"game-{o.game_id:06d}.gcg"
                if o.gcg and not path.exists():
                    _atomic_write(path, partial(Path.write_text, data=o.gcg, encoding="utf-8"))
        names = [p["player"] for p in sorted(outputs[0].players, key=lambda p: p["seat"])]
        frames = {
            "turns": pl.DataFrame([t for o in outputs for t in o.turns], schema_overrides={"equity": pl.Float64}),
            "players": pl.DataFrame([p for o in outputs for p in o.players]),
            "games": pl.DataFrame([o.game for o in outputs]).select(game_columns(names)),
        }
        for name in TABLES:
            _atomic_write(out_dir / f"{name}.parquet", frames[name].write_parquet)
            _atomic_write(out_dir / f"{name}.csv", frames[name].write_csv)
    except OSError as exc:
        raise InputError(f"{out_dir}: cannot save the games: {exc.strerror or exc}") from None


def _load_previous(out_dir: Path, config: RunConfig) -> list[GameOutput]:
    """Finished games of the run in ``out_dir`` (none when it stopped before its first save)."""
    import polars as pl

    if not (out_dir / "games.parquet").is_file():
        return []
    try:
        turns, players, games = (pl.read_parquet(out_dir / f"{name}.parquet").to_dicts() for name in TABLES)
    except Exception as exc:  # polars reports damaged files with several exception types
        raise InputError(f"{out_dir}: cannot read the tables: {exc}") from None
    by_game: dict[int, GameOutput] = {}
    for g in games:
        if not isinstance(g.get("gameID"), int) or not 0 <= g["gameID"] < config.games:
            raise InputError(f"{out_dir}/games.parquet: game {g.get('gameID')!r} is not one of this run's")
        by_game[g["gameID"]] = GameOutput(g["gameID"], [], g, [])
    for t in turns:
        if t.get("gameID") in by_game:  # rows of a game saved after games.parquet was are played again
            by_game[t["gameID"]].turns.append(t)
    for p in players:
        if p.get("gameID") in by_game:
            by_game[p["gameID"]].players.append(p)
    return list(by_game.values())


# --------------------------------------------------------------------------- the run


@dataclass
class RunResult:
    config: RunConfig
    outputs: list[GameOutput] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0


class _Interrupts:
    """Ctrl-C while games are played stops the run once (KeyboardInterrupt); while games are
    being saved, and after the first, every further Ctrl-C is only noted, so no number of them
    can lose a finished game."""

    def __init__(self) -> None:
        self.saving = True
        self.pending = False
        self.previous: Any = None
        self.installed = threading.current_thread() is threading.main_thread()

    def __enter__(self) -> _Interrupts:
        if self.installed:
            self.previous = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.installed:
            signal.signal(signal.SIGINT, self.previous)

    def _on_sigint(self, signum: int, frame: object) -> None:
        first = not self.pending
        self.pending = True
        if first and not self.saving:
            self.saving = True
            raise KeyboardInterrupt

    def play(self) -> None:
        """Games are being played: a Ctrl-C now (or one noted while saving) stops them."""
        self.saving = False
        if self.pending:
            self.saving = True
            raise KeyboardInterrupt

    def save(self) -> None:
        self.saving = True


@dataclass
class RunFolder:
    """An output folder claimed by one run: locked, writable, with the run's settings and the
    games already finished there.  :meth:`play` plays the rest."""

    path: Path | None
    config: RunConfig
    done: list[GameOutput]
    interrupts: _Interrupts

    def play(self, runner: GameRunner | int, on_game: Callable[[GameOutput], None] | None = None) -> RunResult:
        """Play the games of the run not finished yet on ``runner`` (a number: that many local
        worker processes); save them as they come and at the end.  On return, Ctrl-C stays
        deferred until the folder is released (the report is saving too)."""
        config, out_dir, gate = self.config, self.path, self.interrupts
        runner = LocalRunner(runner) if isinstance(runner, int) else runner
        result = RunResult(config, list(self.done))
        finished = {o.game_id for o in self.done}
        pending = [g for g in range(config.games) if g not in finished]
        started = last_checkpoint = time.perf_counter()
        completed = False
        try:
            # started while Ctrl-C is deferred: forked workers then ignore it (the parent handles it)
            results = runner.start(config, pending) if pending else iter(())
            gate.play()
            for output in results:
                result.outputs.append(output)
                if on_game:
                    on_game(output)
                if out_dir and time.perf_counter() - last_checkpoint > CHECKPOINT_SECONDS:
                    gate.save()
                    _write_tables(out_dir, result.outputs, config)
                    last_checkpoint = time.perf_counter()
                    gate.play()
            completed = True
        except KeyboardInterrupt:
            result.interrupted = True
        finally:
            gate.save()
            try:
                runner.stop(cancel=not completed)
            finally:  # whatever stopped the run (Ctrl-C, a failing worker), the finished games are saved
                result.seconds = time.perf_counter() - started
                result.outputs.sort(key=lambda o: o.game_id)
                if out_dir and len(result.outputs) > len(self.done):
                    _write_tables(out_dir, result.outputs, config)
        return result


class GameRunner(Protocol):
    """Where a run's games are played: :meth:`start` yields each finished game (in any order;
    the tables are sorted by game number), :meth:`stop` ends the work, cancelling what is left
    when ``cancel`` (Ctrl-C).  Games are seeded by (seed, game number), so every runner gives
    the same tables.  :class:`LocalRunner` plays in this machine's processes;
    ``literaki_cli.cluster.RayRunner`` on a Ray cluster."""

    def start(self, config: RunConfig, pending: list[int]) -> Iterator[GameOutput]: ...

    def stop(self, cancel: bool) -> None: ...


class LocalRunner:
    """Games in this process (one worker) or in a pool of forked worker processes."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: Any = None

    def start(self, config: RunConfig, pending: list[int]) -> Iterator[GameOutput]:
        if self.workers <= 1:
            _setup(config)
            return map(play_one, pending)
        self.pool = multiprocessing.get_context("fork").Pool(self.workers, initializer=_init_worker, initargs=(config,))
        chunk = max(1, min(8, len(pending) // (self.workers * 8)))
        return self.pool.imap_unordered(play_one, pending, chunksize=chunk)

    def stop(self, cancel: bool) -> None:
        if self.pool is None:
            return
        if cancel:
            self.pool.terminate()
        else:
            self.pool.close()
        self.pool.join()
        self.pool = None


@contextmanager
def open_run(
    out_dir: Path | None,
    config: RunConfig | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    given: dict[str, Any] | None = None,
) -> Iterator[RunFolder]:
    """Claim ``out_dir`` for a run before any game: create it, lock it, check it is writable and
    either empty (a new run of ``config``; ``force`` deletes an earlier run's files) or holding a
    run to resume (its run.json gives every setting; ``given`` settings must agree with it).
    InputError for anything in the way.  Ctrl-C is deferred while the folder is held, except
    while :meth:`RunFolder.play` plays games."""
    if resume and out_dir is None:
        raise InputError("--resume needs the run's folder")
    if not resume:
        if config is None:
            raise ValueError("a new run needs its config")
        check_run_config(config)
    with _Interrupts() as interrupts:
        if out_dir is None:
            yield RunFolder(None, config, [], interrupts)
            return
        try:
            if not resume:
                out_dir.mkdir(parents=True, exist_ok=True)
            elif not out_dir.is_dir():
                raise InputError(f"{out_dir}: no such run folder")
            fd = _lock(out_dir)
        except OSError as exc:
            raise InputError(f"{out_dir}: cannot write there: {exc.strerror or exc}") from None
        try:
            _prepare_folder(out_dir, resume, force)
            if resume:
                config = resumed_config(out_dir, given or {})
                check_run_config(config)
            else:
                record = dumps_json(asdict(config), indent=2) + "\n"
                try:
                    _atomic_write(out_dir / RUN_FILE, partial(Path.write_text, data=record, encoding="utf-8"))
                except OSError as exc:
                    raise InputError(f"{out_dir}: cannot write there: {exc.strerror or exc}") from None
            yield RunFolder(out_dir, config, _load_previous(out_dir, config) if resume else [], interrupts)
        finally:
            _unlock(out_dir, fd)


def run_simulation(
    config: RunConfig,
    workers: GameRunner | int,
    out_dir: Path | None,
    resume: bool = False,
    on_game: Callable[[GameOutput], None] | None = None,
    force: bool = False,
) -> RunResult:
    """Play ``config.games`` games into ``out_dir`` (see :func:`open_run`); with ``resume``, only
    those not finished there, and ``config`` must be the run's own."""
    given = {k: v for k, v in asdict(config).items()} if resume else None
    with open_run(out_dir, None if resume else config, resume=resume, force=force, given=given) as run:
        return run.play(workers, on_game)
