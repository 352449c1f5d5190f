"""Every message the API can send has the page's texts in both languages.

Read from the source, not from the requests a test thought of: every module the server's code
imports (from :mod:`literaki_cli.web.api`, ``jobs`` and ``jobwork`` on) makes each error it raises
with :func:`literaki_cli.errors.said`, and every template ``said`` is given anywhere has a Polish
text, and an English one of the page's words where the command line's name an option, each of the
template's fields only."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from literaki_cli.errors import InputError, joined, message_of, said
from literaki_cli.locales import MESSAGE_FORMAT, message_texts, polish_plural
from literaki_cli.web.messages import page_message

PACKAGE = Path(__file__).resolve().parent.parent / "literaki_cli"
SERVER_MODULES = ("literaki_cli.web.api", "literaki_cli.web.jobs", "literaki_cli.web.jobwork")
OPTION = re.compile(r"(?<![\w-])--[a-z]")


def module_file(name: str) -> Path | None:
    path = PACKAGE.parent.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


def reachable_modules(roots=SERVER_MODULES) -> dict[str, Path]:
    """The package's modules ``roots`` import, at the top or inside a function, and theirs."""
    found: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        path = module_file(name)
        if name in found or path is None:
            continue
        found[name] = path
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("literaki_cli"):
                todo += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                todo += [alias.name for alias in node.names if alias.name.startswith("literaki_cli")]
    return found


def error_classes() -> set[str]:
    """The names of the package's exceptions the API turns into a message (LiterakiError's kin)."""
    bases: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases)
    names = {"LiterakiError", "TooLarge"}
    while True:
        more = {name for name, of in bases.items() if of & names} - names
        if not more:
            return names
        names |= more


def said_calls(path: Path):
    """``(line, template or None, keyword names)`` of each ``said(...)`` call in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "said":
            first = node.args[0] if node.args else None
            template = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            yield node.lineno, template, {k.arg for k in node.keywords}


def unsaid_errors(path: Path, classes: set[str]):
    """``(line, what)`` of each error made with a message that ``said`` did not make, and of each
    note of a review (shown on the page beside its turn) made so."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in classes and node.args:
            first = node.args[0]
            if isinstance(first, (ast.Constant, ast.JoinedStr, ast.BinOp)) or (
                    isinstance(first, ast.Call)
                    and (getattr(first.func, "id", None) or getattr(first.func, "attr", None))
                    not in ("said", "message_of", "with_fields")):  # fmt: skip
                yield node.lineno, node.func.id
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in ("append", "insert", "extend")
              and getattr(node.func.value, "attr", None) == "notes" and node.args):  # fmt: skip
            note = node.args[-1]
            if isinstance(note, ast.GeneratorExp | ast.ListComp):
                note = note.elt
            if isinstance(note, (ast.Constant, ast.JoinedStr, ast.BinOp)) or (
                    isinstance(note, ast.Call) and getattr(note.func, "attr", None) == "join"):
                yield node.lineno, "notes"


def fields_of(text: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def catalog_problems(modules: dict[str, Path], polish: dict[str, str], english: dict[str, str],
                     every_template: bool = True) -> list[str]:  # fmt: skip
    """What keeps the API's messages from being said on the page in both languages: an error of a
    server module not made by ``said``, a template with no Polish text, a text with a field its
    template has not, an option of the command line named on the page, a text of no template."""
    problems = []
    classes = error_classes()
    templates: set[str] = set()
    files = set(modules.values()) | (set(PACKAGE.rglob("*.py")) if every_template else set())
    for path in sorted(files):
        where = path.relative_to(PACKAGE.parent)
        if path in modules.values():
            problems += [f"{where}:{line}: {what}(...) of a message not made by said()"
                         for line, what in unsaid_errors(path, classes)]  # fmt: skip
        for line, template, keywords in said_calls(path) if path.name != "errors.py" else ():  # (said itself)
            if template is None:
                problems.append(f"{where}:{line}: said() of no literal template")
                continue
            templates.add(template)
            if not fields_of(template) <= keywords:
                problems.append(f"{where}:{line}: {template!r} has fields said() is not given")
            texts = {"pl": polish.get(template), "en": english.get(template, template)}
            if texts["pl"] is None:
                problems.append(f"{where}:{line}: no Polish text for {template!r}")
            for lang, text in texts.items():
                if text is not None and not fields_of(text) <= keywords:
                    problems.append(f"{where}:{line}: the {lang} text of {template!r} has fields the template has not")
                if text is not None and OPTION.search(text):
                    problems.append(f"{where}:{line}: the {lang} text of {template!r} names a command-line option")
                try:  # numbers in every field: what a count's noun form and a format spec need
                    MESSAGE_FORMAT.format(text or "", **dict.fromkeys(keywords, 2))
                except (KeyError, IndexError, ValueError, TypeError) as exc:
                    problems.append(f"{where}:{line}: the {lang} text of {template!r} does not format: {exc!r}")
    if every_template:
        problems += [f"messages.{lang}.toml: {key!r} is no template of the code"
                     for lang, texts in (("pl", polish), ("en", english)) for key in texts if key not in templates]
    return problems


def test_every_message_the_api_can_send_has_both_texts():
    modules = reachable_modules()
    assert len(modules) > 40 and "literaki_cli.io.positionio" in modules
    problems = catalog_problems(modules, message_texts("pl"), message_texts("en"))
    assert not problems, "\n".join(problems)


CATALOG = {"pl": {"rack": "stojak", "{what} {rack} holds {count} tiles, at most {most}":
                   "{what} {rack} ma {count:~płytkę/płytki/płytek}, a mieści najwyżej {most}",
                   "{where}: {problems}": "{where}: {problems}", "turn {number}": "tura {number}",
                   "h8 is taken": "pole h8 jest zajęte", "{square} is taken": "pole {square} jest zajęte",
                   "bad {value:,}": "zła liczba {value:~x}"},
           "en": {"{what} {rack} holds {count} tiles, at most {most}":
                  "{what} {rack} has {count} tiles (at most {most})"}}


@pytest.fixture
def catalog(monkeypatch):
    import literaki_cli.locales as locales
    import literaki_cli.web.messages as messages

    for module in (locales, messages):
        monkeypatch.setattr(module, "message_texts", lambda lang: CATALOG[lang])


def test_a_message_said_is_the_command_lines_words_and_the_pages_in_each_language(catalog):
    import pickle

    message = said("{what} {rack} holds {count} tiles, at most {most}", what=said("rack"), rack=1, count=3, most=7)
    error = InputError(message)
    assert str(error) == "rack 1 holds 3 tiles, at most 7" and message_of(error) is message
    assert page_message(message, None) == "rack 1 holds 3 tiles, at most 7"
    assert page_message(message, "pl") == "Stojak 1 ma 3 płytki, a mieści najwyżej 7"  # its label said too
    assert page_message(message, "en") == "Rack 1 has 3 tiles (at most 7)"
    again = pickle.loads(pickle.dumps(message))  # as a job's process sends it
    assert page_message(again, "pl") == page_message(message, "pl")


def test_messages_joined_and_wrapped_are_said_each_in_the_pages_words(catalog):
    message = said("{where}: {problems}", where=said("turn {number}", number=4),
                   problems=joined([said("h8 is taken"), said("{square} is taken", square="a1")]))  # fmt: skip
    assert message == "turn 4: h8 is taken; a1 is taken"
    assert page_message(message, "pl") == "Tura 4: pole h8 jest zajęte; pole a1 jest zajęte"
    assert page_message(message, "en") == "Turn 4: h8 is taken; a1 is taken"
    problems = joined([said("h8 is taken"), said("{square} is taken", square="a1")])
    assert page_message(problems, "pl") == "Pole h8 jest zajęte; pole a1 jest zajęte"  # one sentence, one capital


def test_a_text_that_does_not_fit_its_fields_still_says_the_message(catalog):
    assert page_message(said("bad {value:,}", value=2), "pl") == "bad 2"  # '~x' has no three forms: a bug's fallback
    assert page_message("unknown thing (--lenient reads it)", "pl") == "unknown thing"  # not said: no option named


@pytest.mark.parametrize("count, noun", [(1, "płytka"), (2, "płytki"), (4, "płytki"), (5, "płytek"),
                                         (12, "płytek"), (14, "płytek"), (22, "płytki"), (25, "płytek"),
                                         (0, "płytek"), (104, "płytki"), (112, "płytek")])  # fmt: skip
def test_a_polish_number_takes_its_nouns_form(count, noun):
    assert polish_plural(count, "płytka", "płytki", "płytek") == noun


def test_a_failed_jobs_reason_is_said_in_the_words_of_the_page_that_asks(catalog):
    """A job's process sends its error (pickled) to the server; the state a page polls says it in
    the page's language, and a script hears the command line's words."""
    import pickle

    from starlette.requests import Request

    from literaki_cli.web.api import _job_view

    def asked(lang: str | None) -> Request:
        headers = [(b"x-literaki-lang", lang.encode())] if lang else []
        return Request({"type": "http", "method": "GET", "path": "/api/jobs/x", "headers": headers})

    sent = pickle.loads(pickle.dumps(said("{square} is taken", square="h8")))
    assert _job_view(asked("pl"), {"state": "failed", "error": sent})["error"] == "Pole h8 jest zajęte"
    assert _job_view(asked(None), {"state": "failed", "error": sent})["error"] == "h8 is taken"
    assert _job_view(asked("pl"), {"state": "done", "error": None})["error"] is None
