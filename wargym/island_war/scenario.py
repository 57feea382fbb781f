"""Island War data: Terrain Key, Combat Results Table, maps and scenarios (2.1-2.3, 3.0, 7.61).

Files (configs/island_war/)::

    terrain.yaml        Terrain Key: per terrain its code letter, Movement Point cost (5.21),
                        CRT line (7.43), whether armor may enter off-road (5.25), passable; hexside
                        features river (extra MP, CRT line 7.42) and prohibited (7.72)
    crt.yaml            Combat Results Table: differential columns and, per terrain line, the six
                        results of each column (7.61-7.62); lines ranked for 7.44-7.45
    <scenario>.yaml     the Exclusive Rules of one game: map file, first player, game length,
                        order of battle with set-up or arrival, ground support track (9.0),
                        objectives and victory conditions
    <scenario>_map.yaml the hex map: terrain letters row by row, roads and trails as hex paths,
                        river and prohibited hexsides as hex pairs, named hexes

``load_scenario(name_or_path)`` validates everything and compiles a frozen ``Scenario`` of numpy
lookup tables (neighbours, distances, hexside features, unit values) used by the engine.
Hex numbers are strings "XXYY" in the files (YAML would read 0101 as an octal number).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, Optional

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from wargym.data import DataError, config_path, load_yaml, validate
from wargym.hexgrid import HexGrid

SIDES = ("us", "japan")
US, JAPAN = 0, 1
UNIT_TYPES = ("infantry", "engineer", "armor", "artillery")
INFANTRY, ENGINEER, ARMOR, ARTILLERY = range(4)
RESULTS = ("A1", "A2", "A3", "Ae", "D1", "D2", "D3", "De")
A1, A2, A3, AE, D1, D2, D3, DE = range(8)

# hexside feature bits
ROAD, TRAIL, RIVER, PROHIBITED = 1, 2, 4, 8

HexNum = str


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# ---------------------------------------------------------------------------------------- terrain
class TerrainType(_Strict):
    code: str = Field(min_length=1, max_length=1)
    move_cost: int = Field(ge=1, le=20, default=1)        # 5.21
    crt_line: Optional[str] = None                        # 7.43; None only for impassable
    armor: bool = True                                    # 5.25: armor may enter off road/trail
    passable: bool = True
    reconstructed: bool = True


class HexsideType(_Strict):
    move_cost: int = Field(ge=0, le=20, default=0)        # 5.21: added to the hex cost
    crt_line: Optional[str] = None                        # 7.42
    reconstructed: bool = True


class TerrainKey(_Strict):
    reconstructed: bool = True
    terrain: dict[str, TerrainType]
    river: HexsideType
    prohibited: HexsideType = HexsideType()


# -------------------------------------------------------------------------------------------- CRT
class CrtColumn(_Strict):
    label: str
    min: Optional[int] = None      # inclusive; None = open below
    max: Optional[int] = None      # inclusive; None = open above


class CrtLine(_Strict):
    defense_rank: int              # 7.44/7.45: the highest rank is "most advantageous"
    results: list[list[str]]       # [column][die 1..6]

    @field_validator("results")
    @classmethod
    def _codes(cls, v):
        for row in v:
            if len(row) != 6:
                raise ValueError(f"each column needs 6 results (die 1-6), got {len(row)}")
            for code in row:
                if code not in RESULTS:
                    raise ValueError(f"unknown result {code!r}; 7.62 defines {', '.join(RESULTS)}")
        return v


class CombatResultsTable(_Strict):
    reconstructed: bool = True
    columns: list[CrtColumn]
    lines: dict[str, CrtLine]


# -------------------------------------------------------------------------------------------- map
class MapFile(_Strict):
    reconstructed: bool = True
    title: str = ""
    columns: int = Field(ge=2, le=99)
    rows: int = Field(ge=2, le=99)
    terrain_rows: list[str]                        # terrain_rows[YY-1][XX-1] is a terrain code
    roads: list[list[HexNum]] = []                 # each a path of adjacent hexes (5.22)
    trails: list[list[HexNum]] = []                # each a path of adjacent hexes (5.23)
    rivers: list[tuple[HexNum, HexNum]] = []       # hexsides between two adjacent hexes (7.42)
    prohibited: list[tuple[HexNum, HexNum]] = []   # hexsides no unit may cross (7.72)
    names: dict[HexNum, str] = {}


# --------------------------------------------------------------------------------------- scenario
class UnitSpec(_Strict):
    name: str
    side: Literal["us", "japan"]
    type: Literal["infantry", "engineer", "armor", "artillery"]
    attack: int = Field(ge=0, le=40, default=0)     # 2.32 (non-artillery)
    defense: int = Field(ge=0, le=40)
    move: int = Field(ge=0, le=30)
    barrage: int = Field(ge=0, le=40, default=0)    # artillery only
    fpf: int = Field(ge=0, le=40, default=0)        # artillery only
    range: int = Field(ge=0, le=40, default=0)      # artillery only
    setup: Optional[HexNum] = None                  # set-up hex (3.0) ...
    arrives: Optional[int] = Field(default=None, ge=1)  # ... or reinforcement turn
    entry: Optional[str] = None                     # entry area of a reinforcement
    vp: int = Field(ge=0, le=50, default=0)         # victory points to the enemy when eliminated
    reconstructed: bool = True


class Objective(_Strict):
    hex: HexNum
    name: str
    vp: int = Field(ge=0, le=100)
    owner: Literal["us", "japan", "none"] = "japan"


class Victory(_Strict):
    """margin = US victory points - Japanese victory points at the end of the last Game-Turn."""
    us_wins_at_margin: int
    japan_wins_at_margin: int
    text: str = ""


class ScenarioFile(_Strict):
    name: str
    title: str
    reconstructed: bool = True
    map: str
    first_player: Literal["us", "japan"]
    game_turns: int = Field(ge=1, le=100)
    units: list[UnitSpec] = Field(min_length=2)
    entry_areas: dict[str, list[HexNum]] = {}
    ground_support: dict[Literal["us", "japan"], list[int]] = {}
    objectives: list[Objective] = []
    victory: Victory
    notes: str = ""


_SCENARIO_RULES = {"units": "3.0", "ground_support": "9.0", "first_player": "3.0",
                   "entry_areas": "4.1", "objectives": "3.0", "victory": "3.0", "map": "2.1"}
_MAP_RULES = {"terrain_rows": "2.1", "roads": "5.22", "trails": "5.23", "rivers": "7.42",
              "prohibited": "7.72"}


# ------------------------------------------------------------------------------ compiled scenario
@dataclass(frozen=True)
class Scenario:
    """Static facts of one game, precomputed into lookup tables (never changed by a step)."""

    name: str
    title: str
    grid: HexGrid
    first_player: int
    game_turns: int
    # terrain
    terrain_names: tuple[str, ...]
    hex_terrain: np.ndarray        # int8[H]
    hex_move_cost: np.ndarray      # int16[H], MP to enter; 0 = impassable
    hex_armor_ok: np.ndarray       # bool[H]   armor may enter without road/trail (5.25)
    hex_crt_line: np.ndarray       # int8[H]   CRT line of the hex terrain
    hexside: np.ndarray            # uint8[H, 6] feature bits (ROAD, TRAIL, RIVER, PROHIBITED)
    river_cost: int
    river_crt_line: int
    hex_names: dict[int, str]
    # CRT
    crt_line_names: tuple[str, ...]
    crt_line_rank: np.ndarray      # int16[L]
    crt_column_labels: tuple[str, ...]
    crt_column_min: np.ndarray     # int32[K] (very negative for open)
    crt_table: np.ndarray          # int8[L, K, 6]
    # units
    unit_names: tuple[str, ...]
    unit_side: np.ndarray          # int8[U]
    unit_type: np.ndarray          # int8[U]
    unit_attack: np.ndarray        # int16[U]
    unit_defense: np.ndarray
    unit_move: np.ndarray
    unit_barrage: np.ndarray
    unit_fpf: np.ndarray
    unit_range: np.ndarray
    unit_vp: np.ndarray
    unit_setup: np.ndarray         # int16[U] hex index or -1
    unit_arrives: np.ndarray       # int16[U] turn or 0
    unit_entry: np.ndarray         # int16[U] entry area index or -1
    entry_area_names: tuple[str, ...]
    entry_hexes: np.ndarray        # bool[E, H]
    ground_support: np.ndarray     # int16[T + 1, 2] points per game-turn (index 0 unused)
    objective_hex: np.ndarray      # int16[O]
    objective_vp: np.ndarray       # int16[O]
    objective_owner: np.ndarray    # int8[O] initial owner (-1 none)
    objective_names: tuple[str, ...]
    us_wins_at_margin: int
    japan_wins_at_margin: int
    victory_text: str
    notes: str

    @property
    def facts(self) -> str:
        """One line for ``wargym scenarios``."""
        return (f"{self.game_turns} game-turns, {self.grid.columns}x{self.grid.rows} hexes, {self.num_units} units, "
                f"{len(self.objective_names)} objectives")

    @property
    def victory(self) -> str:
        """How the scenario is won, in one sentence (``wargym scenarios``; the whole text is in the
        scenario file)."""
        return (f"victory margin (US minus Japanese victory points: objectives held, enemy units eliminated) "
                f"after game-turn {self.game_turns}: the US wins at {self.us_wins_at_margin:+d} or more, "
                f"Japan at {self.japan_wins_at_margin:+d} or less")

    @property
    def num_hexes(self) -> int:
        return self.grid.size

    @property
    def num_units(self) -> int:
        return len(self.unit_names)


def _hex(grid: HexGrid, file, key: str, value, rule: str) -> int:
    text = str(value)
    if not (len(text) == 4 and text.isdigit()) or not grid.contains(int(text)):
        raise DataError(file, key, value, rule, f"not a hex of the {grid.columns}x{grid.rows} map (XXYY)")
    return grid.index(int(text))


def _compile_map(mfile: Path, m: MapFile, key: TerrainKey):
    grid = HexGrid(m.columns, m.rows)
    codes = {t.code: i for i, t in enumerate(key.terrain.values())}
    terrains = list(key.terrain.values())
    if len(m.terrain_rows) != m.rows:
        raise DataError(mfile, "terrain_rows", len(m.terrain_rows), "2.1", f"need {m.rows} rows")
    hex_terrain = np.zeros(grid.size, dtype=np.int8)
    for r, line in enumerate(m.terrain_rows):
        if len(line) != m.columns:
            raise DataError(mfile, f"terrain_rows[{r}]", line, "2.1", f"need {m.columns} columns, got {len(line)}")
        for c, ch in enumerate(line):
            if ch not in codes:
                raise DataError(mfile, f"terrain_rows[{r}][{c}]", ch, "2.1",
                                f"unknown terrain code; terrain.yaml defines {sorted(codes)}")
            hex_terrain[grid.index((c + 1) * 100 + r + 1)] = codes[ch]
    hexside = np.zeros((grid.size, 6), dtype=np.uint8)

    def mark(a: int, b: int, bit: int, where: str, value, rule: str) -> None:
        hits = np.nonzero(grid.neighbours[a] == b)[0]
        if len(hits) == 0:
            raise DataError(mfile, where, value, rule, "hexes are not adjacent")
        d = int(hits[0])
        hexside[a, d] |= bit
        hexside[b, (d + 3) % 6] |= bit

    for name, bit, rule in (("roads", ROAD, "5.22"), ("trails", TRAIL, "5.23")):
        for i, path in enumerate(getattr(m, name)):
            idx = [_hex(grid, mfile, f"{name}[{i}][{j}]", h, rule) for j, h in enumerate(path)]
            for j in range(len(idx) - 1):
                mark(idx[j], idx[j + 1], bit, f"{name}[{i}][{j + 1}]", path[j + 1], rule)
    for name, bit, rule in (("rivers", RIVER, "7.42"), ("prohibited", PROHIBITED, "7.72")):
        for i, (a, b) in enumerate(getattr(m, name)):
            mark(_hex(grid, mfile, f"{name}[{i}][0]", a, rule), _hex(grid, mfile, f"{name}[{i}][1]", b, rule),
                 bit, f"{name}[{i}]", [a, b], rule)
    names = {_hex(grid, mfile, f"names.{h}", h, "2.1"): n for h, n in m.names.items()}
    return grid, terrains, hex_terrain, hexside, names


def _resolve(name_or_path: str | Path, suffix: str = ".yaml") -> Path:
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    shipped = config_path("island_war", f"{name_or_path}{suffix}")
    if not shipped.is_file() or str(name_or_path) not in list_scenarios():
        raise ValueError(f"unknown island_war scenario {str(name_or_path)!r}; the scenarios are "
                         f"{', '.join(list_scenarios())} (or give the path of a scenario .yaml file)")
    return shipped


def _beside(sfile: Path, key: str, name: str, rule: str) -> Path:
    """The file a scenario names (``key: name``), looked for beside the scenario file; a DataError
    naming the scenario file, the key, the missing file and where it looked when it is not there."""
    path = sfile.parent / name
    if path.is_file():
        return path
    shipped = config_path("island_war", name)
    hint = (f"; the shipped {name} is {shipped}: copy it beside the scenario" if shipped.is_file()
            and shipped.resolve() != path.resolve() else "")
    raise DataError(sfile, key, name, rule, f"file {path} not found (a {key} file is looked for in the scenario "
                                            f"file's folder, {sfile.parent.resolve()}){hint}")


def list_scenarios() -> list[str]:
    folder = config_path("island_war")
    return sorted(p.stem for p in folder.glob("*.yaml")
                  if not p.stem.endswith("_map") and p.stem not in ("terrain", "crt"))


@lru_cache(maxsize=16)
def load_scenario(name_or_path: str = "saipan") -> Scenario:
    """Validate and compile a scenario by name (shipped) or path (a file of your own)."""
    sfile = _resolve(name_or_path)
    sf = validate(ScenarioFile, load_yaml(sfile), sfile, _SCENARIO_RULES)
    kfile = sfile.parent / "terrain.yaml"
    if not kfile.exists():
        kfile = config_path("island_war", "terrain.yaml")
    key = validate(TerrainKey, load_yaml(kfile), kfile, {"terrain": "5.21", "river": "7.42"})
    cfile = sfile.parent / "crt.yaml"
    if not cfile.exists():
        cfile = config_path("island_war", "crt.yaml")
    crt = validate(CombatResultsTable, load_yaml(cfile), cfile, {"columns": "7.61", "lines": "7.61"})
    mfile = _beside(sfile, "map", sf.map, "2.1")
    m = validate(MapFile, load_yaml(mfile), mfile, _MAP_RULES)
    grid, terrains, hex_terrain, hexside, names = _compile_map(mfile, m, key)

    # CRT (7.61) and the lines the terrain refers to
    line_names = tuple(crt.lines)
    line_index = {n: i for i, n in enumerate(line_names)}
    k = len(crt.columns)
    for name, line in crt.lines.items():
        if len(line.results) != k:
            raise DataError(cfile, f"lines.{name}.results", len(line.results), "7.61",
                            f"need one entry per column ({k})")
    for i, col in enumerate(crt.columns):
        if i > 0 and (col.min is None or crt.columns[i - 1].max is None or col.min != crt.columns[i - 1].max + 1):
            raise DataError(cfile, f"columns[{i}].min", col.min, "7.61", "columns must be contiguous")
    crt_table = np.array([[[RESULTS.index(r) for r in col] for col in line.results]
                          for line in crt.lines.values()], dtype=np.int8)
    col_min = np.array([-10_000 if c.min is None else c.min for c in crt.columns], dtype=np.int32)
    for tname, t in key.terrain.items():
        if t.passable and t.crt_line not in line_index:
            raise DataError(kfile, f"terrain.{tname}.crt_line", t.crt_line, "7.43", f"not a CRT line {list(line_names)}")
    if key.river.crt_line not in line_index:
        raise DataError(kfile, "river.crt_line", key.river.crt_line, "7.42", f"not a CRT line {list(line_names)}")

    hex_move_cost = np.array([t.move_cost if t.passable else 0 for t in terrains], dtype=np.int16)[hex_terrain]
    hex_armor = np.array([t.armor for t in terrains], dtype=bool)[hex_terrain]
    hex_line = np.array([line_index.get(t.crt_line, 0) for t in terrains], dtype=np.int8)[hex_terrain]
    impassable = hex_move_cost == 0
    # hexsides into impassable hexes count as prohibited
    nb = grid.neighbours
    for d in range(6):
        into = (nb[:, d] >= 0) & impassable[np.maximum(nb[:, d], 0)]
        hexside[into | impassable, d] |= PROHIBITED

    # entry areas and units
    area_names = tuple(sf.entry_areas)
    entry = np.zeros((max(len(area_names), 1), grid.size), dtype=bool)
    for a, (aname, hexes) in enumerate(sf.entry_areas.items()):
        for j, h in enumerate(hexes):
            idx = _hex(grid, sfile, f"entry_areas.{aname}[{j}]", h, "4.1")
            if impassable[idx]:
                raise DataError(sfile, f"entry_areas.{aname}[{j}]", h, "4.1", "entry hex is impassable")
            entry[a, idx] = True
    u = len(sf.units)
    setup = np.full(u, -1, dtype=np.int16)
    arrives = np.zeros(u, dtype=np.int16)
    entry_of = np.full(u, -1, dtype=np.int16)
    occupied: dict[int, int] = {}
    for i, spec in enumerate(sf.units):
        where = f"units[{i}]"
        if (spec.setup is None) == (spec.arrives is None):
            raise DataError(sfile, where, spec.name, "3.0", "a unit needs exactly one of setup or arrives")
        if spec.type == "artillery":
            if spec.range < 1:
                raise DataError(sfile, f"{where}.range", spec.range, "2.32", "artillery needs a Range Allowance >= 1")
        elif spec.barrage or spec.fpf or spec.range:
            raise DataError(sfile, f"{where}.barrage", spec.barrage, "2.32", "only artillery has barrage/FPF/range")
        if spec.setup is not None:
            idx = _hex(grid, sfile, f"{where}.setup", spec.setup, "3.0")
            if impassable[idx]:
                raise DataError(sfile, f"{where}.setup", spec.setup, "3.0", "set-up hex is impassable")
            if idx in occupied:
                raise DataError(sfile, f"{where}.setup", spec.setup, "5.31",
                                f"stacking is prohibited: units[{occupied[idx]}] is already there")
            occupied[idx] = i
            setup[i] = idx
        else:
            if spec.arrives > sf.game_turns:
                raise DataError(sfile, f"{where}.arrives", spec.arrives, "3.0", f"after the last turn {sf.game_turns}")
            if spec.entry not in area_names:
                raise DataError(sfile, f"{where}.entry", spec.entry, "4.1", f"not an entry area {list(area_names)}")
            arrives[i] = spec.arrives
            entry_of[i] = area_names.index(spec.entry)

    gs = np.zeros((sf.game_turns + 1, 2), dtype=np.int16)
    for side, track in sf.ground_support.items():
        if len(track) != sf.game_turns:
            raise DataError(sfile, f"ground_support.{side}", len(track), "9.0",
                            f"need one entry per game-turn ({sf.game_turns})")
        gs[1:, SIDES.index(side)] = track
    obj_hex = np.array([_hex(grid, sfile, f"objectives[{i}].hex", o.hex, "3.0") for i, o in enumerate(sf.objectives)],
                       dtype=np.int16)

    def col(attr, dtype=np.int16):
        return np.array([getattr(s, attr) for s in sf.units], dtype=dtype)

    arrays = dict(
        hex_terrain=hex_terrain, hex_move_cost=hex_move_cost, hex_armor_ok=hex_armor, hex_crt_line=hex_line,
        hexside=hexside, crt_line_rank=np.array([ln.defense_rank for ln in crt.lines.values()], dtype=np.int16),
        crt_column_min=col_min, crt_table=crt_table,
        unit_side=np.array([SIDES.index(s.side) for s in sf.units], dtype=np.int8),
        unit_type=np.array([UNIT_TYPES.index(s.type) for s in sf.units], dtype=np.int8),
        unit_attack=col("attack"), unit_defense=col("defense"), unit_move=col("move"),
        unit_barrage=col("barrage"), unit_fpf=col("fpf"), unit_range=col("range"), unit_vp=col("vp"),
        unit_setup=setup, unit_arrives=arrives, unit_entry=entry_of, entry_hexes=entry, ground_support=gs,
        objective_hex=obj_hex, objective_vp=np.array([o.vp for o in sf.objectives], dtype=np.int16),
        objective_owner=np.array([-1 if o.owner == "none" else SIDES.index(o.owner) for o in sf.objectives],
                                 dtype=np.int8),
    )
    for a in arrays.values():
        a.setflags(write=False)
    return Scenario(
        name=sf.name, title=sf.title, grid=grid, first_player=SIDES.index(sf.first_player),
        game_turns=sf.game_turns, terrain_names=tuple(key.terrain), river_cost=key.river.move_cost,
        river_crt_line=line_index[key.river.crt_line], hex_names=names, crt_line_names=line_names,
        crt_column_labels=tuple(c.label for c in crt.columns), unit_names=tuple(s.name for s in sf.units),
        entry_area_names=area_names, objective_names=tuple(o.name for o in sf.objectives),
        us_wins_at_margin=sf.victory.us_wins_at_margin, japan_wins_at_margin=sf.victory.japan_wins_at_margin,
        victory_text=sf.victory.text, notes=sf.notes, **arrays,
    )
