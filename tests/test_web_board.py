"""The analysis board in a real browser (issue 29): Playwright drives Debian's Chromium against
``literaki serve``'s application on a loopback port, and what the page shows is checked against
the commands' own answers.  Skipped, saying why, only where no browser can be had (`.ci/run`
installs Debian's chromium)."""

from __future__ import annotations

import json
import shutil
import socket
import threading
import time

import pytest

from tests.conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = [
    pytest.mark.slow,  # a real browser
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium here (Debian's chromium package; .ci/run installs it)"),
]
playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (the test extra)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(flowing_lexicon):
    """The board's application served by uvicorn on a free loopback port, for the module."""
    import uvicorn

    from literaki_cli.web.api import create_app

    port = free_port()
    config = uvicorn.Config(create_app(flowing_lexicon.path), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    running.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser, server):
    opened = browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)  # (the waits evaluate)
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.goto(server)
    opened.wait_for_selector("body[data-ready=true]")
    yield opened
    opened.close()
    assert errors == [], errors  # no JavaScript error on the way


def type_example_board(page) -> None:
    """examples/board.txt: ÓSMY across from h8, typed as a player would."""
    page.click("[data-square=h8]")
    page.keyboard.type("ósmy")


def first_row(page) -> list[str]:
    page.wait_for_selector("#moves tbody tr[data-rank='1']")
    return [cell.inner_text() for cell in page.query_selector_all("#moves tbody tr[data-rank='1'] td")]


def test_typing_the_example_board_and_rack_shows_solves_best_move(page, flowing_lexicon, capsys):
    type_example_board(page)
    letters = [page.get_attribute(f"[data-square={square}]", "data-letter") for square in ("h8", "i8", "j8", "k8")]
    assert letters == ["Ó", "S", "M", "Y"]
    page.fill("input[name=rack]", "kotaeis")
    row = first_row(page)
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "board.txt"), "--rack", "KOTAEIS", "--json", "--lexicon",
                             str(flowing_lexicon.path))  # fmt: skip
    best = json.loads(out)["moves"][0]
    assert row[:4] == ["1", best["coord"], best["display"], str(best["score"])]
    count = sum(json.loads(out)["unseen"].values())
    assert f": {count} (" in page.inner_text("#unseen")


def test_playing_a_move_lays_it_scores_it_and_passes_the_turn(page):
    type_example_board(page)
    page.fill("input[name=rack]", "kotaeis")
    row = first_row(page)
    unseen = page.inner_text("#unseen")
    answered = page.get_attribute("body", "data-answered")
    placed = page.evaluate("state.moves[0].placed.map(t => t.col + 'abcdefghijklmno'[t.col] + (t.row + 1))")
    page.click("#moves tbody tr[data-rank='1'] button.play")
    page.wait_for_function("document.querySelector('input[name=score1]').value !== '0'")
    assert page.input_value("input[name=score1]") == row[3]  # the mover's total, now the other side's
    assert page.input_value("input[name=score0]") == "0"  # the other player's, now to move
    assert page.inner_text("#on-turn") == "Na ruchu: gracz 2"
    assert page.input_value("input[name=rack2]") == ("" if row[4] == "-" else row[4])  # the leave, to draw to
    assert page.input_value("input[name=rack]") == ""  # the other rack is not known
    last = page.eval_on_selector_all(".cell.last", "cells => cells.map(c => c.dataset.square)")
    assert sorted(last) == sorted(p.lstrip("0123456789") for p in placed)  # the last move marked
    on_board = page.eval_on_selector_all("[data-letter]:not([data-letter=''])", "cells => cells.length")
    assert on_board == 4 + 7 - len(page.input_value("input[name=rack2]"))
    page.wait_for_function("n => document.body.dataset.answered !== n", arg=answered)  # the position after it:
    # unseen by player 2: the leave of player 1 (not known to them), less nothing else
    assert unseen_count(page) == unseen_count_of(unseen) + len(page.input_value("input[name=rack2]"))
    page.fill("input[name=rack2]", page.input_value("input[name=rack2]") + "a")  # a tile drawn, typed in
    page.wait_for_function("text => document.getElementById('unseen').dataset.bag !== text",
                           arg=page.get_attribute("#unseen", "data-bag"))
    page.click("#undo")  # the rack as it was
    page.click("#undo")  # the move taken back: the board of four tiles again, player 1 to move
    page.wait_for_function("document.querySelectorAll(\"[data-letter]:not([data-letter=''])\").length === 4")
    assert page.inner_text("#on-turn") == "Na ruchu: gracz 1" and page.input_value("input[name=rack]") == "kotaeis"


def test_a_move_played_with_a_random_draw_fills_the_rack_from_the_bag(page):
    type_example_board(page)
    page.fill("input[name=rack]", "kotaeis")
    first_row(page)
    answered(page)
    unseen = page.evaluate("state.unseen")
    leave = page.evaluate("state.moves[0].leave")
    page.select_option("#draw", "random")
    page.click("#moves tbody tr[data-rank='1'] button.play")
    page.wait_for_function("document.querySelector('input[name=rack2]').value.length === 7")
    rack = page.input_value("input[name=rack2]")
    drawn = list(rack)
    for ch in leave:
        drawn.remove(ch)
    for ch in drawn:  # each drawn tile was one the mover could not see
        assert unseen.get(ch, 0) > 0, (ch, unseen)
        unseen[ch] -= 1


def unseen_count_of(line: str) -> int:
    return int(line.split(":")[1].split("(")[0])


def unseen_count(page) -> int:
    return unseen_count_of(page.inner_text("#unseen"))


def test_a_bad_rack_shows_the_engines_message(page):
    page.fill("input[name=rack]", "źźź")
    page.wait_for_function("document.getElementById('problems').textContent.length > 0")
    message = page.inner_text("#problems")
    assert message == "3 × Ź na planszy i stojakach, a w zestawie jest ich 1: popraw planszę albo stojak."
    assert page.query_selector("#moves tbody tr") is None


def test_a_blank_is_typed_with_shift_and_the_cursor_turns(page):
    page.click("[data-square=h8]")
    page.click("[data-square=h8]")  # a second click turns the cursor down
    page.keyboard.type("K")  # with Shift: a blank
    page.keyboard.type("ot")
    assert [page.get_attribute(f"[data-square={s}]", "data-letter") for s in ("h8", "h9", "h10")] == ["k", "O", "T"]
    page.keyboard.press("Backspace")
    assert page.get_attribute("[data-square=h10]", "data-letter") == ""


def test_the_page_switches_to_english(page):
    assert page.inner_text("#undo") == "Cofnij"
    page.click("#lang")
    page.wait_for_function("document.getElementById('undo').textContent === 'Undo'")
    assert page.evaluate("document.documentElement.lang") == "en"


def test_every_label_of_the_page_is_in_its_language_the_file_pickers_too(page):
    """What a screen reader says (aria-label) and the file picker's button come in the page's
    language, not in English nor in the browser's own words ("Choose File")."""
    from literaki_cli.web.api import board_texts

    for lang in ("pl", "en"):
        texts = board_texts(lang)
        labels = page.eval_on_selector_all("[aria-label]", "els => els.map(e => [e.dataset.label, e.ariaLabel])")
        assert len(labels) >= 13 and all(key and label == texts[key] for key, label in labels), labels
        assert page.inner_text("label.file .button") == texts["game_choose"]
        page.click("#lang")
        page.wait_for_function("l => document.documentElement.lang === l", arg="pl" if lang == "en" else "en")
    with page.expect_file_chooser() as chosen:
        page.click("label.file .button")  # the page's own button opens the browser's picker
    chosen.value.set_files(str(EXAMPLES / "simulated-game.gcg"))
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '1'")
    page.wait_for_selector("#turns tbody tr[data-turn='12']", timeout=60_000)  # its review done: no job left


def test_a_game_opened_and_stepped_shows_analyzes_numbers(page, flowing_lexicon, capsys):
    page.set_input_files("#game-file", str(EXAMPLES / "simulated-game.gcg"))
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '1'")
    page.wait_for_selector("#turns tbody tr[data-turn='12']", timeout=60_000)  # the review came
    page.click("#turn-next")  # a button of the game: the arrow keys step the turns from here
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '12'")
    code, out, err = run_cli(capsys, "analyze", str(EXAMPLES / "simulated-game.gcg"), "--endgame-time", "2",
                             "--threads", "1", "--json", "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    turn = json.loads(out)["turns"][11]
    row = [c.inner_text() for c in page.query_selector_all("#turns tbody tr[data-turn='12'] td")]
    assert row[4] == f"{turn['best']['coord']} {turn['best']['word']} {turn['best']['score']}"
    assert row[5] == f"{turn['equity_loss']:.1f}"
    assert "now" in page.get_attribute("#turns tbody tr[data-turn='12']", "class")
    code, out, err = run_cli(capsys, "show", str(EXAMPLES / "simulated-game.gcg"), "--turn", "12", "--json")
    shown = json.loads(out)["position"]
    letters = "".join(page.get_attribute(f"[data-square={c}{r}]", "data-letter") or "."
                      for r in range(1, 16) for c in "abcdefghijklmno")  # fmt: skip
    assert letters == "".join(shown["board"]).replace(".", ".")
    assert page.input_value("input[name=rack]") == shown["racks"][0].upper()
    page.keyboard.press("End")
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '31'")


def test_a_short_simulation_fills_its_table_and_a_long_one_is_cancelled(page):
    type_example_board(page)
    page.fill("input[name=rack]", "kotaeis")
    first_row(page)
    page.fill("#sim-iterations", "64")
    page.click("#sim-start")
    page.wait_for_function("document.getElementById('job-status').dataset.state === 'done'", timeout=60_000)
    rows = page.query_selector_all("#sim tbody tr")
    assert rows and all(r.query_selector_all("td")[-1].inner_text() == "64" for r in rows)
    page.fill("#sim-iterations", "100000")
    page.click("#sim-start")
    page.wait_for_selector("#sim tbody tr", timeout=60_000)  # a round came
    page.click("#job-cancel")
    page.wait_for_function("document.getElementById('job-status').dataset.state === 'cancelled'", timeout=30_000)
    assert page.inner_text("#job-status") == "Przerwano"  # said once, not "Przerwano (Przerwano)"
    assert page.query_selector_all("#sim tbody tr")
    assert not page.is_disabled("#sim-start")


# --------------------------------------------------------------------------- issue 42: the page a player keeps open


def open_page(browser, url: str, **context):
    """A page of its own browser context (its own storage), ready; with the JavaScript errors it
    meets collected in ``page.errors``."""
    opened = browser.new_context(bypass_csp=True, **context).new_page()
    opened.errors = []
    opened.on("pageerror", lambda error: opened.errors.append(str(error)))
    opened.goto(url)
    opened.wait_for_selector("body[data-ready=true]")
    return opened


def answered(page) -> None:
    """Wait until the answers of the page's last edit are all shown."""
    page.wait_for_function("document.body.dataset.answered && Number(document.body.dataset.answered) >= 1")
    page.wait_for_timeout(150)  # an edit's answer is asked 120 ms after it
    page.wait_for_function("""() => { const n = document.body.dataset.answered;
        return new Promise((done) => setTimeout(() => done(document.body.dataset.answered === n), 300)); }""")


def board_letters(page) -> str:
    return "".join(page.get_attribute(f"[data-square={c}{r}]", "data-letter") or "."
                   for r in range(1, 16) for c in "abcdefghijklmno")  # fmt: skip


def no_sideways_scroll(page) -> None:
    width, window = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= window, f"the page is {width} px wide in a {window} px window"


def test_the_review_chart_shows_with_its_scale_and_legend(page):
    page.set_input_files("#game-file", str(EXAMPLES / "simulated-game.gcg"))
    page.wait_for_selector("#turns tbody tr[data-turn='12']", timeout=60_000)
    shown = page.evaluate("""() => { const svg = document.getElementById('chart');
        const box = svg.getBoundingClientRect(); return [getComputedStyle(svg).display, box.width, box.height]; }""")
    assert shown[0] != "none" and shown[1] > 300 and shown[2] > 80, shown
    ticks = page.eval_on_selector_all("#chart text.tick.y", "els => els.map(e => e.textContent)")
    assert "0" in ticks and any(t.startswith("+") for t in ticks) and any(t.startswith("-") for t in ticks)
    assert page.eval_on_selector_all("#chart text.tick.x", "els => els.map(e => e.textContent)")[0] == "1"
    legend = page.eval_on_selector_all("#chart text.legend", "els => els.map(e => e.textContent)")
    assert legend == ["różnica punktów (gracz 1 − gracz 2)", "strata wartości: gracz 1", "strata wartości: gracz 2"]
    boxes = page.eval_on_selector_all("#chart text.legend", "els => els.map(e => [e.getBBox().x, e.getBBox().width])")
    assert all(a[0] + a[1] < b[0] for a, b in zip(boxes, boxes[1:], strict=False)), boxes  # side by side
    page.click("#chart circle[data-turn='5']")
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '5'")


def test_the_unseen_tiles_are_not_a_stale_count_while_the_position_is_wrong(page):
    type_example_board(page)
    page.fill("input[name=rack]", "kotaeis")
    first_row(page)
    assert page.get_attribute("#unseen", "data-bag") != ""
    page.fill("input[name=rack]", "źźź")
    page.wait_for_function("document.getElementById('problems').textContent.length > 0")
    page.wait_for_function("document.getElementById('unseen').dataset.bag === ''")
    assert not any(ch.isdigit() for ch in page.inner_text("#unseen"))  # no count of another position


def test_a_link_reopens_the_position_and_a_reload_keeps_it(browser, server):
    first = open_page(browser, server)
    type_example_board(first)
    first.fill("input[name=rack]", "kotaeis")
    row = first_row(first)
    answered(first)
    first.click("#share")
    first.wait_for_function("document.getElementById('out-status').dataset.link")
    link = first.get_attribute("#out-status", "data-link")
    assert link == first.url and "#cgp=" in link
    letters = board_letters(first)
    first.reload()
    first.wait_for_selector("body[data-ready=true]")
    assert board_letters(first) == letters and first_row(first) == row
    other = open_page(browser, link)  # a new browser context: nothing of the first page's storage
    assert board_letters(other) == letters
    assert other.input_value("input[name=rack]") == "KOTAEIS"
    assert first_row(other) == row
    fresh = open_page(browser, server)  # no link, no storage: an empty board
    assert set(board_letters(fresh)) == {"."}
    for opened in (first, other, fresh):
        assert opened.errors == []
        opened.context.close()


def test_a_reload_in_a_game_reopens_it_at_its_turn_with_the_board_as_it_was(browser, server):
    page = open_page(browser, server)
    page.set_input_files("#game-file", str(EXAMPLES / "simulated-game.gcg"))
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '1'")
    for _ in range(4):
        page.click("#turn-next")
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '5'")
    answered(page)
    assert "game=5" in page.url
    letters, rack = board_letters(page), page.input_value("input[name=rack]")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("#turn-now", "data-turn") == "5" and not page.is_hidden("#game-steps")
    assert board_letters(page) == letters and page.input_value("input[name=rack]") == rack
    page.fill("input[name=rack]", "KOTEK")  # an edit after stepping: a reload keeps it too
    answered(page)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.get_attribute("#turn-now", "data-turn") == "5"
    assert board_letters(page) == letters and page.input_value("input[name=rack]") == "KOTEK"
    page.click("#turn-next")  # the game still steps on from its turn
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '6'")
    page.wait_for_selector("#turns tbody tr[data-turn='12']", timeout=60_000)  # its review done: no job left
    assert page.errors == []
    page.context.close()


def test_a_pasted_cgp_or_board_text_opens_with_solves_best_move(page, flowing_lexicon, capsys):
    cgp = (EXAMPLES / "game.cgp").read_text(encoding="utf-8")
    page.evaluate("""text => { const data = new DataTransfer(); data.setData('text/plain', text);
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true })); }""", cgp)
    row = first_row(page)
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "game.cgp"), "--json", "--lexicon",
                             str(flowing_lexicon.path))  # fmt: skip
    best = json.loads(out)["moves"][0]
    assert row[:4] == ["1", best["coord"], best["display"], str(best["score"])]
    page.click("#undo")  # the paste is one edit
    page.wait_for_function("document.querySelectorAll(\"[data-letter]:not([data-letter=''])\").length === 0")
    page.fill("#paste", (EXAMPLES / "board.txt").read_text(encoding="utf-8"))
    page.click("#paste-open")
    page.wait_for_function("document.querySelector('[data-square=h8]').dataset.letter === 'Ó'")
    assert page.input_value("#paste") == ""


def test_a_pasted_game_record_opens_to_step_through(page):
    page.fill("#paste", (EXAMPLES / "simulated-game.gcg").read_text(encoding="utf-8"))
    page.click("#paste-open")
    page.wait_for_function("document.getElementById('turn-now').dataset.turn === '1'")
    assert "simulated" not in page.inner_text("#game-name") and "—" in page.inner_text("#game-name")


def test_bad_pasted_text_says_why_and_leaves_the_board(page):
    type_example_board(page)
    letters = board_letters(page)
    for bad, said in (("15/15 ABC/ 0/0 0", "Nieoczekiwany znak"),  # in the page's language
                      ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KOT/ 0/0 0 var foo;", "Nieznana gra 'foo'")):
        page.evaluate("document.getElementById('problems').textContent = ''")
        page.fill("#paste", bad)
        page.click("#paste-open")
        page.wait_for_function("document.getElementById('problems').textContent.length > 0")
        message = page.inner_text("#problems")
        assert said in message and "\n" not in message, message
        assert board_letters(page) == letters
        assert page.input_value("#paste") == bad  # kept, to be corrected


def test_ctrl_z_and_ctrl_y_take_the_board_back_and_forth(page):
    type_example_board(page)
    page.keyboard.press("Control+z")
    assert page.get_attribute("[data-square=k8]", "data-letter") == ""
    page.keyboard.press("Control+z")
    assert page.get_attribute("[data-square=j8]", "data-letter") == ""
    page.keyboard.press("Control+y")
    assert page.get_attribute("[data-square=j8]", "data-letter") == "M"
    page.keyboard.press("Control+Shift+z")
    assert page.get_attribute("[data-square=k8]", "data-letter") == "Y"


@pytest.mark.parametrize("size", [{"width": 1400, "height": 1000}, {"width": 390, "height": 844}])
def test_nothing_scrolls_sideways_and_a_tap_places_tiles(browser, server, size):
    phone = size["width"] < 500
    page = open_page(browser, server, viewport=size, is_mobile=phone, has_touch=phone)
    no_sideways_scroll(page)
    board = page.eval_on_selector("#board", "b => b.getBoundingClientRect().width")
    if phone:
        assert board >= 0.9 * size["width"], board  # the board fills the width
        page.tap("[data-square=h8]")
    else:
        page.click("[data-square=h8]")
    page.keyboard.type("ósmy")
    assert page.get_attribute("[data-square=k8]", "data-letter") == "Y"
    page.fill("input[name=rack]", "kotaeis")
    first_row(page)
    page.set_input_files("#game-file", str(EXAMPLES / "simulated-game.gcg"))
    page.wait_for_selector("#turns tbody tr[data-turn='12']", timeout=60_000)
    no_sideways_scroll(page)
    rack, board_box = page.eval_on_selector("input[name=rack]", "e => e.getBoundingClientRect().top"), \
        page.eval_on_selector("#board", "e => e.getBoundingClientRect().bottom")
    if phone:
        assert rack > board_box  # the rack below the board
    for control in page.query_selector_all("button:not([hidden])"):
        if control.is_visible():
            box = control.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1, control.inner_text()
    if phone:  # a finger: a square tapped, then a tile of the rack
        page.fill("input[name=rack]", "kotaeis")
        page.tap("[data-square=a1]")
        page.tap("#rack-tiles .rack-tile[data-index='0']")
        page.wait_for_function("document.querySelector('[data-square=a1]').dataset.letter === 'K'")
    assert page.errors == []
    page.context.close()


def listed(page) -> list[tuple[str, str]]:
    """The move list's rows as (square, move) pairs, variants opened under their row included."""
    return [tuple(c.inner_text().split(" +")[0] for c in row.query_selector_all("td")[1:3])
            for row in page.query_selector_all("#moves tbody tr")]  # fmt: skip


def wait_listed(page, before: str) -> None:
    page.wait_for_function("n => document.body.dataset.listed && document.body.dataset.listed !== n", arg=before)


def placement_of(move: dict) -> tuple:
    """The test's own notion of one placement: where the move goes and what it lays, a blank's
    letter left out."""
    return move["coord"], tuple((t["row"], t["col"], "?" if t["blank"] else t["letter"]) for t in move["placed"])


def test_the_move_list_folds_blanks_filters_sorts_and_scrolls(page, flowing_lexicon, capsys):
    import fnmatch

    page.fill("#paste", (EXAMPLES / "game.cgp").read_text(encoding="utf-8").replace("KOTAŁW?", "ŻWIKA??"))
    page.click("#paste-open")
    first_row(page)
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "game.cgp"), "--rack", "ŻWIKA??", "--top", "1000000",
                             "--json", "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    moves = json.loads(out)["moves"]
    folded = {}
    for m in moves:  # the test's own folding: a placement whatever its blanks stand for
        folded.setdefault(placement_of(m), m)
    expect = [(m["coord"], m["display"]) for m in folded.values()]
    assert listed(page) == expect[:50]  # one page; the rest as the list scrolls
    page.eval_on_selector("#moves-more", "b => b.scrollIntoView()")
    page.wait_for_function("document.querySelectorAll('#moves tbody tr').length > 50")
    assert listed(page) == expect[:100]
    page.uncheck("#f-fold")
    wait_listed(page, "")
    assert listed(page) == [(m["coord"], m["display"]) for m in moves][:50]  # unfolded: solve's list
    for control, value, keep in [
        ("#f-pattern", "*ka", lambda m: fnmatch.fnmatchcase(m["word"].lower(), "*ka")),
        ("#f-square", "k7", lambda m: any((t["row"], t["col"]) == (6, 10) for t in m["placed"])),
    ]:
        before = page.get_attribute("body", "data-listed")
        page.fill(control, value)
        wait_listed(page, before)
        assert listed(page) == [(m["coord"], m["display"]) for m in moves if keep(m)][:50], value
        before = page.get_attribute("body", "data-listed")
        page.fill(control, "")
        wait_listed(page, before)
    before = page.get_attribute("body", "data-listed")
    page.select_option("#f-sort", "score")
    wait_listed(page, before)
    assert listed(page) == [(m["coord"], m["display"]) for m in sorted(moves, key=lambda m: -m["score"])][:50]
    by_score = {}
    for m in sorted(moves, key=lambda m: -m["score"]):
        by_score.setdefault(placement_of(m), m)
    counts = {}
    for m in moves:
        counts[placement_of(m)] = counts.get(placement_of(m), 0) + 1
    group_row = next(i for i, k in enumerate(by_score) if counts[k] > 1)  # the first placement with variants
    before = page.get_attribute("body", "data-listed")
    page.check("#f-fold")
    wait_listed(page, before)
    while (shown := len(page.query_selector_all("#moves tbody tr"))) <= group_row:
        page.click("#moves-more")  # (what scrolling to the end of the list does: the rows counted before it)
        page.wait_for_function("n => document.querySelectorAll('#moves tbody tr').length > n", arg=shown)
    rows = page.query_selector_all("#moves tbody tr")
    assert [r.query_selector("button.variants") is not None for r in rows[: group_row + 1]] == \
        [False] * group_row + [True]
    rows[group_row].query_selector("button.variants").click()
    page.wait_for_selector("#moves tbody tr.variant")
    opened = listed(page)
    key = list(by_score)[group_row]
    others = [(m["coord"], m["display"]) for m in sorted(moves, key=lambda m: -m["score"]) if placement_of(m) == key]
    assert len(others) > 1 and opened[group_row: group_row + len(others)] == others


def test_in_a_reviewed_game_the_move_played_is_marked_with_its_loss(page, flowing_lexicon, capsys):
    page.set_input_files("#game-file", str(EXAMPLES / "simulated-game.gcg"))
    page.wait_for_selector("#turns tbody tr[data-turn='12']", timeout=60_000)
    code, out, err = run_cli(capsys, "analyze", str(EXAMPLES / "simulated-game.gcg"), "--endgame-time", "2",
                             "--threads", "1", "--json", "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    # the first moves played that are words of the tests' lexicon (the game was played with another)
    legal = [t for t in json.loads(out)["turns"] if t["kind"] == "place" and not t["note"] and t["equity_loss"]]
    for turn in legal[:2]:
        check_the_played_move_is_marked(page, turn)
    page.fill("input[name=rack]", "a")  # an edit: no longer the game's position
    page.wait_for_function("document.getElementById('review-note').hidden")


def check_the_played_move_is_marked(page, turn: dict) -> None:
    page.click(f"#turns tbody tr[data-turn='{turn['turn']}']")
    page.wait_for_function("n => document.getElementById('turn-now').dataset.turn === n", arg=str(turn["turn"]))
    page.wait_for_function("!document.getElementById('review-note').hidden")
    note = page.inner_text("#review-note")
    assert f"strata {turn['equity_loss']:.1f}" in note and turn["best"]["coord"] in note, note
    page.wait_for_selector("#moves tbody tr.played")
    played = page.query_selector("#moves tbody tr.played").query_selector_all("td")
    assert [played[1].inner_text(), played[3].inner_text()] == [turn["played"]["coord"], str(turn["played"]["score"])]


def test_the_rack_as_tiles_places_letters_and_is_reordered_by_dragging(page):
    page.fill("input[name=rack]", "kotaei?")
    assert page.eval_on_selector_all("#rack-tiles .rack-tile", "ts => ts.map(t => t.firstChild.textContent)") == \
        list("KOTAEI?")
    page.click("[data-square=h8]")
    page.click("#rack-tiles .rack-tile[data-index='1']")  # O, at the cursor; the cursor moves on
    page.click("#rack-tiles .rack-tile[data-index='6']")  # the blank: it stands for the next letter typed
    page.keyboard.type("t")
    assert [page.get_attribute(f"[data-square={s}]", "data-letter") for s in ("h8", "i8")] == ["O", "t"]
    assert page.input_value("input[name=rack]") == "kotaei?"  # the rack is a keyboard here: it keeps its tiles
    first, target = (page.query_selector(f"#rack-tiles .rack-tile[data-index='{i}']").bounding_box() for i in (0, 3))
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=5)
    page.mouse.up()
    assert page.input_value("input[name=rack]") == "otakei?"  # K moved to the fourth place
    page.keyboard.press("Control+z")  # the order taken back too
    assert page.input_value("input[name=rack]") == "kotaei?"


def test_the_pre_endgame_runs_as_a_job_with_its_table_of_win_chances(page, flowing_lexicon, capsys):
    page.fill("#paste", (EXAMPLES / "peg.cgp").read_text(encoding="utf-8"))
    page.click("#paste-open")
    first_row(page)
    page.wait_for_function("!document.getElementById('peg-start').disabled")
    assert page.is_disabled("#endgame-start")  # the bag is not empty
    page.click("#peg-start")
    page.wait_for_function("document.getElementById('job-status').dataset.state === 'done'", timeout=90_000)
    code, out, err = run_cli(capsys, "solve", str(EXAMPLES / "peg.cgp"), "--peg", "--threads", "1", "--json",
                             "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    expected = json.loads(out)["peg"]["candidates"]
    rows = [[c.inner_text() for c in r.query_selector_all("td")] for r in page.query_selector_all("#peg tbody tr")]
    assert [(r[1], r[5]) for r in rows] == [(c["coord"] or "-", f"{c['win_pct']:.1f}") for c in expected]
    assert not page.is_hidden("#peg-summary")


def test_the_word_check_answers_in_the_pages_language(page):
    for word, valid, said in (("kot", "true", "jest w słowniku"), ("kot-ek", "false", "nie ma w słowniku (ma łącznik)"),
                              ("qwxv", "false", "nie ma w słowniku (ma literę bez płytki w tej grze)")):  # fmt: skip
        page.fill("#word-check", word)
        page.wait_for_function("v => document.getElementById('word-result').dataset.valid === v", arg=valid)
        page.wait_for_function("t => document.getElementById('word-result').textContent === t", arg=said)
