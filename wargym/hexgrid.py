"""Hex grid keyed by the map's XXYY hex numbers.

The board games print a number on every hex: ``XXYY`` where ``XX`` is the column and ``YY`` the
row, both counted from 01.  Columns are vertical, hexes are flat-topped, and every even column is
shifted half a hex down (hex 0201 sits between 0101 and 0102), the usual layout of these maps;
``odd_columns_down=True`` shifts the odd columns instead (Attu: 2717 borders 2617 and 2618).

A ``HexGrid`` numbers the hexes of a ``columns x rows`` rectangle with a dense index
``h = (column - 1) * rows + (row - 1)`` and precomputes, once, the tables every rule needs:

    neighbours[h, d]   index of the hex in direction d, or -1 off the map
    distance[a, b]     hexes between a and b (range counting excludes a, includes b: 8.12)
    plane_row/col[h]   where hex h sits in the C x rows x columns observation planes
    plane_index[h]     the same in one flattened plane (row * columns + column)
    center[h]          pixel centre for rendering (unit hex size)

Directions (flat-topped)::

         0 N
    5 NW     1 NE
    4 SW     2 SE
         3 S

``opposite(d) == (d + 3) % 6``; hexside ``(h, d)`` is the same edge as ``(neighbours[h, d], opposite(d))``.

Line of sight: ``hex_line(a, b)`` lists the hexes a straight line between centres crosses (cube
interpolation nudged off the vertices); a ruleset precomputes its own sight table from it at
scenario load (Attu: los.sight_table), so no geometry runs in a step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

N, NE, SE, S, SW, NW = range(6)
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def hex_id(column: int, row: int) -> int:
    """The printed number of a hex: column 3, row 7 is 0307."""
    return column * 100 + row


def split_hex_id(hexnum: int) -> tuple[int, int]:
    return hexnum // 100, hexnum % 100


def _offset_step(column: int, row: int, direction: int, odd_down: bool = False) -> tuple[int, int]:
    """Column/row of the neighbour in ``direction`` (even columns shifted down, or odd ones)."""
    down = column % 2 == (1 if odd_down else 0)  # the shifted columns sit half a hex lower
    if direction == N:
        return column, row - 1
    if direction == S:
        return column, row + 1
    dc = 1 if direction in (NE, SE) else -1
    if direction in (NE, NW):
        return column + dc, row if down else row - 1
    return column + dc, row + 1 if down else row


def _cube(column: int, row: int, odd_down: bool = False) -> tuple[int, int, int]:
    q = column - 1  # 0-based: odd q shifted down is the "odd-q" layout, even q the "even-q" one
    r = row - 1
    x = q
    z = r - ((q + (q & 1)) // 2 if odd_down else (q - (q & 1)) // 2)
    return x, -x - z, z


def _cube_round(p: np.ndarray) -> tuple[int, int, int]:
    rounded = np.round(p)
    k = int(np.argmax(np.abs(rounded - p)))
    rounded[k] = -(rounded.sum() - rounded[k])
    return tuple(int(v) for v in rounded)


@dataclass(frozen=True)
class HexGrid:
    """The static geometry of one map: ``columns x rows`` hexes numbered XXYY from 0101."""

    columns: int
    rows: int
    odd_columns_down: bool = False
    _index: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (1 <= self.columns <= 99 and 1 <= self.rows <= 99):
            raise ValueError(f"hex grid must be 1..99 columns and rows, got {self.columns}x{self.rows}")
        index = {hex_id(c, r): (c - 1) * self.rows + (r - 1)
                 for c in range(1, self.columns + 1) for r in range(1, self.rows + 1)}
        object.__setattr__(self, "_index", index)

    @property
    def size(self) -> int:
        return self.columns * self.rows

    # -- numbering -------------------------------------------------------------------------------
    def index(self, hexnum: int) -> int:
        """Dense index of printed hex ``hexnum``; ``KeyError`` naming the hex when off the map."""
        try:
            return self._index[int(hexnum)]
        except KeyError:
            raise KeyError(f"hex {int(hexnum):04d} is not on this {self.columns}x{self.rows} map") from None

    def contains(self, hexnum: int) -> bool:
        return int(hexnum) in self._index

    def number(self, index: int) -> int:
        """Printed XXYY number of dense index ``index``."""
        column, row = divmod(int(index), self.rows)
        return hex_id(column + 1, row + 1)

    def label(self, index: int) -> str:
        return f"{self.number(index):04d}"

    @cached_property
    def numbers(self) -> np.ndarray:
        return np.array([self.number(h) for h in range(self.size)], dtype=np.int16)

    # -- tables ----------------------------------------------------------------------------------
    @cached_property
    def neighbours(self) -> np.ndarray:
        table = np.full((self.size, 6), -1, dtype=np.int16)
        for h in range(self.size):
            column, row = split_hex_id(self.number(h))
            for d in range(6):
                c, r = _offset_step(column, row, d, self.odd_columns_down)
                if 1 <= c <= self.columns and 1 <= r <= self.rows:
                    table[h, d] = self._index[hex_id(c, r)]
        table.setflags(write=False)
        return table

    @cached_property
    def cube(self) -> np.ndarray:
        cube = np.array([_cube(*split_hex_id(self.number(h)), self.odd_columns_down) for h in range(self.size)], dtype=np.int32)
        cube.setflags(write=False)
        return cube

    @cached_property
    def distance(self) -> np.ndarray:
        c = self.cube
        table = np.abs(c[:, None, :] - c[None, :, :]).max(axis=2).astype(np.int16)
        table.setflags(write=False)
        return table

    @cached_property
    def plane_row(self) -> np.ndarray:
        return (np.arange(self.size) % self.rows).astype(np.int16)

    @cached_property
    def plane_col(self) -> np.ndarray:
        return (np.arange(self.size) // self.rows).astype(np.int16)

    @cached_property
    def plane_index(self) -> np.ndarray:
        """int64[H]: where hex h sits in one flattened (rows x columns) observation plane, row-major."""
        return self.plane_row.astype(np.int64) * self.columns + self.plane_col

    @cached_property
    def center(self) -> np.ndarray:
        """Pixel centres for flat-topped hexes of circumradius 1."""
        q = self.plane_col.astype(np.float64)
        r = self.plane_row.astype(np.float64)
        x = 1.5 * q + 1.0
        shifted = (q + 1) % 2 if self.odd_columns_down else q % 2
        y = np.sqrt(3.0) * (r + 0.5 * shifted) + np.sqrt(3.0) / 2
        return np.stack([x, y], axis=1)

    @cached_property
    def _cube_index(self) -> dict[tuple[int, int, int], int]:
        return {tuple(int(v) for v in self.cube[h]): h for h in range(self.size)}

    def direction(self, a: int, b: int) -> int:
        """Direction from hex a to adjacent hex b; ValueError if they are not adjacent."""
        hits = np.nonzero(self.neighbours[a] == b)[0]
        if len(hits) == 0:
            raise ValueError(f"hexes {self.label(a)} and {self.label(b)} are not adjacent")
        return int(hits[0])

    # -- line of sight ---------------------------------------------------------------------------
    def hex_line(self, a: int, b: int) -> list[int]:
        """Hexes crossed by the straight line from the centre of a to the centre of b, both ends
        included.  Points exactly on a hexside are nudged one way (cube lerp with epsilon)."""
        ca, cb = self.cube[a].astype(np.float64), self.cube[b].astype(np.float64)
        n = int(self.distance[a, b])
        if n == 0:
            return [int(a)]
        cube_to_index = self._cube_index
        line = []
        for i in range(n + 1):
            for eps in (np.array([1e-6, 2e-6, -3e-6]), np.array([-1e-6, -2e-6, 3e-6])):
                h = cube_to_index.get(_cube_round(ca + (cb - ca) * (i / n) + eps))
                if h is not None:  # a line along the map edge may graze off-map hexes
                    line.append(int(h))
                    break
        return line
