"""The ``literaki`` command line: one small module per command (or closely related pair), each
only parsing its arguments, calling the library and printing.  :mod:`.common` holds the Typer
app, the shared options, the exit codes and :func:`main`.

Importing this package registers every command, in the order ``--help`` lists them; each
command imports what it needs when it runs, so ``literaki check-word kot`` starts fast.
"""

from importlib import import_module

from literaki_cli.commands.common import app, main, run

#: The command modules, in the order ``literaki --help`` lists their commands.
COMMAND_MODULES = ("lexicon", "check_word", "score", "solve", "leaves", "anagram", "play", "simulate", "analyze")

for _module in COMMAND_MODULES:
    import_module(f"{__name__}.{_module}")

__all__ = ["COMMAND_MODULES", "app", "main", "run"]
