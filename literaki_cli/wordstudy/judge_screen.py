"""The word judge's full-screen terminal interface (Textual).

A player types the words of a play and presses Enter; the screen turns green with VALID (or
red with INVALID) in large letters for the whole play, never saying which word failed, then
clears after a few seconds for the next player.  The typed words vanish at once.  Polish by
default, English with ``lang="en"``.

Textual rather than bare rich: the judge needs a keyboard input line, timers, a layout that
follows the terminal's size, and a way to drive it in tests (its pilot), none of which rich has.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import Input, Static

from literaki_cli.errors import InputError
from literaki_cli.wordstudy import bigtext
from literaki_cli.wordstudy.judge import MAX_PLAY_CHARS, MAX_PLAY_WORDS, JudgeLog, Judgement, WordJudge

#: The interface's words per language.
TEXTS = {
    "pl": {
        "title": "Sędzia słów — Literaki",
        "valid": "DOPUSZCZALNY",
        "invalid": "NIEDOPUSZCZALNY",
        "valid_line": "Ruch DOPUSZCZALNY ({words})",
        "invalid_line": "Ruch NIEDOPUSZCZALNY ({words})",
        "idle": "Wpisz słowa ruchu (oddzielone spacjami) i naciśnij Enter.",
        "placeholder": "słowa ruchu, np. KOT KOTY",
        "help": "Enter: sprawdź   Esc: wyczyść   Ctrl+Q: zakończ",
        "too_long": f"Za długo: najwyżej {MAX_PLAY_WORDS} słów i {MAX_PLAY_CHARS} znaków w jednym ruchu.",
        "lexicon": "słownik: {name}, {count} słów",
        "log": "dziennik: {path}",
        "log_failed": "BŁĄD ZAPISU DZIENNIKA {path}: {error}",
    },
    "en": {
        "title": "Word judge — Literaki",
        "valid": "VALID",
        "invalid": "INVALID",
        "valid_line": "The play is VALID ({words})",
        "invalid_line": "The play is INVALID ({words})",
        "idle": "Type the words of the play (separated by spaces) and press Enter.",
        "placeholder": "the play's words, e.g. KOT KOTY",
        "help": "Enter: judge   Esc: clear   Ctrl+Q: quit",
        "too_long": f"Too long: at most {MAX_PLAY_WORDS} words and {MAX_PLAY_CHARS} characters in one play.",
        "lexicon": "lexicon: {name}, {count} words",
        "log": "log: {path}",
        "log_failed": "CANNOT WRITE THE LOG {path}: {error}",
    },
}
LANGUAGES = tuple(TEXTS)


def words_checked(count: int, lang: str) -> str:
    """``2 słowa``, ``5 słów``, ``1 word``: how many words were judged, in the interface's language."""
    if lang == "en":
        return f"{count} word" + ("" if count == 1 else "s") + " checked"
    if count == 1:
        noun = "słowo"
    elif count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        noun = "słowa"
    else:
        noun = "słów"
    return f"sprawdzone: {count} {noun}"


class JudgeApp(App):
    """The judge's screen; ``verdict`` is what it shows now (None, "VALID", "INVALID")."""

    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; width: 100%; content-align: center middle; text-style: bold;
             background: $primary; color: $text; }
    #lexicon { height: 1; width: 100%; content-align: center middle; color: $text-muted; }
    #verdict { height: 1fr; width: 100%; content-align: center middle; text-align: center; text-style: bold; }
    #verdict.valid { background: #1b7a2a; color: #ffffff; }
    #verdict.invalid { background: #b01e1e; color: #ffffff; }
    #line { height: 3; width: 100%; content-align: center middle; text-style: bold; }
    #play { width: 100%; }
    #help { height: 1; width: 100%; content-align: center middle; color: $text-muted; }
    """

    #: The keys (the help line says them in the interface's language).
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("escape", "clear", "Clear", show=False),
    ]

    def __init__(
        self,
        judge: WordJudge,
        lang: str = "pl",
        log: JudgeLog | None = None,
        clear_after: float = 5.0,
        lexicon_label: str = "?",
    ) -> None:
        super().__init__()
        self.judge = judge
        self.lang = lang
        self.texts = TEXTS[lang]
        self.judge_log = log
        self.clear_after = clear_after
        self.lexicon_label = lexicon_label
        self.verdict: str | None = None
        self.log_failed = False
        self.judgements: list[Judgement] = []
        self._clear_timer: Timer | None = None
        self.title = self.texts["title"]

    def compose(self) -> ComposeResult:
        yield Static(self.texts["title"], id="title")
        count = f"{self.judge.word_set.count:,}".replace(",", "\u202f" if self.lang == "pl" else ",")
        lexicon_line = self.texts["lexicon"].format(name=self.lexicon_label, count=count)
        if self.judge_log is not None:
            lexicon_line += "   " + self.texts["log"].format(path=self.judge_log.path)
        yield Static(lexicon_line, id="lexicon", markup=False)  # names and paths are no markup
        yield Static("", id="verdict")
        yield Static(self.texts["idle"], id="line")
        yield Input(placeholder=self.texts["placeholder"], id="play", max_length=MAX_PLAY_CHARS)
        yield Static(self.texts["help"], id="help")

    def on_mount(self) -> None:
        self.query_one("#play", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value
        event.input.value = ""
        try:
            judgement = self.judge.judge(text)
        except InputError:
            self.action_clear()
            self.query_one("#line", Static).update(self.texts["too_long"])
            return
        if judgement is None:
            return
        if self.judge_log is not None:
            try:
                self.judge_log.write(judgement)
            except OSError as exc:  # a full disk must not end the judging: the director sees it
                self.log_failed = True
                failure = self.texts["log_failed"].format(path=self.judge_log.path, error=exc.strerror or exc)
                self.query_one("#lexicon", Static).update(Text(failure, style="bold red"))
        self.judgements.append(judgement)
        self.show(judgement)

    def show(self, judgement: Judgement) -> None:
        """Show a verdict in large letters, and clear it after ``clear_after`` seconds."""
        self.verdict = judgement.verdict
        verdict = self.query_one("#verdict", Static)
        verdict.set_class(judgement.valid, "valid")
        verdict.set_class(not judgement.valid, "invalid")
        self._draw_verdict()
        key = "valid_line" if judgement.valid else "invalid_line"
        self.query_one("#line", Static).update(
            self.texts[key].format(words=words_checked(len(judgement.words), self.lang))
        )
        if self._clear_timer is not None:
            self._clear_timer.stop()
        self._clear_timer = self.set_timer(self.clear_after, self.action_clear)

    def _draw_verdict(self) -> None:
        if self.verdict is None:
            return
        verdict = self.query_one("#verdict", Static)
        word = self.texts["valid" if self.verdict == "VALID" else "invalid"]
        columns, rows = verdict.size.width or self.size.width, verdict.size.height or self.size.height - 6
        lines = bigtext.fit(word, max(columns - 2, 1), max(rows, 1))
        verdict.update("\n".join(lines) if lines else word)

    def on_resize(self) -> None:
        self.call_after_refresh(self._draw_verdict)

    def action_clear(self) -> None:
        """Back to the empty screen that waits for the next play."""
        if self._clear_timer is not None:
            self._clear_timer.stop()
            self._clear_timer = None
        self.verdict = None
        verdict = self.query_one("#verdict", Static)
        verdict.remove_class("valid", "invalid")
        verdict.update("")
        self.query_one("#line", Static).update(self.texts["idle"])
