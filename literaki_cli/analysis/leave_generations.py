"""``leaves train --generations K``: self-play and training in one command, generation after
generation, on local workers or a Ray cluster.

Generation g plays ``games`` games with the leave values of generation g-1 (the first with the
starting values) into ``work/gen<g>/``, a ``simulate`` run folder like any other, and learns
``work/gen<g>.leaves`` from it (:func:`literaki_cli.equity.train.train`).  Every step is kept on
disk, so the same command run again after an interruption continues where it stopped: a
generation whose leave file exists is skipped, a run folder with some games is resumed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from literaki_cli.analysis.simulate import GameOutput, GameRunner, RunConfig, RunResult, game_kind, open_run
from literaki_cli.errors import InputError
from literaki_cli.inputs import read_input_bytes, whole_number

#: Bounds of the numbers of a plan: more generations or games than anyone would wait for are a typo.
MAX_GENERATIONS = 1000
MAX_GAMES = 10**9
MAX_WORKERS = 10_000
#: Seeds are any whole numbers a 64-bit integer holds (each generation adds one).
MIN_SEED, MAX_SEED = -(2**63), 2**63 - 1 - MAX_GENERATIONS


def check_generation_options(generations: object, games: object, seed: object, workers: object = None) -> None:
    """The numbers of ``leaves train --generations`` checked before anything is played
    (InputError naming the option)."""
    whole_number(generations, "--generations", 1, MAX_GENERATIONS)
    whole_number(games, "--games", 1, MAX_GAMES)
    whole_number(seed, "--seed", MIN_SEED, MAX_SEED)
    if workers is not None:
        whole_number(workers, "--workers", 1, MAX_WORKERS)


@dataclass
class GenerationPlan:
    """What to play and learn: ``generations`` rounds of ``games`` games of ``players``, seeded
    ``seed`` + generation - 1, kept in ``work``; ``start_leaves`` (None: the shipped values)
    is what the first generation plays with."""

    generations: int
    games: int
    players: list[str]
    seed: int
    work: Path
    lexicon: str
    levels: str | None = None
    start_leaves: str | None = None
    variant: str = "literaki"
    rules: str | None = None
    min_count: int = 3
    prior: float | None = None
    note: str = ""  # added to each generation's note in its leave file

    def run_dir(self, generation: int) -> Path:
        return self.work / f"gen{generation}"

    def leave_file(self, generation: int) -> Path:
        return self.work / f"gen{generation}.leaves"

    def run_config(self, generation: int) -> RunConfig:
        played_with = self.start_leaves if generation == 1 else str(self.leave_file(generation - 1).resolve())
        return RunConfig(
            players=self.players, games=self.games, seed=self.seed + generation - 1, variant=self.variant,
            rules=self.rules, levels=self.levels, lexicon=self.lexicon, leaves=played_with,
        )  # fmt: skip


@dataclass
class GenerationResult:
    generation: int
    run: Path
    leaves: Path
    played: int  # games played by this command (0: the generation was already complete)
    report: object = None  # the TrainingReport (None when the generation was skipped)


@dataclass
class GenerationsResult:
    generations: list[GenerationResult] = field(default_factory=list)
    interrupted: bool = False
    run: RunResult | None = None  # the run that was interrupted


def train_generations(
    plan: GenerationPlan,
    runner: GameRunner | int,
    on_run: Callable[[int, int, int], Callable[[GameOutput], None] | None] | None = None,
) -> GenerationsResult:
    """Play and learn each generation of ``plan`` not done yet.  ``on_run(generation, games,
    already played)`` is told when a generation's games start and may return a per-game callback
    (a progress bar).  Stops at the first interrupted run (its finished games are kept)."""
    from literaki_cli.equity.train import train

    check_generation_options(plan.generations, plan.games, plan.seed)
    variant = game_kind("literaki").load_rules(plan.run_config(1))  # the variant every generation plays
    try:
        plan.work.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{plan.work}: cannot write there: {exc.strerror or exc}") from None
    result = GenerationsResult()
    for generation in range(1, plan.generations + 1):
        run_dir, leave_file = plan.run_dir(generation), plan.leave_file(generation)
        if leave_file.is_file():
            result.generations.append(GenerationResult(generation, run_dir, leave_file, 0))
            continue
        config = plan.run_config(generation)
        resume = (run_dir / "run.json").is_file()
        given = {key: getattr(config, key) for key in ("players", "games", "seed", "levels", "leaves", "lexicon")}
        with open_run(run_dir, None if resume else config, resume=resume, given=given if resume else None) as run:
            on_game = on_run(generation, config.games, len(run.done)) if on_run else None
            played = run.play(runner, on_game)
        if played.interrupted:
            result.interrupted, result.run = True, played
            return result
        note = f"generation {generation} of leaves train --generations {plan.note}".strip()
        table, report = train([run_dir], variant, min_count=plan.min_count, prior=plan.prior, note=note)
        table.save(leave_file)
        done = len(played.outputs) - len(run.done)
        result.generations.append(GenerationResult(generation, run_dir, leave_file, done, report))
    return result


def publish(result: GenerationsResult, out: Path) -> None:
    """Copy the last generation's values to ``out``, checked as any leave file is read, and
    written whole or not at all (nothing is left behind when the write fails)."""
    from literaki_cli.equity.leaves import LEAVE_FILE_EXAMPLE, MAX_LEAVE_FILE_BYTES, load_leaves
    from literaki_cli.outputs import write_atomically

    last = result.generations[-1].leaves
    load_leaves(last)  # a generation's file damaged since it was written is not published
    write_atomically(out, read_input_bytes(last, "leave file", MAX_LEAVE_FILE_BYTES), "leave file", LEAVE_FILE_EXAMPLE)
