"""Every command's --help shows examples (issue 12, help pages)."""

from __future__ import annotations

import pytest
import typer

from literaki_cli.commands import app
from tests.conftest import run_cli

COMMANDS = sorted(typer.main.get_command(app).commands)


def test_every_command_is_listed():
    assert {"build-lexicon", "lexicon-info", "check-word", "show", "score", "solve", "anagram", "play", "simulate",
            "report", "leaves", "analyze"} <= set(COMMANDS)  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_help_has_examples(command, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_cli(capsys, command, "--help")
    assert code == 0
    examples = out[out.index("Examples") :]
    assert f"literaki {command}" in examples
