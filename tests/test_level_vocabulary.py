"""The computer levels' vocabulary: a level of the popular vocabulary plays only popular words,
and the lemma rule that chooses the popular words (every form of a frequent lemma)."""

from __future__ import annotations

import itertools
import random

import pytest

from lexicon_build import popular
from lexicon_build.build import build_lexicon
from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.errors import InputError
from literaki_cli.games.game import PLACE, Game
from literaki_cli.games.players import load_levels, make_players
from tests.conftest import run_cli

POPULAR_LEVELS = [name for name, level in load_levels().items() if level.vocabulary == "popular"]


# --------------------------------------------------------------------------- a level plays only its words


def chosen_popular(word: str) -> bool:
    """The test lexicon's popular subset: about half the words, spread over every letter."""
    return sum(alphabet.CODE_OF[ch] for ch in word) % 2 == 0


@pytest.fixture(scope="module")
def split_lexicon(tmp_path_factory, variant) -> Lexicon:
    """Every 2-letter string and the 3-letter strings of common letters (games flow in it), built by
    the real builder with a popular subset chosen here, half of the words."""
    common = "aeiouyznrstwkcdlpm"
    words = {a + b for a in alphabet.POLISH_LETTERS for b in alphabet.POLISH_LETTERS}
    words |= {"".join(t) for t in itertools.product(common, repeat=3)}
    folder = tmp_path_factory.mktemp("split")
    (folder / "w.txt").write_text("\n".join(sorted(words)) + "\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(popular, "popular_words", lambda found, rule: [w for w in found if chosen_popular(w)])
        build_lexicon(folder / "w.txt", folder / "split.lexicon", variant)
    lexicon = Lexicon.open(folder / "split.lexicon")
    assert set(lexicon.popular) == {w for w in words if chosen_popular(w)}
    return lexicon


def formed_words(game: Game, nick: str) -> list[str]:
    """Every word every placement of the player ``nick`` formed (main and cross words)."""
    return [w.lower() for t in game.turns if t.nick == nick and t.kind == PLACE for w in t.words]


def play(lexicon: Lexicon, variant, specs: list[str], game_id: int) -> Game:
    players = make_players(specs, lexicon, variant, load_levels())
    return Game(variant, players, lexicon.words, seed=13, game_id=game_id, first=game_id % len(players)).play()


def test_the_popular_levels_are_the_three_game_levels():
    assert sorted(POPULAR_LEVELS) == ["latwy", "normalny", "trudny"]


@pytest.mark.parametrize("pairing", list(itertools.combinations(POPULAR_LEVELS, 2)), ids="-".join)
def test_a_popular_level_forms_only_popular_words(split_lexicon, variant, pairing):
    played = 0
    for game_id in range(3):
        game = play(split_lexicon, variant, list(pairing), game_id)
        for nick in pairing:
            words = formed_words(game, nick)
            outside = [w for w, known in zip(words, split_lexicon.popular.lookup(words), strict=True) if not known]
            assert not outside, f"{nick} (game {game_id}) formed words outside its vocabulary: {outside}"
            played += len(words)
    assert played > 50  # the games were played, not passed away


def test_the_check_would_catch_a_word_outside_the_vocabulary(split_lexicon, variant):
    """A level of the whole lexicon, in the same games, does form words outside the popular subset."""
    game = play(split_lexicon, variant, ["mistrz", "latwy"], 0)
    words = formed_words(game, "mistrz")
    assert not split_lexicon.popular.lookup(words).all()
    assert split_lexicon.popular.lookup(formed_words(game, "latwy")).all()


# --------------------------------------------------------------------------- the lemma rule

#: A tiny language: forms, their lemmas (the dictionary), and their frequencies in text.
LEMMAS = {"kota": "kot", "kotem": "kot", "kotom": "kot", "psa": "pies", "psom": "pies", "zebry": "zebra",
          "zebrą": "zebra", "rysia": "ryś"}  # fmt: skip
FREQUENCIES = {"kot": 4e-7, "kota": 3e-7, "psa": 2e-6, "zebry": 1e-9, "rysia": 1e-8, "ufo": 6e-7, "ryś": 2e-7}
WORDS = ["kot", "kota", "kotem", "kotom", "pies", "psa", "psom", "zebra", "zebry", "zebrą", "ryś", "rysia", "rysiem",
         "ufo", "ufa"]  # fmt: skip
THRESHOLD = 5e-7


def lemma_of(form: str) -> str:
    return LEMMAS.get(form, form)


def test_lemma_frequencies_sum_the_forms_of_each_lemma():
    totals = popular.lemma_frequencies(FREQUENCIES, lemma_of)
    assert totals == pytest.approx({"kot": 7e-7, "pies": 2e-6, "zebra": 1e-9, "ryś": 2.1e-7, "ufo": 6e-7})


def test_every_form_of_a_frequent_lemma_is_popular_even_unseen_ones():
    chosen = popular.select_popular(WORDS, FREQUENCIES, THRESHOLD, lemma_of)
    # kot: no form reaches the threshold alone, together they do; kotem never occurs in the text.
    # pies: only psa occurs, but it makes the base form and psom popular.  ufo: not in the
    # dictionary, its own lemma, frequent.  ryś and zebra: rare in every form.  ufa: never seen.
    assert chosen == ["kot", "kota", "kotem", "kotom", "pies", "psa", "psom", "ufo"]


def test_the_word_rule_judges_each_form_alone():
    assert popular.select_popular(WORDS, FREQUENCIES, THRESHOLD) == ["psa", "ufo"]


def test_a_lemma_reaching_exactly_the_threshold_is_popular():
    assert popular.select_popular(["kot", "kotom"], {"kot": 2.5e-7, "kota": 2.5e-7}, 5e-7, lemma_of) == ["kot", "kotom"]
    assert popular.select_popular(["kot", "kotom"], {"kot": 2.5e-7, "kota": 2.4e-7}, 5e-7, lemma_of) == []


def test_the_lemma_rule_keeps_every_word_the_word_rule_keeps():
    rng = random.Random(5)
    forms = [f"w{i}" for i in range(300)]
    for _ in range(20):
        lemmas = {f: f"l{rng.randrange(40)}" if rng.random() < 0.7 else f for f in forms}
        frequencies = {f: rng.random() * 1e-6 for f in forms if rng.random() < 0.5}
        by_word = set(popular.select_popular(forms, frequencies, 5e-7))
        by_lemma = set(popular.select_popular(forms, frequencies, 5e-7, lemmas.get))
        assert by_word <= by_lemma


def test_the_polish_lemmatizer_looks_forms_up_exactly():
    lemma = popular.polish_lemmatizer()
    assert lemma("psom") == "pies" and lemma("żółwiami") == "żółw" and lemma("domami") == "dom"
    assert lemma("qqqzz") == "qqqzz"  # not in the dictionary: its own lemma, no guess


def test_real_frequencies_make_rare_forms_of_common_words_popular():
    words = ["żółw", "żółwiom", "żółwiami", "trajkotać", "trajkotaliśmy", "gęślą"]
    by_word = popular.popular_words(words, popular.PopularRule("word", 2.5))
    by_lemma = popular.popular_words(words, popular.PopularRule("lemma", 2.5))
    assert by_word == ["żółw"]  # żółwiom and żółwiami are rarer than once in 3 million words
    assert by_lemma == ["żółw", "żółwiom", "żółwiami"]
    assert popular.popular_words(words, 2.5) == by_lemma  # the lemma rule is the default


def test_the_rule_reads_as_its_name_and_threshold():
    assert str(popular.PopularRule()) == "lemma Zipf >= 2.5"
    assert str(popular.PopularRule("word", 3.0)) == "word Zipf >= 3"


# --------------------------------------------------------------------------- the build and the CLI


@pytest.mark.parametrize("rule", popular.RULES)
def test_the_build_records_the_rule(small_list_file, tmp_path, variant, rule):
    report = build_lexicon(small_list_file, tmp_path / "x.lexicon", variant, popular_rule=rule)
    assert report.meta["popular"]["rule"] == rule and report.meta["popular"]["zipf_threshold"] == 2.5
    assert ("simplemma" in report.meta["popular"]["frequency_list"]) == (rule == "lemma")
    assert "kot" in Lexicon.open(report.output).popular


def test_an_unknown_rule_is_refused_before_any_work(small_list_file, tmp_path, variant):
    with pytest.raises(InputError, match="--popular-rule 'often': choose lemma or word"):
        build_lexicon(small_list_file, tmp_path / "x.lexicon", variant, popular_rule="often")
    assert not (tmp_path / "x.lexicon").exists()


def test_cli_rule_option_and_lexicon_info(capsys, small_list_file, tmp_path):
    out_file = tmp_path / "w.lexicon"
    code, out, _ = run_cli(capsys, "build-lexicon", str(small_list_file), "-o", str(out_file), "--popular-rule",
                           "word", "--popular-zipf", "3")  # fmt: skip
    assert code == 0 and "popular (word Zipf >= 3)" in out
    code, out, _ = run_cli(capsys, "lexicon-info", "--lexicon", str(out_file))
    assert code == 0 and "(word Zipf >= 3)" in out
    code, out, err = run_cli(capsys, "build-lexicon", str(small_list_file), "-o", str(out_file), "--popular-rule", "x")
    assert code == 2 and err.strip().endswith("--popular-rule 'x': choose lemma or word (default lemma)")


def test_lexicon_info_of_a_lexicon_built_before_the_rule_was_recorded(capsys, env_lexicon, tmp_path):
    from literaki_cli.commands.lexicon import popular_rule_text

    assert popular_rule_text({"popular": {"zipf_threshold": 2.5, "word_count": 1}}) == "word Zipf >= 2.5"
    code, out, _ = run_cli(capsys, "lexicon-info")
    assert code == 0 and "(lemma Zipf >= 2.5)" in out


# --------------------------------------------------------------------------- the real dump


@pytest.mark.sjp
def test_a_full_build_knows_every_form_of_a_popular_lemma(sjp_lexicon):
    import wordfreq

    forms = {
        # (not żółwiowi: simplemma gives it one lemma, the adjective żółwiowy, a rare word)
        "żółw": ["żółw", "żółwia", "żółwiem", "żółwiu", "żółwie", "żółwi", "żółwiom", "żółwiami", "żółwiach"],
        "pies": ["pies", "psa", "psu", "psem", "psie", "psy", "psów", "psom", "psami", "psach"],
        "pomagać": ["pomagać", "pomagam", "pomagasz", "pomagaliśmy", "pomagałybyście", "pomagajcie"],
    }
    for lemma, words in forms.items():
        assert sjp_lexicon.popular.lookup(words).all(), lemma
    # the word rule would miss some: these forms alone are rarer than the threshold
    rare = [w for words in forms.values() for w in words if wordfreq.zipf_frequency(w, "pl") < 2.5]
    assert {"żółwiom", "pomagałybyście"} <= set(rare)
    # a rare lemma stays out in every form
    assert not sjp_lexicon.popular.lookup(["trajkotać", "trajkotaliśmy", "trajkotałaby"]).any()
    assert sjp_lexicon.meta["popular"]["rule"] == "lemma"
    assert 300_000 < sjp_lexicon.popular.count < 800_000
