"""``serve``: the analysis board in the browser, a local web server (:mod:`literaki_cli.web.api`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import LeavesOption, LexiconOption, app
from literaki_cli.commands.position import FormatOption, TurnOption, VariantOption
from literaki_cli.errors import InputError

SERVE_EPILOG = """\b
Examples:
  literaki serve                          an empty board at http://127.0.0.1:8765/
  literaki serve examples/game.cgp        the board starts with a position
  literaki serve game.gcg --turn 12       ... or with a turn of a game record
  literaki serve --port 9000 --no-open    another port; no browser opened
  literaki serve --lang en                the page in English

The server listens on 127.0.0.1 only, unless --host says otherwise (then anyone who can reach the
port can use it).  Ctrl-C stops it.  The page and its JSON API: docs/serve.md.
"""

DEFAULT_PORT = 8765


@app.command("serve", epilog=SERVE_EPILOG)
def serve_command(
    position: Annotated[
        str | None,
        typer.Argument(metavar="[POSITION]", help="A position (board text, CGP, JSON) or game record to start with."),
    ] = None,
    turn: TurnOption = None,
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="The port to listen on.")] = DEFAULT_PORT,
    open_browser: Annotated[
        bool, typer.Option("--open/--no-open", help="Open the page in the browser.")
    ] = True,
    lang: Annotated[str, typer.Option("--lang", help="The page's language: pl or en.")] = "pl",
    variant: VariantOption = None,
    fmt: FormatOption = None,
    leaves: LeavesOption = None,
    lexicon: LexiconOption = None,
) -> None:
    """The analysis board in the browser: type a position, see the moves."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.equity.leaves import open_leaves
    from literaki_cli.web.api import LANGUAGES, LOCAL_HOSTS, BoardSetup, create_app

    if lang not in LANGUAGES:
        raise InputError(f"--lang {lang!r}: choose one of {', '.join(LANGUAGES)}")
    setup = BoardSetup(variant or "literaki", lang)
    if position is not None:
        from literaki_cli.analysis.positionquery import open_game_position, parse_turn
        from literaki_cli.inputs import LAST
        from literaki_cli.io.positionio import position_to_json

        opened = open_game_position(position, variant, None, fmt, False, parse_turn(turn), LAST)
        game = None
        if opened.game is not None:  # the page steps through the game, starting at this turn
            game = {"name": Path(position).name if position != "-" else "game", "gcg": opened.record,
                    "turn": opened.game.number}  # fmt: skip
        setup = BoardSetup(opened.position.variant.name, lang, position_to_json(opened.position), game)
    elif turn is not None:
        raise InputError("--turn: only with a game record to start with")
    open_leaves(leaves)  # checked before the server starts, as the lexicon is
    lex = Lexicon.open(lexicon)
    local = host in ("127.0.0.1", "localhost", "::1")
    hosts = LOCAL_HOSTS if local else (*LOCAL_HOSTS, host if ":" not in host else f"[{host}]")
    application = create_app(Path(lex.path), leaves, hosts, setup)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    if not local:
        typer.echo(f"literaki: warning: listening on {host}: anyone who can reach port {port} can use the board",
                   err=True)  # fmt: skip
    _serve(application, host, port, address, open_browser)


def _serve(application, host: str, port: int, address: str, open_browser: bool) -> None:
    """Run the server until Ctrl-C; the address printed once it listens (a port in use is one
    error line)."""
    import socket

    import uvicorn

    try:
        probe = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
        probe.close()
    except OSError as exc:
        import errno

        if exc.errno == errno.EADDRINUSE:
            raise InputError(
                f"cannot listen on {host}:{port}: port {port} is in use: choose another with --port N"
            ) from None
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    typer.echo(f"literaki: the board is at {address} (Ctrl-C stops the server)")
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    # The interpreter hands over between threads every 1 ms (not 5): a short request (an edit) is
    # then never kept waiting long behind a long one (every move of a rack with two blanks).
    sys.setswitchinterval(0.001)
    uvicorn.run(application, host=host, port=port, log_level="warning")
