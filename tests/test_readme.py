"""Every `literaki` example in README.md runs as shown, with the exit code the README gives.

The commands are taken from README.md itself: each line of a ```sh block that calls `literaki`
(also after `|` or `&&`).  A line runs in bash, in a fresh temporary directory that holds a copy
of the repository's `examples/` (so paths are the ones a reader uses from the repository root),
with:

- a small lexicon of real SJP words the examples use, via $LITERAKI_LEXICON, so no real dump is
  needed; `test_example_words_are_real_words` checks the words against the dump when it is present,
  so the examples behave the same with the real list;
- a stand-in for every `sjp-YYYYMMDD.zip` a command names: a games-dump zip (`slowa.txt`, CRLF)
  of the same words, at the path the command gives (`../shared/sjp/...` included);
- $XDG_DATA_HOME in the temporary directory (build-lexicon without -o writes there);
- `--games N` capped at GAMES_CAP, so self-play examples take seconds;
- on stdin, for `play`, the quit command and an empty answer to the offer to save; else nothing.

The expected exit code is 0 unless the line's comment says `exit N`.  Leading `&&` steps that set
up the environment (creating the venv, pip install) are dropped: the test runs inside one.  Lines
that need the network are listed in NOT_RUN with the reason; the list must match the README.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

README = ROOT / "README.md"
GAMES_CAP = 2
TIMEOUT = 300

# The words the examples use (each in the SJP games list), and a few common ones so that
# self-play games have moves to make.
EXAMPLE_WORDS = [
    "żółw",
    "żółwia",
    "zażółć",
    "źdźbło",
    "kot",
    "kota",
    "koty",
    "kotła",
    "ósmy",  # check-word, score, solve
    "zerwą",
    "imion",
    "pasek",
    "ruchy",
    "ma",  # the 5x5 grid
    "za",
    "guz",  # examples/saved-game.gcg
    "zjeżą",  # score examples/simulated-game.gcg --turn 12
    "na",
    "to",
    "nie",
    "tak",
    "ale",
    "oko",
    "osa",
    "pas",
    "rak",
    "sok",
    "tam",
    "las",
    "kos",
    "nos",
    "wata",
    "lato",
    "kawa",
]
# The words the examples show as invalid: not in the real list either.
EXAMPLE_NON_WORDS = ["warszawa", "żółk"]

_RAY = "needs a Ray cluster; tests/test_ray.py runs these commands on a loopback-only one"
NOT_RUN = {
    "literaki build-lexicon --download": "downloads the newest dump from sjp.pl (network)",
    "literaki simulate --games 200000 --players mistrz,trudny --seed 7 --ray auto --out runs/big": _RAY,
    "literaki simulate --resume runs/big --ray auto": _RAY,
    "literaki leaves train --generations 3 --games 20000 --out g3.leaves --ray auto": _RAY,
    "literaki build-lexicon --download --url https://mirror.example/growy/": "a placeholder mirror (network)",
    "literaki serve examples/game.cgp": "a server that runs until Ctrl-C; tests/test_web_api.py starts it and asks it",
    "literaki serve examples/simulated-game.gcg --turn 12": "a server that runs until Ctrl-C; tests/test_web_board.py "
    "opens the game on the page",
}
# Steps before `&& literaki ...` that set up what the test already runs in.
SETUP_STEPS = (re.compile(r"python3? -m venv \S+"), re.compile(r"\. \S+/bin/activate"), re.compile(r"pip install "))

_CALLS_LITERAKI = re.compile(r"(?:^|\|)\s*(?:\w+=\S*\s+)*literaki(?:\s|$)")
_EXIT_IN_COMMENT = re.compile(r"\bexit (\d+)\b")
_DUMP_NAME = re.compile(r"\S*sjp-\d{8}\.zip\b")


@dataclass(frozen=True)
class Example:
    line: int  # 1-based line number in README.md
    command: str  # what runs: the line without its comment and setup steps
    exit_code: int


def split_comment(line: str) -> tuple[str, str]:
    """The code and the comment of a shell line (a `#` that starts a word, outside quotes)."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1 :].strip()
    return line.rstrip(), ""


def example_of(line_number: int, line: str) -> Example | None:
    """The example on a line of a ```sh block, or None when it does not call `literaki`."""
    code, comment = split_comment(line.strip())
    steps = [step.strip() for step in code.split("&&")]
    first = next((i for i, step in enumerate(steps) if _CALLS_LITERAKI.search(step)), None)
    if first is None:
        return None
    for step in steps[:first]:
        if not any(pattern.match(step) for pattern in SETUP_STEPS):
            raise AssertionError(f"README.md:{line_number}: unknown step before literaki: {step!r}")
    found = _EXIT_IN_COMMENT.search(comment)
    return Example(line_number, " && ".join(steps[first:]), int(found.group(1)) if found else 0)


def readme_blocks(text: str) -> list[list[Example]]:
    """The examples of each ```sh block that has any, in README order."""
    blocks: list[list[Example]] = []
    current: list[Example] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = line.strip()
        if current is None:
            if fence == "```sh":
                current = []
        elif fence.startswith("```"):
            if current:
                blocks.append(current)
            current = None
        elif (example := example_of(number, line)) is not None:
            current.append(example)
    assert current is None, "README.md: a ```sh block is not closed"
    return blocks


def prepared(command: str) -> str:
    """The command as the test runs it: game counts capped."""
    return re.sub(r"--games (\d+)", lambda m: f"--games {min(int(m.group(1)), GAMES_CAP)}", command)


def stdin_for(command: str) -> str:
    if re.search(r"\bliteraki play\b", command):
        quit_command = "quit" if "--lang en" in command else "koniec"
        return f"{quit_command}\n\n"  # quit, then Enter: do not save
    return ""


def literaki_bin_dir() -> Path:
    """The directory of the `literaki` command of the interpreter running the tests."""
    beside = Path(sys.executable).parent / "literaki"
    found = beside if beside.exists() else shutil.which("literaki")
    assert found, "no `literaki` command installed beside the test interpreter"
    return Path(found).parent


@pytest.fixture(scope="module")
def example_lexicon(tmp_path_factory, variant) -> Path:
    from lexicon_build.build import build_lexicon

    folder = tmp_path_factory.mktemp("readme-lexicon")
    (folder / "words.txt").write_text("\n".join(EXAMPLE_WORDS) + "\n", encoding="utf-8")
    return build_lexicon(folder / "words.txt", folder / "examples.lexicon", variant).output


def stand_in_dump() -> bytes:
    """A games-dump zip (slowa.txt, CRLF, UTF-8) holding the example words."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("slowa.txt", "\r\n".join(EXAMPLE_WORDS) + "\r\n")
    return buffer.getvalue()


def run_block(examples: list[Example], base: Path, lexicon: Path, bin_dir: Path) -> list[str]:
    """Run one README block's examples in order in a fresh directory; the failures, described."""
    workdir = base / "repo"
    shutil.copytree(ROOT / "examples", workdir / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("LITERAKI_") and k != "PYTHONPATH"}
    env |= {
        "LITERAKI_LEXICON": str(lexicon),
        "XDG_DATA_HOME": str(base / "data"),
        "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        "COLUMNS": "120",
    }
    failures = []
    for example in examples:
        if example.command in NOT_RUN:
            continue
        command = prepared(example.command)
        for name in _DUMP_NAME.findall(command):
            dump = (workdir / name).resolve()
            dump.parent.mkdir(parents=True, exist_ok=True)
            dump.write_bytes(stand_in_dump())
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail\n{command}"],
            cwd=workdir,
            env=env,
            input=stdin_for(command),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )
        crashed = "Traceback" in done.stderr or "internal error" in done.stderr
        if done.returncode != example.exit_code or crashed:
            failures.append(
                f"README.md:{example.line}: `{command}` exited {done.returncode}, expected {example.exit_code}\n"
                f"{done.stderr.strip()[-800:]}"
            )
    return failures


BLOCKS = readme_blocks(README.read_text(encoding="utf-8"))


@pytest.mark.parametrize("examples", BLOCKS, ids=[f"line{block[0].line}" for block in BLOCKS])
def test_readme_examples_run(examples, example_lexicon, tmp_path, install):
    """Run with the `literaki` of a wheel installed in a fresh venv, as a user gets it."""
    failures = run_block(examples, tmp_path, example_lexicon, install)
    assert not failures, "\n\n".join(failures)


def test_every_section_has_its_examples():
    commands = [example.command for block in BLOCKS for example in block]
    for command in ("build-lexicon", "check-word", "score", "show", "solve", "anagram", "simulate", "report", "play"):
        assert any(c.startswith(f"literaki {command} ") or c == f"literaki {command}" for c in commands), command
    assert len(commands) >= 35


def test_not_run_list_matches_the_readme():
    commands = {example.command for block in BLOCKS for example in block}
    assert set(NOT_RUN) <= commands, f"NOT_RUN names lines no longer in README.md: {set(NOT_RUN) - commands}"


def test_readme_shows_the_example_board():
    board = (ROOT / "examples" / "board.txt").read_text(encoding="utf-8")
    assert f"```text\n{board}```" in README.read_text(encoding="utf-8")


def test_extraction():
    text = "\n".join(
        [
            "```sh",
            "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' && literaki check-word kot",
            "printf 'kot\\n' | literaki check-word -   # stdin",
            "literaki check-word ŻÓŁK '#x'   # exit 1: not a word",
            "python -m pytest -q",
            "# a comment line",
            "```",
            "```text",
            "literaki not-a-command",
            "```",
            "```sh",
            "python benchmarks/bench_solve.py",
            "```",
        ]
    )
    assert readme_blocks(text) == [
        [
            Example(2, "literaki check-word kot", 0),
            Example(3, "printf 'kot\\n' | literaki check-word -", 0),
            Example(4, "literaki check-word ŻÓŁK '#x'", 1),
        ]
    ]
    with pytest.raises(AssertionError, match="unknown step"):
        readme_blocks("```sh\nrm -rf x && literaki show a\n```\n")
    assert prepared("literaki simulate --games 1000 --seed 7") == f"literaki simulate --games {GAMES_CAP} --seed 7"


def test_a_broken_example_is_reported(example_lexicon, tmp_path):
    """The runner catches a wrong exit code both ways: an error, and a success the README calls a failure."""
    broken = readme_blocks(
        "```sh\n"
        "literaki score examples/board.txt 8H ŻÓŁW   # h8 already holds Ó\n"
        "literaki check-word kot                    # exit 1\n"
        "literaki check-word kot\n"
        "```\n"
    )[0]
    failures = run_block(broken, tmp_path, example_lexicon, literaki_bin_dir())
    assert [f.split(":")[1] for f in failures] == ["2", "3"]


def test_example_words_are_real_words(sjp_zip):
    with zipfile.ZipFile(sjp_zip) as archive:
        words = set(archive.read("slowa.txt").decode("utf-8").splitlines())
    assert [w for w in EXAMPLE_WORDS if w not in words] == []
    assert [w for w in EXAMPLE_NON_WORDS if w in words] == []
