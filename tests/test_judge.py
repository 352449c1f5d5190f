"""The tournament word judge: VALID / INVALID for a whole play without naming the failed word,
the director's log, clearing after a few seconds, both languages; driven by Textual's pilot and
in a real pseudo-terminal."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from datetime import datetime
from pathlib import Path

import pytest

import literaki_cli.commands.judge  # noqa: F401 - registers `judge` before COMMAND_MODULES lists it
from literaki_cli.analysis.wordinput import lexicon_word_rules
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.errors import InputError
from literaki_cli.wordstudy import bigtext
from literaki_cli.wordstudy.judge import MAX_PLAY_WORDS, JudgeLog, WordJudge, play_words
from tests.conftest import ROOT, run_cli

pytest.importorskip("textual")

from literaki_cli.wordstudy.judge_screen import JudgeApp, words_checked  # noqa: E402

LOG_LINE = re.compile(r"^(\S+)\t(VALID|INVALID)\t([^\t]*)\t([^\t]*)$")


@pytest.fixture
def judge(small_lexicon) -> WordJudge:
    lex = Lexicon.open(small_lexicon)
    return WordJudge(lex.words, lexicon_word_rules(lex.meta))


def test_play_words_and_judgements(judge):
    assert play_words("  KOT, żółw;bąk + ala/  źdźbło ") == ["kot", "żółw", "bąk", "ala", "źdźbło"]
    assert judge.judge("   ") is None
    valid = judge.judge("KOT żółw", now=datetime(2026, 2, 1, 12, 0, 3).astimezone())
    assert valid.valid and valid.verdict == "VALID" and valid.invalid == ()
    invalid = judge.judge("kot kotek a q1")
    assert not invalid.valid and invalid.verdict == "INVALID" and invalid.invalid == ("kotek", "a", "q1")
    with pytest.raises(InputError, match="at most"):
        judge.judge(" ".join(["kot"] * (MAX_PLAY_WORDS + 1)))


def test_log_lines(judge, tmp_path):
    log = JudgeLog(tmp_path / "judge.log")
    log.write(judge.judge("kot żółw", now=datetime.fromisoformat("2026-02-01T12:00:03+01:00")))
    log.write(judge.judge("kot kotek", now=datetime.fromisoformat("2026-02-01T12:01:00+01:00")))
    log.close()
    assert (tmp_path / "judge.log").read_text(encoding="utf-8") == (
        "2026-02-01T12:00:03+01:00\tVALID\tkot żółw\t-\n2026-02-01T12:01:00+01:00\tINVALID\tkot kotek\tkotek\n"
    )
    with pytest.raises(InputError, match="cannot write the judge log"):
        JudgeLog(tmp_path)


def test_a_log_fifo_nobody_reads_is_refused_and_one_with_a_reader_written(judge, tmp_path):
    fifo = tmp_path / "judge.fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="judge.fifo: cannot write the judge log: a pipe that nothing reads"):
        JudgeLog(fifo)  # at once: a blocking open would hang the judge before its screen
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        log = JudgeLog(fifo)
        log.write(judge.judge("kot", now=datetime.fromisoformat("2026-02-01T12:00:03+01:00")))
        assert os.read(reader, 1000) == b"2026-02-01T12:00:03+01:00\tVALID\tkot\t-\n"
        log.close()
    finally:
        os.close(reader)


def test_big_letters():
    lines = bigtext.render("INVALID")
    assert len(lines) == 5 and len({len(line) for line in lines}) == 1 and set("".join(lines)) == {"█", " "}
    assert len(bigtext.render("NIEDOPUSZCZALNY")[0]) <= 78  # fits an 80-column terminal
    assert len(bigtext.render("ŻĄ")) == 7  # a row for the dot above and one for the ogonek below
    assert bigtext.render("K1") is None
    assert bigtext.fit("VALID", 200, 40) == bigtext.render("VALID", 3)
    assert bigtext.fit("VALID", 30, 10) == bigtext.render("VALID", 1)
    assert bigtext.fit("NIEDOPUSZCZALNY", 40, 10) is None


def test_words_checked_in_polish_and_english():
    assert [words_checked(n, "pl") for n in (1, 2, 5, 12, 22)] == [
        "sprawdzone: 1 słowo", "sprawdzone: 2 słowa", "sprawdzone: 5 słów", "sprawdzone: 12 słów",
        "sprawdzone: 22 słowa",
    ]  # fmt: skip
    assert words_checked(1, "en") == "1 word checked" and words_checked(3, "en") == "3 words checked"


def _shown(widget) -> str:
    """The text a Static widget shows (``content`` in newer Textual, ``renderable`` before 5)."""
    return str(widget.content if hasattr(widget, "content") else widget.renderable)


def _screen_text(app) -> str:
    """Everything the screen shows, as text."""
    from textual.widgets import Static

    return "\n".join(_shown(widget) for widget in app.query(Static))


def test_the_screen_shows_a_verdict_for_the_whole_play(judge, tmp_path):
    log = JudgeLog(tmp_path / "judge.log")

    async def scenario():
        app = JudgeApp(judge, "pl", log, clear_after=60)
        async with app.run_test(size=(100, 30)) as pilot:
            assert app.verdict is None and "Wpisz słowa ruchu" in _screen_text(app)
            await pilot.press(*"kot żółw", "enter")
            assert app.verdict == "VALID"
            verdict = app.query_one("#verdict")
            assert verdict.has_class("valid") and "█" in _shown(verdict)
            assert "Ruch DOPUSZCZALNY (sprawdzone: 2 słowa)" in _screen_text(app)
            assert app.query_one("#play").value == ""  # the typed words vanish at once

            await pilot.press(*"kot zzzz bąk", "enter")
            assert app.verdict == "INVALID" and app.query_one("#verdict").has_class("invalid")
            shown = _screen_text(app)
            assert "Ruch NIEDOPUSZCZALNY (sprawdzone: 3 słowa)" in shown
            assert "zzzz" not in shown.lower()  # which word failed is never shown

            await pilot.press("escape")
            assert app.verdict is None and not app.query_one("#verdict").has_class("invalid")
            await pilot.press(*"   ", "enter")  # nothing typed: nothing judged
            assert app.verdict is None and len(app.judgements) == 2

    asyncio.run(scenario())
    log.close()
    lines = (tmp_path / "judge.log").read_text(encoding="utf-8").splitlines()
    assert [LOG_LINE.match(line).groups()[1:] for line in lines] == [
        ("VALID", "kot żółw", "-"),
        ("INVALID", "kot zzzz bąk", "zzzz"),
    ]
    for line in lines:
        datetime.fromisoformat(LOG_LINE.match(line)[1])


def test_the_verdict_clears_after_a_few_seconds(judge):
    async def scenario():
        app = JudgeApp(judge, "en", None, clear_after=0.3)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*"KOT", "enter")
            assert app.verdict == "VALID" and "The play is VALID (1 word checked)" in _screen_text(app)
            await pilot.pause(0.8)
            assert app.verdict is None and _shown(app.query_one("#verdict")) == ""
            assert "Type the words of the play" in _screen_text(app)
            await pilot.press(*"kot kotek", "enter")
            assert app.verdict == "INVALID" and "The play is INVALID (2 words checked)" in _screen_text(app)
            await pilot.press("ctrl+q")
        return app.return_code

    assert asyncio.run(scenario()) in (0, None)


def test_too_long_a_play_is_refused_on_the_screen(judge):
    async def scenario():
        app = JudgeApp(judge, "pl", None, clear_after=60)
        async with app.run_test(size=(100, 30)) as pilot:
            app.query_one("#play").value = " ".join(["kot"] * (MAX_PLAY_WORDS + 1))
            await pilot.press("enter")
            assert app.verdict is None and "Za długo" in _screen_text(app) and not app.judgements

    asyncio.run(scenario())


def test_a_log_that_fails_is_shown_and_judging_goes_on(judge, tmp_path):
    (tmp_path / "[bold]").mkdir()
    log = JudgeLog(tmp_path / "[bold]" / "judge.log")  # a path that looks like markup is shown as it is

    def full_disk(judgement):
        raise OSError(28, "No space left on device")

    log.write = full_disk

    async def scenario():
        app = JudgeApp(judge, "en", log, clear_after=60)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press(*"kot", "enter")
            assert app.verdict == "VALID" and app.log_failed
            assert "CANNOT WRITE THE LOG" in _screen_text(app) and "No space left" in _screen_text(app)
            assert "[bold]/judge.log" in _screen_text(app)

    asyncio.run(scenario())
    log.close()


def test_judge_command_refusals(env_lexicon, capsys, tmp_path):
    for args, message in [
        (["--lang", "de"], "--lang 'de'"),
        (["--clear-after", "0"], "--clear-after 0"),
        ([], "run it in a terminal"),  # pytest's stdin is no terminal
    ]:
        code, out, err = run_cli(capsys, "judge", *args)
        assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1, (args, err)


def test_judge_in_a_pseudo_terminal(small_lexicon, tmp_path):
    """The real program in a real pseudo-terminal: type a play, see the verdict, quit with Ctrl+Q."""
    pexpect = pytest.importorskip("pexpect")
    log = tmp_path / "judge.log"
    script = (
        "import sys, literaki_cli.commands.judge\n"
        "from literaki_cli.commands import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = dict(os.environ, TERM="xterm-256color", LITERAKI_LEXICON=str(small_lexicon), PYTHONPATH=str(ROOT))
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable, ["-c", script, "judge", "--log", str(log), "--clear-after", "30"], env=env,
        dimensions=(30, 100), encoding="utf-8", timeout=60, cwd=str(ROOT),
    )  # fmt: skip
    try:
        child.expect("Sędzia słów")
        child.send("kot zzzz\r")
        child.expect("Ruch NIEDOPUSZCZALNY")
        child.send("żółw\r")
        child.expect("Ruch DOPUSZCZALNY")
        child.sendcontrol("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    verdicts = [line.split("\t")[1:3] for line in Path(log).read_text(encoding="utf-8").splitlines()]
    assert verdicts == [["INVALID", "kot zzzz"], ["VALID", "żółw"]]
