"""``words``: search the lexicon for study (pattern, regex, anagram, subanagram, hooks), in
Polish alphabetical, length, probability or tile-point order; one word per line or JSON Lines."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import EXIT_NEGATIVE, EXIT_OK, LexiconOption, Output, RulesOption, app
from literaki_cli.errors import InputError
from literaki_cli.inputs import shown

WORDS_EPILOG = """\b
Examples:
  literaki words --pattern 'K?T*'               K, one letter, T, then anything
  literaki words '*RZ*' --length 5 --count      the pattern may stand alone
  literaki words --anagram KOTEŁA?              every word of all 7 tiles (? = blank)
  literaki words --subanagram ŻÓŁWIA? --order probability --limit 20
  literaki words --regex '^(prze|przy).*ść$' --order points
  literaki words --starts rz --ends ek --json   JSON Lines: word, length, probability_rank, points, hooks
  literaki words --hooks kot --extensions       front and back hooks, and the words containing KOT
  literaki words --pattern '*' --since old.lexicon --new-only   the words new since an older list

\b
Pattern: ? (or .) one letter, * any run of letters, \\[abc] one of, \\[^abc] none of, \\[a-ć] a range
in Polish order, a letter itself (case never matters); it matches the whole word.  --regex is a
Python regular expression matched anywhere in the word (anchor it with ^ and $).
"""

_WHOLE = re.compile(r"[+-]?[0-9](?:_?[0-9])*")
#: Where a number given is cut: more words or letters than any lexicon has, and still an int64.
_HUGE = 10**18


def _number(option: str, least: int, what: str):
    """Typer's parser of the whole-number option ``option``: one line naming the option and the
    value (exit 2) for a value that is no whole number or is below ``least``.  A number of any
    size is taken: past :data:`_HUGE` (a limit past every word, a length past the longest word)
    it is cut to it, which answers the same, so nothing of 10**30 reaches the compiled walk."""

    def parse(text: str) -> int:
        value = text.strip()
        if not _WHOLE.fullmatch(value):
            raise InputError(f"{option} {shown(text, 60)}: give a whole number")
        digits = value.lstrip("+-").replace("_", "").lstrip("0") or "0"
        number = min(int(digits), _HUGE) if len(digits) <= 19 else _HUGE  # int() takes 4,300 digits at most
        number = -number if value.startswith("-") else number
        if number < least:
            raise InputError(f"{option} {shown(value, 40, quote=False)}: give a number of {what}, at least {least}")
        return number

    return parse


ORDER_HELP = (
    "alpha (Polish alphabetical, the default), length (shortest first), probability (shortest first, "
    "most likely to be drawn from a full bag first), points (most tile points first)."
)


@app.command("words", epilog=WORDS_EPILOG)
def words_command(
    pattern_argument: Annotated[
        str | None, typer.Argument(metavar="PATTERN", help="The same as --pattern.", show_default=False)
    ] = None,
    pattern: Annotated[
        str | None, typer.Option("--pattern", "-p", help="Whole-word pattern: ? one letter, * any letters, [..].")
    ] = None,
    regex: Annotated[str | None, typer.Option("--regex", "-r", help="Python regular expression (re.search).")] = None,
    anagram: Annotated[
        str | None, typer.Option("--anagram", "-a", metavar="TILES", help="Words using all TILES (? = blank).")
    ] = None,
    subanagram: Annotated[
        str | None,
        typer.Option("--subanagram", "-s", metavar="TILES", help="Words of any 2 or more of TILES (? = blank)."),
    ] = None,
    contains: Annotated[
        str | None, typer.Option("--contains", metavar="LETTERS", help="Words containing LETTERS in a row.")
    ] = None,
    starts: Annotated[str | None, typer.Option("--starts", metavar="LETTERS", help="Words starting so.")] = None,
    ends: Annotated[str | None, typer.Option("--ends", metavar="LETTERS", help="Words ending so.")] = None,
    length: Annotated[
        int | None,
        typer.Option(
            "--length", "-n", metavar="N", parser=_number("--length", 1, "letters"), help="Words of N letters."
        ),
    ] = None,
    min_length: Annotated[
        int | None,
        typer.Option(
            "--min-length", metavar="N", parser=_number("--min-length", 1, "letters"), help="At least N letters."
        ),
    ] = None,
    max_length: Annotated[
        int | None,
        typer.Option(
            "--max-length", metavar="N", parser=_number("--max-length", 1, "letters"), help="At most N letters."
        ),
    ] = None,
    hooks: Annotated[
        list[str] | None,
        typer.Option("--hooks", metavar="WORD", help="Front and back hooks of WORD instead of a search (repeatable)."),
    ] = None,
    extensions: Annotated[
        bool, typer.Option("--extensions", "-e", help="With --hooks: every longer word containing WORD too.")
    ] = False,
    order: Annotated[str, typer.Option("--order", "-o", help=ORDER_HELP)] = "alpha",
    reverse: Annotated[bool, typer.Option("--reverse", help="Turn the order round.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="JSON Lines, one object per word.")] = False,
    details: Annotated[
        bool,
        typer.Option(
            "--details", "-d", help="Tab-separated: word, length, probability rank, points, front and back hooks."
        ),
    ] = False,
    count: Annotated[bool, typer.Option("--count", "-c", help="Print only how many words match.")] = False,
    limit: Annotated[
        int | None,
        typer.Option(
            metavar="N",
            parser=_number("--limit", 0, "words"),
            help="At most N words (with --extensions: N containing words; 0 = all).",
        ),
    ] = None,
    since: Annotated[
        Path | None,
        typer.Option(
            "--since", metavar="OLD", help="Mark words new since OLD (a lexicon file or an SJP dump) with '+'."
        ),
    ] = None,
    new_only: Annotated[bool, typer.Option("--new-only", help="With --since: only the words new since OLD.")] = False,
    popular: Annotated[bool, typer.Option("--popular", help="Search the popular subset instead.")] = False,
    variant: Annotated[
        str | None, typer.Option("--variant", help="Variant whose bag and tile points count (default: the lexicon's).")
    ] = None,
    rules: RulesOption = None,
    lexicon: LexiconOption = None,
) -> None:
    """Search the lexicon: patterns, anagrams, subanagrams, hooks; Zyzzyva-style word study.

    Every filter given must hold (they are ANDed).  Exit 0 when a word is found, 1 when none is, 2 on errors.
    """
    from literaki_cli.wordstudy.search import ORDERS, WordQuery

    if pattern_argument is not None and pattern is not None:
        raise InputError("give the pattern as an argument or as --pattern, not both")
    if order not in ORDERS:
        raise InputError(f"--order {shown(order, 60)}: choose one of {', '.join(ORDERS)}")
    if new_only and since is None:
        raise InputError("--new-only needs --since OLD")
    if json_out and details:
        raise InputError("give --json or --details, not both")
    query = WordQuery(
        pattern if pattern is not None else pattern_argument, regex, anagram, subanagram, contains, starts, ends,
        length, min_length, max_length,
    )  # fmt: skip
    if hooks:
        if not query.is_empty:
            raise InputError("--hooks lists a word's hooks; give it without search filters")
        _hooks_mode(hooks, extensions, json_out, limit, popular, lexicon)
        return
    if extensions:
        raise InputError("--extensions goes with --hooks WORD")
    query.check()  # bad input fails before the lexicon is opened
    display = _Shown(order, reverse, json_out, details, count, limit or None, since, new_only)
    raise typer.Exit(_search_mode(query, display, popular, variant, rules, lexicon))


def _open(lexicon: Path | None, popular: bool):
    from literaki_cli.engine.lexicon import Lexicon

    lex = Lexicon.open(lexicon)
    return lex, (lex.popular if popular else lex.words)


@dataclass(frozen=True)
class _Shown:
    """How the words found are shown."""

    order: str
    reverse: bool
    json_out: bool
    details: bool
    count: bool
    limit: int | None
    since: Path | None
    new_only: bool


def _search_mode(query, shown: _Shown, popular: bool, variant: str | None, rules: Path | None,
                 lexicon: Path | None) -> int:  # fmt: skip
    """Run the search and print its answer; the exit code."""
    from literaki_cli.wordstudy.search import WordFacts, order_words

    lex, word_set = _open(lexicon, popular)
    compiled = query.compile(word_set.max_length)  # for the lexicon's longest word: the smallest automaton
    marker = _since_marker(shown.since, lex) if shown.since is not None else None
    out = Output()
    if shown.count and marker is None:
        return _write_count(out, compiled.count(word_set), shown.json_out)
    walk_in_order = shown.order == "alpha" and not shown.reverse and marker is None
    words = compiled.words(word_set, shown.limit if walk_in_order else None, lex.meta["alphabet"])
    new = None
    if marker is not None:
        new = marker.new_flags(words, [True] * len(words))
        if shown.new_only:
            words = [w for w, is_new in zip(words, new, strict=True) if is_new]
            new = [True] * len(words)
    if shown.count:
        return _write_count(out, len(words), shown.json_out)
    needs_facts = shown.order in ("probability", "points") or shown.json_out or shown.details
    facts = WordFacts(word_set, _bag(lex, variant, rules)) if needs_facts else None
    if shown.order != "alpha" or shown.reverse:
        flags = dict(zip(words, new, strict=True)) if new is not None else None
        words = order_words(words, shown.order, facts, shown.reverse)
        new = [flags[w] for w in words] if flags is not None else None
    if shown.limit is not None:
        words = words[: shown.limit]
        new = new[: shown.limit] if new is not None else None
    if shown.json_out or shown.details:
        _write_records(out, facts, words, new, shown.json_out)
    else:
        marks = new if new is not None and not shown.new_only else [False] * len(words)
        for start in range(0, len(words), 65536):
            chunk = zip(words[start : start + 65536], marks[start : start + 65536], strict=True)
            out.write("".join(f"{w}+\n" if is_new else f"{w}\n" for w, is_new in chunk))
    return EXIT_OK if words else EXIT_NEGATIVE


def _write_count(out: Output, found: int, json_out: bool) -> int:
    out.write(json.dumps({"count": found}) + "\n" if json_out else f"{found}\n")
    return EXIT_OK if found else EXIT_NEGATIVE


def _write_records(out: Output, facts, words: list[str], new: list[bool] | None, json_out: bool) -> None:
    for start in range(0, len(words), 65536):
        part_new = new[start : start + 65536] if new is not None else None
        out.write(facts.lines(words[start : start + 65536], part_new, json_lines=json_out))


def _bag(lex, variant: str | None, rules: Path | None):
    from literaki_cli.engine.variant import builtin_variants, load_variant
    from literaki_cli.wordstudy.probability import TileBag

    if variant is None and rules is None:
        recorded = lex.meta.get("rules", {}).get("variant") if isinstance(lex.meta.get("rules"), dict) else None
        variant = recorded if recorded in builtin_variants() else "literaki"
    return TileBag.of(load_variant(variant or "literaki", rules))


def _since_marker(since: Path, lex):
    from literaki_cli.analysis.wordinput import lexicon_word_rules
    from literaki_cli.wordstudy.versions import NewSince

    return NewSince.open(since, lexicon_word_rules(lex.meta))


def _hooks_mode(words: list[str], extensions: bool, json_out: bool, limit: int | None, popular: bool,
                lexicon: Path | None) -> None:  # fmt: skip
    from literaki_cli.engine import alphabet
    from literaki_cli.wordstudy.search import containing, hooks_of

    normalized = []
    for word in words:
        norm = alphabet.normalize(word.strip())
        if not norm:
            raise InputError(f"--hooks {shown(word, 60)}: give a word of letters")
        for i, ch in enumerate(norm, 1):
            if ch not in alphabet.CODE_OF:
                raise InputError(
                    f"--hooks {shown(word, 60)}: character {i} {ch!r} is not a letter (give a word of letters)"
                )
        normalized.append(norm)
    _, word_set = _open(lexicon, popular)
    out = Output()
    shown_limit = (limit or None) if json_out else (20 if limit is None else limit or None)
    for word, (front, back) in zip(normalized, hooks_of(word_set, normalized), strict=True):
        record: dict = {"word": word, "front_hooks": front, "back_hooks": back}
        longer = containing(word_set, word) if extensions else None
        if longer is not None:
            record |= {"containing_count": len(longer), "containing": longer[:shown_limit]}
        if json_out:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            continue
        lines = [word, f"  front hooks: {' '.join(front) or '-'}", f"  back hooks:  {' '.join(back) or '-'}"]
        if longer is not None:
            listed = longer[:shown_limit]
            more = len(longer) - len(listed)
            lines.append(
                f"  in {len(longer):,} longer words: {' '.join(listed) or '-'}" + (f" … (+{more:,})" if more else "")
            )
        out.write("\n".join(lines) + "\n")
