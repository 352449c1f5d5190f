"""The Rust core's own checks, run with the suite: formatted (cargo fmt), clippy clean with
warnings as errors (with and without the counters feature), and its unit tests (cargo test)."""

import os
import shutil
import subprocess

import pytest

from tests.conftest import ROOT

CRATE = ROOT / "rust"


def cargo(*args: str) -> subprocess.CompletedProcess:
    # The checkout's target folder: the crates built by the install are reused.
    env = dict(os.environ, CARGO_TARGET_DIR=str(CRATE / "target"))
    return subprocess.run(["cargo", *args], cwd=CRATE, capture_output=True, text=True, timeout=900, env=env)


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("cargo") is None, reason="no cargo on PATH (the Rust toolchain builds the core)"),
]


def test_the_core_is_formatted():
    proc = cargo("fmt", "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("features", [[], ["--features", "counters"]], ids=["default", "counters"])
def test_clippy_finds_nothing(features):
    proc = cargo("clippy", "--release", *features, "--", "-D", "warnings")
    assert proc.returncode == 0, proc.stderr[-4000:]


def test_the_cores_unit_tests_pass():
    proc = cargo("test", "--release")
    assert proc.returncode == 0 and "test result: ok" in proc.stdout, proc.stdout[-4000:] + proc.stderr[-4000:]
