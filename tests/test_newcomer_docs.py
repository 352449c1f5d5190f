"""What the docs say about a command's output agrees with the output (issue 39's wrong claims: the
first-run compile "about 3 s", `--only-bingos` "an empty list here", `count` "the moves listed",
`pip install 'literaki[cluster]'`), checked on the real word list where the claim is about it."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import ROOT, run_cli

SOLVE_DOC = ROOT / "docs" / "solve.md"
EVERY_PAGE = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def solve_json(capsys, lexicon, *args) -> dict:
    code, out, err = run_cli(capsys, "solve", str(ROOT / "examples" / "game.cgp"), "--json", "--lexicon", str(lexicon),
                             *args)  # fmt: skip
    assert code == 0, err
    return json.loads(out)


@pytest.mark.sjp
def test_the_only_bingos_example_says_what_it_lists(capsys, sjp_build):
    line = next(line for line in SOLVE_DOC.read_text(encoding="utf-8").splitlines() if "--only-bingos" in line)
    answer = solve_json(capsys, sjp_build.output, "--only-bingos")
    assert answer["count"] > 0 and all(move["bingo"] for move in answer["moves"])
    assert "empty" not in line and "7 tiles" in line


@pytest.mark.sjp
def test_count_is_documented_as_counted_before_top(capsys, sjp_build):
    answer = solve_json(capsys, sjp_build.output, "--top", "3")
    assert len(answer["moves"]) == 3 and answer["count"] == answer["generated"] == 5631
    text = " ".join(SOLVE_DOC.read_text(encoding="utf-8").replace("*", "").split())
    described = re.search(r"\(`count`: (.+?); `generated`", text)
    assert described and "before `--top`" in described.group(1) and "listed after" not in described.group(1)


def test_no_page_promises_a_three_second_compile_or_a_package_that_is_not_on_the_index():
    for page in EVERY_PAGE:
        text = page.read_text(encoding="utf-8")
        assert "about 3 s)" not in text, page
        assert "literaki[cluster]" not in text, page
