"""Lexicon versions: `lexicon-diff` gives exactly the set differences (dumps, lexicons, one of
each), `lexicon-info` shows the dump's date, and words new since an older version are marked."""

from __future__ import annotations

import json
import random
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import literaki_cli.commands.words  # noqa: F401 - registers `words` before COMMAND_MODULES lists it
from lexicon_build.build import build_lexicon
from literaki_cli.engine import alphabet
from literaki_cli.engine.variant import load_variant
from literaki_cli.engine.wordrules import WordRules
from literaki_cli.wordstudy import collation, kernels
from literaki_cli.wordstudy.packed import PackedWords
from literaki_cli.wordstudy.packed import diff as packed_diff
from literaki_cli.wordstudy.versions import (
    NewSince,
    diff_versions,
    dump_date,
    lexicon_source_date,
    open_version,
    open_versions,
    playable_words,
)
from tests.conftest import run_cli

LITERAKI = load_variant()
RULES = WordRules.of(LITERAKI)

OLD_WORDS = ["kot", "kota", "koty", "żółw", "pies", "ąb", "zając", "bąk", "quiz", "a"]
NEW_WORDS = ["kot", "kota", "kotek", "żółw", "żółwie", "ąb", "bąk", "ćma", "taxi", "x", "źdźbło"]
#: The playable words of each (quiz, taxi: letters without a tile; a, x: one letter).
ADDED = ["ćma", "kotek", "źdźbło", "żółwie"]
REMOVED = ["koty", "pies", "zając"]


def write_dump(path, words):
    """An SJP-style games dump: a zip holding slowa.txt (CRLF lines, UTF-8)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("slowa.txt", "\r\n".join(words) + "\r\n")
        archive.writestr("README.txt", "Słownik SJP.PL - wersja do gier słownych\r\n")
    return path


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """Two dumps (January and February 2025) and the lexicons built from them."""
    folder = tmp_path_factory.mktemp("versions")
    old_dump = write_dump(folder / "sjp-20250101.zip", OLD_WORDS)
    new_dump = write_dump(folder / "sjp-20250201.zip", NEW_WORDS)
    old_lex = build_lexicon(old_dump, folder / "old.lexicon", LITERAKI).output
    new_lex = build_lexicon(new_dump, folder / "new.lexicon", LITERAKI).output
    return {"old_dump": old_dump, "new_dump": new_dump, "old_lex": old_lex, "new_lex": new_lex}


@pytest.mark.parametrize("old_key", ["old_dump", "old_lex"])
@pytest.mark.parametrize("new_key", ["new_dump", "new_lex"])
def test_diff_is_the_set_difference(versions, old_key, new_key):
    old, new = open_versions(versions[old_key], versions[new_key], RULES)
    diff = diff_versions(old, new)
    assert diff.added == ADDED and diff.removed == REMOVED
    assert diff.changes() == [("ćma", "added"), ("kotek", "added"), ("koty", "removed"), ("pies", "removed"),
                              ("zając", "removed"), ("źdźbło", "added"), ("żółwie", "added")]  # fmt: skip
    assert diff.changes("added") == [(w, "added") for w in ADDED]
    assert (old.date, new.date) == ("2025-01-01", "2025-02-01")
    assert diff.summary()["added_count"] == 4 and diff.summary()["old"]["word_count"] == 8


@settings(max_examples=200, deadline=None)
@given(
    old=st.sets(st.text(alphabet="akoąż", min_size=1, max_size=5), max_size=40),
    new=st.sets(st.text(alphabet="akoąż", min_size=1, max_size=5), max_size=40),
)
def test_the_merge_kernel_gives_the_set_differences(old, new):
    """Two word buffers in graph order: the offsets of exactly the words only in each."""

    def buffer(words):
        text = "".join(alphabet.to_code_string(w) + "\xff" for w in sorted(words, key=alphabet.to_code_string))
        return np.frombuffer(text.encode("latin-1"), dtype=np.uint8)

    a, b = buffer(old), buffer(new)
    only_a, only_b = kernels.diff_sorted(a, b)

    def words_at(buf, offsets):
        text = bytes(buf).decode("latin-1")
        return {alphabet.from_code_string(text[o : text.index("\xff", o)]) for o in offsets.tolist()}

    assert words_at(a, only_a) == old - new and len(only_a) == len(old - new)
    assert words_at(b, only_b) == new - old and len(only_b) == len(new - old)


def test_diff_of_lexicons_with_random_words(tmp_path):
    rng = random.Random(5)
    every = {"".join(rng.choice("aąbcćkotłżźrz") for _ in range(rng.randint(2, 9))) for _ in range(3000)}
    old = {w for w in every if rng.random() < 0.8}
    new = {w for w in every if rng.random() < 0.8}
    (tmp_path / "old.txt").write_text("\n".join(sorted(old)), encoding="utf-8")
    (tmp_path / "new.txt").write_text("\n".join(sorted(new)), encoding="utf-8")
    lexicons = [build_lexicon(tmp_path / f"{n}.txt", tmp_path / f"{n}.lex", LITERAKI).output for n in ("old", "new")]
    diff = diff_versions(*open_versions(*lexicons, RULES))
    assert diff.added == collation.polish_sorted(new - old)
    assert diff.removed == collation.polish_sorted(old - new)


@settings(max_examples=200, deadline=None)
@given(entries=st.lists(st.text(alphabet="akoąqx- .\r\t\u2028\x85Ż", max_size=17), max_size=30))
def test_playable_words_are_those_build_lexicon_keeps(entries):
    entries = [e.replace("\n", "") for e in entries]
    assert playable_words(entries, RULES) == {e for e in entries if RULES.is_playable(e)}


@settings(max_examples=200, deadline=None)
@given(
    old=st.lists(st.text(alphabet="akoążqR- ", max_size=22), max_size=30),
    new=st.lists(st.text(alphabet="akoążqR- ", max_size=22), max_size=30),
)
def test_packed_words_are_the_playable_words(old, new):
    """A source's words as packed keys: exactly the playable ones, sorted, compared exactly."""
    rules = WordRules(RULES.letters, 2, 20)
    old_keys = PackedWords.from_text("\n".join(old), rules)
    new_keys = PackedWords.from_text("\n".join(new), rules)
    old_set, new_set = playable_words(old, rules), playable_words(new, rules)
    every_old = old_keys.words_at(np.arange(old_keys.count))
    assert every_old == sorted(old_set, key=alphabet.to_code_string)
    added, removed = packed_diff(old_keys, new_keys)
    assert (set(added), set(removed)) == (new_set - old_set, old_set - new_set)
    probe = sorted(old_set | new_set)[:10] + ["", "k-t", "q"]
    assert old_keys.contains(probe) == [w in old_set for w in probe]


def test_words_too_long_to_pack_fall_back_to_sets(tmp_path):
    long_word = "kot" * 7  # 21 letters
    (tmp_path / "a.txt").write_text(f"kot\n{long_word}\nkota\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("kot\nkotek\n", encoding="utf-8")
    rules = WordRules(RULES.letters, 2, 30)
    assert PackedWords.from_text(f"kot\n{long_word}", rules) is None
    old, new = open_versions(tmp_path / "a.txt", tmp_path / "b.txt", rules)
    assert old.packed() is None and old.words == {"kot", long_word, "kota"}
    diff = diff_versions(old, new)
    assert (diff.added, diff.removed) == (["kotek"], ["kota", long_word])
    assert old.contains(["kota", "kotek"]) == [True, False]


def test_dump_dates():
    assert dump_date("sjp-20260201.zip") == "2026-02-01"
    assert dump_date("/some/where/sjp-odm-20251130.zip") == "2025-11-30"
    assert dump_date("sjp-2026-02-01.zip") == "2026-02-01"
    assert dump_date("sjp-20261301.zip") is None  # month 13
    assert dump_date("words.txt") is None and dump_date("sjp-123456789.zip") is None
    assert lexicon_source_date({"source": {"file": "sjp-20260201.zip", "name": "sjp-20260201.zip:slowa.txt"}}) == (
        "2026-02-01"
    )
    assert lexicon_source_date({"source": {"file": "polish", "name": "polish"}}) is None


def test_new_since_marks_valid_words_absent_from_the_old_version(versions):
    for old in ("old_dump", "old_lex"):
        marker = NewSince.open(versions[old], RULES)
        words = ["kotek", "kot", "źdźbło", "zzz", "koty"]
        valid = [True, True, True, False, False]
        assert marker.new_flags(words, valid) == [True, False, True, False, False]


def test_lexicon_diff_command(versions, capsys):
    old, new = str(versions["old_lex"]), str(versions["new_dump"])
    code, out, err = run_cli(capsys, "lexicon-diff", old, new)
    assert code == 0
    assert out.splitlines() == ["+ćma", "+kotek", "-koty", "-pies", "-zając", "+źdźbło", "+żółwie"]
    assert err.strip() == (
        "old.lexicon (2025-01-01) -> sjp-20250201.zip (2025-02-01): 4 added, 3 removed (8 -> 9 words)"
    )
    code, out, _ = run_cli(capsys, "lexicon-diff", old, new, "--only", "removed")
    assert out.splitlines() == REMOVED
    code, out, _ = run_cli(capsys, "lexicon-diff", old, new, "--count")
    assert out == "added\t4\nremoved\t3\n"
    code, out, _ = run_cli(capsys, "lexicon-diff", old, new, "--count", "--only", "added")
    assert out == "added\t4\n"
    code, out, err = run_cli(capsys, "lexicon-diff", old, new, "--json")
    assert [json.loads(line) for line in out.splitlines()][:2] == [
        {"word": "ćma", "change": "added"},
        {"word": "kotek", "change": "added"},
    ]
    assert err == ""
    code, out, _ = run_cli(capsys, "lexicon-diff", old, new, "--json", "--count")
    summary = json.loads(out)
    assert (summary["added_count"], summary["removed_count"]) == (4, 3)
    assert summary["new"]["date"] == "2025-02-01" and summary["old"]["kind"] == "lexicon"
    # the same list twice: nothing changed, exit 1
    code, out, err = run_cli(capsys, "lexicon-diff", str(versions["new_dump"]), str(versions["new_lex"]))
    assert (code, out) == (1, "") and "0 added, 0 removed" in err


def test_lexicon_diff_refusals(versions, capsys, tmp_path):
    old = str(versions["old_lex"])
    for args, message in [
        ([old, str(tmp_path / "missing.zip")], "missing.zip: no such file"),
        ([old, str(tmp_path)], "is a directory"),
        ([old, old, "--only", "both"], "--only 'both'"),
        ([str(versions["old_dump"]), old, "--popular"], "--popular needs lexicon files"),
    ]:
        code, out, err = run_cli(capsys, "lexicon-diff", *args)
        assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1, (args, err)


def test_lexicon_info_shows_the_dump_date(versions, capsys, tmp_path):
    code, out, _ = run_cli(capsys, "lexicon-info", "--lexicon", str(versions["new_lex"]))
    assert code == 0 and "dump date      2025-02-01" in out
    code, out, _ = run_cli(capsys, "lexicon-info", "--lexicon", str(versions["new_lex"]), "--json")
    assert json.loads(out)["source"]["date"] == "2025-02-01"
    (tmp_path / "words.txt").write_text("kot\nkota\n", encoding="utf-8")
    undated = build_lexicon(tmp_path / "words.txt", tmp_path / "undated.lexicon", LITERAKI).output
    code, out, _ = run_cli(capsys, "lexicon-info", "--lexicon", str(undated))
    assert "dump date      unknown (the source's name carries no date)" in out


def test_words_since_marks_new_words(versions, capsys):
    lex = ["--lexicon", str(versions["new_lex"])]
    code, out, _ = run_cli(capsys, "words", "k*", "--since", str(versions["old_dump"]), *lex)
    assert out.splitlines() == ["kot", "kota", "kotek+"]
    code, out, _ = run_cli(capsys, "words", "--since", str(versions["old_lex"]), "--new-only", *lex)
    assert out.splitlines() == ADDED
    code, out, _ = run_cli(capsys, "words", "--since", str(versions["old_lex"]), "--new-only", "--count", *lex)
    assert out == "4\n"
    code, out, _ = run_cli(capsys, "words", "--since", str(versions["old_lex"]), "--new-only", "--json", *lex)
    assert [(r["word"], r["new"]) for r in map(json.loads, out.splitlines())] == [(w, True) for w in ADDED]
    code, out, _ = run_cli(capsys, "words", "k*", "--since", str(versions["old_lex"]), "--json", *lex)
    assert [(r["word"], r["new"]) for r in map(json.loads, out.splitlines())] == [
        ("kot", False), ("kota", False), ("kotek", True),
    ]  # fmt: skip


def _check_word_has_since(capsys) -> bool:
    code, out, _ = run_cli(capsys, "check-word", "--help")
    return "--since" in out


def test_check_word_since(versions, capsys):
    """check-word --since OLD (the option is added to commands/check_word.py from this issue's
    report; skipped until it is there)."""
    if not _check_word_has_since(capsys):
        pytest.skip("check-word has no --since yet (the option of issue 18 is applied separately)")
    lex = ["--lexicon", str(versions["new_lex"])]
    code, out, _ = run_cli(capsys, "check-word", "kotek", "kot", "pies", "--since", str(versions["old_dump"]), *lex)
    assert code == 1
    assert out.splitlines() == [
        "kotek\tvalid\tnew since sjp-20250101.zip (2025-01-01)",
        "kot\tvalid",
        "pies\tinvalid\tnot in the word list",
    ]
    code, out, _ = run_cli(capsys, "check-word", "kotek", "kot", "--json", "--since", str(versions["old_lex"]), *lex)
    assert [json.loads(line)["new_since"] for line in out.splitlines()] == [True, False]
    code, out, err = run_cli(capsys, "check-word", "kot", "--since", str(versions["old_lex"]), "-e", *lex)
    assert (code, out) == (2, "") and "give --since or --extensions, not both" in err


@pytest.mark.sjp
def test_a_dump_and_its_lexicon_hold_the_same_words(sjp_zip, sjp_build):
    """The real dump read as a source and the lexicon built from it: no difference."""
    old, new = open_versions(sjp_zip, sjp_build.output, RULES)
    assert old.kind == "source" and new.kind == "lexicon" and old.date == "2026-02-01"
    diff = diff_versions(old, new)
    assert (diff.added, diff.removed) == ([], [])
    assert open_version(sjp_build.output).count == old.count
