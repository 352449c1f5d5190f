"""The board's jobs (issue 29, docs/serve.md "Jobs"): a simulation, an endgame and a game review
run in job processes answer exactly what ``solve --sim --json``, ``solve --endgame --json`` and
``analyze --json`` print; the bounds (one job a page, a few in all, the time caps, a page gone
away) and cancelling; and the other endpoints that take a game or give one out (/api/game,
/api/image, /api/record)."""

from __future__ import annotations

import json
import random
import re
import time

import pytest

pytest.importorskip("httpx2", reason="the web API's tests need httpx2 (the dev extra)")

from starlette.testclient import TestClient  # noqa: E402

from literaki_cli.web import jobs  # noqa: E402
from literaki_cli.web.api import create_app  # noqa: E402
from tests.conftest import ROOT, run_cli  # noqa: E402

EXAMPLES = ROOT / "examples"
GAME = (EXAMPLES / "simulated-game.gcg").read_text(encoding="utf-8")
CGP = (EXAMPLES / "game.cgp").read_text(encoding="utf-8").strip()
ENDGAME = (EXAMPLES / "endgame.cgp").read_text(encoding="utf-8").strip()


@pytest.fixture(scope="module")
def client(flowing_lexicon):
    with TestClient(create_app(flowing_lexicon.path), base_url="http://127.0.0.1:8765") as test_client:
        yield test_client


def as_page(name: str) -> dict:
    return {"x-literaki-client": name}


def run_job(client, body: dict, page: str = "tests", limit: float = 120) -> dict:
    """Start a job and follow it to its end, as the page does: its last view."""
    started = client.post("/api/jobs", json=body, headers=as_page(page))
    assert started.status_code == 202, started.text
    return follow(client, started.json()["id"], limit)


def follow(client, job_id: str, limit: float = 120) -> dict:
    deadline = time.monotonic() + limit
    while True:
        view = client.get(f"/api/jobs/{job_id}").json()
        if view["state"] not in ("starting", "running"):
            return view
        assert time.monotonic() < deadline, f"the job did not end: {view}"
        time.sleep(0.1)


def cli_json(capsys, *args) -> dict:
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return json.loads(out)


def without_seconds(record):
    if isinstance(record, dict):
        return {k: without_seconds(v) for k, v in record.items() if k not in ("seconds", "nodes")}
    if isinstance(record, list):
        return [without_seconds(v) for v in record]
    return record


def test_a_sim_job_answers_what_solve_sim_json_prints(client, flowing_lexicon, capsys):
    view = run_job(client, {"kind": "sim", "position": CGP, "iterations": 64, "candidates": 4, "seed": 7})
    assert view["state"] == "done" and view["done"] == view["total"] == 64, view
    expected = cli_json(capsys, "solve", str(EXAMPLES / "game.cgp"), "--sim", "--iterations", "64", "--candidates",
                        "4", "--seed", "7", "--workers", "1", "--json", "--lexicon", str(flowing_lexicon.path))
    assert without_seconds(view["answer"]) == without_seconds(expected)


def test_an_endgame_job_answers_what_solve_endgame_json_prints(client, flowing_lexicon, capsys):
    view = run_job(client, {"kind": "endgame", "position": ENDGAME, "time": 60})
    assert view["state"] == "done", view
    expected = cli_json(capsys, "solve", str(EXAMPLES / "endgame.cgp"), "--endgame", "--threads", "1", "--time", "60",
                        "--json", "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    assert view["answer"]["endgame"]["exact"] and expected["endgame"]["exact"]
    assert without_seconds(view["answer"]) == without_seconds(expected)


def test_a_pre_endgame_job_answers_what_solve_peg_json_prints(client, flowing_lexicon, capsys):
    peg = (EXAMPLES / "peg.cgp").read_text(encoding="utf-8").strip()
    view = run_job(client, {"kind": "peg", "position": peg, "candidates": 4})
    assert view["state"] == "done" and view["done"] == view["total"] == 5, view  # the 4 best and the pass, judged
    expected = cli_json(capsys, "solve", str(EXAMPLES / "peg.cgp"), "--peg", "--candidates", "4", "--threads", "1",
                        "--json", "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    assert view["answer"]["peg"]["candidates"] and not view["answer"]["peg"]["interrupted"]
    assert without_seconds(view["answer"]) == without_seconds(expected)
    bad = client.post("/api/jobs", json={"kind": "peg", "position": CGP})
    assert bad.status_code == 400 and "bag" in bad.json()["error"]


def test_a_review_job_answers_what_analyze_json_prints(client, flowing_lexicon, capsys):
    view = run_job(client, {"kind": "analyze", "game": GAME, "endgame_time": 0})
    assert view["state"] == "done" and view["done"] == view["total"] == 30, view
    expected = cli_json(capsys, "analyze", str(EXAMPLES / "simulated-game.gcg"), "--endgame-time", "0", "--json",
                        "--lexicon", str(flowing_lexicon.path))  # fmt: skip
    assert view["answer"] == expected


def test_a_cancelled_sim_keeps_its_finished_rounds(client):
    started = client.post("/api/jobs", json={"kind": "sim", "position": CGP, "iterations": 100_000},
                          headers=as_page("canceller"))  # fmt: skip
    job_id = started.json()["id"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/jobs/{job_id}").json()["done"] < 32:  # a round finished
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert client.post(f"/api/jobs/{job_id}/cancel").status_code == 200
    view = follow(client, job_id)
    assert view["state"] == "cancelled" and view["stopped_by"] == "cancelled", view
    sim = view["answer"]["sim"]
    assert sim["interrupted"] and 32 <= sim["iterations"] < 100_000
    assert all(c["iterations"] == sim["iterations"] for c in sim["candidates"])
    # the page's next job runs at once: the process is free again
    assert run_job(client, {"kind": "sim", "position": CGP, "iterations": 32}, page="canceller")["state"] == "done"


def test_one_job_a_page_and_a_few_in_all(client):
    long = {"kind": "sim", "position": CGP, "iterations": 100_000}
    first = client.post("/api/jobs", json=long, headers=as_page("one"))
    assert first.status_code == 202
    again = client.post("/api/jobs", json=long, headers=as_page("one"))
    assert again.status_code == 429 and "one at a time" in again.json()["error"]
    second = client.post("/api/jobs", json=long, headers=as_page("two"))
    assert second.status_code == 202
    third = client.post("/api/jobs", json=long, headers=as_page("three"))
    assert third.status_code == 429 and f"at most {jobs.MAX_JOBS}" in third.json()["error"]
    polish = client.post("/api/jobs", json=long, headers=as_page("three") | {"x-literaki-lang": "pl"})
    assert polish.status_code == 429 and f"najwyżej {jobs.MAX_JOBS} naraz" in polish.json()["error"]
    mine = client.post("/api/jobs", json=long, headers=as_page("one") | {"x-literaki-lang": "pl"})
    assert mine.status_code == 429 and "Ta strona już liczy (sim)" in mine.json()["error"]
    assert client.post("/api/solve", json={"position": CGP, "top": 1}).status_code == 200  # edits still answered
    for started in (first, second):
        client.delete(f"/api/jobs/{started.json()['id']}")
        assert follow(client, started.json()["id"])["state"] == "cancelled"
    assert client.post("/api/jobs", json=long | {"iterations": 32}, headers=as_page("three")).status_code == 202


def test_a_job_stops_at_its_time_cap(client, monkeypatch):
    monkeypatch.setitem(jobs.TIME_CAPS, "sim", 2.0)
    view = run_job(client, {"kind": "sim", "position": CGP, "iterations": 100_000}, page="capped")
    assert view["state"] == "done" and view["stopped_by"] == "time cap", view
    assert view["answer"]["sim"]["interrupted"] and view["answer"]["sim"]["iterations"] < 100_000


def test_a_job_whose_page_went_away_is_cancelled(flowing_lexicon):
    board = jobs.JobBoard(flowing_lexicon.path, heartbeat=1.5)
    try:
        job = board.submit("page", {"kind": "sim", "position": CGP, "iterations": 100_000})
        deadline = time.monotonic() + 60
        while job.running:  # nobody asks about it
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert job.state == "cancelled" and job.stopped_by == "page gone"
    finally:
        board.close()


@pytest.mark.parametrize("body, message", [
    ({"kind": "nap"}, "'kind' must be"),
    ({"kind": "sim", "position": "xyz"}, "not a letter"),
    ({"kind": "sim", "position": CGP, "iterations": 0}, "'iterations' must be a whole number from 1"),
    ({"kind": "sim", "position": CGP, "iterations": "many"}, "'iterations' must be"),
    ({"kind": "sim", "position": CGP, "stop": 50}, "--stop 50"),
    ({"kind": "sim", "position": CGP, "depth": 3}, "depth"),
    ({"kind": "endgame", "position": CGP}, "needs an empty bag"),
    ({"kind": "endgame", "position": ENDGAME, "time": -1}, "'time' must be seconds"),
    ({"kind": "endgame", "position": ENDGAME, "time": 10_000}, "'time' must be seconds"),
    ({"kind": "endgame", "position": ENDGAME, "time": 130}, "up to 120,"),  # docs/serve.md: at most 120
    ({"kind": "analyze", "game": ""}, "'game' is empty"),
    ({"kind": "analyze", "game": "nonsense line\n"}, "game:1"),
    ({"kind": "analyze", "game": GAME, "endgame_time": True}, "'endgame_time' must be"),
])  # fmt: skip
def test_a_bad_job_is_a_400_before_it_starts(client, body, message):
    response = client.post("/api/jobs", json=body)
    assert response.status_code == 400, response.text
    assert message in response.json()["error"]


def test_an_unknown_job_is_a_404(client):
    for response in (client.get("/api/jobs/nope"), client.delete("/api/jobs/nope"),
                     client.post("/api/jobs/nope/cancel")):  # fmt: skip
        assert response.status_code == 404 and "no job 'nope'" in response.json()["error"]


def test_a_game_opened_from_its_bytes(client):
    opened = client.post("/api/game?name=../../etc/simulated-game.gcg", content=GAME.encode("utf-8"))
    assert opened.status_code == 200, opened.text
    answer = opened.json()
    assert answer["name"] == "simulated-game.gcg" and answer["gcg"] == GAME and answer["game"]["turns"] == 30
    end = client.post("/api/position", json={"position": answer["gcg"], "turn": 31})  # the end: shown, as show does
    assert end.status_code == 200 and end.json()["game"]["over"]
    polish = "#player1 a Ala\n#player2 b Ola\n>a: ŻÓŁWIE? 8D ŻÓŁW +40 40\n".encode("cp1250")
    read = client.post("/api/game?name=old.gcg", content=polish).json()
    assert read["encoding"] in ("cp1250", "windows-1250") and "ŻÓŁW" in read["gcg"]
    for data, message in ((b"", "the file is empty"), (b"hello\nworld\n", "old.gcg:1")):
        response = client.post("/api/game?name=old.gcg", content=data)
        assert response.status_code == 400 and message in response.json()["error"], response.text


def test_the_board_drawn_as_show_image_draws_it(client, tmp_path, flowing_lexicon, capsys):
    svg = client.post("/api/image", json={"position": CGP, "format": "svg"})
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    assert b"<svg" in svg.content
    png = client.post("/api/image", json={"position": GAME, "turn": 12, "format": "png"})
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    bad = client.post("/api/image", json={"position": CGP, "format": "gif"})
    assert bad.status_code == 400 and "'format'" in bad.json()["error"]
    # with the players under the board: scores, the racks known, who is to move (the page's export)
    for lang, lines in (("pl", ["Gracz 1: 20", "Gracz 2: 0 — Stojak: KOTAŁW? — na ruchu"]),
                        ("en", ["Player 1: 20", "Player 2: 0 — Rack: KOTAŁW? — to move"])):  # fmt: skip
        captioned = client.post("/api/image", json={"position": CGP, "format": "svg", "on_turn": 2, "lang": lang})
        assert captioned.status_code == 200
        text = captioned.content.decode("utf-8")
        for line in lines:
            assert line in text, (line, [t for t in text.split("<text")[1:4]])
    for body, word in (({"on_turn": 3}, "'on_turn'"), ({"on_turn": 1, "lang": "de"}, "'lang'")):
        bad = client.post("/api/image", json={"position": CGP, "format": "png", **body})
        assert bad.status_code == 400 and word in bad.json()["error"]


def test_the_moves_played_on_the_board_as_a_game_record(client, flowing_lexicon, tmp_path, capsys):
    turns = [{"player": 1, "rack": "KOTAMIE", "move": "8H KOT"}, {"player": 2, "rack": "ANOTERZ", "move": "I7 NO"},
             {"player": 1, "rack": "AMIEZZZ", "move": "-ZZZ"}]  # fmt: skip
    written = client.post("/api/record", json={"players": ["Ala Nowak", "Ola"], "turns": turns})
    assert written.status_code == 200, written.text
    gcg = written.json()["gcg"]
    for line in (">Ala_Nowak: KOTAMIE 8H KOT +", ">Ola: ANOTERZ I7 N. +", ">Ala_Nowak: AMIEZZZ -ZZZ +0"):
        assert line in gcg
    path = tmp_path / "board.gcg"
    path.write_text(gcg, encoding="utf-8")
    review = cli_json(capsys, "analyze", str(path), "--endgame-time", "0", "--json", "--lexicon",
                      str(flowing_lexicon.path))  # fmt: skip
    written_scores = [int(line.split()[-2]) for line in gcg.splitlines() if line.startswith(">")]
    assert [t["played"]["score"] for t in review["turns"]] == written_scores
    for bad, message in (
        ({"turns": [{"player": 1, "rack": "KOTAMIE", "move": "8A KOT"}]}, "turn 1: 8A KOT"),
        ({"turns": [{"player": 3, "rack": "KOT", "move": "8H KOT"}]}, "'player' must be 1 or 2"),
        ({"turns": [{"player": 1, "rack": "ABC", "move": "8H KOT"}]}, "turn 1"),
        ({"turns": []}, "'turns' must be a list"),
        ({"players": ["x"], "turns": turns}, "'players' must be two names"),
    ):
        response = client.post("/api/record", json=bad)
        assert response.status_code == 400 and message in response.json()["error"], (bad, response.text)


def test_a_reviews_notes_come_in_the_words_of_the_page_that_asks(client):
    """The notes of a review (the game's and each turn's) are messages too: a page hears them in
    its language, a script in the command line's words."""
    game = GAME.replace(">trudny: CMICĘLD H7 C.LĘ +10 10\n",
                        ">trudny: CMICĘLD H7 C.LĘ +10 11\n#note dobry ruch\n")  # a total that does not follow
    started = client.post("/api/jobs", json={"kind": "analyze", "game": game, "endgame_time": 0},
                          headers={**as_page("notes"), "x-literaki-lang": "pl"})  # fmt: skip
    assert started.status_code == 202, started.text
    follow(client, started.json()["id"])
    view = {lang: client.get(f"/api/jobs/{started.json()['id']}", headers=headers).json()["answer"]
            for lang, headers in (("pl", {"x-literaki-lang": "pl"}), ("en", {"x-literaki-lang": "en"}), ("cli", {}))}
    turn = {lang: answer["turns"][1]["note"] for lang, answer in view.items()}
    # (the tests' small word list lacks CELĘ: a note of its own, joined with the others)
    assert turn["cli"] == "note: dobry ruch; CELĘ is not in the word list; the total 11 does not follow from 0 +10"
    assert turn["pl"] == "Uwaga: dobry ruch; słowa CELĘ nie ma w słowniku; wynik 11 nie wynika z 0 +10"
    assert turn["en"] == "Note: dobry ruch; CELĘ is not in the word list; the total 11 does not follow from 0 +10"
    assert view["cli"]["notes"][0].startswith("the record names the word list sjp-20260201")
    assert view["pl"]["notes"][0].startswith("Zapis partii podaje słownik sjp-20260201")
    assert view["pl"]["turns"][1]["played"] == view["cli"]["turns"][1]["played"]  # the rest as it is


#: Words of the command line's English that a Polish message has no place for (outside quotes,
#: where a user's own text stands): an oracle apart from the catalog it checks.
ENGLISH = re.compile(r"\b(the|is|not|must|has|have|board|rack|move|tiles|line|column|of|and|or|with|needs|give|"
                     r"expected|unknown|square|word|row|between|number|empty|text|list|at|most|least)\b")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|„[^”]*”|\([^)]*\)")


def mutated(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(chars) + 1)
        if rng.random() < 0.4 and chars:
            del chars[min(at, len(chars) - 1)]
        else:
            chars.insert(at, rng.choice("KOTĄŹ?.#>:+-/ 0123456789\n;\"{}[]abcxyzQ\t"))
    return "".join(chars)


def test_bad_input_of_every_kind_is_refused_in_polish_on_the_polish_page(client):
    """Examples broken at random (a character dropped or added), and valid requests with one key
    given a wrong value: every refusal the Polish page hears is a Polish sentence (no English
    word outside the quotes of the user's own text), never a traceback."""
    rng = random.Random(7)
    examples = [(p.suffix, p.read_text(encoding="utf-8")) for p in sorted(EXAMPLES.iterdir())
                if p.suffix in (".cgp", ".gcg", ".txt")]  # fmt: skip
    requests = []
    for _ in range(500):  # broken positions and game records
        suffix, text = rng.choice(examples)
        broken = mutated(text, rng)
        if suffix == ".gcg" and rng.random() < 0.5:
            requests.append(("/api/game?name=x.gcg", {"content": broken.encode()}))
        else:
            path = rng.choice(["/api/position", "/api/moves", "/api/score"])
            body = {"position": broken, **({"turn": rng.choice([1, 5, 99, "last", "x"])} if suffix == ".gcg" else {})}
            body |= {"/api/moves": {"rack": rng.choice(["KOT", "KOT?", "ŹŹ", ""])},
                     "/api/score": {"move": rng.choice(["8H KOT", "Z1 K", "8H", "-"])}}.get(path, {})  # fmt: skip
            requests.append((path, {"json": body}))
    valid = [("/api/solve", {"position": CGP, "top": 5}),
             ("/api/moves", {"position": CGP, "pattern": "k*", "square": "h8", "length": 3, "tiles": 2, "bingos": False,
                             "sort": "score", "fold": True, "offset": 0, "limit": 20}),
             ("/api/score", {"position": CGP, "move": "8H KOT"}), ("/api/position", {"position": GAME, "turn": 3}),
             ("/api/check-word", {"words": ["kot"]}), ("/api/image", {"position": CGP, "format": "png", "on_turn": 1}),
             ("/api/record", {"players": ["A", "B"], "turns": [{"player": 1, "rack": "KOTAEIS", "move": "8H KOT"}]}),
             ("/api/jobs", {"kind": "sim", "position": CGP, "iterations": 10, "candidates": 3, "plies": 2}),
             ("/api/jobs", {"kind": "endgame", "position": ENDGAME, "time": 1}),
             ("/api/jobs", {"kind": "analyze", "game": GAME, "endgame_time": 0, "top": 3})]  # fmt: skip
    junk = ["", "x", "KOT", -1, 0, 10**9, 2.5, True, None, [], {}, ["a"], {"a": 1}, "ŹŹŹ", "Z99", "k[o]", 1e308]
    for _ in range(400):  # one key of a valid request given a wrong value, or left out
        path, body = rng.choice(valid)
        body = dict(body)
        key = rng.choice([*body, "bogus"])
        if rng.random() < 0.15:
            body.pop(key, None)
        else:
            body[key] = rng.choice(junk)
        requests.append((path, {"json": body}))
    refused = 0
    for number, (path, request) in enumerate(requests):
        headers = {"x-literaki-lang": "pl", "x-literaki-client": f"sweep-{number}"}
        answer = client.post(path, headers=headers, **request)
        if answer.status_code == 202:  # a job that may run: not this test's business
            client.post(f"/api/jobs/{answer.json()['id']}/cancel", headers=headers)
            continue
        assert answer.status_code in (200, 400, 413, 422, 429), (path, request, answer.text)  # (429: jobs busy)
        if answer.status_code in (400, 413, 429):
            refused += 1
            said = answer.json()["error"]
            assert not ENGLISH.search(QUOTED.sub("", said)) and "\n" not in said, (path, request, said)
    assert refused > 600
