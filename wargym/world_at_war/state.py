"""World at War state: B games as numpy arrays with a leading batch axis, and the static tables.

Per game (U pieces "U": units, commanders and snipers; C command cards "C"; O objectives "O"; H
hexes), besides the fields every game has (wargym.core.BaseState; ``turn`` counts player turns)::

    active              int8      the side whose turn it is                           game turn
    decisions           int32     decisions taken (truncation guard)
    card                int16     the command card being played, -1                   1. play a card
    order_left          int8      orders the card still gives                         2. order units
    selected            int16     the piece moving or battling, -1                    3., 4.
    target              int16     the piece battled, -1                               4. battle
    target_hex          int16     its hex (a breakthrough enters it)
    bt_dice             int8[4]   the dice the battle casts, by colour (white, yellow, red, green)
    bt_vehicle          bool      the hits go on the target's vehicle (appendix 1)
    rt_piece            int16     the unit retreating, -1                             retreat
    rt_left             int8      hexes it must still retreat
    rt_voluntary        bool      a voluntary retreat (1 hex, flags ignored)
    second              bool      the battle being declared is a tank's breakthrough battle
    vp                  int16[2]  victory points scored by destroying units and commanders
    winner              int8      side that reached its quota, -1
    features            uint8[H]  obstacles on each hex (scenario.F_* bits): sandbags overrun, bunkers
                                  collapsed and minefields driven through change them   terrain sheet
    p_hex               int16[U]  hex of each piece, -1 once eliminated
    p_figures           int8[U]   figures left (0: eliminated)
    p_vehicles          int8[U]   vehicle figures left (motorized / mechanized infantry)
    p_mounted           bool[U]   in its vehicles
    p_ordered           bool[U]   given an order this turn                            2.
    p_moved             bool[U]   has moved this turn                                 3.
    p_battled           bool[U]   has battled this turn                               4.
    p_no_battle         bool[U]   may not battle this turn (entered a "stop & do not battle" hex,
                                  mounted or dismounted)                              terrain sheet
    p_defended          bool[U]   has thrown its defence die this turn                defence
    p_close             bool[U]   engaged in close combat on this card: not fired on from a distance
    p_leader            int16[U]  the commander controlling the unit, -1              platoons
    p_aim, p_land       int16[U]  artillery: the hex its last indirect salvo was aimed at and the
                                  hex it hit ("Subsequent salvos will hit the same hex"), -1
    p_guided            bool[U]   ... that salvo was guided by a spotter
    p_spots             int16[U]  commander: the artillery unit he spots for this turn, -1
    clearing            int8[H]   turns an infantry unit has spent clearing the hex's minefield
    p_cc                int16[U]  combat commands: the commander of the one the piece belongs to (a
                                  commander of one: himself), -1                      combat commands
    p_cc_move           int8[U]   ordered with its combat command this turn: the command's speed (its
                                  slowest component's when ordered); the piece moves with the command
                                  and ends in its commander's ZOC; -1 otherwise       combat commands
    form_pick           bool[U]   the units picked for the combat command being formed
    form_side           int8      the side forming combat commands at the start of the game, -1
    form_declined       bool[U]   a commander who gave up forming a command (NO): he forms none at
                                  the start, and not again this turn in play (interpretation)
    af_pile/pos         air force cards (AF: 18 a side): a side's deck and pool, lost, out   appendix 2
    as_pile/pos         air support cards (AS: 18 a side): deck, hand, played, used, out     appendix 2
    pl_side/kind/hex/state   the planes of this turn's air combat (kind 1 F, 2 FB)
    air_stage           placing, AA fire, dogfights, ground attack (AIR_*), 0 none
    air_turn, air_sel, air_aa, air_free   whose dogfight, the plane chosen, the AA unit firing,
                        the free shots after the dogfights
    air_vp              bool[2]   the side has scored its point for an air attack nobody could counter
    lit                 bool[H]   night games: the hexes a flare lights this turn            flairs
    card_pile/pos       the command cards: PILE_DECK, PILE_DISCARD, PILE_HAND + side, PILE_PLAYED
    last_throw          int8[12]  symbols of the last battle throw (-1 pad), for logs and renders
    last_kills, last_flags, last_retreat   int8  what it did
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from wargym.core import BaseState
from wargym.jit import njit
from wargym.kernel import KernelStruct
from wargym.schema import var
from wargym.world_at_war.scenario import Scenario, load_dice, load_rulebook_data

PILE_DECK, PILE_DISCARD, PILE_HAND, PILE_PLAYED = 0, 1, 2, 4   # PILE_HAND + side: that side's hand
N_PILES = 5
# appendix 2: air force cards (a side's deck 2s, its pool 2s + 1) and air support cards (a side's
# deck 2s, its hand 2s + 1)
AFP_LOST, AFP_OUT = 4, 5          # planes destroyed (cards given up); a side without air force
N_AF_PILES = 6
ASP_USED, ASP_OUT, ASP_PLAYED = 4, 5, 6
N_AS_PILES = 7
PLANES = 8                        # planes in the air at once: two air support cards of up to 4
PL_NONE, PL_WAITING, PL_FLYING, PL_FOUGHT, PL_DOWN, PL_DONE = range(6)
(AIR_NONE, AIR_PLACE, AIR_AA, AIR_DOGFIGHT, AIR_GROUND) = range(5)
THROW_MAX = 12

# decision phases
(P_FIRST, P_CARD, P_DISCARD, P_ORDER, P_MOVE_SELECT, P_MOVE_DEST, P_FOLLOW, P_CONTROL, P_BATTLE_SELECT,
 P_BATTLE_TARGET, P_STAND, P_HIT_PART, P_HIT_PIECE, P_RETREAT, P_BREAKTHROUGH, P_SECOND, P_OVER, P_ADJUST,
 P_DISMOUNT, P_FORM_SELECT, P_FORM_UNIT, P_AIR_PLAY, P_AIR_DEFEND, P_AIR_PLACE, P_AA_TARGET, P_DOG_PLANE, P_DOG_TARGET,
 P_AIR_TARGET, P_PICK_AIR, P_FLARE) = range(30)
PHASE_NAMES = (
    "first player: go first (yes) or second (no)", "command card: play", "command card: discard (none orders)",
    "order: piece", "move: piece", "move: destination", "move: the commander goes with his unit (yes/no)",
    "commander: second unit to control", "battle: piece", "battle: target hex",
    "defender: voluntary retreat (yes) or stand (no)", "hits on the vehicle (yes) or the personnel (no)",
    "defender: piece that takes the hits", "retreat: hex", "breakthrough: enter the vacated hex (yes/no)",
    "breakthrough: battle the retreating unit again (yes/no)", "game over",
    "artillery: adjust the fire (yes) or the same hex as the last salvo (no)",
    "dismount to battle after the move (yes/no)",
    "combat commands: commander to form one (done: no more)",
    "combat command: unit to join (done: formed; no: given up)",
    "air support: card to play (no: none)", "air support: the defender's card (no: none)",
    "air support: hex for the next plane", "AA fire: the plane to fire at",
    "dogfight: own plane to start it", "dogfight: enemy plane to attack",
    "air attack: the ground target (no: none)", "end of turn: play 'pick an air support' (yes/no)",
    "flare: the hex to illuminate",
)


def _first(core) -> int:
    return max(core.scenario.first_player, 0)


@dataclass(frozen=True)
class State(BaseState):
    active: np.ndarray = var("int8", init=_first, low=0, high=1)
    decisions: np.ndarray = var("int32", low=0, high="DECISIONS", grows=True)
    card: np.ndarray = var("int16", init=-1, low=-1, high="C-1")
    order_left: np.ndarray = var("int8", low=0, high=20)
    selected: np.ndarray = var("int16", init=-1, low=-1, high="U-1")
    target: np.ndarray = var("int16", init=-1, low=-1, high="U-1")
    target_hex: np.ndarray = var("int16", init=-1, low=-1, high="H-1")
    bt_dice: np.ndarray = var("int8", (4,), low=0, high=12)
    bt_vehicle: np.ndarray = var("bool")
    rt_piece: np.ndarray = var("int16", init=-1, low=-1, high="U-1")
    rt_left: np.ndarray = var("int8", low=0, high=12)
    rt_voluntary: np.ndarray = var("bool")
    second: np.ndarray = var("bool")
    vp: np.ndarray = var("int16", (2,), low=0, high="U+1", grows=True)  # enemy pieces destroyed, the air point
    winner: np.ndarray = var("int8", init=-1, low=-1, high=1)
    features: np.ndarray = var("uint8", ("H",), init=lambda core: core.scenario.features, low=0, high=63)
    p_hex: np.ndarray = var("int16", ("U",), init=lambda core: core.scenario.piece_hex, low=-1, high="H-1")
    p_figures: np.ndarray = var("int8", ("U",), init=lambda core: core.scenario.piece_figures, low=0, high=8)
    p_vehicles: np.ndarray = var("int8", ("U",), low=0, high=2, init=lambda core: core.start_vehicles())
    p_mounted: np.ndarray = var("bool", ("U",))
    p_ordered: np.ndarray = var("bool", ("U",))
    p_moved: np.ndarray = var("bool", ("U",))
    p_battled: np.ndarray = var("bool", ("U",))
    p_no_battle: np.ndarray = var("bool", ("U",))
    p_defended: np.ndarray = var("bool", ("U",))
    p_close: np.ndarray = var("bool", ("U",))
    p_leader: np.ndarray = var("int16", ("U",), init=-1, low=-1, high="U-1")
    p_aim: np.ndarray = var("int16", ("U",), init=-1, low=-1, high="H-1")
    p_land: np.ndarray = var("int16", ("U",), init=-1, low=-1, high="H-1")
    p_guided: np.ndarray = var("bool", ("U",))
    p_spots: np.ndarray = var("int16", ("U",), init=-1, low=-1, high="U-1")
    clearing: np.ndarray = var("int8", ("H",), low=0, high=2)
    p_cc: np.ndarray = var("int16", ("U",), init=-1, low=-1, high="U-1")
    p_cc_move: np.ndarray = var("int8", ("U",), init=-1, low=-1, high=6)   # a unit card's move is 6 at most
    form_pick: np.ndarray = var("bool", ("U",))
    form_side: np.ndarray = var("int8", init=-1, low=-1, high=1)
    form_declined: np.ndarray = var("bool", ("U",))
    af_pile: np.ndarray = var("int8", ("AF",), low=0, high=N_AF_PILES - 1)
    af_pos: np.ndarray = var("int16", ("AF",), low=0, high="AF-1")
    as_pile: np.ndarray = var("int8", ("AS",), low=0, high=N_AS_PILES - 1)
    as_pos: np.ndarray = var("int16", ("AS",), low=0, high="AS-1")
    pl_side: np.ndarray = var("int8", (PLANES,), low=0, high=1)
    pl_kind: np.ndarray = var("int8", (PLANES,), low=0, high=2)
    pl_hex: np.ndarray = var("int16", (PLANES,), init=-1, low=-1, high="H-1")
    pl_state: np.ndarray = var("int8", (PLANES,), low=PL_NONE, high=PL_DONE)
    air_stage: np.ndarray = var("int8", low=AIR_NONE, high=AIR_GROUND)
    air_turn: np.ndarray = var("int8", low=0, high=1)
    air_sel: np.ndarray = var("int16", init=-1, low=-1, high=PLANES - 1)
    air_aa: np.ndarray = var("int16", init=-1, low=-1, high="U-1")
    air_free: np.ndarray = var("bool")
    air_vp: np.ndarray = var("bool", (2,), grows=True)   # appendix 2: scored once
    lit: np.ndarray = var("bool", ("H",))
    card_pile: np.ndarray = var("int8", ("C",), low=0, high=N_PILES - 1)
    card_pos: np.ndarray = var("int16", ("C",), low=0, high="C-1")
    last_throw: np.ndarray = var("int8", (THROW_MAX,), init=-1, low=-1, high=8)
    last_kills: np.ndarray = var("int8", low=0, high=THROW_MAX)   # a symbol a die, THROW_MAX dice at most
    last_flags: np.ndarray = var("int8", low=0, high=THROW_MAX)
    last_retreat: np.ndarray = var("int8", low=0, high=THROW_MAX)


Tables = namedtuple("Tables", [
    "nbr", "dist", "sight_a", "sight_b", "terrain", "blocks", "elevation", "stop", "no_battle",
    "max_move", "enter", "attacker_less", "defender_less", "adjacent_only", "collapse", "collapse_totals",
    "f_blocks", "f_stop", "f_enter", "f_vehicle_cost", "f_attacker", "f_defender", "f_ignore_flags",
    "f_no_art_retreat", "f_buildings", "toward_home",
    "p_side", "p_card", "p_colour", "c_dice", "c_figures", "c_flag", "c_move", "c_move_mounted", "c_kind",
    "c_transport", "c_target", "c_vehicle_target", "c_class", "c_indirect", "c_flamethrower", "c_engineers",
    "c_armed",
    "card_action", "card_colour", "card_order", "obj_hex", "obj_points", "obj_for",
    "faces", "scores", "special_range", "saving_die",
    "first_player", "hand", "vp_quota", "fastplay", "advanced", "major_only", "max_decisions",
    "af_kind", "as_planes", "af_pick", "as_quota", "air_faces", "aircraft_range", "aa_range", "c_air_dice",
    "night",
])

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


def make_tables(sc: Scenario, fastplay: bool, advanced: bool, major_only: bool, max_decisions: int,
                night: bool = False) -> Tables:
    u, d = sc.units, load_dice()
    air = load_rulebook_data()[3]
    return Tables(
        nbr=sc.grid.neighbours, dist=sc.grid.distance, sight_a=sc.sight_a, sight_b=sc.sight_b,
        terrain=sc.terrain, blocks=sc.blocks, elevation=sc.elevation, stop=sc.stop, no_battle=sc.no_battle,
        max_move=sc.max_move, enter=sc.enter, attacker_less=sc.attacker_less, defender_less=sc.defender_less,
        adjacent_only=sc.adjacent_only, collapse=sc.collapse, collapse_totals=sc.collapse_totals,
        f_blocks=sc.f_blocks, f_stop=sc.f_stop, f_enter=sc.f_enter, f_vehicle_cost=sc.f_vehicle_cost,
        f_attacker=sc.f_attacker, f_defender=sc.f_defender, f_ignore_flags=sc.f_ignore_flags,
        f_no_art_retreat=sc.f_no_artillery_retreat, f_buildings=sc.f_buildings, toward_home=sc.toward_home,
        p_side=sc.piece_side, p_card=sc.piece_card, p_colour=sc.piece_colour,
        c_dice=u.dice, c_figures=u.figures, c_flag=u.flag, c_move=u.move, c_move_mounted=u.move_mounted,
        c_kind=u.kind, c_transport=u.transport, c_target=u.target, c_vehicle_target=u.vehicle_target,
        c_class=u.terrain_class, c_indirect=u.indirect, c_flamethrower=u.flamethrower, c_engineers=u.engineers,
        c_armed=u.armed,
        card_action=sc.card_action, card_colour=sc.card_colour, card_order=sc.card_order,
        obj_hex=sc.objective_hex, obj_points=sc.objective_points, obj_for=sc.objective_for,
        faces=d.faces, scores=d.scores, special_range=d.special_range, saving_die=np.int64(d.saving_die),
        first_player=np.int64(sc.first_player), hand=sc.hand, vp_quota=sc.vp_quota, fastplay=bool(fastplay),
        advanced=bool(advanced),
        af_kind=sc.af_kind, as_planes=sc.as_planes, af_pick=sc.air_force_pick, as_quota=sc.air_support_quota,
        air_faces=d.air_faces, aircraft_range=np.int64(air.aircraft_range), aa_range=np.int64(air.aa_range),
        c_air_dice=u.air_dice, night=bool(night),
        major_only=bool(major_only), max_decisions=np.int64(max_decisions),
    )
