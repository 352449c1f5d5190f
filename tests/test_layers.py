"""The packages import one way: every import of literaki_cli (at the top of a module or inside
a function) is read from the source, and none may climb back up the layers below."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PACKAGE = ROOT / "literaki_cli"

#: What each package must never import: the layers above it (the top-level modules errors,
#: inputs, datafiles and outputs are below everything).
FORBIDDEN = {
    "engine": {"io", "games", "analysis", "review", "endgame", "equity", "montecarlo", "commands", "cluster", "web"},
    "io": {"games", "analysis", "review", "endgame", "equity", "montecarlo", "commands", "cluster", "web"},
    "endgame": {"io", "games", "analysis", "review", "montecarlo", "commands", "cluster", "web"},
    "equity": {"io", "games", "analysis", "review", "endgame", "montecarlo", "commands", "cluster", "web"},
    "games": {"review", "montecarlo", "commands", "cluster", "web"},
    "analysis": {"review", "cluster", "web"},
    "review": {"commands", "cluster", "web"},
    "locales": {"engine", "io", "games", "analysis", "review", "endgame", "equity", "montecarlo", "commands", "cluster",
                "web"},  # (the words of every layer: play's and the page's alike)
}


def imported_packages(package: str) -> dict[str, set[str]]:
    """The literaki_cli packages each module of ``package`` imports: {module path: packages}."""
    found = {}
    for path in sorted((PACKAGE / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            names |= {m.split(".")[1] for m in modules if m.startswith("literaki_cli.")}
        found[str(path.relative_to(ROOT))] = names
    return found


def test_no_package_imports_a_layer_above_it():
    climbing = [f"{module} imports literaki_cli.{name}"
                for package, above in FORBIDDEN.items()
                for module, names in imported_packages(package).items()
                for name in sorted(names & above)]  # fmt: skip
    assert climbing == []


def test_the_check_sees_imports_inside_functions():
    """The GCG reader imports the variant loader inside a function: the walk must see it."""
    assert "engine" in imported_packages("io")[str(Path("literaki_cli/io/gcg.py"))]
