"""The ``literaki`` command, kept importable where it used to live (``literaki_cli.cli:main``,
``run``); the commands themselves are in :mod:`literaki_cli.commands`."""

from literaki_cli.commands import app, main, run

__all__ = ["app", "main", "run"]
