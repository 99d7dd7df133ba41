"""The learned prior's table as shipped: loading the gammas, the spatial patterns' hash table, their symmetries.

What it is: the Python side of features.py's gamma table. `load_gammas` and `load_spatial` read
foogo/data/gammas.npz (written by bench/learn_gammas.py) and check it; `prior_table` builds the
one array the kernels read (the group gammas, then a hash table of every rotation and
reflection of each spatial pattern, entered by spatial_table.insert_spatial, the owner of its
layout); GAMMAS is that table for the shipped file, LEARNED_PATTERN_TABLE the heavy policy's 3x3
shapes taken from it, and `open_parts` its parts for the open points of a board size (what
tree.expand rates a point with no stone in its 5x5 square from). `symmetric_codes`,
`symmetric_spatial`, `spatial_keys` and `pattern_classes` fold patterns into their classes, as the
learning script and the table do;
`move_gammas` rates moves of a Board with a table. What it is not: the features themselves or
their lookup in a search (features.py).
"""

from __future__ import annotations

import functools
import io
import math
import os
import warnings
import zipfile
import zlib

import numpy as np

try:
    from lzma import LZMAError
except ImportError:  # a Python built without lzma: zipfile then raises RuntimeError for an lzma member
    LZMAError = RuntimeError  # type: ignore[misc, assignment]

from . import board_kernels as bk
from .board import Board
from .features import TABLE_SIZE, board_points, candidate_gammas, fill_open_parts
from .files import open_regular
from .geometry import parse_color
from .spatial_patterns import LEVEL_BITS, LEVEL_MASKS, RING, swap_colours
from .spatial_table import LEVEL_SHIFT, SPATIAL_MAX_LOAD, SPATIAL_MAX_PATTERNS, SPATIAL_SLOTS, insert_spatial

DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "gammas.npz")


# ---------------------------------------------------------------- pattern classes (Python side)

# (row, col) offsets from the centre of code fields 0..7 (pattern_code: NW N NE W E SW S SE, north up)
_CELL_OFFSETS = ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1))
_TRANSFORMS = (lambda r, c: (r, c), lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (-r, -c),
               lambda r, c: (c, r), lambda r, c: (c, -r), lambda r, c: (-c, r), lambda r, c: (-c, -r))


def _turn_fields(codes: np.ndarray, out: np.ndarray, offsets, base: int) -> None:
    """Or into out[t] the 2-bit fields of codes from bit `base` on, one per (row, col) offset, moved to
    where transform t takes their offsets."""
    for t, transform in enumerate(_TRANSFORMS):
        for i, (r, c) in enumerate(offsets):
            j = offsets.index(transform(r, c))
            out[t] |= ((codes >> (base + 2 * i)) & 3) << (base + 2 * j)


def symmetric_codes(codes: np.ndarray) -> np.ndarray:
    """int64[8, len(codes)]: each 3x3 code under the 8 rotations and reflections (identity first)."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((8, codes.size), dtype=np.int64)
    _turn_fields(codes, out, _CELL_OFFSETS, 0)
    return out


def symmetric_spatial(codes: np.ndarray) -> np.ndarray:
    """int64[8, len(codes)]: each SPATIAL code (or key: the level bits pass through) under the 8
    rotations and reflections, identity first."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((8, codes.size), dtype=np.int64)
    out[:] = codes & ~np.int64((1 << LEVEL_BITS[1]) - 1)  # the level tag, if any
    _turn_fields(codes, out, _CELL_OFFSETS, 0)
    _turn_fields(codes, out, RING, 16)
    return out


def spatial_keys(codes: np.ndarray, level: int) -> np.ndarray:
    """The canonical keys of SPATIAL codes at level 1 or 2: the level's bits of the smallest of the
    8 symmetric images, tagged with the level (the form the table and the learning script use)."""
    mask = np.int64(LEVEL_MASKS[level - 1])
    key = symmetric_spatial(np.asarray(codes, dtype=np.int64) & mask).min(axis=0)
    return key | np.int64(level << LEVEL_SHIFT)


def pattern_classes() -> np.ndarray:
    """int64[65536]: each 3x3 code's class, the smallest code among its 8 symmetric images."""
    return symmetric_codes(np.arange(1 << 16)).min(axis=0)


# ---------------------------------------------------------------- the shipped table

NPZ_MAX_MEMBER = 64 << 20  # bytes an array of a gamma file may have (the shipped table's largest: 262 KB)


def _npz_arrays(path: str, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """The arrays `names` (those the file has) of the npz at path, each read only after its header's shape
    and type were checked against its bytes and NPZ_MAX_MEMBER (np.load allocates what a header declares).
    ValueError naming the path for anything else: not a regular file (a FIFO is never waited on), not a zip,
    a damaged, encrypted, oddly compressed or pickled member."""
    fmt = np.lib.format
    out = {}
    try:
        with open_regular(path) as f, zipfile.ZipFile(f) as archive:
            present = set(archive.namelist())
            for name in names:
                if name + ".npy" not in present:
                    continue
                if archive.getinfo(name + ".npy").file_size > NPZ_MAX_MEMBER:
                    raise ValueError(f"{name} is over {NPZ_MAX_MEMBER} bytes")
                with archive.open(name + ".npy") as member:
                    data = member.read(NPZ_MAX_MEMBER + 1)
                stream = io.BytesIO(data)
                read_header = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}.get(
                    fmt.read_magic(stream))  # the versions np.save writes for plain arrays
                if read_header is None:
                    raise ValueError(f"{name} is not a version 1 or 2 .npy")
                shape, fortran, dtype = read_header(stream)
                body = data[stream.tell():]
                if dtype.hasobject or len(body) != math.prod(shape) * dtype.itemsize:
                    raise ValueError(f"{name}'s header does not match its {len(body)} bytes")
                out[name] = np.frombuffer(body, dtype=dtype).reshape(shape, order="F" if fortran else "C").copy()
    # zipfile's own: NotImplementedError for a compression method it lacks, RuntimeError for an encrypted member,
    # and its decompressors' errors for damaged deflate or lzma data
    except (OSError, EOFError, zipfile.BadZipFile, ValueError, NotImplementedError, RuntimeError, zlib.error,
            LZMAError) as error:
        raise ValueError(f"{path}: not a gamma file ({error})") from None
    return out


def load_gammas(path: str = DATA_PATH) -> np.ndarray:
    """The gamma table (float32[TABLE_SIZE]) from an npz written by bench/learn_gammas.py; all ones
    (every candidate alike), with a warning, when the file is missing; ValueError for a damaged one."""
    if not os.path.exists(path):
        warnings.warn(f"foogo: no learned gammas at {path}; the learned prior rates every move alike",
                      stacklevel=2)
        return np.ones(TABLE_SIZE, dtype=np.float32)
    table = np.asarray(_npz_arrays(path, ("table",)).get("table", np.zeros(0)), dtype=np.float32)
    if table.shape != (TABLE_SIZE,) or not np.all(np.isfinite(table)) or np.any(table <= 0):
        raise ValueError(f"{path}: not a gamma table of {TABLE_SIZE} positive numbers")
    return table


def load_spatial(path: str = DATA_PATH) -> tuple[np.ndarray, np.ndarray]:
    """(canonical keys int64, gammas float64) of the spatial patterns in an npz written by
    bench/learn_gammas.py; empty when it has none; ValueError for a damaged one."""
    if not os.path.exists(path):
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    data = _npz_arrays(path, ("spatial_keys", "spatial_gammas"))
    if "spatial_keys" not in data:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    keys = np.asarray(data["spatial_keys"], dtype=np.int64)
    gammas = np.asarray(data.get("spatial_gammas", np.zeros(0)), dtype=np.float64)
    levels = keys >> LEVEL_SHIFT
    if (keys.shape != gammas.shape or keys.size > SPATIAL_MAX_PATTERNS
            or not np.all(np.isfinite(gammas)) or np.any(gammas <= 0) or not np.all((levels == 1) | (levels == 2))):
        raise ValueError(f"{path}: not a spatial pattern table")
    return keys, gammas


def prior_table(table: np.ndarray, keys: np.ndarray, gammas: np.ndarray) -> np.ndarray:
    """The prior table the kernels read (float64): the group gammas (load_gammas' table), then, if
    there are spatial patterns, SPATIAL_SLOTS slots of (key, gamma), every symmetric image of each
    canonical key (spatial_keys) entered. Keys are below 2**51, so float64 holds them exactly."""
    if keys.size == 0:
        return table.astype(np.float64)
    out = np.zeros(TABLE_SIZE + 2 * SPATIAL_SLOTS)
    out[:TABLE_SIZE] = table
    images = symmetric_spatial(keys)
    flat = images.ravel()
    values = np.broadcast_to(gammas, images.shape).ravel()
    flat, first = np.unique(flat, return_index=True)  # a symmetric pattern is its own image
    if flat.size > SPATIAL_MAX_LOAD * SPATIAL_SLOTS or np.any(flat <= 0) or np.any(flat >= 1 << 51):
        raise ValueError(f"{flat.size} spatial patterns (keys in 1..2**51) do not fit {SPATIAL_SLOTS} slots")
    insert_spatial(out, flat.astype(np.float64), values[first])
    return out


GROUP_GAMMAS = load_gammas()
GAMMAS = prior_table(GROUP_GAMMAS, *load_spatial())  # what the tree's learned prior reads

PLAYOUT_PATTERN_GAMMA = 8.0  # a 3x3 shape whose learned gamma reaches this is a playout pattern: on Pachi's
# games as many candidates match as match MoGo's patterns (12%), and more of the moves played (75% vs 67%)


def learned_pattern_table(gammas: np.ndarray = GROUP_GAMMAS, threshold: float = PLAYOUT_PATTERN_GAMMA) -> np.ndarray:
    """A pattern table for the heavy policy (patterns.PATTERN_TABLE's format: uint8[65536], bit colour - 1
    set where that colour playing the centre matches) made from the learned 3x3 gammas: a shape matches
    when its gamma, seen from the mover, reaches `threshold`."""
    pattern = np.asarray(gammas[:1 << 16])
    black = pattern >= threshold  # indexed by code: black to play sees it as it is
    white = black[swap_colours.py_func(np.arange(1 << 16, dtype=np.int64))]  # white sees it swapped
    return black.astype(np.uint8) | (white.astype(np.uint8) << 1)


LEARNED_PATTERN_TABLE = learned_pattern_table()


def open_parts(size: int, gammas: np.ndarray | None = None) -> np.ndarray:
    """The parts of prior table `gammas` (default GAMMAS, whose parts are made once a size and read-only)
    for the open points of a board of this size (features.fill_open_parts): what tree.expand rates a
    point with no stone in its 5x5 square from."""
    if gammas is None:
        return _shipped_open_parts(size)
    s, _ = Board(size)._state()
    parts = np.ones((3, int(s[bk.M_P])))
    fill_open_parts(s, gammas, parts)
    return parts


@functools.cache
def _shipped_open_parts(size: int) -> np.ndarray:
    """open_parts of GAMMAS, made once a size, read-only."""
    parts = open_parts(size, GAMMAS)
    parts.flags.writeable = False
    return parts


def move_gammas(board, color, moves, gammas=None, sacrifices: bool = True) -> np.ndarray:
    """The learned prior's gamma (move_gamma) of `color` at each of `moves` (padded points, as candidates
    gives them), float64, with prior table `gammas` (default GAMMAS); sacrifices: as candidates'."""
    color = parse_color(color)
    moves = board_points(board, moves)  # ValueError for a point off the board, before a kernel reads it
    s, z = board._state()
    out = np.zeros(len(moves))
    candidate_gammas(s, z, board.geometry.zobrist, s.copy(), z.copy(), color, moves, len(moves),
                     GAMMAS if gammas is None else gammas, bool(sacrifices), out)
    return out
