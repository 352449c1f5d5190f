"""`literaki words` against hostile input: whole numbers of any size for every numeric option, a
word far longer than the lexicon's longest for --contains and --hooks --extensions (answered at
once, where the automaton used to be built in quadratic time), empty and huge patterns, NUL
bytes, non-UTF-8 arguments, a back-reference that backtracks without end.  Whatever comes in,
the answer is exit 0 or 1 with the right words, or exit 2 with one line on stderr; never a
traceback, exit 3 or a hang.  Every answer is judged by a plain-Python filter over the word list.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import literaki_cli.commands.words  # noqa: F401 - registers `words`
from lexicon_build.build import build_lexicon
from literaki_cli.engine import alphabet
from literaki_cli.engine.variant import load_variant
from literaki_cli.wordstudy import collation, search
from tests.conftest import run_cli

#: The letters of the random words; the long words below add the rest of theirs.
LETTERS = "akotrzeąćłżó"
#: Words of 14 and 15 letters (the longest the rules allow): hooks and extensions at the limit.
LONG_WORDS = ["najpiękniejszy", "najpiękniejszym", "ajpiękniejszym", "konstantynopola", "onstantynopola"]
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
NUMERIC_OPTIONS = ["--limit", "--length", "--min-length", "--max-length"]
#: A word of 10,000 letters: the old automaton took minutes for it (6 s at 2,000 letters).
HUGE_WORD = ("kotek" * 2000)[:10_000]


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    """A lexicon of 800 seeded random words of 2-9 letters, the kot family and LONG_WORDS; its
    path and its words."""
    rng = random.Random(7)
    words = {"".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9))) for _ in range(800)}
    words |= {"kot", "kota", "koty", "skot", "kotek", "kotka", "okot"} | set(LONG_WORDS)
    folder = tmp_path_factory.mktemp("limits")
    (folder / "words.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    out = folder / "limits.lexicon"
    build_lexicon(folder / "words.txt", out, load_variant())
    return str(out), words


def words_cli(capsys, lexicon, *args):
    """``literaki words ARGS --lexicon LEXICON`` in this process: (exit code, stdout, stderr)."""
    return run_cli(capsys, "words", *args, "--lexicon", lexicon[0])


def polish(words) -> list[str]:
    return collation.polish_sorted(words)


def assert_refused(code: int, out: str, err: str, *names: str) -> None:
    """Exit 2, nothing on stdout, one short line on stderr naming ``names``."""
    assert code == 2 and out == "", (code, out[:200], err[:300])
    assert err.startswith("literaki: error: ") and err.endswith("\n") and err.count("\n") == 1, err[:300]
    assert len(err) < 400, err[:400]
    for name in names:
        assert name in err, (name, err)


def assert_answered(code: int, out: str, err: str, expected: list[str]) -> None:
    """Exit 0 with exactly ``expected`` (one a line), or exit 1 and nothing when none; stderr empty."""
    assert err == "", err[:300]
    assert out.splitlines() == expected
    assert code == (0 if expected else 1)


# --------------------------------------------------------------------------- numbers of any size


def number_texts():
    """Whole numbers as typed: small, around the 64-bit limits, of up to 10,000 digits, signed."""
    digits = st.integers(1, 10_000).map(lambda n: "9" * n)
    limits = st.sampled_from([2**63 - 1, 2**63, 2**64, 10**26, 99999999999999999999999999]).map(str)
    magnitude = st.one_of(st.integers(0, 40).map(str), st.integers(0, 2**70).map(str), limits, digits)
    return st.tuples(st.sampled_from(["", "-", "+"]), magnitude).map("".join)


def value_of(text: str) -> int:
    """The number ``text`` says; past 30 digits, 10**30 (more than any word count or length)."""
    digits = text.lstrip("+-").lstrip("0") or "0"
    number = int(digits) if len(digits) <= 30 else 10**30
    return -number if text.startswith("-") else number


def expected_search(words: set[str], option: str, number: int) -> list[str] | None:
    """The words of ``k*`` with ``option number``, or None when the value must be refused."""
    found = polish(w for w in words if w.startswith("k"))
    if option == "--limit":
        return None if number < 0 else found[: number or None]
    if number < 1:
        return None
    keep = {"--length": lambda w: len(w) == number, "--min-length": lambda w: len(w) >= number,
            "--max-length": lambda w: len(w) <= number}[option]  # fmt: skip
    return [w for w in found if keep(w)]


@FUZZ
@given(option=st.sampled_from(NUMERIC_OPTIONS), text=number_texts())
@example(option="--limit", text="99999999999999999999999999")
@example(option="--length", text="99999999999999999999999999")
@example(option="--min-length", text="99999999999999999999999999")
@example(option="--max-length", text="99999999999999999999999999")
@example(option="--limit", text="-99999999999999999999999999")
@example(option="--length", text="9" * 5000)  # more digits than int() reads
def test_any_whole_number_is_answered_or_refused_in_one_line(lexicon, capsys, option, text):
    code, out, err = words_cli(capsys, lexicon, "k*", f"{option}={text}")
    expected = expected_search(lexicon[1], option, value_of(text))
    if expected is None:
        assert_refused(code, out, err, option)
    else:
        assert_answered(code, out, err, expected)


def test_the_issue_values(lexicon, capsys):
    """The values of the report: a limit past every word is no limit, a length past the longest
    word finds nothing; both with exit 0 or 1 and nothing on stderr."""
    huge = "99999999999999999999999999"
    ks = polish(w for w in lexicon[1] if w.startswith("k"))
    assert_answered(*words_cli(capsys, lexicon, "k*", "--limit", huge), ks)
    assert_answered(*words_cli(capsys, lexicon, "k*", "--max-length", huge), ks)
    assert_answered(*words_cli(capsys, lexicon, "k*", "--length", huge), [])
    assert_answered(*words_cli(capsys, lexicon, "k*", "--min-length", huge), [])
    assert_answered(*words_cli(capsys, lexicon, "k*", "-n", huge, "--order", "points"), [])
    assert_answered(*words_cli(capsys, lexicon, "--anagram", "kot", "--length", huge), [])
    assert_answered(*words_cli(capsys, lexicon, "--subanagram", "kota", "--min-length", huge), [])
    code, out, err = words_cli(capsys, lexicon, "k*", "--limit", huge, "--order", "length", "--count")
    assert (code, out, err) == (0, f"{len(ks)}\n", "")
    code, out, err = words_cli(capsys, lexicon, "--hooks", "kot", "--extensions", "--json", "--limit", huge)
    record = json.loads(out)
    assert (
        code == 0 and err == "" and record["containing"] == polish(w for w in lexicon[1] if "kot" in w and w != "kot")
    )
    assert_refused(*words_cli(capsys, lexicon, "k*", "--limit", "-1"), "--limit -1")
    assert_refused(*words_cli(capsys, lexicon, "k*", "--length", "0"), "--length 0")
    assert_refused(*words_cli(capsys, lexicon, "k*", "--min-length", "-" + huge), "--min-length -" + huge)


@FUZZ
@given(option=st.sampled_from(NUMERIC_OPTIONS), text=st.text(max_size=30))
@example(option="--limit", text="abc")
@example(option="--limit", text="")
@example(option="--limit", text="1e3")
@example(option="--limit", text="0x10")
@example(option="--length", text="٣")  # an Arabic-Indic three: int() reads it, the option does not
@example(option="--max-length", text="1.5")
@example(option="--min-length", text="\udcff")
@example(option="--limit", text="\x00")
def test_any_text_as_a_number_is_answered_or_refused_in_one_line(lexicon, capsys, option, text):
    code, out, err = words_cli(capsys, lexicon, "k*", f"{option}={text}")
    if code == 2:
        assert_refused(code, out, err, option)
    else:
        assert code in (0, 1) and err == "", (code, err)
        value = text.strip()
        assert value.lstrip("+-").replace("_", "").isdigit() and value.isascii(), text


def test_numbers_as_click_would_read_them(lexicon, capsys):
    ks = polish(w for w in lexicon[1] if w.startswith("k"))
    assert_answered(*words_cli(capsys, lexicon, "k*", "--limit", " 3 "), ks[:3])
    assert_answered(*words_cli(capsys, lexicon, "k*", "--limit", "+3"), ks[:3])
    assert_answered(*words_cli(capsys, lexicon, "k*", "--limit", "1_0"), ks[:10])
    assert_answered(*words_cli(capsys, lexicon, "k*", "--limit", "0" * 5000 + "2"), ks[:2])
    assert_answered(*words_cli(capsys, lexicon, "k*", "--limit", "0"), ks)


# --------------------------------------------------------------------------- words past the longest


def test_a_word_longer_than_any_is_answered_at_once(lexicon, capsys):
    """10,000 letters: no word contains it, starts or ends with it, none extends it."""
    assert_answered(*words_cli(capsys, lexicon, "--contains", HUGE_WORD), [])
    assert_answered(*words_cli(capsys, lexicon, "--starts", HUGE_WORD), [])
    assert_answered(*words_cli(capsys, lexicon, "--ends", HUGE_WORD), [])
    assert_answered(*words_cli(capsys, lexicon, HUGE_WORD), [])
    assert_answered(*words_cli(capsys, lexicon, "*" + HUGE_WORD + "*"), [])
    assert_answered(*words_cli(capsys, lexicon, "--regex", HUGE_WORD), [])
    assert_answered(*words_cli(capsys, lexicon, "--anagram", HUGE_WORD), [])
    code, out, err = words_cli(capsys, lexicon, "--hooks", HUGE_WORD, "--extensions")
    assert (code, err) == (0, "")
    assert out.splitlines() == [HUGE_WORD, "  front hooks: -", "  back hooks:  -", "  in 0 longer words: -"]
    code, out, err = words_cli(capsys, lexicon, "--hooks", HUGE_WORD, "--hooks", "kot", "--extensions", "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert (code, err) == (0, "")
    assert records[0] == {"word": HUGE_WORD, "front_hooks": [], "back_hooks": [], "containing_count": 0,
                          "containing": []}  # fmt: skip
    assert records[1]["word"] == "kot" and "kotek" in records[1]["containing"]


def expected_hooks(words: set[str], word: str) -> dict:
    longer = polish(w for w in words if word in w and w != word)
    return {
        "word": word,
        "front_hooks": [ch for ch in alphabet.POLISH_LETTERS if ch + word in words],
        "back_hooks": [ch for ch in alphabet.POLISH_LETTERS if word + ch in words],
        "containing_count": len(longer),
        "containing": longer,
    }


@st.composite
def pieces(draw, words: list[str]):
    """A piece of a word of the lexicon (the long ones often), or random letters, 1-17 long."""
    if draw(st.booleans()):
        word = draw(st.sampled_from(LONG_WORDS) if draw(st.booleans()) else st.sampled_from(words))
        start = draw(st.integers(0, len(word) - 1))
        return word[start : draw(st.integers(start + 1, len(word)))]
    return draw(st.text(alphabet=LETTERS + "najpiększym", min_size=1, max_size=17))


def test_long_but_legal_words_keep_their_answers(lexicon, capsys):
    """14 and 15 letters, the longest the lexicon has: the same answers as a plain filter."""
    words = lexicon[1]
    for word in [*LONG_WORDS, "piękniejszy", "najpiękniejszymi"]:
        code, out, err = words_cli(capsys, lexicon, "--hooks", word, "--extensions", "--json", "--limit", "0")
        assert (code, err) == (0, "") and json.loads(out) == expected_hooks(words, word), word
        assert_answered(*words_cli(capsys, lexicon, "--contains", word), polish(w for w in words if word in w))
    code, out, _ = words_cli(capsys, lexicon, "--hooks", "najpiękniejszy", "--extensions", "--json")
    assert json.loads(out)["back_hooks"] == ["m"] and json.loads(out)["containing"] == ["najpiękniejszym"]
    code, out, _ = words_cli(capsys, lexicon, "--hooks", "ajpiękniejszym", "--json")
    assert json.loads(out)["front_hooks"] == ["n"]


@FUZZ
@given(data=st.data())
def test_contains_and_extensions_agree_with_a_plain_filter(lexicon, capsys, data):
    words = lexicon[1]
    word = data.draw(pieces(sorted(words)))
    code, out, err = words_cli(capsys, lexicon, "--hooks", word, "--extensions", "--json", "--limit", "0")
    assert (code, err) == (0, "") and json.loads(out) == expected_hooks(words, word)
    assert_answered(*words_cli(capsys, lexicon, "--contains", word), polish(w for w in words if word in w))


# --------------------------------------------------------------------------- hostile text


HOSTILE = [
    (["", "--count"], "--pattern"),
    (["   "], "--pattern"),
    (["--pattern", ""], "--pattern"),
    (["--regex", ""], "--regex"),
    (["--contains", ""], "--contains"),
    (["--starts", " "], "--starts"),
    (["--ends", ""], "--ends"),
    (["--anagram", ""], "--anagram"),
    (["--subanagram", "  "], "--subanagram"),
    (["--hooks", ""], "--hooks"),
    (["--hooks", "?"], "--hooks '?': character 1 '?'"),
    (["--hooks", "k?t"], "--hooks 'k?t': character 2 '?'"),
    (["--hooks", "ko*"], "--hooks 'ko*'"),
    (["--hooks", "kot", "--hooks", "k\x00t"], "--hooks 'k\\x00t'"),
    (["k\x00t"], "--pattern 'k\\x00t'"),
    (["--contains", "\x00"], "--contains"),
    (["--anagram", "ko\x00"], "--anagram"),
    (["k\udcff*"], "--pattern 'k\\udcff*'"),
    (["--hooks", "\udcff"], "--hooks '\\udcff'"),
    (["--starts", "\udc80\udcff"], "--starts"),
    (["--order", "\udcff"], "--order"),
    (["--order", "x" * 100_000], "--order 'xxxx"),
    (["[a" * 50_000], "(100,000 characters)"),
    (["k" * 99_999 + "1"], "(100,000 characters): character 100000 '1'"),
    (["--regex", "(" * 100_000], "--regex"),
    (["--regex", "a{99999999999}"], "--regex"),
    (["--hooks", "ż" * 100_000 + "-"], "character 100001 '-'"),
    (["--anagram", "a" * 100_000 + "1"], "--anagram"),
]


@pytest.mark.parametrize(("args", "message"), HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_text_is_one_line(lexicon, capsys, args, message):
    assert_refused(*words_cli(capsys, lexicon, *args), message)


@pytest.mark.parametrize("depth", [50, 300, 400, 450, 500, 700, 1000, 5000])
def test_deeply_nested_regex_is_answered_or_refused_in_one_line(lexicon, capsys, depth):
    """Nested groups: Python's parser takes a few hundred levels, and the automaton's own
    recursion once gave a RecursionError (exit 3) at 400."""
    code, out, err = words_cli(capsys, lexicon, "--regex", "(" * depth + "k" + "|o)" * depth)
    if code == 2:
        assert_refused(code, out, err, "--regex")
    else:
        assert_answered(code, out, err, polish(w for w in lexicon[1] if "k" in w or "o" in w))


def test_huge_patterns_are_answered(lexicon, capsys):
    """100,000 characters: letters or '?' need more letters than any word, '*' is every word."""
    every = polish(lexicon[1])
    assert_answered(*words_cli(capsys, lexicon, "a" * 100_000), [])
    assert_answered(*words_cli(capsys, lexicon, "?" * 100_000), [])
    assert_answered(*words_cli(capsys, lexicon, "*" * 100_000), every)
    assert_answered(*words_cli(capsys, lexicon, "k" + "*" * 100_000), polish(w for w in every if w[0] == "k"))
    assert_answered(*words_cli(capsys, lexicon, "--regex", "a" * 100_000), [])
    assert_answered(*words_cli(capsys, lexicon, "--regex", "(a{1000}){1000}"), [])
    assert_answered(
        *words_cli(capsys, lexicon, "--regex", "^(.{0,64}){0,64}k$"), polish(w for w in every if w[-1] == "k")
    )
    code, out, err = words_cli(capsys, lexicon, "--subanagram", "?" * 100_000, "--count")
    assert (code, out, err) == (0, f"{len(every)}\n", "")


TEXT_OPTIONS = ["--pattern", "--regex", "--contains", "--starts", "--ends", "--anagram", "--subanagram", "--hooks",
                "--order"]  # fmt: skip
hostile_characters = st.one_of(
    st.characters(),
    st.sampled_from(["\x00", "\udcff", "\udc80", "?", "*", ".", "[", "]", "^", "!", "-", "(", ")", "|", "\\", "{"]),
    st.sampled_from(list(LETTERS)),
)


@FUZZ
@given(option=st.sampled_from(TEXT_OPTIONS), text=st.text(hostile_characters, max_size=24))
def test_any_text_is_answered_or_refused_in_one_line(lexicon, capsys, option, text):
    code, out, err = words_cli(capsys, lexicon, f"{option}={text}")
    if code == 2:
        assert_refused(code, out, err)
        assert option in err or "too complex" in err, err
    else:
        assert code in (0, 1) and err == "", (code, err[:300])


# --------------------------------------------------------------------------- re without end


def test_a_back_reference_that_backtracks_without_end_is_refused(lexicon, capsys, monkeypatch):
    """``^((.*)*)*\\2x$`` takes ``re`` longer than a minute on one word of 15 letters: refused
    when its time is up (1 s here), the timer and SIGALRM handler put back as they were."""
    monkeypatch.setattr(search, "POST_FILTER_SECONDS", 1.0)
    handler, timer = signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)
    code, out, err = words_cli(capsys, lexicon, "--regex", r"^((.*)*)*\2x$")
    assert_refused(code, out, err, "--regex", "still matching after 1 s")
    assert signal.getsignal(signal.SIGALRM) is handler
    assert timer != (0.0, 0.0) or signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    # A back-reference that does end still answers, with the time limit in place.
    doubled = polish(w for w in lexicon[1] if any(a == b for a, b in zip(w, w[1:], strict=False)))
    assert_answered(*words_cli(capsys, lexicon, "--regex", r"(.)\1"), doubled)


# --------------------------------------------------------------------------- the real process


@pytest.mark.parametrize(
    ("args", "message"),
    [([b"k\xff*"], b"--pattern 'k\\udcff*'"), ([b"--hooks", b"\xc5"], b"--hooks '\\udcc5'")],
)
def test_non_utf8_arguments_in_a_real_process(lexicon, args, message):
    """Bytes that are no UTF-8, as a shell passes them (surrogate escapes inside Python)."""
    env = dict(os.environ, LITERAKI_LEXICON=lexicon[0], PYTHONIOENCODING="utf-8")
    proc = subprocess.run([sys.executable, "-m", "literaki_cli", "words", *args], env=env, capture_output=True)
    assert proc.returncode == 2 and proc.stdout == b"", proc.stderr
    assert proc.stderr.startswith(b"literaki: error: ") and proc.stderr.count(b"\n") == 1, proc.stderr
    assert message in proc.stderr
