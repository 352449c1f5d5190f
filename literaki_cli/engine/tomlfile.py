"""Reading the project's TOML data files (levels, grid rules): the user's own file or the one
shipped with the package, with every read or parse failure one line naming the file."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from literaki_cli.errors import InputError
from literaki_cli.inputs import finite_number, loads_toml, read_input_text, whole_number

__all__ = ["finite_number", "read_toml", "whole_number"]


def read_toml(path: Path | None, packaged: str) -> tuple[dict[str, Any], str]:
    """The parsed ``path``, or, without one, the package file ``packaged`` (a path inside
    ``literaki_cli``, e.g. ``games/levels.toml``); returns the data and the name that error
    messages about its keys should give.  ``path`` must be a regular file (a FIFO or a device
    is refused at once) of at most :data:`~literaki_cli.inputs.MAX_DATA_BYTES`."""
    where = str(path) if path else packaged.rsplit("/", 1)[-1]
    if path:
        text = read_input_text(path, "TOML file")
    else:
        try:
            text = resources.files("literaki_cli").joinpath(*packaged.split("/")).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{where}: cannot read: {exc.strerror or exc}") from None
    return loads_toml(text, where), where
