"""Reading word-list sources, recognised by their content rather than their name.

Accepted: the SJP.PL games dump (zip holding ``slowa.txt`` in UTF-8 or the older
``slowa-win.txt`` in Windows-1250), the inflections dump (zip or ``odm.txt``, comma-separated
forms per line), a bare word list (UTF-8, Windows-1250 or ISO-8859-2; CRLF or LF; optionally
gzip-compressed or inside a tar archive) and a system spelling dictionary such as Debian's
``/usr/share/dict/polish``.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import lzma
import tarfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from literaki_cli.engine import textdecode
from literaki_cli.errors import InputError
from literaki_cli.inputs import read_input_bytes

#: What a source is, as recorded in the lexicon metadata.
KIND_LABELS = {
    "sjp-games": "SJP.PL games list (słownik do gier)",
    "sjp-inflections": "SJP.PL inflections list (odmiany): an approximation of the games list",
    "spelling-dictionary": "spelling dictionary (not the games list)",
    "word-list": "word list",
}

#: Bytes a source file may have, and its word list once unpacked (sjp-20260201: a 15 MB zip
#: holding 46 MB of text): larger is not a word list, and a small archive that unpacks to
#: gigabytes (a "zip bomb") is refused without being unpacked in memory.
MAX_SOURCE_BYTES = 256 << 20

_GAMES_MEMBERS = ("slowa.txt", "slowa-win.txt")
_INFLECTION_MEMBERS = ("odm.txt",)


@dataclass
class Source:
    """A decoded source: its entries (one candidate word each) and where they came from."""

    path: Path
    sha256: str
    kind: str
    encoding: str
    member: str | None
    entries: list[str] = field(repr=False)
    lines: int = 0

    @property
    def name(self) -> str:
        return self.path.name if self.member is None else f"{self.path.name}:{self.member}"


def detect_encoding(raw: bytes) -> str:
    """The encoding label :func:`textdecode.decode_text_with_encoding` reads ``raw`` in."""
    return textdecode.decode_text_with_encoding(raw, "<bytes>").encoding


def _pick_member(names: list[str], container: str) -> str:
    by_base = {PurePosixPath(n).name.lower(): n for n in names if not n.endswith("/")}
    for wanted in _GAMES_MEMBERS + _INFLECTION_MEMBERS:
        if wanted in by_base:
            return by_base[wanted]
    texts = [n for b, n in by_base.items() if b.endswith(".txt") and b != "readme.txt"]
    if len(texts) == 1:
        return texts[0]
    listed = ", ".join(sorted(by_base.values())) or "nothing"
    raise InputError(f"{container}: holds no slowa.txt, slowa-win.txt or odm.txt (it holds: {listed})")


# What damaged, encrypted or exotic archives raise while they are read.
_ARCHIVE_ERRORS = (
    zipfile.BadZipFile,
    tarfile.TarError,
    EOFError,
    OSError,
    zlib.error,
    lzma.LZMAError,
    ValueError,
)


def _read_zip(path: Path, raw: bytes) -> tuple[bytes, str]:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            member = _pick_member(zf.namelist(), str(path))
            info = zf.getinfo(member)
            if info.flag_bits & 0x1:
                raise InputError(f"{path}: {member} is encrypted; give an unencrypted zip or the text file")
            if info.file_size > MAX_SOURCE_BYTES:
                raise _too_large(path, member)
            try:
                with zf.open(member) as stream:
                    return _bounded_read(stream, path, member), member
            except NotImplementedError:
                raise InputError(
                    f"{path}: {member} is compressed with a method this reader lacks "
                    f"(zip method {info.compress_type}); repack it with deflate or give the text file"
                ) from None
            except RuntimeError as exc:  # what zipfile says of an encrypted member
                raise InputError(f"{path}: {member}: {exc}") from None
    except _ARCHIVE_ERRORS as exc:
        raise InputError(f"{path}: damaged zip file ({exc})") from None


def _read_tar(path: Path, raw: bytes) -> tuple[bytes, str]:
    try:
        with tarfile.open(fileobj=io.BytesIO(raw)) as tf:
            member = _pick_member(tf.getnames(), str(path))
            info = tf.getmember(member)
            if not info.isfile():
                what = "a symbolic link" if info.issym() or info.islnk() else "not a regular file"
                raise InputError(f"{path}: {member} is {what}; the archive must hold the word list itself")
            extracted = tf.extractfile(info)
            if extracted is None:
                raise InputError(f"{path}: {member} is not a regular file")
            if info.size > MAX_SOURCE_BYTES:
                raise _too_large(path, member)
            return _bounded_read(extracted, path, member), member
    except _ARCHIVE_ERRORS as exc:
        raise InputError(f"{path}: damaged tar archive ({exc})") from None


def _too_large(path: Path, member: str | None) -> InputError:
    where = f"{path}:{member}" if member else str(path)
    return InputError(f"{where}: unpacks to more than {MAX_SOURCE_BYTES >> 20:,} MiB: too large for a word list")


def _bounded_read(stream, path: Path, member: str | None) -> bytes:
    """All of an archive member or a gzip stream, refused past :data:`MAX_SOURCE_BYTES`
    (read no further than that, whatever the archive claims)."""
    data = stream.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise _too_large(path, member)
    return data


def _unpack(path: Path, raw: bytes) -> tuple[bytes, str | None]:
    """The text bytes of a source file and the archive member they came from."""
    if raw.startswith(b"PK\x03\x04") or raw.startswith(b"PK\x05\x06"):
        return _read_zip(path, raw)
    if raw.startswith(b"\x1f\x8b"):
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
                raw = _bounded_read(stream, path, None)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"{path}: damaged gzip file ({exc})") from None
    if len(raw) > 262 and raw[257:262] == b"ustar":
        return _read_tar(path, raw)
    return raw, None


def _detect_kind(member: str | None, lines: list[str], path: Path) -> str:
    base = PurePosixPath(member).name.lower() if member else path.name.lower()
    if base in _GAMES_MEMBERS:
        return "sjp-games"
    sample = lines[:20000]
    if base in _INFLECTION_MEMBERS or sum(", " in line for line in sample) > len(sample) // 10:
        return "sjp-inflections"
    if str(path).startswith("/usr/share/dict/") or any(line[:1].isupper() for line in sample):
        return "spelling-dictionary"
    return "word-list"


def read_source(path: Path, kind: str | None = None) -> Source:
    """Read and decode ``path``; ``kind`` (a key of :data:`KIND_LABELS`) overrides detection."""
    path = Path(path)
    raw = read_input_bytes(path, "word list", MAX_SOURCE_BYTES)  # a FIFO or /dev/zero is refused at once
    sha256 = hashlib.sha256(raw).hexdigest()
    data, member = _unpack(path, raw)
    if b"\0" in data[:65536]:
        raise InputError(f"{path}{':' + member if member else ''}: binary data, not a word list")
    decoded = textdecode.decode_text_with_encoding(data, f"{path}{':' + member if member else ''}")
    text, encoding = decoded.text, decoded.encoding
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if kind is None:
        kind = _detect_kind(member, lines, path)
    elif kind not in KIND_LABELS:
        raise InputError(f"unknown source kind {kind!r}; choose one of: {', '.join(KIND_LABELS)}")
    if kind == "sjp-inflections":
        entries = [form.strip() for line in lines for form in line.split(",")]
    else:
        entries = [line.strip() for line in lines]
    n_lines = len(lines) - (1 if lines and lines[-1] == "" else 0)
    return Source(path, sha256, kind, encoding, member, entries, n_lines)
