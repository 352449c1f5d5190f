"""Our games written as GCG records (``play`` saves, ``simulate --gcg``), in the shape the
reader (:mod:`literaki_cli.io.gcg`) and Quackle, Macondo and Woogles read."""

from __future__ import annotations

from literaki_cli.games.game import EXCHANGE, PASS, Game
from literaki_cli.io.gcg import VARIANT_PRAGMA


def game_to_gcg(game: Game, lexicon_name: str = "SJP", title: str = "") -> str:
    """The GCG text of ``game``: every turn with its rack, then the end-of-game adjustments."""
    lines = ["#character-encoding UTF-8"]
    for i, player in enumerate(game.players, 1):
        lines.append(f"#player{i} {player.name} {getattr(player, 'level', None) and player.level.title or player.name}")
    lines.append(f"#lexicon {lexicon_name}")
    if game.variant.name != "literaki":  # a reader needs the board before the first move
        lines.append(f"{VARIANT_PRAGMA} {game.variant.name}")
    lines.append(f"#title {title or f'{game.variant.name} game {game.game_id}'}")
    lines.append(f"#id literaki {game.seed}-{game.game_id}")
    for t in game.turns:
        rack = t.rack.upper()
        if t.kind == PASS:
            lines.append(f">{t.nick}: {rack} - +0 {t.total}")
        elif t.kind == EXCHANGE:
            lines.append(f">{t.nick}: {rack} -{t.exchanged.upper()} +0 {t.total}")
        else:
            lines.append(f">{t.nick}: {rack} {t.play} +{t.score} {t.total}")
    cumulative = {p: t.total for t in game.turns for p in [t.player]}
    for adj in game.adjustments:
        cumulative[adj.player] = cumulative.get(adj.player, 0) + adj.points
        if adj.points >= 0 and game.ended_by == "out":
            lines.append(f">{adj.nick}: ({adj.rack.upper()}) +{adj.points} {cumulative[adj.player]}")
        else:
            lines.append(f">{adj.nick}: {adj.rack.upper()} ({adj.rack.upper()}) {adj.points} {cumulative[adj.player]}")
    return "\n".join(lines) + "\n"


__all__ = ["game_to_gcg"]
