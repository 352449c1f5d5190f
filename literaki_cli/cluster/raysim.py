"""``simulate --ray``: a run's games played by actors on a Ray cluster.

Each actor (one per CPU of the cluster, or ``--workers N``) opens the lexicon and builds its
players once, then plays batches of game numbers; the games are seeded by (seed, game number)
exactly as in local workers, so the tables are identical whoever plays them.  The driver keeps
two batches queued per actor, streams each finished game back to the run (tables, checkpoints,
progress bar) and, on Ctrl-C, kills the actors: every game already returned is kept.

The files a run reads (lexicon, ``--rules``, ``--levels``, ``--leaves``) need not exist on the
other machines: the driver reads them once and puts them in Ray's object store, and each actor
writes them into a per-machine cache (``$TMPDIR/literaki-ray/<sha256>/``) before opening them.
Leave files named *inside* a levels file are read by their path on every machine.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import socket
import tempfile
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from literaki_cli.analysis.simulate import GameOutput, RunConfig, _setup, play_one
from literaki_cli.errors import InputError, LiterakiError
from literaki_cli.inputs import shown
from literaki_cli.review.many import GameOutcome, GameReviewer, ReviewSettings

#: literaki is installed from its checkout (it is not on the package index): the cluster extra is
#: Ray with its client.
INSTALL_HINT = "pip install 'ray[client]>=2.9' (in literaki's checkout: pip install '.[cluster]')"
#: The run settings that name files the actors must read.
SHIPPED_SETTINGS = ("lexicon", "rules", "levels", "leaves")
#: Batches queued per actor, so that an actor never waits for the driver between two batches.
QUEUED_PER_ACTOR = 2
#: Most games in one task: small enough that progress and Ctrl-C stay responsive (a game takes
#: 0.1-3 s), large enough that Ray's per-task cost (about a millisecond) stays negligible.
MAX_BATCH = 8
#: How often (s) the driver wakes from waiting for results, so Ctrl-C is handled promptly.
WAIT_SECONDS = 0.5
#: Ray Client connections tried before giving up: the head starts a server per client, which
#: can fail to start in time on a loaded head.
CLIENT_ATTEMPTS = 3
#: How long (s) to wait for a cluster's head to accept a connection before giving up.
CONNECT_SECONDS = 5.0
_ADDRESS = re.compile(r"(ray://)?[^\s:/]+:\d{1,5}")


def import_ray():
    """The ``ray`` module; InputError naming the extra to install when it is missing."""
    try:
        import ray
    except ImportError:
        raise InputError(f"--ray needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def check_address(address: str) -> str:
    """``address`` if it is ``auto``, ``host:port`` or ``ray://host:port``; InputError otherwise."""
    if address == "auto":
        return address
    if not _ADDRESS.fullmatch(address):
        raise InputError(f"--ray {shown(address, 80)}: give auto, HOST:PORT (a cluster's head) or ray://HOST:PORT "
                         "(Ray Client)")  # fmt: skip
    host, port = address.removeprefix("ray://").rsplit(":", 1)
    try:
        labels = host.encode("idna").split(b".")  # what the resolver would be asked (IDNA for non-ASCII)
    except UnicodeError:
        labels = [b""]
    if len(host) > 253 or not all(0 < len(label) <= 63 for label in labels):
        raise InputError(f"--ray {shown(address, 80)}: {shown(host, 60)} is not a host name (labels of 1 to 63 "
                         "letters, digits or hyphens, joined by dots)")  # fmt: skip
    if not 0 < int(port) <= 65535:
        raise InputError(f"--ray {shown(address, 80)}: port {port} is not between 1 and 65535")
    return address


def connect(address: str):
    """Join the Ray cluster at ``address`` as a driver (``auto``: the cluster this machine is a
    node of); InputError in one line when there is none.  Ray's own start-up chatter is quietened
    and its usage statistics are never sent."""
    check_address(address)
    ray = import_ray()
    if address != "auto":
        _check_reachable(address)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if ray.is_initialized():
        return ray
    for attempt in range(1, CLIENT_ATTEMPTS + 1):
        try:
            # the actors print nothing of use; what fails there comes back as an error to report in one line
            ray.init(address=address, logging_level=logging.ERROR, configure_logging=True, log_to_driver=False)
            return ray
        except ConnectionAbortedError as exc:  # Ray Client: the head's per-client server failed to start
            if attempt == CLIENT_ATTEMPTS:
                raise InputError(f"--ray {address}: cannot join a Ray cluster ({_reason(exc)})") from None
            time.sleep(attempt)
        except ConnectionError as exc:
            if address == "auto":  # Ray's own hint names its Python API, not this command
                raise InputError("--ray auto: no Ray cluster runs on this machine; start one (ray start --head) "
                                 "or give its head's address") from None  # fmt: skip
            raise InputError(f"--ray {address}: cannot join a Ray cluster ({_reason(exc)})") from None
        except Exception as exc:  # Ray raises RuntimeError, ValueError, TimeoutError... on a bad cluster
            raise InputError(f"--ray {address}: cannot join a Ray cluster ({_reason(exc)})") from None
    return ray


def _reason(exc: BaseException) -> str:
    """The most specific line of an error Ray raised (a server's traceback ends with it)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


def _check_reachable(address: str) -> None:
    """InputError unless something listens at ``address``: Ray itself retries an unreachable
    head for minutes (and ignores SIGTERM meanwhile)."""
    host, port = address.removeprefix("ray://").rsplit(":", 1)
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InputError(f"--ray {address}: no Ray cluster answers there ({reason})") from None


def shipment(config: RunConfig) -> dict[str, tuple[str, bytes]]:
    """The files of the run's settings, read on the driver: setting -> (file name, contents).
    A default leave file chosen by ``$LITERAKI_LEAVES`` is shipped as the ``leaves`` setting, so
    the actors use the driver's choice."""
    from literaki_cli.equity.leaves import ENV_VAR as LEAVES_ENV

    paths = {key: getattr(config, key) for key in SHIPPED_SETTINGS}
    if paths["leaves"] is None and os.environ.get(LEAVES_ENV):
        paths["leaves"] = os.environ[LEAVES_ENV]
    return read_shipment(paths)


def read_shipment(paths: dict[str, str | None]) -> dict[str, tuple[str, bytes]]:
    """The files named by ``paths`` (setting -> path, None for none), read on the driver:
    setting -> (file name, contents)."""
    files = {}
    for key, path in paths.items():
        if path is None:
            continue
        try:
            files[key] = (Path(path).name, Path(path).expanduser().read_bytes())
        except OSError as exc:
            raise InputError(f"{path}: cannot read the {key} file to send to the cluster: {exc.strerror}") from None
    return files


def materialize(files: dict[str, tuple[str, bytes]], root: Path | None = None) -> dict[str, str]:
    """Write shipped files into this machine's cache (once per content: a file there is named by
    its hash, so a stale copy is never used) and return setting -> local path."""
    root = root or Path(tempfile.gettempdir()) / "literaki-ray"
    local = {}
    for key, (name, data) in files.items():
        path = root / hashlib.sha256(data).hexdigest() / name
        if not (path.is_file() and path.stat().st_size == len(data)):
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{name}.{os.getpid()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)  # atomic: actors on one machine may write the same file at once
        local[key] = str(path)
    return local


class SimulationActor:
    """One Ray actor: the run's table set up once, then batches of games on request."""

    def __init__(self, settings: dict, files: dict[str, tuple[str, bytes]]) -> None:
        self.failure: str | None = None
        local = materialize(files)
        try:
            _setup(replace(RunConfig(**settings), **local))
        except LiterakiError as exc:  # told by play(), in the user's terms: the file as the user named it
            message = str(exc)
            for key, path in local.items():
                message = message.replace(path, str(settings[key]))
            self.failure = message

    def play(self, game_ids: list[int]) -> list[GameOutput]:
        if self.failure is not None:
            raise InputError(self.failure)
        return [play_one(game_id) for game_id in game_ids]


class ReviewActor:
    """One Ray actor of ``analyze --ray``: the lexicon and leave values opened once (from the
    shipped files), then batches of games (their bytes) reviewed on request."""

    def __init__(self, settings: ReviewSettings, files: dict[str, tuple[str, bytes]]) -> None:
        self.failure: str | None = None
        local = materialize(files)
        try:
            self.reviewer = GameReviewer(replace(settings, **local))
        except LiterakiError as exc:  # told by play(), in the user's terms
            message = str(exc)
            for key, path in local.items():
                message = message.replace(path, str(getattr(settings, key)))
            self.failure = message

    def play(self, jobs: list[tuple[int, str, bytes]]) -> list[GameOutcome]:
        if self.failure is not None:
            raise InputError(self.failure)
        return [self.reviewer(index, name, data) for index, name, data in jobs]


def review_shipment(settings: ReviewSettings) -> dict[str, tuple[str, bytes]]:
    """The lexicon and leave files a review reads, read on the driver (the lexicon the driver
    would open, $LITERAKI_LEAVES for the default leaves)."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.equity.leaves import ENV_VAR as LEAVES_ENV

    paths = {"lexicon": str(Lexicon.open(Path(settings.lexicon) if settings.lexicon else None).path),
             "leaves": settings.leaves or os.environ.get(LEAVES_ENV)}  # fmt: skip
    return read_shipment(paths)


class RayRunner:
    """A :class:`~literaki_cli.analysis.simulate.GameRunner` on the Ray cluster at ``address``
    with ``actors`` actors (default: one per CPU the cluster has)."""

    def __init__(self, address: str, actors: int | None = None) -> None:
        self.address = check_address(address)
        self.actors = actors
        self._ray: Any = None
        self._live: list = []

    def connect(self) -> None:
        """Join the cluster now (InputError if there is none), before any run folder is made."""
        self._ray = self._ray or connect(self.address)

    def start(self, config: RunConfig, pending: list[int]) -> Iterator[GameOutput]:
        return self.run(SimulationActor, asdict(config), shipment(config), pending)

    def review(self, settings: ReviewSettings, jobs: list[tuple[int, str, bytes]]) -> Iterator[GameOutcome]:
        """Games reviewed on the cluster (``analyze GAME... --ray``): each job is (index, file
        name, the file's bytes), read on the driver; the outcomes come back as they finish."""
        return self.run(ReviewActor, settings, review_shipment(settings), jobs)

    def run(self, actor: type, settings: Any, files: dict[str, tuple[str, bytes]], pending: list) -> Iterator:
        """``pending`` handed out in batches to actors of the class ``actor`` (made with
        ``settings`` and the shipped ``files``, one per CPU of the cluster unless ``actors``
        says), whose ``play(batch)`` gives a list of results: yields them as they come."""
        self.connect()
        ray = self._ray
        count = self.actors or max(1, int(ray.cluster_resources().get("CPU", 1)))
        count = max(1, min(count, len(pending)))
        size = max(1, min(MAX_BATCH, len(pending) // (count * 4)))
        batches = deque(pending[i : i + size] for i in range(0, len(pending), size))
        shipped = ray.put(files)
        actor_class = ray.remote(num_cpus=1, max_restarts=0)(actor)
        self._live = [actor_class.remote(settings, shipped) for _ in range(count)]
        return self._results(ray, batches)

    def _results(self, ray, batches: deque) -> Iterator:
        in_flight: dict = {}

        def submit(actor) -> None:
            if batches:
                in_flight[actor.play.remote(batches.popleft())] = actor

        for actor in self._live:
            for _ in range(QUEUED_PER_ACTOR):
                submit(actor)
        while in_flight:
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=WAIT_SECONDS)
            for ref in ready:
                actor = in_flight.pop(ref)
                outputs = self._fetch(ray, ref)
                submit(actor)
                yield from outputs

    def _fetch(self, ray, ref) -> list:
        """A batch's games; a failure on the cluster becomes one InputError line."""
        try:
            return ray.get(ref)
        except ray.exceptions.RayError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, LiterakiError):  # our own one-line error, raised on another machine
                raise InputError(f"on the Ray cluster: {cause}") from None
            lines = [line for line in str(cause or exc).splitlines() if line.strip()]  # a traceback's last line
            raise InputError(f"on the Ray cluster: {lines[-1].strip() if lines else type(exc).__name__}") from None

    def stop(self, cancel: bool) -> None:
        """Kill the actors (a cancelled run's batches in progress are dropped) and leave the cluster."""
        ray, self._ray = self._ray, None
        if ray is None:
            return
        for actor in self._live:
            ray.kill(actor)
        self._live = []
        ray.shutdown()
