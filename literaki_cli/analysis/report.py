"""Self-play statistics with Polars: the summary players and engine authors look at, written as
tables (terminal), Markdown, JSON and PNG charts.

Win rates count a draw as half a win; their 95 % interval is Wilson's, and the p-value is the
two-sided normal test of "this player wins 1/k of the games" (k players).  Means carry
normal-approximation 95 % intervals (1.96 standard errors).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from literaki_cli.analysis.stats import mean_ci, p_value, wilson
from literaki_cli.errors import InputError
from literaki_cli.inputs import dumps_json


def interval_text(bounds: list[float | None], scale: float = 1.0) -> str:
    """``(lo–hi)`` for the terminal and Markdown, ``(n/a)`` for an interval one game cannot give."""
    lo, hi = bounds
    if lo is None or hi is None:
        return "(n/a)"
    return f"({scale * lo:.1f}–{scale * hi:.1f})"


def report_json(report: dict) -> str:
    """The report as strict JSON (no NaN or Infinity: a value without meaning is null)."""
    return dumps_json(report, ensure_ascii=False, indent=2)


def load_run(out_dir: Path) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    paths = [out_dir / f"{name}.parquet" for name in ("games", "players", "turns")]
    for path in paths:
        if not path.is_file():
            raise InputError(f"{out_dir}: not a simulate output folder ({path.name} missing)")
    try:
        games, players, turns = (pl.read_parquet(path) for path in paths)
    except Exception as exc:  # polars reports damaged files with several exception types
        raise InputError(f"{out_dir}: cannot read the tables: {exc}") from None
    for frame, path in ((games, paths[0]), (players, paths[1]), (turns, paths[2])):
        if "gameID" not in frame.columns:
            raise InputError(f"{path}: not a simulate table (no gameID column)")
    # games.parquet is saved last: rows of games saved after it (a run stopped mid-save) are not counted
    finished = games["gameID"].to_list()
    return games, players.filter(pl.col("gameID").is_in(finished)), turns.filter(pl.col("gameID").is_in(finished))


def build_report(games: pl.DataFrame, players: pl.DataFrame, turns: pl.DataFrame) -> dict:
    n_games = games.height
    k = max(1, players["seat"].n_unique())
    per_player = []
    for (name,), part in players.sort("seat").group_by(["player"], maintain_order=True):
        wins = float(part["won"].sum()) + 0.5 * float(part["draw"].sum())
        lo, hi = wilson(wins, part.height)
        mean, mlo, mhi = mean_ci(part["score"])
        mine = turns.filter(pl.col("playerID") == name)
        per_player.append({
            "player": name,
            "level": part["level"][0],
            "games": part.height,
            "wins": int(part["won"].sum()),
            "draws": int(part["draw"].sum()),
            "win_rate": wins / part.height,
            "win_rate_ci95": [lo, hi],
            "p_value": p_value(wins, part.height, 1 / k),
            "mean_score": mean,
            "mean_score_ci95": [mlo, mhi],
            "bingos_per_game": float(part["bingos"].mean()),
            "points_per_turn": float(mine["score"].mean()) if mine.height else 0.0,
            "exchanges_per_game": float(part["exchanges"].mean()),
            "passes_per_game": float(part["passes"].mean()),
            "colour_points_per_game": float(mine["colour_points"].sum()) / part.height,
        })  # fmt: skip
    first = players.filter(pl.col("first"))
    first_wins = float(first["won"].sum()) + 0.5 * float(first["draw"].sum())
    length = mean_ci(games["turns"].cast(pl.Float64))
    placed = turns.filter(pl.col("kind") == "place")
    top_words = (
        placed.with_columns(pl.col("words").str.split(" ").list.first().str.to_lowercase().alias("word"))
        .group_by("word").len().sort(["len", "word"], descending=[True, False]).head(20)
    )  # fmt: skip
    distributions = []
    for (level,), part in players.group_by(["level"], maintain_order=True):
        s = part["score"]
        distributions.append({
            "level": level, "n": s.len(), "min": int(s.min()), "p10": float(s.quantile(0.1)),
            "p25": float(s.quantile(0.25)), "median": float(s.median()), "p75": float(s.quantile(0.75)),
            "p90": float(s.quantile(0.9)), "max": int(s.max()),
        })  # fmt: skip
    return {
        "games": n_games,
        "players": per_player,
        "first_player_win_rate": first_wins / first.height if first.height else None,
        "first_player_win_rate_ci95": list(wilson(first_wins, first.height)),
        "game_length_turns": {
            "mean": length[0],
            "ci95": [length[1], length[2]],
            "min": int(games["turns"].min()),
            "max": int(games["turns"].max()),
        },  # fmt: skip
        "ended_by": dict(games.group_by("ended_by").len().iter_rows()),
        "bingos_per_game": float(players["bingos"].sum()) / n_games,
        "top_words": [{"word": w, "count": c} for w, c in top_words.iter_rows()],
        "score_distributions": distributions,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _range(lo: float | None, hi: float | None) -> str:
    return "n/a" if lo is None or hi is None else f"{lo:.1f} – {hi:.1f}"


def report_markdown(report: dict) -> str:
    lines = [f"# Self-play report: {report['games']} games", ""]
    lines += ["| player | level | games | wins | draws | win % | 95 % CI | p-value | mean score | 95 % CI | "
              "bingos/game | points/turn | exchanges/game | passes/game |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for p in report["players"]:
        lo, hi = p["win_rate_ci95"]
        mlo, mhi = p["mean_score_ci95"]
        lines.append(
            f"| {p['player']} | {p['level']} | {p['games']} | {p['wins']} | {p['draws']} | {_pct(p['win_rate'])} | "
            f"{_pct(lo)} – {_pct(hi)} | {p['p_value']:.2g} | {p['mean_score']:.1f} | {_range(mlo, mhi)} | "
            f"{p['bingos_per_game']:.2f} | {p['points_per_turn']:.1f} | {p['exchanges_per_game']:.2f} | "
            f"{p['passes_per_game']:.2f} |"
        )
    fl = report["game_length_turns"]
    lo, hi = report["first_player_win_rate_ci95"]
    first = _pct(report["first_player_win_rate"] or 0)
    lines += ["", f"- first player wins: {first} (95 % CI {_pct(lo)} – {_pct(hi)})",
              f"- game length: {fl['mean']:.1f} turns (95 % CI {_range(*fl['ci95'])}, "
              f"{fl['min']}..{fl['max']})",
              f"- games ended by: {', '.join(f'{k} {v}' for k, v in sorted(report['ended_by'].items()))}",
              f"- bingos per game (all players): {report['bingos_per_game']:.2f}", "",
              "## Score distributions", "", "| level | n | min | p10 | p25 | median | p75 | p90 | max |",
              "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for d in report["score_distributions"]:
        lines.append(f"| {d['level']} | {d['n']} | {d['min']} | {d['p10']:.0f} | {d['p25']:.0f} | {d['median']:.0f} | "
                     f"{d['p75']:.0f} | {d['p90']:.0f} | {d['max']} |")  # fmt: skip
    lines += ["", "## Most frequent words played", "", "| word | times |", "|---|---|"]
    lines += [f"| {w['word']} | {w['count']} |" for w in report["top_words"]]
    return "\n".join(lines) + "\n"


def write_charts(out_dir: Path, players: pl.DataFrame, turns: pl.DataFrame) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    paths = []
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (level,), part in players.group_by(["level"], maintain_order=True):
        ax.hist(part["score"].to_numpy(), bins=30, alpha=0.55, label=level)
    paths.append(_finish_chart(fig, ax, "final score", "games", "Score distribution per level",
                               out_dir / "score_distribution.png"))  # fmt: skip

    per_turn = (
        turns.with_columns((pl.col("turn") // players["seat"].n_unique()).alias("round"))
        .group_by(["level", "round"]).agg(pl.col("score").mean().alias("points")).sort(["level", "round"])
    )  # fmt: skip
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (level,), part in per_turn.group_by(["level"], maintain_order=True):
        ax.plot(part["round"].to_numpy() + 1, part["points"].to_numpy(), marker="o", markersize=3, label=level)
    paths.append(_finish_chart(fig, ax, "round of the game", "mean points per turn",
                               "Points per turn through the game", out_dir / "points_per_turn.png"))  # fmt: skip
    return paths


def _finish_chart(fig, ax, xlabel: str, ylabel: str, title: str, path: Path) -> Path:
    from matplotlib import pyplot as plt

    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


def _replace_text(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a temporary file renamed over it)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def write_report(out_dir: Path) -> tuple[dict, list[Path]]:
    """Compute the report of a simulate output folder; write report.md, report.json, charts."""
    games, players, turns = load_run(out_dir)
    if games.height == 0:
        raise InputError(f"{out_dir}: no finished games")
    report = build_report(games, players, turns)
    try:
        _replace_text(out_dir / "report.json", report_json(report) + "\n")
        _replace_text(out_dir / "report.md", report_markdown(report))
    except OSError as exc:
        raise InputError(f"{out_dir}: cannot write the report: {exc.strerror or exc}") from None
    charts = write_charts(out_dir, players, turns)
    return report, [out_dir / "report.md", out_dir / "report.json", *charts]
