"""``python -m literaki_cli``."""

from literaki_cli.commands import run

run()
