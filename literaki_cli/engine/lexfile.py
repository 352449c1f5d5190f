"""The binary container of a lexicon file: metadata plus named flat arrays, memory-mapped.

Layout (little endian)::

    offset 0   8 bytes  magic  b"LITRKLEX"
           8   u32      format version
          12   u32      header length H (bytes of UTF-8 JSON)
          16   u32      CRC-32 of the header JSON
          20   u32      reserved (0)
          24   H bytes  header JSON, then zero padding to a multiple of 8
                        then each array, 8-byte aligned, at the offset the header names

The header JSON holds the metadata (``meta``) and, per array, its dtype, offset, length and
CRC-32.  Loading maps the file and checks sizes and checksums, so a truncated or corrupt
file is reported, never half-used.  Writing goes to a temporary file that is renamed into
place, so an interrupted build leaves nothing half-written.
"""

from __future__ import annotations

import json
import mmap
import os
import struct
import tempfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from literaki_cli.errors import LexiconError

MAGIC = b"LITRKLEX"
FORMAT_VERSION = 2
_PREFIX = struct.Struct("<8sIIII")
_ALIGN = 8


def _aligned(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


def write_container(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> int:
    """Write ``meta`` and ``arrays`` atomically to ``path``; returns the file size in bytes."""
    path = Path(path)
    arrays = {name: np.ascontiguousarray(a) for name, a in arrays.items()}
    # Offsets depend on the header length, which depends on the offsets' digits: iterate.
    header_len = 0
    while True:
        offset = _aligned(_PREFIX.size + header_len)
        table = {}
        for name, arr in arrays.items():
            table[name] = {
                "dtype": arr.dtype.str,
                "offset": offset,
                "length": int(arr.size),
                "crc32": zlib.crc32(arr.data),
            }
            offset = _aligned(offset + arr.nbytes)
        header = json.dumps({"meta": meta, "arrays": table}, ensure_ascii=False, sort_keys=True).encode()
        if len(header) == header_len:
            break
        header_len = len(header)

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_PREFIX.pack(MAGIC, FORMAT_VERSION, len(header), zlib.crc32(header), 0))
            out.write(header)
            for name, arr in arrays.items():
                out.write(b"\0" * (table[name]["offset"] - out.tell()))
                out.write(arr.data)
            out.write(b"\0" * (_aligned(out.tell()) - out.tell()))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return path.stat().st_size


def read_container(path: Path, verify: bool = True) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Map a container file; returns (meta, arrays).  Raises :class:`LexiconError` when unusable."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < _PREFIX.size:
                raise LexiconError(f"{path}: not a literaki lexicon file (only {size} bytes)")
            buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except FileNotFoundError:
        raise LexiconError(f"{path}: lexicon file not found") from None
    except IsADirectoryError:
        raise LexiconError(f"{path}: is a directory, not a lexicon file") from None
    except PermissionError:
        raise LexiconError(f"{path}: permission denied") from None
    magic, version, header_len, header_crc, _ = _PREFIX.unpack_from(buf, 0)
    if magic != MAGIC:
        raise LexiconError(f"{path}: not a literaki lexicon file (bad magic number)")
    if version != FORMAT_VERSION:
        raise LexiconError(
            f"{path}: lexicon format version {version}, this literaki reads version "
            f"{FORMAT_VERSION}; rebuild it with 'literaki build-lexicon'"
        )
    if _PREFIX.size + header_len > size:
        raise LexiconError(f"{path}: truncated lexicon file (header cut short)")
    header = bytes(buf[_PREFIX.size : _PREFIX.size + header_len])
    if zlib.crc32(header) != header_crc:
        raise LexiconError(f"{path}: corrupt lexicon file (header checksum mismatch)")
    try:
        parsed = json.loads(header)
        meta, table = parsed["meta"], parsed["arrays"]
    except (ValueError, KeyError, TypeError):
        raise LexiconError(f"{path}: corrupt lexicon file (unreadable header)") from None
    arrays = {}
    for name, spec in table.items():
        dtype = np.dtype(spec["dtype"])
        offset, length = int(spec["offset"]), int(spec["length"])
        if offset + length * dtype.itemsize > size:
            raise LexiconError(f"{path}: truncated lexicon file (array {name!r} cut short)")
        arr = np.frombuffer(buf, dtype=dtype, count=length, offset=offset)
        if verify and zlib.crc32(arr.data) != spec["crc32"]:
            raise LexiconError(f"{path}: corrupt lexicon file (checksum mismatch in {name!r})")
        arrays[name] = arr
    return meta, arrays
