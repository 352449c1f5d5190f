"""The package as users get it: built into a wheel, installed in a fresh venv, run from elsewhere.

An editable install reads its data files (variants, levels, locales) from the source tree, so a
file missing from the package data only shows in a real install: `literaki play` once crashed in
every such install because locales/*.toml was not shipped.  Here the `literaki` package comes
only from the wheel; the dependencies come from the test's own environment through a .pth file
(nothing is downloaded), and the commands run in a temporary directory, not the repository.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
PACKAGES = ("literaki_cli", "lexicon_build")
WORDS = ["kot", "koty", "kotła", "żółw", "zerwą", "imion", "pasek", "ruchy", "ala", "ma"]
GRID = ["kotła", "zerwą", "imion", "pasek", "ruchy"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("elsewhere")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LITERAKI_LEXICON", "PYTHONHOME")}
    env["PYTHONNOUSERSITE"] = "1"
    env["COLUMNS"] = "120"
    return env


def _run(bin_dir: Path, cwd: Path, *args: str, stdin: str | None = None):
    return subprocess.run(
        [str(bin_dir / "literaki"), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=_env(),
        timeout=180,
    )


def test_wheel_holds_every_data_file_and_the_license(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    data = [p.relative_to(ROOT).as_posix() for name in PACKAGES for p in (ROOT / name).rglob("*.toml")]
    assert any(d.startswith("literaki_cli/locales/") for d in data)
    data += [p.relative_to(ROOT).as_posix() for p in (ROOT / "literaki_cli" / "web" / "static").iterdir()]  # the page
    missing = [d for d in data if d not in names]
    assert missing == [], f"data files not in the wheel (pyproject package-data): {missing}"
    licenses = [n for n in names if n.endswith("/LICENSE") and ".dist-info/" in n]
    assert licenses, "LICENSE is not in the wheel's dist-info"
    shipped = zipfile.ZipFile(wheel).read(licenses[0]).decode()
    assert shipped == (ROOT / "LICENSE").read_text(encoding="utf-8")
    metadata = zipfile.ZipFile(wheel).read(f"literaki-{VERSION}.dist-info/METADATA").decode()
    assert "License-Expression: MIT" in metadata


def test_installed_package_comes_only_from_the_wheel(install, workdir):
    probe = (
        "import json, sys, literaki_cli, lexicon_build;"
        "print(json.dumps([literaki_cli.__file__, lexicon_build.__file__, sys.path]))"
    )
    out = subprocess.run(
        [str(install / "python"), "-c", probe], cwd=workdir, capture_output=True, text=True, env=_env(), check=True
    ).stdout
    cli_file, build_file, path = json.loads(out)
    env_dir = install.parent.resolve()
    for module_file in (cli_file, build_file):
        assert Path(module_file).resolve().is_relative_to(env_dir), module_file
    assert str(ROOT) not in path and "" not in path[1:]


@pytest.mark.slow
def test_commands_run_from_the_installed_wheel(install, workdir):
    version = _run(install, workdir, "--version")
    assert version.returncode == 0 and version.stdout.strip() == f"literaki {VERSION}"

    (workdir / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    built = _run(install, workdir, "build-lexicon", "words.txt", "-o", "small.lexicon")
    assert built.returncode == 0, built.stderr
    lexicon = ["--lexicon", "small.lexicon"]

    # One run with the JIT on: the kernels compile (and cache) inside the installed package.
    check = _run(install, workdir, "check-word", *lexicon, "kot")
    assert (check.returncode, check.stdout.split()) == (0, ["kot", "valid"]), check.stderr
    check = _run(install, workdir, "check-word", *lexicon, "kot", "kotek")
    assert check.returncode == 1 and check.stdout.split()[:4] == ["kot", "valid", "kotek", "invalid"]

    for lang, quit_command in (("pl", "koniec"), ("en", "quit")):
        texts = tomllib.loads((ROOT / "literaki_cli" / "locales" / f"{lang}.toml").read_text(encoding="utf-8"))
        # quit, then Enter at the offer to save the game (skip it)
        played = _run(install, workdir, "play", *lexicon, "--lang", lang, "--seed", "1", stdin=f"{quit_command}\n\n")
        assert played.returncode == 0, played.stderr
        assert texts["text"]["welcome"].split("(")[0] in played.stdout
        assert texts["text"]["goodbye"] in played.stdout

    simulated = _run(
        install,
        workdir,
        "simulate",
        *lexicon,
        "--games",
        "2",
        "--players",
        "latwy,normalny",
        "--seed",
        "1",
        "--out",
        "sim",
    )
    assert simulated.returncode == 0, simulated.stderr
    games = (workdir / "sim" / "games.csv").read_text(encoding="utf-8").splitlines()
    assert len(games) == 3 and (workdir / "sim" / "report.md").is_file()

    (workdir / "grid.txt").write_text("\n".join(GRID) + "\n", encoding="utf-8")
    anagram = _run(install, workdir, "anagram", *lexicon, "grid.txt", "--json")
    assert anagram.returncode == 0, anagram.stderr
    found = {w["word"].lower() for w in json.loads(anagram.stdout)["words"]}
    assert found == {"kot", "kotła", "zerwą", "imion", "pasek", "ruchy", "ma"}  # m-a: down a column

    # A kurnik/PlayOK record reviewed (README's recipe), with the players' names from the record.
    analyzed = _run(install, workdir, "analyze", *lexicon, str(ROOT / "examples" / "kurnik-game.gcg"), "--json")
    assert analyzed.returncode == 0, analyzed.stderr
    assert [p["player"] for p in json.loads(analyzed.stdout)["players"]] == ["kasia", "tomek"]

    # A move in play (a pass), the computer's reply, then quit without saving.
    played = _run(install, workdir, "play", *lexicon, "--lang", "en", "--seed", "3", stdin="pass\nquit\nn\n")
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    assert "You pass." in played.stdout
    assert re.search(r" (plays .+ for \d+ points|exchanges \d+ tiles|passes)\.", played.stdout), played.stdout[-600:]

    # The endgame search (its own package): with these few words neither player can move, so
    # both pass until the game ends and each loses their own tiles.
    (workdir / "endgame.cgp").write_text((ROOT / "examples" / "endgame.cgp").read_text(encoding="utf-8"),
                                         encoding="utf-8")  # fmt: skip
    endgame = _run(install, workdir, "solve", *lexicon, "endgame.cgp", "--endgame", "--json")
    assert endgame.returncode == 0, endgame.stderr
    result = json.loads(endgame.stdout)["endgame"]
    assert result["exact"] and result["ended_by"] == "passes" and [m["word"] for m in result["pv"]] == ["-"] * 4
