"""The JSON API of the analysis board (docs/serve.md): each endpoint takes the object a
``solve --batch`` / ``score --batch`` line takes and answers with the object the matching
command prints with ``--json``, through the very code of those lines
(:mod:`literaki_cli.analysis.batch`), so the board, scripts and the command line cannot
disagree.

Safety, as for any local server a browser can reach: requests whose ``Host`` is not one of
``allowed_hosts`` are refused (DNS rebinding: a page elsewhere cannot make the browser talk to
this server by a name of its own); a body over :data:`MAX_BODY` (:data:`MAX_GAME_BODY` for an
endpoint that takes a game record) is 413 before it is read whole; every input goes through
the command line's parsers, a bad one is 400 with the same one-line message; no request names
a path on the server's disk.  The engine's work runs in a worker thread, one request at a time
(the generator's tables are shared), so the event loop keeps answering.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from literaki_cli.errors import InputError, LiterakiError, joined, message_of, said

#: The largest request body (a position, a rack, a few words: a few kilobytes).
MAX_BODY = 1 << 20
#: The largest body of an endpoint that takes a game record (a GCG of notes and all).
MAX_GAME_BODY = 5 << 20
#: Host names a local server answers to (with any port).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
#: The most words one check-word request may ask about.
MAX_WORDS = 10_000


#: The page's own files (HTML, CSS, JavaScript): shipped in the package, no network needed.
STATIC = Path(__file__).resolve().parent / "static"
#: The page may load only its own files and talk only to its own server.
PAGE_HEADERS = {"content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'",
                "x-content-type-options": "nosniff"}  # fmt: skip
LANGUAGES = ("pl", "en")


@dataclass(frozen=True)
class BoardSetup:
    """What the page starts with: the variant's board, the language, a position (its JSON, as
    ``show --to json`` writes it) or none, and the game record it came from, if any."""

    variant: str = "literaki"
    lang: str = "pl"
    position: dict | None = None
    game: dict | None = None  # a game record to step through: {"name", "gcg" (its text), "turn"}

    def as_dict(self) -> dict:
        from literaki_cli.engine.variant import load_variant

        return {"variant": variant_layout(load_variant(self.variant)), "lang": self.lang, "position": self.position,
                "game": self.game}  # fmt: skip


def variant_layout(variant) -> dict:
    """The board as the page draws it: each square's fill and label, and each tile's face
    colour, value and count, from the same description the terminal and the images use
    (:mod:`literaki_cli.io.render`)."""
    from literaki_cli.engine.coords import COLUMN_LETTERS
    from literaki_cli.io.render import BLANK_TILE_FILL, TILE_TINT, square_look

    board = variant.board
    squares = [[square_look(board.kind_at(r, c), (r, c) == board.start).__dict__ for c in range(board.columns)]
               for r in range(board.rows)]  # fmt: skip
    tiles = {letter: {"value": tile.value, "count": tile.count, "colour": tile.colour,
                      "face": TILE_TINT.get(tile.colour, BLANK_TILE_FILL)}
             for letter, tile in variant.tiles.items()}  # fmt: skip
    return {"name": variant.name, "rows": board.rows, "columns": board.columns,
            "columns_letters": COLUMN_LETTERS[: board.columns], "start": list(board.start), "squares": squares,
            "tiles": tiles, "blanks": variant.blanks, "rack_size": variant.rack_size}  # fmt: skip


def board_texts(lang: str) -> dict:
    """The page's texts in ``lang`` (the ``[board]`` table of ``locales/<lang>.toml``)."""
    from literaki_cli.locales import locale_file

    return locale_file(lang)["board"]


class TooLarge(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(said("the request body is larger than {limit:,} bytes", limit=limit))


@dataclass
class Engine:
    """What the endpoints share: the lexicon (opened on the first request that needs it), the
    solver with its leave table, and the lock that lets one request at a time use them."""

    lexicon_path: Path | None = None
    leaves_path: Path | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)  # the interactive lane
    heavy_lock: threading.Lock = field(default_factory=threading.Lock)  # the heavy lane (every move of a blank rack)
    lists_lock: threading.Lock = field(default_factory=threading.Lock)  # the kept move lists
    _making: threading.Lock = field(default_factory=threading.Lock)  # the lexicon and the solver, made once
    _lexicon: Any = None
    _solver: Any = None
    _jobs: Any = None
    #: The last positions' whole move lists (``/api/moves`` pages through them): key -> answer.
    move_lists: OrderedDict = field(default_factory=OrderedDict)
    _jobs_lock: threading.Lock = field(default_factory=threading.Lock)

    def jobs(self):
        """The long work's processes (:mod:`literaki_cli.web.jobs`), set up by the first job."""
        from literaki_cli.web.jobs import JobBoard

        with self._jobs_lock:
            if self._jobs is None:
                self._jobs = JobBoard(self.lexicon_path, self.leaves_path)
        return self._jobs

    def close(self) -> None:
        if self._jobs is not None:
            self._jobs.close()

    def lexicon(self):
        from literaki_cli.engine.lexicon import Lexicon

        with self._making:
            if self._lexicon is None:
                self._lexicon = Lexicon.open(self.lexicon_path)
        return self._lexicon

    def solver(self):
        from literaki_cli.analysis.solve import PositionSolver

        lexicon = self.lexicon()
        with self._making:
            if self._solver is None:
                self._solver = PositionSolver(lexicon, self.leaves_path)
        return self._solver


def _answer_line(answerer, body: dict) -> JSONResponse:
    """A batch line's answer for ``body``, as the command's ``--json`` object: 200, or 400 with
    ``{"error": message}`` for input the command refuses, 422 for a move that is not legal
    (``score``: the answer still says why)."""
    from literaki_cli.analysis.batch import FAILED, INTERNAL, NEGATIVE

    answer = answerer(2, json.dumps(body, ensure_ascii=False).encode("utf-8"))  # (line 1 may start with a BOM)
    record = json.loads(answer.text)
    record.pop("line", None)
    if record.get("id") is None:
        record.pop("id", None)
    if answer.status == INTERNAL:
        return JSONResponse(record, status_code=500)
    if answer.status == FAILED:  # said as every refusal is: in the words of the page that asks
        raise InputError(answer.error)
    return JSONResponse(record, status_code=422 if answer.status == NEGATIVE else 200)


def create_app(lexicon: Path | None = None, leaves: Path | None = None,
               allowed_hosts: tuple[str, ...] = LOCAL_HOSTS,
               setup: BoardSetup | None = None) -> Starlette:  # fmt: skip
    """The board's ASGI application (the page at ``/``, its files under ``/static``, the API
    under ``/api``), for the lexicon ``lexicon`` (None: the default one, as the command line
    finds it), the leave values ``leaves`` and what the page starts with (``setup``)."""
    engine = Engine(lexicon, leaves)
    setup = setup or BoardSetup()

    async def solve(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_GAME_BODY)
        return await _locked(engine, _solve, engine, body)

    async def moves(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_GAME_BODY)
        return await run_in_threadpool(_moves, engine, body)  # it takes its lane's lock itself

    async def score(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_GAME_BODY)
        return await _locked(engine, _score, engine, body)

    async def position(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_GAME_BODY)
        return await _locked(engine, _position, body)

    async def check_word(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_BODY)
        return await _locked(engine, _check_words, engine, body)

    async def start_job(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_GAME_BODY)
        board = engine.jobs()
        job = await run_in_threadpool(board.submit, _client(request), body)
        return JSONResponse(_job_view(request, board.view(job.id)), status_code=202)

    async def job_state(request: Request) -> JSONResponse:
        return JSONResponse(_job_view(request, engine.jobs().view(request.path_params["job"])))

    async def cancel_job(request: Request) -> JSONResponse:
        board = engine.jobs()
        board.cancel(request.path_params["job"])
        return JSONResponse(_job_view(request, board.view(request.path_params["job"])))

    async def open_game(request: Request) -> JSONResponse:
        data = await _raw_body(request, MAX_GAME_BODY)
        return await run_in_threadpool(_open_game, data, request.query_params.get("name") or "game")

    async def image(request: Request) -> Response:
        body = await _json_body(request, MAX_GAME_BODY)
        return await _locked(engine, _image, body)

    async def record(request: Request) -> JSONResponse:
        body = await _json_body(request, MAX_BODY)
        return await _locked(engine, _record, engine, body)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        engine.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "board.html", headers=PAGE_HEADERS)

    async def board_setup(request: Request) -> JSONResponse:
        return JSONResponse(setup.as_dict())

    async def texts(request: Request) -> JSONResponse:
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            raise InputError(said("no language {lang!r}: choose one of {languages}", lang=lang,
                                  languages=", ".join(LANGUAGES)))  # fmt: skip
        return JSONResponse(board_texts(lang))

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [
        Route("/", page, methods=["GET"]),
        Route("/favicon.ico", no_icon, methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/setup", board_setup, methods=["GET"]),
        Route("/api/texts/{lang}", texts, methods=["GET"]),
        Route("/api/solve", solve, methods=["POST"]),
        Route("/api/moves", moves, methods=["POST"]),
        Route("/api/score", score, methods=["POST"]),
        Route("/api/position", position, methods=["POST"]),
        Route("/api/check-word", check_word, methods=["POST"]),
        Route("/api/game", open_game, methods=["POST"]),
        Route("/api/image", image, methods=["POST"]),
        Route("/api/record", record, methods=["POST"]),
        Route("/api/jobs", start_job, methods=["POST"]),
        Route("/api/jobs/{job}", job_state, methods=["GET"]),
        Route("/api/jobs/{job}", cancel_job, methods=["DELETE"]),
        Route("/api/jobs/{job}/cancel", cancel_job, methods=["POST"]),
    ]
    hosts = [h for host in allowed_hosts for h in (host, host.strip("[]"))]
    from literaki_cli.web.jobs import JobRefused, NoSuchJob

    app = Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
                    exception_handlers={TooLarge: _too_large, InputError: _bad_input, LiterakiError: _cannot_answer,
                                        JobRefused: _refused, NoSuchJob: _no_job},
                    lifespan=lifespan)  # fmt: skip
    return app


async def _locked(engine: Engine, work, *args) -> JSONResponse:
    """``work(*args)`` in a worker thread, one at a time."""

    def run():
        with engine.lock:
            return work(*args)

    return await run_in_threadpool(run)


async def _json_body(request: Request, limit: int) -> dict:
    """The request's JSON object, at most ``limit`` bytes (TooLarge past it, before the rest is
    read); InputError for anything that is not a JSON object."""
    from literaki_cli.inputs import loads_json

    body = loads_json(await _raw_body(request, limit), said("the request body"))
    if not isinstance(body, dict):
        raise InputError(said("the request body must be a JSON object"))
    return body


def _client(request: Request) -> str:
    """Who asks, for the one-job-a-client bound: the page's own id (each open page makes one),
    else the address the request comes from."""
    named = request.headers.get("x-literaki-client", "")[:80]
    return f"page {named}" if named else f"address {request.client.host if request.client else '?'}"


async def _raw_body(request: Request, limit: int) -> bytes:
    """The request's body, at most ``limit`` bytes (TooLarge past it, before the rest is read)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise TooLarge(limit)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise TooLarge(limit)
    return bytes(data)


def _page_language(request: Request) -> str | None:
    """The language of the page that asks (its ``x-literaki-lang``); None for a script."""
    lang = request.headers.get("x-literaki-lang")
    return lang if lang in LANGUAGES else None


def _said(request: Request, message: str) -> dict:
    """``{"error": message}`` in the words of the page that asks, else as the command line says it
    (:mod:`literaki_cli.web.messages`)."""
    from literaki_cli.web.messages import page_message

    return {"error": page_message(message, _page_language(request))}


def _job_view(request: Request, view: dict) -> dict:
    """A job's state in the words of the page that asks: the error it ended on, and the notes of
    its answer (a review's turns)."""
    from literaki_cli.web.messages import in_page_words

    return in_page_words(view, _page_language(request))


async def _refused(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse(_said(request, message_of(exc)), status_code=429)


async def _no_job(request: Request, exc: Exception) -> JSONResponse:
    from literaki_cli.web.jobs import KEEP_SECONDS

    message = said("no job {job!r} (a finished job is kept {minutes:g} minutes)", job=str(exc)[:40],
                   minutes=KEEP_SECONDS / 60)  # fmt: skip
    return JSONResponse(_said(request, message), status_code=404)


async def _too_large(request: Request, exc: TooLarge) -> JSONResponse:
    return JSONResponse(_said(request, message_of(exc)), status_code=413)


async def _bad_input(request: Request, exc: InputError) -> JSONResponse:
    return JSONResponse(_said(request, message_of(exc)), status_code=400)


async def _cannot_answer(request: Request, exc: LiterakiError) -> JSONResponse:
    """The server's own trouble (no lexicon, a damaged leave file): 503, said in one line."""
    message = said("the server cannot answer: {error}", error=message_of(exc))
    return JSONResponse(_said(request, message), status_code=503)


# --------------------------------------------------------------------------- the endpoints' work


def _solve(engine: Engine, body: dict) -> JSONResponse:
    """``POST /api/solve``: a ``solve --batch`` line's object (``position``, ``turn``, ``rack``,
    ``top``, ``all``, ``by``) -> what ``solve --json`` prints."""
    from literaki_cli.analysis.batch import PositionReader, SolveLines
    from literaki_cli.analysis.movelist import MAX_LIMIT
    from literaki_cli.analysis.solve import SolveRequest

    # an answer is bounded: a long list is paged through /api/moves (two blanks make some 10 MB)
    if body.get("all") is True:
        raise InputError(said("'all' is not answered here: page through every move with /api/moves (offset, limit "
                              "up to {most})", most=MAX_LIMIT))  # fmt: skip
    top = body.get("top")
    if isinstance(top, int) and not isinstance(top, bool) and top > MAX_LIMIT:
        raise InputError(said("'top' must be at most {most} here: page through every move with /api/moves",
                              most=MAX_LIMIT))  # fmt: skip
    return _answer_line(SolveLines(engine.solver(), SolveRequest(), PositionReader()), body)


#: How many positions' move lists ``/api/moves`` keeps (a page of the list is then a slice): some
#: 150 bytes a move, 7 MB for the largest (two blanks), as many as a busy board's heavy pages.
KEPT_MOVE_LISTS = 16


@dataclass
class KeptList:
    """A position's whole move list, kept for ``/api/moves`` to page through: the board's size
    (its squares' names), the list, the rest of ``solve --json``'s record, the rows of its last
    queries, and whether its pages take the heavy lane."""

    rows: int
    columns: int
    moves: Any  # movelist.MoveList
    record: dict
    heavy: bool
    listed: dict = field(default_factory=dict)


def _moves(engine: Engine, body: dict) -> JSONResponse:
    """``POST /api/moves``: a ``solve --batch`` line's position keys (``position``, ``turn``,
    ``rack``) and the list's (:mod:`literaki_cli.analysis.movelist`: ``pattern``, ``square``,
    ``length``, ``tiles``, ``bingos``, ``sort``, ``fold``, ``group``, ``offset``, ``limit``) ->
    ``solve --json``'s record for every move, its ``moves`` replaced by one page of ``rows``
    (and ``total``, ``offset``, ``limit``): never more than :data:`movelist.MAX_LIMIT` rows.

    The lanes: a list made in full for a rack with a blank (a second of work with two) takes the
    heavy lane; the rest (a page of a list kept, the top of a list without a blank or a filter,
    which the solver lists as it is) the interactive one, so an edit never waits behind it."""
    from literaki_cli.analysis.batch import PositionReader, _check_keys, _position_text, _text_field
    from literaki_cli.analysis.movelist import QUERY_KEYS, MoveList, placement_key, plain_first_page, read_query
    from literaki_cli.analysis.positionquery import checked_rack, parse_turn, seen_record, solve_record, solving_rack
    from literaki_cli.analysis.solve import SolveRequest

    _check_keys(body, ("position", "turn", "rack", *QUERY_KEYS))
    text, turn, rack = _position_text(body), parse_turn(body.get("turn"), '"turn"'), _text_field(body, "rack")
    key = (text, turn, rack)
    with engine.lists_lock:
        kept = engine.move_lists.get(key)
        if kept is not None:
            engine.move_lists.move_to_end(key)
    if kept is not None:
        query = read_query(body, kept.rows, kept.columns)
    else:
        reader = PositionReader()
        opened = reader.read(text, None, turn)
        position = opened.position
        given, rack_warnings = checked_rack(position, rack, reader.lenient, name=said("rack"))
        the_rack = solving_rack(position, given, how='give "rack"')
        warnings = opened.warnings + rack_warnings
        board = position.variant.board
        query = read_query(body, board.rows, board.columns)

        def record_of(result) -> dict:  # solve --json's record of the position (its moves apart)
            return solve_record(result, the_rack) | seen_record(opened, the_rack) | (
                {"warnings": warnings} if warnings else {})

        solver = engine.solver()
        if plain_first_page(query, the_rack):  # the solver's own top: no list to make
            with engine.lock:
                record = record_of(solver.solve(position, the_rack, SolveRequest(top=query.offset + query.limit)))
            moves = record.pop("moves")[query.offset :]
            return JSONResponse({**record, "total": record["count"], "offset": query.offset, "limit": query.limit,
                                 "rows": [{**m, "group": placement_key(m), "variants": 1} for m in moves]})  # fmt: skip
        heavy = "?" in the_rack
        with engine.heavy_lock if heavy else engine.lock:
            moves = MoveList(solver.rank(position, the_rack, SolveRequest(top=None)))
        record = record_of(moves.ranked.result)
        record.pop("moves")
        kept = KeptList(board.rows, board.columns, moves, record, heavy)
        with engine.lists_lock:
            engine.move_lists[key] = kept
            while len(engine.move_lists) > KEPT_MOVE_LISTS:
                engine.move_lists.popitem(last=False)
    # a page of a blank rack's list, too, takes the heavy lane: one heavy request runs at a time,
    # so that the interactive ones share the interpreter with one at most
    with engine.heavy_lock if kept.heavy else contextlib.nullcontext():
        return JSONResponse({**kept.record, **kept.moves.page(query, _listed_rows(engine, kept, query))})


def _listed_rows(engine: Engine, kept: KeptList, query) -> tuple:
    """The rows ``query`` lists of a kept list (its pages are slices of them), kept for the last
    two queries (a list, and a placement opened in it)."""
    from dataclasses import replace

    whole = replace(query, offset=0, limit=0)
    with engine.lists_lock:
        chosen = kept.listed.get(whole)
    if chosen is None:
        chosen = kept.moves.rows(query)
        with engine.lists_lock:
            while len(kept.listed) >= 2:
                kept.listed.pop(next(iter(kept.listed)))
            kept.listed[whole] = chosen
    return chosen


def _score(engine: Engine, body: dict) -> JSONResponse:
    """``POST /api/score``: ``position``, ``turn``, ``move``, ``rack`` -> what ``score --json``
    prints (422 when the move is not legal: the answer says why)."""
    from literaki_cli.analysis.batch import PositionReader, ScoreLines

    return _answer_line(ScoreLines(engine.lexicon, PositionReader()), body)


def _position(body: dict) -> JSONResponse:
    """``POST /api/position``: ``position`` and ``turn`` -> what ``show --json`` prints (the
    position, the unseen tiles, the bag, where in a game record it stands) and its warnings."""
    from literaki_cli.analysis.batch import PositionReader, _check_keys, _position_text
    from literaki_cli.analysis.positionquery import parse_turn, unseen_tiles_of
    from literaki_cli.io.positionio import position_to_json

    _check_keys(body, ("position", "turn"))
    opened = PositionReader().read(_position_text(body), turn=parse_turn(body.get("turn"), '"turn"'), finished=True)
    pos = opened.position
    record = {"position": position_to_json(pos), **unseen_tiles_of(pos, pos.rack or None).as_dict(),
              "game": opened.game.as_dict() if opened.game else None}  # fmt: skip
    if opened.warnings:
        record["warnings"] = opened.warnings
    return JSONResponse(record)


def _check_words(engine: Engine, body: dict) -> JSONResponse:
    """``POST /api/check-word``: ``{"words": [...]}`` -> ``{"words": [...]}``, each the object a
    line of ``check-word --json`` holds."""
    from literaki_cli.analysis import wordcheck
    from literaki_cli.analysis.batch import _check_keys
    from literaki_cli.analysis.wordinput import lexicon_word_rules

    _check_keys(body, ("words",))
    words = body.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise InputError(said("'words' must be a list of strings"))
    if len(words) > MAX_WORDS:
        raise InputError(said("{count:,} words: at most {most:,} a request", count=len(words), most=MAX_WORDS))
    lexicon = engine.lexicon()
    verdicts = wordcheck.check_batch([w.strip() for w in words], lexicon.words, lexicon_word_rules(lexicon.meta))
    return JSONResponse({"words": [v.as_dict() for v in verdicts]})


def _open_game(data: bytes, name: str) -> JSONResponse:
    """``POST /api/game``: a GCG file's bytes, as read from the disk (any encoding the command
    line reads) -> its text in UTF-8, the encoding it was read in, its players and where it
    ends (``show GAME --json``'s ``game``), for the page to step through with
    ``/api/position``."""
    from literaki_cli.games.replay import LAST, game_position
    from literaki_cli.io.gcg import decode_gcg, parse_gcg

    source = _file_name(name)
    if not data.strip():
        raise InputError(said("{source}: the file is empty", source=source))
    text, encoding = decode_gcg(data, source)
    game = parse_gcg(text, source)
    last = game_position(game, LAST)
    return JSONResponse({"name": source, "gcg": text, "encoding": encoding, "variant": game.variant.name,
                         "players": [p.label for p in game.players], "lexicon": game.lexicon,
                         "game": last.as_dict()})  # fmt: skip


def _file_name(name: str) -> str:
    """A file name the page gives, as messages show it (never a path opened on the server)."""
    from literaki_cli.inputs import shown

    return shown(name.replace("\\", "/").rsplit("/", 1)[-1], 60).strip("'") or "game"


def _image(body: dict) -> Response:
    """``POST /api/image``: ``position``, ``turn``, ``format`` (svg or png), and for a caption under
    the board (the players' scores and racks as far as known, who is to move) ``on_turn`` (1 or 2:
    the player the position's first rack and score belong to) and ``lang`` -> the board drawn as
    ``show --image FILE`` draws it."""
    from literaki_cli.analysis.batch import PositionReader, _check_keys, _position_text
    from literaki_cli.analysis.positionquery import parse_turn
    from literaki_cli.inputs import alternatives
    from literaki_cli.io.render import board_image_bytes

    _check_keys(body, ("position", "turn", "format", "on_turn", "lang"))
    fmt = body.get("format", "svg")
    if not isinstance(fmt, str) or fmt not in IMAGE_TYPES:  # (a list or an object is no key)
        raise InputError(said("'format' must be {choices}, not {value}", value=json.dumps(fmt)[:40],
                              choices=alternatives([repr(t) for t in IMAGE_TYPES])))  # fmt: skip
    on_turn, lang = body.get("on_turn"), body.get("lang", "pl")
    if on_turn not in (None, 1, 2) or isinstance(on_turn, bool):
        raise InputError(said("'on_turn' must be 1 or 2, not {value}", value=json.dumps(on_turn)[:40]))
    if lang not in LANGUAGES:
        raise InputError(said("'lang' must be {choices}, not {value}", value=json.dumps(lang)[:40],
                              choices=alternatives([repr(t) for t in LANGUAGES])))  # fmt: skip
    pos = PositionReader().read(_position_text(body), turn=parse_turn(body.get("turn"), '"turn"')).position
    caption = _caption(pos, on_turn, board_texts(lang)) if on_turn else ()
    return Response(board_image_bytes(fmt, pos.board, pos.variant, caption=caption), media_type=IMAGE_TYPES[fmt],
                    headers={"content-disposition": f'attachment; filename="board.{fmt}"'})  # fmt: skip


def _caption(position, on_turn: int, texts: dict) -> tuple[str, ...]:
    """A line a player under the board: their number, score and rack (when known), and who moves."""
    racks = list(position.racks) + [""] * 2
    scores = list(position.scores) + [0] * 2
    lines = []
    for player in (1, 2):
        k = 0 if player == on_turn else 1  # the position's first rack and score are the mover's
        line = f"{texts['player_n'].format(player=player)}: {scores[k]}"
        if racks[k]:
            line += f" — {texts['rack']}: {racks[k].upper()}"
        if player == on_turn:
            line += f" — {texts['to_move']}"
        lines.append(line)
    return tuple(lines)


#: The images ``/api/image`` draws, and their media types.
IMAGE_TYPES = {"svg": "image/svg+xml", "png": "image/png"}
#: The most turns one ``/api/record`` request may write.
MAX_RECORD_TURNS = 500


def _record(engine: Engine, body: dict) -> JSONResponse:
    """``POST /api/record``: the moves played on the board from an empty one -> the game as GCG.
    ``{"variant", "players": [name, name], "turns": [{"player": 1|2, "rack", "move"}]}``: each
    move in GCG notation (``8H WORD``, ``-ABC`` an exchange, ``-`` a pass) is scored as ``score``
    scores it on the board the turns before it left, and must be legal."""
    from literaki_cli.analysis.batch import _check_keys, _text_field
    from literaki_cli.analysis.positionquery import PlacementScore, checked_rack, score_move
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.game import gcg_play
    from literaki_cli.games.record import gcg_header, turn_line
    from literaki_cli.io.gcg import parse_gcg

    _check_keys(body, ("variant", "players", "turns"))
    variant = load_variant(_text_field(body, "variant") or "literaki")
    names = body.get("players") or ["Gracz 1", "Gracz 2"]
    if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) and n.strip() for n in names)):
        raise InputError(said("'players' must be two names"))
    turns = body.get("turns")
    if not isinstance(turns, list) or not turns:
        raise InputError(said('\'turns\' must be a list of the moves played, {{"player", "rack", "move"}} each'))
    if len(turns) > MAX_RECORD_TURNS:
        raise InputError(said("{count:,} turns: at most {most} a record", count=len(turns), most=MAX_RECORD_TURNS))
    nicks = ["_".join(n.split())[:40] for n in names]
    if nicks[0] == nicks[1]:
        nicks = [f"{nicks[0]}_1", f"{nicks[1]}_2"]
    lines = gcg_header(list(zip(nicks, [" ".join(n.split())[:60] for n in names], strict=True)), variant.name,
                       engine.lexicon().meta["source"]["file"].removesuffix(".zip"))  # fmt: skip
    board, totals = Board.empty(variant.board.rows, variant.board.columns), [0, 0]
    for number, turn in enumerate(turns, 1):
        where = said("turn {number}", number=number)
        if not isinstance(turn, dict):
            raise InputError(said('{where}: must be an object {{"player", "rack", "move"}}', where=where))
        player = turn.get("player")
        if player not in (1, 2):
            raise InputError(said("{where}: 'player' must be 1 or 2", where=where))
        position = Position(variant, board, [turn.get("rack") or ""], [0, 0])
        try:
            rack, _ = checked_rack(position, _text_field(turn, "rack", required=True), name=said("rack"))
            scored = score_move(position, _text_field(turn, "move", required=True), rack, engine.lexicon)
        except InputError as exc:
            raise InputError(said("{where}: {error}", where=where, error=message_of(exc))) from None
        placed = isinstance(scored, PlacementScore)
        if not scored.valid:
            problems = scored.result.problems if placed else scored.problems
            raise InputError(said("{where}: {move}: {problems}", where=where, move=turn["move"],
                                  problems=joined(problems)))  # fmt: skip
        if placed:
            play, points = gcg_play(scored.result, scored.move.direction), scored.result.total
            board = scored.board_after
        else:  # an exchange or a pass
            play, points = scored.move, 0
        totals[player - 1] += points
        lines.append(turn_line(nicks[player - 1], rack, play, points, totals[player - 1]))
    text = "\n".join(lines) + "\n"
    parse_gcg(text, "the record", variant)  # our reader reads what we write
    return JSONResponse({"gcg": text})


__all__ = ["LOCAL_HOSTS", "MAX_BODY", "MAX_GAME_BODY", "BoardSetup", "create_app", "variant_layout"]
