"""The World at War data: dice, terrain, unit cards, command cards, air decks and scenarios.

Files under configs/world_at_war/ (RECONSTRUCTED where the book is silent; each file says what it
honours and what it reconstructs; wargym/world_at_war/README.md)::

    dice.yaml        the white, yellow, red and green battle dice and the air support & AA die:
                     faces, what each symbol scores against, the special symbols' ranges
    terrain.yaml     the terrain effects sheet, every row (terrains by map letter, and features)
    units.yaml       unit cards: figures, flag, movement, target kind, dice per range band
    cards.yaml       the command card deck: standard cards by colour and count, special cards
    air.yaml         appendix 2: air force decks, air support decks per country, ranges
    scenarios/*.yaml the battles: map, features, objectives, units, hands, victory points, air

``load_scenario(name)`` validates every file (``DataError``: file, key, value, rule) and compiles a
frozen ``Scenario`` of numpy lookup tables indexed by dense hex, unit-card, unit and card numbers.
``name`` is a shipped scenario (``SCENARIOS``) or the path of a scenario file.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal, Optional

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from wargym.data import DataError, config_path, load_yaml, validate
from wargym.hexgrid import HexGrid

SCENARIOS = ("pacific", "bocage", "ussr_town")
DEFAULT_SCENARIO = "pacific"

COLOURS = ("red", "blue", "green")
RED, BLUE, GREEN = range(3)
DICE = ("white", "yellow", "red", "green")
WHITE_DIE, YELLOW_DIE, RED_DIE, GREEN_DIE = range(4)
SYMBOLS = ("blank", "soldier", "jeep", "sherman", "tiger", "hit", "strike", "blow", "flag")
BLANK, SOLDIER, JEEP, SHERMAN, TIGER, HIT, STRIKE, BLOW, FLAG = range(9)
SPECIALS = (HIT, STRIKE, BLOW)
TARGETS = ("infantry", "soft", "medium", "heavy")
T_INFANTRY, T_SOFT, T_MEDIUM, T_HEAVY = range(4)
AIR_FACES = ("hit_any", "hit_fb", "kill_infantry", "flag", "kill_any", "miss")
KINDS = ("infantry", "sniper", "commander", "tank", "sp_gun", "anti_tank", "artillery", "aa")
K_INFANTRY, K_SNIPER, K_COMMANDER, K_TANK, K_SP_GUN, K_ANTI_TANK, K_ARTILLERY, K_AA = range(8)
TRANSPORTS = ("foot", "motorized", "mechanized", "tracked", "towed")
FOOT, MOTORIZED, MECHANIZED, TRACKED, TOWED = range(5)
CLASSES = ("infantry", "vehicle", "artillery")   # the terrain sheet's kinds of battling unit
C_INFANTRY, C_VEHICLE, C_ARTILLERY = range(3)
TERRAINS = ("clear", "wood", "bocage", "hill", "town", "river", "ford", "bridge", "sea", "beach", "marsh",
            "depression")
FEATURES = ("debris", "bunker", "anti_tank", "sandbags", "barbed_wire", "minefield")
SEA_TERRAIN = 8  # TERRAINS.index("sea")
COUNTRIES = ("usa", "uk", "germany", "ussr", "japan")
ACTIONS = ("standard", "any_colour", "artillery", "armour", "infantry", "combat_command", "air_support")
MAX_BANDS = 8          # range bands a unit card may list
MAX_SIDE_UNITS = 16    # units (commanders and snipers included) a side may field

Colour = Literal["red", "blue", "green"]
Die = Literal["white", "yellow", "red", "green"]
Symbol = Literal["blank", "soldier", "jeep", "sherman", "tiger", "hit", "strike", "blow", "flag"]
Target = Literal["infantry", "soft", "medium", "heavy"]
Country = Literal["usa", "uk", "germany", "ussr", "japan"]
Enter = Literal["all", "infantry", "none"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Doc(_Strict):
    reconstructed: bool = True
    notes: str = ""


# ------------------------------------------------------------------------------------------ dice
class BattleDie(_Strict):
    faces: list[Symbol] = Field(min_length=6, max_length=6)
    suppression: bool = False


class AirDie(_Strict):
    faces: list[Literal["hit_any", "hit_fb", "kill_infantry", "flag", "kill_any", "miss"]] = Field(
        min_length=6, max_length=6)


class DiceFile(_Doc):
    battle: dict[Die, BattleDie]
    targets: dict[Target, list[Symbol]]
    specials: dict[Literal["hit", "strike", "blow"], int]
    saving_die: Die
    air: AirDie

    @model_validator(mode="after")
    def _complete(self) -> "DiceFile":
        for group, have, want in (("battle", self.battle, DICE), ("targets", self.targets, TARGETS),
                                  ("specials", self.specials, ("hit", "strike", "blow"))):
            missing = [k for k in want if k not in have]
            if missing:
                raise ValueError(f"{group} lacks {missing}")
        if self.battle[self.saving_die].suppression:
            raise ValueError("the saving die may not be a suppression die")
        return self


# --------------------------------------------------------------------------------------- terrain
class Dice(_Strict):
    infantry: int = Field(default=0, ge=0, le=6)
    vehicle: int = Field(default=0, ge=0, le=6)
    artillery: int = Field(default=0, ge=0, le=6)


class TerrainRow(_Strict):
    code: Optional[str] = Field(default=None, min_length=1, max_length=1)
    stop: bool = False
    no_battle: bool = False
    max_move: Optional[int] = Field(default=None, ge=1)
    enter: Enter = "all"
    attacker: Dice = Dice()
    defender: Dice = Dice()
    ignore_flags: int = Field(default=0, ge=0, le=2)
    blocks: bool = False
    elevation: int = Field(default=0, ge=0, le=1)
    buildings: bool = False
    adjacent_attack_only: bool = False
    # features only
    vehicle_move_cost: int = Field(default=0, ge=0)
    no_artillery_retreat: bool = False
    collapse: list[int] = []
    overrun: Optional[Literal["all", "tracked"]] = None
    clear: Optional[Literal["infantry", "minefield"]] = None


class TerrainFile(_Doc):
    terrains: dict[str, TerrainRow]
    features: dict[str, TerrainRow]
    building_collapse: list[int]

    @model_validator(mode="after")
    def _rows(self) -> "TerrainFile":
        for group, have, want in (("terrains", self.terrains, TERRAINS), ("features", self.features, FEATURES)):
            if list(have) != list(want):
                raise ValueError(f"{group} must be exactly {list(want)} in that order, got {list(have)}")
        codes = [row.code for row in self.terrains.values()]
        if None in codes or len(set(codes)) != len(codes):
            raise ValueError(f"every terrain needs its own one-letter code, got {codes}")
        return self


# ------------------------------------------------------------------------------------ unit cards
class UnitCard(_Strict):
    name: str
    country: Literal["usa", "uk", "germany", "ussr", "japan", "any"]
    kind: Literal["infantry", "sniper", "commander", "tank", "sp_gun", "anti_tank", "artillery", "aa"]
    transport: Literal["foot", "motorized", "mechanized", "tracked", "towed"]
    figures: int = Field(ge=1, le=8)
    flag: int = Field(ge=1, le=9)
    move: int = Field(ge=0, le=6)
    move_mounted: int = Field(default=0, ge=0, le=6)
    vehicles: int = Field(default=0, ge=0, le=2)
    target: Target
    vehicle_target: Optional[Target] = None
    terrain_class: Literal["infantry", "vehicle", "artillery"]
    dice: list[dict[Die, int]] = Field(max_length=MAX_BANDS)
    indirect: bool = False
    flamethrower: bool = False
    engineers: bool = False
    armed: Optional[int] = Field(default=None, ge=0, le=8)
    air_dice: int = Field(default=0, ge=0, le=3)

    @model_validator(mode="after")
    def _consistent(self) -> "UnitCard":
        if (self.transport in ("motorized", "mechanized")) != (self.vehicles > 0):
            raise ValueError("motorized and mechanized infantry carry vehicles; no other unit does (appendix 1)")
        if self.vehicles and (self.move_mounted == 0 or self.vehicle_target is None):
            raise ValueError("a unit with vehicles needs move_mounted and vehicle_target (appendix 1)")
        if self.transport == "foot" and self.figures > 8:
            raise ValueError("infantry on foot has up to 8 figures (appendix 1)")
        for band in self.dice:
            if any(n < 0 or n > 6 for n in band.values()) or sum(band.values()) == 0:
                raise ValueError(f"a range band casts 1-6 dice, got {band}")
        if self.armed is not None and self.armed > self.figures:
            raise ValueError("armed: the figures with firearms are some of its figures (3. Move)")
        if (self.kind == "commander") != (not self.dice):
            raise ValueError("only a commander has no dice of its own (commanders in battle)")
        return self


class UnitsFile(_Doc):
    cards: dict[str, UnitCard]

    @model_validator(mode="after")
    def _has_commander(self) -> "UnitsFile":
        if "commander" not in self.cards or "sniper" not in self.cards:
            raise ValueError("the cards need a 'commander' and a 'sniper'")
        return self


# --------------------------------------------------------------------------------- command cards
class StandardCard(_Strict):
    colour: Colour
    order: int = Field(ge=1, le=6)
    count: int = Field(ge=1, le=20)


class SpecialCard(_Strict):
    action: Literal["any_colour", "artillery", "armour", "infantry", "combat_command", "air_support"]
    order: int = Field(ge=0, le=6)
    count: int = Field(ge=1, le=20)
    name: str

    @model_validator(mode="after")
    def _orders(self) -> "SpecialCard":
        if (self.action == "air_support") != (self.order == 0):
            raise ValueError("every special card but 'pick an air support' orders at least one unit")
        return self


class CardsFile(_Doc):
    standard: list[StandardCard] = Field(min_length=1)
    special: list[SpecialCard] = []


# ------------------------------------------------------------------------------------------- air
class Planes(_Strict):
    fb: int = Field(ge=0, le=4)
    f: int = Field(ge=0, le=4)


class AirForce(_Strict):
    fighter: int = Field(ge=0)
    fighter_bomber: int = Field(ge=0)
    blank: int = Field(ge=0)
    pick: int = Field(ge=0)


class AirFile(_Doc):
    air_force: AirForce
    air_support_pick: int = Field(ge=0)
    copies: int = Field(ge=1)
    air_support: dict[Literal["usa", "uk", "germany", "ussr"], list[Planes]]
    aircraft_range: int = Field(ge=1)
    aa_range: int = Field(ge=1)
    attack_dice: dict[Literal["fighter_bomber", "fighter"], int]


# ------------------------------------------------------------------------------------- scenarios
class Feature(_Strict):
    hex: str = Field(pattern=r"^\d{4}$")
    kind: Literal["debris", "bunker", "anti_tank", "sandbags", "barbed_wire", "minefield"]


class Objective(_Strict):
    hex: str = Field(pattern=r"^\d{4}$")
    points: int = Field(ge=1, le=5)
    name: str
    for_: str = Field(alias="for")


class MapSpec(_Strict):
    columns: int = Field(ge=2, le=30)
    rows: int = Field(ge=2, le=30)
    terrain: list[str]
    features: list[Feature] = []
    objectives: list[Objective] = []


class Placed(_Strict):
    side: str
    hex: str = Field(pattern=r"^\d{4}$")


class UnitSpec(Placed):
    card: str
    colour: Colour
    figures: Optional[int] = Field(default=None, ge=1, le=8)


class SideAir(_Strict):
    air_force: int = Field(ge=0, le=18)
    air_support: int = Field(ge=0, le=18)


class ScenarioFile(_Doc):
    name: str
    title: str
    sides: list[str] = Field(min_length=2, max_length=2)
    countries: dict[str, Country]
    first_player: str
    hand: dict[str, int]
    victory_points: dict[str, int]
    air: dict[str, Optional[SideAir]]
    map: MapSpec
    units: list[UnitSpec]
    commanders: list[Placed] = []
    snipers: list[Placed] = []


# The rule each top-level key of a file implements, for DataError messages.
RULES = {
    "battle": "battle dice", "targets": "battle dice", "specials": "battle dice", "saving_die": "saving throw",
    "air": "appendix 2", "terrains": "terrain effects sheet", "features": "terrain effects sheet",
    "building_collapse": "firing at buildings", "cards": "unit cards", "standard": "command cards",
    "special": "command cards", "air_force": "appendix 2", "air_support": "appendix 2",
    "sides": "game turn", "countries": "appendix 2", "first_player": "game turn", "hand": "command cards",
    "victory_points": "objective of the game", "map": "terrain effects sheet", "units": "moving units",
    "commanders": "moving commanders or snipers", "snipers": "moving commanders or snipers",
}


@dataclass(frozen=True)
class DiceTables:
    """faces[die, 6] symbol numbers; scores[target, symbol] whether the symbol hits that target kind;
    special_range[symbol] the range a special symbol scores within (0: not a special);
    suppression[die]; saving_die; air_faces[6] (AIR_FACES numbers)."""

    faces: np.ndarray
    scores: np.ndarray
    special_range: np.ndarray
    suppression: np.ndarray
    saving_die: int
    air_faces: np.ndarray


def compile_dice(data: DiceFile) -> DiceTables:
    faces = np.array([[SYMBOLS.index(s) for s in data.battle[d].faces] for d in DICE], dtype=np.int8)
    scores = np.zeros((len(TARGETS), len(SYMBOLS)), dtype=np.bool_)
    for t, name in enumerate(TARGETS):
        for s in data.targets[name]:
            scores[t, SYMBOLS.index(s)] = True
    special_range = np.zeros(len(SYMBOLS), dtype=np.int8)
    for name, reach in data.specials.items():
        special_range[SYMBOLS.index(name)] = reach
    suppression = np.array([data.battle[d].suppression for d in DICE], dtype=np.bool_)
    air_faces = np.array([AIR_FACES.index(f) for f in data.air.faces], dtype=np.int8)
    for arr in (faces, scores, special_range, suppression, air_faces):
        arr.setflags(write=False)
    return DiceTables(faces, scores, special_range, suppression, DICE.index(data.saving_die), air_faces)


@dataclass(frozen=True)
class UnitTables:
    """The unit cards as arrays indexed by card number (``names[card]``): ``dice[card, band, die]``
    (band 0 = range 1), figures, flag, move, move_mounted, vehicles, kind (KINDS), transport
    (TRANSPORTS), target and vehicle_target (TARGETS; -1 none), terrain_class (CLASSES), indirect,
    flamethrower, engineers, armed (figures with firearms), air_dice."""

    names: tuple[str, ...]
    dice: np.ndarray
    figures: np.ndarray
    flag: np.ndarray
    move: np.ndarray
    move_mounted: np.ndarray
    vehicles: np.ndarray
    kind: np.ndarray
    transport: np.ndarray
    target: np.ndarray
    vehicle_target: np.ndarray
    terrain_class: np.ndarray
    indirect: np.ndarray
    flamethrower: np.ndarray
    engineers: np.ndarray
    armed: np.ndarray
    air_dice: np.ndarray


def compile_units(data: UnitsFile) -> UnitTables:
    cards = list(data.cards.values())
    dice = np.zeros((len(cards), MAX_BANDS, len(DICE)), dtype=np.int8)
    for c, card in enumerate(cards):
        for band, counts in enumerate(card.dice):
            for die, n in counts.items():
                dice[c, band, DICE.index(die)] = n

    def column(get, dtype):
        arr = np.array([get(card) for card in cards], dtype=dtype)
        arr.setflags(write=False)
        return arr

    dice.setflags(write=False)
    return UnitTables(
        names=tuple(data.cards), dice=dice,
        figures=column(lambda c: c.figures, np.int8), flag=column(lambda c: c.flag, np.int8),
        move=column(lambda c: c.move, np.int8), move_mounted=column(lambda c: c.move_mounted, np.int8),
        vehicles=column(lambda c: c.vehicles, np.int8), kind=column(lambda c: KINDS.index(c.kind), np.int8),
        transport=column(lambda c: TRANSPORTS.index(c.transport), np.int8),
        target=column(lambda c: TARGETS.index(c.target), np.int8),
        vehicle_target=column(lambda c: TARGETS.index(c.vehicle_target) if c.vehicle_target else -1, np.int8),
        terrain_class=column(lambda c: CLASSES.index(c.terrain_class), np.int8),
        indirect=column(lambda c: c.indirect, np.bool_), flamethrower=column(lambda c: c.flamethrower, np.bool_),
        engineers=column(lambda c: c.engineers, np.bool_),
        armed=column(lambda c: c.figures if c.armed is None else c.armed, np.int8),
        air_dice=column(lambda c: c.air_dice, np.int8))


@lru_cache(maxsize=None)
def load_units() -> UnitTables:
    return compile_units(load_rulebook_data()[1])


def _file(*parts: str) -> Path:
    return config_path("world_at_war", *parts)


def _load(model, path: Path):
    return validate(model, load_yaml(path), path, RULES)


@lru_cache(maxsize=None)
def load_dice() -> DiceTables:
    return compile_dice(_load(DiceFile, _file("dice.yaml")))


@lru_cache(maxsize=None)
def load_rulebook_data() -> tuple[TerrainFile, UnitsFile, CardsFile, AirFile]:
    """The files every scenario shares, validated."""
    return (_load(TerrainFile, _file("terrain.yaml")), _load(UnitsFile, _file("units.yaml")),
            _load(CardsFile, _file("cards.yaml")), _load(AirFile, _file("air.yaml")))


def scenario_path(name: str) -> Path:
    if name in SCENARIOS:
        return _file("scenarios", f"{name}.yaml")
    return Path(name)


def load_scenario_file(name: str) -> tuple[Path, ScenarioFile]:
    path = scenario_path(name)
    data = _load(ScenarioFile, path)
    check_scenario(path, data)
    return path, data


def check_scenario(path: Path, data: ScenarioFile) -> None:
    """The facts a scenario must respect beyond its shape; DataError names file, key, value, rule."""
    terrain, units, _, _ = load_rulebook_data()
    grid = HexGrid(data.map.columns, data.map.rows)
    sides = data.sides

    def fail(key: str, value, rule: str, message: str):
        raise DataError(path, key, value, rule, message)

    if len(set(sides)) != 2:
        fail("sides", sides, "game turn", "two different sides")
    for key in ("countries", "hand", "victory_points", "air"):
        have = getattr(data, key)
        if sorted(have) != sorted(sides):
            fail(key, sorted(have), RULES[key], f"needs exactly the sides {sides}")
    if data.first_player not in (*sides, "roll"):
        fail("first_player", data.first_player, "game turn", f"a side of {sides} or 'roll'")
    for side in sides:
        if data.air[side] is not None and data.countries[side] == "japan":
            fail(f"air.{side}", "japan", "appendix 2", "the book lists no air decks for Japan")
        if not 1 <= data.hand[side] <= 10:
            fail(f"hand.{side}", data.hand[side], "command cards", "a hand of 1-10 cards")
        if data.victory_points[side] < 1:
            fail(f"victory_points.{side}", data.victory_points[side], "objective of the game", "at least 1")
    codes = {row.code: name for name, row in terrain.terrains.items()}
    if len(data.map.terrain) != data.map.rows:
        fail("map.terrain", len(data.map.terrain), "terrain effects sheet", f"{data.map.rows} rows")
    cells: dict[str, str] = {}
    for r, line in enumerate(data.map.terrain):
        letters = line.split(" ")
        if len(letters) != data.map.columns:
            fail(f"map.terrain[{r}]", line, "terrain effects sheet", f"{data.map.columns} letters separated by spaces")
        for c, letter in enumerate(letters):
            if letter not in codes:
                fail(f"map.terrain[{r}]", letter, "terrain effects sheet", f"not a terrain letter {sorted(codes)}")
            cells[f"{c + 1:02d}{r + 1:02d}"] = codes[letter]

    def on_map(key: str, hexnum: str) -> str:
        if not grid.contains(int(hexnum)):
            fail(key, hexnum, "terrain effects sheet", f"hex not on the {data.map.columns}x{data.map.rows} map")
        return cells[hexnum]

    for i, feat in enumerate(data.map.features):
        if terrain.terrains[on_map(f"map.features[{i}].hex", feat.hex)].enter == "none":
            fail(f"map.features[{i}].hex", feat.hex, "terrain effects sheet", "an obstacle on a hex nobody may enter")
    for i, obj in enumerate(data.map.objectives):
        on_map(f"map.objectives[{i}].hex", obj.hex)
        if obj.for_ not in (*sides, "both"):
            fail(f"map.objectives[{i}].for", obj.for_, "objective of the game", f"a side of {sides} or 'both'")
    unit_at: dict[str, str] = {}     # hex -> the side of the unit there
    leader_at: dict[str, str] = {}   # hex -> the side of the commander or sniper there
    per_side = {side: 0 for side in sides}
    for group, placed in (("units", data.units), ("commanders", data.commanders), ("snipers", data.snipers)):
        for i, p in enumerate(placed):
            key = f"{group}[{i}]"
            if p.side not in sides:
                fail(f"{key}.side", p.side, RULES[group], f"a side of {sides}")
            per_side[p.side] += 1
            where = on_map(f"{key}.hex", p.hex)
            if terrain.terrains[where].enter == "none" or where == "sea":
                fail(f"{key}.hex", p.hex, "terrain effects sheet", f"a unit cannot stand on {where}")
            if group == "units":
                card = units.cards.get(p.card)
                if card is None or card.kind in ("commander", "sniper"):
                    fail(f"{key}.card", p.card, "unit cards", "not a unit card of units.yaml (commanders and "
                         "snipers have lists of their own)")
                if card.country not in (data.countries[p.side], "any"):
                    fail(f"{key}.card", p.card, "unit cards",
                         f"a {card.country} card in {p.side}'s ({data.countries[p.side]}) force")
                if p.figures is not None and p.figures > card.figures:
                    fail(f"{key}.figures", p.figures, "unit cards", f"{p.card} has {card.figures} figures at most")
                if p.hex in unit_at:
                    fail(f"{key}.hex", p.hex, "moving units", "two units in one hex")
                unit_at[p.hex] = p.side
            else:
                if p.hex in leader_at:
                    fail(f"{key}.hex", p.hex, "moving commanders or snipers", "a second commander or sniper in one hex")
                leader_at[p.hex] = p.side
    for hexnum, side in leader_at.items():
        if unit_at.get(hexnum, side) != side:
            fail("commanders", hexnum, "moving commanders or snipers", "a commander or sniper in an enemy unit's hex")
    for side, n in per_side.items():
        if n > MAX_SIDE_UNITS:
            fail("units", n, "moving units", f"{side} fields {n} pieces; at most {MAX_SIDE_UNITS}")


# ------------------------------------------------------------------------------ compiled scenario
# feature bits of a hex (FEATURES order)
F_DEBRIS, F_BUNKER, F_ANTI_TANK, F_SANDBAGS, F_WIRE, F_MINES = (1 << i for i in range(6))
ENTER_ALL, ENTER_INFANTRY, ENTER_NONE = range(3)
ENTER_CODE = {"all": ENTER_ALL, "infantry": ENTER_INFANTRY, "none": ENTER_NONE}
NO_COLLAPSE, COLLAPSE_BUILDING, COLLAPSE_BUNKER = range(3)
BOTH = 2   # an objective either side scores
ROLL = -1  # first player: a D6 each, the higher chooses (game turn)
LOS_MAX = 32  # hexes a line of sight can cross on a 30 x 30 map
AF_BLANK, AF_FIGHTER, AF_FIGHTER_BOMBER = range(3)
AIR_CARDS = 18   # air force cards, and air support cards, of one side (appendix 2)


@dataclass(frozen=True)
class Scenario:
    """One battle, compiled: the static facts the rules read, as arrays (module docstring).

    Hexes ``h`` (dense, wargym.hexgrid), pieces ``p`` (units, then commanders, then snipers, in the
    file's order), command cards ``c`` (standard cards, then special ones, in cards.yaml's order),
    objectives ``o``."""

    name: str
    title: str
    facts: str
    spec: ScenarioFile
    grid: HexGrid
    sides: tuple[str, str]
    first_player: int                 # side index, or ROLL
    hand: np.ndarray                  # int8[2] command cards held
    vp_quota: np.ndarray              # int16[2]
    # the map
    terrain: np.ndarray               # int8[H] TERRAINS
    features: np.ndarray              # uint8[H] F_* bits at set-up (a game's own: state.features)
    # the terrain's row of the sheet for each hex (the features' rows: f_* by feature)
    blocks: np.ndarray                # bool[H] blocks line of sight
    elevation: np.ndarray             # int8[H]
    stop: np.ndarray                  # bool[H] a unit entering ends its move
    no_battle: np.ndarray             # bool[H] ... and does not battle this turn
    max_move: np.ndarray              # int8[H] hexes a unit moving into or out of it moves at most (0: no limit)
    enter: np.ndarray                 # int8[H] ENTER_*: who may enter
    attacker_less: np.ndarray         # int8[H, 3] dice less for a unit battling a target here, by CLASSES
    defender_less: np.ndarray         # int8[H, 3] dice less for a unit here when it battles, by CLASSES
    adjacent_only: np.ndarray         # bool[H] infantry and tanks attack a unit here only from next to it
    collapse: np.ndarray              # int8[H] NO_COLLAPSE / COLLAPSE_BUILDING (towns; bunkers: features)
    collapse_totals: np.ndarray       # int64[3, 2] the 2 D6 totals that collapse each kind (-1 pad)
    f_blocks: np.ndarray              # bool[F] each feature's row (FEATURES order)
    f_stop: np.ndarray                # bool[F]
    f_enter: np.ndarray               # int8[F]
    f_vehicle_cost: np.ndarray        # int8[F] extra hexes a vehicle pays to enter
    f_attacker: np.ndarray            # int8[F, 3]
    f_defender: np.ndarray            # int8[F, 3]
    f_ignore_flags: np.ndarray        # int8[F]
    f_no_artillery_retreat: np.ndarray  # bool[F]
    f_buildings: np.ndarray           # bool[F] (bunkers: COLLAPSE_BUNKER)
    toward_home: np.ndarray           # bool[2, 6] the directions that lead toward each side's own edge
    sight_a: np.ndarray               # int16[H, H, LOS_MAX] hexes between a and b, one way round (-1 pad)
    sight_b: np.ndarray               # int16[H, H, LOS_MAX] ... nudged the other way round (edge rule)
    # the pieces
    piece_side: np.ndarray            # int8[P]
    piece_card: np.ndarray            # int16[P] unit-card number
    piece_colour: np.ndarray          # int8[P] COLOURS, -1 for commanders and snipers
    piece_hex: np.ndarray             # int16[P] set-up hex
    piece_figures: np.ndarray         # int8[P] figures at set-up
    piece_names: tuple[str, ...]
    units: UnitTables
    # the command cards
    card_action: np.ndarray           # int8[C] ACTIONS
    card_colour: np.ndarray           # int8[C] COLOURS, -1 for special cards
    card_order: np.ndarray            # int8[C] units it orders
    card_names: tuple[str, ...]
    # appendix 2: the air force cards (F) and air support cards (S), 18 of each a side, side 0's first
    af_kind: np.ndarray               # int8[F] AF_BLANK / AF_FIGHTER / AF_FIGHTER_BOMBER
    as_planes: np.ndarray             # int8[S, 2] fighter-bombers, fighters on each air support card
    air_force_pick: np.ndarray        # int8[2] air force cards picked blind at the start (0: no air)
    air_support_quota: np.ndarray     # int8[2] air support cards picked at the start: the quota
    # objectives
    objective_hex: np.ndarray         # int16[O]
    objective_points: np.ndarray      # int8[O]
    objective_for: np.ndarray         # int8[O] side index or BOTH
    objective_names: tuple[str, ...]

    @property
    def num_hexes(self) -> int:
        return self.grid.size

    @property
    def victory(self) -> str:
        """The victory conditions in words ("Objective of the game")."""
        quota = " / ".join(f"{s} {int(q)}" for s, q in zip(self.sides, self.vp_quota))
        held = "; ".join(f"{n} {self.grid.label(int(h))} ({int(p)} for "
                         f"{'either side' if f == BOTH else self.sides[int(f)]})"
                         for n, h, p, f in zip(self.objective_names, self.objective_hex, self.objective_points,
                                               self.objective_for))
        return (f"the first side to its quota of victory points ({quota}): 1 for each enemy unit or commander "
                f"destroyed, and the objectives its units hold at the end of its turn: {held}")


def _frozen(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)


def _sight_tables(grid: HexGrid) -> tuple[np.ndarray, np.ndarray]:
    """For every pair of hexes the hexes a line between their centres crosses, both ends left
    out: once nudged one way and once the other, so that a line along a hexside sees the hexes on
    both sides of it (the edge rule of "Line of sight")."""
    H = grid.size
    a_tab = np.full((H, H, LOS_MAX), -1, dtype=np.int16)
    b_tab = np.full((H, H, LOS_MAX), -1, dtype=np.int16)
    cube = grid.cube.astype(np.float64)
    index = {tuple(int(v) for v in grid.cube[h]): h for h in range(H)}
    nudges = (np.array([1e-6, 2e-6, -3e-6]), np.array([-1e-6, -2e-6, 3e-6]))
    for a in range(H):
        for b in range(H):
            n = int(grid.distance[a, b])
            for tab, eps in zip((a_tab, b_tab), nudges):
                k = 0
                for i in range(1, n):
                    p = cube[a] + (cube[b] - cube[a]) * (i / n) + eps
                    h = index.get(_round_cube(p))
                    if h is not None:
                        tab[a, b, k] = h
                        k += 1
    return a_tab, b_tab


def _round_cube(p: np.ndarray) -> tuple[int, int, int]:
    r = np.round(p)
    d = np.abs(r - p)
    if d[0] > d[1] and d[0] > d[2]:
        r[0] = -r[1] - r[2]
    elif d[1] > d[2]:
        r[1] = -r[0] - r[2]
    else:
        r[2] = -r[0] - r[1]
    return int(r[0]), int(r[1]), int(r[2])


def _toward_home(grid: HexGrid) -> np.ndarray:
    """Directions whose neighbour lies nearer a side's own edge: side 0's edge is the south
    (row ``rows``), side 1's the north (row 1): S, SE, SW and N, NE, NW (wargym.hexgrid)."""
    out = np.zeros((2, 6), dtype=np.bool_)
    out[0, [2, 3, 4]] = True
    out[1, [0, 1, 5]] = True
    return out


@lru_cache(maxsize=None)
def _sight_for(columns: int, rows: int) -> tuple[np.ndarray, np.ndarray]:
    a, b = _sight_tables(HexGrid(columns, rows))
    _frozen(a, b)
    return a, b


def compile_scenario(path: Path, data: ScenarioFile) -> Scenario:
    terrain_file, units_file, cards_file, air_file = load_rulebook_data()
    units = load_units()
    grid = HexGrid(data.map.columns, data.map.rows)
    H = grid.size
    codes = {row.code: name for name, row in terrain_file.terrains.items()}
    terrain = np.zeros(H, dtype=np.int8)
    for r, line in enumerate(data.map.terrain):
        for c, letter in enumerate(line.split(" ")):
            terrain[grid.index(int(f"{c + 1:02d}{r + 1:02d}"))] = TERRAINS.index(codes[letter])
    features = np.zeros(H, dtype=np.uint8)
    for feat in data.map.features:
        features[grid.index(int(feat.hex))] |= 1 << FEATURES.index(feat.kind)

    blocks = np.zeros(H, np.bool_)
    elevation = np.zeros(H, np.int8)
    stop = np.zeros(H, np.bool_)
    no_battle = np.zeros(H, np.bool_)
    max_move = np.zeros(H, np.int8)
    enter = np.zeros(H, np.int8)
    attacker_less = np.zeros((H, 3), np.int8)
    defender_less = np.zeros((H, 3), np.int8)
    adjacent_only = np.zeros(H, np.bool_)
    collapse = np.zeros(H, np.int8)
    for h in range(H):
        row = terrain_file.terrains[TERRAINS[terrain[h]]]
        blocks[h], elevation[h], stop[h], no_battle[h] = row.blocks, row.elevation, row.stop, row.no_battle
        max_move[h], enter[h] = row.max_move or 0, ENTER_CODE[row.enter]
        attacker_less[h] = [getattr(row.attacker, cls) for cls in CLASSES]
        defender_less[h] = [getattr(row.defender, cls) for cls in CLASSES]
        adjacent_only[h] = row.adjacent_attack_only
        collapse[h] = COLLAPSE_BUILDING if row.buildings else NO_COLLAPSE
    rows = [terrain_file.features[name] for name in FEATURES]
    totals = np.full((3, 2), -1, dtype=np.int64)
    totals[COLLAPSE_BUILDING, :len(terrain_file.building_collapse)] = terrain_file.building_collapse
    bunker = terrain_file.features["bunker"].collapse
    totals[COLLAPSE_BUNKER, :len(bunker)] = bunker

    sides = tuple(data.sides)
    pieces = ([(u.side, u.card, u.colour, u.hex, u.figures) for u in data.units]
              + [(c.side, "commander", None, c.hex, None) for c in data.commanders]
              + [(s.side, "sniper", None, s.hex, None) for s in data.snipers])
    piece_card = np.array([units.names.index(p[1]) for p in pieces], dtype=np.int16)
    piece_figures = np.array([p[4] if p[4] is not None else units.figures[k] for p, k in zip(pieces, piece_card)],
                             dtype=np.int8)
    names = []
    for i, p in enumerate(pieces):
        names.append(f"{p[0]} {p[1]}" + (f" ({p[2]})" if p[2] else "") + f" at {p[3]}")

    actions, colours, orders, card_names = [], [], [], []
    for spec in cards_file.standard:
        for _ in range(spec.count):
            actions.append(0)
            colours.append(COLOURS.index(spec.colour))
            orders.append(spec.order)
            card_names.append(f"order {spec.order} {spec.colour}")
    for spec in cards_file.special:
        for _ in range(spec.count):
            actions.append(ACTIONS.index(spec.action))
            colours.append(-1)
            orders.append(spec.order)
            card_names.append(spec.name if spec.action == "air_support" else f"{spec.name}: order {spec.order}")

    af = air_file.air_force
    one_side = [AF_FIGHTER] * af.fighter + [AF_FIGHTER_BOMBER] * af.fighter_bomber + [AF_BLANK] * af.blank
    if len(one_side) != AIR_CARDS:
        raise DataError(config_path("world_at_war", "air.yaml"), "air_force", len(one_side), "appendix 2",
                        f"{AIR_CARDS} air force cards a side")
    as_planes = np.zeros((2 * AIR_CARDS, 2), np.int8)
    pick = np.zeros(2, np.int8)
    quota = np.zeros(2, np.int8)
    for k, side in enumerate(sides):
        table = air_file.air_support.get(data.countries[side])
        if data.air[side] is None or table is None:
            continue
        deck = [card for card in table for _ in range(air_file.copies)]
        for i, card in enumerate(deck[:AIR_CARDS]):
            as_planes[k * AIR_CARDS + i] = (card.fb, card.f)
        pick[k] = data.air[side].air_force
        quota[k] = data.air[side].air_support

    sight_a, sight_b = _sight_for(grid.columns, grid.rows)
    out = Scenario(
        name=data.name, title=data.title,
        facts=(f"{grid.columns}x{grid.rows} hexes, {len(data.units)} units, {len(data.commanders)} commanders, "
               f"{len(data.snipers)} sniper{'' if len(data.snipers) == 1 else 's'}, hands of "
               f"{data.hand[sides[0]]}/{data.hand[sides[1]]} command cards"),
        spec=data, grid=grid, sides=sides,  # type: ignore[arg-type]
        first_player=ROLL if data.first_player == "roll" else sides.index(data.first_player),
        hand=np.array([data.hand[s] for s in sides], dtype=np.int8),
        vp_quota=np.array([data.victory_points[s] for s in sides], dtype=np.int16),
        terrain=terrain, features=features, blocks=blocks, elevation=elevation, stop=stop, no_battle=no_battle,
        max_move=max_move, enter=enter, attacker_less=attacker_less, defender_less=defender_less,
        adjacent_only=adjacent_only, collapse=collapse, collapse_totals=totals,
        f_blocks=np.array([r.blocks for r in rows], np.bool_), f_stop=np.array([r.stop for r in rows], np.bool_),
        f_enter=np.array([ENTER_CODE[r.enter] for r in rows], np.int8),
        f_vehicle_cost=np.array([r.vehicle_move_cost for r in rows], np.int8),
        f_attacker=np.array([[getattr(r.attacker, c) for c in CLASSES] for r in rows], np.int8),
        f_defender=np.array([[getattr(r.defender, c) for c in CLASSES] for r in rows], np.int8),
        f_ignore_flags=np.array([r.ignore_flags for r in rows], np.int8),
        f_no_artillery_retreat=np.array([r.no_artillery_retreat for r in rows], np.bool_),
        f_buildings=np.array([r.buildings for r in rows], np.bool_),
        toward_home=_toward_home(grid), sight_a=sight_a, sight_b=sight_b,
        piece_side=np.array([sides.index(p[0]) for p in pieces], dtype=np.int8), piece_card=piece_card,
        piece_colour=np.array([COLOURS.index(p[2]) if p[2] else -1 for p in pieces], dtype=np.int8),
        piece_hex=np.array([grid.index(int(p[3])) for p in pieces], dtype=np.int16),
        piece_figures=piece_figures, piece_names=tuple(names), units=units,
        card_action=np.array(actions, dtype=np.int8), card_colour=np.array(colours, dtype=np.int8),
        card_order=np.array(orders, dtype=np.int8), card_names=tuple(card_names),
        af_kind=np.array(one_side * 2, dtype=np.int8), as_planes=as_planes, air_force_pick=pick,
        air_support_quota=quota,
        objective_hex=np.array([grid.index(int(o.hex)) for o in data.map.objectives], dtype=np.int16),
        objective_points=np.array([o.points for o in data.map.objectives], dtype=np.int8),
        objective_for=np.array([BOTH if o.for_ == "both" else sides.index(o.for_) for o in data.map.objectives],
                               dtype=np.int8),
        objective_names=tuple(o.name for o in data.map.objectives),
    )
    _frozen(*(v for v in vars(out).values() if isinstance(v, np.ndarray)))
    return out


@lru_cache(maxsize=16)
def _load_shipped(name: str) -> Scenario:
    path, data = load_scenario_file(name)
    return compile_scenario(path, data)


def load_scenario(name: str) -> Scenario:
    """A shipped scenario (``SCENARIOS``) or a scenario file of one's own by path."""
    if name in SCENARIOS:
        return _load_shipped(name)
    path, data = load_scenario_file(name)
    return compile_scenario(path, data)


def list_scenarios() -> list[str]:
    return list(SCENARIOS)
