"""Start-up of a single command (issue 17): only the command run is registered, plain options
are converted without Typer's pydantic adapters (same values, same errors), and a command
imports only what it needs (nothing is compiled: the engine is the Rust core)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

ROOT = Path(__file__).resolve().parent.parent
GAME = str(ROOT / "examples" / "game.cgp")

def modules_after(*argv: str, env: dict[str, str] | None = None) -> tuple[set[str], str]:
    """The modules a fresh process holds after running ``literaki ARGV``, and its stdout."""
    script = ("import json, sys\nfrom literaki_cli.commands import main\ncode = main(sys.argv[1:])\n"
              "sys.stdout.flush()\nsys.stderr.write(json.dumps(sorted(sys.modules)))\n")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True, text=True, timeout=600,
                            env=env, cwd=ROOT)  # fmt: skip
    return set(json.loads(result.stderr.splitlines()[-1])), result.stdout


@pytest.fixture(scope="module")
def lexicon(flowing_lexicon) -> str:
    return str(flowing_lexicon.path)


def test_check_word_registers_and_imports_only_what_it_needs(lexicon):
    modules, out = modules_after("check-word", "kot", "--lexicon", lexicon)
    assert out.startswith("kot")
    commands = {m for m in modules if m.startswith("literaki_cli.commands.")}
    assert commands == {"literaki_cli.commands.common", "literaki_cli.commands.check_word"}
    assert not {m for m in modules if m.split(".")[0] in ("pydantic", "rich", "polars", "matplotlib")}


def test_solve_json_skips_pydantic_rich_and_tqdm(lexicon):
    modules, out = modules_after("solve", GAME, "--json", "-n", "1", "--lexicon", lexicon)
    assert json.loads(out)["rack"] == "KOTAŁW?"
    assert not {m for m in modules if m.split(".")[0] in ("pydantic", "rich", "tqdm", "polars", "matplotlib")}


def test_app_lists_every_command_module_in_order_and_the_table_names_their_homes():
    from literaki_cli import commands

    app = commands.app
    order = {f"literaki_cli.commands.{m}": k for k, m in enumerate(commands.COMMAND_MODULES)}
    homes = [order[info.callback.__module__] for info in app.registered_commands]
    assert homes == sorted(homes)
    defined = {info.name: info.callback.__module__ for info in app.registered_commands}
    defined |= {info.name: "literaki_cli.commands.leaves" for info in app.registered_groups}
    for name, module in commands.COMMAND_HOMES.items():
        assert defined[name] == f"literaki_cli.commands.{module}", name


# --------------------------------------------------------------------------- option conversion

SAMPLES = {
    "top": ["5", "+5", "007", "0", "-1", "abc", "1.5", " 5", "1_0", "", 20],
    "time": ["1.5", "0.5", ".5", "1e-2", "1E3", "0", "-1", "abc", " 2", 2, 2.5],
    "by": ["score", "", "żółw"],
    "leaves": ["some/file.leaves", "-", "."],
    "all": [True, False],
}


def _typers_answer(runtime, value, param, ctx):
    try:
        return "value", runtime.coerce(value, param=param, ctx=ctx)
    except Exception as exc:  # the message the user sees
        return type(exc).__name__, getattr(exc, "message", str(exc))


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_plain_conversion_gives_typers_values_and_errors(name):
    from literaki_cli import commands
    from literaki_cli.commands import common

    command = typer.main.get_command(commands.app).commands["solve"]
    param = next(p for p in command.params if p.name == name or (name == "all" and p.name == "show_all")
                 or (name == "time" and p.name == "seconds"))  # fmt: skip
    ctx = command.make_context("solve", ["x"], resilient_parsing=True)
    plain = param.get_runtime_param()
    typers = common._typers_runtime_param(param)
    if name != "all":
        assert type(plain).__name__ == "PlainRuntimeParam"
    for value in SAMPLES[name]:
        assert _typers_answer(plain, value, param, ctx) == _typers_answer(typers, value, param, ctx), value


@pytest.mark.parametrize(
    ("name", "value", "why"),
    [("time", "nan", "nan is not a finite number"), ("time", "-Inf", "-Inf is not a finite number"),
     ("time", "1e400", "1e400 is out of range (a finite number)"),
     ("top", "9" * 30, "is out of range (a 64-bit whole number)"),
     ("top", "9" * 5000, "...(5,000 characters) is out of range (a 64-bit whole number)")],
)  # fmt: skip
def test_plain_conversion_is_stricter_than_typers_on_numbers_no_kernel_can_take(name, value, why):
    """Where Typer would pass a value on (nan, a 30-digit count) or fail inside int() (5,000
    digits), the plain conversion gives a usage error naming the value."""
    from literaki_cli import commands

    command = typer.main.get_command(commands.app).commands["solve"]
    param = next(p for p in command.params if p.name == name or (name == "time" and p.name == "seconds"))
    ctx = command.make_context("solve", ["x"], resilient_parsing=True)
    kind, message = _typers_answer(param.get_runtime_param(), value, param, ctx)
    assert kind == "BadParameter" and why in message


def test_list_arguments_convert_as_typer_does():
    from literaki_cli import commands
    from literaki_cli.commands import common

    command = typer.main.get_command(commands.app).commands["check-word"]
    param = next(p for p in command.params if p.name == "words")
    ctx = command.make_context("check-word", [], resilient_parsing=True)
    for value in (("kot", "żółw"), ["a"], ()):
        plain = _typers_answer(param.get_runtime_param(), value, param, ctx)
        assert plain == _typers_answer(common._typers_runtime_param(param), value, param, ctx)


# --------------------------------------------------------------------------- the moves table without rich


def test_plain_table_draws_what_rich_draws_for_a_pipe():
    import io
    import random

    from rich.console import Console
    from rich.table import Table

    from literaki_cli.io.plaintable import plain_table

    rng = random.Random(17)
    alphabet = "aąbcćdeęfghijklłmnńoóprsśtuwyzźżAĄŻÓŁ0123456789+-.,()?/ "

    def text(most: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, most))).strip()

    for _ in range(300):
        columns = [(text(8) or "x", rng.choice(["left", "right"])) for _ in range(rng.randint(1, 8))]
        rows = [[text(12) for _ in columns] for _ in range(rng.randint(0, 5))]
        title = rng.choice([None, "t", "rack KOTAŁW?: 5,631 moves by equity (14.3 ms, bag 82)"])
        drawn = io.StringIO()
        table = Table(title=title)
        for name, justify in columns:
            table.add_column(name, justify=justify)
        for row in rows:
            table.add_row(*row)
        Console(highlight=False, width=100_000, color_system=None, soft_wrap=True, file=drawn).print(table)
        assert plain_table(title, columns, rows) == drawn.getvalue()


def test_solve_prints_the_same_table_with_and_without_rich(capsys, lexicon):
    from literaki_cli.analysis.positionquery import open_position
    from literaki_cli.analysis.solve import PositionSolver, SolveRequest
    from literaki_cli.commands.solve import _print_solutions
    from literaki_cli.engine.lexicon import Lexicon

    solver = PositionSolver(Lexicon.open(Path(lexicon)))
    requests = [SolveRequest(), SolveRequest(by="score"), SolveRequest(top=30, exchanges=10),
                SolveRequest(top=3, word_contains="ŹŹ")]  # fmt: skip
    files = sorted((ROOT / "examples" / "positions").glob("*.cgp"))[::4] + [ROOT / "examples" / "game.cgp"]
    for path in files:
        position, _ = open_position(str(path))
        for request in requests:
            result = solver.solve(position, position.rack, request)
            _print_solutions(result, position.rack, 50, terminal=False)
            plain = capsys.readouterr().out
            _print_solutions(result, position.rack, 50, terminal=True)  # rich, on a console that is no terminal
            assert plain == capsys.readouterr().out, (path.name, request)
