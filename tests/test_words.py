"""`literaki words`: every search agrees with a plain-Python filter over the word list (small
lexicons under hypothesis, the real dump where present); Polish collation; probability order
on hand-computed examples; the command line's output forms."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import literaki_cli.commands.words  # noqa: F401 - registers `words` before COMMAND_MODULES lists it
from lexicon_build.build import build_lexicon
from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.variant import load_variant
from literaki_cli.errors import InputError
from literaki_cli.wordstudy import automaton, collation
from literaki_cli.wordstudy.probability import TileBag
from literaki_cli.wordstudy.search import WordFacts, WordQuery, containing, find_words, hooks_of, order_words
from tests.conftest import run_cli
from tests.test_movegen import random_word_lexicon

LITERAKI = load_variant()
BAG = TileBag.of(LITERAKI)
#: The letters of the study lexicon: common ones, Polish ones, and r z for RZ patterns.
STUDY_LETTERS = "akotrzeąćłżó"


def build_words(folder, words) -> Lexicon:
    """A lexicon of exactly ``words`` (all playable) built in ``folder``."""
    source = folder / "words.txt"
    source.write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    out = folder / "study.lexicon"
    build_lexicon(source, out, LITERAKI)
    return Lexicon.open(out)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A seeded lexicon of 1,500 words of 2-8 letters over STUDY_LETTERS, and the words."""
    rng = random.Random(18)
    words = {"".join(rng.choice(STUDY_LETTERS) for _ in range(rng.randint(2, 8))) for _ in range(1500)}
    words |= {"kot", "kota", "koty", "kat", "kąt", "rzeka", "krzak", "żar", "zakot", "akot", "kotk"}
    words = {w for w in words if len(w) >= 2}
    return build_words(tmp_path_factory.mktemp("study"), words), words


@pytest.fixture(scope="module")
def movegen_lexicon(tmp_path_factory):
    return random_word_lexicon(tmp_path_factory.mktemp("rw"), 400)


def polish(words) -> list[str]:
    return collation.polish_sorted(words)


# --------------------------------------------------------------------------- the plain filters


def glob_regex(pattern: str) -> str:
    """A pattern as a Python regex (fullmatch), the plain reference."""
    out = []
    i = 0
    pattern = pattern.lower()
    while i < len(pattern):
        ch = pattern[i]
        if ch in "?.":
            out.append(".")
        elif ch == "*":
            out.append(".*")
        elif ch == "[":
            close = pattern.index("]", i)
            body = pattern[i + 1 : close]
            negate = body[:1] in "^!" and body != ""
            letters = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + re.escape(letters) + "]")
            i = close
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def fits_rack(word: str, rack: str) -> bool:
    """Whether ``word`` can be spelled from ``rack`` ('?' = blank)."""
    need = Counter(word)
    have = Counter(rack)
    missing = sum(max(0, n - have[ch]) for ch, n in need.items())
    return missing <= have["?"]


# --------------------------------------------------------------------------- hypothesis: searches


pattern_tokens = st.one_of(
    st.sampled_from(list("akotrzeą")),
    st.just("?"),
    st.just("*"),
    st.sets(st.sampled_from(list("akotrz")), min_size=1, max_size=3).map(lambda s: "[" + "".join(sorted(s)) + "]"),
    st.sets(st.sampled_from(list("akotrz")), min_size=1, max_size=3).map(lambda s: "[^" + "".join(sorted(s)) + "]"),
)
patterns = st.lists(pattern_tokens, min_size=1, max_size=6).map("".join)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pattern=patterns, upper=st.booleans())
def test_pattern_agrees_with_a_plain_filter(study, pattern, upper):
    lexicon, words = study
    typed = pattern.upper() if upper else pattern
    expected = polish(w for w in words if re.fullmatch(glob_regex(pattern), w))
    assert find_words(lexicon.words, WordQuery(pattern=typed)) == expected


def regex_strategy():
    atom = st.one_of(
        st.sampled_from(list("akotrzeąŻ")),
        st.just("."),
        st.just("[a-k]"),
        st.just("[^ao]"),
        st.just(r"\w"),
    )

    def extend(inner):
        return st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda t: f"({t[0]}|{t[1]})"),
            st.tuples(inner, st.sampled_from(["?", "*", "+", "{2}", "{1,3}", "*?"])).map(lambda t: f"(?:{t[0]}){t[1]}"),
        )

    body = st.recursive(atom, extend, max_leaves=6)
    anchors = st.tuples(st.sampled_from(["", "^", r"\b", r"\B"]), body, st.sampled_from(["", "$", r"\b", r"\B"]))
    return anchors.map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(regex=regex_strategy())
def test_regex_agrees_with_re_search(study, regex):
    lexicon, words = study
    expected = polish(w for w in words if re.search(regex, w, re.IGNORECASE))
    assert find_words(lexicon.words, WordQuery(regex=regex)) == expected


def test_regex_beyond_automata_is_filtered_by_re(study):
    """A back-reference or a look-ahead is not regular: re filters the words instead."""
    lexicon, words = study
    for regex in (r"(.)\1", r"k(?=o)", r"(?<!a)t$"):
        expected = polish(w for w in words if re.search(regex, w, re.IGNORECASE))
        assert expected, regex
        assert find_words(lexicon.words, WordQuery(regex=regex)) == expected
        assert WordQuery(regex=regex).compile().count(lexicon.words) == len(expected)
        assert find_words(lexicon.words, WordQuery(regex=regex), limit=2) == expected[:2]


racks = st.text(alphabet=STUDY_LETTERS + "?", min_size=1, max_size=8).filter(lambda r: r.count("?") <= 2)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rack=racks)
def test_anagram_and_subanagram_agree_with_a_plain_filter(study, rack):
    lexicon, words = study
    anagrams = polish(w for w in words if len(w) == len(rack) and fits_rack(w, rack))
    subanagrams = polish(w for w in words if 2 <= len(w) <= len(rack) and fits_rack(w, rack))
    assert find_words(lexicon.words, WordQuery(anagram=rack)) == anagrams
    assert find_words(lexicon.words, WordQuery(subanagram=rack)) == subanagrams


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    pattern=st.none() | patterns,
    contains=st.none() | st.text(alphabet="akotrz", min_size=1, max_size=2),
    starts=st.none() | st.text(alphabet="akotrz", min_size=1, max_size=2),
    ends=st.none() | st.text(alphabet="akotrz", min_size=1, max_size=2),
    length=st.none() | st.integers(1, 9),
    min_length=st.none() | st.integers(1, 9),
    max_length=st.none() | st.integers(1, 9),
    rack=st.none() | racks,
    sub=st.booleans(),
)
def test_filters_are_anded(study, pattern, contains, starts, ends, length, min_length, max_length, rack, sub):
    lexicon, words = study

    def keep(w: str) -> bool:
        return (
            (pattern is None or re.fullmatch(glob_regex(pattern), w) is not None)
            and (contains is None or contains in w)
            and (starts is None or w.startswith(starts))
            and (ends is None or w.endswith(ends))
            and (length is None or len(w) == length)
            and (min_length is None or len(w) >= min_length)
            and (max_length is None or len(w) <= max_length)
            and (rack is None or (fits_rack(w, rack) and (2 <= len(w) <= len(rack) if sub else len(w) == len(rack))))
        )

    query = WordQuery(
        pattern=pattern, contains=contains, starts=starts, ends=ends, length=length, min_length=min_length,
        max_length=max_length, anagram=None if sub else rack, subanagram=rack if sub else None,
    )  # fmt: skip
    expected = polish(filter(keep, words))
    compiled = query.compile(lexicon.max_length)
    assert compiled.words(lexicon.words) == expected
    assert compiled.count(lexicon.words) == len(expected)
    assert compiled.words(lexicon.words, limit=3, letters=lexicon.meta["alphabet"]) == expected[:3]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(word=st.text(alphabet="akotżąeł", min_size=1, max_size=4))
def test_hooks_and_containing_agree_with_the_word_list(movegen_lexicon, word):
    lexicon, words = movegen_lexicon
    ((front, back),) = hooks_of(lexicon.words, [word])
    assert front == [ch for ch in alphabet.POLISH_LETTERS if ch + word in words]
    assert back == [ch for ch in alphabet.POLISH_LETTERS if word + ch in words]
    assert containing(lexicon.words, word) == polish(w for w in words if word in w and w != word)


def test_every_automaton_state_can_still_accept(study):
    """Pruning: no live state of a compiled filter is a dead end (each reaches acceptance)."""
    dfa = automaton.compile_filters([automaton.parse_pattern("k*t?"), automaton.parse_regex("o|ą")])
    for state in range(1, dfa.states):
        seen, stack = {state}, [state]
        while stack:
            s = stack.pop()
            for t in dfa.table[s].tolist():
                if t and t not in seen:
                    seen.add(t)
                    stack.append(t)
        assert any(dfa.accepting[s] for s in seen)


def test_bad_queries_name_the_value():
    cases = {
        WordQuery(pattern="k1t"): "--pattern 'k1t': character 2 '1'",
        WordQuery(pattern="k[at"): "no closing ']'",
        WordQuery(pattern="[]"): "empty letter class",
        WordQuery(regex="k(at"): "--regex 'k(at'",
        WordQuery(anagram="ko-t"): "--anagram 'ko-t'",
        WordQuery(anagram="kot", subanagram="kot"): "not both",
        WordQuery(contains="k t"): "--contains 'k t'",
        WordQuery(length=0): "--length 0",
    }
    for query, message in cases.items():
        with pytest.raises(InputError, match=re.escape(message)):
            query.compile()


# --------------------------------------------------------------------------- collation and orders


def test_polish_collation():
    words = ["żaba", "zebra", "źle", "ćma", "cyk", "łza", "lwy", "ąb", "ab", "óśmy", "osa", "kot", "kota", "Ala"]
    assert collation.polish_sorted(words) == [
        "ab", "Ala", "ąb", "cyk", "ćma", "kot", "kota", "lwy", "łza", "osa", "óśmy", "zebra", "źle", "żaba",
    ]  # fmt: skip
    assert sorted(words) != collation.polish_sorted(words)  # code-point order puts ą..ż after z
    # q, v, x in their Latin places (they have no Literaki tile, but a lexicon of other rules may hold them)
    assert collation.polish_sorted(["wax", "vat", "quiz", "rak", "pas", "uda", "yeti"]) == [
        "pas", "quiz", "rak", "uda", "vat", "wax", "yeti",
    ]  # fmt: skip


def test_search_answers_in_polish_order(study):
    lexicon, words = study
    found = find_words(lexicon.words, WordQuery(pattern="*"))
    assert found == collation.polish_sorted(words) and found != sorted(words)


def test_probability_hand_computed():
    """KOT: 3*6*3 = 54 with no blank, 2*(6*3 + 3*3 + 3*6) = 90 with one, 3 + 6 + 3 = 12 with two."""
    assert BAG.size == 100 and BAG.blanks == 2
    words = ["kot", "ąą", "ąąą", "aa", "żółw"]
    counts = dict(zip(words, BAG.combinations_of(words).tolist(), strict=True))
    assert counts["kot"] == 54 + 90 + 12
    assert counts["ąą"] == 0 + 1 * 2 + 1  # one Ą: a blank for the other (2 ways), or both blanks
    assert counts["ąąą"] == 1  # the Ą and both blanks
    assert counts["aa"] == 36 + 2 * 9 + 1  # C(9,2); one of 9 A and one of 2 blanks; both blanks
    # one Ż, one Ó, 2 Ł, 4 W: none, one (for Ż, Ó, Ł or W) or two of the letters played by blanks
    assert counts["żółw"] == 1 * 1 * 2 * 4 + 2 * (1 * 2 * 4 + 1 * 2 * 4 + 1 * 1 * 4 + 1 * 1 * 2) + (
        2 * 4 + 1 * 4 + 1 * 2 + 1 * 4 + 1 * 2 + 1 * 1
    )
    assert BAG.probability("kot") == pytest.approx(156 / 161_700)


def test_probability_order_and_ranks(tmp_path):
    """On a hand-made lexicon: ranks within a length by combinations, ties shared; probability
    order is shortest first, then most likely."""
    lexicon = build_words(tmp_path, ["na", "za", "ni", "ąę", "kot", "kat", "żaż", "ząb"])
    facts = WordFacts(lexicon.words, BAG)
    two = ["na", "za", "ni", "ąę"]
    combos = dict(zip(two, BAG.combinations_of(two).tolist(), strict=True))
    # NA and ZA: 5*9 + 2*(9 + 5) + 1 = 74 each; NI: 5*8 + 2*(8 + 5) + 1 = 67; ĄĘ: 1 + 2*2 + 1 = 6
    assert combos == {"na": 74, "za": 74, "ni": 67, "ąę": 6}
    records = {r.word: r for r in facts.records(["na", "za", "ni", "ąę", "kot", "kat", "żaż", "ząb"])}
    assert [records[w].probability_rank for w in ("na", "za", "ni", "ąę")] == [1, 1, 3, 4]
    # KAT: 3*9*3 + 2*(27 + 9 + 27) + (3 + 9 + 3) = 222 > KOT 156 > ZĄB > ŻAŻ (one Ż: needs a blank)
    assert [records[w].probability_rank for w in ("kat", "kot", "ząb", "żaż")] == [1, 2, 3, 4]
    words = find_words(lexicon.words, WordQuery())
    assert order_words(words, "probability", facts) == ["na", "za", "ni", "ąę", "kat", "kot", "ząb", "żaż"]
    assert order_words(words, "probability", facts, reverse=True) == [
        "żaż", "ząb", "kot", "kat", "ąę", "ni", "na", "za",
    ]  # fmt: skip
    assert order_words(words, "length", facts) == ["ąę", "na", "ni", "za", "kat", "kot", "ząb", "żaż"]
    # points: Ą 5 + Ę 5; Ż 5 + A 1 + Ż 5; Z 1 + Ą 5 + B 3; K 2 + O 1 + T 2; ...
    assert order_words(words, "points", facts)[:3] == ["żaż", "ąę", "ząb"]
    assert records["żaż"].points == 11 and records["kot"].points == 5


def test_records_have_hooks_and_points(study):
    lexicon, words = study
    facts = WordFacts(lexicon.words, BAG)
    (record,) = facts.records(["kot"])
    assert record.as_dict() == {
        "word": "kot",
        "length": 3,
        "probability_rank": record.probability_rank,
        "points": 5,
        "hooks": {
            "front": [ch for ch in alphabet.POLISH_LETTERS if ch + "kot" in words],
            "back": [ch for ch in alphabet.POLISH_LETTERS if "kot" + ch in words],
        },
    }
    some = polish(words)[::7]
    new = [i % 3 == 0 for i in range(len(some))]
    records = facts.records(some, new)
    assert facts.lines(some, new) == "".join(json.dumps(r.as_dict(), ensure_ascii=False) + "\n" for r in records)
    assert facts.lines(some) == "".join(json.dumps(r.as_dict(), ensure_ascii=False) + "\n" for r in facts.records(some))
    for line, r in zip(facts.lines(some, new, json_lines=False).splitlines(), records, strict=True):
        assert line.split("\t") == [
            r.word + ("+" if r.new else ""), str(r.length), str(r.probability_rank), str(r.points),
            "".join(r.front_hooks) or "-", "".join(r.back_hooks) or "-",
        ]  # fmt: skip
    three = [w for w in words if len(w) == 3]
    ranks = {r.word: r.probability_rank for r in facts.records(three)}
    combos = dict(zip(three, BAG.combinations_of(three).tolist(), strict=True))
    for word in three:
        assert ranks[word] == 1 + sum(1 for other in three if combos[other] > combos[word])


# --------------------------------------------------------------------------- the command line


def test_words_command(study, capsys):
    lexicon, words = study
    lex = ["--lexicon", str(lexicon.path)]
    code, out, _ = run_cli(capsys, "words", "K?T*", *lex)
    assert code == 0 and out.splitlines() == polish(w for w in words if re.fullmatch("k.t.*", w))
    code, out, _ = run_cli(capsys, "words", "--pattern", "K?T*", "--count", *lex)
    assert out == f"{sum(1 for w in words if re.fullmatch('k.t.*', w))}\n"
    code, out, _ = run_cli(capsys, "words", "--anagram", "tok", "--json", *lex)
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["word"] for r in records] == polish(w for w in words if len(w) == 3 and fits_rack(w, "tok"))
    assert set(records[0]) == {"word", "length", "probability_rank", "points", "hooks"}
    code, out, _ = run_cli(capsys, "words", "--subanagram", "kota?", "--order", "probability", "--limit", "4", *lex)
    assert code == 0 and len(out.splitlines()) == 4
    code, out, _ = run_cli(capsys, "words", "--starts", "k", "--details", "--limit", "1", *lex)
    word, length, rank, points, front, back = out.rstrip("\n").split("\t")
    assert word.startswith("k") and int(length) == len(word) and int(rank) >= 1 and int(points) > 0
    code, out, _ = run_cli(capsys, "words", "--hooks", "KOT", "--json", *lex)
    record = json.loads(out)
    assert record["word"] == "kot"
    assert record["back_hooks"] == [ch for ch in alphabet.POLISH_LETTERS if "kot" + ch in words]
    code, out, _ = run_cli(capsys, "words", "--hooks", "kot", "--extensions", *lex)
    assert out.splitlines()[0] == "kot" and "front hooks:" in out and "longer words:" in out
    assert run_cli(capsys, "words", "--pattern", "ZZZZZZZZ", *lex)[:2] == (1, "")  # nothing found: exit 1


def test_words_command_refusals(study, capsys):
    lexicon, _ = study
    lex = ["--lexicon", str(lexicon.path)]
    for args, message in [
        (["--pattern", "k1"], "--pattern 'k1'"),
        (["--order", "random"], "--order 'random'"),
        (["--new-only"], "--new-only needs --since"),
        (["--hooks", "kot", "--pattern", "k*"], "without search filters"),
        (["--extensions"], "--extensions goes with --hooks"),
        (["k*", "--pattern", "k*"], "not both"),
        (["--hooks", "k t"], "--hooks 'k t'"),
    ]:
        code, out, err = run_cli(capsys, "words", *args, *lex)
        assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1, (args, err)


# --------------------------------------------------------------------------- the real dump


@pytest.mark.sjp
@pytest.mark.slow
def test_searches_on_the_real_dump(sjp_lexicon):
    words = sjp_lexicon.words
    every = words.text().splitlines()
    letters = sjp_lexicon.meta["alphabet"]
    assert find_words(words, WordQuery(pattern="K?T*"), letters=letters) == [
        w for w in every if len(w) >= 3 and w[0] == "k" and w[2] == "t"
    ]
    assert WordQuery(pattern="*RZ*").compile().count(words) == sum(1 for w in every if "rz" in w)
    assert find_words(words, WordQuery(regex="^prze.*ść$")) == [
        w for w in every if w.startswith("prze") and w.endswith("ść")
    ]
    for rack in ("kotełas", "żółwia?", "rzeka??"):
        short = [w for w in every if len(w) <= len(rack)]
        assert find_words(words, WordQuery(subanagram=rack)) == [w for w in short if len(w) >= 2 and fits_rack(w, rack)]
        assert find_words(words, WordQuery(anagram=rack)) == [
            w for w in short if len(w) == len(rack) and fits_rack(w, rack)
        ]
    present = set(every)
    for word in ("kot", "żółw", "rzeka", "ab"):
        ((front, back),) = hooks_of(words, [word])
        assert front == [ch for ch in alphabet.POLISH_LETTERS if ch + word in present]
        assert back == [ch for ch in alphabet.POLISH_LETTERS if word + ch in present]
