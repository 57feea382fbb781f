"""Attu state: B games as numpy arrays with a leading batch axis, and the static tables.

``State`` is a frozen dataclass whose fields declare their dtype, shape, start and range
(wargym.schema); the kernels take it and the ``Scenario``'s lookup tables (``Tables``) as structs
(``StateArg``, ``TablesArg``: wargym.kernel).  Per game (U units, H hexes), besides the fields
every game has (wargym.core.BaseState)::

    weather           int8      CLOUDY / RAIN / FOG / WILLIWAW                          3.3
    night, refit      bool      this turn is a Night Turn / a Refit Turn               3.1, 3.2
    first             int8      first player of the turn (0 US by day, 1 Japan at night) 3.2
    acting            int8      side whose Player Actions step runs                    3.5, 3.6
    act_step          int8      0 = Step 5 (first player), 1 = Step 6                  3.5, 3.6
    airpower          int8[2]   factors left this turn                                 3.4
    air_target        int16[6]  hexes of the announced Airpower attacks, air_n of them  8.1.6
    air_struck        bool      the acting player has made his Airpower attacks        8.1.6
    unit_hex          int16[U]  hex on the map (or staging zone 0-8 while LOC_STAGING), -1
    unit_loc          int8[U]   LOC_* below
    unit_steps        int8[U]   steps left                                             2.4
    face_down         bool[U]   Japanese unit unrevealed                               2.5
    acted             bool[U]   has taken its action this Player Actions step          3.5
    melee_target      int16[U]  hex it declared Melee against, -1                      8.2
    fought            bool[U]   took part in a Melee this Melee step                   8.2
    captured          bool[U]   U.S. artillery captured by the Japanese                8.2.1.4
    land_order        int16[U]  order of landing in this Refit Turn (9.2.1), -1
    casualties        int16     U.S. Casualty Track                                    8.4
    jp_removed        int16     Japanese counters taken off the map, eliminated or     2.5, 8.5
                                melted away alike (what the U.S. sees of their losses)
    zone_cleared      bool[6]   Zone Cleared markers                                   10.0
    heroes_used       bool[3]   HERO_MARTINEZ, HERO_ARNOLD, HERO_YAMASAKI              11.0
    secured           bool[2]   15.3: Jarmin Pass (north) / Engineer Hill (south) captured
    ke_effect, ke_delay  int8   Komandorski chits (hidden from the U.S. until revealed) 12.1
    ke_revealed       int8      0 hidden, 1 effect revealed, 2 delay revealed too
    last_turn         int16     last turn of the game once known (-1 while hidden)
    vp_value, vp_cancel int8[6] victory point chits per Victory Hex (14.0), -9 none
    selected, sel_hex int16     unit / hex of the decision in progress
    loss_*                      hits waiting for their owner's allocation (8.0, 8.2.1)
    mel_*                       the Melee being resolved (8.2.1)
    refit_steps       int8      refit steps left to place                              9.1
    soft_unit/hits            a 105mm battery's Soft Ground losses after its attack  8.1.5
    air_i             int8      next announced Airpower attack to resolve              8.1.6
    pre_steps         int8[U]   steps of each Melee defender when the Melee began      8.2.1.4
    ret_left          bool[U]   U.S. units still to retreat                            8.2.1.3
    slot_for          int8      the phase a SLOT decision picks a unit for
    mel_from          int16[6]  hexes the Melee's attackers came from                  8.2
    mel_hits          int8      hits of the fire just rolled, before Joe Martinez      11.1
    setup_k           int16     progress through a set-up list                         12.x
    last_dice, last_n         the dice of the last roll, for the record                8.0
    yama_unit, yama_mp        Colonel Yamasaki's group and its Movement Points left    11.3
    mel_kind          int8      MEL_NORMAL, MEL_YAMASAKI (attackers roll first, 11.3.2), MEL_AMBUSH (13.3)
    pinned            bool[U]   13.2.1: an Unknown that may not move (solitaire)
    ad_hoc            bool[U]   13.2.2: Infantry placed ad hoc, firing on the nearest U.S. unit until
                                engaged in Melee (solitaire)
    us_knows          bool[U]   the U.S. knows which Japanese counter this is: seen face   2.5, 9.5
                                up on the map (or a gun from its set-up, 12.3/12.4/13.2.1)
                                and followed since, on the map (face down again, 3.9, 9.5)
                                or into the eliminated pile (8.5); forgotten in the cup
                                (README "What the U.S. remembers"; fog.note_seen)
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from wargym.core import BaseState
from wargym.attu.scenario import SECURED_ZONES, TURN_0_DATE, WEATHERS, Scenario
from wargym.jit import njit
from wargym.kernel import KernelStruct
from wargym.schema import var

LOC_NONE, LOC_MAP, LOC_ELIM, LOC_RESERVE, LOC_STAGING, LOC_ASIDE, LOC_OUT = range(7)
LOC_NAMES = ("not yet placed", "map", "eliminated", "off map", "staging", "set aside", "out of the game")
MAX_AIR = 6
LAST_DICE = 24     # dice of one roll kept for the record (the most one attack rolls)
ZONES = 6          # victory zones (10.0)
HEROES = 3         # 11.0, heroes_used slots:
HERO_MARTINEZ, HERO_ARNOLD, HERO_YAMASAKI = range(HEROES)   # 11.1, 11.2, 11.3
NO_CHIT = -9       # vp_value / vp_cancel of a hex without a chit (14.0)
MAX_MELEE_ROUNDS = 60  # rounds after which a Melee stops (melee.py; 8.2.1 sets no limit: a guard)

# decision phases
(JP_SETUP, US_STAGING, US_WAIT, REFIT_DECISION, REFIT_ALLOC, REINF_PICK, REINF_ZONE, INDEPENDENT, DEPOT,
 UNKNOWN_PICK, UNKNOWN_DEST, SWAP_PICK, SWAP_PLACE, NIGHT_DECISION, ACT_SELECT, SLOT, ACT_ORDER, RANGED_TARGET,
 AIR_TARGET, LOSS, FRIENDLY_FIRE, MELEE_PICK, ARNOLD, MARTINEZ, RETREAT_OPTION, RETREAT, ADVANCE, OVER, YAMA_SELECT, YAMA_MOVE) = range(30)
PHASE_NAMES = (
    "set-up: Japanese placement", "set-up: U.S. staging", "set-up: land or wait", "refit decision",
    "refit: restore a step", "reinforcements: select battalion", "reinforcements: staging zone",
    "create independent units", "create supply depots", "unknowns: select", "unknowns: destination",
    "unknowns: swap infantry", "unknowns: place", "night decision", "actions: select", "select unit",
    "actions: order", "ranged: target unit", "airpower: target hex", "allocate losses", "friendly fire: hex",
    "melee: select target", "General Arnold", "Joe Martinez", "retreat option", "retreat", "advance", "game over",
    "Colonel Yamasaki: select hex", "Colonel Yamasaki: move or assault",
)

# melee stages (mel_stage)
MEL_DEFENSIVE, MEL_OFFENSIVE, MEL_ROUND_END, MEL_OPTION, MEL_RETREATED = range(5)
# melee kinds (mel_kind)
MEL_NORMAL, MEL_YAMASAKI, MEL_AMBUSH = range(3)
# loss kinds (loss_kind)
LOSS_RANGED, LOSS_MELEE_ON_ATTACKER, LOSS_MELEE_ON_DEFENDER, LOSS_SOFT_GROUND = range(4)
LOSS_EXCESS = 5    # defensive hits past the attackers, on the other units of their hexes (8.2.1.1)


NONE = {"init": -1, "low": -1}  # a unit or hex number, -1 for none


@dataclass(frozen=True)
class State(BaseState):
    decisions: np.ndarray = var("int32", low=0, high="DECISIONS", grows=True)
    weather: np.ndarray = var("int8", low=0, high=len(WEATHERS) - 1)
    night: np.ndarray = var("bool")
    refit: np.ndarray = var("bool")
    first: np.ndarray = var("int8", low=0, high=1)
    acting: np.ndarray = var("int8", low=0, high=1)
    act_step: np.ndarray = var("int8", low=0, high=1)
    airpower: np.ndarray = var("int8", (2,), low=0, high="AIR")  # 3.4: the Airpower Table's most
    air_target: np.ndarray = var("int16", (MAX_AIR,), high="H-1", **NONE)
    air_n: np.ndarray = var("int8", low=0, high=MAX_AIR)
    air_struck: np.ndarray = var("bool")
    unit_hex: np.ndarray = var("int16", ("U",), high="H-1", **NONE)
    unit_loc: np.ndarray = var("int8", ("U",), low=LOC_NONE, high=LOC_OUT)
    unit_steps: np.ndarray = var("int8", ("U",), init=lambda core: core.scenario.unit_start_steps, low=0,
                                 high="STEPS")
    face_down: np.ndarray = var("bool", ("U",))
    acted: np.ndarray = var("bool", ("U",))
    melee_target: np.ndarray = var("int16", ("U",), high="H-1", **NONE)
    fought: np.ndarray = var("bool", ("U",))
    captured: np.ndarray = var("bool", ("U",))
    land_order: np.ndarray = var("int16", ("U",), **NONE)
    casualties: np.ndarray = var("int16", low=0, high="CASUALTIES")  # 8.4: the track's last box
    jp_removed: np.ndarray = var("int16", low=0, high="JP", grows=True)  # 2.5: the Japanese counters
    zone_cleared: np.ndarray = var("bool", (ZONES,))
    heroes_used: np.ndarray = var("bool", (HEROES,), grows=True)   # 11.0: each hero once a game
    secured: np.ndarray = var("bool", (len(SECURED_ZONES),), grows=True)  # 15.3: captured stays captured
    ke_effect: np.ndarray = var("int8", low=0)
    ke_delay: np.ndarray = var("int8", low=0)
    ke_revealed: np.ndarray = var("int8", low=0, high=2, grows=True)   # 12.1.3
    last_turn: np.ndarray = var("int16", high="TURNS", **NONE)
    vp_value: np.ndarray = var("int8", (ZONES,), init=NO_CHIT, low=NO_CHIT, high=3)
    vp_cancel: np.ndarray = var("int8", (ZONES,), init=NO_CHIT, low=NO_CHIT, high=0)
    selected: np.ndarray = var("int16", high="U-1", **NONE)
    sel_hex: np.ndarray = var("int16", high="H-1", **NONE)
    loss_hits: np.ndarray = var("int8", low=0)
    loss_side: np.ndarray = var("int8", low=0, high=1)
    loss_kind: np.ndarray = var("int8", low=0, high=LOSS_EXCESS)
    loss_pool: np.ndarray = var("bool", ("U",))
    loss_unknown_done: np.ndarray = var("bool")
    mel_hex: np.ndarray = var("int16", high="H-1", **NONE)
    mel_side: np.ndarray = var("int8", low=0, high=1)
    mel_att: np.ndarray = var("bool", ("U",))
    mel_stage: np.ndarray = var("int8", low=0, high=MEL_RETREATED)
    mel_round: np.ndarray = var("int8", low=0, high=MAX_MELEE_ROUNDS)
    mel_picker: np.ndarray = var("int8", low=0, high=1)
    mel_martinez: np.ndarray = var("int8", low=0)
    mel_arnold: np.ndarray = var("int16", high="U-1", **NONE)
    mel_surround: np.ndarray = var("int8", low=0)
    refit_steps: np.ndarray = var("int8", low=0)
    setup_k: np.ndarray = var("int16", low=0)
    land_count: np.ndarray = var("int16", low=0)
    swap_left: np.ndarray = var("int8", low=0)
    ff_hits: np.ndarray = var("int8", low=0)
    ff_side: np.ndarray = var("int8", low=0, high=1)
    ff_from: np.ndarray = var("int16", high="H-1", **NONE)
    soft_unit: np.ndarray = var("int16", high="U-1", **NONE)
    soft_hits: np.ndarray = var("int8", low=0)
    air_i: np.ndarray = var("int8", low=0, high=MAX_AIR)
    pre_steps: np.ndarray = var("int8", ("U",), low=0, high="STEPS")
    ret_left: np.ndarray = var("bool", ("U",))
    slot_for: np.ndarray = var("int8", low=0, high="PHASES-1")
    mel_from: np.ndarray = var("int16", (6,), high="H-1", **NONE)
    mel_hits: np.ndarray = var("int8", low=0)
    last_dice: np.ndarray = var("int8", (LAST_DICE,), low=0, high=10)
    last_n: np.ndarray = var("int8", low=0, high=LAST_DICE)
    yama_unit: np.ndarray = var("bool", ("U",))
    yama_mp: np.ndarray = var("int8", low=0)
    mel_kind: np.ndarray = var("int8", low=0, high=MEL_AMBUSH)
    pinned: np.ndarray = var("bool", ("U",))
    ad_hoc: np.ndarray = var("bool", ("U",))
    adhoc_done: np.ndarray = var("bool", (ZONES,), grows=True)     # 13.2.2: once a Victory Hex
    us_knows: np.ndarray = var("bool", ("U",))                     # 2.5: the U.S. remembers the counter


Tables = namedtuple("Tables", [
    "nbr", "dist", "near3", "land", "level", "zone", "slope", "cliff", "cost", "zoc_reach", "sight", "lz_hex", "lz_cap",
    "lz_of_hex", "near_lz", "victory_hex", "target_hex", "u_side", "u_type", "u_steps", "u_start", "u_melee",
    "u_ranged", "u_range", "u_move", "u_batt", "u_fixed", "u_table", "u_depot", "u_in_play", "u_staging",
    "u_force", "u_group", "u_gun", "gun_hexes", "indeps", "jp_unknown_hexes", "jp_art_hex", "weather_next", "first_weather", "air_table",
    "air_weather", "spotting", "mod_melee", "mod_ranged", "mod_air", "hit_on", "natural_hit", "friendly_fire_at",
    "soft_ground_at", "infiltration_fail", "infiltration_weather", "scatter", "scatter_weather", "rec_cols",
    "rec_rows", "rec_steps", "rec_weather", "casualty_max", "ke_turn", "effect_chits", "delay_chits",
    "vp_values", "vp_cancels", "zone_area", "force_zones", "opts", "max_decisions",
])

# modifier slots of Tables.mod_* (8.3), in this order
MOD_KEYS = ("attacking_higher_level", "attacking_up_slope", "out_of_supply", "williwaw", "fog", "rain", "night",
            "surround_5", "surround_6", "target_face_down")
(M_HIGHER, M_UPSLOPE, M_SUPPLY, M_WILLIWAW, M_FOG, M_RAIN, M_NIGHT, M_SURROUND5, M_SURROUND6, M_FACE_DOWN) = \
    range(len(MOD_KEYS))
# Tables.opts: scenario switches and modifiers
(OPT_MAJOR_ONLY, OPT_HEROES, OPT_VP_CHITS, OPT_SOLITAIRE, OPT_US_FREE, OPT_JP_FREE, OPT_KOMANDORSKI, OPT_END_DATE,
 OPT_AIR_MOD, OPT_REFIT_MOD, OPT_UNKNOWNS_SINGLE_USE, OPT_SUBSET, N_OPTS) = range(13)


# the kernels' arguments (wargym.kernel.KernelStruct: the names must stay as they are)
StateArg, StateArgType = KernelStruct.define("StateArg", State, __name__)
TablesArg, TablesArgType = KernelStruct.define("TablesArg", Tables._fields, __name__)


@njit(cache=True)
def build_state_arg(*fields):
    return StateArg(*fields)


@njit(cache=True)
def build_tables_arg(*fields):
    return TablesArg(*fields)


StateArg.build, TablesArg.build = build_state_arg, build_tables_arg  # cached constructors (wargym.kernel)


def as_arrays(state: State) -> StateArg:
    """The state as the kernels take it (writes go to the state's own arrays)."""
    return StateArg.of(state)


def near_table(distance: np.ndarray, radius: int) -> np.ndarray:
    """int16[H, k]: the hexes within ``radius`` of each hex (itself first), padded with -1."""
    width = 1 + 3 * radius * (radius + 1)
    out = np.full((distance.shape[0], width), -1, dtype=np.int16)
    for h in range(distance.shape[0]):
        near = np.nonzero(distance[h] <= radius)[0]
        near = near[np.argsort(distance[h, near], kind="stable")]
        out[h, :len(near)] = near
    return out


def make_tables(sc: Scenario, major_only: bool, vp_chits: bool, heroes: bool, solitaire: bool,
                max_decisions: int) -> Tables:
    spec = sc.spec
    opts = np.zeros(N_OPTS, dtype=np.int64)
    opts[OPT_MAJOR_ONLY] = major_only
    opts[OPT_HEROES] = heroes and spec.heroes
    opts[OPT_VP_CHITS] = vp_chits
    opts[OPT_SOLITAIRE] = solitaire
    opts[OPT_US_FREE] = spec.us_setup == "free"
    opts[OPT_JP_FREE] = spec.japan_setup == "free"
    opts[OPT_KOMANDORSKI] = spec.end == "komandorski"
    opts[OPT_END_DATE] = spec.end_date - TURN_0_DATE  # turn of the last date (12.2)
    opts[OPT_AIR_MOD] = spec.airpower_modifier
    opts[OPT_REFIT_MOD] = spec.refit_modifier
    opts[OPT_UNKNOWNS_SINGLE_USE] = spec.unknowns_single_use
    opts[OPT_SUBSET] = spec.us_setup == "historic_subset"
    zone_area = np.array([sc.zone[sc.victory_hex[z]] >= 0 for z in range(6)], dtype=np.bool_)
    # 15.3: the zones of each force's own area (north: Holtz Bay, Jarmin Pass; south: Engineer Hill)
    force_zones = np.zeros((2, 6), dtype=np.bool_)
    force_zones[0, [1, 2]] = True
    force_zones[1, [3]] = True
    mods = np.array([sc.mod[k] for k in MOD_KEYS], dtype=np.int64)
    return Tables(
        nbr=sc.grid.neighbours, dist=sc.grid.distance, near3=near_table(sc.grid.distance, 3), land=sc.land, level=sc.level, zone=sc.zone,
        slope=sc.slope, cliff=sc.cliff, cost=sc.move_cost, zoc_reach=sc.zoc_reach, sight=sc.sight,
        lz_hex=sc.lz_hex, lz_cap=sc.lz_capacity, lz_of_hex=sc.lz_of_hex, near_lz=sc.near_lz,
        victory_hex=sc.victory_hex, target_hex=sc.target_hex, u_side=sc.unit_side, u_type=sc.unit_type,
        u_steps=sc.unit_steps, u_start=sc.unit_start_steps, u_melee=sc.unit_melee, u_ranged=sc.unit_ranged,
        u_range=sc.unit_range, u_move=sc.unit_move, u_batt=sc.unit_battalion, u_fixed=sc.unit_fixed,
        u_table=sc.unit_table, u_depot=sc.unit_depot, u_in_play=sc.unit_in_play, u_staging=sc.unit_staging,
        u_force=sc.unit_force, u_group=sc.unit_group, u_gun=sc.unit_gun, gun_hexes=sc.gun_hexes, indeps=sc.independent_units, jp_unknown_hexes=sc.japan_historic_unknown_hexes,
        jp_art_hex=sc.japan_historic_artillery, weather_next=sc.weather_next,
        first_weather=np.int64(sc.first_weather_line), air_table=sc.airpower, air_weather=sc.airpower_weather,
        spotting=sc.spotting, mod_melee=mods[:, 0].copy(), mod_ranged=mods[:, 1].copy(), mod_air=mods[:, 2].copy(),
        hit_on=np.int64(sc.hit_on), natural_hit=np.int64(sc.natural_hit), friendly_fire_at=np.int64(sc.friendly_fire_at),
        soft_ground_at=np.int64(sc.soft_ground_at), infiltration_fail=np.int64(sc.infiltration_fail),
        infiltration_weather=sc.infiltration_weather,
        scatter=sc.scatter, scatter_weather=sc.scatter_weather, rec_cols=sc.recovery_columns,
        rec_rows=sc.recovery_rows, rec_steps=sc.recovery_steps, rec_weather=sc.recovery_weather,
        casualty_max=np.int64(sc.casualty_max), ke_turn=np.int64(sc.komandorski_turn),
        effect_chits=sc.effect_chits, delay_chits=sc.delay_chits, vp_values=sc.vp_value_chits,
        vp_cancels=sc.vp_cancel_chits, zone_area=zone_area, force_zones=force_zones, opts=opts,
        max_decisions=np.int64(max_decisions),
    )

