"""build-lexicon under bad input and faults: one clear line and exit 2, the old lexicon kept,
no temporary file left, files created as the umask says."""

from __future__ import annotations

import errno
import fcntl
import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from literaki_cli.cli import main
from literaki_cli.engine import lexfile
from literaki_cli.engine.lexicon import Lexicon

RUN = "import sys; from literaki_cli.cli import main; sys.exit(main())"


def build(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["build-lexicon", *args])
    out, err = capsys.readouterr()
    return code, out, err


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.fixture
def working(tmp_path, small_lexicon) -> Path:
    """A working lexicon at the output path, which a refused build must leave as it is."""
    out = tmp_path / "out" / "words.lexicon"
    out.parent.mkdir()
    out.write_bytes(small_lexicon.read_bytes())
    return out


USELESS = {
    "empty": b"",
    "blank-lines": b"\n\n  \r\n\t\n",
    "one-letter": b"a\nb\nz\n",
    "capitals": "KOT\nŻÓŁW\nWarszawa\n".encode(),
    "one-long-line": ("ab" * 5000).encode(),
}


@pytest.mark.parametrize("content", USELESS.values(), ids=USELESS.keys())
def test_a_list_without_a_usable_word_is_refused_and_the_old_lexicon_kept(capsys, tmp_path, working, content):
    before = working.read_bytes()
    source = tmp_path / "words.txt"
    source.write_bytes(content)
    code, _, err = build(capsys, str(source), "-o", str(working))
    assert code == 2
    assert err.strip().splitlines()[-1] == f"literaki: error: {source}: no usable word " + (
        "(it is empty); no lexicon written" if content.strip() == b"" else f"({_dropped(content)}); no lexicon written"
    )
    assert "kept" in err  # the per-reason table
    assert working.read_bytes() == before
    assert temp_files(working.parent) == []


def _dropped(content: bytes) -> str:
    entries = [line for line in content.decode().splitlines() if line.strip()]
    return f"{len(entries):,} entries dropped"


def test_dev_null_is_refused(capsys, working):
    code, _, err = build(capsys, "/dev/null", "-o", str(working))
    assert code == 2
    assert "/dev/null: a device, not a word list (give a regular file)" in err
    Lexicon.open(working)


def test_the_reasons_are_shown(capsys, tmp_path, working):
    source = tmp_path / "short.txt"
    source.write_text("a\nb\nKOT\n", encoding="utf-8")
    code, _, err = build(capsys, str(source), "-o", str(working))
    assert code == 2
    assert "too short" in err and "has a capital letter" in err


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "11"])
def test_popular_zipf_must_be_a_finite_zipf_frequency(capsys, small_list_file, tmp_path, value):
    code, _, err = build(capsys, str(small_list_file), "-o", str(tmp_path / "x.lexicon"), f"--popular-zipf={value}")
    assert code == 2
    if value.lstrip("-") in ("nan", "inf"):  # refused where the option is read, as every number option
        assert f"Invalid value for '--popular-zipf': {value} is not a finite number" in err
    else:
        expected = f"--popular-zipf {float(value)!r}: give a Zipf frequency between 0 and 10 (default 2.5)"
        assert err.strip() == f"literaki: error: {expected}"
    assert not (tmp_path / "x.lexicon").exists()


def test_lexicon_info_json_is_strict_json(capsys, small_lexicon):
    assert main(["lexicon-info", "--lexicon", str(small_lexicon), "--json"]) == 0
    out = capsys.readouterr().out

    def refuse(name):
        raise AssertionError(f"{name} in lexicon-info --json")

    assert json.loads(out, parse_constant=refuse)["popular"]["zipf_threshold"] == 2.5


# --- archives -----------------------------------------------------------------------------


def _zip_bytes(method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as zf:
        zf.writestr("slowa.txt", "kot\nżółw\n" * 50)
    return buf.getvalue()


def _patched_zip(set_method: int | None = None, set_flags: int | None = None) -> bytes:
    """A zip whose local and central headers claim another compression method or flags."""
    data = bytearray(_zip_bytes())
    for signature, flags_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = data.index(signature)
        if set_flags is not None:
            data[at + flags_at : at + flags_at + 2] = set_flags.to_bytes(2, "little")
        if set_method is not None:
            data[at + method_at : at + method_at + 2] = set_method.to_bytes(2, "little")
    return bytes(data)


def _tar_with_symlink() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        link = tarfile.TarInfo("slowa.txt")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        tf.addfile(link)
    return buf.getvalue()


ARCHIVES = {
    "unsupported-method": (_patched_zip(set_method=99), "compressed with a method this reader lacks"),
    "encrypted": (_patched_zip(set_flags=0x1), "is encrypted"),
    "tar-symlink": (_tar_with_symlink(), "slowa.txt is a symbolic link"),
    "damaged-zip": (_zip_bytes()[:60], "damaged zip file"),
    "binary": (bytes(range(256)) * 40, "binary data"),
    "undecodable": (b"kot\n" + bytes([0x81, 0x83, 0x88, 0x90, 0x98]) * 10 + b"\n", "line 2: neither UTF-8 nor"),
}


@pytest.mark.parametrize(("content", "message"), ARCHIVES.values(), ids=ARCHIVES.keys())
def test_bad_sources_are_one_line_and_exit_2(capsys, tmp_path, working, content, message):
    source = tmp_path / "source.bin"
    source.write_bytes(content)
    code, _, err = build(capsys, str(source), "-o", str(working))
    assert code == 2, err
    assert err.startswith("literaki: error: ") and message in err
    assert "Traceback" not in err and "internal error" not in err


# --- output faults ------------------------------------------------------------------------


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("literaki: error: ")
    return lines[0]


def test_output_that_is_a_directory(capsys, small_list_file, tmp_path):
    code, _, err = build(capsys, str(small_list_file), "-o", str(tmp_path))
    assert code == 2
    assert _one_error_line(err) == (
        f"literaki: error: {tmp_path}: is a directory; give the lexicon a file name (e.g. {tmp_path / 'sjp.lexicon'})"
    )
    assert temp_files(tmp_path) == []


def test_output_whose_parent_is_a_file(capsys, small_list_file, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = build(capsys, str(small_list_file), "-o", str(blocker / "out.lexicon"))
    assert code == 2
    assert "a folder on the way is a file" in _one_error_line(err)


def test_output_name_too_long(capsys, small_list_file, tmp_path):
    code, _, err = build(capsys, str(small_list_file), "-o", str(tmp_path / ("x" * 300)))
    assert code == 2
    assert _one_error_line(err).endswith(": file name too long")
    assert list(tmp_path.iterdir()) == []


def _fail_with(monkeypatch, where: str, code: int) -> None:
    def failing(*args, **kwargs):
        raise OSError(code, os.strerror(code))

    if where == "create":
        monkeypatch.setattr(lexfile.tempfile, "mkstemp", failing)
    else:  # fail while the data are written: the temporary file exists by then
        monkeypatch.setattr(lexfile.os, "fsync", failing)


@pytest.mark.parametrize(("where", "code"), [("create", errno.EROFS), ("write", errno.ENOSPC), ("write", errno.EROFS)])
def test_write_faults_leave_no_temporary_file(capsys, monkeypatch, small_list_file, working, where, code):
    before = working.read_bytes()
    from lexicon_build import build as build_module

    # The check before the build passes; the fault strikes at the write.
    monkeypatch.setattr(build_module.lexfile, "check_writable", lambda path: None)
    _fail_with(monkeypatch, where, code)
    code_, _, err = build(capsys, str(small_list_file), "-o", str(working))
    assert code_ == 2
    assert _one_error_line(err) == f"literaki: error: {working}: cannot write the lexicon: {os.strerror(code)}"
    assert temp_files(working.parent) == []
    assert working.read_bytes() == before


# --- temporary files and permissions ------------------------------------------------------


def test_the_next_build_removes_abandoned_temporary_files_only(capsys, small_list_file, tmp_path):
    out = tmp_path / "w.lexicon"
    abandoned = tmp_path / "w.lexicon.ab12_xYz.tmp"
    abandoned.write_bytes(b"\0" * 1000)
    in_use = tmp_path / "w.lexicon.cd34_qQq.tmp"
    in_use.write_bytes(b"\0" * 1000)
    not_ours = [tmp_path / "w.lexicon.tmp", tmp_path / "other.lexicon.ab12_xYz.tmp", tmp_path / "w.lexicon.abc.tmp"]
    for path in not_ours:
        path.write_text("keep")
    holder = os.open(in_use, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # a build still writing it
    try:
        code, _, _ = build(capsys, str(small_list_file), "-o", str(out))
    finally:
        os.close(holder)
    assert code == 0
    assert not abandoned.exists()
    assert in_use.exists()
    assert all(path.exists() for path in not_ours)


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_lexicon_file_mode_follows_the_umask(capsys, small_list_file, tmp_path, umask, mode):
    previous = os.umask(umask)
    try:
        code, _, _ = build(capsys, str(small_list_file), "-o", str(tmp_path / "m.lexicon"))
    finally:
        os.umask(previous)
    assert code == 0
    assert (tmp_path / "m.lexicon").stat().st_mode & 0o777 == mode


SLOW_WRITE = """
import os, sys, time
from literaki_cli.engine import lexfile
def slow_fsync(fd):
    time.sleep(60)
lexfile.os.fsync = slow_fsync
from literaki_cli.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
@pytest.mark.slow
def test_a_killed_build_leaves_no_temporary_file(capsys, small_list_file, tmp_path, sig):
    out = tmp_path / "k.lexicon"
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITE, "build-lexicon", str(small_list_file), "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not temp_files(tmp_path):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    if sig == signal.SIGTERM:
        assert proc.returncode == 128 + signal.SIGTERM
        assert "terminated (SIGTERM)" in err
        assert temp_files(tmp_path) == []
    else:  # nothing runs on SIGKILL: the next build cleans up
        assert temp_files(tmp_path) != []
        code, _, _ = build(capsys, str(small_list_file), "-o", str(out))
        assert code == 0
        assert temp_files(tmp_path) == []
    assert not out.exists() or sig == signal.SIGKILL
