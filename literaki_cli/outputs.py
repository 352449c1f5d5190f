"""Writing the files a command makes: the output path checked before any work, and the file
written whole or not at all (a partial file renamed over the target, removed on any failure)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from literaki_cli.errors import InputError, said
from literaki_cli.inputs import shown


def check_output_file(path: Path | str, what: str = said("file"), example: str = "out.file") -> Path:
    """``path`` as a file to write a ``what`` to, checked before any work: not a directory, in a
    folder that exists and can be written, not a pipe or device, a name the file system takes.
    InputError (one line naming it, with ``example`` as a file name to give) otherwise."""
    path = Path(path)
    name = os.fspath(path)
    if "\0" in name:
        raise InputError(said("{path}: a file name cannot hold a NUL byte", path=shown(name)))
    if os.path.isdir(path):
        raise InputError(said("{path}: is a directory; give the {what} a file name (e.g. {example})", path=path,
                              what=what, example=path / example))  # fmt: skip
    if os.path.lexists(path) and not os.path.isfile(path):
        raise InputError(said("{path}: not a regular file; give the {what} a file name", path=path, what=what))
    folder = path.parent
    if not os.path.isdir(folder):
        problem = said("is not a folder") if os.path.lexists(folder) else said("does not exist")
        raise InputError(said("{path}: cannot write the {what} there: {folder} {problem}", path=path, what=what,
                              folder=folder, problem=problem))  # fmt: skip
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(said("{path}: cannot write in {folder} (permission denied)", path=path, folder=folder))
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.fsencode(path.name + PARTIAL)) > longest:
        raise InputError(said("{path}: file name too long", path=shown(name, 80, quote=False)))
    return path


#: What a file being written is called until it is complete (then renamed over the target).
PARTIAL = ".partial"


def write_atomically(path: Path | str, data: bytes, what: str = said("file"), example: str = "out.file") -> None:
    """``data`` as the file ``path``: written to ``path.partial``, then renamed over ``path``; on
    any failure (disk full, Ctrl-C) the partial file is removed and ``path`` left as it was.
    InputError naming ``path`` for an OSError."""
    path = check_output_file(path, what, example)
    partial = path.with_name(path.name + PARTIAL)
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            partial.unlink()
        if isinstance(e, OSError):
            raise InputError(said("{path}: cannot write the {what}: {error}", path=path, what=what,
                                  error=e.strerror or e)) from None  # fmt: skip
        raise
