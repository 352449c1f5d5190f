"""The ``literaki`` command line: one small module per command (or closely related pair), each
only parsing its arguments, calling the library and printing.  :mod:`.common` holds the Typer
app, the shared options, the exit codes and :func:`main`.

``app`` (taken from this package) has every command, in the order ``--help`` lists them.  The
``literaki`` program itself registers only the command it runs (:data:`COMMAND_HOMES`), and
each command imports what it needs when it runs, so ``literaki check-word kot`` starts fast;
``literaki --help``, a mistyped command and any command missing from the table register all.
"""

from __future__ import annotations

import sys
from importlib import import_module

from literaki_cli.commands import common

#: The command modules, in the order ``literaki --help`` lists their commands.
COMMAND_MODULES = ("lexicon", "check_word", "words", "judge", "score", "solve", "leaves", "anagram", "play", "simulate",
                   "analyze")  # fmt: skip

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
}

_registered: set[str] = set()


def register(modules=COMMAND_MODULES) -> None:
    """Import the command ``modules``, registering their commands, and keep the commands in the
    order of :data:`COMMAND_MODULES` (``--help`` lists them so) whatever was imported first."""
    for module in modules:
        if module not in _registered:
            import_module(f"{__name__}.{module}")
            _registered.add(module)
    order = {f"{__name__}.{module}": number for number, module in enumerate(COMMAND_MODULES)}
    common.app.registered_commands.sort(key=lambda info: order.get(getattr(info.callback, "__module__", ""), 99))


def _command_modules(argv: list[str]) -> tuple[str, ...]:
    """The modules to import for ``argv``: the home of the command it runs (the first word not
    an option), none for a bare ``--version``, else all of them."""
    if argv[:1] == ["--version"]:
        return ()
    for arg in argv:
        if arg == "--":
            break
        if not arg.startswith("-"):
            home = COMMAND_HOMES.get(arg)
            return (home,) if home is not None else COMMAND_MODULES
    return COMMAND_MODULES


def main(argv: list[str] | None = None) -> int:
    """Run the CLI (see :func:`literaki_cli.commands.common.main`), registering only the
    command it runs when the table knows it."""
    register(_command_modules(sys.argv[1:] if argv is None else argv))
    return common.main(argv)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


def __getattr__(name: str):
    if name == "app":  # every command, as --help lists them
        register()
        return common.app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["COMMAND_MODULES", "COMMAND_HOMES", "app", "main", "register", "run"]
