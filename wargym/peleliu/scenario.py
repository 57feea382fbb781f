"""Peleliu data: the map, the positions, the counters, the cards and the charts (configs/peleliu/).

Files (all RECONSTRUCTED where the book is silent; wargym/peleliu/README.md)::

    map.yaml        terrain row by row, roads, cliff hexsides, mountain elevations, the five beach
                    landing boxes with their beach hexes and fire dots, the mountaintop mortar
                    boundary, the BNR play area, Japanese zone and U.S. set-up (2.1, 5.x, 12.1, 18.1)
    positions.yaml  every Japanese position: id, hex, colour, group, symbols, field of fire (2.1, 6.2)
    counters.yaml   U.S. order of battle, Japanese units, depth markers, fortifications, heroes (2.2)
    cards.yaml      the 54 cards: landing, events, fire/action sections (2.3)
    charts.yaml     Japanese Fire Chart, US Weapons Chart, US Attack Chart, US Barrage Table,
                    Terrain Effects Chart, turn tracks, command track, Japanese Action Chart
    scenarios.yaml  sept15, assault, bnr

``load_scenario(name)`` validates every file (``DataError``: file, key, value, rule) and compiles a
frozen ``Scenario`` of numpy lookup tables indexed by dense hex, position, unit and card numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, Optional, Union

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from wargym.data import DataError, config_path, load_yaml, validate
from wargym.hexgrid import HexGrid

PLAYERS = ("us",)
COLOURS = ("orange", "red", "green", "brown", "purple", "blue")
SYMBOLS = ("circle", "diamond", "triangle", "star")
CIRCLE, DIAMOND, TRIANGLE, STAR = range(4)
LETTERS = (None, "M", "R", "P", "A", "I")
L_NONE, L_M, L_R, L_P, L_A, L_I = range(6)
WEAPONS = ("FT", "BR", "BZ", "MG", "AR", "DE", "NA", "RD", "FL", "CC")
W_FT, W_BR, W_BZ, W_MG, W_AR, W_DE, W_NA, W_RD, W_FL, W_CC = (1 << i for i in range(10))
US_TYPES = ("infantry", "heavy", "inf_hq", "reg_hq", "engineer", "tank", "amtank", "artillery")
INF, HEAVY, INF_HQ, REG_HQ, ENG, TANK, AMTANK, ART = range(8)
JP_TYPES = ("infantry", "engineer", "hq", "antitank", "machinegun", "tank", "fortification")
JP_TANK, JP_FORT = 5, 6
TERRAINS = ("sea", "shallow", "beach", "clear", "airstrip", "jungle", "swamp", "coral", "mountain", "buildings")
SEA, SHALLOW, BEACH, CLEAR, AIRSTRIP, JUNGLE, SWAMP, CORAL, MOUNTAIN, BUILDINGS = range(10)
BOXES = ("W1", "W2", "O1", "O2", "O3")
ZONES = "ABCD"
EFFECTS = ("none", "disrupt", "step", "step_disrupt")  # fire chart; bit 1 disrupt, bit 2 step
DOTS = ("steady", "intense")
NO_DOT, STEADY, INTENSE = 0, 1, 2
UNLIMITED = 99

ATTACK_CODES = ("reveal_depth", "jp_disrupt", "depth_elim", "defeat", "add_depth", "unreveal", "us_disrupt",
                "us_step", "attrition", "none")
(R_REVEAL_DEPTH, R_JP_DISRUPT, R_DEPTH_ELIM, R_DEFEAT, R_ADD_DEPTH, R_UNREVEAL, R_US_DISRUPT, R_US_STEP,
 R_ATTRITION) = (1 << i for i in range(9))
ATTACK_ROWS = ("less", "more", "double", "triple")
ATTACK_COLUMNS = ("alone", "depth_hidden", "depth_revealed")
BARRAGE_CODES = ("jp_disrupt", "depth_elim", "defeat", "artillery_destroyed", "fortification", "none")
B_JP_DISRUPT, B_DEPTH_ELIM, B_DEFEAT, B_ART_DESTROYED, B_FORT = (1 << i for i in range(5))
BARRAGE_ROWS = ("colour_and_symbol", "colour_only", "symbol_only", "neither")

JP_ACTIONS = ("no_action", "fire", "mg_fire", "resupply", "redeploy", "patrol", "assault", "mortar",
              "artillery_fire", "muster", "reinforce", "ambush", "infiltrate", "fire_or_advance", "multiple_fire",
              "overrun", "advance_fire", "double_advance", "bnr_resupply", "bnr_assault", "bnr_artillery")
(A_NONE, A_FIRE, A_MG, A_RESUPPLY, A_REDEPLOY, A_PATROL, A_ASSAULT, A_MORTAR, A_ARTILLERY, A_MUSTER, A_REINFORCE,
 A_AMBUSH, A_INFILTRATE, A_FIRE_ADVANCE, A_MULTI_FIRE, A_OVERRUN, A_ADVANCE_FIRE, A_DOUBLE_ADVANCE, A_BNR_RESUPPLY,
 A_BNR_ASSAULT, A_BNR_ARTILLERY) = range(21)
SITUATIONS = ("occupied_us", "occupied_no_us", "artillery_us", "artillery_no_us", "unoccupied_comm_us",
              "unoccupied_comm_no_us", "unoccupied_no_comm", "tank")
(S_OCC_US, S_OCC_NO, S_ART_US, S_ART_NO, S_UN_COMM_US, S_UN_COMM_NO, S_UN_NOCOMM, S_TANK) = range(8)

EVENTS = ("none", "depth", "reinforce", "naval_marker", "dauntless_marker", "jp_rally", "tank_action", "counterattack",
          "hero", "black_angels", "jp_infiltration", "heat_exhaustion", "lost", "minefield", "war_dogs",
          "observation_plane", "patrol_report", "fortify_coral", "scattered_platoon", "suicide_attack",
          "cp_under_fire", "smoke", "naval_hits_position", "hidden_caves", "rupertus_attack", "flamethrower_ropes",
          "command_change")
(E_NONE, E_DEPTH, E_REINFORCE, E_NAVAL, E_DAUNTLESS, E_JP_RALLY, E_TANK_ACTION, E_COUNTERATTACK, E_HERO,
 E_BLACK_ANGELS, E_JP_INFILTRATION, E_HEAT, E_LOST, E_MINEFIELD, E_WAR_DOGS, E_OBS_PLANE, E_PATROL_REPORT,
 E_FORTIFY_CORAL, E_SCATTERED, E_SUICIDE, E_CP_FIRE, E_SMOKE, E_NAVAL_HITS, E_HIDDEN_CAVES, E_RUPERTUS_ATTACK,
 E_FLAMETHROWER, E_COMMAND_CHANGE) = range(27)
CC_EVENTS = ("none", "conscripts", "heroism", "naval_blast", "reinforce", "us_fire_ca", "us_withdrawal_hit")
CC_NONE, CC_CONSCRIPTS, CC_HEROISM, CC_NAVAL_BLAST, CC_REINFORCE, CC_US_FIRE_CA, CC_WITHDRAWAL_HIT = range(7)
MAX_TURNS = 25  # invasion turns 1-24 (index = turn)
BNR_KINDS = ("morning", "midday", "afternoon", "night")

HexNum = Union[int, str]
Colour = Literal["orange", "red", "green", "brown", "purple", "blue"]
Symbol = Literal["circle", "diamond", "triangle"]
Weapon = Literal["FT", "BR", "BZ", "MG", "AR", "DE", "NA", "RD", "FL", "CC"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Doc(_Strict):
    reconstructed: bool = True
    notes: str = ""


# -------------------------------------------------------------------------------------------- map
class Grid(_Strict):
    columns: int = Field(ge=2, le=99)
    rows: int = Field(ge=2, le=99)


class Box(_Strict):
    name: Literal["W1", "W2", "O1", "O2", "O3"]
    beach: list[HexNum] = Field(min_length=1, max_length=3)
    amtank: Optional[HexNum] = None
    dots: list[Colour] = []


class Bnr(_Strict):
    area: list[HexNum]
    japanese_zone: list[HexNum]
    us_setup: dict[str, HexNum]


class MapFile(_Doc):
    grid: Grid
    terrain: list[str]
    roads: list[HexNum] = []
    cliffs: list[tuple[HexNum, HexNum]] = []
    elevation: dict[HexNum, int] = {}
    landing_boxes: list[Box] = Field(min_length=5, max_length=5)
    mortar_boundary: list[HexNum] = []
    bnr: Bnr


class Position(_Strict):
    id: Optional[str] = Field(default=None, pattern=r"^[A-D]([1-9]|1[0-9]|2[0-5])$")
    hex: HexNum
    colour: Colour
    group: Optional[str] = None
    setup: bool = False
    artillery: bool = False
    armor: Optional[Literal["dark", "light"]] = None
    mountaintop: bool = False
    provisional: bool = False
    bnr_fortified: bool = False
    intense: list[HexNum] = []
    steady: list[HexNum] = []


class PositionsFile(_Doc):
    positions: list[Position]


# ------------------------------------------------------------------------------------- counters
class UsUnit(_Strict):
    name: str
    type: Literal["infantry", "heavy", "inf_hq", "reg_hq", "engineer", "tank", "amtank", "artillery"]
    regiment: int = Field(ge=0, le=11)
    battalion: Optional[str] = None
    steps: int = Field(ge=1, le=4)
    strength: list[int]
    range: list[int]
    symbol: Literal["circle", "diamond", "triangle", "star"]
    weapons: list[Optional[list[Weapon]]]
    armored: bool = False
    arrival: Optional[int] = Field(default=None, ge=1, le=24)
    beach: Optional[str] = None
    bnr: Union[Literal["map"], int, None] = None


class JpUnit(_Strict):
    name: str
    type: Literal["infantry", "engineer", "hq", "antitank", "machinegun"] = "infantry"
    elite: bool = False
    strength: int = Field(ge=0, le=9)
    requires: list[Weapon] = []


class ArmorUnit(_Strict):
    name: str
    strength: int = Field(ge=0, le=9)
    requires: list[Weapon] = []
    colour: Colour


class Depth(_Strict):
    strength: int = Field(ge=0, le=9)
    requires: list[Weapon] = []
    tactical_reinforcement: bool = False


class CaDepth(_Strict):
    colour: Colour
    strength: int = Field(ge=0, le=9)
    requires: list[Weapon] = []


class Fortification(_Strict):
    blocked: list[int]
    requires: list[Weapon] = []


class CountersFile(_Doc):
    us_units: list[UsUnit]
    japanese_units: list[JpUnit] = Field(min_length=1)
    armor_units: list[ArmorUnit]
    depth_markers: list[Depth]
    armor_depth: list[Depth]
    counterattack_depth: list[CaDepth]
    fortifications: list[Fortification]
    heroes: list[str]
    naval_markers: int = Field(ge=0, le=9)
    dauntless_markers: int = Field(ge=0, le=9)


# ----------------------------------------------------------------------------------------- cards
class Landing(_Strict):
    colour: Colour
    symbol: Symbol
    drift: Literal["none", "left", "right"] = "none"


class Event(_Strict):
    model_config = ConfigDict(extra="forbid", frozen=True)
    turns: Optional[tuple[int, int]] = None
    event: str
    count: int = Field(default=1, ge=1, le=2)
    depth: int = Field(default=0, ge=0, le=1)
    colours: list[Colour] = []
    positions: list[str] = []


class FireColour(_Strict):
    colour: Colour
    letter: Optional[Literal["M", "R", "P", "A", "I"]] = None
    star: bool = False
    armor: bool = False


class FireSection(_Strict):
    colours: list[FireColour] = Field(min_length=3, max_length=3)
    symbol: Symbol
    artillery: int = Field(ge=0, le=20)


class Card(_Strict):
    number: int = Field(ge=1, le=54)
    landing: Landing
    events: list[Event]
    bnr_event: Union[str, Event]
    cc_event: Literal["none", "conscripts", "heroism", "naval_blast", "reinforce", "us_fire_ca",
                      "us_withdrawal_hit"] = "none"
    fire: FireSection


class CardsFile(_Doc):
    cards: list[Card] = Field(min_length=1, max_length=60)


# ---------------------------------------------------------------------------------------- charts
Effect = Literal["none", "disrupt", "step", "step_disrupt"]


class FireRow(_Strict):
    revealed: tuple[Effect, Effect, Effect, Effect]
    unrevealed: tuple[Effect, Effect, Effect, Effect]


class AmbushRow(_Strict):
    intense: tuple[Effect, Effect, Effect, Effect]
    steady: tuple[Effect, Effect, Effect, Effect]


class FireChart(_Strict):
    intense: FireRow
    steady: FireRow
    mg_adjacent: FireRow
    ambush: AmbushRow


class Band(_Strict):
    max_range: int = Field(ge=1, le=99)
    weapons: list[Weapon]


class WeaponsEntry(_Strict):
    adjacent: list[Weapon] = []
    ranged: list[Weapon] = []
    bands: list[Band] = []


AttackCell = list[Literal["reveal_depth", "jp_disrupt", "depth_elim", "defeat", "add_depth", "unreveal",
                          "us_disrupt", "us_step", "attrition", "none"]]


class AttackColumn(_Strict):
    less: AttackCell
    more: AttackCell
    double: AttackCell
    triple: AttackCell


class AttackSection(_Strict):
    alone: AttackColumn
    depth_hidden: AttackColumn
    depth_revealed: AttackColumn


class AttackChart(_Strict):
    no_weapons: AttackSection
    weapons: AttackSection


BarrageCell = list[Literal["jp_disrupt", "depth_elim", "defeat", "artillery_destroyed", "fortification", "none"]]


class BarrageTable(_Strict):
    colour_and_symbol: list[BarrageCell]
    colour_only: list[BarrageCell]
    symbol_only: list[BarrageCell]
    neither: list[BarrageCell]


class TerrainEntry(_Strict):
    char: str = Field(min_length=1, max_length=1)
    land: bool = True
    defense: int = Field(default=1, ge=1, le=4)
    stop: bool = False
    no_entry: list[Literal["infantry", "heavy", "inf_hq", "reg_hq", "engineer", "tank", "amtank", "artillery"]] = []
    comm: bool = True
    barrage_left: bool = False
    cc_card: bool = False


class TurnEntry(_Strict):
    turn: int = Field(ge=1, le=24)
    time: str
    catastrophic: Optional[int] = Field(default=None, ge=1, le=99)
    letter: Optional[Literal["M", "R", "P", "A", "I"]] = None


class BnrTurn(_Strict):
    turn: int = Field(ge=1, le=19)
    time: str
    kind: Literal["morning", "midday", "afternoon", "night"]


JpAction = Literal[JP_ACTIONS]  # type: ignore[valid-type]


class ActionRow(_Strict):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    none: JpAction
    M: JpAction
    R: JpAction
    P: JpAction
    A: JpAction
    I: JpAction  # noqa: E741 - the book's letter


class ActionChart(_Strict):
    invasion: dict[Literal[SITUATIONS], ActionRow]  # type: ignore[valid-type]
    bnr: dict[Literal["occupied_us", "occupied_no_us"], ActionRow]


class ChartsFile(_Doc):
    fire_chart: FireChart
    weapons: dict[Literal["infantry", "heavy", "inf_hq", "reg_hq", "engineer", "tank", "amtank", "artillery"],
                  WeaponsEntry]
    marker_strength: int = Field(ge=1, le=20)
    marker_weapons: dict[Literal["naval", "dauntless"], list[Weapon]]
    attack_rows: list[str]
    attack_chart: AttackChart
    barrage_columns: list[int] = Field(min_length=1, max_length=12)
    barrage_rows: list[str]
    barrage_table: BarrageTable
    terrain: dict[Literal[TERRAINS], TerrainEntry]  # type: ignore[valid-type]
    turn_track: list[TurnEntry] = Field(min_length=24, max_length=24)
    command_track: list[int] = Field(min_length=1, max_length=12)
    bnr_track: list[BnrTurn] = Field(min_length=19, max_length=19)
    bnr_catastrophic: int = Field(ge=1, le=99)
    action_chart: ActionChart


class ScenarioSpec(_Strict):
    description: str
    kind: Literal["invasion", "bnr"]
    last_turn: int = Field(ge=1, le=24)
    victory: Literal["sept15", "assault", "bnr"]


MAP_RULES = {"terrain": "2.1", "cliffs": "7.32", "landing_boxes": "5.0", "mortar_boundary": "12.1", "bnr": "18.1"}
POSITION_RULES = {"positions": "2.1"}
COUNTER_RULES = {"us_units": "2.21", "japanese_units": "2.22", "depth_markers": "2.24", "fortifications": "2.25",
                 "heroes": "10.17"}
CHART_RULES = {"fire_chart": "6.3", "weapons": "8.2", "attack_chart": "8.3", "barrage_table": "8.4",
               "terrain": "7.31", "turn_track": "2.1", "command_track": "14.2", "action_chart": "12.0"}


# ------------------------------------------------------------------------------------- compiled
@dataclass(frozen=True, eq=False)
class Scenario:
    """Static facts of one Peleliu scenario as lookup tables (dense hex / position / unit / card)."""

    name: str
    spec: ScenarioSpec
    grid: HexGrid
    notes: dict                 # file -> its notes (README, wargym scenarios)
    # map
    terrain: np.ndarray         # int8[H] TERRAINS
    land: np.ndarray            # bool[H]
    in_play: np.ndarray         # bool[H] (BNR: the play area, 18.1)
    road: np.ndarray            # bool[H]
    cliff: np.ndarray           # bool[H, 6]
    elevation: np.ndarray       # int8[H]
    box_beach: np.ndarray       # int16[5, 3] beach hexes of each landing box (-1 padding)
    box_amtank: np.ndarray      # int16[5]
    beach_box: np.ndarray       # int8[H] landing box a landing beach hex adjoins, -1
    mortar_zone: np.ndarray     # bool[H]
    jp_zone: np.ndarray         # bool[H] BNR Japanese zone
    # positions (P of them, one per position hex) and fire groups (F: a position or a group)
    pos_id: list
    pos_hex: np.ndarray         # int16[P]
    pos_colour: np.ndarray      # int8[P]
    pos_zone: np.ndarray        # int8[P] 0-3 (A-D), -1 provisional
    pos_num: np.ndarray         # int8[P] priority number, 99 provisional
    pos_group: np.ndarray       # int16[P] fire group
    pos_setup: np.ndarray       # bool[P]
    pos_art: np.ndarray         # bool[P]
    pos_armor: np.ndarray       # int8[P] 0 none, 1 dark, 2 light
    pos_mtop: np.ndarray        # bool[P]
    pos_prov: np.ndarray        # bool[P]
    pos_fort: np.ndarray        # bool[P] BNR fortified
    pos_beachfire: np.ndarray   # bool[P] its field covers a landing beach hex (15.2, 17.1)
    hex_pos: np.ndarray         # int16[H] position at hex, -1
    grp_members: np.ndarray     # int16[F, 2] (-1 padding)
    grp_colour: np.ndarray      # int8[F]
    grp_dot: np.ndarray         # int8[F, H] NO_DOT / STEADY / INTENSE
    grp_box: np.ndarray         # bool[F, 5] a dot of the group in the landing box
    # US units
    us_names: list
    us_type: np.ndarray         # int8[NU]
    us_regiment: np.ndarray     # int8[NU]
    us_battalion: np.ndarray    # int8[NU] index into battalions, -1
    battalions: list
    us_steps: np.ndarray        # int8[NU]
    us_strength: np.ndarray     # int8[NU, 5]
    us_range: np.ndarray        # int8[NU, 5]
    us_symbol: np.ndarray       # int8[NU]
    us_printed: np.ndarray      # int32[NU, 5] printed weapons by steps, -1 from the chart
    us_armored: np.ndarray      # bool[NU]
    us_arrival: np.ndarray      # int8[NU] invasion turn, -1
    us_beach: np.ndarray        # int8[NU] box 0-4, 10 any W, 11 any O, 12 any box
    us_bnr: np.ndarray          # int8[NU] -1 not in BNR, 0 on the map, n waiting on night turn n
    us_bnr_hex: np.ndarray      # int16[NU] BNR set-up anchor hex
    # Japanese units (NJ: the 51 non-armor then the 4 armor), depth markers (ND), fortifications
    jp_names: list
    jp_type: np.ndarray         # int8[NJ] JP_TYPES (printed on the back too: 9.1)
    jp_elite: np.ndarray        # bool[NJ]
    jp_tank: np.ndarray         # bool[NJ]
    jp_strength: np.ndarray     # int8[NJ]
    jp_requires: np.ndarray     # int32[NJ]
    jp_colour: np.ndarray       # int8[NJ] tanks' printed colour, -1
    dm_kind: np.ndarray         # int8[ND] 0 regular, 1 armor, 2 counterattack
    dm_strength: np.ndarray     # int8[ND]
    dm_requires: np.ndarray     # int32[ND]
    dm_tr: np.ndarray           # bool[ND] tactical reinforcement (9.4)
    dm_colour: np.ndarray       # int8[ND] counterattack markers' colour, -1
    fort_blocked: np.ndarray    # bool[NF, 6]
    fort_requires: np.ndarray   # int32[NF]
    # BNR (2.25, 18.31, 19.0): the 20 fortification markers follow the units as "Japanese units" of
    # type JP_FORT (a marker alone in a hex "has the characteristics of units"); none elsewhere
    jp_fort: np.ndarray         # bool[NJ]
    jp_blocked: np.ndarray      # bool[NJ, 6] a marker's blocked hexsides, arrow pointing west (19.1)
    hero_names: list
    naval_max: int
    dauntless_max: int
    # cards
    card_land_colour: np.ndarray  # int8[NC]
    card_land_symbol: np.ndarray  # int8[NC]
    card_drift: np.ndarray        # int8[NC] -1 left (north), 0, +1 right (south)
    card_colour: np.ndarray       # int8[NC, 3]
    card_letter: np.ndarray       # int8[NC, 3]
    card_star: np.ndarray         # bool[NC, 3]
    card_armor: np.ndarray        # bool[NC, 3]
    card_symbol: np.ndarray       # int8[NC]
    card_artillery: np.ndarray    # int8[NC]
    card_cc: np.ndarray           # int8[NC]
    card_event: np.ndarray        # int8[NC, MAX_TURNS] invasion event by turn; [:, 0] the BNR event
    card_param: np.ndarray        # int16[NC, MAX_TURNS, 3] event parameters (count / colours / positions)
    # charts
    fire_chart: np.ndarray        # int8[4, 2, 4] dot row (steady, intense, mg_adjacent, ambush), status, unit class
    weapons_adj: np.ndarray       # int32[8] by unit type
    weapons_rng: np.ndarray       # int32[8]
    bands: np.ndarray             # int32[8, 3, 2] (max range, weapons) per type, max range 0 = unused
    marker_strength: int
    marker_weapons: np.ndarray    # int32[2] naval, dauntless
    attack_chart: np.ndarray      # int32[2, 3, 4] section, column, row -> result bits
    barrage_columns: np.ndarray   # int8[k]
    barrage_table: np.ndarray     # int32[4, k]
    t_land: np.ndarray            # bool[10] by terrain
    t_defense: np.ndarray         # int8[10]
    t_stop: np.ndarray            # bool[10]
    t_no_entry: np.ndarray        # bool[10, 8]
    t_comm: np.ndarray            # bool[10]
    t_barrage_left: np.ndarray    # bool[10]
    t_cc_card: np.ndarray         # bool[10]
    turn_time: list
    catastrophic: np.ndarray      # int16[MAX_TURNS] level (0 none)
    letter_turn: np.ndarray       # int8[6] turn a letter becomes available (L_M..L_I), 99 never
    command_track: np.ndarray     # int8[k]
    bnr_kind: np.ndarray          # int8[20] by BNR turn
    bnr_time: list
    bnr_catastrophic: int
    action_chart: np.ndarray      # int8[2, 8, 6] (invasion, bnr) situation, letter -> JP_ACTIONS

    @property
    def title(self) -> str:
        return self.spec.description

    @property
    def num_hexes(self) -> int:
        return self.grid.size

    @property
    def facts(self) -> str:
        if self.spec.kind == "bnr":
            return (f"19 turns (3-7 Oct), {int(self.in_play.sum())} hexes in play, "
                    f"{int((self.us_bnr >= 0).sum())} U.S. units, {int(self.pos_fort.sum())} fortified positions")
        return (f"turns 1-{self.spec.last_turn}, {int(self.land.sum())} land hexes, {len(self.pos_id)} positions, "
                f"{int((self.us_arrival > 0).sum())} U.S. units, {len(self.jp_names)} Japanese units, 54 cards")

    @property
    def victory(self) -> str:
        return {"sept15": "15.2: at the end of turn 12 the U.S. wins with two of three goals (10 beach-firing "
                          "positions secure, 14 zone B positions secure, A5 and A6 secure); catastrophic loss "
                          "(15.1) loses at once",
                "assault": "17.1/17.2: a win or a decisive loss may come at turn 12, else at turn 24 all of zones "
                           "A and B secure (two fewer for each zone C/D position secure); catastrophic loss (15.1) "
                           "is a decisive loss",
                "bnr": "18.4: win when no Japanese unit is left in the reserve box at a night check, or with at "
                       "most one Japanese unit left at turn 19; lose at ten infantry units eliminated; else a draw",
                }[self.spec.victory]

    def hex_label(self, h: int) -> str:
        text = self.grid.label(h)
        p = int(self.hex_pos[h])
        if p >= 0:
            text += f" ({self.pos_id[p] or 'provisional'})"
        return text

    def position_index(self, pid: str) -> int:
        return self.pos_id.index(pid)


def _hex(grid: HexGrid, file, key: str, value, rule: str) -> int:
    try:
        return grid.index(int(str(value)))
    except (KeyError, ValueError):
        raise DataError(file, key, value, rule, "hex not on the map") from None


def _bits(names) -> int:
    out = 0
    for w in names:
        out |= 1 << WEAPONS.index(w)
    return out


@lru_cache(maxsize=8)
def load_scenario(name: str = "sept15") -> Scenario:
    """The named scenario of configs/peleliu/scenarios.yaml, compiled (cached per process)."""
    sfile = config_path("peleliu", "scenarios.yaml")
    specs = load_yaml(sfile)
    if name not in specs:
        raise ValueError(f"unknown Peleliu scenario {name!r}; known: {sorted(specs)}")
    spec = validate(ScenarioSpec, specs[name], sfile)
    return compile_scenario(name, spec)


def list_scenarios() -> list[str]:
    return list(load_yaml(config_path("peleliu", "scenarios.yaml")))


def compile_scenario(name: str, spec: ScenarioSpec, folder: Path | None = None) -> Scenario:
    def path(f):
        return (folder / f) if folder is not None else config_path("peleliu", f)

    mfile, pfile, cfile, kfile, hfile = (path(f) for f in
                                         ("map.yaml", "positions.yaml", "counters.yaml", "cards.yaml", "charts.yaml"))
    m = validate(MapFile, load_yaml(mfile), mfile, MAP_RULES)
    pos = validate(PositionsFile, load_yaml(pfile), pfile, POSITION_RULES)
    cnt = validate(CountersFile, load_yaml(cfile), cfile, COUNTER_RULES)
    crd = validate(CardsFile, load_yaml(kfile), kfile)
    ch = validate(ChartsFile, load_yaml(hfile), hfile, CHART_RULES)
    bnr = spec.kind == "bnr"

    # --- charts first (the map needs the terrain chars)
    chars = {}
    t_land = np.zeros(len(TERRAINS), np.bool_)
    t_def = np.ones(len(TERRAINS), np.int8)
    t_stop = np.zeros(len(TERRAINS), np.bool_)
    t_no = np.zeros((len(TERRAINS), len(US_TYPES)), np.bool_)
    t_comm = np.zeros(len(TERRAINS), np.bool_)
    t_bl = np.zeros(len(TERRAINS), np.bool_)
    t_cc = np.zeros(len(TERRAINS), np.bool_)
    for tname in TERRAINS:
        if tname not in ch.terrain:
            raise DataError(hfile, "terrain", tname, "7.31", "every terrain type needs an entry")
        e = ch.terrain[tname]
        t = TERRAINS.index(tname)
        chars[e.char] = t
        t_land[t], t_def[t], t_stop[t], t_comm[t], t_bl[t], t_cc[t] = (e.land, e.defense, e.stop, e.comm,
                                                                       e.barrage_left, e.cc_card)
        for ut in e.no_entry:
            t_no[t, US_TYPES.index(ut)] = True

    # --- map
    grid = HexGrid(m.grid.columns, m.grid.rows)
    H = grid.size
    if len(m.terrain) != m.grid.rows:
        raise DataError(mfile, "terrain", len(m.terrain), "2.1", f"needs one row per map row ({m.grid.rows})")
    terrain = np.zeros(H, np.int8)
    for r, row in enumerate(m.terrain):
        if len(row) != m.grid.columns:
            raise DataError(mfile, f"terrain[{r}]", row, "2.1", f"needs {m.grid.columns} characters")
        for c, ch_ in enumerate(row):
            if ch_ not in chars:
                raise DataError(mfile, f"terrain[{r}]", ch_, "2.1", f"unknown terrain character; known {sorted(chars)}")
            terrain[grid.index((c + 1) * 100 + r + 1)] = chars[ch_]
    land = t_land[terrain]
    road = np.zeros(H, np.bool_)
    for i, v in enumerate(m.roads):
        road[_hex(grid, mfile, f"roads[{i}]", v, "11.2")] = True
    nbr = grid.neighbours
    cliff = np.zeros((H, 6), np.bool_)
    for i, (a, b) in enumerate(m.cliffs):
        ha, hb = _hex(grid, mfile, f"cliffs[{i}]", a, "7.32"), _hex(grid, mfile, f"cliffs[{i}]", b, "7.32")
        ds = [d for d in range(6) if nbr[ha, d] == hb]
        if not ds:
            raise DataError(mfile, f"cliffs[{i}]", [a, b], "7.32", "a cliff hexside lies between adjacent hexes")
        cliff[ha, ds[0]] = True
        cliff[hb, (ds[0] + 3) % 6] = True
    elevation = np.zeros(H, np.int8)
    for k, v in m.elevation.items():
        elevation[_hex(grid, mfile, f"elevation.{k}", k, "event Hidden Caves")] = v
    box_beach = np.full((5, 3), -1, np.int16)
    box_amtank = np.full(5, -1, np.int16)
    beach_box = np.full(H, -1, np.int8)
    for i, b in enumerate(m.landing_boxes):
        if b.name != BOXES[i]:
            raise DataError(mfile, f"landing_boxes[{i}].name", b.name, "5.0", f"boxes run north to south {BOXES}")
        for j, v in enumerate(b.beach):
            h = _hex(grid, mfile, f"landing_boxes[{i}].beach[{j}]", v, "2.1")
            if not land[h]:
                raise DataError(mfile, f"landing_boxes[{i}].beach[{j}]", v, "2.1", "a landing beach hex is land")
            box_beach[i, j] = h
            beach_box[h] = i
        if b.amtank is not None:
            box_amtank[i] = _hex(grid, mfile, f"landing_boxes[{i}].amtank", b.amtank, "3.0")
    mortar = np.zeros(H, np.bool_)
    for i, v in enumerate(m.mortar_boundary):
        mortar[_hex(grid, mfile, f"mortar_boundary[{i}]", v, "12.1")] = True
    area = np.zeros(H, np.bool_)
    for i, v in enumerate(m.bnr.area):
        area[_hex(grid, mfile, f"bnr.area[{i}]", v, "18.1")] = True
    jp_zone = np.zeros(H, np.bool_)
    for i, v in enumerate(m.bnr.japanese_zone):
        jp_zone[_hex(grid, mfile, f"bnr.japanese_zone[{i}]", v, "11.2")] = True
    in_play = land & area if bnr else land.copy()

    # --- positions and fire groups
    P = len(pos.positions)
    ids = [p.id for p in pos.positions]
    seen = {}
    for i, p in enumerate(pos.positions):
        if p.id is not None:
            if p.id in seen:
                raise DataError(pfile, f"positions[{i}].id", p.id, "2.1", "position ids are unique")
            seen[p.id] = i
    pos_hex = np.zeros(P, np.int16)
    hex_pos = np.full(H, -1, np.int16)
    pos_colour = np.zeros(P, np.int8)
    pos_zone = np.full(P, -1, np.int8)
    pos_num = np.full(P, 99, np.int8)
    flags = {k: np.zeros(P, np.bool_) for k in ("setup", "artillery", "mountaintop", "provisional", "bnr_fortified")}
    pos_armor = np.zeros(P, np.int8)
    group = np.full(P, -1, np.int16)
    members = []
    for i, p in enumerate(pos.positions):
        h = _hex(grid, pfile, f"positions[{i}].hex", p.hex, "2.1")
        if not land[h]:
            raise DataError(pfile, f"positions[{i}].hex", p.hex, "2.1", "a position stands on land")
        if hex_pos[h] >= 0:
            raise DataError(pfile, f"positions[{i}].hex", p.hex, "2.1", "two positions in one hex")
        pos_hex[i], hex_pos[h] = h, i
        pos_colour[i] = COLOURS.index(p.colour)
        if p.id is not None:
            pos_zone[i], pos_num[i] = ZONES.index(p.id[0]), int(p.id[1:])
        elif not p.provisional:
            raise DataError(pfile, f"positions[{i}].id", None, "2.1", "only provisional positions have no id")
        for k in flags:
            flags[k][i] = getattr(p, k)
        pos_armor[i] = {None: 0, "dark": 1, "light": 2}[p.armor]
        if group[i] < 0:
            if p.group is not None:
                if p.group not in seen:
                    raise DataError(pfile, f"positions[{i}].group", p.group, "2.1", "no position with that id")
                j = seen[p.group]
                if pos.positions[j].group != p.id or pos.positions[j].colour != p.colour:
                    raise DataError(pfile, f"positions[{i}].group", p.group, "2.1",
                                    "the two hexes of a position group name each other and share a colour")
                group[i] = group[j] = len(members)
                members.append((i, j))
            else:
                group[i] = len(members)
                members.append((i, -1))
    F = len(members)
    grp_members = np.array(members, np.int16).reshape(F, 2)
    grp_colour = pos_colour[grp_members[:, 0]].copy()
    grp_dot = np.zeros((F, H), np.int8)
    for f in range(F):
        i = int(grp_members[f, 0])
        p = pos.positions[i]
        for dot, hexes in ((STEADY, p.steady), (INTENSE, p.intense)):
            for k, v in enumerate(hexes):
                h = _hex(grid, pfile, f"positions[{i}].{DOTS[dot - 1]}[{k}]", v, "6.2")
                grp_dot[f, h] = dot
    # 6.22: fields of one colour never overlap
    for c in range(len(COLOURS)):
        fs = np.nonzero(grp_colour == c)[0]
        covered = (grp_dot[fs] > 0).sum(axis=0)
        if (covered > 1).any():
            h = int(np.nonzero(covered > 1)[0][0])
            raise DataError(pfile, "positions", grid.label(h), "6.22",
                            f"two {COLOURS[c]} fields of fire overlap in this hex")
    grp_box = np.zeros((F, 5), np.bool_)
    for b, box in enumerate(m.landing_boxes):
        for col in box.dots:
            c = COLOURS.index(col)
            # 5.1: the dot belongs to the nearest position of its colour (the box sits beyond its beach hexes)
            beach = [h for h in box_beach[b] if h >= 0]
            cands = [f for f in range(F) if grp_colour[f] == c and not flags["provisional"][grp_members[f, 0]]]
            if not cands:
                raise DataError(mfile, f"landing_boxes[{b}].dots", col, "5.1", "no position of that colour")
            best = min(cands, key=lambda f: (min(grid.distance[int(pos_hex[grp_members[f, 0]]), h] for h in beach), f))
            grp_box[best, b] = True
    pos_beachfire = np.zeros(P, np.bool_)
    for i in range(P):
        if not flags["provisional"][i]:
            pos_beachfire[i] = bool(((grp_dot[group[i]] > 0) & (beach_box >= 0)).any())

    # --- US units
    us = cnt.us_units
    NU = len(us)
    names = [u.name for u in us]
    if len(set(names)) != NU:
        raise DataError(cfile, "us_units", names, "2.21", "unit names are unique")
    if NU > 63:
        raise DataError(cfile, "us_units", NU, "7.1", "at most 63 units (the HQs commanding a unit are a bit each)")
    battalions = sorted({u.battalion for u in us if u.battalion})
    us_type = np.array([US_TYPES.index(u.type) for u in us], np.int8)
    us_strength = np.zeros((NU, 5), np.int8)
    us_range = np.zeros((NU, 5), np.int8)
    us_printed = np.full((NU, 5), -1, np.int32)
    us_beach = np.full(NU, 12, np.int8)
    us_bnr = np.full(NU, -1, np.int8)
    us_bnr_hex = np.full(NU, -1, np.int16)
    for i, u in enumerate(us):
        for key, arr in (("strength", us_strength), ("range", us_range)):
            vals = getattr(u, key)
            if len(vals) != u.steps + 1:
                raise DataError(cfile, f"us_units[{i}].{key}", vals, "2.21", f"one value per step level 0..{u.steps}")
            arr[i, :len(vals)] = vals
        if len(u.weapons) != u.steps + 1:
            raise DataError(cfile, f"us_units[{i}].weapons", u.weapons, "8.21", f"one entry per step level 0..{u.steps}")
        for s, w in enumerate(u.weapons):
            if w is not None:
                us_printed[i, s] = _bits(w)
        if u.beach is not None:
            if u.beach in BOXES:
                us_beach[i] = BOXES.index(u.beach)
            elif u.beach in ("W", "O"):
                us_beach[i] = 10 if u.beach == "W" else 11
            else:
                raise DataError(cfile, f"us_units[{i}].beach", u.beach, "5.3", f"one of {BOXES}, W, O or null")
        if u.bnr == "map":
            us_bnr[i] = 0
            if u.name not in m.bnr.us_setup:
                raise DataError(mfile, "bnr.us_setup", u.name, "18.1", "a BNR map unit needs its set-up hex")
            us_bnr_hex[i] = _hex(grid, mfile, f"bnr.us_setup.{u.name}", m.bnr.us_setup[u.name], "18.1")
        elif u.bnr is not None:
            us_bnr[i] = u.bnr
    # --- Japanese
    jp = list(cnt.japanese_units) + list(cnt.armor_units)
    NJ = len(jp)
    n_inf = len(cnt.japanese_units)
    jp_tank = np.arange(NJ) >= n_inf
    fort_blocked = np.array([[d in f.blocked for d in range(6)] for f in cnt.fortifications], np.bool_).reshape(-1, 6)
    fort_requires = np.array([_bits(f.requires) for f in cnt.fortifications], np.int32)
    NF = len(cnt.fortifications) if bnr else 0
    dms = [(0, d) for d in cnt.depth_markers] + [(1, d) for d in cnt.armor_depth] + [(2, d) for d in cnt.counterattack_depth]
    # --- cards
    NC = len(crd.cards)
    numbers = sorted(c.number for c in crd.cards)
    if numbers != list(range(1, NC + 1)):
        raise DataError(kfile, "cards", numbers, "2.3", f"cards are numbered 1..{NC}")
    cards = sorted(crd.cards, key=lambda c: c.number)
    card_event = np.zeros((NC, MAX_TURNS), np.int8)
    card_param = np.full((NC, MAX_TURNS, 3), -1, np.int16)

    def put(k, t, ev: Event, where: str):
        if ev.event not in EVENTS:
            raise DataError(kfile, where, ev.event, "2.3", f"unknown event; known {EVENTS}")
        card_event[k, t] = EVENTS.index(ev.event)
        params = [ev.count if ev.event != "hero" else ev.depth]
        if ev.colours:
            params = [COLOURS.index(c) for c in ev.colours][:3]
        if ev.positions:
            params = []
            for pid in ev.positions[:3]:
                if pid not in seen:
                    raise DataError(kfile, where, pid, "event Unexpected US naval fire", "no position with that id")
                params.append(seen[pid])
        for j, v in enumerate(params):
            card_param[k, t, j] = v

    for k, c in enumerate(cards):
        covered = np.zeros(MAX_TURNS, np.bool_)
        for j, ev in enumerate(c.events):
            if ev.turns is None:
                raise DataError(kfile, f"cards[{k}].events[{j}].turns", None, "2.3", "invasion events name their turns")
            lo, hi = ev.turns
            for t in range(lo, hi + 1):
                if not 1 <= t < MAX_TURNS or covered[t]:
                    raise DataError(kfile, f"cards[{k}].events[{j}].turns", ev.turns, "2.3",
                                    "turns 1-24, each at most once per card")
                covered[t] = True
                put(k, t, ev, f"cards[{k}].events[{j}]")
        bev = c.bnr_event if isinstance(c.bnr_event, Event) else Event(event=c.bnr_event)
        put(k, 0, bev, f"cards[{k}].bnr_event")
    # --- charts
    eff = {e: i for i, e in enumerate(EFFECTS)}
    fire_chart = np.zeros((4, 2, 4), np.int8)
    for r, row in enumerate((ch.fire_chart.steady, ch.fire_chart.intense, ch.fire_chart.mg_adjacent)):
        fire_chart[r, 0] = [eff[e] for e in row.revealed]
        fire_chart[r, 1] = [eff[e] for e in row.unrevealed]
    fire_chart[3, 0] = [eff[e] for e in ch.fire_chart.ambush.steady]
    fire_chart[3, 1] = [eff[e] for e in ch.fire_chart.ambush.intense]
    w_adj = np.zeros(len(US_TYPES), np.int32)
    w_rng = np.zeros(len(US_TYPES), np.int32)
    bands = np.zeros((len(US_TYPES), 3, 2), np.int32)
    for tname, e in ch.weapons.items():
        t = US_TYPES.index(tname)
        w_adj[t], w_rng[t] = _bits(e.adjacent), _bits(e.ranged)
        for j, band in enumerate(sorted(e.bands, key=lambda b: b.max_range)[:3]):
            bands[t, j] = (band.max_range, _bits(band.weapons))
    if list(ch.attack_rows) != list(ATTACK_ROWS):
        raise DataError(hfile, "attack_rows", ch.attack_rows, "8.3", f"the rows are {ATTACK_ROWS}")
    attack = np.zeros((2, 3, 4), np.int32)
    for s, sec in enumerate((ch.attack_chart.no_weapons, ch.attack_chart.weapons)):
        for c, col in enumerate(ATTACK_COLUMNS):
            for r, row in enumerate(ATTACK_ROWS):
                bits = 0
                for code in getattr(getattr(sec, col), row):
                    if code != "none":
                        bits |= 1 << ATTACK_CODES.index(code)
                if bits & R_REVEAL_DEPTH and bits != R_REVEAL_DEPTH:
                    raise DataError(hfile, f"attack_chart.{col}.{row}", bits, "8.3", "reveal_depth stands alone")
                attack[s, c, r] = bits
    bc = np.array(ch.barrage_columns, np.int8)
    barrage = np.zeros((4, len(bc)), np.int32)
    for r, row in enumerate(BARRAGE_ROWS):
        cells = getattr(ch.barrage_table, row)
        if len(cells) != len(bc):
            raise DataError(hfile, f"barrage_table.{row}", len(cells), "8.4", f"one cell per column ({len(bc)})")
        for j, cell in enumerate(cells):
            for code in cell:
                if code != "none":
                    barrage[r, j] |= 1 << BARRAGE_CODES.index(code)
    catastrophic = np.zeros(MAX_TURNS, np.int16)
    letter_turn = np.full(6, 99, np.int8)
    for e in ch.turn_track:
        catastrophic[e.turn] = e.catastrophic or 0
        if e.letter:
            letter_turn[LETTERS.index(e.letter)] = e.turn
    bnr_kind = np.zeros(20, np.int8)
    for e in ch.bnr_track:
        bnr_kind[e.turn] = BNR_KINDS.index(e.kind)
    action = np.zeros((2, len(SITUATIONS), 6), np.int8)
    for sname, row in ch.action_chart.invasion.items():
        for L, key in enumerate(("none", "M", "R", "P", "A", "I")):
            action[0, SITUATIONS.index(sname), L] = JP_ACTIONS.index(getattr(row, key))
    for sname, row in ch.action_chart.bnr.items():
        for L, key in enumerate(("none", "M", "R", "P", "A", "I")):
            action[1, SITUATIONS.index(sname), L] = JP_ACTIONS.index(getattr(row, key))
    drift = {"none": 0, "left": -1, "right": 1}
    return Scenario(
        name=name, spec=spec, grid=grid,
        notes={f: getattr(d, "notes", "") for f, d in
               (("map", m), ("positions", pos), ("counters", cnt), ("cards", crd), ("charts", ch))},
        terrain=terrain, land=land, in_play=in_play, road=road, cliff=cliff, elevation=elevation,
        box_beach=box_beach, box_amtank=box_amtank, beach_box=beach_box, mortar_zone=mortar, jp_zone=jp_zone,
        pos_id=ids, pos_hex=pos_hex, pos_colour=pos_colour, pos_zone=pos_zone, pos_num=pos_num, pos_group=group,
        pos_setup=flags["setup"], pos_art=flags["artillery"], pos_armor=pos_armor, pos_mtop=flags["mountaintop"],
        pos_prov=flags["provisional"], pos_fort=flags["bnr_fortified"], pos_beachfire=pos_beachfire,
        hex_pos=hex_pos, grp_members=grp_members, grp_colour=grp_colour, grp_dot=grp_dot, grp_box=grp_box,
        us_names=names, us_type=us_type, us_regiment=np.array([u.regiment for u in us], np.int8),
        us_battalion=np.array([battalions.index(u.battalion) if u.battalion else -1 for u in us], np.int8),
        battalions=battalions, us_steps=np.array([u.steps for u in us], np.int8), us_strength=us_strength,
        us_range=us_range, us_symbol=np.array([SYMBOLS.index(u.symbol) for u in us], np.int8),
        us_printed=us_printed, us_armored=np.array([u.armored for u in us], np.bool_),
        us_arrival=np.array([u.arrival or -1 for u in us], np.int8), us_beach=us_beach, us_bnr=us_bnr,
        us_bnr_hex=us_bnr_hex,
        jp_names=[u.name for u in jp] + [f"fortification {i + 1}" for i in range(NF)],
        jp_type=np.array([JP_TYPES.index(getattr(u, "type", "tank")) for u in jp] + [JP_FORT] * NF, np.int8),
        jp_elite=np.array([getattr(u, "elite", False) for u in jp] + [False] * NF, np.bool_),
        jp_tank=np.concatenate([jp_tank, np.zeros(NF, np.bool_)]),
        jp_strength=np.array([u.strength for u in jp] + [0] * NF, np.int8),
        jp_requires=np.concatenate([np.array([_bits(u.requires) for u in jp], np.int32), fort_requires[:NF]]),
        jp_colour=np.array([COLOURS.index(u.colour) if hasattr(u, "colour") else -1 for u in jp] + [-1] * NF,
                           np.int8),
        jp_fort=np.arange(NJ + NF) >= NJ,
        jp_blocked=np.concatenate([np.zeros((NJ, 6), np.bool_), fort_blocked[:NF]]),
        dm_kind=np.array([k for k, _ in dms], np.int8), dm_strength=np.array([d.strength for _, d in dms], np.int8),
        dm_requires=np.array([_bits(d.requires) for _, d in dms], np.int32),
        dm_tr=np.array([getattr(d, "tactical_reinforcement", False) for _, d in dms], np.bool_),
        dm_colour=np.array([COLOURS.index(d.colour) if k == 2 else -1 for k, d in dms], np.int8),
        fort_blocked=fort_blocked, fort_requires=fort_requires,
        hero_names=list(cnt.heroes), naval_max=cnt.naval_markers, dauntless_max=cnt.dauntless_markers,
        card_land_colour=np.array([COLOURS.index(c.landing.colour) for c in cards], np.int8),
        card_land_symbol=np.array([SYMBOLS.index(c.landing.symbol) for c in cards], np.int8),
        card_drift=np.array([drift[c.landing.drift] for c in cards], np.int8),
        card_colour=np.array([[COLOURS.index(x.colour) for x in c.fire.colours] for c in cards], np.int8),
        card_letter=np.array([[LETTERS.index(x.letter) for x in c.fire.colours] for c in cards], np.int8),
        card_star=np.array([[x.star for x in c.fire.colours] for c in cards], np.bool_),
        card_armor=np.array([[x.armor for x in c.fire.colours] for c in cards], np.bool_),
        card_symbol=np.array([SYMBOLS.index(c.fire.symbol) for c in cards], np.int8),
        card_artillery=np.array([c.fire.artillery for c in cards], np.int8),
        card_cc=np.array([CC_EVENTS.index(c.cc_event) for c in cards], np.int8),
        card_event=card_event, card_param=card_param,
        fire_chart=fire_chart, weapons_adj=w_adj, weapons_rng=w_rng, bands=bands,
        marker_strength=ch.marker_strength,
        marker_weapons=np.array([_bits(ch.marker_weapons.get("naval", [])),
                                 _bits(ch.marker_weapons.get("dauntless", []))], np.int32),
        attack_chart=attack, barrage_columns=bc, barrage_table=barrage,
        t_land=t_land, t_defense=t_def, t_stop=t_stop, t_no_entry=t_no, t_comm=t_comm, t_barrage_left=t_bl,
        t_cc_card=t_cc, turn_time=[""] + [e.time for e in ch.turn_track], catastrophic=catastrophic,
        letter_turn=letter_turn, command_track=np.array(ch.command_track, np.int8), bnr_kind=bnr_kind,
        bnr_time=[""] + [e.time for e in ch.bnr_track], bnr_catastrophic=ch.bnr_catastrophic, action_chart=action,
    )
