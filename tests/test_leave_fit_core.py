"""Leave training's fitting kernels in the Rust core (issue 41): X'WX, X'Wy and the model's
predictions equal, to the last bit, the same sums written out in plain Python over the model's
features as docs/leaves.md defines them."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.equity import leaves as L
from literaki_cli.equity.train import _normal_equations, _predict


def features(counts: list[int], colour_of: list[int], vowel: list[int]) -> list[float]:
    """The model's features of one leave: tiles per kind, extra copies, both blanks, the
    vowel/consonant balance (up to MAX_LEAVE tiles), pairs of tiles of one colour."""
    x = [0.0] * L.N_FEATURES
    vowels = consonants = 0
    colours = [0] * L.MAX_COLOURS
    for slot, c in enumerate(counts):
        if c <= 0:
            continue
        x[L.F_TILE + slot] += c
        if slot == 0:  # the blank
            if c >= 2:
                x[L.F_BLANK_PAIR] += 1
            continue
        if c > 1:
            x[L.F_EXTRA + slot - 1] += c - 1
        if vowel[slot]:
            vowels += c
        else:
            consonants += c
        if colour_of[slot] >= 0:
            colours[colour_of[slot]] += c
    if vowels + consonants <= L.MAX_LEAVE:
        x[L.F_BALANCE + L.balance_index(vowels, consonants)] += 1
    for k, tiles in enumerate(colours):
        if tiles > 1:
            x[L.F_COLOUR_PAIRS + k] += tiles * (tiles - 1) // 2
    return x


leave_counts = st.lists(st.integers(0, L.N_SLOTS - 1), min_size=0, max_size=7).map(
    lambda slots: [slots.count(s) for s in range(L.N_SLOTS)]
)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.tuples(leave_counts, st.floats(0.1, 50), st.floats(-30, 30)), min_size=1, max_size=25),
    coef=st.lists(st.floats(-20, 20), min_size=L.N_FEATURES, max_size=L.N_FEATURES),
)
def test_the_normal_equations_and_predictions_are_the_plain_sums(rows, coef):
    table = L.open_leaves()
    colour_of, vowel = np.asarray(table.colour_of).tolist(), np.asarray(table.vowel).tolist()
    counts = np.array([r[0] for r in rows], dtype=np.int64)
    weights = np.array([r[1] for r in rows])
    targets = np.array([r[2] for r in rows])
    xtwx, xtwy = _normal_equations(counts, weights, targets, table.colour_of, table.vowel)
    want_xx = [[0.0] * L.N_FEATURES for _ in range(L.N_FEATURES)]
    want_xy = [0.0] * L.N_FEATURES
    for (leave, w, y) in rows:
        x = features(leave, colour_of, vowel)
        for a in range(L.N_FEATURES):
            if x[a] == 0.0:
                continue
            want_xy[a] += w * x[a] * y
            for b in range(L.N_FEATURES):
                want_xx[a][b] += w * x[a] * x[b]
    assert xtwx.tobytes() == np.array(want_xx).tobytes() and xtwy.tobytes() == np.array(want_xy).tobytes()
    predicted = _predict(counts, np.array(coef), table.colour_of, table.vowel)
    want = []
    for leave, _, _ in rows:
        total = 0.0
        for x, c in zip(features(leave, colour_of, vowel), coef, strict=True):
            total += x * c
        want.append(total)
    assert predicted.tobytes() == np.array(want).tobytes()
