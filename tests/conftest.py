"""Shared fixtures: small word lists made here, and the real SJP dump when it is present."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import signal
import site
import subprocess
import sys
import sysconfig
import venv
from contextlib import contextmanager
from pathlib import Path

import pytest

from literaki_cli.engine.variant import load_variant

ROOT = Path(__file__).resolve().parent.parent
SJP_ZIP = Path(os.environ.get("LITERAKI_SJP_ZIP", ROOT.parent / "shared" / "sjp" / "sjp-20260201.zip"))
SJP_WORD_COUNT = 3_249_383

# A small games-list-like sample: valid words, words to drop, and duplicates.
SMALL_WORDS = [
    "aa",
    "ad",
    "ala",
    "alę",
    "bąk",
    "bąki",
    "bąków",
    "być",
    "gęślą",
    "jaźń",
    "kot",
    "kota",
    "kotów",
    "pchnąć",
    "zażółcić",
    "zażółć",
    "żółw",
    "żółwie",
    "źdźbło",
    "ósmy",
]
DROPPED_WORDS = ["quiz", "veto", "taxi", "a", "x", "abcdefghijklmnop"]


@pytest.fixture(scope="session")
def variant():
    return load_variant()


@pytest.fixture(scope="session")
def sjp_zip() -> Path:
    if not SJP_ZIP.is_file():
        pytest.skip(f"real SJP dump not found at {SJP_ZIP} (a fresh clone has no ../shared); CI provides it")
    return SJP_ZIP


@pytest.fixture(scope="session")
def small_list_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("lists") / "slowa.txt"
    path.write_bytes("\r\n".join(SMALL_WORDS + DROPPED_WORDS + ["kot"]).encode() + b"\r\n")
    return path


@pytest.fixture(scope="session")
def small_lexicon(tmp_path_factory, small_list_file, variant) -> Path:
    from lexicon_build.build import build_lexicon

    out = tmp_path_factory.mktemp("lex") / "small.lexicon"
    build_lexicon(small_list_file, out, variant)
    return out


def shared_once(tmp_path_factory, name: str, make):
    """``make(folder)``'s result, made once per test session even when pytest-xdist runs the
    suite in several worker processes: the first worker to ask makes it in a folder of the
    session's base temporary directory (which the workers share) under a file lock, and the
    others read the pickled result.  Without xdist it is an ordinary session fixture's body."""
    import pickle

    from filelock import FileLock

    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        return make(tmp_path_factory.mktemp(name))
    root = tmp_path_factory.getbasetemp().parent  # the base of every worker's temporary directory
    folder, result = root / name, root / f"{name}.pickle"
    with FileLock(str(root / f"{name}.lock")):
        if not result.exists():
            folder.mkdir(exist_ok=True)
            made = make(folder)
            result.write_bytes(pickle.dumps(made))
            return made
    return pickle.loads(result.read_bytes())


@pytest.fixture(scope="session")
def sjp_build(tmp_path_factory, sjp_zip, variant):
    """The real dump compiled once per test session (about 45 s), whatever the number of workers."""
    from lexicon_build.build import build_lexicon

    return shared_once(tmp_path_factory, "sjp", lambda folder: build_lexicon(sjp_zip, folder / "sjp.lexicon", variant))


@pytest.fixture(scope="session")
def sjp_lexicon(sjp_build):
    from literaki_cli.engine.lexicon import Lexicon

    return Lexicon.open(sjp_build.output)


@pytest.fixture(scope="session")
def flowing_lexicon(tmp_path_factory, variant):
    """Every 2-letter string and the 3-letter strings of common letters: a lexicon in which
    games flow and end, built in a second (no SJP needed)."""
    import itertools

    from lexicon_build.build import build_lexicon
    from literaki_cli.engine import alphabet
    from literaki_cli.engine.lexicon import Lexicon

    common = "aeiouyznrstwkcdlpm"
    words = {a + b for a in alphabet.POLISH_LETTERS for b in alphabet.POLISH_LETTERS}
    words |= {"".join(t) for t in itertools.product(common, repeat=3)}
    folder = tmp_path_factory.mktemp("flowing")
    (folder / "w.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    return Lexicon.open(build_lexicon(folder / "w.txt", folder / "f.lexicon", variant).output)


# --------------------------------------------------------------------------- shared helpers
@contextmanager
def time_limit(seconds: int):
    """Fail (instead of hanging the suite) when the block runs longer than ``seconds``: a guard
    against a hang (a FIFO read, a quadratic loop), never a timed assert on the work."""

    def expired(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


#: Computer levels for self-play tests over the flowing lexicon (every word is "all" vocabulary),
#: ranking by score alone (tests of leave values bring their own leave files).
TEST_LEVELS = """
[mistrz]
vocabulary = "all"
quantile = [0, 0]
exchange_below = 3
keep = "aeio"
keep_max = 2
leaves = "none"

[slaby]
vocabulary = "all"
quantile = [1.2, 2.5]
exchange_below = 0
leaves = "none"
"""


@pytest.fixture(scope="module")
def game_lexicon(flowing_lexicon, tmp_path_factory):
    """The flowing lexicon and a levels file of TEST_LEVELS."""
    levels = tmp_path_factory.mktemp("levels") / "levels.toml"
    levels.write_text(TEST_LEVELS, encoding="utf-8")
    return flowing_lexicon, levels


@pytest.fixture
def env_lexicon(monkeypatch, small_lexicon, tmp_path):
    """The small lexicon as $LITERAKI_LEXICON, and a private data directory."""
    monkeypatch.setenv("LITERAKI_LEXICON", str(small_lexicon))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return small_lexicon


def run_cli(capsys, *args):
    """``literaki ARGS`` in this process: (exit code, stdout, stderr)."""
    from literaki_cli.cli import main

    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


class Script:
    """Feeds lines to a play session like a keyboard; an exception in the list is raised
    instead (KeyboardInterrupt = Ctrl-C); EOF when the script ends."""

    def __init__(self, *lines):
        self.lines = list(lines)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, BaseException) or (isinstance(line, type) and issubclass(line, BaseException)):
            raise line
        return line


# --------------------------------------------------------------------------- the package as a wheel
# Built once per session and installed in a fresh venv (test_wheel.py, test_readme.py): the
# `literaki` package comes only from the wheel, its dependencies from this environment.


def _maturin_can_build() -> bool:
    """True when this environment has the build backend (so the wheel builds offline, without isolation)."""
    try:
        major, minor = (int(part) for part in importlib.metadata.version("maturin").split(".")[:2])
    except importlib.metadata.PackageNotFoundError:
        return False
    return (major, minor) >= (1, 9)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the sources (the build writes build/ and egg-info there),
    once per session whatever the number of xdist workers."""
    return shared_once(tmp_path_factory, "wheel", _build_wheel)


def _build_wheel(work: Path) -> Path:
    src = work / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc", "*.pyc", "*.so", "target")
    for name in ("literaki_cli", "lexicon_build", "rust"):
        shutil.copytree(ROOT / name, src / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    isolation = ["--no-build-isolation"] if _maturin_can_build() else []
    out = work / "dist"
    # The checkout's cargo target folder: the crates it depends on are built already (by the
    # editable install), so only the core itself is compiled again.
    env = dict(os.environ, CARGO_TARGET_DIR=str(ROOT / "rust" / "target"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "--quiet", "-w", str(out), str(src)],
        check=True,
        timeout=900,
        env=env,
    )
    (built,) = out.glob("literaki-*.whl")
    return built


@pytest.fixture(scope="session")
def install(wheel, tmp_path_factory) -> Path:
    """A fresh venv holding the wheel (one per session, shared by the xdist workers); returns its
    bin directory."""
    return shared_once(tmp_path_factory, "venv", lambda folder: _install_wheel(wheel, folder / "venv"))


def _install_wheel(wheel: Path, env_dir: Path) -> Path:
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        timeout=300,
    )
    # The dependencies: this environment's site-packages, appended as plain paths.  A path line in a
    # .pth file does not run the .pth files inside it, so the editable install's import hook there
    # stays inactive and `literaki_cli` can only come from the wheel.
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    ours = [p for p in sorted(ours) if Path(p).is_dir() and Path(p).resolve() != ROOT]
    (Path(purelib) / "literaki-test-deps.pth").write_text("\n".join(ours) + "\n", encoding="utf-8")
    return env_dir / "bin"
