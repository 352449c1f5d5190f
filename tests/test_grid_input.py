"""Grid files and stdin for `anagram` are decoded like every text input (BOM, Windows-1250)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from literaki_cli.analysis.anagram import MAX_GRID_BYTES, grid_text
from literaki_cli.errors import InputError

GRID = "kotła\nzerwą\nimion\npasek\nruchy\n"


@pytest.mark.parametrize(
    "data", [GRID.encode(), b"\xef\xbb\xbf" + GRID.encode(), GRID.replace("\n", "\r\n").encode("cp1250")]
)
def test_grid_files_in_every_encoding(tmp_path, data):
    path = tmp_path / "grid.txt"
    path.write_bytes(data)
    text, source = grid_text([str(path)])
    assert source == str(path)
    assert text.split() == GRID.split()


def test_grid_from_stdin_bytes_and_limits(tmp_path):
    code = "from literaki_cli.analysis.anagram import grid_text; print(grid_text(['-'])[0].split())"
    done = subprocess.run([sys.executable, "-c", code], input=GRID.encode("cp1250"), capture_output=True, check=True)
    assert done.stdout.decode().strip() == str(GRID.split())
    big = tmp_path / "big.txt"
    big.write_bytes(b"a" * (MAX_GRID_BYTES + 1))
    with pytest.raises(InputError, match="not a letter grid"):
        grid_text([str(big)])
    assert grid_text(["-"], io.StringIO(GRID))[0] == GRID
