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
file is reported, never half-used.  Writing goes to a locked temporary file that is renamed
into place, so an interrupted build leaves nothing half-written, and the next write removes
the temporary files of writes that were killed (their lock died with them).
"""

from __future__ import annotations

import errno
import json
import mmap
import os
import re
import struct
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from literaki_cli.errors import LexiconError, said
from literaki_cli.inputs import dumps_json, open_input

try:
    import fcntl
except ImportError:  # Windows: abandoned temporary files are recognised by their age instead
    fcntl = None  # type: ignore[assignment]

MAGIC = b"LITRKLEX"
FORMAT_VERSION = 2
_PREFIX = struct.Struct("<8sIIII")
_ALIGN = 8


def _aligned(n: int) -> int:
    return (n + _ALIGN - 1) // _ALIGN * _ALIGN


#: A temporary file is named ``<name>.<8 random characters>.tmp`` beside its target (the name
#: cut so the temporary name stays within the 255-byte limit of file systems).
_TEMP_SUFFIX = ".tmp"
_TEMP_RANDOM = re.compile(r"[A-Za-z0-9_]{8}")


def _temp_prefix(path: Path) -> str:
    return path.name[:200] + "."


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _lock(fd: int) -> None:
    """Mark a temporary file as in use: the lock dies with its process, however it ends."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _is_abandoned(candidate: Path) -> bool:
    """Whether no living process holds ``candidate`` (a temporary file of ours)."""
    if fcntl is None:
        return time.time() - candidate.stat().st_mtime > 3600
    fd = os.open(candidate, os.O_RDONLY | os.O_NONBLOCK)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def remove_stale_temp_files(path: Path) -> list[Path]:
    """Delete the temporary files that killed writes of ``path`` left beside it (ours by their
    name, abandoned by their lock); returns them."""
    path = Path(path)
    prefix = _temp_prefix(path)
    removed = []
    try:
        entries = list(path.parent.iterdir())
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(_TEMP_SUFFIX)):
            continue
        if not _TEMP_RANDOM.fullmatch(name[len(prefix) : -len(_TEMP_SUFFIX)]):
            continue
        try:
            if entry.is_file() and not entry.is_symlink() and _is_abandoned(entry):
                entry.unlink()
                removed.append(entry)
        except OSError:
            continue
    return removed


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a name too long, a loop of links: not a directory we could write in
        return False


def _write_failure(path: Path, exc: OSError) -> LexiconError:
    """One line for a lexicon that cannot be written at ``path``."""
    if isinstance(exc, IsADirectoryError) or _is_dir(path):
        return LexiconError(said("{source}: is a directory; give the lexicon a file name (e.g. {example})", source=path,
                                 example=path / "sjp.lexicon"))
    if exc.errno == errno.ENAMETOOLONG:
        return LexiconError(said("{source}: file name too long", source=path))
    if isinstance(exc, (NotADirectoryError, FileExistsError)):
        return LexiconError(said("{source}: cannot write the lexicon: a folder on the way is a file", source=path))
    return LexiconError(said("{source}: cannot write the lexicon: {error}", source=path,
                             error=exc.strerror or str(exc)))


def _create_temp(path: Path) -> tuple[int, str]:
    """A new temporary file beside ``path``, locked: (descriptor, name)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=_temp_prefix(path), suffix=_TEMP_SUFFIX, dir=path.parent)
    try:
        _lock(fd)
    except BaseException:
        os.close(fd)
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return fd, tmp_name


def check_writable(path: Path) -> None:
    """Raise :class:`LexiconError` now, before a long build, when ``path`` cannot be written
    (a directory, a file on the way, a read-only file system, a name too long); also removes
    the temporary files killed builds of ``path`` left."""
    path = Path(path)
    try:
        if _is_dir(path):
            raise IsADirectoryError(errno.EISDIR, "is a directory")
        if len(path.name.encode(errors="surrogateescape")) > 255:
            raise OSError(errno.ENAMETOOLONG, "file name too long")
        fd, tmp_name = _create_temp(path)
    except OSError as exc:
        raise _write_failure(path, exc) from None
    os.close(fd)
    Path(tmp_name).unlink(missing_ok=True)
    remove_stale_temp_files(path)


def write_container(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> int:
    """Write ``meta`` and ``arrays`` atomically to ``path``; returns the file size in bytes.

    The file gets the permissions of any new file (0666 less the umask).  A write that fails
    (disk full, read-only file system...) raises :class:`LexiconError` and leaves neither a
    temporary file nor a changed ``path``."""
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
        header = dumps_json(
            {"meta": meta, "arrays": table}, ensure_ascii=False, sort_keys=True, allow_nan=False
        ).encode()
        if len(header) == header_len:
            break
        header_len = len(header)

    try:
        fd, tmp_name = _create_temp(path)
    except OSError as exc:
        raise _write_failure(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(_PREFIX.pack(MAGIC, FORMAT_VERSION, len(header), zlib.crc32(header), 0))
            out.write(header)
            for name, arr in arrays.items():
                out.write(b"\0" * (table[name]["offset"] - out.tell()))
                out.write(arr.data)
            out.write(b"\0" * (_aligned(out.tell()) - out.tell()))
            out.flush()
            os.fchmod(out.fileno(), 0o666 & ~_current_umask())
            os.fsync(out.fileno())
        os.replace(tmp_name, path)
        remove_stale_temp_files(path)
    except OSError as exc:
        Path(tmp_name).unlink(missing_ok=True)
        raise _write_failure(path, exc) from None
    except BaseException:
        Path(tmp_name).unlink(missing_ok=True)
        raise
    return path.stat().st_size


#: The largest header a reader accepts (real ones are a few kilobytes): a garbage length field
#: must not make it read or parse megabytes.
MAX_HEADER_BYTES = 1 << 20
#: Array element types a container may hold (little endian or byte-sized numbers).
ALLOWED_DTYPES = frozenset({"|u1", "|i1", "<u2", "<i2", "<u4", "<i4", "<u8", "<i8", "<f4", "<f8", "|b1"})


def _open_regular(path: Path) -> tuple[mmap.mmap, int]:
    """Map ``path`` read-only; refuses anything but a regular file without
    blocking on it (a FIFO would hang a plain open)."""
    fd = open_input(path, said("lexicon file"), error=LexiconError)
    try:
        info = os.fstat(fd)
        if info.st_size < _PREFIX.size:
            raise LexiconError(said("{source}: not a literaki lexicon file (only {count} bytes)", source=path,
                                    count=info.st_size))
        try:
            return mmap.mmap(fd, 0, access=mmap.ACCESS_READ), info.st_size
        except (OSError, ValueError) as exc:
            raise LexiconError(said("{source}: cannot map the lexicon file: {error}", source=path,
                                    error=str(exc))) from None
    finally:
        os.close(fd)


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def _int_field(spec: dict, key: str, where: str) -> int:
    value = spec.get(key)
    if type(value) is not int or value < 0:
        raise LexiconError(said("{where}: {key} is {value!r}, not a non-negative integer", where=where, key=key,
                                value=value))
    return value


def _array_of(buf: mmap.mmap, size: int, data_start: int, name: str, spec: Any, where: str) -> tuple[np.ndarray, int]:
    """The array ``name`` described by ``spec`` and its recorded CRC-32, checked against the file."""
    where = said("{where} (array {name!r})", where=where, name=name)
    if not isinstance(spec, dict):
        raise LexiconError(said("{where}: its description is not a table", where=where))
    if not isinstance(spec.get("dtype"), str) or spec["dtype"] not in ALLOWED_DTYPES:
        raise LexiconError(said("{where}: unsupported element type {dtype!r}", where=where, dtype=spec.get("dtype")))
    dtype = np.dtype(spec["dtype"])
    offset, length, crc = (_int_field(spec, key, where) for key in ("offset", "length", "crc32"))
    if offset < data_start or offset % _ALIGN:
        raise LexiconError(said("{where}: offset {offset} is inside the header or not 8-byte aligned", where=where,
                                offset=offset))
    if offset + length * dtype.itemsize > size:
        raise LexiconError(said("{where}: truncated lexicon file (array cut short)", where=where))
    return np.frombuffer(buf, dtype=dtype, count=length, offset=offset), crc


def read_container(path: Path, verify: bool = True) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Map a container file; returns (meta, arrays).  Raises :class:`LexiconError` when unusable:
    every field of the header is checked against the file before an array is handed out."""
    path = Path(path)
    buf, size = _open_regular(path)
    magic, version, header_len, header_crc, _ = _PREFIX.unpack_from(buf, 0)
    if magic != MAGIC:
        raise LexiconError(said("{source}: not a literaki lexicon file (bad magic number)", source=path))
    if version != FORMAT_VERSION:
        raise LexiconError(said(
            "{source}: lexicon format version {version}, this literaki reads version {supported}; rebuild it with "
            "'literaki build-lexicon'",
            source=path, version=version, supported=FORMAT_VERSION,
        ))
    if _PREFIX.size + header_len > size:
        raise LexiconError(said("{source}: truncated lexicon file (header cut short)", source=path))
    if header_len > MAX_HEADER_BYTES:
        raise LexiconError(said("{source}: corrupt lexicon file (header of {count} bytes)", source=path,
                                count=header_len))
    header = bytes(buf[_PREFIX.size : _PREFIX.size + header_len])
    if zlib.crc32(header) != header_crc:
        raise LexiconError(said("{source}: corrupt lexicon file (header checksum mismatch)", source=path))
    try:
        parsed = json.loads(header, parse_constant=_reject_constant)
        meta, table = parsed["meta"], parsed["arrays"]
    except (ValueError, KeyError, TypeError, RecursionError):
        raise LexiconError(said("{source}: corrupt lexicon file (unreadable header)", source=path)) from None
    if not isinstance(meta, dict) or not isinstance(table, dict):
        raise LexiconError(said("{source}: corrupt lexicon file (header is not a table of metadata and arrays)",
                                source=path))
    where = said("{source}: corrupt lexicon file", source=path)
    arrays = {}
    for name, spec in table.items():
        arr, crc = _array_of(buf, size, _PREFIX.size + header_len, name, spec, where)
        if verify and zlib.crc32(arr.data) != crc:
            raise LexiconError(said("{source}: corrupt lexicon file (checksum mismatch in {name!r})", source=path,
                                    name=name))
        arrays[name] = arr
    return meta, arrays
