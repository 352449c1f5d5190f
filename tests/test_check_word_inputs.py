"""check-word's inputs and outputs (issue 12): Windows word files and stdin, empty words, bad
arguments, a closed or full stdout, a line-at-a-time producer, --extensions in bounded batches,
and a help page without Python type names."""

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.analysis import wordcheck, wordinput
from literaki_cli.cli import main
from literaki_cli.errors import InputError
from tests.conftest import SMALL_WORDS, run_cli

run = run_cli


def literaki(args, small_lexicon, **kwargs):
    """The real process (``args`` may hold bytes, as a shell passes them)."""
    env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
    return subprocess.run([sys.executable, "-m", "literaki_cli", *args], env=env, capture_output=True, **kwargs)


# --------------------------------------------------------------------------- Windows files and stdin


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + "żółw\r\nźdźbło\r\n".encode(),  # Notepad's UTF-8 with a BOM
        "żółw\r\nźdźbło\r\n".encode("cp1250"),
        "żółw\nźdźbło\n".encode("iso-8859-2"),
        "żółw\n".encode("cp1250") + "źdźbło\n".encode(),  # one list appended to another
    ],
    ids=["utf8-bom", "cp1250", "iso-8859-2", "mixed"],
)
def test_word_files_in_every_encoding_build_lexicon_reads(env_lexicon, capsys, tmp_path, data):
    words = tmp_path / "words.txt"
    words.write_bytes(data)
    assert run(capsys, "check-word", "--file", str(words)) == (0, "żółw\tvalid\nźdźbło\tvalid\n", "")


def test_stdin_in_cp1250_and_with_a_bom(small_lexicon):
    proc = literaki(["check-word", "-"], small_lexicon, input="źdźbło\r\nkot\r\n".encode("cp1250"))
    assert (proc.returncode, proc.stdout.decode()) == (0, "źdźbło\tvalid\nkot\tvalid\n")
    proc = literaki(["check-word", "-", "--json"], small_lexicon, input=b"\xef\xbb\xbfkot\n")
    assert json.loads(proc.stdout)["word"] == "kot" and proc.returncode == 0


def test_undecodable_stdin_names_the_line(small_lexicon):
    proc = literaki(["check-word", "-"], small_lexicon, input=b"kot\n\nala\n\x81\x98\nkota\n")
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("literaki: error: stdin: line 4: ")
    assert proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr


def test_a_big_file_names_the_bad_line_exactly(env_lexicon, capsys, tmp_path):
    bad_line = 400_001  # far beyond the first chunk the file is read and decoded in
    words = tmp_path / "big.txt"
    words.write_bytes(b"kot\n" * (bad_line - 1) + b"\x81\n" + b"kot\n" * 10)
    code, _, err = run(capsys, "check-word", "--quiet", "--file", str(words))
    assert code == 2 and err.startswith(f"literaki: error: {words}: line {bad_line}: ") and err.count("\n") == 1


@settings(max_examples=60, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["kot", "", "  ala ", "żółw", "bąk\r"]), min_size=0, max_size=40),
    bad_at=st.integers(min_value=0, max_value=40),
    read_size=st.integers(min_value=1, max_value=16),
)
def test_line_numbers_do_not_depend_on_the_chunks(tmp_path_factory, lines, bad_at, read_size):
    """Whatever the chunk boundaries, the error names the line where the bad bytes are."""
    bad_at = min(bad_at, len(lines))
    raw = [line.encode() for line in lines]
    raw.insert(bad_at, b"k\x81t")
    path = tmp_path_factory.mktemp("chunks") / "w.txt"
    path.write_bytes(b"\n".join(raw) + b"\n")
    good = path.with_name("good.txt")
    good.write_bytes(b"\n".join(line.encode() for line in lines) + b"\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(wordinput, "READ_SIZE", read_size)
        patch.setattr(wordinput, "CHUNK_SIZE", read_size * 2)
        with pytest.raises(InputError, match=rf": line {bad_at + 1}: "):
            list(wordinput.word_lines([], path))
        assert list(wordinput.word_lines([], good)) == [line.strip() for line in lines if line.strip()]


def test_binary_garbage_without_line_breaks_is_refused(env_lexicon, capsys, tmp_path):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"kot\n" + b"a" * (wordinput.MAX_LINE + wordinput.READ_SIZE + 10))
    code, _, err = run(capsys, "check-word", "--file", str(blob))
    assert code == 2 and "line 2: longer than" in err


# --------------------------------------------------------------------------- arguments


def test_an_empty_word_is_invalid(env_lexicon, capsys, tmp_path):
    assert run(capsys, "check-word", "")[:2] == (1, "\tinvalid\tempty word\n")
    assert run(capsys, "check-word", "kot", "  ")[:2] == (1, "kot\tvalid\n\tinvalid\tempty word\n")
    assert run(capsys, "check-word", "--quiet", "")[0] == 1
    code, out, _ = run(capsys, "check-word", "--json", "")
    assert code == 1 and json.loads(out)["reason"] == "empty"
    code, out, _ = run(capsys, "check-word", "-e", "--json", "")
    assert code == 1 and json.loads(out)["extensions"]["containing_count"] == 0
    # Blank lines of a file are no words: skipped, as before.
    words = tmp_path / "w.txt"
    words.write_text("kot\n\n   \nala\n", encoding="utf-8")
    assert run(capsys, "check-word", "--file", str(words))[:2] == (0, "kot\tvalid\nala\tvalid\n")


def test_an_argument_with_a_line_break_is_one_invalid_word(env_lexicon, capsys):
    code, out, err = run(capsys, "check-word", "--json", "kot\nkota", "ala")
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and err == ""
    verdicts = [(r["word"], r["valid"], r["reason"]) for r in records]
    assert verdicts == [("kot\nkota", False, "space"), ("ala", True, None)]


def test_arguments_that_are_not_utf8_are_named(env_lexicon, capsys, small_lexicon):
    proc = literaki([b"check-word", b"kot", b"\xff"], small_lexicon)
    assert proc.returncode == 2 and proc.stdout == b""
    assert proc.stderr == b"literaki: error: word argument 2 (\\xff): not UTF-8 text\n"
    code, out, err = run(capsys, "check-word", "kot", "a\ud800b")  # a lone surrogate (no shell gives one)
    assert code == 2 and out == "" and "word argument 2 (a\\ud800b): not UTF-8 text" in err


# --------------------------------------------------------------------------- output


@pytest.mark.parametrize("options", [[], ["-e"]])
@pytest.mark.slow
def test_a_closed_stdout_ends_quietly_with_141(small_lexicon, tmp_path, options):
    words = tmp_path / "many.txt"
    words.write_text("kot\nala\n" * 50_000, encoding="utf-8")
    env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
    for reader in ("head -1", "true"):
        command = f'"{sys.executable}" -m literaki_cli check-word {" ".join(options)} --file "{words}" | {reader}'
        proc = subprocess.run(
            ["bash", "-c", command + '; echo "status=${PIPESTATUS[0]}" >&2'], env=env, capture_output=True, text=True
        )
        assert proc.stderr == "status=141\n", (reader, proc.stderr)


class ClosedPipe:
    """Standard output whose reader went away."""

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    flush = write

    def isatty(self):
        return False


def test_a_closed_stdout_in_process(env_lexicon, monkeypatch):
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["check-word", "kot", "ala"]) == 141


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("options", [["kot"], ["--json", "-"], ["-e", "kot"]])
def test_a_full_disk_is_one_line_and_exit_2(small_lexicon, options):
    with open("/dev/full", "wb") as full:
        env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
        proc = subprocess.run(
            [sys.executable, "-m", "literaki_cli", "check-word", *options],
            input=b"kot\n" * 10,
            stdout=full,
            stderr=subprocess.PIPE,
            env=env,
        )
    assert proc.returncode == 2
    assert proc.stderr == b"literaki: error: cannot write the output: No space left on device\n"


# --------------------------------------------------------------------------- a line-at-a-time producer


def test_each_line_is_answered_before_the_next_is_written(small_lexicon):
    env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
    proc = subprocess.Popen(
        [sys.executable, "-m", "literaki_cli", "check-word", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        answers = []
        for word in ["kot", "quiz", "żółw"]:
            proc.stdin.write(word.encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, f"no answer for {word!r} while stdin stays open"
            answers.append(json.loads(proc.stdout.readline()))
        assert [(a["word"], a["valid"]) for a in answers] == [("kot", True), ("quiz", False), ("żółw", True)]
        proc.stdin.close()
        assert proc.wait(timeout=60) == 1
    finally:
        proc.kill()


def test_a_fast_stream_is_checked_in_large_batches(tmp_path):
    words = tmp_path / "w.txt"
    words.write_bytes(b"kot\n" * 300_000)
    sizes = [len(batch) for batch in wordinput.word_batches([], words)]
    assert sum(sizes) == 300_000 and len(sizes) <= 2  # a 1.2 MB file: one or two chunks, not 300,000


# --------------------------------------------------------------------------- --extensions in bounded batches


def containing_oracle(word: str) -> list[str]:
    """Plain substring search over the small list, in the lexicon's (Polish alphabetical) order."""
    from literaki_cli.engine.alphabet import collation_key

    return sorted((w for w in SMALL_WORDS if word in w and w != word), key=collation_key)


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(
        st.one_of(
            st.sampled_from(SMALL_WORDS).flatmap(
                lambda w: st.tuples(st.integers(0, len(w)), st.integers(0, len(w))).map(lambda ij: w[min(ij) : max(ij)])
            ),
            st.text(alphabet="akotąłź?-", max_size=4),
        ),
        max_size=12,
    ),
    budget=st.integers(min_value=1, max_value=40),
)
def test_extensions_in_small_batches_match_a_substring_search(small_lexicon_words, words, budget):
    finder, _ = small_lexicon_words
    old_budget = wordcheck.MATCH_BUDGET
    wordcheck.MATCH_BUDGET = budget  # a few matches per pass: the batches must split
    try:
        found = list(finder.extensions(words, limit=None))
    finally:
        wordcheck.MATCH_BUDGET = old_budget
    assert [word for word, _ in found] == words
    for word, ext in found:
        expected = containing_oracle(word) if word else []
        assert ext.containing == expected and ext.containing_count == len(expected)
        assert ext.back_hooks == [w for w in expected if len(w) == len(word) + 1 and w.startswith(word)]
        assert ext.front_hooks == [w for w in expected if len(w) == len(word) + 1 and w.endswith(word)]


def test_a_limit_keeps_the_count(small_lexicon_words):
    finder, _ = small_lexicon_words
    [(_, ext)] = finder.extensions(["a"], limit=2)
    assert ext.containing == containing_oracle("a")[:2] and ext.containing_count == len(containing_oracle("a"))


def test_a_batch_over_the_budget_is_split(small_lexicon_words, monkeypatch):
    finder, _ = small_lexicon_words
    monkeypatch.setattr(wordcheck, "MATCH_BUDGET", 3)
    assert finder._find(["a", "k", "ó"], None) is None  # far more than 3 matches in one pass
    assert finder._find(["ko"], None) is not None  # one word is never refused: at most the lexicon


@pytest.fixture(scope="module")
def small_lexicon_words(small_lexicon):
    from literaki_cli.engine.lexicon import Lexicon

    word_set = Lexicon.open(small_lexicon).words
    return wordcheck.ExtensionFinder.of(word_set), word_set


@pytest.mark.slow
def test_extensions_memory_does_not_grow_with_the_input(small_lexicon, tmp_path):
    """Past one batch, peak memory no longer grows with the input: 210,000 words take about what
    70,000 do (it grew by about 1 GB per 100,000 words of real lexicon before)."""
    peaks = []
    for count in (70_000, 210_000):
        words = tmp_path / f"w{count}.txt"
        distinct = ("".join("abcdefghij"[int(digit)] for digit in f"{n:06d}") for n in range(count))
        words.write_text("\n".join(distinct) + "\n", encoding="utf-8")
        code = (
            "import resource, subprocess, sys;"
            "subprocess.run([sys.executable, '-m', 'literaki_cli', 'check-word', '-e', '--json', '--file',"
            f" {str(words)!r}], stdout=subprocess.DEVNULL, check=False);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        )
        env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
        started = time.monotonic()
        peaks.append(int(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True).stdout))
        assert time.monotonic() - started < 120
    assert peaks[1] < peaks[0] + 40_000, peaks  # kB


# --------------------------------------------------------------------------- help


def test_check_word_help_has_examples_and_no_python_types(capsys):
    code, out, _ = run(capsys, "check-word", "--help")
    assert code == 0 and "Examples:" in out and "literaki check-word --file words.txt" in out
    for leak in ("<bool>", "<list[", "<int", "<str>", "<path>"):
        assert leak not in out


@pytest.mark.parametrize(
    "command", ["build-lexicon", "lexicon-info", "show", "score", "solve", "anagram", "play", "simulate", "report"]
)
def test_no_help_page_shows_python_type_names(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    for leak in ("<bool>", "<list[", "<int", "<str>", "<float>", "<path>"):
        assert leak not in out, (command, leak)


@pytest.mark.parametrize("args", [["show", "examples/simulated-game.gcg", "--turn", "5"],
                                  ["analyze", "examples/simulated-game.gcg", "--endgame-time", "0"]])  # fmt: skip
def test_a_closed_stdout_under_rich_output_ends_with_141_too(env_lexicon, monkeypatch, args):
    """Rich's own answer to a reader gone away is exit 1; the commands that print through it
    end as every other output does."""
    from tests.conftest import ROOT

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(args) == 141
