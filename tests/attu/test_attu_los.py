"""Line of Sight (8.1.2): the book's example cases A-L replayed on a fixture map, and invariants.

The fixture map (``FIXTURE``) is 12 columns x 10 rows, odd columns half a hex lower (as on the Attu
map).  Each token is a hex's level (5.4), followed by the letter of the book's example unit standing
there.  Slopes (5.3) lie on every hexside between two levels, the art inside the lower hex (crossing
out of it is "up"); no cliffs unless a test adds them.  The book's picture is not reproduced: the
hexes were placed so that every statement of the example holds for the reason the book gives, and
each test also changes the terrain that gives the reason and sees the outcome flip.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from wargym.attu.los import obstructions, sight_table
from wargym.hexgrid import HexGrid, opposite

FIXTURE = """
    column:  01 02 03 04 05 06 07 08 09 10 11 12
    row 01   0  0  0J 0  0  0  0  0  0  0  0  0
    row 02   0  0  0  0  2  0  0  0  0  0  0  0
    row 03   0  2L 2G 1D 1  2H 2  3K 0  0  0  0
    row 04   0  0  2  0  1F 1B 1A 0  0  0  0  0
    row 05   0  2I 0  0  0C 1  3  0  0  0  0  0
    row 06   0  0  0  0  0  2  2E 0  0  0  0  0
    row 07   0  0  0  0  0  0  0  0  0  0  0  0
    row 08   0  0  0  0  0  0  0  0  0  0  0  0
    row 09   0  0  0  0  0  0  0  0  0  0  0  0
    row 10   0  0  0  0  0  0  0  0  0  0  0  0
"""
GRID = HexGrid(12, 10, odd_columns_down=True)


def _parse(text: str) -> tuple[np.ndarray, dict[str, int]]:
    level = np.zeros(GRID.size, dtype=np.int8)
    units = {}
    for line in text.strip().splitlines()[1:]:
        words = line.split()
        row = int(words[1])
        for column, token in enumerate(words[2:], start=1):
            h = GRID.index(column * 100 + row)
            level[h] = int(token[0])
            if len(token) > 1:
                units[token[1]] = h
    return level, units


LEVEL, UNIT = _parse(FIXTURE)


def hexes(*numbers: str) -> list[int]:
    return [GRID.index(int(n)) for n in numbers]


def slopes_between_levels(level: np.ndarray) -> np.ndarray:
    """5.3: slope art inside the lower hex of every hexside between two levels."""
    n = GRID.neighbours
    higher = np.where(n >= 0, level[np.maximum(n, 0)], -1)
    return higher > level[:, None]


def no_cliffs() -> np.ndarray:
    return np.zeros((GRID.size, 6), dtype=bool)


class Terrain:
    """The fixture, or a copy of it with a change: levels (slopes follow them), slopes, cliffs."""

    def __init__(self, levels: dict[str, int] | None = None, no_slope: tuple[str, str] | None = None,
                 cliff: tuple[str, str] | None = None):
        self.level = LEVEL.copy()
        for number, value in (levels or {}).items():
            self.level[GRID.index(int(number))] = value
        self.slope = slopes_between_levels(self.level)
        self.cliff = no_cliffs()
        if no_slope:
            for h, d in _hexside(*no_slope):
                self.slope[h, d] = False
        if cliff:
            for h, d in _hexside(*cliff):
                self.cliff[h, d] = True

    def sees(self, x: str, y: str, max_distance: int = 3) -> bool:
        table = sight_table(GRID, self.level, self.slope, self.cliff, max_distance)
        return bool(table[UNIT[x], UNIT[y]])

    def blocked_by(self, x: str, y: str) -> set[int]:
        """Which of the four obstructions of 8.1.2 (numbered as in los.py) lie between x and y."""
        found = obstructions(GRID, self.level, self.slope, self.cliff)[:, UNIT[x], UNIT[y]]
        return {int(k) + 1 for k in np.nonzero(found)[0]}


def _hexside(p: str, q: str) -> list[tuple[int, int]]:
    """The hexside between adjacent hexes p and q, named from both sides."""
    a, b = hexes(p, q)
    d = GRID.direction(a, b)
    return [(a, d), (b, opposite(d))]


BOOK = Terrain()


def test_attu_8_1_2_fixture_places_the_twelve_units_of_the_example():
    assert sorted(UNIT) == list("ABCDEFGHIJKL")
    # every pair of the example is within Spotting Distance in Cloudy weather (8.1.1: three hexes)
    pairs = "AB AC AD AE AF AK BG CE CG DF EF FG FI FL FK GH GI HJ".split()
    assert all(GRID.distance[UNIT[p[0]], UNIT[p[1]]] <= 3 for p in pairs)


# ------------------------------------------------------------------------- the book's example
def test_attu_8_1_2_a_sees_b_adjacent():
    assert GRID.distance[UNIT["A"], UNIT["B"]] == 1
    assert BOOK.sees("A", "B"), "A can see B (the hexes are adjacent)"
    # "A LOS always exists between adjacent hexes": even up a cliff to the top level
    cliffed = Terrain(levels={"0604": 4}, cliff=("0704", "0604"))
    assert cliffed.sees("A", "B") and cliffed.sees("B", "A")
    assert cliffed.blocked_by("A", "B") == set()


def test_attu_8_1_2_a_cannot_see_c_intervening_hex_at_level_of_higher_hex():
    # A 0704 (1) - 0605 (1) - C 0505 (0): 0605 is as high as A and as close to C, the lower unit
    assert not BOOK.sees("A", "C")
    assert BOOK.blocked_by("A", "C") == {2}, "the intervening hex at the same level as the higher hex"
    assert Terrain(levels={"0605": 0}).sees("A", "C")


def test_attu_8_1_2_a_sees_d_same_elevation():
    # A 0704 (1) - 0604, 0503 (1) - D 0403 (1)
    assert BOOK.level[UNIT["A"]] == BOOK.level[UNIT["D"]] == 1
    assert BOOK.sees("A", "D"), "A can see D (the units are at the same elevation)"
    raised = Terrain(levels={"0503": 2})  # (its new slopes count too: 3)
    assert not raised.sees("A", "D") and 1 in raised.blocked_by("A", "D")


def test_attu_8_1_2_a_cannot_see_e_higher_elevation_between_both():
    # A 0704 (1) - 0705 (3) - E 0706 (2)
    assert not BOOK.sees("A", "E")
    assert 1 in BOOK.blocked_by("A", "E"), "a higher elevation exists between both units"
    assert Terrain(levels={"0705": 1}).sees("A", "E")


def test_attu_8_1_2_a_sees_f_nothing_higher_than_the_lower_hex():
    # A 0704 (1) and F 0504 (1): the line runs along the hexside 0604|0605, both at level 1 (rule 5)
    assert BOOK.sees("A", "F"), "A can see F (no intervening terrain higher than the lower hex)"
    for flank in ("0604", "0605"):  # either hex beside the line counts when raised above both
        raised = Terrain(levels={flank: 2})
        assert not raised.sees("A", "F") and 1 in raised.blocked_by("A", "F")


def test_attu_8_1_2_a_cannot_see_k_intervening_higher_and_closer_to_lower():
    # A 0704 (1) and K 0803 (3): the line runs along 0703|0804; 0703 (2) is as close to A as to K
    assert not BOOK.sees("A", "K")
    assert BOOK.blocked_by("A", "K") == {2}, "intervening terrain higher than and closer to the lower hex"
    assert Terrain(levels={"0703": 1}).sees("A", "K")


def test_attu_8_1_2_b_sees_g_slope_hexside_part_of_hex_g():
    # B 0604 (1) - 0503 (1) - 0404 (0) - G 0303 (2): the slope 0404|0303 (level 2) is G's hexside
    assert BOOK.sees("B", "G"), "B can see G (the slope hex side crossed is part of hex G)"
    # the same step one hexside nearer B (0503|0404) is part of neither hex, and blocks
    moved = Terrain(levels={"0404": 2})
    assert not moved.sees("B", "G") and moved.blocked_by("B", "G") == {3}


def test_attu_8_1_2_c_cannot_see_e_intervening_higher_and_closer_to_lower():
    # C 0505 (0) - 0606 (2) - E 0706 (2)
    assert not BOOK.sees("C", "E")
    assert BOOK.blocked_by("C", "E") == {2}, "intervening terrain higher than and closer to the lower hex"
    assert Terrain(levels={"0606": 0}).sees("C", "E")


def test_attu_8_1_2_c_sees_g_slope_hexside_part_of_hex_g():
    # C 0505 (0) - 0405, 0404 (0) - G 0303 (2): the slope 0404|0303 is G's hexside
    assert BOOK.sees("C", "G"), "C can see G (the slope hex side crossed is part of hex G)"
    moved = Terrain(levels={"0404": 2})
    assert not moved.sees("C", "G") and moved.blocked_by("C", "G") == {3}


def test_attu_8_1_2_d_cannot_see_f_hexside_at_level_of_higher_hex():
    # D 0403 (1) and F 0504 (1): the line runs along the slope 0404|0503 (level 1), a side of neither
    assert not BOOK.sees("D", "F")
    assert BOOK.blocked_by("D", "F") == {3}, "the intervening hexside at the same level as the higher hex"
    assert Terrain(no_slope=("0404", "0503")).sees("D", "F")


def test_attu_8_1_2_e_cannot_see_f_hexside_at_level_of_higher_hex():
    # E 0706 (2) - 0606 (2) | 0605 (1) - F 0504 (1): the slope 0605|0606 is at E's level
    assert not BOOK.sees("E", "F")
    assert BOOK.blocked_by("E", "F") == {3}, "the intervening hexside at the same level as the higher hex"
    assert Terrain(no_slope=("0605", "0606")).sees("E", "F")


def test_attu_8_1_2_f_sees_g_slope_hexside_part_of_hex_g():
    # F 0504 (1) - 0404 (0) - G 0303 (2): the slope 0404|0303 is G's hexside
    assert BOOK.sees("F", "G"), "F can see G (the slope hex side crossed is part of hex G)"
    # the same hexside blocks F's line to L, which it is no side of (the book's F cannot see L)
    assert not BOOK.sees("F", "L") and BOOK.blocked_by("F", "L") == {3}
    assert Terrain(no_slope=("0404", "0303")).sees("F", "L")


def test_attu_8_1_2_f_cannot_see_i_f_not_adjacent_to_slope_hexside():
    # F 0504 (1) - 0405 (0) | 0304 (2) - I 0205 (2): the slope 0405|0304 is a side of neither
    assert not BOOK.sees("F", "I")
    assert BOOK.blocked_by("F", "I") == {3}, "F is not adjacent to a slope hexside"
    assert Terrain(no_slope=("0405", "0304")).sees("F", "I")


def test_attu_8_1_2_f_cannot_see_l_neither_adjacent_to_slope_hexside():
    # F 0504 (1) - 0404 (0) | 0303 (2) - L 0203 (2)
    assert not BOOK.sees("F", "L")
    assert BOOK.blocked_by("F", "L") == {3}, "neither unit is adjacent to the slope hex side"
    assert Terrain(no_slope=("0404", "0303")).sees("F", "L")


def test_attu_8_1_2_f_sees_k_intervening_higher_hex_closer_to_higher():
    # F 0504 (1) - 0604 (1) - 0703 (2) - K 0803 (3): 0703 is higher than F but nearer K
    assert BOOK.sees("F", "K"), "F can see K (the higher intervening hex is closer to the higher hex)"
    nearer = Terrain(levels={"0604": 2})  # the same height next to F, the lower unit, blocks
    assert not nearer.sees("F", "K") and nearer.blocked_by("F", "K") == {2}


def test_attu_8_1_2_g_sees_h_both_adjacent_to_slope_hexsides():
    # G 0303 (2) | 0403, 0503 (1) | H 0603 (2): slope 0403|0303 is G's side, 0503|0603 is H's
    assert BOOK.sees("G", "H"), "G can see H (both units are adjacent to the slope hexsides crossed)"
    # raise 0403: the step up now lies at 0403|0503, a side of neither unit, and blocks
    moved = Terrain(levels={"0403": 2})
    assert not moved.sees("G", "H") and moved.blocked_by("G", "H") == {3}


def test_attu_8_1_2_g_cannot_see_i_sighting_down_a_slope_hexside():
    # G 0303 (2) and I 0205 (2): the line runs along the slope 0204|0304 (level 2)
    assert not BOOK.sees("G", "I")
    assert BOOK.blocked_by("G", "I") == {3}, "sighting down the length of a slope hexside blocks LOS"
    assert Terrain(no_slope=("0204", "0304")).sees("G", "I")


def test_attu_8_1_2_h_cannot_see_j_hexside_at_level_of_higher_hex():
    # H 0603 (2) - 0502 (2) | 0402 (0) - J 0301 (0): the slope 0402|0502 is at H's level
    assert not BOOK.sees("H", "J")
    assert BOOK.blocked_by("H", "J") == {3}, "the intervening hexside at the same level as the higher hex"
    assert Terrain(no_slope=("0402", "0502")).sees("H", "J")


# ------------------------------------------------------------------------------ cliffs (8.1.2)
def _column_map(levels: dict[int, int], cliffs: list[tuple[int, int]]):
    """A flat 12 x 10 map with levels and cliffs set along column 05 (a straight N-S line)."""
    level = np.zeros(GRID.size, dtype=np.int8)
    for number, value in levels.items():
        level[GRID.index(number)] = value
    cliff = no_cliffs()
    for p, q in cliffs:
        for h, d in _hexside(f"{p:04d}", f"{q:04d}"):
            cliff[h, d] = True
    slope = np.zeros((GRID.size, 6), dtype=bool)
    return level, slope, cliff


def _blocked(level, slope, cliff, p: int, q: int) -> set[int]:
    found = obstructions(GRID, level, slope, cliff)[:, GRID.index(p), GRID.index(q)]
    return {int(k) + 1 for k in np.nonzero(found)[0]}


def test_attu_8_1_2_cliff_part_of_higher_units_hex_does_not_block():
    # 0506 (0) - 0505 (0) = cliff = 0504 (1) - 0503 (1): a plateau whose edge is a cliff
    level, slope, cliff = _column_map({504: 1, 503: 1}, [(505, 504)])
    table = sight_table(GRID, level, slope, cliff)
    assert table[GRID.index(506), GRID.index(504)]           # the cliff is a side of the higher hex
    assert not table[GRID.index(506), GRID.index(503)]       # one hex back it is not: blocked
    assert _blocked(level, slope, cliff, 506, 503) == {4}
    no_cliff = np.zeros_like(cliff)
    assert sight_table(GRID, level, slope, no_cliff)[GRID.index(506), GRID.index(503)]


def test_attu_8_1_2_cliff_below_the_higher_unit_does_not_block():
    # 0506 (0) - 0505 (0) = cliff = 0504 (1) - 0503 (2): the cliff is at level 1, the higher unit at 2
    level, slope, cliff = _column_map({504: 1, 503: 2}, [(505, 504)])
    assert sight_table(GRID, level, slope, cliff)[GRID.index(506), GRID.index(503)]
    level[GRID.index(504)] = 2  # now the cliff is at the higher unit's level, and not its side
    assert _blocked(level, slope, cliff, 506, 503) == {4}
    level[GRID.index(504)] = 3  # above both units: the hex blocks (1); the cliff is not "at the same elevation"
    assert _blocked(level, slope, cliff, 506, 503) == {1}


def test_attu_8_1_2_cliff_between_units_at_equal_levels_blocks_unless_side_of_either():
    # 0506 (1) - 0505 (1) = cliff = 0504 (0) - 0503 (1)
    level, slope, cliff = _column_map({506: 1, 505: 1, 503: 1}, [(505, 504)])
    assert _blocked(level, slope, cliff, 506, 503) == {4}
    assert _blocked(level, slope, cliff, 505, 503) == set()  # the cliff is a side of 0505


# ------------------------------------------------------------------------- lines along hexsides
def test_attu_8_1_2_line_along_hexside_counts_both_flanking_hexes():
    # 0304 and 0504 (distance 2) see each other along the hexside 0404|0405 (columns 03 and 05 sit
    # half a hex lower than 04): the line meets no hex centre, only the two hexes' common side
    a, b = hexes("0304", "0504")
    flanks = hexes("0404", "0405")
    assert GRID.distance[a, b] == 2
    flat = np.zeros(GRID.size, dtype=np.int8)
    none = no_cliffs()
    assert sight_table(GRID, flat, none, none)[a, b]
    for flank in flanks:  # "the imaginary line runs along the side of a hex containing an obstruction"
        level = flat.copy()
        level[flank] = 1
        assert not sight_table(GRID, level, none, none)[a, b]
    # a cliff along the line, at the level of the units, blocks too (4)
    level = flat.copy()
    level[[a, b, flanks[0]]] = 1
    cliff = none.copy()
    for h, d in _hexside("0404", "0405"):
        cliff[h, d] = True
    assert sight_table(GRID, level, none, none)[a, b]
    assert _blocked(level, none, cliff, 304, 504) == {4}


# ---------------------------------------------------------------------------------- invariants
def test_attu_8_1_2_distance_cutoff():
    flat = np.zeros(GRID.size, dtype=np.int8)
    none = no_cliffs()
    table = sight_table(GRID, flat, none, none)
    np.testing.assert_array_equal(table, GRID.distance <= 3)
    np.testing.assert_array_equal(sight_table(GRID, flat, none, none, max_distance=5), GRID.distance <= 5)
    np.testing.assert_array_equal(sight_table(GRID, flat, none, none, max_distance=1), GRID.distance <= 1)


def reference_sees(grid: HexGrid, level, slope, cliff, a: int, b: int, max_distance: int) -> bool:
    """8.1.2 straight from the geometry, one pair at a time: the segment between the two centres of
    HexGrid.center against every hexside of the map (slow; an oracle for small maps)."""
    distance = grid.distance
    if distance[a, b] > max_distance:
        return False
    if distance[a, b] <= 1:
        return True
    angle = np.radians(60.0 * np.arange(6))
    corner = grid.center[:, None, :] + np.stack([np.cos(angle), np.sin(angle)], axis=1)[None]
    u = corner[:, (np.arange(6) + 4) % 6]  # side d runs from corner d+4 to corner d+5 (y points S)
    v = corner[:, (np.arange(6) + 5) % 6]
    p, q = grid.center[a], grid.center[b]
    d1, d2 = q - p, v - u

    def cross(x, y):
        return x[..., 0] * y[..., 1] - x[..., 1] * y[..., 0]

    eps = 1e-9
    den = cross(d1, d2)
    w = u - p
    parallel = np.abs(den) < eps
    safe = np.where(parallel, 1.0, den)
    t, s = cross(w, d2) / safe, cross(w, d1) / safe
    meets = ~parallel & (t >= -eps) & (t <= 1 + eps) & (s >= -eps) & (s <= 1 + eps)
    collinear = parallel & (np.abs(cross(w, d1)) < eps)
    tu, tv = (w @ d1) / (d1 @ d1), ((v - p) @ d1) / (d1 @ d1)
    meets |= collinear & (np.minimum(tu, tv) <= 1 + eps) & (np.maximum(tu, tv) >= -eps)

    n = grid.neighbours
    other = np.maximum(n, 0)
    back = (np.arange(6) + 3) % 6
    touched = meets.any(axis=1)
    touched[[a, b]] = False
    la, lb = int(level[a]), int(level[b])
    low, high = min(la, lb), max(la, lb)
    lower, higher = (a, b) if la < lb else (b, a)
    between = np.nonzero(touched)[0]
    if (level[between] > high).any():
        return False
    closer = distance[between, lower] <= distance[between, higher]
    if la != lb and ((level[between] > low) & closer).any():
        return False
    is_cliff = cliff | (cliff[other, back] & (n >= 0))
    is_slope = (slope | (slope[other, back] & (n >= 0))) & ~is_cliff
    side_level = np.maximum(level[:, None], np.where(n >= 0, level[other], level[:, None]))
    rows = np.arange(grid.size)[:, None]
    of_a = (rows == a) | (n == a)
    of_b = (rows == b) | (n == b)
    of_higher = of_a | of_b if la == lb else (of_a if la > lb else of_b)
    if (meets & is_slope & ~of_a & ~of_b & (side_level >= high)).any():
        return False
    return not (meets & is_cliff & (side_level == high) & ~of_higher).any()


@st.composite
def small_maps(draw):
    grid = HexGrid(draw(st.integers(1, 6)), draw(st.integers(1, 6)), odd_columns_down=draw(st.booleans()))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    level = rng.integers(0, draw(st.integers(1, 5)), grid.size).astype(np.int8)
    slope = rng.random((grid.size, 6)) < draw(st.floats(0.0, 0.6))
    cliff = rng.random((grid.size, 6)) < draw(st.floats(0.0, 0.3))
    n = grid.neighbours
    for h, d in zip(*np.nonzero(n >= 0)):  # a cliff is one hexside, seen from both hexes
        cliff[n[h, d], opposite(d)] = cliff[h, d] = cliff[h, d] or cliff[n[h, d], opposite(d)]
    return grid, level, slope, cliff, draw(st.integers(0, 4))


@settings(max_examples=60, deadline=None)
@given(small_maps())
def test_attu_8_1_2_table_symmetric_diagonal_and_cut_off(case):
    grid, level, slope, cliff, max_distance = case
    table = sight_table(grid, level, slope, cliff, max_distance)
    assert table.shape == (grid.size, grid.size) and table.dtype == bool
    np.testing.assert_array_equal(table, table.T)
    assert table.diagonal().all()
    assert not table[grid.distance > max_distance].any()
    assert table[grid.distance <= min(1, max_distance)].all()  # adjacent hexes always see


@settings(max_examples=25, deadline=None)
@given(small_maps())
def test_attu_8_1_2_table_matches_pair_by_pair_geometry(case):
    grid, level, slope, cliff, max_distance = case
    table = sight_table(grid, level, slope, cliff, max_distance)
    for a in range(grid.size):
        for b in range(grid.size):
            assert table[a, b] == reference_sees(grid, level, slope, cliff, a, b, max_distance), \
                (grid.label(a), grid.label(b))


def test_attu_8_1_2_builds_the_42x28_map():
    grid = HexGrid(42, 28, odd_columns_down=True)
    rng = np.random.default_rng(7)
    level = rng.integers(0, 5, grid.size).astype(np.int8)
    slope = rng.random((grid.size, 6)) < 0.2
    cliff = np.zeros((grid.size, 6), dtype=bool)
    n = grid.neighbours
    for h, d in zip(*np.nonzero((rng.random((grid.size, 6)) < 0.05) & (n >= 0))):
        cliff[h, d] = cliff[n[h, d], opposite(d)] = True
    table = sight_table(grid, level, slope, cliff)
    assert table.shape == (1176, 1176) and table.dtype == bool and not table.flags.writeable
    np.testing.assert_array_equal(table, table.T)
    assert table.diagonal().all() and not table[grid.distance > 3].any()
    assert 0 < table[grid.distance >= 2].sum() < (grid.distance[(grid.distance >= 2)] <= 3).sum()
    for a, b in rng.integers(0, grid.size, (300, 2)):
        b = a if grid.distance[a, b] > 3 else b
        assert table[a, b] == reference_sees(grid, level, slope, cliff, a, b, 3)
