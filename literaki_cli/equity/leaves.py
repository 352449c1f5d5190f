"""Leave values: what the tiles a move keeps are worth, in points, learned from self-play.

A *leave* is a multiset of 1..6 tiles.  Its key is its tiles sorted by letter code (the blank,
slot 0, first), each as a 6-bit digit ``code + 1``: at most 36 bits, so one int64, and
the empty leave is 0.  A leave file holds

* the leaves seen often enough in training, as sorted keys and their (shrunk) values, and
* a parametric model that values every other leave: per-tile values, copies beyond the first
  of a letter, both blanks, the vowel/consonant balance (one value per pair of counts) and
  pairs of tiles of one colour (Literaki's colour squares reward tiles of one colour).

Lookups run compiled over the generator's move arrays (:func:`move_leave_values`): per move,
the leave's counts, a binary search among the keys, the model when the leave is not there.

File format (``FORMAT``, version ``FORMAT_VERSION``): a NumPy ``.npz`` archive (no pickles)
with arrays ``keys`` (int64, ascending), ``values`` (float32), ``coef`` (float64, one per model
feature), ``colour_of`` and ``vowel`` (int64 per tile slot) and ``meta`` (a JSON string: format,
version, variant, how it was trained).  Everything a lookup needs is in the file, so a leave file
learned for one tile set can be read without its variant.
"""

from __future__ import annotations

import io
import math
import os
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from literaki_cli.datafiles import chosen_file
from literaki_cli.engine import alphabet
from literaki_cli.engine.movegen import BLANK_SLOT, core_call, rack_counts
from literaki_cli.engine.position import BLANK
from literaki_cli.errors import InputError, message_of, said
from literaki_cli.inputs import dumps_json, loads_json, read_input_bytes, shown
from literaki_cli.outputs import write_atomically

FORMAT = "literaki-leaves"
FORMAT_VERSION = 1
#: The longest leave with a value (a rack of 7 keeps at most 6 tiles after a move).
MAX_LEAVE = 6
#: Tile slots: the blank (slot 0) and the 32 Polish letters (codes 1..32).
N_SLOTS = alphabet.ALPHABET_SIZE + 1
MAX_COLOURS = 8
#: The environment variable naming a leave file to use instead of the shipped one.
ENV_VAR = "LITERAKI_LEAVES"
#: The leave values shipped with the package (learned for Literaki; see docs/leaves.md).
SHIPPED = Path(__file__).with_name("literaki.leaves")

# Layout of the model's feature vector.
F_TILE = 0  # N_SLOTS: how many of each tile (blank, a .. ż)
F_EXTRA = F_TILE + N_SLOTS  # 32: copies of a letter beyond the first
F_BLANK_PAIR = F_EXTRA + alphabet.ALPHABET_SIZE  # 1: both blanks kept
F_BALANCE = F_BLANK_PAIR + 1  # 28: one-hot of (vowels, consonants), vowels + consonants <= 6
N_BALANCE = (MAX_LEAVE + 1) * (MAX_LEAVE + 2) // 2
F_COLOUR_PAIRS = F_BALANCE + N_BALANCE  # MAX_COLOURS: pairs of letters of one colour
N_FEATURES = F_COLOUR_PAIRS + MAX_COLOURS
#: The model's layout as the Rust core takes it (rust/src/leaves.rs, ``Layout``).
CORE_LAYOUT = (N_SLOTS, MAX_LEAVE, MAX_COLOURS, F_TILE, F_EXTRA, F_BLANK_PAIR, F_BALANCE, F_COLOUR_PAIRS)
#: At most this many features of a leave of up to MAX_LEAVE tiles are non-zero (each tile kind,
#: its extra copies, both blanks, the balance, the colours with pairs).
MAX_TERMS = 2 * MAX_LEAVE + 2 + MAX_COLOURS


def balance_index(vowels: int, consonants: int) -> int:
    """Position of (vowels, consonants) among the pairs with a sum of at most ``MAX_LEAVE``."""
    return (MAX_LEAVE + 1) * vowels - vowels * (vowels - 1) // 2 + consonants


def leave_key(counts: np.ndarray) -> int:
    """The key of the leave with these tile counts (slot 0 = blanks): 6-bit digits slot + 1, the
    lowest slot most significant; -1 when it is longer than ``MAX_LEAVE`` (no value is stored
    for it).  The Rust core has its twin (``rust/src/leaves.rs``)."""
    key = size = 0
    for slot in range(N_SLOTS):
        for _ in range(int(counts[slot])):
            key, size = key * 64 + slot + 1, size + 1
    return -1 if size > MAX_LEAVE else key


# --------------------------------------------------------------------------- the table


@dataclass
class LeaveTable:
    """A leave file in memory: learned values and the model behind them."""

    keys: np.ndarray
    values: np.ndarray
    coef: np.ndarray
    colour_of: np.ndarray
    vowel: np.ndarray
    meta: dict = field(default_factory=dict)
    source: str = ""

    @cached_property
    def core(self):
        """The table in the Rust core (``_core.LeaveModel``), which values a rack's leaves."""
        from literaki_cli import _core

        layout = CORE_LAYOUT
        arrays = [np.ascontiguousarray(a, dtype=t) for a, t in ((self.keys, np.int64), (self.values, np.float64),
                  (self.coef, np.float64), (self.colour_of, np.int64), (self.vowel, np.int64))]  # fmt: skip
        return core_call(_core.LeaveModel, layout, *arrays)

    def __len__(self) -> int:
        return int(self.keys.shape[0])

    def value(self, leave: str) -> float:
        """The value of a leave ('?' = blank; order and case do not matter)."""
        return float(core_call(self.core.value, leave_counts(leave)))

    def learned(self, leave: str) -> bool:
        """Whether the file holds a learned value for ``leave`` (else the model gives it)."""
        key = leave_key(leave_counts(leave))  # plain Python: a handful of tiles
        i = int(np.searchsorted(self.keys, key))
        return key > 0 and i < len(self) and int(self.keys[i]) == key

    def model(self, leave: str) -> float:
        """The parametric model's value of ``leave`` (what rare leaves get)."""
        if not leave:
            return 0.0
        return float(core_call(self.core.model, leave_counts(leave)))

    def save(self, path: Path) -> None:
        """Write the file (atomically: a reader never sees half of it, and a write that fails
        leaves nothing behind).  The bytes are checked as :func:`load_leaves` checks a file
        first, so a file literaki cannot read is never written (InputError naming ``path``)."""
        path = Path(path)
        try:
            check_values(path, "values", np.asarray(self.values))
            check_values(path, "coef", np.asarray(self.coef))
        except InputError as e:
            raise _not_written(path, e) from None
        try:
            meta = dumps_json({"format": FORMAT, "version": FORMAT_VERSION} | self.meta, ensure_ascii=False)
        except (ValueError, TypeError) as e:  # a NaN, an infinity or a value JSON has no word for
            raise InputError(said("{source}: not written: the metadata is not strict JSON ({error})", source=path,
                                  error=str(e))) from None
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer, keys=np.asarray(self.keys).astype(np.int64), values=np.asarray(self.values).astype(np.float32),
            coef=np.asarray(self.coef).astype(np.float64), colour_of=np.asarray(self.colour_of).astype(np.int64),
            vowel=np.asarray(self.vowel).astype(np.int64), meta=np.array(meta),
        )  # fmt: skip
        data = buffer.getvalue()
        try:
            _table_of(_arrays_of(data, path), path)
        except InputError as e:
            raise _not_written(path, e) from None
        write_atomically(path, data, said("leave file"), example=LEAVE_FILE_EXAMPLE)


#: The file name an error suggests for a leave file written to a folder.
LEAVE_FILE_EXAMPLE = "my.leaves"


def leave_counts(leave: str) -> np.ndarray:
    """Tile counts of a leave written as letters ('?' = blank), in any order and case."""
    normal = alphabet.normalize(leave.strip())
    for ch in normal:
        if ch != BLANK and not alphabet.is_polish_letter(ch):
            raise InputError(said(
                "leave {leave}: {char!r} is not a tile (letters of the Polish alphabet, '?' for a blank)",
                leave=shown(leave), char=ch,
            ))
    if len(normal) > MAX_LEAVE:
        raise InputError(said("leave {leave}: {count} tiles; a leave has at most {most}", leave=shown(leave),
                              count=len(normal), most=MAX_LEAVE))
    return rack_counts(normal)


def counts_text(counts: np.ndarray) -> str:
    """The leave of these counts as text, blanks last ('?'), letters in Polish order."""
    letters = "".join(alphabet.LETTER_OF[slot] * int(counts[slot]) for slot in range(1, N_SLOTS))
    return letters + BLANK * int(counts[BLANK_SLOT])


def tile_classes(variant) -> tuple[np.ndarray, np.ndarray]:
    """``colour_of`` and ``vowel`` per tile slot for a variant's tile set (the model's inputs)."""
    colours = sorted(set(t.colour for t in variant.tiles.values()), key=lambda c: (variant.colours.get(c, 0), c))
    if len(colours) > MAX_COLOURS:
        raise InputError(said("{variant}: {count} tile colours; leave values handle at most {most}",
                              variant=variant.name, count=len(colours), most=MAX_COLOURS))
    colour_of = np.full(N_SLOTS, -1, dtype=np.int64)
    vowel = np.zeros(N_SLOTS, dtype=np.int64)
    for letter, tile in variant.tiles.items():
        code = alphabet.CODE_OF[letter]
        if code < N_SLOTS:
            colour_of[code] = colours.index(tile.colour)
            vowel[code] = letter in alphabet.VOWELS
    return colour_of, vowel


def _bad(path: Path | str, why: str) -> InputError:
    return InputError(said("{source}: not a usable leave file ({why})", source=path, why=why))


def _not_written(path: Path, error: InputError) -> InputError:
    """The error of a leave file not written to ``path`` as its bytes would make ``error`` (of
    :func:`_bad`) when read back."""
    why = getattr(message_of(error), "fields", {}).get("why")
    if why is None:
        return InputError(said("{source}: not written: {error}", source=path,
                               error=str(error).removeprefix(f"{path}: ")))
    return InputError(said("{source}: not written: not a usable leave file ({why})", source=path, why=why))


#: The arrays of a leave file, each a member ``NAME.npy`` of the archive.
ARRAY_NAMES = ("keys", "values", "coef", "colour_of", "vowel", "meta")
#: Every leave of 1..MAX_LEAVE tiles of the N_SLOTS kinds: no file can store more.
MAX_STORED_LEAVES = sum(math.comb(N_SLOTS + k - 1, k) for k in range(1, MAX_LEAVE + 1))
#: Bytes a leave file may have (the shipped one has 57 KB; every possible leave stored, about 20 MB).
MAX_LEAVE_FILE_BYTES = 64 << 20
#: Bytes one array of a leave file may hold once decompressed (the keys of every possible leave: 26 MB).
MAX_ARRAY_BYTES = 8 * MAX_STORED_LEAVES + 4096
#: Characters the metadata of a leave file may have (a few hundred are written).
MAX_META_CHARS = 1 << 20
#: Points a leave value and a model coefficient may be worth, either way: no leave is worth more
#: than a few dozen points (the shipped file's largest is 31), so anything past this is a broken file.
MAX_LEAVE_VALUE = 1000.0


def _read_array(path: Path | str, archive: zipfile.ZipFile, name: str) -> np.ndarray:
    """The array ``name`` of the archive, its .npy header checked against the member's size
    before anything is allocated (a header can declare a trillion values)."""
    try:
        info = archive.getinfo(f"{name}.npy")
    except KeyError:
        raise _bad(path, said("array {name!r} missing", name=name)) from None
    if info.flag_bits & 0x1:
        raise _bad(path, said("array {name!r} is encrypted", name=name))
    if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise _bad(path, said("array {name!r} is compressed with method {method}, not deflate", name=name,
                              method=info.compress_type))
    if info.file_size > MAX_ARRAY_BYTES:
        raise _bad(path, said("array {name!r} has {count:,} bytes; a leave file's arrays have at most {most:,}",
                              name=name, count=info.file_size, most=MAX_ARRAY_BYTES))
    with archive.open(info) as stream:
        try:
            version = np.lib.format.read_magic(stream)
            if version == (1, 0):
                shape, fortran_order, dtype = np.lib.format.read_array_header_1_0(stream)
            elif version == (2, 0):
                shape, fortran_order, dtype = np.lib.format.read_array_header_2_0(stream)
            else:
                raise ValueError(f"format version {version} of .npy, not 1.0 or 2.0")
        except Exception as e:  # NumPy parses the header with ast and tokenize: any of their errors
            raise _bad(path, said("array {name!r}: {error}", name=name, error=_first_line(e))) from None
        if dtype.hasobject or dtype.itemsize == 0 or dtype.fields is not None or dtype.subdtype is not None:
            raise _bad(path, said("array {name!r} holds {dtype}, not plain numbers or text", name=name, dtype=dtype))
        if any(n < 0 for n in shape):
            raise _bad(path, said("array {name!r} has shape {shape}", name=name, shape=shown(shape)))
        count = math.prod(shape)
        declared = count * dtype.itemsize
        held = info.file_size - stream.tell()
        if declared != held:
            raise _bad(path, said(
                "array {name!r} declares {count:,} values ({declared:,} bytes) but holds {held:,} bytes",
                name=name, count=count, declared=declared, held=held,
            ))
        data = stream.read(declared)
    if len(data) != declared:
        raise _bad(path, said("array {name!r} is truncated", name=name))
    array = np.frombuffer(data, dtype=dtype, count=count).copy()  # a writable array the kernels can take
    return array.reshape(shape, order="F" if fortran_order else "C")


def _arrays_of(data: bytes, path: Path | str) -> dict[str, np.ndarray]:
    """Every array of the leave file ``data`` (read from ``path``)."""
    if data.startswith(b"\x93NUMPY"):
        raise _bad(path, said("a single array, not an .npz archive of arrays"))
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return {name: _read_array(path, archive, name) for name in ARRAY_NAMES}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError, NotImplementedError,
            RuntimeError, zlib.error, struct.error) as e:  # fmt: skip
        raise _bad(path, f"{type(e).__name__}: {_first_line(e)}") from None


def _first_line(error: BaseException) -> str:
    """The first line of an error's message, shortened (its type's name when it has none)."""
    lines = str(error).splitlines()
    return shown(lines[0], 100, quote=False) if lines and lines[0] else type(error).__name__


def _whole(path: Path | str, name: str, array: np.ndarray, low: int, high: int) -> np.ndarray:
    """``array`` as int64, refused unless every number is a whole one in [low, high]."""
    if array.dtype.kind not in "iuf":
        raise _bad(path, said("{name} must be numbers, not {dtype}", name=name, dtype=array.dtype))
    if array.size:
        values = array.astype(np.float64)
        if not np.all(np.isfinite(values)) or np.any(values != np.round(values)):
            raise _bad(path, said("{name} must be whole numbers", name=name))
        if values.min() < low or values.max() > high:
            raise _bad(path, said("{name} must be between {low} and {high}", name=name, low=low, high=high))
    return np.ascontiguousarray(array, dtype=np.int64)


def check_values(path: Path | str, name: str, array: np.ndarray) -> np.ndarray:
    """``array`` (leave values or model coefficients) as float64, refused unless every number is
    finite and within MAX_LEAVE_VALUE points either way."""
    if array.dtype.kind not in "iuf":
        raise _bad(path, said("{name} must be numbers, not {dtype}", name=name, dtype=array.dtype))
    values = np.ascontiguousarray(array, dtype=np.float64)
    if values.size and not np.all(np.isfinite(values)):
        raise _bad(path, said("{name} must be finite numbers", name=name))
    if values.size and np.max(np.abs(values)) > MAX_LEAVE_VALUE:
        worst = float(values[np.argmax(np.abs(values))])
        raise _bad(path, said("{name} holds {worst:g}; a leave is worth between {low:g} and {high:g} points",
                              name=name, worst=worst, low=-MAX_LEAVE_VALUE, high=MAX_LEAVE_VALUE))
    return values


def _valid_keys(keys: np.ndarray) -> bool:
    """Whether every key is a leave's (6-bit digits ``slot + 1``, ascending from the most
    significant, 1..MAX_LEAVE of them) and the keys ascend strictly."""
    if not keys.size:
        return True
    if keys[0] <= 0 or keys[-1] >= 64**MAX_LEAVE or np.any(np.diff(keys) <= 0):
        return False
    previous = np.zeros(keys.shape, dtype=np.int64)
    for place in range(MAX_LEAVE - 1, -1, -1):  # most significant digit first: leading zeros, then slots
        digit = (keys >> (6 * place)) & 63
        if np.any(digit < previous) or np.any(digit > N_SLOTS):
            return False
        previous = digit
    return True


def _metadata(path: Path | str, array: np.ndarray) -> dict:
    if array.dtype.kind != "U" or array.ndim != 0:
        raise _bad(path, said("metadata must be one text, not an array of {dtype} of shape {shape}",
                              dtype=array.dtype, shape=array.shape))
    text = str(array[()])
    if len(text) > MAX_META_CHARS:
        raise _bad(path, said("metadata of {count:,} characters; at most {most:,}", count=len(text),
                              most=MAX_META_CHARS))
    try:
        meta = loads_json(text, said("metadata"))
    except InputError as e:
        raise _bad(path, message_of(e)) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _bad(path, said("format is not {format!r}", format=FORMAT))
    version = meta.get("version")
    if type(version) is not int or version != FORMAT_VERSION:
        raise _bad(path, said("format version {version}; this literaki reads version {supported}",
                              version=shown(version), supported=FORMAT_VERSION))
    return meta


def load_leaves(path: Path) -> LeaveTable:
    """Read and check a leave file; InputError naming the file and the fault otherwise.

    Anything can be handed over as a leave file, so nothing in it is trusted: the file must be
    a regular one of at most MAX_LEAVE_FILE_BYTES (no pipe or device is opened in a way that
    blocks), each array's declared size must be what the archive holds, the metadata is strict
    JSON of bounded nesting, and every number is finite and in its range."""
    path = Path(path)
    if os.path.isdir(path):
        raise InputError(said("{source}: no such leave file (it is a directory)", source=path))
    if not os.path.exists(path):
        raise InputError(said("{source}: no such leave file", source=path))
    return _table_of(_arrays_of(read_input_bytes(path, said("leave file"), MAX_LEAVE_FILE_BYTES), path), path)


def _table_of(arrays: dict[str, np.ndarray], path: Path | str) -> LeaveTable:
    """The table of a leave file's arrays, each checked (InputError naming ``path``)."""
    for name in ("keys", "values", "coef", "colour_of", "vowel"):
        if arrays[name].dtype.kind not in "iuf":
            raise _bad(path, said("{name} must be numbers, not {dtype}", name=name, dtype=arrays[name].dtype))
    meta = _metadata(path, arrays["meta"])
    keys, values = arrays["keys"], arrays["values"]
    if keys.ndim != 1 or keys.dtype != np.int64 or values.shape != keys.shape:
        raise _bad(path, said("keys and values must be two arrays of one length"))
    if not _valid_keys(keys):
        raise _bad(path, said("keys must be valid leave keys in ascending order"))
    for name, shape in (("coef", (N_FEATURES,)), ("colour_of", (N_SLOTS,)), ("vowel", (N_SLOTS,))):
        if arrays[name].shape != shape:
            raise _bad(path, said("{name} has shape {shape}, expected {expected}", name=name, shape=arrays[name].shape,
                                  expected=shape))
    values = check_values(path, "values", values)
    coef = check_values(path, "coef", arrays["coef"])
    colour_of = _whole(path, said("colour_of (a colour index per tile)"), arrays["colour_of"], -1, MAX_COLOURS - 1)
    vowel = _whole(path, said("vowel (1 for a vowel, else 0)"), arrays["vowel"], 0, 1)
    return LeaveTable(np.ascontiguousarray(keys), values, coef, colour_of, vowel, meta, str(path))


@lru_cache(maxsize=8)
def _cached(path: str, mtime: float) -> LeaveTable:
    return load_leaves(Path(path))


def open_leaves(path: Path | str | None = None) -> LeaveTable:
    """The leave file ``path``, else ``$LITERAKI_LEAVES``, else the shipped one (each read once)."""
    return _cached(*chosen_file(path, ENV_VAR, SHIPPED, said("leave file")))


@dataclass(frozen=True)
class RackLeaves:
    """The value of every leave a rack can keep (see :func:`rack_places`), for its moves and
    its exchanges alike."""

    rack: np.ndarray  # tile counts
    place: np.ndarray
    values: np.ndarray  # by sub-multiset number; the last is the whole rack
    sizes: np.ndarray  # tiles in each sub-multiset

    def value_of(self, leave: str) -> float:
        """The value of keeping ``leave`` (part of the rack): the very number the moves that
        keep it get (read from the table, no kernel to load)."""
        return float(self.values[int((rack_counts(leave) * self.place).sum())])

    def of_moves(self, records: np.ndarray) -> np.ndarray:
        """The leave value of every move record (compiled, one pass)."""
        from literaki_cli import _core

        if not records.shape[0]:
            return np.empty(0, dtype=np.float64)
        return core_call(_core.move_leaves, np.ascontiguousarray(records, dtype=np.int32), self.place, self.values)

    def kept_text(self, index: int) -> str:
        """:func:`counts_text` of sub-multiset ``index`` (one leave, in plain Python: an exchange
        a turn asks for)."""
        rack, place = self.rack.tolist(), self.place.tolist()
        digits = [(slot, index // place[slot] % (n + 1)) for slot, n in enumerate(rack) if n > 0 and place[slot] > 0]
        letters = "".join(alphabet.LETTER_OF[slot] * d for slot, d in digits if slot != BLANK_SLOT)
        return letters + BLANK * sum(d for slot, d in digits if slot == BLANK_SLOT)

    def counts(self, index: np.ndarray | int) -> np.ndarray:
        """Tile counts of sub-multisets by number (one row each)."""
        index = np.atleast_1d(np.asarray(index, dtype=np.int64))[:, None]
        present = self.rack > 0
        digits = np.where(present, index // np.where(present, self.place, 1) % (self.rack + 1), 0)
        return digits.astype(np.int64)


def rack_leaves(rack: str, table: LeaveTable, tile_value: np.ndarray, weight: float = 1.0,
                kept_factor: float = 0.0) -> RackLeaves:  # fmt: skip
    """Every leave of ``rack`` valued: ``weight`` x its value - ``kept_factor`` x its tile points."""
    counts = rack_counts(rack)
    tile_value = np.ascontiguousarray(tile_value, dtype=np.int64)
    return RackLeaves(counts, *core_call(table.core.subset_values, counts, tile_value, float(weight),
                                         float(kept_factor)))  # fmt: skip


def move_leave_values(
    records: np.ndarray, rack: str, table: LeaveTable, tile_value: np.ndarray, weight: float, kept_factor: float
) -> np.ndarray:
    """Per move record: ``weight`` x the leave's value - ``kept_factor`` x its tile points (compiled)."""
    return rack_leaves(rack, table, tile_value, weight, kept_factor).of_moves(records)


def kept_subsets(rack: str, table: LeaveTable) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct smaller multiset of ``rack`` (what an exchange can keep): counts and values."""
    leaves = rack_leaves(rack, table, np.zeros(64, dtype=np.int64))
    smaller = np.arange(leaves.values.shape[0] - 1)
    return leaves.counts(smaller), leaves.values[:-1].copy()
