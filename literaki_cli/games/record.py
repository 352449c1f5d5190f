"""Our games written as GCG records (``play`` saves, ``simulate --gcg``), in the shape the
reader (:mod:`literaki_cli.io.gcg`) and Quackle, Macondo and Woogles read."""

from __future__ import annotations

from literaki_cli.games.game import EXCHANGE, PASS, Game
from literaki_cli.io.gcg import VARIANT_PRAGMA


def gcg_header(players: list[tuple[str, str]], variant_name: str, lexicon_name: str) -> list[str]:
    """A record's first lines: the encoding, the players (nick, name), the lexicon, the variant
    when it is not Literaki (a reader needs the board before the first move)."""
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{i} {nick} {name}" for i, (nick, name) in enumerate(players, 1)]
    lines.append(f"#lexicon {lexicon_name}")
    if variant_name != "literaki":
        lines.append(f"{VARIANT_PRAGMA} {variant_name}")
    return lines


def turn_line(nick: str, rack: str, play: str, score: int, total: int) -> str:
    """A turn's line: ``play`` is the GCG notation (``8H ŻÓ.W``, ``-ABC`` an exchange, ``-`` a pass)."""
    return f">{nick}: {rack.upper()} {play} {score:+d} {total}"


def game_to_gcg(game: Game, lexicon_name: str = "SJP", title: str = "") -> str:
    """The GCG text of ``game``: every turn with its rack, then the end-of-game adjustments."""
    players = [(p.name, getattr(p, "level", None) and p.level.title or p.name) for p in game.players]
    lines = gcg_header(players, game.variant.name, lexicon_name)
    lines.append(f"#title {title or f'{game.variant.name} game {game.game_id}'}")
    lines.append(f"#id literaki {game.seed}-{game.game_id}")
    for t in game.turns:
        play = "-" if t.kind == PASS else f"-{t.exchanged.upper()}" if t.kind == EXCHANGE else t.play
        lines.append(turn_line(t.nick, t.rack, play, 0 if t.kind in (PASS, EXCHANGE) else t.score, t.total))
    cumulative = {p: t.total for t in game.turns for p in [t.player]}
    for adj in game.adjustments:
        cumulative[adj.player] = cumulative.get(adj.player, 0) + adj.points
        if adj.points >= 0 and game.ended_by == "out":
            lines.append(f">{adj.nick}: ({adj.rack.upper()}) +{adj.points} {cumulative[adj.player]}")
        else:
            lines.append(f">{adj.nick}: {adj.rack.upper()} ({adj.rack.upper()}) {adj.points} {cumulative[adj.player]}")
    return "\n".join(lines) + "\n"


__all__ = ["game_to_gcg", "gcg_header", "turn_line"]
