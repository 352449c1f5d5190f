"""What every command shares: the Typer app, the common options, the exit codes, and ``main``,
which turns every error into one line on stderr and an exit code, never a traceback.

Exit codes (README, "Exit codes"): 0 success, 1 a negative answer (an invalid word, an illegal
move), 2 bad usage, input or lexicon, 3 a bug, 130 interrupted.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli import __version__
from literaki_cli.errors import LiterakiError

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_ERROR = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="literaki",
    help="Literaki toolkit: lexicon, word checks, scoring, solving and self-play.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LexiconOption = Annotated[
    Path | None,
    typer.Option("--lexicon", "-l", help="Lexicon file (default: $LITERAKI_LEXICON, then the user data directory)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
RulesOption = Annotated[Path | None, typer.Option("--rules", help="Variant file (TOML) with your own rules.")]


def colour_enabled(stream) -> bool:
    """Whether to colour ``stream``: a terminal, and neither NO_COLOR nor TERM=dumb."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"literaki {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Literaki toolkit."""


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every error becomes one line on stderr and an exit code, never a traceback."""
    try:
        code = app(args=argv, prog_name="literaki", standalone_mode=False)
    except LiterakiError as exc:
        _flush_quietly()
        sys.stderr.write(f"literaki: error: {exc}\n")
        return exc.exit_code
    except typer.Exit as exc:
        _flush_quietly()
        return exc.exit_code
    except KeyboardInterrupt:
        _flush_quietly()
        sys.stderr.write("literaki: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except typer.Abort:
        sys.stderr.write("literaki: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as exc:
        # A usage error of the (vendored or external) click: it knows how to show itself.
        if hasattr(exc, "show") and isinstance(getattr(exc, "exit_code", None), int):
            exc.show()
            return exc.exit_code
        if os.environ.get("LITERAKI_DEBUG"):
            raise
        _flush_quietly()
        sys.stderr.write(
            f"literaki: internal error: {type(exc).__name__}: {exc} (a bug: please report it; "
            "LITERAKI_DEBUG=1 shows the traceback)\n"
        )
        return EXIT_INTERNAL
    _flush_quietly()
    return code if isinstance(code, int) else EXIT_OK


def _flush_quietly() -> int:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    return 0


def _silence_stdout() -> None:
    # Python flushes stdout at exit; point it at devnull so a closed pipe raises nothing more.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
