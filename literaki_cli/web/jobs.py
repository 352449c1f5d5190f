"""The board's jobs: long work (:mod:`literaki_cli.web.jobwork`) run in processes of their own,
which the page follows and cancels (docs/serve.md, "Jobs").

Why processes: the Python around the core's searches holds the interpreter lock, so a simulation
in a thread of the server would slow every edit on the board; in a process of its own it runs on
another core, and the server answers edits as fast as with nothing running.  Each job process
is started by the first job that needs one (``spawn``: nothing of the server's threads is
copied), keeps its lexicon between jobs, and runs one job at a time.

Bounds, as a server anyone on the machine can reach must have them:

- at most one running job per client (the page's ``x-literaki-client`` header, else the
  address it comes from) and :data:`MAX_JOBS` in all: a request past either is refused (429);
- each job has a time cap (:data:`TIME_CAPS`); a job nobody has asked about for
  :data:`HEARTBEAT_SECONDS` is cancelled (the page that asked went away: the page also cancels
  its job when it is closed);
- cancelling is a Ctrl-C to the job's process: the work stops as the command's does (a
  simulation keeps its finished rounds, an endgame the best of its last complete iteration);
  a process that does not stop within :data:`GRACE_SECONDS` is ended.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from literaki_cli.errors import said
from literaki_cli.web.jobwork import ANALYZE, ENDGAME, PEG, SIM, Plan, plan

#: Jobs running at once, in all (a job is one core's work).
MAX_JOBS = 2
#: The most seconds a job of each kind may run.
TIME_CAPS = {SIM: 300.0, ENDGAME: 150.0, ANALYZE: 900.0, PEG: 150.0}
#: A running job that nobody asked about for this long is cancelled.
HEARTBEAT_SECONDS = 20.0
#: How long a cancelled job's process may take to stop before it is ended.
GRACE_SECONDS = 10.0
#: Finished jobs kept for the page to read (the oldest are forgotten first), and for how long.
KEEP_FINISHED, KEEP_SECONDS = 64, 900.0
#: The least time between two progress reports of a job (a report carries the answer so far).
REPORT_EVERY = 0.25

STARTING, RUNNING, DONE, CANCELLED, FAILED = "starting", "running", "done", "cancelled", "failed"
#: Why a job stopped before its end: asked to, its time cap, its page went away.
BY_REQUEST, BY_TIME_CAP, BY_PAGE_GONE = "cancelled", "time cap", "page gone"


class JobRefused(Exception):
    """A job the bounds do not allow now (429)."""


class NoSuchJob(Exception):
    """A job id the server does not know (404)."""


@dataclass
class Job:
    """A job as the page sees it: its progress, its answer so far, how it ended."""

    id: str
    kind: str
    client: str
    started: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    state: str = STARTING
    done: int = 0
    total: int = 0
    answer: dict | None = None  # the answer so far, then the final one
    error: str | None = None
    stopped_by: str | None = None
    finished: float | None = None
    cancel_sent: float | None = None

    @property
    def running(self) -> bool:
        return self.state in (STARTING, RUNNING)

    def as_dict(self) -> dict:
        end = self.finished if self.finished is not None else time.monotonic()
        return {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done, "total": self.total,
                "seconds": round(end - self.started, 3), "stopped_by": self.stopped_by, "error": self.error,
                "answer": self.answer}  # fmt: skip


class _Worker:
    """A job process and the thread that reads what it sends."""

    def __init__(self, board: JobBoard) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child, board.lexicon_path, board.leaves_path),
                                       name="literaki-job", daemon=True)  # fmt: skip
        self.job: Job | None = None
        self.pending: tuple[Job, dict] | None = None  # sent once the process says it is ready
        self.ready = False
        self.board = board
        self.process.start()
        child.close()
        threading.Thread(target=self._read, name="literaki-job-reader", daemon=True).start()

    def run(self, job: Job, body: dict) -> None:
        self.job = job
        if self.ready:
            self._send(job, body)
        else:
            self.pending = (job, body)

    def _send(self, job: Job, body: dict) -> None:
        job.state = RUNNING
        self.conn.send((job.id, body, TIME_CAPS[job.kind]))

    def interrupt(self) -> None:
        """Ctrl-C to the job (a job still waiting for its process is simply not sent).  Only to a
        process still alive: the number of one that ended (and was waited for) may be another
        process's or thread's by now (pids wrap at 32,768 on many machines), and the signal would
        land there: in the server itself, as a Ctrl-C.  ``is_alive`` waits for an ended one, so
        between it and the signal the number stays this process's (a zombie's at worst)."""
        if self.ready and self.process.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGINT)

    def end(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)
        self.conn.close()

    def _read(self) -> None:
        board = self.board
        while True:
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                break
            with board.lock:
                if message == ("ready",):
                    self.ready = True
                    if self.pending is not None:
                        job, body = self.pending
                        self.pending = None
                        if job.running and job.stopped_by is None:
                            self._send(job, body)
                        elif job.running:
                            board.finish(self, job, CANCELLED)
                    continue
                job = self.job
                if job is None or message[1] != job.id:
                    continue
                kind = message[0]
                if kind == "progress":
                    _, _, job.done, job.total, so_far = message
                    if so_far is not None:
                        job.answer = so_far
                elif kind == "done":
                    job.answer = message[2]
                    board.finish(self, job, CANCELLED if job.stopped_by in (BY_REQUEST, BY_PAGE_GONE) else DONE)
                elif kind == "cancelled":
                    board.finish(self, job, CANCELLED)
                elif kind == "failed":
                    job.error = message[2]
                    board.finish(self, job, FAILED)
        with board.lock:  # the process ended (or was ended)
            board.lost(self)


class JobBoard:
    """The jobs of one server: started, followed, cancelled, forgotten."""

    def __init__(self, lexicon_path: Path | None = None, leaves_path: Path | None = None,
                 slots: int = MAX_JOBS, heartbeat: float = HEARTBEAT_SECONDS) -> None:  # fmt: skip
        self.lexicon_path, self.leaves_path = lexicon_path, leaves_path
        self.slots, self.heartbeat = slots, heartbeat
        self.lock = threading.RLock()
        self.jobs: dict[str, Job] = {}
        self.idle: list[_Worker] = []
        self.busy: dict[str, _Worker] = {}  # job id: its process
        self._closed = threading.Event()
        self._watch = threading.Thread(target=self._watch_jobs, name="literaki-job-watch", daemon=True)
        self._watch.start()

    def check(self, body: dict) -> Plan:
        """The request read and checked (InputError: a 400), without starting anything."""
        return plan(body, TIME_CAPS[ENDGAME])

    def submit(self, client: str, body: dict) -> Job:
        """Start the job ``body`` asks for (checked with :meth:`check` first) for ``client``;
        JobRefused when the bounds do not allow it now."""
        work = self.check(body)
        with self.lock:
            if self._closed.is_set():
                raise JobRefused(said("the server is stopping"))
            mine = [j for j in self.jobs.values() if j.running and j.client == client]
            if mine:
                raise JobRefused(said("a {kind} job of this page is running ({job}): one at a time; cancel it or wait "
                                      "for it", kind=mine[0].kind, job=mine[0].id))  # fmt: skip
            if len(self.busy) >= self.slots:
                raise JobRefused(said("the server runs {running} jobs already (at most {most}): try again when one has "
                                      "ended", running=len(self.busy), most=self.slots))  # fmt: skip
            job = Job(uuid.uuid4().hex, work.kind, client)
            self.jobs[job.id] = job
            worker = self.idle.pop() if self.idle else _Worker(self)
            self.busy[job.id] = worker
            worker.run(job, body)
            self._forget_old()
            return job

    def get(self, job_id: str) -> Job:
        """The job ``job_id`` (NoSuchJob if unknown); asking counts as its page being there."""
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None:
                raise NoSuchJob(job_id)
            job.seen = time.monotonic()
            return job

    def cancel(self, job_id: str, why: str = BY_REQUEST) -> Job:
        """Stop the job ``job_id`` (its answer so far is kept); a job already ended stays as it is."""
        with self.lock:
            job = self.get(job_id)
            self._stop(job, why)
            return job

    def view(self, job_id: str) -> dict:
        with self.lock:
            return self.get(job_id).as_dict()

    def close(self) -> None:
        """Stop every job and process (the server is stopping)."""
        self._closed.set()
        with self.lock:
            workers = [*self.idle, *self.busy.values()]
            self.idle, self.busy = [], {}
            for job in self.jobs.values():
                if job.running:
                    job.stopped_by = job.stopped_by or BY_REQUEST
                    self._ended(job, CANCELLED)
        for worker in workers:
            worker.end()

    # ----------------------------------------------------------------- called with the lock held

    def finish(self, worker: _Worker, job: Job, state: str) -> None:
        """``job`` ended on ``worker``, which is free again."""
        self._ended(job, state)
        worker.job = None
        if self.busy.get(job.id) is worker:
            del self.busy[job.id]
            if not self._closed.is_set():
                self.idle.append(worker)

    def lost(self, worker: _Worker) -> None:
        """``worker``'s process ended: its job with it."""
        job = worker.job
        if job is not None and job.running:
            if job.stopped_by is not None:
                self._ended(job, CANCELLED)
            else:
                job.error = said("the job's process ended unexpectedly")
                self._ended(job, FAILED)
        if job is not None and self.busy.get(job.id) is worker:
            del self.busy[job.id]
        if worker in self.idle:
            self.idle.remove(worker)

    def _ended(self, job: Job, state: str) -> None:
        if job.running:
            job.state, job.finished = state, time.monotonic()

    def _stop(self, job: Job, why: str) -> None:
        if not job.running or job.stopped_by is not None:
            return
        job.stopped_by, job.cancel_sent = why, time.monotonic()
        worker = self.busy.get(job.id)
        if worker is not None:
            worker.interrupt()

    def _forget_old(self) -> None:
        now = time.monotonic()
        ended = sorted((j for j in self.jobs.values() if not j.running), key=lambda j: j.finished or 0)
        for number, job in enumerate(ended):
            if len(ended) - number > KEEP_FINISHED or now - (job.finished or now) > KEEP_SECONDS:
                del self.jobs[job.id]

    # ----------------------------------------------------------------- the watch

    def _watch_jobs(self) -> None:
        """Twice a second: the time caps, the pages gone away, the processes that do not stop."""
        while not self._closed.wait(0.5):
            now = time.monotonic()
            stuck = []
            with self.lock:
                for job in list(self.jobs.values()):
                    if not job.running:
                        continue
                    if job.stopped_by is None and now - job.started > TIME_CAPS[job.kind]:
                        self._stop(job, BY_TIME_CAP)
                    elif job.stopped_by is None and now - job.seen > self.heartbeat:
                        self._stop(job, BY_PAGE_GONE)
                    elif job.cancel_sent is not None and now - job.cancel_sent > GRACE_SECONDS:
                        worker = self.busy.get(job.id)
                        if worker is not None:
                            stuck.append(worker)
                self._forget_old()
            for worker in stuck:
                worker.process.kill()  # its reader sees the pipe close and ends the job


# --------------------------------------------------------------------------- the job's process


class _Interrupts:
    """A job's Ctrl-C, raised only while a job runs and never in the middle of sending a message
    to the server: at once for a review or an endgame (the endgame search takes Ctrl-C over
    itself while it searches), and for a simulation at its next report, a round's end, where it
    keeps what it finished (anywhere else a Ctrl-C could land between two steps of merging a
    round)."""

    def __init__(self) -> None:
        self.running = self.immediate = self.sending = self.pending = False

    def handler(self, signum, frame) -> None:
        if self.running and self.immediate and not self.sending:
            raise KeyboardInterrupt
        self.pending = self.running

    @contextlib.contextmanager
    def job(self, immediate: bool):
        self.pending, self.immediate, self.running = False, immediate, True
        try:
            yield
        finally:
            self.running = False

    @contextlib.contextmanager
    def report(self):
        """Around a report: a simulation's Ctrl-C is raised here, and none while one is sent."""
        if self.running and self.pending and not self.immediate:
            self.pending = False
            raise KeyboardInterrupt
        self.sending = True
        try:
            yield
        finally:
            self.sending = False
        if self.running and self.pending:
            self.pending = False
            raise KeyboardInterrupt


def _worker_main(conn, lexicon_path: Path | None, leaves_path: Path | None) -> None:
    """A job process: runs the jobs it is sent, one at a time, until told to stop."""
    from literaki_cli.errors import InputError, LiterakiError, message_of
    from literaki_cli.web.jobwork import Workbench

    interrupts = _Interrupts()
    signal.signal(signal.SIGINT, interrupts.handler)
    bench = Workbench(lexicon_path, leaves_path)
    conn.send(("ready",))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        job_id, body, cap = message
        last = [0.0]

        def report(done: int, total: int, so_far: dict | None, job_id=job_id, last=last) -> None:
            with interrupts.report():
                now = time.monotonic()
                if so_far is None or now - last[0] >= REPORT_EVERY or done >= total:
                    last[0] = now
                    conn.send(("progress", job_id, done, total, so_far))

        try:
            with interrupts.job(immediate=body.get("kind") != SIM):
                answer = bench.run(plan(body, cap), report)
            reply: tuple[Any, ...] = ("done", job_id, answer)
        except KeyboardInterrupt:
            reply = ("cancelled", job_id)
        except InputError as exc:
            reply = ("failed", job_id, message_of(exc))
        except LiterakiError as exc:
            reply = ("failed", job_id, said("the server cannot answer: {error}", error=message_of(exc)))
        except Exception as exc:  # noqa: BLE001 - said to the page, and the process goes on
            reply = ("failed", job_id, said("internal error: {kind}: {error}", kind=type(exc).__name__, error=str(exc)))
        conn.send(reply)


__all__ = ["MAX_JOBS", "TIME_CAPS", "Job", "JobBoard", "JobRefused", "NoSuchJob"]
