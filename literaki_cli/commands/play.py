"""``play``: a game of Literaki against the computer in the terminal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import LexiconOption, RulesOption, app

PLAY_EPILOG = """\b
In-game commands (Polish and English both work in either interface):
  8H ŻÓŁW           lay a word across (H8 ŻÓŁW: down); lower case = blank,
                    a word all in lower case uses rack tiles first
  h8 Ż, then połóż  lay tiles one by one, then score them (place)
  cofnij / undo     take back the tiles laid
  wymieszaj / shuffle, wymień ABC? / exchange ABC?, pas / pass
  podpowiedź / hint, zapisz [PLIK] / save [FILE], pomoc / help, koniec / quit

\b
Examples:
  literaki play --level trudny --lang en --seed 7
  literaki play --level arcymistrz   the strongest computer (every word, look-ahead)
  literaki play --load saved.gcg     resume: level, language, variant from the save
"""


@app.command("play", epilog=PLAY_EPILOG)
def play_command(
    level: Annotated[
        str | None,
        typer.Option("--level", help="Computer level: latwy (łatwy), normalny or trudny, like the online game's "
                     "(default: normalny); mistrz or arcymistrz for a hard sparring partner (every word)."),
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="Game variant (default: literaki).")] = None,
    rules: RulesOption = None,
    lang: Annotated[str | None, typer.Option("--lang", help="Interface language: pl or en (default: pl).")] = None,
    load: Annotated[
        Path | None, typer.Option("--load", help="Resume a game saved by play (its level, language and variant win).")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the bag and the computer's choices.")] = None,
    lexicon: LexiconOption = None,
) -> None:
    """A game of Literaki against the computer in the terminal."""
    from literaki_cli.games.play import PlayError

    try:
        _play(level, variant, rules, lang, load, seed, lexicon)
    except PlayError as exc:  # the whole line in the message's language, not main's English "error:"
        sys.stderr.write(exc.line() + "\n")
        raise typer.Exit(exc.exit_code) from None


def _play(level: str | None, variant: str | None, rules: Path | None, lang: str | None, load: Path | None,
          seed: int | None, lexicon: Path | None) -> None:  # fmt: skip
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import DEFAULT_VARIANT, load_variant
    from literaki_cli.games.play import DEFAULT_LANGUAGE, PlaySession, Texts, choose_settings, play_level, read_save

    texts = Texts(lang or DEFAULT_LANGUAGE)  # a bad --lang fails before anything else
    saved = read_save(load, texts) if load is not None else None
    settings = choose_settings(level, lang, variant, saved)
    play_level(settings.level, Texts(settings.lang))  # a bad --level fails before the lexicon is opened
    game_variant = load_variant(settings.variant or DEFAULT_VARIANT, rules)
    from literaki_cli.analysis.lookahead import level_lookahead

    session = PlaySession(game_variant, Lexicon.open(lexicon), settings.level, settings.lang, seed=seed,
                          lookahead_factory=level_lookahead)  # fmt: skip
    for note in settings.notes:
        session.console.print(note, markup=False, soft_wrap=True)
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    if saved is not None:
        session.load(saved)
    session.run(loaded=saved is not None)
