"""``python -m literaki_cli``."""

from literaki_cli.cli import run

run()
