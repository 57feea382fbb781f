"""Line of Sight (8.1.2), precomputed once per map as a ``sight_table``.

8.1.2: LOS is determined by drawing an imaginary line from the centre of the firer's hex A to the
centre of the target hex B (terrain levels La, Lb of 5.4; the "higher" and "lower" unit are the
ones at the higher and lower level).  A LOS always exists between adjacent hexes (and within one
hex).  Otherwise the line is blocked by any of the four obstructions of 8.1.2:

1. "Any terrain level higher than both units": an intervening hex (one the line touches, other
   than A and B) whose level is higher than both La and Lb.
2. "Any terrain level higher than either unit and closer or equidistant to the unit at the lower
   elevation": an intervening hex whose level is higher than min(La, Lb) and whose hex distance to
   the lower unit is <= its distance to the higher unit.  When La == Lb there is no lower unit and
   obstruction 1 covers it.
3. "Any slope (not cliff) hex side between, but not adjacent to, either unit and at the same or
   higher level": a slope hexside (5.3: slope art on either side of it, and not a cliff) crossed by
   the line, which is none of the six sides of A's hex nor of B's hex, and whose level (the higher
   level of the two hexes it separates) is >= max(La, Lb).  "Not adjacent to either unit" reads
   as "adjacent to neither": a side of one unit's hex is enough, as in the example's "B can see G
   (the slope hex side crossed is part of hex G)", whichever hex holds the slope art.
4. "Any cliff hex side at the same elevation as the higher unit, but not part of the higher unit's
   hex": a cliff hexside (5.7) crossed by the line whose level (higher of its two hexes) equals
   max(La, Lb) and which is not a side of the higher unit's hex (when La == Lb: not a side of
   either unit's hex).  8.1.2 overrides the "cliff hex sides do not block LOS" of 5.7, which we
   read as "a cliff is no obstruction merely for being a cliff".
5. "A LOS does not exist if the imaginary line runs along the side of a hex containing an
   obstruction", and the example's "sighting down the length of a slope hexside blocks LOS":
   where the line runs exactly along a hexside, both hexes flanking it are intervening hexes for
   1-2 and the hexside itself is crossed for 3-4.

Geometry is exact: the segment between the centres of flat-topped hexes of circumradius 1
(``HexGrid.center``) is tested against every hexside, with an epsilon of 1e-9 for vertex hits.
Interpretation beyond the book: the line "touches" a hexside when it meets it anywhere, its end
points included, and a hex when it meets any of its sides ("assume the terrain in a hex completely
fills it, including the hex sides").  So a line through a vertex counts all three hexes and all
three hexsides that meet there (the sides of A's and B's hexes among them stay exempt as above),
the natural extension of 5 to a line that only grazes a vertex.  Up to 4 hexes apart the only
vertex hits are the lines along a hexside; the first line that merely grazes a vertex is 5 long.
Off-map hexes (a line along the map edge) carry no terrain; a hexside on the map edge keeps the
slope or cliff drawn on its on-map hex.

The geometry only depends on the offset between A and B in cube coordinates, so it is done once
per offset on a template around the origin; the map is then scanned offset by offset with numpy,
for every hex at once, and no geometry ever runs in a step.  ``obstructions`` gives the four
obstructions separately (for tests and map debugging); ``sight_table`` is their negation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from wargym.hexgrid import HexGrid, opposite

EPSILON = 1e-9
# Cube (x, z) steps of the six directions N, NE, SE, S, SW, NW (y = -x - z), as HexGrid.cube has them.
AXIAL_STEP = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def _axial_distance(x: int, z: int) -> int:
    return (abs(x) + abs(z) + abs(x + z)) // 2


def _pixel(x: float, z: float) -> np.ndarray:
    """Centre of the hex at cube (x, z), flat-topped, circumradius 1: the frame of HexGrid.center."""
    return np.array([1.5 * x, np.sqrt(3.0) * (z + x / 2.0)])


def _side_corners(x: int, z: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    """The two corners of side d of hex (x, z); corner k sits at angle 60k degrees, y pointing S."""
    centre = _pixel(x, z)
    angles = np.radians(60.0 * np.array([(d + 4) % 6, (d + 5) % 6]))
    return centre + np.array([np.cos(angles[0]), np.sin(angles[0])]), \
        centre + np.array([np.cos(angles[1]), np.sin(angles[1])])


def _cross(o: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
    return float((p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0]))


def _point_segment_distance(u: np.ndarray, p: np.ndarray, q: np.ndarray) -> float:
    pq = q - p
    t = min(1.0, max(0.0, float(np.dot(u - p, pq) / np.dot(pq, pq))))
    return float(np.linalg.norm(u - (p + t * pq)))


def _touches(p: np.ndarray, q: np.ndarray, u: np.ndarray, v: np.ndarray) -> bool:
    """Does the segment pq meet the closed hexside uv?  (p and q are hex centres, never on a side.)"""
    if _point_segment_distance(u, p, q) <= EPSILON or _point_segment_distance(v, p, q) <= EPSILON:
        return True
    return (_cross(p, q, u) * _cross(p, q, v) < 0) and (_cross(u, v, p) * _cross(u, v, q) < 0)


@dataclass(frozen=True)
class _Line:
    """What the line from the origin to cube offset ``target`` touches, in offsets from the origin."""

    target: tuple[int, int]
    hexes: tuple[tuple[int, int], ...]           # intervening hexes (neither end)
    sides: tuple[tuple[int, int, int], ...]      # hexsides touched, as (x, z, d) with d in N, NE, SE
    side_of_a: tuple[bool, ...]                  # that hexside is one of the origin's six sides
    side_of_b: tuple[bool, ...]                  # ... one of the target's six sides


def _line(tx: int, tz: int) -> _Line:
    reach = _axial_distance(tx, tz)
    p, q = _pixel(0, 0), _pixel(tx, tz)
    hexes, sides = set(), set()
    for x in range(-reach, reach + 1):
        for z in range(-reach, reach + 1):
            if _axial_distance(x, z) > reach:
                continue
            for d in range(6):
                if _touches(p, q, *_side_corners(x, z, d)):
                    hexes.add((x, z))
                    # one name per hexside: the N, NE or SE side of one of its two hexes
                    sides.add((x, z, d) if d < 3 else (x + AXIAL_STEP[d][0], z + AXIAL_STEP[d][1], d - 3))
    hexes -= {(0, 0), (tx, tz)}

    def flanks(side: tuple[int, int, int], hx: int, hz: int) -> bool:
        x, z, d = side
        return (x, z) == (hx, hz) or (x + AXIAL_STEP[d][0], z + AXIAL_STEP[d][1]) == (hx, hz)

    ordered = tuple(sorted(sides))
    return _Line((tx, tz), tuple(sorted(hexes)), ordered,
                 tuple(flanks(s, 0, 0) for s in ordered), tuple(flanks(s, tx, tz) for s in ordered))


@lru_cache(maxsize=None)
def _lines(max_distance: int) -> tuple[_Line, ...]:
    """One line per pair of opposite offsets at distance 2..max_distance (the table is symmetric)."""
    return tuple(_line(x, z)
                 for x in range(0, max_distance + 1) for z in range(-max_distance, max_distance + 1)
                 if 2 <= _axial_distance(x, z) <= max_distance and (x > 0 or z > 0))


def _hexside_terrain(grid: HexGrid, level: np.ndarray, slope: np.ndarray, cliff: np.ndarray):
    """Per (hex, side): slope hexside (art on either side, not a cliff), cliff, and hexside level."""
    n = grid.neighbours.astype(np.int64)
    on_map = n >= 0
    other = np.where(on_map, n, 0)
    back = np.array([opposite(d) for d in range(6)])
    is_cliff = cliff | (cliff[other, back] & on_map)
    is_slope = (slope | (slope[other, back] & on_map)) & ~is_cliff
    side_level = np.where(on_map, np.maximum(level[:, None], level[other]), level[:, None])
    return is_slope, is_cliff, side_level


class _Offsets:
    """Dense index of the hex at a cube offset from every hex of the map at once (-1 off the map)."""

    def __init__(self, grid: HexGrid, reach: int):
        cube = grid.cube.astype(np.int64)
        self.x, self.z = cube[:, 0], cube[:, 2]
        self.pad, self.zmin = reach + 1, int(self.z.min())
        shape = (grid.columns + 2 * self.pad, int(self.z.max()) - self.zmin + 1 + 2 * self.pad)
        self.lookup = np.full(shape, -1, dtype=np.int64)
        self.lookup[self.x + self.pad, self.z - self.zmin + self.pad] = np.arange(grid.size)

    def __call__(self, dx: int, dz: int) -> np.ndarray:
        return self.lookup[self.x + dx + self.pad, self.z + dz - self.zmin + self.pad]


def _hex_obstructions(line: _Line, offsets: _Offsets, on: np.ndarray, level: np.ndarray,
                      la: np.ndarray, lb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Obstructions 1 and 2 of 8.1.2 on ``line`` from every hex a (with ``on`` its target b on the map)."""
    low, high = np.minimum(la, lb), np.maximum(la, lb)
    higher_than_both = np.zeros(len(la), dtype=bool)
    closer_to_lower = np.zeros(len(la), dtype=bool)
    tx, tz = line.target
    for hx, hz in line.hexes:
        h = offsets(hx, hz)[on]
        lh = np.where(h >= 0, level[np.maximum(h, 0)], -1)  # off the map: no terrain
        to_a, to_b = _axial_distance(hx, hz), _axial_distance(hx - tx, hz - tz)
        nearer_lower = np.where(la < lb, to_a <= to_b, to_b <= to_a)
        higher_than_both |= lh > high
        closer_to_lower |= (la != lb) & (lh > low) & nearer_lower
    return higher_than_both, closer_to_lower


def _hexside_obstructions(line: _Line, offsets: _Offsets, on: np.ndarray, terrain: tuple,
                          la: np.ndarray, lb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Obstructions 3 (slope) and 4 (cliff) of 8.1.2 on ``line``, as ``_hex_obstructions``."""
    is_slope, is_cliff, side_level = terrain
    high = np.maximum(la, lb)
    slope_between = np.zeros(len(la), dtype=bool)
    cliff_at_top = np.zeros(len(la), dtype=bool)
    for (sx, sz, d), of_a, of_b in zip(line.sides, line.side_of_a, line.side_of_b):
        h = offsets(sx, sz)[on]
        n = offsets(sx + AXIAL_STEP[d][0], sz + AXIAL_STEP[d][1])[on]
        side = np.where(h >= 0, h, n)  # a hexside on the map edge: seen from its on-map hex
        face = np.where(h >= 0, d, opposite(d))
        real = side >= 0
        side = np.maximum(side, 0)
        s_level = side_level[side, face]
        if not (of_a or of_b):
            slope_between |= real & is_slope[side, face] & (s_level >= high)
        of_higher = np.where(la > lb, of_a, np.where(lb > la, of_b, of_a or of_b))
        cliff_at_top |= real & is_cliff[side, face] & (s_level == high) & ~of_higher
    return slope_between, cliff_at_top


def obstructions(grid: HexGrid, level: np.ndarray, slope: np.ndarray, cliff: np.ndarray,
                 max_distance: int = 3) -> np.ndarray:
    """bool[4, H, H]: obstruction k+1 of 8.1.2 (see the module docstring) lies on the line a-b.
    All False for pairs at distance <= 1 or > max_distance.  Symmetric in a and b."""
    level = np.asarray(level, dtype=np.int64)
    terrain = _hexside_terrain(grid, level, np.asarray(slope, dtype=bool), np.asarray(cliff, dtype=bool))
    offsets = _Offsets(grid, max_distance)
    blocked = np.zeros((4, grid.size, grid.size), dtype=bool)
    a = np.arange(grid.size)
    for line in _lines(max_distance):  # one offset (and its opposite) for every hex at once
        b = offsets(*line.target)
        on = b >= 0
        a_, b_ = a[on], b[on]
        la, lb = level[a_], level[b_]
        found = np.stack(_hex_obstructions(line, offsets, on, level, la, lb)
                         + _hexside_obstructions(line, offsets, on, terrain, la, lb))
        blocked[:, a_, b_] = found
        blocked[:, b_, a_] = found
    return blocked


def sight_table(grid: HexGrid, level: np.ndarray, slope: np.ndarray, cliff: np.ndarray,
                max_distance: int = 3) -> np.ndarray:
    """bool[H, H]: True where a unit in hex a has a line of sight to hex b (8.1.2), for pairs at
    distance <= max_distance; False beyond.  Symmetric; diagonal True."""
    table = ~obstructions(grid, level, slope, cliff, max_distance).any(axis=0)
    table &= grid.distance <= max_distance
    table.setflags(write=False)
    return table
