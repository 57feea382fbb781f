"""Peleliu state: B games as numpy arrays with a leading batch axis, and the static tables.

Per game (NU U.S. units "U", NJ Japanese units "J", ND depth markers "D", P positions "P", H hexes,
NC cards "C"), besides the fields every game has (wargym.core.BaseState)::

    us_loc/us_hex     where each U.S. unit is: US_TRACK (turn track), US_BOX (us_hex = box 0-4),
                      US_MAP (us_hex = hex), US_ELIM, US_OUT (not in the scenario)          5.0
    us_steps, us_dis  steps left; 0 / DIS_OLD disrupted before this Action Phase / DIS_NEW in it   7.6
    us_acted          performed its one action this Action Phase                               7.2
    us_track          turn-track space a unit waits on (an HQ hit by fire: two turns on, 10.4)
    hero              0 / HERO / INSPIRED marker on the unit                                   10.1
    cp                command post range box on the command track, -1 not a CP             14.0
    us_fired          lost a step to Japanese fire this Fire Phase                         6.34
    tie_*             a "you choose" tie inside the Japanese Fire Phase left to the player; tie_ok
                      while the phase may leave one.  Of fire (P_HIT_PICK, ties.defer_tie):
                      the tied units, each one's effect, the hits still to give  6.31, 6.5, 12.7,
                      12.11, 12.91.  Of an assault (P_ASSAULT_PICK, japanese.defer_assault): the
                      hex it starts from, the tied hexes, the close combat's colour, which move
                      (12.8 into the field or toward the U.S., 13.2 [R] a tank's overrun)
                      Of the counterattack's set-up (P_CA_PICK): the tied units' hexes and the
                      places left (ca_left)                                               13.41
    fire_hit          hit by the last fire group's fire (japanese.group_fire)           13.2 [R]
    us_cmd            in command at the start of the Action Phase                          7.1
    us_cmd_by         of which HQs (a bit per HQ's unit number: regimental HQs and CPs in
                      range, infantry/HQs in the hex)                                 7.1, 10.3, 14.3
    hq_moved          the HQs moved this Action Phase (a bit per unit number)              7.34
    us_from           hex a unit entered a close combat from                                8.62
    jp_loc/jp_hex     JP_RESERVE, JP_MAP, JP_ELIM (eliminated elite box), JP_OUT            9.0
    jp_rev, jp_dis    revealed; disrupted                                                  9.1, 6.4
    jp_depth          its depth marker, -1; jp_ca its counterattack marker, -1             2.24, 13.4
    jp_from           position hex a Japanese unit assaulted from, -1                       12.83
    dm_loc, dm_rev    depth markers: DM_POOL, DM_UNIT, DM_OUT, DM_CUP; revealed            9.2
    dm_hex            the hex of the unit a marker lies under (what tells face-down markers apart)
    art_gone          an Artillery Destroyed marker in the position                        6.51
    garrison          a U.S. garrison marker in the position                               14.4
    fort              a fortification marker (coral, event) in the position                 events
    comm              Japanese communication of each position this Fire Phase             11.22
    card_pile/pos     the 54 cards: PILE_DECK, PILE_DISCARD, PILE_TRACK, PILE_CC_US, PILE_CC_JP 4.0, 8.6
    fire_card, event_card   the cards drawn this turn, -1
    letter_order      20.1: the action letter revealed on turns 3, 5, 7, 9, 11 (hidden)
    naval, dauntless  markers held                                                         8.5
    heroes_placed     hero markers that have entered play                                  10.17
    ca_done           the Counterattack event has occurred                                 13.48
    smoke             colours whose dots in landing beach hexes are disregarded this turn  events
    cp_fire           the command post whose range is one this turn (US CP under fire), -1
    loss_box          infantry counters in the Infantry Loss Box                           15.1
    jq, jq_n, jq_i    the Japanese Fire Phase's queue of fire groups (or CA units) to check 12.0, 13.42
    actions_left      the two actions of a turn                                            7.0
    cancels           declarations taken back with NO this Action Phase (MAX_CANCELS; README)
    sel, order, target, att_*   the U.S. action being declared                              7.x, 8.x
                      (sel = SEL_HQ_AHEAD: the HQ phase is still to begin after the second event)
    cc_*              the close combat being resolved                                       8.6
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from wargym.core import BaseState
from wargym.jit import njit
from wargym.kernel import KernelStruct
from wargym.peleliu.scenario import MAX_TURNS, US_TYPES, Scenario
from wargym.schema import var

US_OUT, US_TRACK, US_BOX, US_MAP, US_ELIM = range(5)
US_LOC_NAMES = ("not in play", "turn track", "landing box", "map", "eliminated")
JP_OUT, JP_RESERVE, JP_MAP, JP_ELIM = range(4)
JP_LOC_NAMES = ("out of play", "reserve box", "map", "eliminated elite box")
DM_OUT, DM_POOL, DM_UNIT, DM_CUP = range(4)
PILE_DECK, PILE_DISCARD, PILE_TRACK, PILE_CC_US, PILE_CC_JP = range(5)
N_PILES = 5
DIS_NONE, DIS_OLD, DIS_NEW = range(3)
HERO, INSPIRED = 1, 2
QMAX = 96
MAX_CANCELS = 8  # declarations taken back (NO) in one Action Phase before the rest must be carried out
# ``sel`` while the second event's decisions run (ST_HQ, which they share ``k`` with): the HQ phase's
# first step (14.0 V, 18.2 IV) is still to come; sequence.progress starts it when the event is done
SEL_HQ_AHEAD = -2
BNR_HEROES = 4   # 18.1: two hero markers on units at the start, two aside for possible entry
MORNING, MIDDAY, AFTERNOON, NIGHT = range(4)  # scenario.BNR_KINDS

# decision phases
(P_BOX, P_LAND, P_DRIFT, P_ACT_SELECT, P_ACT_ORDER, P_MOVE_DEST, P_STACK_JOIN, P_INFIL, P_TARGET, P_ATTACK_JOIN,
 P_ATTRITION, P_CC_LOSS, P_CC_WITHDRAW, P_STACK_ELIM, P_HQ_CP, P_HERO_PLACE, P_STEP_ADD, P_REVEAL_PICK, P_HERO_BONUS,
 P_SETUP, P_GARRISON, P_UNDISRUPT, P_WITHDRAW, P_FORT_ROTATE, P_FLAME, P_CP_RANGE, P_CC_RETREAT, P_HIT_PICK,
 P_ASSAULT_PICK, P_CA_PICK, P_AUTO, P_OVER) = range(32)
PHASE_NAMES = (
    "amphibious: landing box", "amphibious: land in beach hex", "amphibious: drifting unit", "actions: select unit",
    "actions: order", "move: destination", "stack: second unit", "infiltration: complete the move",
    "target hex", "attack: add unit or resolve", "attack: optional attrition", "close combat: step loss",
    "close combat: withdraw", "stacking: eliminate unit", "HQ phase: command post", "hero: unit",
    "event: unit gaining a step", "event: Japanese unit to reveal",
    "attack: hero's wild card (yes) or +1 strength (no)", "set-up / relief: hex for the unit",
    "garrison: position hex", "HQ phase: hex whose units lose their disruption", "night: battalion to withdraw",
    "fortification: rotate clockwise (yes) or counterclockwise (no)", "close combat: spend the flamethrower",
    "HQ phase: advance the command post's range", "close combat: hex the withdrawing units go to",
    "Japanese fire: tied U.S. unit to take the hit", "Japanese assault: tied hex the unit goes to",
    "counterattack: tied Japanese unit (its hex) to enter the stance", "(automatic)", "game over",
)
RESULTS = ("in play", "U.S. victory", "U.S. defeat", "decisive U.S. defeat", "draw")
R_NONE, R_WIN, R_LOSS, R_DECISIVE, R_DRAW = range(5)
# what the game is doing between decisions (stage)
(ST_AOP_CHECK, ST_AOP_LAND, ST_AOP_BOXES, ST_EVENT1, ST_FIRE, ST_FIRE_START, ST_EVENT2, ST_HQ, ST_ACTIONS,
 ST_CC, ST_STACKING, ST_END_TURN, ST_BNR_SETUP, ST_RELIEF) = range(14)
STAGE_NAMES = ("landing checks", "landing", "landing boxes", "first event", "Japanese fire", "fire card",
               "second event", "HQ phase", "U.S. actions", "close combat", "stacking", "end of turn",
               "BNR set-up", "night: withdrawal and relief")
# orders (7.0)
O_MOVE, O_ATTACK, O_BARRAGE, O_ENTER, O_NAVAL, O_DAUNTLESS = range(6)
# close combat kinds (8.6)
CC_US_INIT, CC_JP_ASSAULT, CC_CA, CC_OVERRUN = range(4)

NONE = {"init": -1, "low": -1}


@dataclass(frozen=True)
class State(BaseState):
    decisions: np.ndarray = var("int32", low=0, high="DECISIONS", grows=True)
    stage: np.ndarray = var("int8", low=0, high=ST_RELIEF)
    us_loc: np.ndarray = var("int8", ("U",), low=US_OUT, high=US_ELIM)
    us_hex: np.ndarray = var("int16", ("U",), high="H-1", **NONE)
    us_steps: np.ndarray = var("int8", ("U",), low=0, high=4)
    us_dis: np.ndarray = var("int8", ("U",), low=0, high=DIS_NEW)
    us_acted: np.ndarray = var("bool", ("U",))
    us_track: np.ndarray = var("int8", ("U",), high=MAX_TURNS + 1, **NONE)
    hero: np.ndarray = var("int8", ("U",), low=0, high=INSPIRED)
    cp: np.ndarray = var("int8", ("U",), high="CMD-1", **NONE)
    us_fired: np.ndarray = var("bool", ("U",))
    tie_units: np.ndarray = var("bool", ("U",))
    tie_eff: np.ndarray = var("int8", ("U",), low=0, high=64)
    tie_left: np.ndarray = var("int8", low=0, high="U")  # 6.31: fewer hits than tied units
    tie_nodis: np.ndarray = var("bool")
    tie_ok: np.ndarray = var("bool")
    tie_from: np.ndarray = var("int16", high="H-1", **NONE)
    tie_hexes: np.ndarray = var("bool", ("H",))
    tie_colour: np.ndarray = var("int8", low=0, high=5)
    tie_kind: np.ndarray = var("int8", low=0, high=2)
    fire_hit: np.ndarray = var("bool", ("U",))
    ca_left: np.ndarray = var("int8", low=0, high=4)
    us_cmd: np.ndarray = var("bool", ("U",))
    hq_moved: np.ndarray = var("int64", low=0, high="HQ_SET")              # 7.34: a bit per HQ's unit number
    us_cmd_by: np.ndarray = var("int64", ("U",), low=0, high="HQ_SET")     # 7.1: a bit per commanding HQ
    us_from: np.ndarray = var("int16", ("U",), high="H-1", **NONE)
    us_start: np.ndarray = var("int16", ("U",), high="H-1", **NONE)
    us_auf: np.ndarray = var("bool", ("U",))        # BNR Action Under Fire marker (18.34)
    result: np.ndarray = var("int8", low=0, high=4)
    loss_box: np.ndarray = var("int16", low=0, high="LOSSES")  # 15.1, 18.41: the infantry counters there are
    jp_loc: np.ndarray = var("int8", ("J",), low=JP_OUT, high=JP_ELIM)
    jp_hex: np.ndarray = var("int16", ("J",), high="H-1", **NONE)
    jp_rev: np.ndarray = var("bool", ("J",))
    jp_dis: np.ndarray = var("bool", ("J",))
    jp_depth: np.ndarray = var("int16", ("J",), high="D-1", **NONE)
    jp_ca: np.ndarray = var("int16", ("J",), high="D-1", **NONE)
    jp_from: np.ndarray = var("int16", ("J",), high="H-1", **NONE)
    jp_acted: np.ndarray = var("bool", ("J",))
    jp_attacked: np.ndarray = var("bool", ("J",))   # attacked this Action Phase (8.31, 8.43)
    jp_barraged: np.ndarray = var("bool", ("J",))   # barraged this Action Phase (8.43)
    jp_rot: np.ndarray = var("int8", ("J",), low=0, high=5)  # a fortification's rotation, 60 deg clockwise steps
    dm_loc: np.ndarray = var("int8", ("D",), low=DM_OUT, high=DM_CUP)
    dm_rev: np.ndarray = var("bool", ("D",))
    dm_hex: np.ndarray = var("int16", ("D",), high="H-1", **NONE)
    art_gone: np.ndarray = var("bool", ("POS",))
    garrison: np.ndarray = var("bool", ("POS",))
    fort: np.ndarray = var("bool", ("POS",))
    comm: np.ndarray = var("bool", ("POS",))
    card_pile: np.ndarray = var("int8", ("C",), low=0, high=N_PILES - 1)
    card_pos: np.ndarray = var("int16", ("C",), low=0, high="C-1")
    fire_card: np.ndarray = var("int16", high="C-1", **NONE)
    letter_order: np.ndarray = var("int8", (5,), init=lambda core: np.arange(1, 6, dtype=np.int8), low=1, high=5)
    naval: np.ndarray = var("int8", low=0, high="NAVAL")            # 8.54: the markers of the counter mix
    dauntless: np.ndarray = var("int8", low=0, high="DAUNTLESS")
    heroes_placed: np.ndarray = var("int8", low=0, high="HEROES", grows=True)   # 10.17, 18.1
    ca_done: np.ndarray = var("bool", grows=True)   # 13.48: the Counterattack event occurs once
    smoke: np.ndarray = var("bool", (6,))
    cp_fire: np.ndarray = var("int16", high="U-1", **NONE)
    jq: np.ndarray = var("int16", (QMAX,), high="JQ-1", **NONE)
    jq_n: np.ndarray = var("int16", low=0, high=QMAX)
    jq_i: np.ndarray = var("int16", low=0, high=QMAX)
    jq_pass: np.ndarray = var("int8", low=0, high=1)  # 16.0: the night's second Fire Phase
    k: np.ndarray = var("int16", high="H-1", **NONE)
    actions_left: np.ndarray = var("int8", low=0, high=2)
    cancels: np.ndarray = var("int16", low=0, high=MAX_CANCELS)
    sel: np.ndarray = var("int16", init=-1, low=SEL_HQ_AHEAD, high="U-1")
    order: np.ndarray = var("int8", high=O_DAUNTLESS, **NONE)
    target: np.ndarray = var("int16", high="H-1", **NONE)
    att_units: np.ndarray = var("bool", ("U",))
    att_marker: np.ndarray = var("int8", **NONE, high=1)
    att_hero: np.ndarray = var("int8", **NONE, high=10)
    pending: np.ndarray = var("bool", ("U",))
    cc_hex: np.ndarray = var("int16", high="H-1", **NONE)
    cc_jp: np.ndarray = var("int16", high="J-1", **NONE)
    cc_units: np.ndarray = var("bool", ("U",))
    cc_kind: np.ndarray = var("int8", low=0, high=CC_OVERRUN)
    cc_colour: np.ndarray = var("int8", low=0, high=5)
    cc_next: np.ndarray = var("int8", low=0, high=1)
    cc_withdraw: np.ndarray = var("int8", low=0, high=3)
    cc_to: np.ndarray = var("int16", high="H-1", **NONE)   # 8.63: the hex the withdrawing units chose
    cc_tr: np.ndarray = var("int8", low=0, high="D")  # 9.4: tactical reinforcements due after the combat
    cc_hits: np.ndarray = var("int8", low=0, high=2)  # 8.6: a card's hit and a Withdrawal hit, taken before the next card
    # Bloody Nose Ridge (18.0)
    rupertus: np.ndarray = var("bool")               # General Rupertus in command (18.32)
    att_order: np.ndarray = var("bool", ("POS",))    # Attack Orders markers (event)
    flame: np.ndarray = var("bool")                  # the flamethrower CC marker held (event)
    bonus: np.ndarray = var("int8", low=0, high=3)   # 18.22: bonus naval (1) / Dauntless (2) barrage spent
    cave_hex: np.ndarray = var("int16", (2,), high="H-1", **NONE)   # the two cave markers (event)
    cave_colour: np.ndarray = var("int8", (2,), high=5, **NONE)     # a cave's counterattack marker colour


Tables = namedtuple("Tables", [
    "nbr", "dist", "terrain", "land", "in_play", "road", "cliff", "elevation", "box_beach", "box_amtank", "beach_box",
    "mortar_zone", "jp_zone", "pos_hex", "pos_colour", "pos_zone", "pos_num", "pos_group", "pos_setup", "pos_art",
    "pos_armor", "pos_mtop", "pos_prov", "pos_fort", "pos_beachfire", "hex_pos", "grp_members", "grp_colour",
    "grp_dot", "grp_ext", "grp_hexes", "grp_nhex", "grp_ext_hexes", "grp_next", "grp_box", "west_order", "us_type", "us_regiment", "us_battalion", "us_steps0", "us_strength",
    "us_range", "us_symbol", "us_printed", "us_armored", "us_arrival", "us_beach", "us_bnr", "us_bnr_hex",
    "jp_elite", "jp_tank", "jp_fort", "jp_blocked", "jp_strength", "jp_requires", "jp_colour", "dm_kind", "dm_strength", "dm_requires",
    "dm_tr", "dm_colour", "card_land_colour", "card_land_symbol", "card_drift", "card_colour", "card_letter",
    "card_star", "card_armor", "card_symbol", "card_artillery", "card_cc", "card_event", "card_param", "fire_chart",
    "weapons_adj", "weapons_rng", "bands", "marker_weapons", "attack_chart", "barrage_columns", "barrage_table",
    "t_defense", "t_stop", "t_no_entry", "t_comm", "t_barrage_left", "t_cc_card", "catastrophic", "letter_turn",
    "command_track", "action_chart", "bnr_kind", "setup_std", "setup_alt", "depth_start", "opts", "max_decisions",
])

# Tables.opts
(OPT_MAJOR, OPT_LAST_TURN, OPT_ASSAULT, OPT_BNR, OPT_VARIABLE_LETTERS, OPT_ALT_ARMOR, OPT_MARKER_STRENGTH,
 OPT_NAVAL_MAX, OPT_DAUNTLESS_MAX, OPT_HEROES_MAX, OPT_MAX_DECISIONS, OPT_BNR_CATASTROPHIC, N_OPTS) = range(13)

StateArg, StateArgType = KernelStruct.define("StateArg", State, __name__)
TablesArg, TablesArgType = KernelStruct.define("TablesArg", Tables._fields, __name__)


@njit(cache=True)
def build_state_arg(*fields):
    return StateArg(*fields)


@njit(cache=True)
def build_tables_arg(*fields):
    return TablesArg(*fields)


StateArg.build, TablesArg.build = build_state_arg, build_tables_arg


def sparse(flags: np.ndarray) -> np.ndarray:
    """int16[F, k]: the hexes flagged in each row, padded with -1."""
    width = max(1, int(flags.sum(1).max()) if flags.size else 1)
    out = np.full((flags.shape[0], width), -1, np.int16)
    for f in range(flags.shape[0]):
        hx = np.nonzero(flags[f])[0]
        out[f, :len(hx)] = hx
    return out


def tank_extension(sc: Scenario) -> np.ndarray:
    """bool[F, H]: 13.1, the hexes outside a field of fire but adjacent to one of its hexes."""
    nbr = sc.grid.neighbours
    field = sc.grp_dot > 0
    out = np.zeros_like(field)
    for d in range(6):
        ok = nbr[:, d] >= 0
        out[:, ok] |= field[:, nbr[ok, d]]
    out &= ~field
    out[:, ~sc.land] = False
    for f in range(field.shape[0]):
        for m in sc.grp_members[f]:
            if m >= 0:
                out[f, sc.pos_hex[m]] = False
    return out


def make_tables(sc: Scenario, major: bool, variable_letters: bool, alt_armor: bool, max_decisions: int) -> Tables:
    opts = np.zeros(N_OPTS, dtype=np.int64)
    opts[OPT_MAJOR] = major
    opts[OPT_LAST_TURN] = sc.spec.last_turn
    opts[OPT_ASSAULT] = sc.spec.victory == "assault"
    opts[OPT_BNR] = sc.spec.kind == "bnr"
    opts[OPT_VARIABLE_LETTERS] = variable_letters
    opts[OPT_ALT_ARMOR] = alt_armor
    opts[OPT_MARKER_STRENGTH] = sc.marker_strength
    opts[OPT_NAVAL_MAX] = sc.naval_max
    opts[OPT_DAUNTLESS_MAX] = sc.dauntless_max
    opts[OPT_HEROES_MAX] = len(sc.hero_names) if sc.spec.kind != "bnr" else BNR_HEROES
    opts[OPT_BNR_CATASTROPHIC] = sc.bnr_catastrophic
    opts[OPT_MAX_DECISIONS] = max_decisions
    # 12.0: "within a position colour, check all position hexes in order from west to east"
    col = np.array([sc.grid.number(int(h)) // 100 for h in sc.pos_hex])
    row = np.array([sc.grid.number(int(h)) % 100 for h in sc.pos_hex])
    west_order = np.lexsort((row, col)).astype(np.int16)
    return Tables(
        nbr=sc.grid.neighbours.astype(np.int16), dist=sc.grid.distance.astype(np.int16), terrain=sc.terrain,
        land=sc.land, in_play=sc.in_play, road=sc.road, cliff=sc.cliff, elevation=sc.elevation,
        box_beach=sc.box_beach, box_amtank=sc.box_amtank, beach_box=sc.beach_box, mortar_zone=sc.mortar_zone,
        jp_zone=sc.jp_zone, pos_hex=sc.pos_hex, pos_colour=sc.pos_colour, pos_zone=sc.pos_zone, pos_num=sc.pos_num,
        pos_group=sc.pos_group, pos_setup=sc.pos_setup, pos_art=sc.pos_art, pos_armor=sc.pos_armor,
        pos_mtop=sc.pos_mtop, pos_prov=sc.pos_prov, pos_fort=sc.pos_fort, pos_beachfire=sc.pos_beachfire,
        hex_pos=sc.hex_pos, grp_members=sc.grp_members, grp_colour=sc.grp_colour, grp_dot=sc.grp_dot,
        grp_ext=tank_extension(sc), grp_hexes=sparse(sc.grp_dot > 0), grp_nhex=(sc.grp_dot > 0).sum(1).astype(np.int16),
        grp_ext_hexes=sparse(tank_extension(sc)), grp_next=tank_extension(sc).sum(1).astype(np.int16),
        grp_box=sc.grp_box, west_order=west_order, us_type=sc.us_type, us_regiment=sc.us_regiment,
        us_battalion=sc.us_battalion, us_steps0=sc.us_steps, us_strength=sc.us_strength, us_range=sc.us_range,
        us_symbol=sc.us_symbol, us_printed=sc.us_printed, us_armored=sc.us_armored, us_arrival=sc.us_arrival,
        us_beach=sc.us_beach, us_bnr=sc.us_bnr, us_bnr_hex=sc.us_bnr_hex, jp_elite=sc.jp_elite, jp_tank=sc.jp_tank,
        jp_fort=sc.jp_fort, jp_blocked=sc.jp_blocked,
        jp_strength=sc.jp_strength, jp_requires=sc.jp_requires, jp_colour=sc.jp_colour, dm_kind=sc.dm_kind,
        dm_strength=sc.dm_strength, dm_requires=sc.dm_requires, dm_tr=sc.dm_tr, dm_colour=sc.dm_colour,
        card_land_colour=sc.card_land_colour, card_land_symbol=sc.card_land_symbol, card_drift=sc.card_drift,
        card_colour=sc.card_colour, card_letter=sc.card_letter, card_star=sc.card_star, card_armor=sc.card_armor,
        card_symbol=sc.card_symbol, card_artillery=sc.card_artillery, card_cc=sc.card_cc,
        card_event=sc.card_event, card_param=sc.card_param, fire_chart=sc.fire_chart, weapons_adj=sc.weapons_adj,
        weapons_rng=sc.weapons_rng, bands=sc.bands, marker_weapons=sc.marker_weapons,
        attack_chart=sc.attack_chart, barrage_columns=sc.barrage_columns, barrage_table=sc.barrage_table,
        t_defense=sc.t_defense, t_stop=sc.t_stop, t_no_entry=sc.t_no_entry, t_comm=sc.t_comm,
        t_barrage_left=sc.t_barrage_left, t_cc_card=sc.t_cc_card, catastrophic=sc.catastrophic,
        letter_turn=sc.letter_turn, command_track=sc.command_track, action_chart=sc.action_chart, bnr_kind=sc.bnr_kind,
        setup_std=sc.pos_setup.copy(),
        setup_alt=alt_setup(sc), depth_start=_ids(sc, ("B1", "B4", "B5")), opts=opts,
        max_decisions=np.int64(max_decisions),
    )


def _ids(sc: Scenario, ids) -> np.ndarray:
    out = np.zeros(len(sc.pos_id), np.bool_)
    for pid in ids:
        if pid in sc.pos_id:
            out[sc.pos_id.index(pid)] = True
    return out


def alt_setup(sc: Scenario) -> np.ndarray:
    """20.2: the set-up positions with the alternate armor deployment: the three units of the light
    armor set-up positions go to B14, B15 and C3."""
    out = sc.pos_setup & (sc.pos_armor != 2)
    out |= _ids(sc, ("B14", "B15", "C3"))
    return out


assert len(US_TYPES) == 8
