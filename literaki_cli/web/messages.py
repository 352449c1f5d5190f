"""The API's messages in the board page's words: what the engine says to the command line (in
English, naming its options) said again in the page's language, naming only what the page has.

The page sends its language in the ``x-literaki-lang`` header; a script that sends none gets the
command line's own message.  Each message a position typed, pasted or played on the page can
meet is a pattern here and a text in the ``[board]`` tables of ``locales/pl.toml`` and
``locales/en.toml`` (``msg_`` + its name); a message of no pattern (a script's bad key, say)
keeps the command line's words."""

from __future__ import annotations

import re

#: (name, pattern): the first pattern found in a message gives its text ``msg_<name>``, filled
#: with the pattern's named groups.
PATTERNS: tuple[tuple[str, re.Pattern], ...] = tuple(
    (name, re.compile(pattern))
    for name, pattern in (
        ("too_many_tiles", r"(?P<count>\d+) x (?P<letter>\S+) on board and racks, the bag has (?P<have>\d+)"),
        ("too_many_blanks", r"(?P<count>\d+) blanks on board and racks, the bag has (?P<have>\d+)"),
        ("rack_too_long", r"rack (?P<rack>\d+) holds (?P<count>\d+) tiles, at most (?P<most>\d+)"),
        ("cut_off", r"tiles not connected to the tiles through (?P<start>[a-z]+\d+): (?P<squares>.+)$"),
        ("not_a_letter", r"'(?P<char>.)' is not a letter of the Polish alphabet"),
        ("no_tile", r"(?P<square>[a-z]+\d+): letter (?P<letter>\S+) has no tile in (?P<variant>\S+)"),
        ("unknown_variant", r"unknown variant (?P<name>'[^']*'|\"[^\"]*\")"),
        ("row_width", r"row (?P<row>\d+)(?: '[^']*')? (?:has|covers) (?P<count>\d+) squares, "
                      r"the board has (?P<width>\d+)"),
        ("unexpected", r"unexpected character (?P<char>'[^']*')"),
        # a position pasted: a board text, a CGP, a JSON position
        ("too_many_rows", r"more than (?P<rows>\d+) board rows"),
        ("row_too_long", r"row (?P<row>\d+)(?: '[^']*')? has more than (?P<columns>\d+) squares"),
        ("the_row_too_long", r"the row (?P<part>'[^']*') has more than (?P<columns>\d+) squares"),
        ("rows_count", r"(?:CGP board has )?(?P<count>\d+) (?:board )?rows, the board has (?P<rows>\d+)"),
        ("cgp_token", r"unexpected (?P<token>'[^']*') \(CGP writes empty squares as numbers\)"),
        ("cgp_run", r"(?P<token>'[^']*') is not a run of empty squares"),
        ("cgp_lines", r": CGP must be one line"),
        ("cgp_empty", r": empty CGP$"),
        ("json_deep", r"JSON nested too deeply for a position"),
        ("json_position", r"(?:not a valid JSON position|JSON position needs an object with a 'board' list|"
                          r"JSON '(?P<key>\w+)' must be)"),
        ("number", r"(?P<what>.+) (?P<text>'[^']*') is not a (?:signed )?whole number below"),
        ("no_rack", r"^no rack: give \"rack\""),
        ("too_large", r"the request body is larger than (?P<limit>[\d,]+) bytes"),
        ("file_empty", r"^(?P<source>[^:]+): the file is empty"),
        ("not_gcg_line", r"^(?P<source>[^:]+):(?P<line>\d+): .*: not a GCG line"),
        ("no_moves", r"^(?P<source>[^:]+): no moves \(no '>nick: \.\.\.' line\)"),
        ("not_text", r"^(?P<source>[^:]+):(?:\d+:)? (?:control character U\+[0-9A-F]+: a GCG file is text"
                     r"|not \S+ text)"),
        ("gcg_event", r"^(?P<source>[^:]+):(?P<line>\d+): '.*': expected "),
        ("job_running", r"a (?P<kind>\w+) job of this page is running"),
        ("no_job", r"^no job "),
        ("jobs_full", r"^the server runs (?P<running>\d+) jobs already \(at most (?P<most>\d+)\)"),
        ("stopping", r"^the server is stopping"),
        ("cannot_answer", r"^the server cannot answer: (?P<why>.+)$"),
        # a request's keys (the page sends them right; a page of the list asked too large, say)
        ("whole_number", r"^'(?P<key>\w+)' must be a whole number from (?P<low>[\d,]+) to (?P<high>[\d,]+), "
                         r"not (?P<value>.+)$"),
        ("at_least_one", r"^'(?P<key>\w+)' must be a whole number of at least 1, not (?P<value>.+)$"),
        ("true_or_false", r"^'(?P<key>\w+)' must be true or false, not (?P<value>.+)$"),
        ("text_key", r"^'(?P<key>\w+)' must be text, not (?P<value>.+)$"),
        ("seconds_key", r"^'(?P<key>\w+)' must be seconds (?:from 0|above 0) up to (?P<high>[\d.]+), "
                        r"not (?P<value>.+)$"),
        ("pattern_key", r"^'pattern' must be letters with \? \(one letter\) and \* \(any letters\), "
                        r"not (?P<value>.+)$"),
        ("choice_key", r"^'(?P<key>\w+)' must be (?P<choices>'[^,]+'(?:, '[^,]+')*(?: or '[^']+')?), "
                       r"not (?P<value>.+)$"),
        ("top_bound", r"^'top' must be at most (?P<most>\d+) here"),
        ("all_bound", r"^'all' is not answered here"),
        ("unknown_key", r"^unknown key (?P<key>'[^']*')"),
        ("rack_char", r"^rack (?P<rack>'[^']*'): character (?P<at>\d+) (?P<char>'[^']*') is not a Polish letter"),
        ("game_turn", r"is a game record: give \"turn\": N for the position before turn N \(1 to (?P<turns>\d+)\)"),
        ("no_turn", r"no turn (?P<turn>\S+): the game has (?P<turns>\d+) turns"),
        ("turn_value", r"^\"turn\" (?P<value>.+): give a turn number"),
        ("move_position", r"^(?P<value>'[^']*'): not a move position"),
        ("not_json", r"not valid JSON: (?P<why>.+)$"),
        ("words_list", r"^'words' must be a list of strings"),
        ("stop_level", r"^--stop (?P<value>\S+): the confidence is 95 or 99"),
        ("empty_key", r"^(?P<key>'[^']*') is empty$"),
        # the look-ahead's buttons (the page enables each only where it can run)
        ("endgame_bag", r"^--endgame needs an empty bag, and (?P<bag>\d+) tiles are still in it"),
        ("peg_bag", r"^--peg needs 1 or 2 tiles in the bag, and (?:the bag is empty|(?P<bag>\d+) are in it)"),
        ("two_players", r"^--(?:endgame|peg) solves two-player games; the position has (?P<players>\d+) players"),
        ("peg_exchange", r"^--peg: these rules allow an exchange with (?P<bag>\d+) tiles in the bag"),
        ("missing_key", r"^no (?P<key>'[^']*')$"),
    )
)


def page_message(message: str, lang: str | None) -> str:
    """``message`` as the page says it in ``lang`` (None: as the command line says it)."""
    if lang is None:
        return message
    from literaki_cli.web.api import board_texts

    texts = board_texts(lang)
    for name, pattern in PATTERNS:
        found = pattern.search(message)
        if found:
            fields = {k: v for k, v in found.groupdict().items() if v is not None}
            return texts[f"msg_{name}"].format(**fields)
    # a message of no pattern: the command line's words, less what names its options (the page has none)
    return _OPTION_HINT.sub("", message).strip()


#: A hint that names a command-line option: "(--lenient accepts it ...)", "; use --sim", "(or give --variant)".
_OPTION_HINT = re.compile(r"\s*\([^()]*--[a-z][^()]*\)|[;:,]\s*(?:use|give|try)\s+--[a-z][\w-]*[^;.]*")


__all__ = ["PATTERNS", "page_message"]
