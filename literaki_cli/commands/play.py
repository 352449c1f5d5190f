"""``play``: a game of Literaki against the computer in the terminal."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import LexiconOption, RulesOption, app


@app.command("play")
def play_command(
    level: Annotated[str, typer.Option("--level", help="latwy, normalny or trudny.")] = "normalny",
    variant: Annotated[str, typer.Option("--variant", help="Game variant.")] = "literaki",
    rules: RulesOption = None,
    lang: Annotated[str, typer.Option("--lang", help="Interface language: pl or en.")] = "pl",
    load: Annotated[Path | None, typer.Option("--load", help="Resume a game saved as GCG.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the bag and the computer's choices.")] = None,
    lexicon: LexiconOption = None,
) -> None:
    """A game of Literaki against the computer in the terminal."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.play import PlaySession, Texts

    Texts(lang)  # a bad --lang fails before anything else
    session = PlaySession(load_variant(variant, rules), Lexicon.open(lexicon), level, lang, seed=seed)
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    if load is not None:
        session.load(load)
    session.run(loaded=load is not None)
