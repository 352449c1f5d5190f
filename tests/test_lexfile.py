import json
import struct

import numpy as np
import pytest

from literaki_cli.engine import lexfile
from literaki_cli.errors import LexiconError


@pytest.fixture
def container(tmp_path):
    path = tmp_path / "x.lexicon"
    arrays = {"arcs": np.arange(1000, dtype=np.uint32), "extra": np.array([1, 2, 3], dtype=np.int64)}
    lexfile.write_container(path, {"word_count": 7, "name": "żółw"}, arrays)
    return path, arrays


def test_round_trip(container):
    path, arrays = container
    meta, loaded = lexfile.read_container(path)
    assert meta == {"word_count": 7, "name": "żółw"}
    for name, arr in arrays.items():
        assert loaded[name].dtype == arr.dtype
        np.testing.assert_array_equal(loaded[name], arr)
        assert loaded[name].ctypes.data % 8 == 0


def test_no_temporary_files_left(container):
    path, _ = container
    assert [p.name for p in path.parent.iterdir()] == [path.name]


def test_truncated_file_is_reported(container):
    path, _ = container
    data = path.read_bytes()
    for cut in (10, 30, len(data) - 100):
        path.write_bytes(data[:cut])
        with pytest.raises(LexiconError, match="truncated|not a literaki"):
            lexfile.read_container(path)


def test_corrupt_payload_is_reported(container):
    path, _ = container
    data = bytearray(path.read_bytes())
    data[-50] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(LexiconError, match="checksum mismatch in 'arcs'"):
        lexfile.read_container(path)


def test_corrupt_header_is_reported(container):
    path, _ = container
    data = bytearray(path.read_bytes())
    data[30] ^= 0x01
    path.write_bytes(bytes(data))
    with pytest.raises(LexiconError, match="header checksum"):
        lexfile.read_container(path)


def test_wrong_version_and_magic(container):
    path, _ = container
    data = bytearray(path.read_bytes())
    struct.pack_into("<I", data, 8, 99)
    path.write_bytes(bytes(data))
    with pytest.raises(LexiconError, match="format version 99.*rebuild"):
        lexfile.read_container(path)
    path.write_bytes(b"PK\x03\x04" + bytes(100))
    with pytest.raises(LexiconError, match="not a literaki lexicon"):
        lexfile.read_container(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(LexiconError, match="no such file"):
        lexfile.read_container(tmp_path / "nope.lexicon")
    with pytest.raises(LexiconError, match="directory"):
        lexfile.read_container(tmp_path)


def test_interrupted_write_leaves_old_file(tmp_path, monkeypatch):
    path = tmp_path / "x.lexicon"
    lexfile.write_container(path, {"v": 1}, {"a": np.zeros(4, dtype=np.uint32)})
    before = path.read_bytes()

    class Boom(Exception):
        pass

    def explode(*args, **kwargs):
        raise Boom

    monkeypatch.setattr(lexfile.os, "fsync", explode)
    with pytest.raises(Boom):
        lexfile.write_container(path, {"v": 2}, {"a": np.ones(4, dtype=np.uint32)})
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.lexicon"]
    assert json.loads(path.read_bytes()[24 : 24 + struct.unpack_from("<I", before, 12)[0]])["meta"] == {"v": 1}
