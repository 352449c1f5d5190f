"""``build-lexicon`` and ``lexicon-info``: compile a word list into a lexicon file, and show one."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    JsonOption,
    LexiconOption,
    Output,
    RulesOption,
    app,
    output_console,
)
from literaki_cli.inputs import dumps_json

BUILD_EPILOG = """\b
Examples:
  literaki build-lexicon sjp-20260201.zip              the default lexicon
  literaki build-lexicon sjp-20260201.zip -o my.lexicon --json
  literaki build-lexicon /usr/share/dict/polish -o dict.lexicon
  literaki build-lexicon sjp-20260201.zip -o my.lexicon --popular-zipf 3     fewer popular words
  literaki build-lexicon --download                    fetch the newest SJP.PL dump first
"""

INFO_EPILOG = """\b
Examples:
  literaki lexicon-info
  literaki lexicon-info --lexicon my.lexicon --json
"""


@app.command("build-lexicon", epilog=BUILD_EPILOG)
def build_lexicon_command(
    source: Annotated[
        Path | None,
        typer.Argument(help="SJP dump (sjp-YYYYMMDD.zip), odm.txt/zip, or a word list (plain, gzip, tar)."),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Lexicon file to write.")] = None,
    download: Annotated[bool, typer.Option("--download", help="Download the current SJP.PL games dump first.")] = False,
    url: Annotated[
        str | None, typer.Option("--url", help="Index page or zip address for --download (or $LITERAKI_SJP_URL).")
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            help="Source kind, overriding detection: sjp-games, sjp-inflections, spelling-dictionary, word-list."
        ),
    ] = None,
    popular_rule: Annotated[
        str,
        typer.Option(
            help="Whose frequency makes a word popular (the computer players' words): lemma (the default: "
            "summed over the lemma's forms, so every form of a common word counts) or word (the form's own)."
        ),
    ] = "lemma",
    popular_zipf: Annotated[
        float | None,
        typer.Option(
            help="Zipf frequency (log10 of uses per billion words) the lemma or word needs to be popular (default 2.5)."
        ),
    ] = None,
    variant: Annotated[str, typer.Option(help="Variant whose word rules filter the source.")] = "literaki",
    rules: Annotated[Path | None, typer.Option(help="Variant file (TOML) instead of a built-in variant.")] = None,
    json_out: JsonOption = False,
) -> None:
    """Compile a word list into a lexicon file that loads instantly."""
    from lexicon_build import build
    from literaki_cli.engine import lexfile, lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.errors import InputError

    if (source is None) == (not download):
        raise InputError("give a SOURCE file or --download (not both)")
    rule = build.check_popular_rule(popular_rule)
    zipf = build.check_popular_zipf(popular_zipf)
    chosen_variant = load_variant(variant, rules)
    target = output or lexicon.default_lexicon_path()
    lexfile.check_writable(target)
    if download:
        source = _download(target.parent / "downloads", url)
    from tqdm import tqdm

    with (
        _terminate_cleanly(),
        tqdm(total=len(build.STAGES), desc="building", unit="step", disable=None, leave=False) as bar,
    ):

        def on_stage(name: str) -> None:
            bar.set_postfix_str(name)
            bar.update(1)

        try:
            report = build.build_lexicon(
                source, target, chosen_variant, kind=kind, popular_zipf=zipf, on_stage=on_stage, popular_rule=rule
            )
        except build.NoUsableWords as exc:
            bar.close()
            _print_dropped_table(exc.dropped, err=True)
            raise
    if json_out:
        typer.echo(
            dumps_json(
                {
                    "output": str(report.output),
                    "file_size": report.file_size,
                    "seconds": report.seconds,
                    "stage_seconds": report.stage_seconds,
                    "word_count": report.kept,
                    "dropped": report.dropped,
                    "popular_count": report.popular_count,
                    "meta": report.meta,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    _print_build_report(report)


@contextlib.contextmanager
def _terminate_cleanly() -> Iterator[None]:
    """SIGTERM during a build ends it like an error, so the temporary file is removed (exit 143)."""
    from literaki_cli.errors import LiterakiError

    def on_terminate(signum: int, frame: object) -> None:
        raise LiterakiError("build-lexicon terminated (SIGTERM); no lexicon written", exit_code=128 + signum)

    try:
        previous = signal.signal(signal.SIGTERM, on_terminate)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _print_dropped_table(dropped: dict[str, int], err: bool = False) -> None:
    """Why entries were dropped, per reason: the table a refused build shows on stderr."""
    from rich.table import Table

    from literaki_cli.engine.wordrules import REASONS

    table = Table(title="no usable word: every entry was dropped")
    table.add_column("words")
    table.add_column("count", justify="right")
    table.add_row("kept", "0", style="red")
    for reason, count in sorted(dropped.items(), key=lambda item: -item[1]):
        table.add_row(f"dropped: {REASONS[reason]}", f"{count:,}")
    if not dropped:
        table.add_row("(no entries: the source is empty or holds only blank lines)", "")
    output_console(stderr=err).print(table)


def _download(dest: Path, url: str | None) -> Path:
    from tqdm import tqdm

    from lexicon_build.download import download_dump

    bar = tqdm(unit="B", unit_scale=True, desc="downloading", disable=None, leave=False)

    def on_progress(n: int, total: int | None) -> None:
        if total and bar.total != total:
            bar.total = total
        bar.update(n)

    try:
        path = download_dump(dest, url, on_progress)
    finally:
        bar.close()
    typer.echo(f"downloaded {path}", err=True)
    return path


def _print_build_report(report) -> None:
    from rich.table import Table

    from literaki_cli.engine.wordrules import REASONS

    meta = report.meta
    console = output_console()
    table = Table(title=f"{meta['source']['name']} ({meta['source']['kind_label']}, {meta['source']['encoding']})")
    table.add_column("words")
    table.add_column("count", justify="right")
    table.add_row("kept", f"{report.kept:,}", style="green")
    for reason, count in sorted(report.dropped.items(), key=lambda item: -item[1]):
        table.add_row(f"dropped: {REASONS[reason]}", f"{count:,}")
    table.add_row(f"popular ({popular_rule_text(meta)})", f"{report.popular_count:,}")
    console.print(table)
    console.print(
        f"wrote {report.output} ({report.file_size / 1e6:.2f} MB, {report.arcs:,} arcs) in {report.seconds:.1f} s"
    )


def popular_rule_text(meta: dict) -> str:
    """The popular rule of a lexicon's metadata, as ``lemma Zipf >= 3.5``; lexicons built before
    the rule was recorded used the word rule."""
    rule = meta["popular"].get("rule", "word")
    return f"{rule if isinstance(rule, str) else '?'} Zipf >= {meta['popular']['zipf_threshold']:g}"


@app.command("lexicon-info", epilog=INFO_EPILOG)
def lexicon_info_command(lexicon: LexiconOption = None, json_out: JsonOption = False) -> None:
    """Show a lexicon file's metadata: source and the dump's date, word counts, build date."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.wordstudy.versions import lexicon_source_date

    lex = Lexicon.open(lexicon)
    info = dict(lex.meta)
    info["path"] = str(lex.path)
    info["file_size"] = lex.path.stat().st_size
    info["source"] = dict(info["source"]) | {"date": lexicon_source_date(lex.meta)}
    if json_out:
        typer.echo(dumps_json(info, ensure_ascii=False, indent=2))
        return
    src = info["source"]
    rows = [
        ("file", f"{info['path']} ({info['file_size'] / 1e6:.2f} MB)"),
        ("source", f"{src['name']} — {src['kind_label']}"),
        ("dump date", src["date"] or "unknown (the source's name carries no date)"),
        ("source sha256", src["sha256"]),
        ("words", f"{info['word_count']:,} ({info['min_length']}..{info['max_length']} letters)"),
        ("popular words", f"{info['popular']['word_count']:,} ({popular_rule_text(info)})"),
        ("letters", info["alphabet"]),
        ("built", f"{info['built_at']} by literaki {info['tool_version']}"),
        (
            "per length",
            " ".join(f"{k}:{v}" for k, v in sorted(info["length_counts"].items(), key=lambda kv: int(kv[0]))),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        typer.echo(f"{key:<{width}}  {value}")


DIFF_EPILOG = """\b
Examples:
  literaki lexicon-diff old.lexicon new.lexicon             +word / -word lines, Polish order
  literaki lexicon-diff sjp-20260101.zip sjp-20260201.zip   two SJP dumps (or a dump and a lexicon)
  literaki lexicon-diff old.lexicon new.lexicon --only added
  literaki lexicon-diff old.lexicon new.lexicon --count --json

A dump is filtered by the word rules of the lexicon on the other side (else of --variant), as
build-lexicon filters it, so a dump and the lexicon built from it hold the same words.
"""


@app.command("lexicon-diff", epilog=DIFF_EPILOG)
def lexicon_diff_command(
    old: Annotated[Path, typer.Argument(metavar="OLD", help="The older lexicon file or word list (SJP dump).")],
    new: Annotated[Path, typer.Argument(metavar="NEW", help="The newer lexicon file or word list (SJP dump).")],
    only: Annotated[
        str | None, typer.Option("--only", metavar="added|removed", help="List only the added or only the removed.")
    ] = None,
    count: Annotated[bool, typer.Option("--count", "-c", help="Print only the counts.")] = False,
    popular: Annotated[bool, typer.Option("--popular", help="Compare the popular subsets (two lexicons).")] = False,
    variant: Annotated[
        str, typer.Option("--variant", help="Word rules for two word lists (default literaki).")
    ] = "literaki",
    rules: RulesOption = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="JSON Lines {word, change}; with --count one object of counts.")
    ] = False,
) -> None:
    """List the words added and removed between two versions of the word list.

    Text: '+word' for an added word, '-word' for a removed one (bare words with --only), in Polish
    alphabetical order; a summary on stderr.  Exit 0 (1 when nothing changed), 2 on errors.
    """
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.engine.wordrules import WordRules
    from literaki_cli.errors import InputError
    from literaki_cli.wordstudy.versions import diff_versions, open_versions

    if only not in (None, "added", "removed"):
        raise InputError(f"--only {only!r}: choose added or removed")
    fallback = WordRules.of(load_variant(variant, rules))
    old_version, new_version = open_versions(old, new, fallback, popular)
    diff = diff_versions(old_version, new_version)
    out = Output()
    summary = diff.summary()
    changed = bool(diff.added or diff.removed)
    if count:
        if json_out:
            out.write(dumps_json(summary, ensure_ascii=False) + "\n")
        else:
            shown = [("added", len(diff.added)), ("removed", len(diff.removed))]
            out.write("".join(f"{name}\t{n}\n" for name, n in shown if only in (None, name)))
        raise typer.Exit(EXIT_OK if changed else EXIT_NEGATIVE)
    changes = diff.changes(only)
    for start in range(0, len(changes), 65536):
        part = changes[start : start + 65536]
        if json_out:
            out.write("".join(dumps_json({"word": w, "change": c}, ensure_ascii=False) + "\n" for w, c in part))
        elif only:
            out.write("".join(f"{w}\n" for w, _ in part))
        else:
            out.write("".join(f"{'+' if c == 'added' else '-'}{w}\n" for w, c in part))
    out.flush()
    if not json_out:
        typer.echo(
            f"{old_version.label} -> {new_version.label}: {len(diff.added):,} added, {len(diff.removed):,} removed "
            f"({old_version.count:,} -> {new_version.count:,} words)",
            err=True,
        )
    raise typer.Exit(EXIT_OK if changed else EXIT_NEGATIVE)
