"""What every command shares: the Typer app, the common options, the exit codes, and ``main``,
which turns every error into one line on stderr and an exit code, never a traceback.

Exit codes (README, "Exit codes"): 0 success, 1 a negative answer (an invalid word, an illegal
move), 2 bad usage, input or lexicon (or output that cannot be written), 3 a bug, 4 a batch
(``solve --batch``, ``score --batch``) in which some lines failed (each answered by its error
object), 130 interrupted, 141 the reader of the output went away (``| head``), as for a program
killed by SIGPIPE.
"""

from __future__ import annotations

import errno
import functools
import io
import math
import os
import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli import __version__
from literaki_cli.errors import LiterakiError, said

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_ERROR = 2
EXIT_INTERNAL = 3
#: ``--batch``: some lines could not be answered (each got its error object); the rest were.
EXIT_BATCH_FAILED = 4
EXIT_INTERRUPTED = 130
#: 128 + SIGPIPE: what a shell reports for a program whose reader went away (``| head -1``).
EXIT_OUTPUT_CLOSED = 141

#: Errors of a write that the environment causes (disk full, quota, file too large, device gone).
_WRITE_FAILURES = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


class OutputClosed(Exception):
    """The reader of standard output went away (``| head``): the command stops quietly.

    Not an OSError, so that nothing between the command and :func:`main` takes it for another fault.
    """


class OutputFailed(LiterakiError):
    """Standard output cannot be written (disk full, closed): one line on stderr, exit 2."""


class Output:
    """Standard output for a command that streams: a reader that went away stops the command
    quietly (exit 141), a write that fails (disk full) is one line on stderr and exit 2."""

    def __init__(self, stream=None) -> None:
        self.stream = sys.stdout if stream is None else stream
        if self.stream is None:
            raise OutputFailed(said("cannot write the output: standard output is closed"))

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
        except OSError as exc:
            raise _output_fault(exc) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise _output_fault(exc) from None

    def isatty(self) -> bool:
        return self.stream.isatty()


def _output_fault(exc: OSError) -> Exception:
    if isinstance(exc, BrokenPipeError):
        return OutputClosed()
    return OutputFailed(said("cannot write the output: {error}", error=exc.strerror or str(exc)))


class CommandApp(typer.Typer):
    """The Typer app, whose commands are registered when they are first needed.

    :mod:`literaki_cli.commands` sets :attr:`loader` (imports command modules, registering their
    commands) and :attr:`modules_for` (the modules a command line needs).  Whoever reads the
    commands gets every one; while :func:`main` runs, only the modules its command line needs
    are imported, so ``literaki check-word kot`` does not pay for building ``play`` and the rest.
    """

    def __init__(self, *args, **kwargs) -> None:
        self._commands: list = []
        self._groups: list = []
        self.loader = None  # (modules or None for all) -> None
        self.modules_for = None  # argv -> the modules it needs
        self.only: tuple[str, ...] | None = None  # while main() runs
        super().__init__(*args, **kwargs)

    def _load(self) -> None:
        if self.loader is not None:
            self.loader(self.only)

    @property
    def registered_commands(self) -> list:
        self._load()
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list) -> None:
        self._commands = value

    @property
    def registered_groups(self) -> list:
        self._load()
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value: list) -> None:
        self._groups = value


app = CommandApp(
    name="literaki",
    help="Literaki toolkit: lexicon, word checks, scoring, solving and self-play.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

#: What --help shows for a parameter instead of the Python type name Typer would show.
_HELP_TYPE_NAMES = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN", "path": "PATH"}


def _readable_help_types() -> None:
    """Newer Typer labels each parameter in ``--help`` with its Python type (``<bool>`` on a
    plain flag, ``<list[str]>``, ``<int range>``); show what a user types instead, as click
    does: nothing for a flag, TEXT, INTEGER, NUMBER, PATH, the choices.  Older Typer (click's
    own labels) is left alone."""
    base = getattr(getattr(typer, "core", None), "_TyperParameter", None)
    python_labels = getattr(base, "display_type", None)
    if python_labels is None or getattr(python_labels, "readable", False):
        return

    def display_type(self, ctx) -> str | None:
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None
        if self.param_type_name == "argument" and self.metavar is not None:
            return None  # the metavar, shown as its name, already says it
        label = python_labels(self, ctx).strip("<>")
        if label.startswith("list[") and label.endswith("]"):
            label = label[5:-1]
        label = label.removesuffix(" range")
        return _HELP_TYPE_NAMES.get(label, label.upper() if label.isidentifier() else label)

    display_type.readable = True
    base.display_type = display_type


_readable_help_types()

#: What a plain converter returns for a value it leaves to Typer's own (pydantic) conversion.
_TYPER_WAY = object()
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
#: The range of every whole-number option that states no range of its own: what a 64-bit
#: integer holds, so that no value reaches the compiled kernels (or NumPy) as an overflow.
OPTION_INT_RANGE = (-(2**63) + 1, 2**63 - 1)


def _plain_converter(descriptor):
    """A converter for a parameter of a plain type (str, int, float, Path, a list of these),
    or None.  It gives the value Typer would, and hands every value it cannot take (a bad
    number, one out of range) to Typer, whose message the user then sees."""
    from pathlib import Path

    info = descriptor.parameter_info
    annotation = descriptor.annotation
    if info.parser is not None or getattr(info, "clamp", False) or descriptor.file_annotation is not None:
        return None
    if getattr(annotation, "__origin__", None) is list:
        (item,) = getattr(annotation, "__args__", (None, None))
        convert = _plain_converter(type(descriptor)(item, info, None))
        if convert is None:
            return None

        def convert_list(value, param, ctx):
            if not isinstance(value, (list, tuple)):
                return _TYPER_WAY
            items = [convert(v, param, ctx) for v in value]
            return _TYPER_WAY if any(i is _TYPER_WAY for i in items) else items

        return convert_list
    low, high = getattr(info, "min", None), getattr(info, "max", None)

    def in_range(number):
        inside = (low is None or number >= low) and (high is None or number <= high)
        return number if inside else _TYPER_WAY

    if annotation is str:
        return lambda value, param, ctx: value if isinstance(value, str) else _TYPER_WAY
    if annotation is bool:
        return lambda value, param, ctx: value if isinstance(value, bool) else _TYPER_WAY
    if annotation is int:

        def convert_int(value, param, ctx):
            number = value
            if isinstance(value, str) and _INTEGER.fullmatch(value.strip()):
                digits = value.strip().lstrip("+-").lstrip("0")
                number = int(value) if len(digits) <= 19 else None  # int() refuses 4,300 digits
            elif type(value) is not int:
                return _TYPER_WAY
            if number is None or not OPTION_INT_RANGE[0] <= number <= OPTION_INT_RANGE[1]:
                raise _bad_value(param, ctx, value, "is out of range (a 64-bit whole number)")
            return in_range(number)

        return convert_int
    if annotation is float:

        def convert_float(value, param, ctx):
            if isinstance(value, str) and _NOT_FINITE.fullmatch(value.strip()):
                raise _bad_value(param, ctx, value, "is not a finite number")
            if type(value) in (int, float):
                number = float(value)
            elif isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
                number = float(value)
            else:
                return _TYPER_WAY
            if not math.isfinite(number):
                raise _bad_value(param, ctx, value, "is out of range (a finite number)")
            return in_range(number)

        return convert_float
    if annotation is Path and getattr(info, "path_type", None) in (None, Path):
        from typer._param_types import coerce_cli_path

        def convert_path(value, param, ctx):
            if not isinstance(value, (str, Path)) or value == "":
                return _TYPER_WAY
            if "\0" in str(value):  # no file name holds one (os calls raise ValueError on it)
                raise _bad_value(param, ctx, value, "is not a file name (it holds a NUL byte)")
            return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)

        return convert_path
    return None


def _bad_value(param, ctx, value, why: str) -> Exception:
    """The usage error (exit 2) of an option's value (a number, a path), shown as click shows its own."""
    try:
        from typer._click.exceptions import BadParameter  # newer Typer carries its own click
    except ImportError:  # pragma: no cover - older Typer
        from click import BadParameter

    from literaki_cli.inputs import shown

    return BadParameter(f"{shown(str(value), quote=False)} {why}", ctx=ctx, param=param)


def _plain_parameter_coercion() -> None:
    """Newer Typer converts every parameter through a pydantic TypeAdapter: importing pydantic
    and building an adapter for each of ``solve``'s 30 options costs 0.15-0.25 s a run, more
    than the work of a solve.  Parameters of plain types are converted here instead (same
    values, same range checks); any other parameter, and any value these converters do not
    take, goes Typer's way, so its error messages stay as they were.  Older Typer (no pydantic
    conversion) is left alone."""
    base = getattr(getattr(typer, "core", None), "_TyperParameter", None)
    typers_way = getattr(base, "get_runtime_param", None)
    if typers_way is None or getattr(typers_way, "plain", False):
        return
    try:
        from dataclasses import dataclass

        from typer._coercion import RuntimeParam
    except ImportError:  # pragma: no cover - another Typer layout
        return

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        convert: object = None
        typers_way: object = None

        def _coerce_value(self, value, param, ctx):
            result = self.convert(value, param, ctx)
            if result is _TYPER_WAY:
                return self.typers_way(param)._coerce_value(value, param=param, ctx=ctx)
            return result

    def get_runtime_param(self):
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            convert = _plain_converter(descriptor)
            if convert is None:
                return typers_way(self)
            self._runtime_param = PlainRuntimeParam(descriptor.parameter_info, descriptor.annotation, convert,
                                                    _typers_runtime_param)  # fmt: skip
        return self._runtime_param

    get_runtime_param.plain = True
    base.get_runtime_param = get_runtime_param


def _typers_runtime_param(param):
    """Typer's own (pydantic) converter of ``param``, for the values the plain ones leave to it."""
    from typer._coercion import build_runtime_param

    return build_runtime_param(param.type_descriptor)


_plain_parameter_coercion()

LexiconOption = Annotated[
    Path | None,
    typer.Option("--lexicon", "-l", help="Lexicon file (default: $LITERAKI_LEXICON, then the user data directory)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]
LeavesOption = Annotated[
    Path | None,
    typer.Option("--leaves", help="Leave values file (default: $LITERAKI_LEAVES, then the shipped values)."),
]
RulesOption = Annotated[Path | None, typer.Option("--rules", help="Variant file (TOML) with your own rules.")]


def output_console(stderr: bool = False):
    """Rich on a terminal (tables fit its width, wrapping rather than cutting numbers); plain
    text at full width otherwise, so a pipe or a file gets every line and number whole."""
    import sys

    Console = _console_class()  # noqa: N806 - a class
    stream = sys.stderr if stderr else sys.stdout
    if stream.isatty():
        return Console(highlight=False, stderr=stderr)
    return Console(highlight=False, stderr=stderr, width=100_000, color_system=None, soft_wrap=True)


@functools.cache
def _console_class():
    """Rich's Console, but a reader that went away (``| head``) ends the command as every
    other output does (:class:`OutputClosed`: exit 141), not with rich's own exit 1."""
    from rich.console import Console

    class QuietConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise OutputClosed()

    return QuietConsole


def colour_enabled(stream) -> bool:
    """Whether to colour ``stream``: a terminal, and neither NO_COLOR nor TERM=dumb."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"literaki {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Literaki toolkit."""


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every error becomes one line on stderr and an exit code, never a traceback."""
    if app.modules_for is not None:
        app.only = app.modules_for(sys.argv[1:] if argv is None else argv)
    try:
        code = app(args=argv, prog_name="literaki", standalone_mode=False)
    except OutputClosed:
        _silence_stdout()
        return EXIT_OUTPUT_CLOSED
    except OutputFailed as exc:
        _silence_stdout()
        sys.stderr.write(f"literaki: error: {exc}\n")
        return exc.exit_code
    except LiterakiError as exc:
        _flush_stdout()
        sys.stderr.write(f"literaki: error: {exc}\n")
        return exc.exit_code
    except typer.Exit as exc:
        return _flush_stdout() or exc.exit_code
    except KeyboardInterrupt:
        _flush_stdout()
        sys.stderr.write("literaki: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OUTPUT_CLOSED
    except SystemExit:
        # Click ends a command whose output pipe closed with exit 1, stdout wrapped to hush it.
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":
            sys.stdout = sys.stdout.wrapped
            sys.stderr = getattr(sys.stderr, "wrapped", sys.stderr)
            _silence_stdout()
            return EXIT_OUTPUT_CLOSED
        raise
    except typer.Abort:
        sys.stderr.write("literaki: interrupted\n")
        return EXIT_INTERRUPTED
    except OSError as exc:
        if exc.errno not in _WRITE_FAILURES:
            return _internal_error(exc)
        _flush_stdout()
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"literaki: error: {where}cannot write: {exc.strerror}\n")
        return EXIT_ERROR
    except Exception as exc:
        # A usage error of the (vendored or external) click: it knows how to show itself.
        if hasattr(exc, "show") and isinstance(getattr(exc, "exit_code", None), int):
            exc.show()
            return exc.exit_code
        return _internal_error(exc)
    finally:
        app.only = None
    return _flush_stdout() or (code if isinstance(code, int) else EXIT_OK)


def _internal_error(exc: Exception) -> int:
    if os.environ.get("LITERAKI_DEBUG"):
        raise exc
    _flush_stdout()
    sys.stderr.write(
        f"literaki: internal error: {type(exc).__name__}: {exc} (a bug: please report it; "
        "LITERAKI_DEBUG=1 shows the traceback)\n"
    )
    return EXIT_INTERNAL


def _flush_stdout() -> int:
    """Flush what the command printed: 0 when done, else the exit code of the fault (a closed
    pipe: quietly; a failed write: one line on stderr); either way the rest is dropped."""
    if sys.stdout is None:
        return 0
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OUTPUT_CLOSED
    except OSError as exc:
        _silence_stdout()
        sys.stderr.write(f"literaki: error: cannot write the output: {exc.strerror or exc}\n")
        return EXIT_ERROR
    return 0


def _silence_stdout() -> None:
    # Python flushes stdout at exit; point it at devnull so a closed pipe or a full disk raises
    # nothing more (an in-memory stdout, as under pytest, has nothing to redirect).
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
