"""Every `literaki` example in README.md and docs/*.md runs as shown, with the exit code the page gives.

The commands are taken from the pages themselves: each line of a ```sh block that calls `literaki`
(also after `|`, `;`, `&&` or `||`; a line ending in `\\` goes on on the next).  Each block is one
test (`README.md:line27`, `docs/solve.md:line4`, ...); its lines run in order, each in bash, in one
fresh temporary directory that holds a copy of the repository's `examples/` (so paths are the ones a
reader uses from the repository root, and a line may use what an earlier line of its block made),
with:

- a small lexicon of real SJP words the examples use, via $LITERAKI_LEXICON, so no real dump is
  needed; `test_example_words_are_real_words` checks the words against the dump when it is present,
  so the examples behave the same with the real list;
- a stand-in for every `sjp-YYYYMMDD.zip` a command names: a games-dump zip (`slowa.txt`, CRLF)
  of the same words, at the path the command gives (`../shared/sjp/...` included);
- $HOME, $TMPDIR and the XDG directories in the temporary directory (build-lexicon without -o
  writes there), so that no example writes outside it and no block sees what another made
  (`test_examples_stay_in_their_directory` checks that no command names a path outside it);
- `--games N` capped at GAMES_CAP, so self-play examples take seconds;
- on stdin, for `play`, the quit command and an empty answer to the offer to save; else nothing.

The expected exit code is 0 unless the line's comment says `exit N`.  Leading `&&` steps that set
up the environment (creating the venv, pip install) are dropped: the test runs inside one.  Lines
that cannot run in a test (the network, a Ray cluster, a server that runs until Ctrl-C, a
full-screen program) are listed in NOT_RUN with the reason; every entry must name a line of a page.

The other tests check the pages around the examples: every command of docs/cli.md's map has an
example on the page the map names, docs/positions.md shows examples/board.txt as it is, and
.ci/run runs the README's test command as the README writes it.
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
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
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
    "rzeka",  # words --pattern '*RZ*' --length 5
    "rzek",  # words --starts rz --ends ek
    "opłatek",  # words --anagram KOTEŁA?
    "przejść",  # words --regex '^(prze|przy).*ść$', words --contains ść
]
# The words the examples show as invalid: not in the real list either.
EXAMPLE_NON_WORDS = ["warszawa", "żółk", "quiz"]

_RAY = "needs a Ray cluster; tests/test_ray.py runs these commands on a loopback-only one"
_SERVER = "a server that runs until Ctrl-C; tests/test_web_api.py starts `literaki serve` and asks it"
_JUDGE = "a full-screen program for a terminal; tests/test_judge.py drives it (Textual's pilot, a pseudo-terminal)"
NOT_RUN = {
    "literaki build-lexicon --download": "downloads the newest dump from sjp.pl (network)",
    "literaki build-lexicon --download --url https://mirror.example/growy/": "a placeholder mirror (network)",
    "literaki simulate --games 200000 --players mistrz,trudny --seed 7 --ray auto --out runs/big": _RAY,
    "literaki simulate --games 200000 --players mistrz,trudny --seed 7 --ray HEAD_IP:6379 --out runs/big": _RAY,
    "literaki simulate --games 200000 --players mistrz,trudny --seed 7 --ray ray://HEAD_IP:10001 --out runs/big": _RAY,
    "literaki simulate --resume runs/big --ray auto": _RAY,
    "literaki leaves train --generations 3 --games 20000 --players mistrz,mistrz --out g3.leaves --ray auto": _RAY,
    "literaki serve": _SERVER,
    "literaki serve examples/game.cgp": _SERVER,
    "literaki serve examples/simulated-game.gcg --turn 12": f"{_SERVER}; tests/test_web_board.py opens the game",
    "literaki serve --port 9000 --no-open": _SERVER,
    "literaki serve --lang en": _SERVER,
    "literaki judge": _JUDGE,
    "literaki judge --lang en --log judge.log": _JUDGE,
    "literaki judge --clear-after 3 --lexicon sjp-20260201.lexicon": _JUDGE,
}
# Steps before `&& literaki ...` that set up what the test already runs in.
SETUP_STEPS = (re.compile(r"python3? -m venv \S+"), re.compile(r"\. \S+/bin/activate"), re.compile(r"pip install "))

_CALLS_LITERAKI = re.compile(r"(?:^|[|;&(!])\s*(?:\w+=\S*\s+)*literaki(?:\s|$)")
_EXIT_IN_COMMENT = re.compile(r"\bexit (\d+)\b")
_DUMP_NAME = re.compile(r"\S*sjp-\d{8}\.zip\b")


@dataclass(frozen=True)
class Example:
    page: str  # README.md, docs/solve.md, ...
    line: int  # 1-based line number in the page
    command: str  # what runs: the line without its comment and setup steps
    exit_code: int


def page_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


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


def example_of(page: str, line_number: int, line: str) -> Example | None:
    """The example on a line of a ```sh block, or None when it does not call `literaki`."""
    code, comment = split_comment(line.strip())
    steps = [step.strip() for step in code.split("&&")]
    first = next((i for i, step in enumerate(steps) if _CALLS_LITERAKI.search(step)), None)
    if first is None:
        return None
    for step in steps[:first]:
        if not any(pattern.match(step) for pattern in SETUP_STEPS):
            raise AssertionError(f"{page}:{line_number}: unknown step before literaki: {step!r}")
    found = _EXIT_IN_COMMENT.search(comment)
    return Example(page, line_number, " && ".join(steps[first:]), int(found.group(1)) if found else 0)


def sh_blocks(text: str, page: str = "README.md") -> list[list[Example]]:
    """The examples of each ```sh block of a page that has any, in page order."""
    blocks: list[list[Example]] = []
    current: list[Example] | None = None
    pending: tuple[int, str] | None = None  # a line continued with `\`: its number and text so far
    for number, line in enumerate(text.splitlines(), start=1):
        fence = line.strip()
        if current is None:
            if fence == "```sh":
                current = []
        elif pending is None and fence.startswith("```"):
            if current:
                blocks.append(current)
            current = None
        else:
            start, so_far = pending if pending else (number, "")
            joined = f"{so_far} {fence}" if so_far else line
            if line.rstrip().endswith("\\") and not split_comment(line.strip())[1]:
                pending = (start, joined.rstrip()[:-1].rstrip())
                continue
            pending = None
            if (example := example_of(page, start, joined)) is not None:
                current.append(example)
    assert current is None and pending is None, f"{page}: a ```sh block is not closed"
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
    """Run one block's examples in order in a fresh directory; the failures, described."""
    workdir = base / "repo"
    shutil.copytree(ROOT / "examples", workdir / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LITERAKI_", "XDG_")) and k != "PYTHONPATH"}
    env |= {
        "LITERAKI_LEXICON": str(lexicon),
        "HOME": str(base / "home"),
        "XDG_DATA_HOME": str(base / "data"),
        "XDG_CONFIG_HOME": str(base / "config"),
        "XDG_CACHE_HOME": str(base / "cache"),
        "XDG_STATE_HOME": str(base / "state"),
        "TMPDIR": str(base / "tmp"),
        "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
        "COLUMNS": "120",
    }
    for folder in ("home", "tmp"):
        (base / folder).mkdir(exist_ok=True)
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
                f"{example.page}:{example.line}: `{command}` exited {done.returncode}, expected {example.exit_code}\n"
                f"{done.stderr.strip()[-800:]}"
            )
    return failures


BLOCKS = [block for page in PAGES for block in sh_blocks(page.read_text(encoding="utf-8"), page_name(page))]
EXAMPLES = [example for block in BLOCKS for example in block]


@pytest.mark.parametrize("examples", BLOCKS, ids=[f"{block[0].page}:line{block[0].line}" for block in BLOCKS])
@pytest.mark.slow
def test_examples_run(examples, example_lexicon, tmp_path):
    """Run with the `literaki` command installed beside the test interpreter.  (The wheel in a
    fresh venv is tests/test_wheel.py's: it would compile the engine a second time, for minutes.)"""
    failures = run_block(examples, tmp_path, example_lexicon, literaki_bin_dir())
    assert not failures, "\n\n".join(failures)


def test_every_section_has_its_examples():
    """The README's tour shows the main commands, and every command of docs/cli.md's map has an
    example on a page the map sends the reader to."""
    readme = [example.command for example in EXAMPLES if example.page == "README.md"]
    for command in ("build-lexicon", "check-word", "score", "show", "solve", "anagram", "simulate", "report", "play"):
        assert any(re.search(rf"(?:^|\| )literaki {command}(?:\s|$)", c) for c in readme), command
    assert len(readme) >= 15

    rows = re.findall(r"^\| (`.+?) \| .+ \| (.+) \|$", (ROOT / "docs" / "cli.md").read_text(encoding="utf-8"), re.M)
    assert len(rows) >= 14, "docs/cli.md: the table of commands was not found"
    for names, links in rows:
        pages = {f"docs/{target}" for target in re.findall(r"\]\(([\w-]+\.md)\)", links)}
        assert pages, f"docs/cli.md: no page for {names}"
        for name in re.findall(r"`([^`]+)`", names):
            first, *options = name.split()
            assert any(
                example.page in pages
                and re.search(rf"\bliteraki {re.escape(first)}(?:\s|$)", example.command)
                and all(option in example.command.split() for option in options)
                for example in EXAMPLES
            ), f"no example of `literaki {name}` in {sorted(pages)}"
    assert len(EXAMPLES) >= 140


def test_not_run_list_matches_the_pages():
    commands = {example.command for example in EXAMPLES}
    assert set(NOT_RUN) <= commands, f"NOT_RUN names lines no longer in the pages: {set(NOT_RUN) - commands}"


def test_examples_stay_in_their_directory():
    """No example names a path outside its directory: no absolute path, no `..` but to the
    stand-in dump (which the test makes inside the temporary directory)."""
    for example in EXAMPLES:
        where = f"{example.page}:{example.line}"
        assert not re.search(r"(?:^|[\s=<>'\"])(?:/|~)", example.command), f"{where}: an absolute path"
        assert not re.search(r"\.\./(?!shared/sjp/sjp-\d{8}\.zip\b)", example.command), f"{where}: a path outside"


def test_positions_page_shows_the_example_board():
    board = (ROOT / "examples" / "board.txt").read_text(encoding="utf-8")
    assert f"```text\n{board}```" in (ROOT / "docs" / "positions.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command():
    """The README's test command (the ```sh block after "Run the tests") is the line CI runs."""
    after = README.read_text(encoding="utf-8").split("Run the tests", 1)[1]
    block = re.search(r"```sh\n(.*?)```", after, re.S)
    assert block, "README.md: no ```sh block after 'Run the tests'"
    lines = [line for line in block.group(1).splitlines() if line.strip()]
    assert len(lines) == 1, f"README.md: the test command is not a single line: {lines}"
    assert lines[0].strip() in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_extraction():
    text = "\n".join(
        [
            "```sh",
            "python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]' && literaki check-word kot",
            "printf 'kot\\n' | literaki check-word -   # stdin",
            "literaki check-word ŻÓŁK '#x'   # exit 1: not a word",
            "python -m pytest -q",
            "# a comment line",
            "literaki solve --batch x.cgp \\",
            "  | jq -c .   # exit 4",
            "cat x.cgp > y.cgp; literaki show y.cgp",
            "```",
            "```text",
            "literaki not-a-command",
            "```",
            "```sh",
            "python benchmarks/bench_solve.py",
            "```",
        ]
    )
    assert sh_blocks(text, "docs/x.md") == [
        [
            Example("docs/x.md", 2, "literaki check-word kot", 0),
            Example("docs/x.md", 3, "printf 'kot\\n' | literaki check-word -", 0),
            Example("docs/x.md", 4, "literaki check-word ŻÓŁK '#x'", 1),
            Example("docs/x.md", 7, "literaki solve --batch x.cgp | jq -c .", 4),
            Example("docs/x.md", 9, "cat x.cgp > y.cgp; literaki show y.cgp", 0),
        ]
    ]
    with pytest.raises(AssertionError, match="unknown step"):
        sh_blocks("```sh\nrm -rf x && literaki show a\n```\n")
    assert sh_blocks("```sh\nliteraki show a\n```\n") == [[Example("README.md", 2, "literaki show a", 0)]]
    assert prepared("literaki simulate --games 1000 --seed 7") == f"literaki simulate --games {GAMES_CAP} --seed 7"


def test_a_broken_example_is_reported(example_lexicon, tmp_path):
    """The runner catches a wrong exit code both ways: an error, and a success the page calls a failure."""
    broken = sh_blocks(
        "```sh\n"
        "literaki score examples/board.txt 8H ŻÓŁW   # h8 already holds Ó\n"
        "literaki check-word kot                    # exit 1\n"
        "literaki check-word kot\n"
        "```\n",
        "docs/broken.md",
    )[0]
    failures = run_block(broken, tmp_path, example_lexicon, literaki_bin_dir())
    assert [f.split(":")[:2] for f in failures] == [["docs/broken.md", "2"], ["docs/broken.md", "3"]]


def test_example_words_are_real_words(sjp_zip):
    with zipfile.ZipFile(sjp_zip) as archive:
        words = set(archive.read("slowa.txt").decode("utf-8").splitlines())
    assert [w for w in EXAMPLE_WORDS if w not in words] == []
    assert [w for w in EXAMPLE_NON_WORDS if w in words] == []
