"""Word filters as one deterministic automaton over letter codes, so the graph walk can prune.

``literaki words`` ANDs its filters: a pattern (``K?T*``, ``*RZ*``), a regular expression, the
letters a word contains, starts or ends with.  Each becomes a small nondeterministic automaton
(Thompson's construction) and all of them are determinised *together* (the subset construction
over tuples of state sets is their product), then every state from which no accepting state can
be reached is merged into the dead state 0.  The walk of the word graph stops on a branch as
soon as the automaton is dead, so ``K?T*`` visits one letter's subtree and ``*RZ*`` (which never
dies) visits every word once.

Regular expressions use Python's syntax, read by Python's own parser (``re._parser``), with
``re.search`` semantics on the lower-case word (case never matters).  Anchors are zero-width
conditions on epsilon moves: ``^``/``\\A`` only before the first letter, ``$``/``\\Z`` only after the
last, ``\\b`` at either end, ``\\B`` between two letters.  Back-references, look-arounds, atomic
groups and possessive repeats are not regular: :class:`NotRegular` is raised and the caller
filters with ``re`` instead.

A filter no word of the lexicon can meet because it needs more letters than the longest word
(``--contains`` of 10,000 letters, a pattern of 100,000 ``?``) compiles at once into the dead
automaton: nothing is built for it, so no input makes the subset construction slow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.errors import InputError
from literaki_cli.inputs import shown

try:  # Python 3.11+: the parser behind ``re``
    from re import _constants as sre
    from re import _parser as sre_parse
except ImportError:  # pragma: no cover - older layouts
    import sre_constants as sre  # type: ignore[no-redef]
    import sre_parse  # type: ignore[no-redef]

#: Columns of a transition table: letter codes 1..35 (column 0 unused).
WIDTH = alphabet.MAX_CODE + 1
#: Every letter code, as a bit set (bit ``code``).
ALL_LETTERS = sum(1 << code for code in alphabet.LETTER_OF)
#: Conditions on an epsilon move: always, at the word's start, at its end, at either, between letters.
ALWAYS, AT_START, AT_END, AT_BOUNDARY, NOT_BOUNDARY = range(5)
#: Determinised automata larger than this are refused (a pattern no player writes).
MAX_DFA_STATES = 20_000
MAX_NFA_STATES = 50_000
#: Nondeterministic states the subset construction may visit in all (a few seconds of work; the
#: largest automata of sensible filters take a tenth of it): past this, the search is too complex.
MAX_CLOSURE_WORK = 10_000_000
#: Levels of nesting of a filter's syntax tree (a regex group is two or three): the automaton is
#: built by recursion, which must stay well inside Python's limit.
MAX_NESTING = 200
#: Characters of a value an error message quotes whole; a longer one is cut and its length said.
QUOTED_CHARS = 60

# The filters' syntax tree: ("set", mask) one letter of the set; ("cat", [nodes]); ("alt", [nodes]);
# ("rep", node, min, max or None); ("assert", condition) a zero-width condition.
Node = tuple


class NotRegular(Exception):
    """A regular expression using a feature no finite automaton has (a back-reference, a look-around)."""


def quoted(text: str) -> str:
    """``text`` as an error message quotes it: its repr, cut short (with its length) when long,
    so that a pasted page of text still gives one short line."""
    return shown(text, QUOTED_CHARS)


def too_complex() -> InputError:
    """The refusal of a filter whose automaton would be too large or too slow to build."""
    return InputError("the search is too complex (too many automaton states); simplify the pattern")


def letter_bit(ch: str) -> int:
    """The bit of letter ``ch`` (either case), 0 for a character that is no letter."""
    code = alphabet.CODE_OF.get(ch.lower())
    return 1 << code if code else 0


def letters_mask(letters: str) -> int:
    """The bit set of the (lower-case) letters of ``letters``."""
    mask = 0
    for ch in letters:
        mask |= letter_bit(ch)
    return mask


def any_run() -> Node:
    """Any run of letters, the empty one included (``*`` of a pattern, ``.*`` of a regex)."""
    return ("rep", ("set", ALL_LETTERS), 0, None)


# --------------------------------------------------------------------------- patterns


def parse_pattern(text: str, where: str = "--pattern") -> Node:
    """A Zyzzyva-style pattern matched against the whole word: ``?`` (or ``.``) one letter, ``*``
    any run of letters (none too), ``[abc]`` one of these letters, ``[^abc]`` (or ``[!abc]``) any
    other, ``[a-ć]`` a range in Polish alphabetical order, a letter itself (either case)."""
    pattern = alphabet.normalize(text.strip())
    if not pattern:
        raise InputError(f"{where} {quoted(text)}: empty pattern")
    items: list[Node] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch in "?.":
            items.append(("set", ALL_LETTERS))
        elif ch == "*":
            if not items or items[-1] != any_run():  # '**' is '*'
                items.append(any_run())
        elif ch == "[":
            close = pattern.find("]", i + 1)
            if close < 0:
                raise InputError(f"{where} {quoted(text)}: '[' at character {i + 1} has no closing ']'")
            items.append(("set", _pattern_class(pattern[i + 1 : close], text, where)))
            i = close
        elif ch in alphabet.CODE_OF:
            items.append(("set", letter_bit(ch)))
        else:
            raise InputError(f"{where} {quoted(text)}: character {i + 1} {ch!r} is not a letter, '?', '*' or '[...]'")
        i += 1
    return ("cat", items)


def _pattern_class(body: str, text: str, where: str) -> int:
    negate = body[:1] in ("^", "!")
    if negate:
        body = body[1:]
    if not body:
        raise InputError(f"{where} {quoted(text)}: an empty letter class '[]'")
    mask = 0
    i = 0
    while i < len(body):
        ch = body[i]
        if ch not in alphabet.CODE_OF:
            raise InputError(f"{where} {quoted(text)}: {ch!r} in a letter class is not a letter")
        if i + 2 < len(body) and body[i + 1] == "-":
            last = body[i + 2]
            if last not in alphabet.CODE_OF or alphabet.CODE_OF[last] < alphabet.CODE_OF[ch]:
                raise InputError(f"{where} {quoted(text)}: bad letter range {ch}-{last}")
            for code in range(alphabet.CODE_OF[ch], alphabet.CODE_OF[last] + 1):
                mask |= 1 << code
            i += 3
            continue
        mask |= letter_bit(ch)
        i += 1
    return ALL_LETTERS & ~mask if negate else mask


def literal(letters: str, where: str) -> Node:
    """The exact letters of ``--contains``/``--starts``/``--ends``: letters only, never empty."""
    word = alphabet.normalize(letters.strip())
    if not word:
        raise InputError(f"{where} {quoted(letters)}: empty")
    for i, ch in enumerate(word, 1):
        if ch not in alphabet.CODE_OF:
            raise InputError(f"{where} {quoted(letters)}: character {i} {ch!r} is not a letter")
    return ("cat", [("set", letter_bit(ch)) for ch in word])


def contains(letters: str, where: str = "--contains") -> Node:
    return ("cat", [any_run(), literal(letters, where), any_run()])


def starts_with(letters: str, where: str = "--starts") -> Node:
    return ("cat", [literal(letters, where), any_run()])


def ends_with(letters: str, where: str = "--ends") -> Node:
    return ("cat", [any_run(), literal(letters, where)])


# --------------------------------------------------------------------------- regular expressions

_CATEGORY_ALL = {"CATEGORY_WORD", "CATEGORY_UNI_WORD", "CATEGORY_LOC_WORD", "CATEGORY_NOT_DIGIT",
                 "CATEGORY_UNI_NOT_DIGIT", "CATEGORY_NOT_SPACE", "CATEGORY_UNI_NOT_SPACE",
                 "CATEGORY_NOT_LINEBREAK", "CATEGORY_UNI_NOT_LINEBREAK"}  # fmt: skip
_AT_CONDITIONS = {
    "AT_BEGINNING": AT_START,
    "AT_BEGINNING_STRING": AT_START,
    "AT_BEGINNING_LINE": AT_START,
    "AT_END": AT_END,
    "AT_END_STRING": AT_END,
    "AT_END_LINE": AT_END,
    "AT_BOUNDARY": AT_BOUNDARY,
    "AT_UNI_BOUNDARY": AT_BOUNDARY,
    "AT_LOC_BOUNDARY": AT_BOUNDARY,
    "AT_NON_BOUNDARY": NOT_BOUNDARY,
    "AT_UNI_NON_BOUNDARY": NOT_BOUNDARY,
    "AT_LOC_NON_BOUNDARY": NOT_BOUNDARY,
}


def parse_regex(text: str, where: str = "--regex") -> Node:
    """A Python regular expression with ``re.search`` semantics (a match anywhere in the word
    unless anchored), case-insensitive.  :class:`InputError` for bad syntax, :class:`NotRegular`
    for a feature beyond finite automata."""
    source = alphabet.normalize_case_keeping(text)
    if not source:
        raise InputError(f"{where} '': empty (give '.' for every word)")
    try:
        parsed = sre_parse.parse(source, 0)
        re.compile(source, re.IGNORECASE)  # errors the parser leaves to the compiler
        body = _regex_node(parsed)
    except (re.error, OverflowError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else exc
        raise InputError(f"{where} {quoted(text)}: {reason}") from None
    if _depth(body) > MAX_NESTING:
        raise InputError(f"{where} {quoted(text)}: nested too deeply")
    return ("cat", [any_run(), body, any_run()])


def _depth(node: Node) -> int:
    """How deep the syntax tree ``node`` is (counted without recursion)."""
    deepest = 0
    stack = [(node, 1)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if item[0] in ("cat", "alt"):
            stack.extend((child, depth + 1) for child in item[1])
        elif item[0] == "rep":
            stack.append((item[1], depth + 1))
    return deepest


def _regex_node(items) -> Node:
    nodes = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            nodes.append(("set", letter_bit(chr(arg))))
        elif name == "NOT_LITERAL":
            nodes.append(("set", ALL_LETTERS & ~letter_bit(chr(arg))))
        elif name == "ANY":
            nodes.append(("set", ALL_LETTERS))
        elif name == "IN":
            nodes.append(("set", _regex_class(arg)))
        elif name == "BRANCH":
            nodes.append(("alt", [_regex_node(branch) for branch in arg[1]]))
        elif name == "SUBPATTERN":
            nodes.append(_regex_node(arg[-1]))
        elif name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, body = arg
            nodes.append(("rep", _regex_node(body), low, None if high == sre.MAXREPEAT else high))
        elif name == "AT" and str(arg) in _AT_CONDITIONS:
            nodes.append(("assert", _AT_CONDITIONS[str(arg)]))
        else:
            raise NotRegular(name.lower())
    return ("cat", nodes)


def _regex_class(items) -> int:
    """The letters a ``[...]`` class (or ``\\w``...) matches, case-insensitively."""
    mask = 0
    negate = False
    for op, arg in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            mask |= letter_bit(chr(arg))
        elif name == "RANGE":
            low, high = arg
            for letter, code in alphabet.CODE_OF.items():
                if low <= ord(letter) <= high or low <= ord(letter.upper()) <= high:
                    mask |= 1 << code
        elif name == "CATEGORY":
            mask |= ALL_LETTERS if str(arg) in _CATEGORY_ALL else 0
        else:
            raise NotRegular(name.lower())
    return ALL_LETTERS & ~mask if negate else mask


# --------------------------------------------------------------------------- automata


@dataclass
class Nfa:
    """A nondeterministic automaton: letter moves (bit set, target) and epsilon moves
    (condition, target) per state."""

    letter_moves: list[list[tuple[int, int]]]
    epsilon_moves: list[list[tuple[int, int]]]
    start: int
    final: int


class _Builder:
    """Thompson's construction; repeat counts are capped at one more than the longest word,
    which changes nothing for words that short."""

    def __init__(self, longest: int) -> None:
        self.letter_moves: list[list[tuple[int, int]]] = []
        self.epsilon_moves: list[list[tuple[int, int]]] = []
        self.cap = longest + 1

    def state(self) -> int:
        if len(self.letter_moves) >= MAX_NFA_STATES:
            raise too_complex()
        self.letter_moves.append([])
        self.epsilon_moves.append([])
        return len(self.letter_moves) - 1

    def fragment(self, node: Node) -> tuple[int, int]:
        kind = node[0]
        start = self.state()
        if kind == "set":
            end = self.state()
            if node[1]:
                self.letter_moves[start].append((node[1], end))
            return start, end
        if kind == "assert":
            end = self.state()
            self.epsilon_moves[start].append((node[1], end))
            return start, end
        if kind == "cat":
            end = start
            for child in node[1]:
                s, e = self.fragment(child)
                self.epsilon_moves[end].append((ALWAYS, s))
                end = e
            return start, end
        if kind == "alt":
            end = self.state()
            for child in node[1]:
                s, e = self.fragment(child)
                self.epsilon_moves[start].append((ALWAYS, s))
                self.epsilon_moves[e].append((ALWAYS, end))
            return start, end
        if kind == "rep":
            _, child, low, high = node
            low = min(low, self.cap)
            high = None if high is None or high > self.cap else high
            end = start
            for _ in range(low):
                s, e = self.fragment(child)
                self.epsilon_moves[end].append((ALWAYS, s))
                end = e
            if high is None:
                s, e = self.fragment(child)
                self.epsilon_moves[end].append((ALWAYS, s))
                self.epsilon_moves[e].append((ALWAYS, end))
                return start, end
            last = self.state()
            self.epsilon_moves[end].append((ALWAYS, last))
            for _ in range(high - low):
                s, e = self.fragment(child)
                self.epsilon_moves[end].append((ALWAYS, s))
                self.epsilon_moves[e].append((ALWAYS, last))
                end = e
            return start, last
        raise ValueError(f"unknown node {kind!r}")


def build_nfa(node: Node, longest: int = 64) -> Nfa:
    builder = _Builder(longest)
    try:
        start, final = builder.fragment(node)
    except RecursionError:
        raise too_complex() from None
    return Nfa(builder.letter_moves, builder.epsilon_moves, start, final)


def fewest_letters(node: Node) -> int:
    """The fewest letters a word must have for ``node`` to accept it (a lower bound: a letter
    set that matches nothing counts as one letter)."""
    kind = node[0]
    if kind == "set":
        return 1
    if kind == "assert":
        return 0
    if kind == "cat":
        return sum(fewest_letters(child) for child in node[1])
    if kind == "alt":
        return min((fewest_letters(child) for child in node[1]), default=0)
    if kind == "rep":
        return node[2] * fewest_letters(node[1]) if node[2] else 0
    raise ValueError(f"unknown node {kind!r}")


def dead() -> Dfa:
    """The automaton that accepts no word."""
    return Dfa(np.zeros((2, WIDTH), dtype=np.int32), np.zeros(2, dtype=np.bool_))


@dataclass(frozen=True)
class Dfa:
    """A deterministic automaton over letter codes: ``table[state, code]`` is the next state
    (0 = dead: no word can be completed), the start is state 1, ``accepting[state]`` says whether
    a word may end there."""

    table: np.ndarray  # int32 [states, WIDTH]
    accepting: np.ndarray  # bool [states]

    @property
    def start(self) -> int:
        return 1

    @property
    def states(self) -> int:
        return int(self.table.shape[0])

    def matches(self, word: str) -> bool:
        """Whether the automaton accepts ``word`` (normalised): the reference the tests use."""
        state = 1
        for ch in word:
            code = alphabet.CODE_OF.get(ch)
            if code is None:
                return False
            state = int(self.table[state, code])
            if state == 0:
                return False
        return bool(word) and bool(self.accepting[state])


def _allowed(condition: int, at_start: bool, at_end: bool) -> bool:
    if condition == ALWAYS:
        return True
    if condition == AT_START:
        return at_start
    if condition == AT_END:
        return at_end
    if condition == AT_BOUNDARY:
        return at_start or at_end
    return not at_start and not at_end


def _closure(nfa: Nfa, states: frozenset[int], at_start: bool, at_end: bool, work: list[int]) -> frozenset[int]:
    """The states reachable from ``states`` by epsilon moves allowed there; ``work[0]`` counts
    the states visited, against :data:`MAX_CLOSURE_WORK`."""
    seen = set(states)
    stack = list(states)
    while stack:
        state = stack.pop()
        for condition, target in nfa.epsilon_moves[state]:
            if target not in seen and _allowed(condition, at_start, at_end):
                seen.add(target)
                stack.append(target)
    work[0] += len(seen)
    if work[0] > MAX_CLOSURE_WORK:
        raise too_complex()
    return frozenset(seen)


def compile_filters(nodes: list[Node], longest: int = 64) -> Dfa:
    """One automaton accepting exactly the words every node accepts (no node: every word).

    A node that needs more than ``longest`` letters accepts no word that short: the answer is
    the dead automaton, found before anything is built (so its size costs nothing)."""
    try:
        beyond = any(fewest_letters(node) > longest for node in nodes)
    except RecursionError:
        raise too_complex() from None
    if beyond:
        return dead()
    nfas = [build_nfa(node, longest) for node in nodes]
    # A state is (before the first letter?, one raw state set per automaton); the closure is
    # taken when stepping (the word goes on) or when accepting (the word ends here).
    initial = (True, tuple(frozenset({nfa.start}) for nfa in nfas))
    ids: dict[tuple, int] = {initial: 1}
    order = [initial]
    rows: list[list[int]] = []
    accepting: list[bool] = []
    step_cache: dict[tuple[int, bool, frozenset[int]], list[frozenset[int]]] = {}
    work = [0]

    def moves(i: int, at_start: bool, raw: frozenset[int]) -> list[frozenset[int]]:
        key = (i, at_start, raw)
        if key not in step_cache:
            nfa = nfas[i]
            by_mask: dict[int, list[int]] = {}
            for state in _closure(nfa, raw, at_start, False, work):
                for mask, target in nfa.letter_moves[state]:
                    by_mask.setdefault(mask, []).append(target)
            # The letters that lie in the same masks step to the same set: one union for each.
            classes: dict[tuple[int, ...], list[int]] = {}
            for code in range(1, WIDTH):
                classes.setdefault(tuple(mask for mask in by_mask if mask >> code & 1), []).append(code)
            targets: list[frozenset[int]] = [frozenset()] * WIDTH
            for masks, codes in classes.items():
                step = frozenset().union(*(by_mask[mask] for mask in masks))
                for code in codes:
                    targets[code] = step
            step_cache[key] = targets
        return step_cache[key]

    position = 0
    while position < len(order):
        at_start, raws = order[position]
        position += 1
        per_nfa = [moves(i, at_start, raw) for i, raw in enumerate(raws)]
        row = [0] * WIDTH
        for code in range(1, WIDTH):
            nxt = tuple(m[code] for m in per_nfa)
            if not all(nxt):
                continue
            key = (False, nxt)
            if key not in ids:
                if len(ids) >= MAX_DFA_STATES:
                    raise too_complex()
                ids[key] = len(ids) + 1
                order.append(key)
            row[code] = ids[key]
        rows.append(row)
        ends_here = all(nfa.final in _closure(nfa, raw, False, True, work) for nfa, raw in zip(nfas, raws, strict=True))
        accepting.append(not at_start and ends_here)
    return _pruned(rows, accepting)


def _pruned(rows: list[list[int]], accepting: list[bool]) -> Dfa:
    """The automaton with every state that cannot reach acceptance merged into dead state 0
    (state ids of ``rows`` start at 1)."""
    n = len(rows)
    predecessors: list[set[int]] = [set() for _ in range(n + 1)]
    for state, row in enumerate(rows, 1):
        for target in row:
            if target:
                predecessors[target].add(state)
    live = {state for state in range(1, n + 1) if accepting[state - 1]}
    stack = list(live)
    while stack:
        for before in predecessors[stack.pop()]:
            if before not in live:
                live.add(before)
                stack.append(before)
    new_id = {1: 1}
    for state in range(2, n + 1):
        if state in live:
            new_id[state] = len(new_id) + 1
    table = np.zeros((len(new_id) + 1, WIDTH), dtype=np.int32)
    accepts = np.zeros(len(new_id) + 1, dtype=np.bool_)
    for state, sid in new_id.items():
        if state not in live:  # the start itself, when nothing can be accepted: a dead row
            continue
        for code, target in enumerate(rows[state - 1]):
            if target in live:
                table[sid, code] = new_id[target]
        accepts[sid] = accepting[state - 1]
    return Dfa(table, accepts)
