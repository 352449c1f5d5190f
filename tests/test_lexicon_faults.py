"""A lexicon file whose header lies: every field is checked against the arrays before a kernel
runs, so a crafted or damaged file ends in one clear line and exit 2, never a crash or a hang."""

from __future__ import annotations

import copy
import json
import os
import struct
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.analysis.wordcheck import ExtensionFinder
from literaki_cli.engine import lexfile
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.errors import LexiconError

PREFIX = struct.Struct("<8sIIII")  # magic, version, header length, header CRC-32, reserved


@pytest.fixture(scope="module")
def roomy_lexicon(small_lexicon, tmp_path_factory) -> Path:
    """The small lexicon rewritten with room in its header, so a mutated header fits in place."""
    meta, arrays = lexfile.read_container(small_lexicon)
    path = tmp_path_factory.mktemp("roomy") / "roomy.lexicon"
    lexfile.write_container(path, {**meta, "padding": " " * 4000}, {name: np.array(a) for name, a in arrays.items()})
    return path


def parse_header(data: bytes) -> dict:
    _, _, length, _, _ = PREFIX.unpack_from(data, 0)
    return json.loads(data[PREFIX.size : PREFIX.size + length])


def with_header(data: bytes, header: dict) -> bytes:
    """``data`` with its header replaced by ``header`` (same room, valid header checksum)."""
    _, version, length, _, reserved = PREFIX.unpack_from(data, 0)
    header.get("meta", {}).pop("padding", None) if isinstance(header.get("meta"), dict) else None
    text = json.dumps(header, ensure_ascii=False).encode()
    assert len(text) <= length, "the mutated header must fit the room of the original"
    text = text.ljust(length)
    return PREFIX.pack(b"LITRKLEX", version, length, zlib.crc32(text), reserved) + text + data[PREFIX.size + length :]


def mutated(data: bytes, path: tuple, value=None, delete: bool = False) -> bytes:
    header = copy.deepcopy(parse_header(data))
    node = header
    for key in path[:-1]:
        node = node[key]
    if delete:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return with_header(data, header)


def exercise(path: Path) -> None:
    """What commands do with a lexicon: open it, look words up (interpreted and compiled),
    list its words and build the extension finder of check-word --extensions."""
    lex = Lexicon.open(path)
    lex.words.lookup(["kot", "żółw"])
    lex.popular.lookup(["kot"] * 300)
    lex.words.text()
    lex.popular.text()
    ExtensionFinder.of(lex.words)
    json.dumps(lex.meta, allow_nan=False)


# Fields of the header, and values a damaged or crafted file may hold there.
FIELDS = [
    ("meta", "word_count"),
    ("meta", "max_length"),
    ("meta", "min_length"),
    ("meta", "popular", "word_count"),
    ("meta", "popular", "zipf_threshold"),
    ("meta", "graph", "roots", "all"),
    ("meta", "graph", "roots", "popular"),
    ("meta", "graph", "roots", "gaddag"),
    ("meta", "source"),
    ("meta", "source", "name"),
    ("meta", "letters"),
    ("meta", "graph"),
    ("meta",),
    ("arrays",),
    ("arrays", "arcs"),
    ("arrays", "arcs", "dtype"),
    ("arrays", "arcs", "offset"),
    ("arrays", "arcs", "length"),
    ("arrays", "arcs", "crc32"),
]
VALUES = st.one_of(
    st.integers(min_value=-(2**40), max_value=2**40),
    st.integers(min_value=-3, max_value=40),
    st.sampled_from(["<u4", "<i8", "|u1", ">u4", "O", "<U4", "float", "", "kot"]),
    st.text(max_size=5),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=st.sampled_from(FIELDS), value=VALUES, delete=st.booleans())
def test_any_mutated_header_opens_or_is_a_lexicon_error(roomy_lexicon, tmp_path, field, value, delete):
    target = tmp_path / "mutated.lexicon"
    target.write_bytes(mutated(roomy_lexicon.read_bytes(), field, value, delete))
    try:
        exercise(target)
    except LexiconError as exc:
        assert str(exc).startswith(str(target)) or "corrupt lexicon file" in str(exc)


CRASHERS = {
    # The SIGSEGV of issue 12: the enumeration buffer of --extensions is sized from the counts.
    "word_count=1": {("meta", "word_count"): 1, ("meta", "popular", "word_count"): 0},
    "max_length=1e12": {("meta", "max_length"): 10**12},
    "root=1e9": {("meta", "graph", "roots", "all"): 10**9},
    "offset=-8": {("arrays", "arcs", "offset"): -8},
    "length=-1": {("arrays", "arcs", "length"): -1},
    "dtype=O": {("arrays", "arcs", "dtype"): "O"},
}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "import sys; from literaki_cli.cli import main; sys.exit(main())", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("changes", CRASHERS.values(), ids=CRASHERS.keys())
def test_crafted_header_is_exit_2_in_a_real_process(roomy_lexicon, tmp_path, changes):
    data = roomy_lexicon.read_bytes()
    for field, value in changes.items():
        data = mutated(data, field, value)
    target = tmp_path / "crafted.lexicon"
    target.write_bytes(data)
    result = run_cli("check-word", "--extensions", "--lexicon", str(target), "kot")
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert "corrupt lexicon file" in result.stderr


def test_missing_source_is_named(roomy_lexicon, tmp_path):
    target = tmp_path / "nosource.lexicon"
    target.write_bytes(mutated(roomy_lexicon.read_bytes(), ("meta", "source"), delete=True))
    result = run_cli("lexicon-info", "--lexicon", str(target))
    assert result.returncode == 2
    assert result.stderr.strip().endswith("metadata lacks source.name")


def test_nan_in_a_header_is_refused(roomy_lexicon, tmp_path):
    data = roomy_lexicon.read_bytes()
    header = parse_header(data)
    text = json.dumps(header).replace('"zipf_threshold": 2.5', '"zipf_threshold": NaN')
    assert "NaN" in text
    target = tmp_path / "nan.lexicon"
    target.write_bytes(with_header(data, json.loads(text)))
    with pytest.raises(LexiconError, match="unreadable header"):
        Lexicon.open(target)


def test_fifo_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "lexicon.fifo"
    os.mkfifo(fifo)
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(pytest.raises(LexiconError, Lexicon.open, fifo)))
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader before failing
        with open(fifo, "wb"):
            pass
        pytest.fail("opening a FIFO as the lexicon hangs")
    assert "lexicon.fifo: a pipe, not a lexicon file" in str(outcome[0].value)


def test_garbage_with_a_huge_header_length_is_refused(tmp_path):
    garbage = tmp_path / "garbage.lexicon"
    garbage.write_bytes(PREFIX.pack(b"LITRKLEX", lexfile.FORMAT_VERSION, 2**31, 0, 0) + os.urandom(4096))
    with pytest.raises(LexiconError, match="truncated|corrupt"):
        Lexicon.open(garbage)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda arcs: arcs.__setitem__(5, (arcs[5] & ~np.uint32(0xFFFFFF)) | np.uint32(0xFFFFF0)), "outside the graph"),
        (lambda arcs: arcs.__setitem__(-1, arcs[-1] & ~np.uint32(1 << 24)), "does not end"),
        (lambda arcs: arcs.__setitem__(3, arcs[3] | np.uint32(63 << 26)), "unknown letter"),
    ],
    ids=["target", "end-bit", "letter"],
)
def test_arcs_that_would_lead_a_kernel_outside_are_refused(small_lexicon, tmp_path, change, message):
    meta, arrays = lexfile.read_container(small_lexicon)
    arcs = np.array(arrays["arcs"])
    change(arcs)
    target = tmp_path / "arcs.lexicon"
    lexfile.write_container(target, meta, {"arcs": arcs})  # checksums recomputed: only the checks stand
    with pytest.raises(LexiconError, match=message):
        Lexicon.open(target)
