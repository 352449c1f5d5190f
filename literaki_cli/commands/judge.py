"""``judge``: the full-screen tournament word judge (VALID / INVALID for a whole play)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import LexiconOption, app

JUDGE_EPILOG = """\b
Examples:
  literaki judge                               Polish screen, the default lexicon
  literaki judge --lang en --log judge.log     English screen; every judgement logged with its time
  literaki judge --clear-after 3 --lexicon sjp-20260201.lexicon

\b
Type the words of a play separated by spaces (or commas) and press Enter: the screen shows
VALID or INVALID for the whole play in large letters, never which word failed, and clears
after --clear-after seconds.  Esc clears at once; Ctrl+Q quits.  The log (for the tournament
director) gets one line per judgement: time, VALID/INVALID, the words, the invalid ones.
"""


@app.command("judge", epilog=JUDGE_EPILOG)
def judge_command(
    lang: Annotated[str, typer.Option("--lang", help="Interface language: pl (the default) or en.")] = "pl",
    log: Annotated[
        Path | None, typer.Option("--log", metavar="FILE", help="Append every judgement, with its time, to FILE.")
    ] = None,
    clear_after: Annotated[
        float, typer.Option("--clear-after", metavar="SECONDS", help="Seconds a verdict stays on the screen.")
    ] = 5.0,
    lexicon: LexiconOption = None,
) -> None:
    """Tournament word judge: a full-screen VALID / INVALID for a play, without saying which word failed."""
    import math
    import sys

    from literaki_cli.errors import InputError, LiterakiError

    try:
        from literaki_cli.wordstudy.judge_screen import LANGUAGES, JudgeApp
    except ImportError:
        raise LiterakiError("the word judge needs the 'textual' package: pip install textual") from None
    from literaki_cli.analysis.wordinput import lexicon_word_rules
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.wordstudy.judge import JudgeLog, WordJudge
    from literaki_cli.wordstudy.versions import lexicon_source_date

    if lang not in LANGUAGES:
        raise InputError(f"--lang {lang!r}: choose one of {', '.join(LANGUAGES)}")
    if not math.isfinite(clear_after) or not 0.5 <= clear_after <= 3600:
        raise InputError(f"--clear-after {clear_after:g}: give a number of seconds from 0.5 to 3600")
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("the word judge is a full-screen program: run it in a terminal")
    lex = Lexicon.open(lexicon)
    judge = WordJudge(lex.words, lexicon_word_rules(lex.meta))
    date = lexicon_source_date(lex.meta)
    label = str(lex.meta["source"]["name"]) + (f" ({date})" if date else "")
    judge_log = JudgeLog(log) if log is not None else None
    try:
        JudgeApp(judge, lang, judge_log, clear_after, label).run()
    finally:
        if judge_log is not None:
            judge_log.close()
