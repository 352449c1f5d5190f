"""Reading the project's TOML data files (levels, grid rules): the user's own file or the one
shipped with the package, with every read or parse failure one line naming the file."""

from __future__ import annotations

import math
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from literaki_cli.errors import InputError


def read_toml(path: Path | None, packaged: str) -> tuple[dict[str, Any], str]:
    """The parsed ``path``, or, without one, the package file ``packaged`` (a path inside
    ``literaki_cli``, e.g. ``games/levels.toml``); returns the data and the name that error
    messages about its keys should give."""
    where = str(path) if path else packaged.rsplit("/", 1)[-1]
    try:
        if path:
            text = Path(path).read_text(encoding="utf-8")
        else:
            text = resources.files("literaki_cli").joinpath(*packaged.split("/")).read_text(encoding="utf-8")
        return tomllib.loads(text), where
    except OSError as exc:
        raise InputError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{where}: not valid TOML: {exc}") from None


def whole_number(value: object, what: str, low: int, high: int) -> int:
    """A whole number in [low, high] (a boolean is not one); InputError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what}: {value!r} is not a whole number")
    if not low <= value <= high:
        raise InputError(f"{what}: {value} is not between {low} and {high}")
    return value


def finite_number(value: object, what: str, low: float, high: float) -> float:
    """A finite number in [low, high] (TOML int or float; a boolean is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{what}: {value!r} is not a number")
    if not math.isfinite(value) or not low <= value <= high:
        raise InputError(f"{what}: {value!r} is not between {low:g} and {high:g}")
    return float(value)
