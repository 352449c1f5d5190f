"""The ``literaki`` command line: one small module per command (or closely related pair), each
only parsing its arguments, calling the library and printing.  :mod:`.common` holds the Typer
app, the shared options, the exit codes and :func:`main`.

The app's commands are registered when first needed (:class:`.common.CommandApp`): whoever
reads them (``--help``, a test, ``typer.main.get_command(app)``) gets every command, in the
order of :data:`COMMAND_MODULES`; :func:`main` imports only the module of the command it runs
(:data:`COMMAND_HOMES`), and each command imports what it needs when it runs, so
``literaki check-word kot`` starts fast.  A command missing from the table still works: its
command line imports every module.
"""

from __future__ import annotations

from importlib import import_module

from literaki_cli.commands import common
from literaki_cli.commands.common import app, main, run

#: The command modules, in the order ``literaki --help`` lists their commands.
COMMAND_MODULES = ("lexicon", "check_word", "words", "judge", "score", "solve", "leaves", "anagram", "play", "simulate",
                   "analyze", "serve")  # fmt: skip

#: The module that defines each command (a command not named here: every module is imported).
COMMAND_HOMES = {
    "build-lexicon": "lexicon",
    "lexicon-info": "lexicon",
    "lexicon-diff": "lexicon",
    "check-word": "check_word",
    "words": "words",
    "judge": "judge",
    "show": "score",
    "score": "score",
    "solve": "solve",
    "leaves": "leaves",
    "anagram": "anagram",
    "play": "play",
    "simulate": "simulate",
    "report": "simulate",
    "analyze": "analyze",
    "serve": "serve",
}

_registered: set[str] = set()
_registering = False
_ORDER = {f"{__name__}.{module}": number for number, module in enumerate(COMMAND_MODULES)}


def register(modules=COMMAND_MODULES) -> None:
    """Import the command ``modules``, registering their commands, and keep the commands in the
    order of :data:`COMMAND_MODULES` (``--help`` lists them so) whatever was imported first."""
    global _registering
    if _registering:
        return
    _registering = True  # the modules' @app.command read the app's commands while they import
    try:
        for module in COMMAND_MODULES:
            if module in modules and module not in _registered:
                import_module(f"{__name__}.{module}")
                _registered.add(module)
        app._commands.sort(key=lambda info: _ORDER.get(getattr(info.callback, "__module__", ""), len(_ORDER)))
    finally:
        _registering = False


def command_modules(argv: list[str]) -> tuple[str, ...]:
    """The modules ``argv`` needs: the home of the command it runs (the first word not an
    option), none for a bare ``--version``, else all of them."""
    if argv[:1] == ["--version"]:
        return ()
    for arg in argv:
        if arg == "--":
            break
        if not arg.startswith("-"):
            home = COMMAND_HOMES.get(arg)
            return (home,) if home is not None else COMMAND_MODULES
    return COMMAND_MODULES


app.loader = lambda only: register(COMMAND_MODULES if only is None else only)
app.modules_for = command_modules

__all__ = ["COMMAND_HOMES", "COMMAND_MODULES", "app", "command_modules", "common", "main", "register", "run"]
