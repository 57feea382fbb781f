"""Island War state: B games as numpy arrays with a leading batch axis, and the static tables.

``State`` is a frozen dataclass whose fields declare their dtype, shape, start and range
(wargym.schema); the kernels take it and the ``Scenario``'s lookup tables (``Tables``) as structs
(``StateArg``, ``TablesArg``: wargym.kernel).  Per game (U units, H hexes, O objectives), besides
the fields every game has (wargym.core.BaseState)::

    phasing             int8      side whose Player-Turn it is (0 US, 1 Japan)         4.1
    player_turn         int8      0 = First Player-Turn, 1 = Second                   4.1
    combat_phase        int16     count of Combat Phases played (for 8.41)
    decisions           int32     decisions taken (truncation guard)
    unit_hex            int16[U]  hex index, -1 when not on the map
    unit_status         int8[U]   0 waiting to arrive, 1 on the map, 2 eliminated
    moved               bool[U]   has moved this Movement Phase                        5.16
    attacked            bool[U]   has attacked / been attacked this Combat Phase       7.14
    advanced            bool[U]   advanced after combat this Combat Phase              7.96
    fpf_used            bool[U]   gave Final Protective Fire this Combat Phase         8.4
    last_adverse        int16[U]  Combat Phase of its last adverse result/displacement 8.41
    selected            int16     unit being moved or advanced (-1 none)
    cb_attacker         bool[U]   units attacking in the combat being declared         7.2
    cb_barrage          bool[U]   ... of them, artillery barraging from a distance    8.1
    cb_defender         bool[U]   units attacked in it                                7.2
    cb_fpf              bool[U]   artillery adding FPF to it                          8.4
    cb_gs_attack        int16     Ground Support Points added as barrage              9.0
    cb_gs_defense       int16     Ground Support Points added as FPF                  9.0
    cb_banzai           bool      declared a Banzai attack                            10.0
    cancels             int16     attack declarations cancelled this Combat Phase (MAX_CANCELS)
    rt_queue            int16[U]  units to retreat after the combat, in order         7.7
    rt_head, rt_len     int16     position in / length of that queue
    rt_hexes            int8      hexes each must retreat (D1-3 / A1-3)
    rt_done             int8      hexes the current unit has retreated
    rt_origin           int16     its combat position
    displace_into       int16     hex the retreating unit waits to enter while the friend there is
                                  displaced (7.81), -1 otherwise
    path_hex            int16[U,4] Paths of Retreat of retreated/eliminated units      7.91
    path_count          int16
    adv_side            int8      side allowed to advance after the combat (-1 none)  7.9
    gs_points           int16[2]  Ground Support Points left this Game-Turn            9.14
    objective_owner     int8[O]   side controlling each objective (-1 none)
    last_die, last_result, last_column, last_line  int8;  last_differential int16
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from wargym.core import BaseState
from wargym.island_war.scenario import RESULTS, Scenario
from wargym.jit import njit
from wargym.kernel import KernelStruct
from wargym.schema import var

# Attack declarations a player may abandon per Combat Phase before CANCEL is offered only for a
# declaration that can neither grow nor be resolved (README: declaring is not a rule of the book;
# unbounded cancelling let a player cycle forever without changing the game)
MAX_CANCELS = 8
PATH_LEN = 4       # combat position + up to three hexes of retreat (D3/A3)

# decision phases
MOVE_SELECT, MOVE_DEST, COMBAT_SELECT, COMBAT_BUILD, FPF, RETREAT, ADVANCE_SELECT, ADVANCE_DEST, OVER, DISPLACE = \
    range(10)
PHASE_NAMES = ("move: select unit", "move: destination", "combat: select target", "combat: declare attack",
               "final protective fire", "retreat", "advance: select unit", "advance: destination", "game over",
               "displacement")

WAITING, ON_MAP, ELIMINATED = 0, 1, 2


def _first(core) -> int:
    return core.scenario.first_player


@dataclass(frozen=True)
class State(BaseState):
    phasing: np.ndarray = var("int8", init=_first, low=0, high=1)
    player_turn: np.ndarray = var("int8", low=0, high=1)
    combat_phase: np.ndarray = var("int16", low=0, high="COMBAT_PHASES", grows=True)  # two a Game-Turn (4.1)
    decisions: np.ndarray = var("int32", low=0, high="DECISIONS", grows=True)
    unit_hex: np.ndarray = var("int16", ("U",), init=lambda core: core.scenario.unit_setup, low=-1, high="H-1")
    unit_status: np.ndarray = var("int8", ("U",), low=WAITING, high=ELIMINATED, grows=True,  # arrives, then dies
                                  init=lambda core: np.where(core.scenario.unit_setup >= 0, ON_MAP, WAITING))
    moved: np.ndarray = var("bool", ("U",))
    attacked: np.ndarray = var("bool", ("U",))
    advanced: np.ndarray = var("bool", ("U",))
    fpf_used: np.ndarray = var("bool", ("U",))
    last_adverse: np.ndarray = var("int16", ("U",), init=-10, low=-10, high="COMBAT_PHASES", grows=True)  # 8.41
    selected: np.ndarray = var("int16", init=-1, low=-1, high="U-1")
    cb_attacker: np.ndarray = var("bool", ("U",))
    cb_barrage: np.ndarray = var("bool", ("U",))
    cb_defender: np.ndarray = var("bool", ("U",))
    cb_fpf: np.ndarray = var("bool", ("U",))
    cb_gs_attack: np.ndarray = var("int16", low=0, high="GS")   # 9.14: at most a turn's Ground Support Points
    cb_gs_defense: np.ndarray = var("int16", low=0, high="GS")
    cb_banzai: np.ndarray = var("bool")
    cancels: np.ndarray = var("int16", low=0, high=MAX_CANCELS)
    rt_queue: np.ndarray = var("int16", ("U",), init=-1, low=-1, high="U-1")
    rt_head: np.ndarray = var("int16", low=0, high="U")
    rt_len: np.ndarray = var("int16", low=0, high="U")
    rt_hexes: np.ndarray = var("int8", low=0, high=3)
    rt_done: np.ndarray = var("int8", low=0, high=3)
    rt_origin: np.ndarray = var("int16", init=-1, low=-1, high="H-1")
    displace_into: np.ndarray = var("int16", init=-1, low=-1, high="H-1")
    # a path per unit that retreats or is eliminated in the combat: as many as its units (an attack
    # may take several defender hexes, so more than six units can be in it)
    path_hex: np.ndarray = var("int16", ("U", PATH_LEN), init=-1, low=-1, high="H-1")
    path_count: np.ndarray = var("int16", low=0, high="U")
    adv_side: np.ndarray = var("int8", init=-1, low=-1, high=1)
    gs_points: np.ndarray = var("int16", (2,), init=lambda core: core.scenario.ground_support[1], low=0, high="GS")
    objective_owner: np.ndarray = var("int8", ("O",), init=lambda core: core.scenario.objective_owner, low=-1, high=1)
    last_die: np.ndarray = var("int8", low=0, high=6)
    last_result: np.ndarray = var("int8", init=-1, low=-1, high=len(RESULTS) - 1)
    last_column: np.ndarray = var("int8", init=-1, low=-1, high="CRT_COLUMNS-1")   # 7.4: a column of the CRT
    last_line: np.ndarray = var("int8", init=-1, low=-1, high="CRT_LINES-1")
    last_differential: np.ndarray = var("int16")


Tables = namedtuple("Tables", [
    "nbr", "dist", "hexside", "move_cost", "armor_ok", "hex_line", "river_cost", "river_line",
    "line_rank", "col_min", "crt", "u_side", "u_type", "u_attack", "u_defense", "u_move", "u_barrage",
    "u_fpf", "u_range", "u_vp", "u_arrives", "u_entry", "entry_hexes", "gs", "obj_hex", "obj_vp",
    "first_player", "game_turns", "us_win", "japan_win", "major_only", "max_decisions",
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


def as_arrays(state: State) -> StateArg:
    """The state as the kernels take it (writes go to the state's own arrays)."""
    return StateArg.of(state)


def make_tables(sc: Scenario, major_only: bool, max_decisions: int) -> Tables:
    return Tables(
        nbr=sc.grid.neighbours, dist=sc.grid.distance, hexside=sc.hexside, move_cost=sc.hex_move_cost,
        armor_ok=sc.hex_armor_ok, hex_line=sc.hex_crt_line, river_cost=np.int64(sc.river_cost),
        river_line=np.int64(sc.river_crt_line), line_rank=sc.crt_line_rank, col_min=sc.crt_column_min,
        crt=sc.crt_table, u_side=sc.unit_side, u_type=sc.unit_type, u_attack=sc.unit_attack,
        u_defense=sc.unit_defense, u_move=sc.unit_move, u_barrage=sc.unit_barrage, u_fpf=sc.unit_fpf,
        u_range=sc.unit_range, u_vp=sc.unit_vp, u_arrives=sc.unit_arrives, u_entry=sc.unit_entry,
        entry_hexes=sc.entry_hexes, gs=sc.ground_support, obj_hex=sc.objective_hex, obj_vp=sc.objective_vp,
        first_player=np.int64(sc.first_player), game_turns=np.int64(sc.game_turns),
        us_win=np.int64(sc.us_wins_at_margin), japan_win=np.int64(sc.japan_wins_at_margin),
        major_only=bool(major_only), max_decisions=np.int64(max_decisions),
    )

