"""Building: filtering reasons, the exact accepted set, metadata, atomic output."""

import zipfile

import pytest

from lexicon_build.build import build_lexicon, filter_entries
from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.wordrules import WordRules
from tests.conftest import DROPPED_WORDS, SMALL_WORDS


@pytest.fixture(scope="module")
def rules(variant):
    return WordRules.of(variant)


@pytest.mark.parametrize(
    "entry, reason",
    [
        ("", "empty"),
        ("ab urbe", "space"),
        ("rock-and-roll", "hyphen"),
        ("o'neill", "apostrophe"),
        ("a.a.c.", "dot"),
        ("3d", "digit"),
        ("Aachen", "capital"),
        ("AAN", "capital"),
        ("quiz", "no-tile"),
        ("veto", "no-tile"),
        ("straße", "not-a-letter"),
        ("a", "too-short"),
        ("konstantynopolitańczykowianeczka", "too-long"),
        ("żółw", None),
    ],
)
def test_rejection_reasons(rules, entry, reason):
    assert rules.rejection(entry) == reason


def test_filter_counts_each_dropped_entry_once(rules):
    kept, dropped = filter_entries(["kot", "kot", "Kot", "quiz", "", "a", "ab-c", "żółw"], rules)
    assert kept == {"kot", "żółw"}
    assert dict(dropped) == {"duplicate": 1, "capital": 1, "no-tile": 1, "too-short": 1, "hyphen": 1}


def test_rules_follow_the_variant(variant):
    from dataclasses import replace

    short = WordRules.of(replace(variant, max_word_length=4))
    assert short.rejection("żółwie") == "too-long"
    assert short.rejection("żółw") is None


def test_small_lexicon_holds_exactly_the_filtered_words(small_lexicon):
    lex = Lexicon.open(small_lexicon)
    expected = alphabet.polish_sorted(set(SMALL_WORDS))
    assert list(lex.words) == expected
    assert lex.word_count == len(expected)
    assert all(w in lex for w in SMALL_WORDS)
    assert not any(w in lex for w in DROPPED_WORDS)
    meta = lex.meta
    assert meta["source"]["kind"] == "sjp-games"
    assert meta["dropped"] == {"duplicate": 1, "no-tile": 4, "too-short": 1, "too-long": 1}
    assert meta["length_counts"]["2"] == 2
    assert len(meta["source"]["sha256"]) == 64
    assert meta["tool_version"] and meta["built_at"]
    popular = set(lex.popular)
    assert popular and popular <= set(lex.words) and meta["popular"]["word_count"] == len(popular)
    assert {"kot", "być", "żółw", "jaźń"} <= popular and not popular & {"zażółcić", "zażółć", "gęślą"}


def test_popular_subset_uses_the_threshold(small_list_file, tmp_path, variant):
    low = build_lexicon(small_list_file, tmp_path / "low.lexicon", variant, popular_zipf=0.0)
    high = build_lexicon(small_list_file, tmp_path / "high.lexicon", variant, popular_zipf=9.0)
    assert high.popular_count == 0
    assert 0 < low.popular_count <= low.kept
    lex = Lexicon.open(low.output)
    assert "kot" in set(lex.popular)  # a common word
    assert "gęślą" not in set(lex.popular)  # in the text in no form


def test_cp1250_crlf_and_utf8_lf_give_identical_lexicons(tmp_path, variant):
    text = "\n".join(SMALL_WORDS + DROPPED_WORDS)
    utf = tmp_path / "utf.txt"
    utf.write_bytes(text.encode("utf-8"))
    win = tmp_path / "sjp-20140101.zip"
    with zipfile.ZipFile(win, "w") as zf:
        zf.writestr("slowa-win.txt", text.replace("\n", "\r\n").encode("cp1250"))
    a = build_lexicon(utf, tmp_path / "a.lexicon", variant)
    b = build_lexicon(win, tmp_path / "b.lexicon", variant)
    assert list(Lexicon.open(a.output).words) == list(Lexicon.open(b.output).words)
    assert (Lexicon.open(a.output).arcs == Lexicon.open(b.output).arcs).all()


def test_interrupted_build_leaves_nothing(small_list_file, tmp_path, variant, monkeypatch):
    from lexicon_build import build

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "build_word_graph", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_lexicon(small_list_file, tmp_path / "out.lexicon", variant)
    assert list(tmp_path.iterdir()) == []
