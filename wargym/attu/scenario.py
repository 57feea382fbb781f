"""Attu data: the map, the counter mix, the charts and the scenarios (configs/attu/).

Files::

    map.yaml        levels (0-4, '.' sea) and victory zones row by row, lakes, dry rivers as hex
                    chains, slope art and cliff hexsides ("XXYY/DIR"), landing zones A-I with
                    capacities, named places (5.x, 9.2.1, 10.0)
    counters.yaml   unit profiles (ratings by steps left), the U.S. order of battle by battalion,
                    the Japanese Infantry rating mix, Unknown tables and guns (2.x, 12.3, 12.5)
    charts.yaml     weather, airpower, spotting, die roll modifiers, combat results, scatter, loss
                    recovery, night infiltration, Komandorski and victory point chits (3.3, 3.4, 8.0,
                    8.1.1, 8.1.5, 8.1.6, 8.3, 9.1, 9.2.2, 12.1, 13.5, 14)
    scenarios.yaml  campaign, campaign_free and the short scenarios of 15.0

``load_scenario(name)`` validates every file (``DataError``: file, key, value, rule) and compiles a
frozen ``Scenario`` of lookup tables: neighbours, distances, per-hexside movement costs for each
nationality (5.0), ZOC reach (6.0), line of sight (8.1.2, wargym.attu.los), unit ratings by steps.
The map numbers hexes XXYY with odd columns half a hex lower (2717 borders 2617 and 2618: 8.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal, Optional, Union

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field

from wargym.data import DataError, config_path, validate
from wargym.hexgrid import DIRECTION_NAMES, HexGrid, opposite

SIDES = ("us", "japan")
US, JAPAN = 0, 1
UNIT_TYPES = ("infantry", "recon", "engineer", "depot", "unknown", "artillery")
INFANTRY, RECON, ENGINEER, DEPOT, UNKNOWN, ARTILLERY = range(6)
WEATHERS = ("cloudy", "rain", "fog", "williwaw")
CLOUDY, RAIN, FOG, WILLIWAW = range(4)
ZONE_LETTERS = "thjeva"
ZONE_NAMES = ("Temnac Bay", "Holtz Bay", "Jarmin Pass", "Engineer Hill", "Attu Village", "Alexai Point")
VICTORY_HEXES = (1425, 2011, 2117, 2717, 3409, 3622)  # 3.8.1, in ZONE_LETTERS order
JARMIN_PASS_ZONE = 2
ENGINEER_HILL_ZONE = 3                                   # 3.8.1: Japan's gun hex (2717)
SECURED_ZONES = (JARMIN_PASS_ZONE, ENGINEER_HILL_ZONE)   # 15.3: north, south (State.secured)
ATTU_VILLAGE_ZONE = 4                                    # 10.0: never considered cleared
LZ_LETTERS = "ABCDEFGHI"
LANDING_ZONES = len(LZ_LETTERS)                          # A-I (9.2.2)
D_TO_G = tuple(LZ_LETTERS.index(z) for z in "DEFG")       # 12.5's choice; Japan's beaches (3.8.1)
H_OR_I = tuple(LZ_LETTERS.index(z) for z in "HI")         # 12.5's other choice
NORTHERN_LZS = tuple(LZ_LETTERS.index(z) for z in "AB")   # 15.2: the Northern Force lands at A and B
IMPASSABLE = 99
NORTHERN_REINFORCEMENTS = ("1/4", "50 Eng")  # 15.2: the Northern Force's reinforcements
MAX_STEPS = 4
TURN_0_DATE = 10   # 12.2: turn 1 is May 11, so turn t is May TURN_0_DATE + t

# u_staging: a landing zone 0-8 (12.5 historic staging), or one of these
STAGING_RESERVE = -1    # the Reinforcements Box
STAGING_NONE = -3       # never staged: the Independent counters and Supply Depots (9.3, 9.4), the Japanese
STAGING_D_TO_G = 10     # 12.5: in D, E, F or G, at the U.S. player's choice
STAGING_H_OR_I = 11     # 12.5: in H or I, at the U.S. player's choice
FREE_STAGING = 12       # the U.S. player stages it in any zone of its force's area (12.6, 15.x)

# scatter results (9.2.2): a landing zone index 0-8, or one of these
LANDED, DELAYED = -1, -2

HexNum = Union[int, str]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _DecimalLoader(yaml.SafeLoader):
    """YAML loader reading 0512 as the hex number 512, not as an octal integer."""


def _decimal_int(loader, node):
    text = loader.construct_scalar(node).replace("_", "")
    return int(text, 10) if re.fullmatch(r"[-+]?\d+", text) else yaml.SafeLoader.construct_yaml_int(loader, node)


_DecimalLoader.add_constructor("tag:yaml.org,2002:int", _decimal_int)


def load_data(path: Path):
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(path, "<file>", str(path), "", "file not found") from None
    try:
        return yaml.load(text, Loader=_DecimalLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise DataError(path, "<file>", "", "", f"not valid YAML: {exc}") from None


# -------------------------------------------------------------------------------------------- map
class GridSpec(_Strict):
    columns: int = Field(ge=2, le=99)
    rows: int = Field(ge=2, le=99)
    odd_columns_down: bool = True


class River(_Strict):
    name: str
    hexes: list[HexNum] = Field(min_length=2)


class LandingZone(_Strict):
    hex: HexNum
    capacity: int = Field(ge=1, le=40)      # 9.2.1: steps
    beach: str = ""


class MapFile(_Strict):
    reconstructed: bool = True
    notes: str = ""
    grid: GridSpec
    levels: list[str]
    zones: list[str]
    lakes: list[HexNum] = []
    rivers: list[River] = []
    slopes: list[str] = []
    cliffs: list[str] = []
    landing_zones: dict[Literal["A", "B", "C", "D", "E", "F", "G", "H", "I"], LandingZone]
    places: dict[HexNum, str] = {}


# ------------------------------------------------------------------------------------- counters
class Profile(_Strict):
    type: Literal["infantry", "recon", "engineer", "depot", "unknown", "artillery"]
    steps: int = Field(ge=1, le=MAX_STEPS)
    melee: list[int] = []
    ranged: list[int] = []
    range: int = Field(ge=0, le=20, default=0)
    move: int = Field(ge=0, le=20)
    independent: bool = False
    fixed: bool = False
    reconstructed: Union[bool, list[str]] = False


class UsCounters(_Strict):
    companies: dict[str, tuple[str, list[str]]]
    independent_counters: int = Field(ge=0, le=30)


class JapanCounters(_Strict):
    infantry: list[tuple[int, int, int, int]]
    unknown_tables: list[tuple[int, list[int]]]
    artillery: dict[str, int]


class CountersFile(_Strict):
    profiles: dict[str, Profile]
    us: UsCounters
    japan: JapanCounters


# --------------------------------------------------------------------------------------- charts
class WeatherChart(_Strict):
    names: list[str]
    first_line: str
    chart: dict[str, list[tuple[int, int, str]]]


class AirpowerChart(_Strict):
    weather_modifier: dict[str, int]
    table: dict[int, tuple[int, int]]


class CombatChart(_Strict):
    hit_on: int
    natural_hit: int = Field(ge=1, le=10)
    friendly_fire_at_most: int
    soft_ground_at_most: int = Field(ge=0, le=10)


class NightInfiltration(_Strict):
    fails_at_most: int
    weather_modifier: dict[str, int]


class Modifier(_Strict):
    melee: Optional[int] = None
    ranged: Optional[int] = None
    airpower: Optional[int] = None


class ScatterChart(_Strict):
    modifier: dict[str, int]
    chart: dict[str, list[tuple[int, int, str]]]


class LossRecovery(_Strict):
    reconstructed: bool = True
    casualty_columns: list[int]
    roll_rows: list[int]
    steps: list[list[int]]
    weather_modifier: dict[str, int]


class Komandorski(_Strict):
    effect_box_turn: int
    effect_chits: list[int]
    delay_chits: list[int]


class VictoryPoints(_Strict):
    value_chits: list[int]
    cancel_chits: list[Union[int, str]]
    attu_bonus: int
    early_end_before: int
    late_end_after: int
    levels: list[tuple[int, str]]


class ChartsFile(_Strict):
    weather: WeatherChart
    airpower: AirpowerChart
    spotting_distance: dict[str, int]
    modifiers: dict[str, Modifier]
    combat: CombatChart
    night_infiltration: NightInfiltration
    scatter: ScatterChart
    loss_recovery: LossRecovery
    casualty_track_max: int = 30
    komandorski: Komandorski
    victory_points: VictoryPoints


# ------------------------------------------------------------------------------------ scenarios
class ScenarioSpec(_Strict):
    description: str = ""
    us_setup: Literal["historic", "free", "historic_subset"]
    japan_setup: Literal["historic", "free"]
    end: Literal["komandorski", "date"] = "date"
    end_date: int = Field(ge=11, le=40, default=30)
    heroes: bool = True
    us_landing_zones: list[str] = list(LZ_LETTERS)
    us_reinforcements: Optional[list[str]] = None
    japan_unknowns: int = Field(ge=1, le=16, default=16)
    unknowns_single_use: bool = False
    area: list[str] = list(ZONE_LETTERS)
    target_hexes: list[HexNum] = []
    airpower_modifier: int = 0
    refit_modifier: int = 0


SCENARIO_RULES = {"us_setup": "12.5/12.6", "japan_setup": "12.3/12.4", "end": "12.1", "area": "15.0",
                  "target_hexes": "15.0", "japan_unknowns": "15.1"}
MAP_RULES = {"levels": "5.4", "zones": "10.0", "slopes": "5.3", "cliffs": "5.7", "rivers": "5.5",
             "lakes": "5.6", "landing_zones": "9.2.1"}


# ------------------------------------------------------------------------------------- compiled
@dataclass(frozen=True, eq=False)
class Scenario:
    """Static facts of one Attu scenario as lookup tables (indexed by dense hex / unit index)."""

    name: str
    spec: ScenarioSpec
    grid: HexGrid
    # map
    land: np.ndarray            # bool[H] land inside the scenario's play area (15.0)
    level: np.ndarray           # int8[H] 0-4 (5.4); sea 0
    zone: np.ndarray            # int8[H] victory zone 0-5 (ZONE_LETTERS), -1 sea/out of play
    lake: np.ndarray            # bool[H] (5.6)
    slope: np.ndarray           # bool[H, 6] slope art inside hex h on side d (5.3)
    cliff: np.ndarray           # bool[H, 6] (5.7)
    river: np.ndarray           # bool[H, 6] h and its neighbour d follow the same river (5.5)
    move_cost: np.ndarray       # int8[2, H, 6] MP to enter neighbour d from h, per side (5.0)
    zoc_reach: np.ndarray       # bool[H, 6] a unit in h projects a ZOC into neighbour d (6.0)
    sight: np.ndarray           # bool[H, H] line of sight within spotting distance (8.1.2)
    lz_hex: np.ndarray          # int16[LANDING_ZONES] landing zone hexes A-I (-1 out of play)
    lz_capacity: np.ndarray     # int16[LANDING_ZONES] (9.2.1)
    lz_of_hex: np.ndarray       # int8[H] landing zone at h, -1
    near_lz: np.ndarray         # bool[H] in or adjacent to a landing zone (9.5, 9.6, 12.4)
    victory_hex: np.ndarray     # int16[6] per zone (3.8.1, 10.0)
    target_hex: np.ndarray      # int16[k] hexes the U.S. must capture (15.x) or all six
    hex_names: dict[int, str]
    # units
    unit_names: list[str]
    unit_side: np.ndarray       # int8[U]
    unit_type: np.ndarray       # int8[U] (UNIT_TYPES)
    unit_steps: np.ndarray      # int8[U] full strength
    unit_start_steps: np.ndarray  # int8[U] steps at set-up (12.5: 7th Recon at 3)
    unit_melee: np.ndarray      # int8[U, 4] dice by steps left
    unit_ranged: np.ndarray     # int8[U, 4]
    unit_range: np.ndarray      # int8[U]
    unit_move: np.ndarray       # int8[U]
    unit_battalion: np.ndarray  # int8[U] U.S. stacking battalion (4.1), -1 independent / Japanese
    unit_fixed: np.ndarray      # bool[U] 105mm fixed positions (8.1.5)
    unit_table: np.ndarray      # int8[U, 10] Unknown table: Infantry for die 1-10 (2.5)
    unit_depot: np.ndarray      # int16[U] an Engineer's Supply Depot unit (7.3), -1
    unit_in_play: np.ndarray    # bool[U] counters this scenario uses
    unit_staging: np.ndarray    # int8[U] historic staging zone 0-8 or STAGING_* (12.5)
    unit_force: np.ndarray      # int8[U] 15.3 force (0 north, 1 south), -1 any
    unit_group: np.ndarray      # int8[U] order-of-battle line (counters.yaml us.companies), -1
    unit_gun: np.ndarray        # int8[U] Japanese gun: 1 = 20mm, 2 = 75mm, 0 otherwise (12.4)
    gun_hexes: np.ndarray       # int16[2] 12.4: 3311 (also the 20mm centre) and 2409, -1 out of play
    battalion_names: list[str]
    independent_units: np.ndarray   # int16[k] Independent counters (9.3)
    japan_historic_unknown_hexes: np.ndarray  # int16[16] (12.3)
    japan_historic_artillery: np.ndarray      # int16[U] hex of each Japanese gun, -1
    # charts
    weather_next: np.ndarray    # int8[4, 11] previous weather, die 1-10 -> weather (3.3)
    first_weather_line: int
    airpower: np.ndarray        # int8[11, 2] modified roll (1..10; <=1 row 1) -> factors (3.4)
    airpower_weather: np.ndarray    # int8[4]
    spotting: np.ndarray        # int8[4] (8.1.1)
    mod: dict[str, tuple]       # 8.3 modifiers (melee, ranged, airpower), None = n/a
    hit_on: int                 # 8.0: a modified roll this high hits
    natural_hit: int            # 8.0: the natural roll that always hits (the '0', 1.2)
    friendly_fire_at: int       # 8.1.6: a modified Airpower roll this low hits the nearest friend
    soft_ground_at: int         # 8.1.5: a 105mm battery's natural roll this low costs it a step
    infiltration_fail: int      # 13.5: a modified roll this low keeps the unit in the ZOC
    infiltration_weather: np.ndarray  # int8[4] (13.5)
    scatter: np.ndarray         # int8[LANDING_ZONES, 11] staging zone, die -> LANDED / DELAYED / zone (9.2.2)
    scatter_weather: np.ndarray  # int8[4]
    recovery_columns: np.ndarray  # int16[c]
    recovery_rows: np.ndarray     # int16[r]
    recovery_steps: np.ndarray    # int8[r, c]
    recovery_weather: np.ndarray  # int8[4]
    casualty_max: int
    komandorski_turn: int
    effect_chits: np.ndarray
    delay_chits: np.ndarray
    vp_value_chits: np.ndarray
    vp_cancel_chits: np.ndarray   # -1 = cancelled
    vp_attu_bonus: int
    vp_early_before: int
    vp_late_after: int
    vp_levels: list[tuple[int, str]] = field(default_factory=list)

    @property
    def title(self) -> str:
        return self.spec.description

    @property
    def facts(self) -> str:
        """One line for ``wargym scenarios``."""
        end = "Komandorski end (12.1)" if self.spec.end == "komandorski" else f"ends May {self.spec.end_date}"
        return (f"{end}, {self.grid.columns}x{self.grid.rows} hexes ({int(self.land.sum())} in play), "
                f"{int(self.unit_in_play.sum())} units, {len(self.target_hex)} victory hexes to take")

    @property
    def victory(self) -> str:
        """How the scenario is won (``wargym scenarios``)."""
        if self.spec.end == "komandorski":
            levels = ", ".join(f"{name.replace('_', ' ')} from {points}" for points, name in self.vp_levels[1:])
            hill = self.hex_label(self.victory_hex[ENGINEER_HILL_ZONE])
            return ("3.8: the U.S. wins holding all six Victory Hexes at a Step 8 (3.8.1) or when every "
                    "Japanese Infantry and Artillery unit is eliminated (3.8.2; not in solitaire play, 13.6); "
                    f"Japan wins holding Landing Zones D, E, F and G or with a gun on {hill} that reaches them "
                    f"(3.8.1), when the Casualty Track reaches {self.casualty_max} (3.8.2), or when the U.S. "
                    "has not won by the end of the last turn (3.8.3).  With the vp_chits option, 14.0's "
                    "victory points decide when the game ends instead (the chits of the Victory Hexes held, "
                    f"Attu's {self.vp_attu_bonus}, the date): below {self.vp_levels[1][0]} a Japanese major "
                    f"victory, {levels}")
        names = " and ".join(self.hex_label(h) for h in self.target_hex)
        return (f"the U.S. wins holding {names} at a Step 8 (3.8.1) by the end of May {self.spec.end_date}; "
                "otherwise Japan wins (3.8.3); 3.8.2 as in the campaign, and Japan's 3.8.1 where "
                "Landing Zones D-G are in play")

    @property
    def num_hexes(self) -> int:
        return self.grid.size

    @property
    def num_units(self) -> int:
        return len(self.unit_names)

    def hex_label(self, h: int) -> str:
        text = self.grid.label(h)
        name = self.hex_names.get(int(h))
        return f"{text} {name}" if name else text


def _hex(grid: HexGrid, file, key: str, value, rule: str) -> int:
    try:
        return grid.index(int(str(value)))
    except (KeyError, ValueError):
        raise DataError(file, key, value, rule, "hex not on the map") from None


def _hexside(grid: HexGrid, file, key: str, value: str, rule: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{3,4})/(N|NE|SE|S|SW|NW)", str(value))
    if not m:
        raise DataError(file, key, value, rule, "a hexside is written XXYY/DIR, DIR one of N NE SE S SW NW")
    h = _hex(grid, file, key, m.group(1), rule)
    d = DIRECTION_NAMES.index(m.group(2))
    if grid.neighbours[h, d] < 0:
        raise DataError(file, key, value, rule, "hexside on the map edge")
    return h, d


def _chart_rows(file, key, rows, names, rule) -> np.ndarray:
    """[[lo, hi, result], ...] covering dice 1-10 exactly -> int8[11] of result names' indices."""
    out = np.full(11, -99, dtype=np.int8)
    for i, (lo, hi, result) in enumerate(rows):
        if not 1 <= lo <= hi <= 10:
            raise DataError(file, f"{key}[{i}]", [lo, hi], rule, "die range must lie in 1-10")
        if result not in names:
            raise DataError(file, f"{key}[{i}]", result, rule, f"result must be one of {sorted(names)}")
        if (out[lo:hi + 1] != -99).any():
            raise DataError(file, f"{key}[{i}]", [lo, hi], rule, "die ranges overlap")
        out[lo:hi + 1] = names[result]
    if (out[1:] == -99).any():
        raise DataError(file, key, rows, rule, "die ranges must cover 1-10")
    return out


def _compile_map(file: Path, m: MapFile, spec: ScenarioSpec):
    g = m.grid
    grid = HexGrid(g.columns, g.rows, odd_columns_down=g.odd_columns_down)
    H = grid.size
    for key, rows in (("levels", m.levels), ("zones", m.zones)):
        if len(rows) != g.rows:
            raise DataError(file, key, len(rows), MAP_RULES[key], f"needs {g.rows} rows")
        for r, text in enumerate(rows):
            if len(text) != g.columns:
                raise DataError(file, f"{key}[{r}]", text, MAP_RULES[key], f"needs {g.columns} characters")
    level = np.zeros(H, dtype=np.int8)
    land = np.zeros(H, dtype=bool)
    zone = np.full(H, -1, dtype=np.int8)
    for r in range(g.rows):
        for c in range(g.columns):
            h = c * g.rows + r
            ch, zc = m.levels[r][c], m.zones[r][c]
            if ch == ".":
                if zc != ".":
                    raise DataError(file, f"zones[{r}]", zc, "10.0", f"sea hex {grid.label(h)} given a zone")
                continue
            if ch not in "01234":
                raise DataError(file, f"levels[{r}]", ch, "5.4", f"hex {grid.label(h)}: level must be 0-4 or '.'")
            if zc not in ZONE_LETTERS:
                raise DataError(file, f"zones[{r}]", zc, "10.0",
                                f"land hex {grid.label(h)} needs a zone letter of {ZONE_LETTERS!r}")
            land[h], level[h], zone[h] = True, int(ch), ZONE_LETTERS.index(zc)
    area = np.array([ZONE_LETTERS[z] in spec.area if z >= 0 else False for z in zone])
    playable = land & area

    def need_land(key, h, rule):
        if not land[h]:
            raise DataError(file, key, grid.number(h), rule, "must be a land hex")

    lake = np.zeros(H, dtype=bool)
    for i, v in enumerate(m.lakes):
        h = _hex(grid, file, f"lakes[{i}]", v, "5.6")
        need_land(f"lakes[{i}]", h, "5.6")
        lake[h] = True
    slope = np.zeros((H, 6), dtype=bool)
    for i, v in enumerate(m.slopes):
        h, d = _hexside(grid, file, f"slopes[{i}]", v, "5.3")
        need_land(f"slopes[{i}]", h, "5.3")
        need_land(f"slopes[{i}]", int(grid.neighbours[h, d]), "5.3")
        slope[h, d] = True
    cliff = np.zeros((H, 6), dtype=bool)
    for i, v in enumerate(m.cliffs):
        h, d = _hexside(grid, file, f"cliffs[{i}]", v, "5.7")
        n = int(grid.neighbours[h, d])
        cliff[h, d] = cliff[n, opposite(d)] = True
    river = np.zeros((H, 6), dtype=bool)
    for i, rv in enumerate(m.rivers):
        chain = [_hex(grid, file, f"rivers[{i}].hexes", v, "5.5") for v in rv.hexes]
        for a, b in zip(chain, chain[1:]):
            hits = np.nonzero(grid.neighbours[a] == b)[0]
            if len(hits) == 0:
                raise DataError(file, f"rivers[{i}].hexes", [grid.number(a), grid.number(b)], "5.5",
                                f"river {rv.name!r}: consecutive hexes must be adjacent")
            d = int(hits[0])
            river[a, d] = river[b, opposite(d)] = True
    # 5.0 movement costs: entering n from h across side d, per nationality
    cost = np.full((2, H, 6), IMPASSABLE, dtype=np.int8)
    zoc_reach = np.zeros((H, 6), dtype=bool)
    for h in np.nonzero(playable)[0]:
        for d in range(6):
            n = int(grid.neighbours[h, d])
            if n < 0 or not playable[n] or cliff[h, d]:
                continue
            zoc_reach[h, d] = True
            up, down = slope[h, d], slope[n, opposite(d)]
            for side in (US, JAPAN):
                if river[h, d]:
                    c = 1                                      # 5.5
                elif lake[n]:
                    c = 3 if side == US else 2                 # 5.6
                else:
                    c = 2 if side == US else 1                 # clear
                c += int(up)                                   # 5.3: +1 up, both
                if side == US:
                    c += int(down) + int(level[n] > level[h])  # 5.3 down, 5.4 up a level
                cost[side, h, d] = c
    lz_hex = np.full(LANDING_ZONES, -1, dtype=np.int16)
    lz_cap = np.zeros(LANDING_ZONES, dtype=np.int16)
    lz_of_hex = np.full(H, -1, dtype=np.int8)
    for letter, lz in m.landing_zones.items():
        k = LZ_LETTERS.index(letter)
        h = _hex(grid, file, f"landing_zones.{letter}.hex", lz.hex, "9.2.1")
        need_land(f"landing_zones.{letter}.hex", h, "9.2.1")
        lz_cap[k] = lz.capacity
        if playable[h] and letter in spec.us_landing_zones:
            lz_hex[k], lz_of_hex[h] = h, k
    missing = sorted(set(LZ_LETTERS) - set(m.landing_zones))
    if missing:
        raise DataError(file, "landing_zones", missing, "9.2.2", "the scatter chart needs zones A-I")
    near_lz = np.zeros(H, dtype=bool)
    for h in lz_hex[lz_hex >= 0]:
        near_lz[h] = True
        near_lz[grid.neighbours[h][grid.neighbours[h] >= 0]] = True
    victory_hex = np.array([grid.index(v) for v in VICTORY_HEXES], dtype=np.int16)
    for z, h in enumerate(victory_hex):
        need_land("levels", int(h), "3.8.1")
        if zone[h] != z:
            raise DataError(file, "zones", grid.number(h), "10.0",
                            f"victory hex must lie in zone {ZONE_LETTERS[z]!r} ({ZONE_NAMES[z]})")
    names = {_hex(grid, file, f"places.{k}", k, ""): v for k, v in m.places.items()}
    zone = np.where(playable, zone, -1).astype(np.int8)
    return grid, playable, level, zone, lake, slope, cliff, river, cost, zoc_reach, lz_hex, lz_cap, lz_of_hex, \
        near_lz, victory_hex, names


class SetupsFile(_Strict):
    us_historic: dict[str, list[str]]
    start_steps: dict[str, int] = {}
    japan_historic: dict[str, list[HexNum]]
    japan_free: dict[str, Union[int, list[int]]]


def _ratings(file, key, values: list[int], steps: int) -> list[int]:
    if len(values) != steps:
        raise DataError(file, key, values, "2.2", f"needs one rating per step ({steps})")
    return list(values) + [0] * (MAX_STEPS - steps)


def _compile_units(cfile: Path, c: CountersFile, sfile: Path, setups: SetupsFile, grid: HexGrid,
                   spec: ScenarioSpec, playable: np.ndarray):
    rows: list[dict] = []
    battalions: list[str] = []

    def add(name, side, prof_name, battalion=-1, **extra):
        if prof_name not in c.profiles:
            raise DataError(cfile, name, prof_name, "2.2", f"unknown profile; known: {sorted(c.profiles)}")
        p = c.profiles[prof_name]
        melee = extra.pop("melee", None) or _ratings(cfile, f"profiles.{prof_name}.melee", p.melee, p.steps)
        ranged = extra.pop("ranged", None) or _ratings(cfile, f"profiles.{prof_name}.ranged", p.ranged, p.steps)
        rows.append(dict(name=name, side=side, type=UNIT_TYPES.index(p.type), steps=p.steps, melee=melee,
                         ranged=ranged, range=extra.pop("range", p.range), move=p.move, battalion=battalion,
                         fixed=p.fixed, table=extra.pop("table", [0] * 10), depot=-1, staging=STAGING_NONE, force=-1,
                         independent=p.independent, group=extra.pop("group", -1)))

    engineers = []
    for batt, (prof, letters) in c.us.companies.items():
        b = len(battalions)
        battalions.append(batt)
        for letter in letters:
            add(f"{batt} {letter}", US, prof, -1 if c.profiles[prof].independent else b, group=b)
            if c.profiles[prof].type == "engineer":
                engineers.append(len(rows) - 1)
    first_independent = len(rows)
    for i in range(c.us.independent_counters):
        add(f"Indep {i + 1}", US, "independent", -1)
    independents = np.arange(first_independent, len(rows), dtype=np.int16)
    for e in engineers:  # 7.3: one Supply Depot per Engineer unit, numbered to it
        add(f"Depot {rows[e]['name']}", US, "supply_depot", rows[e]["battalion"])
        rows[e]["depot"] = len(rows) - 1
    for i, (count, melee, ranged, rng) in enumerate(c.japan.infantry):
        for _ in range(count):
            add(f"Inf {len(rows)}", JAPAN, "jp_infantry", melee=[melee, 0, 0, 0], ranged=[ranged, 0, 0, 0], range=rng)
    n_inf = sum(k for k, *_ in c.japan.infantry)
    if n_inf != 64:
        raise DataError(cfile, "japan.infantry", n_inf, "2.5", "the Japanese have 64 Infantry units")
    for i, (count, table) in enumerate(c.japan.unknown_tables):
        if len(table) != 10 or not all(1 <= t <= 3 for t in table):
            raise DataError(cfile, f"japan.unknown_tables[{i}]", table, "2.5",
                            "a table gives 1-3 Infantry for each die 1-10")
        for _ in range(count):
            add(f"Unknown {len(rows)}", JAPAN, "jp_unknown", table=table)
    n_unk = sum(k for k, _ in c.japan.unknown_tables)
    if n_unk != 16:
        raise DataError(cfile, "japan.unknown_tables", n_unk, "2.5", "the Japanese have 16 Unknown units")
    for prof, count in c.japan.artillery.items():
        for _ in range(count):
            add(f"{prof} {len(rows)}", JAPAN, prof)
    names = [r["name"] for r in rows]
    index = {n: i for i, n in enumerate(names)}

    # 12.5 historic staging
    for zone, units in setups.us_historic.items():
        code = {"DEFG": STAGING_D_TO_G, "HI": STAGING_H_OR_I}.get(
            zone, LZ_LETTERS.index(zone) if zone in LZ_LETTERS else None)
        if code is None:
            raise DataError(sfile, f"us_historic.{zone}", zone, "12.5", "staging zone must be A-I, DEFG or HI")
        for u in units:
            if u not in index:
                raise DataError(sfile, f"us_historic.{zone}", u, "12.5", "no such counter in counters.yaml")
            rows[index[u]]["staging"] = code
    for r in rows:
        if r["side"] == US and r["staging"] == STAGING_NONE and r["type"] != DEPOT and r["name"] not in \
                {names[i] for i in independents}:
            r["staging"] = STAGING_RESERVE
    start = np.array([r["steps"] for r in rows], dtype=np.int8)
    for u, k in setups.start_steps.items():
        if u not in index:
            raise DataError(sfile, "start_steps", u, "12.5", "no such counter")
        start[index[u]] = k

    # 15.x: which counters a short scenario uses, and the force of each (15.3)
    in_play = np.ones(len(rows), dtype=bool)
    force = np.full(len(rows), -1, dtype=np.int8)
    if spec.us_setup == "historic_subset":
        lzs = {LZ_LETTERS.index(z) for z in spec.us_landing_zones}
        reinf = set(spec.us_reinforcements or [])
        for i, r in enumerate(rows):
            if r["side"] != US:
                continue
            batt = battalions[r["battalion"]] if r["battalion"] >= 0 else ""
            st = r["staging"]
            landed = st in lzs or (st == STAGING_D_TO_G and bool(lzs & set(D_TO_G))) or \
                (st == STAGING_H_OR_I and bool(lzs & set(H_OR_I)))
            if r["type"] == DEPOT:
                in_play[i] = batt in reinf
            elif st == STAGING_NONE:            # Independent counters (9.3)
                in_play[i] = True
            elif landed:
                in_play[i] = True
            elif batt in reinf:                 # "may only be reinforced by ..." (15.1, 15.2)
                in_play[i] = True
                r["staging"] = STAGING_RESERVE
            else:
                in_play[i] = False
            if st in NORTHERN_LZS or (st == STAGING_RESERVE and batt in NORTHERN_REINFORCEMENTS):
                force[i] = 0
            elif st != STAGING_NONE and r["type"] != DEPOT:
                force[i] = 1
            if in_play[i] and landed and st != STAGING_NONE and r["type"] != DEPOT:
                r["staging"] = FREE_STAGING  # 15.1/15.2: "set up according to the free setup rules"
    # the Japanese guns of the historic set-up
    jp_art = np.full(len(rows), -1, dtype=np.int16)
    for prof in ("jp_20mm", "jp_75mm"):
        hexes = setups.japan_historic.get(prof, [])
        guns = [i for i, r in enumerate(rows) if r["name"].startswith(prof)]
        if len(hexes) != len(guns):
            raise DataError(sfile, f"japan_historic.{prof}", hexes, "12.3", f"needs {len(guns)} hexes")
        for u, v in zip(guns, hexes):
            jp_art[u] = _hex(grid, sfile, f"japan_historic.{prof}", v, "12.3")
    unk_hexes = np.array([_hex(grid, sfile, "japan_historic.unknowns", v, "12.3")
                          for v in setups.japan_historic.get("unknowns", [])], dtype=np.int16)
    if len(unk_hexes) != 16:
        raise DataError(sfile, "japan_historic.unknowns", len(unk_hexes), "12.3", "needs the 16 Unknown hexes")
    if spec.japan_unknowns < 16:  # 15.1/15.2: only so many Unknowns
        unknown_ids = [i for i, r in enumerate(rows) if r["type"] == UNKNOWN]
        for u in unknown_ids[spec.japan_unknowns:]:
            in_play[u] = False
    return rows, battalions, independents, start, in_play, force, jp_art, unk_hexes


def _compile_charts(file: Path, ch: ChartsFile):
    w = {n: i for i, n in enumerate(WEATHERS)}
    if list(ch.weather.names) != list(WEATHERS):
        raise DataError(file, "weather.names", ch.weather.names, "3.3", f"must be {list(WEATHERS)}")
    weather_next = np.zeros((4, 11), dtype=np.int8)
    for name, rows in ch.weather.chart.items():
        if name not in w:
            raise DataError(file, f"weather.chart.{name}", name, "3.3", "unknown weather")
        weather_next[w[name]] = _chart_rows(file, f"weather.chart.{name}", rows, w, "3.3")
    airpower = np.zeros((11, 2), dtype=np.int8)
    for roll, (us, jp) in ch.airpower.table.items():
        if not 1 <= roll <= 10:
            raise DataError(file, f"airpower.table.{roll}", roll, "3.4", "rows are die rolls 1-10")
        airpower[roll] = (us, jp)
    per_weather = lambda d, key, rule: np.array([d.get(n, 0) for n in WEATHERS], dtype=np.int8)  # noqa: E731
    zones = {z: i for i, z in enumerate(LZ_LETTERS)} | {"landed": LANDED, "delayed": DELAYED}
    scatter = np.zeros((LANDING_ZONES, 11), dtype=np.int8)
    for letter, rows in ch.scatter.chart.items():
        if letter not in LZ_LETTERS:
            raise DataError(file, f"scatter.chart.{letter}", letter, "9.2.2", "staging zones are A-I")
        scatter[LZ_LETTERS.index(letter)] = _chart_rows(file, f"scatter.chart.{letter}", rows, zones, "9.2.2")
    lr = ch.loss_recovery
    steps = np.array(lr.steps, dtype=np.int8)
    if steps.shape != (len(lr.roll_rows), len(lr.casualty_columns)):
        raise DataError(file, "loss_recovery.steps", list(steps.shape), "9.1", "needs one row per roll_rows "
                        "entry and one column per casualty_columns entry")
    mods = {}
    for key in ("attacking_higher_level", "attacking_up_slope", "out_of_supply", "williwaw", "fog", "rain",
                "night", "surround_5", "surround_6", "target_face_down"):
        if key not in ch.modifiers:
            raise DataError(file, f"modifiers.{key}", None, "8.3", "missing modifier")
        m = ch.modifiers[key]
        mods[key] = (m.melee or 0, m.ranged or 0, m.airpower or 0)
    vp = ch.victory_points
    return dict(
        weather_next=weather_next, first_weather_line=w[ch.weather.first_line], airpower=airpower,
        airpower_weather=per_weather(ch.airpower.weather_modifier, "airpower", "3.4"),
        spotting=per_weather(ch.spotting_distance, "spotting_distance", "8.1.1"), mod=mods,
        hit_on=ch.combat.hit_on, natural_hit=ch.combat.natural_hit, friendly_fire_at=ch.combat.friendly_fire_at_most,
        soft_ground_at=ch.combat.soft_ground_at_most, infiltration_fail=ch.night_infiltration.fails_at_most,
        infiltration_weather=per_weather(ch.night_infiltration.weather_modifier, "night_infiltration", "13.5"),
        scatter=scatter,
        scatter_weather=per_weather(ch.scatter.modifier, "scatter", "9.2.2"),
        recovery_columns=np.array(lr.casualty_columns, dtype=np.int16),
        recovery_rows=np.array(lr.roll_rows, dtype=np.int16), recovery_steps=steps,
        recovery_weather=per_weather(lr.weather_modifier, "loss_recovery", "9.1"),
        casualty_max=ch.casualty_track_max, komandorski_turn=ch.komandorski.effect_box_turn,
        effect_chits=np.array(ch.komandorski.effect_chits, dtype=np.int8),
        delay_chits=np.array(ch.komandorski.delay_chits, dtype=np.int8),
        vp_value_chits=np.array(vp.value_chits, dtype=np.int8),
        vp_cancel_chits=np.array([-1 if c == "cancelled" else int(c) for c in vp.cancel_chits], dtype=np.int8),
        vp_attu_bonus=vp.attu_bonus, vp_early_before=vp.early_end_before, vp_late_after=vp.late_end_after,
        vp_levels=list(vp.levels),
    )


def list_scenarios() -> list[str]:
    return list(load_data(config_path("attu", "scenarios.yaml")))


@lru_cache(maxsize=8)
def load_scenario(name: str = "campaign") -> Scenario:
    """The named scenario of configs/attu/scenarios.yaml, compiled (cached per process)."""
    from wargym.attu.los import sight_table

    sfile = config_path("attu", "scenarios.yaml")
    all_specs = load_data(sfile)
    if name not in all_specs:
        raise ValueError(f"unknown Attu scenario {name!r}; known: {sorted(all_specs)}")
    spec = validate(ScenarioSpec, all_specs[name], sfile, SCENARIO_RULES)
    for z in spec.area:
        if z not in ZONE_LETTERS:
            raise DataError(sfile, f"{name}.area", z, "15.0", f"zones are {ZONE_LETTERS!r}")
    mfile = config_path("attu", "map.yaml")
    m = validate(MapFile, load_data(mfile), mfile, MAP_RULES)
    grid, land, level, zone, lake, slope, cliff, river, cost, zoc_reach, lz_hex, lz_cap, lz_of_hex, near_lz, \
        victory_hex, names = _compile_map(mfile, m, spec)
    cfile = config_path("attu", "counters.yaml")
    counters = validate(CountersFile, load_data(cfile), cfile)
    pfile = config_path("attu", "setups.yaml")
    setups = validate(SetupsFile, load_data(pfile), pfile)
    rows, battalions, independents, start, in_play, force, jp_art, unk_hexes = _compile_units(
        cfile, counters, pfile, setups, grid, spec, land)
    hfile = config_path("attu", "charts.yaml")
    charts = _compile_charts(hfile, validate(ChartsFile, load_data(hfile), hfile))
    targets = [_hex(grid, sfile, f"{name}.target_hexes", v, "15.0") for v in spec.target_hexes]
    if not targets:
        targets = victory_hex.tolist()
    col = lambda key, dtype=np.int8: np.array([r[key] for r in rows], dtype=dtype)  # noqa: E731
    return Scenario(
        name=name, spec=spec, grid=grid, land=land, level=level, zone=zone, lake=lake, slope=slope, cliff=cliff,
        river=river, move_cost=cost, zoc_reach=zoc_reach,
        sight=sight_table(grid, level, slope, cliff, max_distance=int(charts["spotting"].max())),
        lz_hex=lz_hex, lz_capacity=lz_cap, lz_of_hex=lz_of_hex, near_lz=near_lz, victory_hex=victory_hex,
        target_hex=np.array(targets, dtype=np.int16), hex_names=names,
        unit_names=[r["name"] for r in rows], unit_side=col("side"), unit_type=col("type"),
        unit_steps=col("steps"), unit_start_steps=start, unit_melee=col("melee"), unit_ranged=col("ranged"),
        unit_range=col("range"), unit_move=col("move"), unit_battalion=col("battalion"),
        unit_fixed=col("fixed", bool), unit_table=col("table"), unit_depot=col("depot", np.int16),
        unit_in_play=in_play, unit_staging=col("staging"), unit_force=force, unit_group=col("group"),
        unit_gun=np.array([1 if n.startswith("jp_20mm") else 2 if n.startswith("jp_75mm") else 0
                           for n in (r["name"] for r in rows)], dtype=np.int8),
        gun_hexes=np.array([h if land[h] else -1 for h in (
            _hex(grid, pfile, "japan_free.gun_75mm_hexes", v, "12.4") for v in setups.japan_free["gun_75mm_hexes"])],
            dtype=np.int16),
        battalion_names=battalions,
        independent_units=independents, japan_historic_unknown_hexes=unk_hexes, japan_historic_artillery=jp_art,
        **charts,
    )
