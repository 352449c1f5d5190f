"""Many games reviewed at once (``analyze GAME... | FOLDER | 'GLOB'``): each game reviewed as
``analyze`` reviews one (:func:`~literaki_cli.review.game_review.analyze_game`: static equity,
``--sim``, the endgame search), then a summary per player over them all.

A game is reviewed in a worker (this process, or one of ``workers`` forked processes, each
with the lexicon opened once); what comes back is plain data (:class:`GameOutcome`: the
review as its JSON record and its flat turn rows), so the summary is computed from the same
records ``analyze --json`` prints for one game, and the per-player totals are the sums of the
single games' by construction.  A file that cannot be read or replayed is an outcome with its
error: the other games are still reviewed.  Ctrl-C keeps the games finished.

Mistakes are graded by the equity they lost (:data:`DEFAULT_GRADES`, a project interpretation,
settable with ``--grades SMALL,LARGE``): below the first threshold small, below the second
medium, from it large; a turn that lost nothing is no mistake.
"""

from __future__ import annotations

import glob
import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from literaki_cli.errors import InputError, LiterakiError

#: Equity lost from which a mistake is medium, and large (project interpretation: about a
#: third of a tile's worth, and about a good move's score; ``--grades`` sets them).
DEFAULT_GRADES = (5.0, 15.0)
GRADES = ("small", "medium", "large")
#: The glob characters: an argument holding one that names no file is a pattern.
_GLOB = set("*?[")


def game_files(arguments: list[str]) -> list[str]:
    """The game files ``arguments`` name, in order: a file as given (a missing one too: its
    review says so), a folder's ``*.gcg`` files (in its subfolders too, sorted), a pattern's
    matches (sorted; quoted patterns are expanded here, as a shell would).  InputError for a
    folder or a pattern with no game in it."""
    files: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            found = sorted(str(p) for p in path.rglob("*") if p.suffix.lower() == ".gcg" and p.is_file())
            if not found:
                raise InputError(f"{argument}: a folder with no game record (*.gcg) in it")
            files += found
        elif not path.exists() and _GLOB & set(argument):
            found = sorted(p for p in glob.glob(argument, recursive=True) if Path(p).is_file())
            if not found:
                raise InputError(f"{argument}: no file matches the pattern")
            files += found
        else:
            files.append(argument)
    return files


def is_many(arguments: list[str]) -> bool:
    """Whether ``analyze`` reviews many games (a summary over them): more than one argument, a
    folder, or a pattern."""
    return len(arguments) > 1 or any(Path(a).is_dir() or (not Path(a).exists() and _GLOB & set(a)) for a in arguments)


# --------------------------------------------------------------------------- one game, in a worker


@dataclass(frozen=True)
class ReviewSettings:
    """How each game is reviewed (sent to every worker): what ``analyze`` takes for one game."""

    lexicon: str | None = None
    leaves: str | None = None
    variant: str | None = None
    top: int = 5
    sim: Any = None  # SimSettings | None
    endgame_seconds: float = 0.0
    threads: int | None = None
    peg_seconds: float = 0.0


@dataclass
class GameOutcome:
    """One game's review as data: ``review`` is its ``analyze --json`` record, ``rows`` its
    flat turn rows; ``error`` when the file could not be reviewed (then both are empty)."""

    index: int  # the game's place in the list
    file: str
    review: dict | None = None
    rows: list[dict] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    interrupted: str | None = None  # what a Ctrl-C stopped inside this game (its simulation, its endgames)


class GameReviewer:
    """Reviews games one after the other with one lexicon, leave table and endgame solver."""

    def __init__(self, settings: ReviewSettings) -> None:
        from literaki_cli.engine.lexicon import Lexicon
        from literaki_cli.equity.leaves import open_leaves

        self.settings = settings
        self.lexicon = Lexicon.open(Path(settings.lexicon) if settings.lexicon else None)
        self.table = open_leaves(Path(settings.leaves) if settings.leaves else None)
        self._endgames: dict[str, Any] = {}
        self._pre_endgames: dict[str, Any] = {}  # a pre-endgame solver per variant, kept for every game

    def __call__(self, index: int, file: str, data: bytes | None = None) -> GameOutcome:
        """The review of the game in ``file`` (``data``: its bytes, read elsewhere, as a
        cluster's actor gets them)."""
        started = time.perf_counter()
        try:
            outcome = self._review(index, file, data)
        except LiterakiError as exc:
            outcome = GameOutcome(index, file, error=str(exc))
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _review(self, index: int, file: str, data: bytes | None) -> GameOutcome:
        from literaki_cli.equity.equity import Equity
        from literaki_cli.io.gcg import decode_gcg, parse_gcg, read_gcg
        from literaki_cli.review.game_review import analyze_game

        s = self.settings
        if data is None:
            record = read_gcg(file, s.variant)
        else:
            text, encoding = decode_gcg(data, file)
            record = parse_gcg(text, file, s.variant)
            record.encoding = encoding
        equity = Equity(self.table, record.variant)
        simulate = None
        if s.sim is not None:
            from literaki_cli.montecarlo.turns import TurnSimulator
            from literaki_cli.montecarlo.winmodel import open_win_model

            simulate = TurnSimulator(self.lexicon, equity, open_win_model(), s.sim)
        endgame = self._endgame(record.variant) if s.endgame_seconds > 0 else None
        pre_endgame = None
        if s.peg_seconds > 0:
            from literaki_cli.review.peg_review import PegReviewer

            pre_endgame = PegReviewer(self.lexicon, record.variant, s.peg_seconds, equity, threads=s.threads,
                                      solver=self._pre_endgames.get(record.variant.name))  # fmt: skip
            self._pre_endgames[record.variant.name] = pre_endgame.solver
        review = analyze_game(record, self.lexicon, equity, mistakes=s.top, simulate=simulate, endgame=endgame,
                              pre_endgame=pre_endgame)  # fmt: skip
        stopped = []
        if simulate is not None and simulate.interrupted:
            stopped.append("its later turns were not simulated")
        if endgame is not None and endgame.interrupted:
            stopped.append("its later endgame turns were not solved")
        if pre_endgame is not None and pre_endgame.interrupted:
            stopped.append("its later pre-endgame turns were not solved")
        return GameOutcome(index, file, review.as_dict(), review.rows(), interrupted=" and ".join(stopped) or None)

    def _endgame(self, variant):
        """One endgame reviewer per variant, kept: its solver's tables serve every game."""
        from literaki_cli.review.endgame_review import EndgameReviewer

        if variant.name not in self._endgames:
            self._endgames[variant.name] = EndgameReviewer(self.lexicon, variant, self.settings.endgame_seconds,
                                                           threads=self.settings.threads)  # fmt: skip
        reviewer = self._endgames[variant.name]
        reviewer.interrupted = False
        return reviewer


_worker: GameReviewer | None = None


def _start_worker(settings: ReviewSettings) -> None:
    global _worker
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _worker = GameReviewer(settings)


def _review_in_worker(job: tuple[int, str]) -> GameOutcome:
    assert _worker is not None
    return _worker(*job)


def review_games(files: list[str], settings: ReviewSettings, workers: int = 1, cluster=None) -> Iterator[GameOutcome]:
    """Each file's :class:`GameOutcome`, in the order of ``files``: reviewed here, or by
    ``workers`` forked processes (each opens the lexicon once), or on a Ray ``cluster`` (a
    :class:`~literaki_cli.cluster.RayRunner`: the files read here and sent; the outcomes in the
    order they finish).  Stopping the iteration (a Ctrl-C in the caller) stops the workers."""
    if cluster is not None:
        yield from _on_cluster(files, settings, cluster)
        return
    jobs = list(enumerate(files))
    if workers <= 1 or len(files) <= 1:
        reviewer = GameReviewer(settings)
        for job in jobs:
            yield reviewer(*job)
        return
    pool = multiprocessing.get_context("fork").Pool(min(workers, len(files)), _start_worker, (settings,))
    finished = False
    try:
        yield from pool.imap(_review_in_worker, jobs, chunksize=1)
        finished = True
    finally:
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()


def _on_cluster(files: list[str], settings: ReviewSettings, cluster) -> Iterator[GameOutcome]:
    """The games reviewed by the cluster's actors; a file that cannot be read here is an
    outcome with its error at once, the others are sent."""
    from literaki_cli.io.gcg import read_gcg_bytes

    jobs = []
    for index, file in enumerate(files):
        try:
            jobs.append((index, file, read_gcg_bytes(file)))
        except LiterakiError as exc:
            yield GameOutcome(index, file, error=str(exc))
    finished = False
    try:
        if jobs:
            yield from cluster.review(settings, jobs)
        finished = True
    finally:
        cluster.stop(cancel=not finished)


# --------------------------------------------------------------------------- the summary


@dataclass
class PlayerSeason:
    """One player over every game they played (known by the name the reviews give them)."""

    player: str
    games: int = 0
    turns: int = 0
    analysed: int = 0
    equity_lost: float = 0.0
    losses: list[float] = field(default_factory=list)  # every analysed turn's equity lost
    mistakes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))
    bingos: int = 0
    bingos_missed: int = 0
    withdrawn: int = 0
    best: dict | None = None  # the highest-scoring move played
    worst: dict | None = None  # the turn that lost the most equity

    def as_dict(self) -> dict:
        from literaki_cli.analysis.stats import mean_ci

        mean, low, high = mean_ci(self.losses)
        return {"player": self.player, "games": self.games, "turns": self.turns, "turns_analysed": self.analysed,
                "equity_lost": _rounded(self.equity_lost), "mean_equity_lost": _rounded(mean),
                "mean_equity_lost_low": _rounded(low), "mean_equity_lost_high": _rounded(high),
                "mistakes": dict(self.mistakes), "bingos": self.bingos, "bingos_missed": self.bingos_missed,
                "phonies_withdrawn": self.withdrawn, "best_turn": self.best, "worst_turn": self.worst}  # fmt: skip


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(float(value), 3)


def grade(loss: float, grades: tuple[float, float] = DEFAULT_GRADES) -> str | None:
    """A mistake's grade by the equity it lost (None: no loss)."""
    if not loss > 0:
        return None
    return GRADES[0] if loss < grades[0] else GRADES[1] if loss < grades[1] else GRADES[2]


def check_grades(grades: tuple[float, float]) -> tuple[float, float]:
    small, large = grades
    if not (0 < small < large) or not all(map(_finite, grades)):
        raise InputError(f"--grades {small:g},{large:g}: two thresholds of equity lost, 0 < the first < the second "
                         "(medium from the first, large from the second)")  # fmt: skip
    return grades


def _finite(value: float) -> bool:
    return value == value and value not in (float("inf"), float("-inf"))


def season(outcomes: list[GameOutcome], grades: tuple[float, float] = DEFAULT_GRADES) -> list[PlayerSeason]:
    """Every player's summary over the reviewed games, in order of first appearance."""
    players: dict[str, PlayerSeason] = {}
    for outcome in outcomes:
        if outcome.review is None:
            continue
        for summary in outcome.review["players"]:
            player = players.setdefault(summary["player"], PlayerSeason(summary["player"]))
            player.games += 1
            player.turns += summary["turns"]
            player.analysed += summary["turns_analysed"]
            player.equity_lost += summary["equity_lost"] or 0.0
            player.bingos += summary["bingos"]
            player.bingos_missed += summary["bingos_missed"]
        for turn in outcome.review["turns"]:
            player = players[turn["player"]]
            player.withdrawn += bool(turn["withdrawn"])
            where = {"file": outcome.file, "turn": turn["turn"], "line": turn["line"]}
            played = turn["played"]
            if not turn["withdrawn"] and played["kind"] == "place" and (
                    player.best is None or played["score"] > player.best["score"]):  # fmt: skip
                player.best = {**where, "played": _move(played), "score": played["score"]}
            if not turn["analysable"]:
                continue
            loss = turn["equity_loss"] or 0.0
            player.losses.append(loss)
            kind = grade(loss, grades)
            if kind is not None:
                player.mistakes[kind] += 1
            if loss > 0 and (player.worst is None or loss > player.worst["equity_loss"]):
                player.worst = {**where, "played": _move(played), "best": _move(turn["best"]), "equity_loss": loss}
    return list(players.values())


def _move(move: dict | None) -> str | None:
    """``8H ŻÓ(Ł)W``, ``exchange ABC``, ``pass``."""
    if move is None:
        return None
    if move["kind"] == "exchange":
        return f"exchange {move['word'][1:]}"
    if move["kind"] == "pass":
        return "pass"
    return f"{move['coord']} {move['display'] or move['word']}"


def game_row(outcome: GameOutcome) -> dict:
    """One game's line of the games table."""
    review = outcome.review or {"players": [], "turns": [], "end": None}
    players = review["players"]
    scores = [p["score"] for p in players]
    best = max(scores, default=None)
    winners = [p["player"] for p in players if p["score"] == best]
    return {
        "game": outcome.index + 1,
        "file": outcome.file,
        "players": " vs ".join(p["player"] for p in players) or None,
        "scores": " / ".join(map(str, scores)) or None,
        "winner": winners[0] if len(winners) == 1 else None,
        "turns": len(review["turns"]),
        "turns_analysed": sum(1 for t in review["turns"] if t["analysable"]),
        "end_convention": review["end"]["convention"] if review.get("end") else None,
        "seconds": round(outcome.seconds, 3),
        "error": outcome.error,
    }


# --------------------------------------------------------------------------- files (--out)


def write_season(outcomes: list[GameOutcome], players: list[PlayerSeason], out_dir: Path,
                 grades: tuple[float, float]) -> list[Path]:  # fmt: skip
    """``--out DIR`` for many games: games, turns and players as Parquet and CSV, report.md,
    and equity_lost.png (each player's mean equity lost per turn, game after game)."""
    import polars as pl

    from literaki_cli.review.game_review import _schema

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{out_dir}: cannot create the folder: {exc.strerror or type(exc).__name__}") from None
    most = max((len(o.review["players"]) for o in outcomes if o.review), default=2)
    schema = {"game": pl.Int64, "file": pl.Utf8} | _schema(most)
    rows = [{"game": o.index + 1, "file": o.file, **row} for o in outcomes for row in o.rows]
    turns = pl.DataFrame(rows, schema=schema, orient="row")
    games = pl.DataFrame([game_row(o) for o in outcomes], schema={
        "game": pl.Int64, "file": pl.Utf8, "players": pl.Utf8, "scores": pl.Utf8, "winner": pl.Utf8,
        "turns": pl.Int64, "turns_analysed": pl.Int64, "end_convention": pl.Utf8, "seconds": pl.Float64,
        "error": pl.Utf8}, orient="row")  # fmt: skip
    table = pl.DataFrame([_player_row(p) for p in players], schema=_player_schema(), orient="row")
    paths = []
    try:
        for name, frame in (("games", games), ("turns", turns), ("players", table)):
            for suffix in ("parquet", "csv"):
                path = out_dir / f"{name}.{suffix}"
                frame.write_parquet(path) if suffix == "parquet" else frame.write_csv(path)
                paths.append(path)
        report = out_dir / "report.md"
        report.write_text(report_markdown(outcomes, players, grades), encoding="utf-8")
        paths.append(report)
        paths.append(write_season_chart(outcomes, players, out_dir / "equity_lost.png"))
    except OSError as exc:
        raise InputError(f"{out_dir}: cannot write: {exc.strerror or exc}") from None
    return paths


def _player_schema() -> dict:
    import polars as pl

    return {"player": pl.Utf8, "games": pl.Int64, "turns": pl.Int64, "turns_analysed": pl.Int64,
            "equity_lost": pl.Float64, "mean_equity_lost": pl.Float64, "mean_equity_lost_low": pl.Float64,
            "mean_equity_lost_high": pl.Float64, "mistakes_small": pl.Int64, "mistakes_medium": pl.Int64,
            "mistakes_large": pl.Int64, "bingos": pl.Int64, "bingos_missed": pl.Int64,
            "phonies_withdrawn": pl.Int64, "best_file": pl.Utf8, "best_turn": pl.Int64, "best_move": pl.Utf8,
            "best_score": pl.Int64, "worst_file": pl.Utf8, "worst_turn": pl.Int64, "worst_move": pl.Utf8,
            "worst_equity_lost": pl.Float64}  # fmt: skip


def _player_row(player: PlayerSeason) -> dict:
    record = player.as_dict()
    best, worst = record.pop("best_turn") or {}, record.pop("worst_turn") or {}
    mistakes = record.pop("mistakes")
    return {**record, **{f"mistakes_{g}": mistakes[g] for g in GRADES},
            "best_file": best.get("file"), "best_turn": best.get("turn"), "best_move": best.get("played"),
            "best_score": best.get("score"), "worst_file": worst.get("file"), "worst_turn": worst.get("turn"),
            "worst_move": worst.get("played"), "worst_equity_lost": worst.get("equity_loss")}  # fmt: skip


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def report_markdown(outcomes: list[GameOutcome], players: list[PlayerSeason], grades: tuple[float, float]) -> str:
    """report.md: the games, the players' summary, each player's best and worst turns."""
    done = [o for o in outcomes if o.review is not None]
    lines = [f"# {len(done)} games reviewed", ""]
    failed = [o for o in outcomes if o.error is not None]
    if failed:
        lines += [f"{len(failed)} files could not be reviewed:", ""] + [f"- `{o.file}`: {o.error}" for o in failed]
        lines.append("")
    lines += ["## Players", "",
              f"Mistakes by equity lost: small below {grades[0]:g}, medium below {grades[1]:g}, large from "
              f"{grades[1]:g}.", "",
              "| player | games | turns analysed | mean equity lost per turn (95 % interval) | small | medium | large "
              "| bingos | bingos missed | phonies withdrawn |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for p in players:
        r = p.as_dict()
        interval = (f" ({_number(r['mean_equity_lost_low'])} to {_number(r['mean_equity_lost_high'])})"
                    if r["mean_equity_lost_low"] is not None else "")  # fmt: skip
        lines.append(f"| {p.player} | {p.games} | {p.analysed} | {_number(r['mean_equity_lost'])}{interval} | "
                     f"{p.mistakes['small']} | {p.mistakes['medium']} | {p.mistakes['large']} | {p.bingos} | "
                     f"{p.bingos_missed} | {p.withdrawn} |")  # fmt: skip
    lines.append("")
    for p in players:
        if p.best:
            lines.append(f"- {p.player}'s best move: {p.best['played']} ({p.best['score']} points), "
                         f"`{p.best['file']}` turn {p.best['turn']}")  # fmt: skip
        if p.worst:
            lines.append(f"- {p.player}'s worst turn: {p.worst['played']} instead of {p.worst['best']} "
                         f"(-{p.worst['equity_loss']:.1f}), `{p.worst['file']}` turn {p.worst['turn']}")  # fmt: skip
    lines += ["", "## Games", "", "| # | file | players | scores | turns | analysed |", "|---:|---|---|---|---:|---:|"]
    for o in outcomes:
        row = game_row(o)
        lines.append(f"| {row['game']} | `{row['file']}` | {row['players'] or '-'} | {row['scores'] or '-'} | "
                     f"{row['turns']} | {row['turns_analysed']} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def write_season_chart(outcomes: list[GameOutcome], players: list[PlayerSeason], path: Path) -> Path:
    """Each player's mean equity lost per analysed turn, game after game."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    from literaki_cli.review.game_review import save_chart

    fig, ax = plt.subplots(figsize=(9, 4.5))
    for player in players:
        xs, ys = [], []
        for o in outcomes:
            if o.review is None:
                continue
            mine = [p for p in o.review["players"] if p["player"] == player.player and p["turns_analysed"]]
            if mine:
                xs.append(o.index + 1)
                ys.append(mine[0]["equity_lost"] / mine[0]["turns_analysed"])
        ax.plot(xs, ys, marker="o", linewidth=1, label=player.player)
    ax.set_xlabel("game")
    ax.set_ylabel("mean equity lost per turn")
    ax.set_title("equity lost per turn over the games")
    ax.legend(loc="upper left", fontsize="small")
    return save_chart(fig, path)


__all__ = [
    "DEFAULT_GRADES",
    "GameOutcome",
    "GameReviewer",
    "PlayerSeason",
    "ReviewSettings",
    "check_grades",
    "game_files",
    "game_row",
    "grade",
    "is_many",
    "report_markdown",
    "review_games",
    "season",
    "write_season",
]
