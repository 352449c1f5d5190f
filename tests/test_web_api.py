"""The analysis board's JSON API (issue 29, docs/serve.md) through Starlette's test client: every
endpoint answers what the matching command prints with --json on the example files, and every
bad input is a 400 (or 413) with the command's one-line message, never a 500."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("httpx2", reason="the web API's tests need httpx2 (the dev extra)")

from starlette.testclient import TestClient  # noqa: E402

from literaki_cli.web.api import MAX_BODY, MAX_GAME_BODY, create_app  # noqa: E402
from tests.conftest import ROOT, run_cli  # noqa: E402

EXAMPLES = ROOT / "examples"
GAME = (EXAMPLES / "simulated-game.gcg").read_text(encoding="utf-8")
CGP = (EXAMPLES / "game.cgp").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def client(flowing_lexicon):
    with TestClient(create_app(flowing_lexicon.path), base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def cli_json(capsys, *args) -> dict:
    code, out, err = run_cli(capsys, *args)
    assert code in (0, 1), err
    return json.loads(out)


def timeless(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("generation_ms", "seconds")}


@pytest.mark.parametrize("body, args", [
    ({"position": CGP}, [str(EXAMPLES / "game.cgp")]),
    ({"position": CGP, "rack": "ŻWIKA?E", "top": 3, "by": "score"}, [str(EXAMPLES / "game.cgp"), "--rack", "ŻWIKA?E",
                                                                    "--top", "3", "--by", "score"]),
    ({"position": GAME, "turn": 12}, [str(EXAMPLES / "simulated-game.gcg"), "--turn", "12"]),
])  # fmt: skip
def test_solve_answers_what_solve_json_prints(client, flowing_lexicon, capsys, body, args):
    response = client.post("/api/solve", json=body)
    assert response.status_code == 200, response.text
    expected = cli_json(capsys, "solve", *args, "--json", "--lexicon", str(flowing_lexicon.path))
    assert timeless(response.json()) == timeless(expected)


def test_score_answers_what_score_json_prints(client, flowing_lexicon, capsys):
    for move, status in (("K6 TOY", 200), ("K5 KOTY", 422)):
        response = client.post("/api/score", json={"position": CGP, "move": move})
        assert response.status_code == status, response.text
        expected = cli_json(capsys, "score", str(EXAMPLES / "game.cgp"), *move.split(), "--json", "--lexicon",
                            str(flowing_lexicon.path))  # fmt: skip
        assert response.json() == expected


def test_position_answers_what_show_json_prints(client, capsys):
    response = client.post("/api/position", json={"position": GAME, "turn": 5})
    assert response.status_code == 200, response.text
    expected = cli_json(capsys, "show", str(EXAMPLES / "simulated-game.gcg"), "--turn", "5", "--json")
    assert response.json() == expected


def test_check_word_answers_what_check_word_json_prints(client, flowing_lexicon, capsys):
    words = ["kot", "KOT", "xyz", "ąę", ""]
    response = client.post("/api/check-word", json={"words": words})
    assert response.status_code == 200, response.text
    code, out, err = run_cli(capsys, "check-word", *words[:-1], "--json", "--lexicon", str(flowing_lexicon.path))
    assert response.json()["words"][:-1] == [json.loads(line) for line in out.splitlines()]
    assert response.json()["words"][-1]["reason"] == "empty"


@pytest.mark.parametrize("path, body, words", [
    ("/api/solve", {"position": "15/15 ABC/ 0/0 0"}, ["unexpected character"]),
    ("/api/solve", {"position": CGP, "rack": "123"}, ["rack"]),
    ("/api/solve", {"position": GAME}, ['give "turn": N']),
    ("/api/solve", {"position": GAME, "turn": 99}, ["no turn 99"]),
    ("/api/solve", {"position": CGP, "colour": "red"}, ["unknown key 'colour'"]),
    ("/api/score", {"position": CGP}, ["no 'move'"]),
    ("/api/score", {"position": CGP, "move": "ZZ9 KOT"}, ["ZZ9"]),
    ("/api/position", {"position": "{"}, ["JSON"]),
    ("/api/position", {"position": GAME, "turn": "x"}, ["give a turn number"]),
    ("/api/check-word", {"words": "kot"}, ["'words' must be a list of strings"]),
    ("/api/solve", {"position": CGP.split(" var ")[0] + " var foo;"}, ["unknown variant 'foo'", "literki"]),
    ("/api/solve", {"position": CGP, "all": True}, ["/api/moves"]),  # answers are bounded: long lists are paged
    ("/api/solve", {"position": CGP, "top": 201}, ["at most 200", "/api/moves"]),
    ("/api/position", {"position": CGP.split(" var ")[0] + " var foo;"}, ["unknown variant 'foo'"]),
    ("/api/image", {"position": CGP, "format": {}}, ["'format' must be 'svg' or 'png', not {}"]),  # (was a 500)
])  # fmt: skip
def test_bad_input_is_a_400_with_the_commands_message(client, path, body, words):
    response = client.post(path, json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    for word in words:
        assert word in error, error


def test_a_body_that_is_no_json_object_is_a_400(client):
    for data in (b"[1, 2]", b"{", b"\xff\xfe", b"NaN"):
        response = client.post("/api/solve", content=data, headers={"content-type": "application/json"})
        assert response.status_code == 400, (data, response.text)


def test_bodies_over_the_limits_are_413(client):
    big = {"position": CGP, "rack": "a" * MAX_GAME_BODY}
    assert client.post("/api/solve", json=big).status_code == 413
    assert client.post("/api/check-word", json={"words": ["a" * MAX_BODY]}).status_code == 413

    def chunks():  # no Content-Length: counted as it comes
        yield b'{"words": ["'
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"a" * 65536
        yield b'"]}'

    assert client.post("/api/check-word", content=chunks()).status_code == 413


def test_a_foreign_host_header_is_refused(flowing_lexicon):
    """DNS rebinding: a page that names this server by its own domain gets nothing."""
    with TestClient(create_app(flowing_lexicon.path), base_url="http://evil.example:8765") as foreign:
        response = foreign.post("/api/check-word", json={"words": ["kot"]})
    assert response.status_code == 400
    with TestClient(create_app(flowing_lexicon.path), base_url="http://localhost:8765") as local:
        assert local.post("/api/check-word", json={"words": ["kot"]}).status_code == 200


def test_only_post_and_no_path_on_disk(client):
    assert client.get("/api/solve").status_code == 405
    assert client.post("/api/solve", json={"position": str(EXAMPLES / "game.cgp")}).status_code == 400
    assert client.get("/etc/passwd").status_code == 404


def test_a_server_without_a_lexicon_says_so_in_one_line(tmp_path):
    with TestClient(create_app(tmp_path / "none.lexicon"), base_url="http://127.0.0.1") as lost:
        response = lost.post("/api/check-word", json={"words": ["kot"]})
    assert response.status_code == 503
    assert response.json()["error"].startswith("the server cannot answer: ")


def test_the_page_and_its_files_are_served_from_the_package(client):
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    for name in ("board.js", "jobs.js", "game.js", "out.js", "board.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../api.py").status_code == 404
    setup = client.get("/api/setup").json()
    assert setup["variant"]["rows"] == 15 and setup["variant"]["columns_letters"] == "abcdefghijklmno"
    assert setup["variant"]["tiles"]["ż"]["value"] == 5 and setup["position"] is None
    assert client.get("/api/texts/en").json()["undo"] == "Undo"
    assert client.get("/api/texts/pl").json()["undo"] == "Cofnij"
    assert client.get("/api/texts/de").status_code == 400


def test_both_languages_have_every_text_of_the_page():
    from literaki_cli.web.api import board_texts

    assert set(board_texts("pl")) == set(board_texts("en"))


def test_literaki_serve_starts_prints_its_address_and_answers(flowing_lexicon, tmp_path):
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "literaki_cli", "serve", str(EXAMPLES / "game.cgp"), "--no-open",
                             "--port", str(port), "--lexicon", str(flowing_lexicon.path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert line == f"literaki: the board is at http://127.0.0.1:{port}/ (Ctrl-C stops the server)\n"
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/setup", timeout=5) as answer:
                    setup = json.loads(answer.read())
                break
            except OSError:
                assert time.monotonic() < deadline, proc.stderr.read()
                time.sleep(0.2)
        assert setup["position"]["racks"][0] == "KOTAŁW?"
        busy = subprocess.run([sys.executable, "-m", "literaki_cli", "serve", "--no-open", "--port", str(port),
                               "--lexicon", str(flowing_lexicon.path)], capture_output=True, text=True,
                              timeout=60)  # fmt: skip
        assert busy.returncode == 2 and busy.stderr.startswith(f"literaki: error: cannot listen on 127.0.0.1:{port}")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_refuses_a_bad_language_and_a_turn_without_a_record(capsys):
    code, out, err = run_cli(capsys, "serve", "--lang", "de", "--no-open")
    assert code == 2 and "--lang 'de': choose one of pl, en" in err
    code, out, err = run_cli(capsys, "serve", "--turn", "3", "--no-open")
    assert code == 2 and "--turn: only with a game record" in err


def test_serve_steps_through_a_game_and_ctrl_c_ends_its_jobs_too(flowing_lexicon):
    import signal
    import subprocess
    import sys
    import time

    import httpx2

    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "literaki_cli", "serve", str(EXAMPLES / "simulated-game.gcg"),
                             "--turn", "12", "--no-open", "--port", str(port), "--lexicon", str(flowing_lexicon.path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout.readline().startswith("literaki: the board is at")
        with httpx2.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            setup = _when_up(http, "/api/setup")
            assert setup["game"]["turn"] == 12 and setup["game"]["gcg"] == GAME
            assert setup["game"]["name"] == "simulated-game.gcg" and setup["position"]["racks"][0] == "MŻĄDWJE"
            started = http.post("/api/jobs", json={"kind": "sim", "position": CGP, "iterations": 100_000})
            assert started.status_code == 202
            deadline = time.monotonic() + 60
            while http.get(f"/api/jobs/{started.json()['id']}").json()["state"] != "running":
                assert time.monotonic() < deadline
                time.sleep(0.1)
        children = _children(proc.pid)
        assert children, "the job has a process of its own"
        proc.send_signal(signal.SIGINT)  # Ctrl-C
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in children):
            assert time.monotonic() < deadline, "a job process outlived the server"
            time.sleep(0.1)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _when_up(http, path: str) -> dict:
    import time

    deadline = time.monotonic() + 30
    while True:
        try:
            return http.get(path).json()
        except Exception:  # noqa: BLE001 - not listening yet
            assert time.monotonic() < deadline
            time.sleep(0.2)


def _children(pid: int) -> list[int]:
    from pathlib import Path

    return [int(child) for task in Path(f"/proc/{pid}/task").iterdir() for child in
            (task / "children").read_text().split()]  # fmt: skip


def _alive(pid: int) -> bool:
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# --------------------------------------------------------------------------- the move list (issue 42)


def every_move(capsys, flowing_lexicon, rack: str) -> list[dict]:
    """``solve --json`` for every move of examples/game.cgp with ``rack``: the oracle's list."""
    record = cli_json(capsys, "solve", str(EXAMPLES / "game.cgp"), "--rack", rack, "--top", "1000000", "--json",
                      "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    assert record["count"] == len(record["moves"])
    return record["moves"]


def pages(client, body: dict, limit: int = 200) -> tuple[int, list[dict]]:
    """Every row of a query, page after page (never more than ``limit`` at once)."""
    rows, offset = [], 0
    while True:
        response = client.post("/api/moves", json={**body, "offset": offset, "limit": limit})
        assert response.status_code == 200, response.text
        answer = response.json()
        assert len(answer["rows"]) <= limit and answer["offset"] == offset
        rows += answer["rows"]
        offset += limit
        if offset >= answer["total"]:
            return answer["total"], rows


def placement(move: dict) -> tuple:
    """The test's own notion of one placement: where the move goes and what it lays, a blank's
    letter left out."""
    return move["coord"], tuple((t["row"], t["col"], "?" if t["blank"] else t["letter"]) for t in move["placed"])


def shown(moves) -> list[tuple]:
    return [(m["coord"], m["word"], m["score"]) for m in moves]


@pytest.mark.parametrize("rack", ["KOTAŁWI", "KOTAŁW?", "ŻWIKA??"])  # no blank: the solver's own top, paged
def test_the_move_list_folds_filters_sorts_and_pages_as_solve_json_does(client, flowing_lexicon, capsys, rack):
    import fnmatch

    moves = every_move(capsys, flowing_lexicon, rack)
    body = {"position": CGP, "rack": rack}
    total, rows = pages(client, {**body, "fold": False})
    assert total == len(moves) and shown(rows) == shown(moves)  # unfolded, by equity: solve's own order
    total, rows = pages(client, body)  # folded: one row per placement, the best of its blank letters
    firsts, counts = {}, {}
    for m in moves:
        firsts.setdefault(placement(m), m)
        counts[placement(m)] = counts.get(placement(m), 0) + 1
    assert total == len(firsts) <= len(moves) and (total < len(moves)) == ("?" in rack)
    assert shown(rows) == shown(firsts.values())
    assert [r["variants"] for r in rows] == [counts[placement(r)] for r in rows]
    folded = next((r for r in rows if r["variants"] > 1), rows[0])
    total, group = pages(client, {**body, "fold": False, "group": folded["group"]})
    assert shown(group) == shown(m for m in moves if placement(m) == placement(folded))
    for query, keep in [
        ({"pattern": "ka"}, lambda m: "ka" in m["word"].lower()),
        ({"pattern": "*KA"}, lambda m: fnmatch.fnmatchcase(m["word"].lower(), "*ka")),
        ({"pattern": "?o*"}, lambda m: fnmatch.fnmatchcase(m["word"].lower(), "?o*")),
        ({"square": "k7"}, lambda m: any((t["row"], t["col"]) == (6, 10) for t in m["placed"])),
        ({"length": 5}, lambda m: len(m["word"]) == 5),
        ({"tiles": 2}, lambda m: m["tiles"] == 2),
        ({"bingos": True}, lambda m: m["bingo"]),
    ]:
        total, rows = pages(client, {**body, **query, "fold": False})
        assert shown(rows) == shown(m for m in moves if keep(m)), query
    for sort, key in (("score", "score"), ("leave", "leave_value")):
        total, rows = pages(client, {**body, "sort": sort, "fold": False})
        assert shown(rows) == shown(sorted(moves, key=lambda m: -m[key])), sort


@pytest.mark.parametrize("query, words", [
    ({"limit": 201}, ["'limit' must be a whole number from 1 to 200"]),
    ({"offset": -1}, ["'offset'"]),
    ({"square": "z99"}, ["z99"]),
    ({"pattern": "k[a]"}, ["'pattern' must be letters"]),
    ({"sort": "colour"}, ["'sort' must be"]),
    ({"fold": "yes"}, ["'fold' must be true or false"]),
    ({"colour": "red"}, ["unknown key 'colour'"]),
])  # fmt: skip
def test_a_bad_move_list_query_is_a_400(client, query, words):
    response = client.post("/api/moves", json={"position": CGP, **query})
    assert response.status_code == 400, response.text
    for word in words:
        assert word in response.json()["error"]


E15 = "/".join(["15"] * 15)


@pytest.mark.parametrize("path, body, polish, english", [
    ("/api/position", {"position": CGP.replace("KOTAŁW?", "ŹŹŹ")},
     "3 × Ź na planszy i stojakach, a w zestawie jest ich 1", "3 x Ź on the board and racks, the set has 1"),
    ("/api/moves", {"position": E15 + " KOTKOTKOT/ 0/0 0"}, "Stojak 1 ma 9 płytek", "Rack 1 holds 9 tiles"),
    ("/api/position", {"position": "15/15/15/15/15/15/15/7ÓSMY4/15/15/KOT12/15/15/15/15 KOT/ 0/0 0"},
     "Płytki niepołączone z płytką na polu startowym h8: a11, b11, c11", "start square h8: a11, b11, c11"),
    ("/api/position", {"position": "15/15/15/15/15/15/15/7QSMY4/15/15/15/15/15/15/15 KOT/ 0/0 0"},
     "„Q” to nie litera polskiego alfabetu", "'Q' is not a letter"),
    ("/api/position", {"position": E15 + " KOT/ 0/0 0 var foo;"}, "Nieznana gra 'foo'", "Unknown game 'foo'"),
    ("/api/position", {"position": "15/15 ABC/ 0/0 0"}, "Nieoczekiwany znak '1'", "Unexpected character '1'"),
    ("/api/moves", {"position": E15 + " / 0/0 0"}, "Wpisz stojak.", "Type the rack."),
    ("/api/position", {"position": "x" * (MAX_GAME_BODY + 10)}, "Za duże zapytanie", "The request is too large"),
    ("/api/moves", {"position": CGP, "limit": 500}, "„limit”: potrzebna liczba całkowita od 1 do 200, a jest '500'",
     "'limit': a whole number from 1 to 200 is needed"),  # an oversized page
    ("/api/moves", {"position": CGP, "fold": "tak"}, "„fold”: potrzebne true albo false", "'fold': true or false"),
    ("/api/moves", {"position": CGP, "pattern": "k[o]t"}, "Wzór to litery", "A pattern is letters"),
    ("/api/moves", {"position": CGP, "sort": "kolor"}, "„sort”: jedno z 'equity', 'score', 'leave', a jest 'kolor'",
     "'sort': one of"),
    ("/api/moves", {"position": CGP, "colour": "red"}, "Nieznany klucz 'colour'", "Unknown key 'colour'"),
    ("/api/position", {"position": "\n".join(["." * 15] * 16)}, "Plansza ma najwyżej 15 wierszy", "at most 15 rows"),
    ("/api/position", {"position": E15.replace("15", "15/15", 1) + " KOT/ 0/0 0"},
     "Wierszy planszy: 16, a plansza ma ich 15.", "16 board rows, the board has 15"),
    ("/api/position", {"position": E15 + " KOT/ a/0 0"}, "'a' to nie liczba całkowita", "'a' is not a whole number"),
    ("/api/position", {"position": '{"x": 1}'}, "To nie pozycja w JSON", "Not a JSON position"),
    ("/api/solve", {"position": CGP, "top": 500}, "Najwyżej 200 ruchów naraz", "At most 200 moves at once"),
    ("/api/jobs", {"kind": "endgame", "position": (EXAMPLES / "endgame.cgp").read_text(encoding="utf-8"), "time": 500},
     "„time”: potrzebna liczba sekund do 120", "'time': seconds up to 120"),
    ("/api/jobs", {"kind": "endgame", "position": CGP}, "Końcówka potrzebuje pustego worka", "The endgame needs"),
    ("/api/jobs", {"kind": "peg", "position": CGP}, "Przedkońcówka potrzebuje 1 albo 2", "The pre-endgame needs"),
])  # fmt: skip
def test_the_page_hears_the_apis_messages_in_its_language(client, path, body, polish, english):
    """With the page's x-literaki-lang: its words, naming no option of the command line (the page
    has none); without it (a script): the command line's own message."""
    plain = client.post(path, json=body)
    assert plain.status_code in (400, 413)
    for lang, expected in (("pl", polish), ("en", english)):
        said = client.post(path, json=body, headers={"x-literaki-lang": lang})
        assert said.status_code == plain.status_code
        message = said.json()["error"]
        assert expected in message, message
        assert "--" not in message and "\n" not in message and message != plain.json()["error"]


@pytest.mark.parametrize("data, polish", [
    (b"", "x.gcg: plik jest pusty."),
    (b"hello world\n", "x.gcg, wiersz 1: to nie wiersz zapisu GCG"),
    (b"#player1 a A\n#player2 b B\n", "x.gcg: to nie zapis partii GCG (nie ma w nim ruchów)."),
    (b"\x00\x01binary", "x.gcg: to nie plik tekstowy zapisu GCG."),
    (b"#player1 a A\n#player2 b B\n>a: KOT\n", "x.gcg, wiersz 3: ruch zapisany niepełnie"),
])  # fmt: skip
def test_a_file_that_is_no_game_record_is_said_so_in_the_pages_language(client, data, polish):
    said = client.post("/api/game?name=x.gcg", content=data, headers={"x-literaki-lang": "pl"})
    assert said.status_code == 400 and polish in said.json()["error"], said.json()
    plain = client.post("/api/game?name=x.gcg", content=data)
    assert plain.json()["error"] != said.json()["error"]  # a script hears the command line


def test_a_message_of_no_pattern_names_no_command_line_option_on_the_page():
    """The page has no options: an English message the catalog does not know still loses its
    hints at them (a script hears them whole)."""
    from literaki_cli.web.messages import page_message

    said = "x.gcg:4: '>a: KOT': a move the rules do not allow (--lenient reads it); use --force to go on"
    assert page_message(said, None) == said
    for lang in ("pl", "en"):
        assert page_message(said, lang) == "x.gcg:4: '>a: KOT': a move the rules do not allow"


def bad_inputs() -> list[tuple[str, dict]]:
    """Every bad request of the API's tests and of the jobs' (their parametrized cases)."""
    from tests import test_web_jobs

    cases = []
    for test, path in ((test_bad_input_is_a_400_with_the_commands_message, None),
                       (test_web_jobs.test_a_bad_job_is_a_400_before_it_starts, "/api/jobs")):  # fmt: skip
        for mark in test.pytestmark:
            if mark.name == "parametrize":
                cases += [(path or case[0], case[0 if path else 1]) for case in mark.args[1]]
    return cases


def test_every_bad_request_of_the_tests_is_answered_in_the_pages_language(client):
    """Each bad request the API's tests make (the command line's message there) comes in the
    page's words when the page asks: never the command line's, never an option's name."""
    cases = bad_inputs()
    assert len(cases) >= 25
    for path, body in cases:
        plain = client.post(path, json=body).json()["error"]
        for lang in ("pl", "en"):
            said = client.post(path, json=body, headers={"x-literaki-lang": lang}).json()["error"]
            assert (said != plain or lang == "en") and "--" not in said and "\n" not in said, (path, body, lang, said)
