"""Island War state: B games as numpy arrays with a leading batch axis, and the static tables.

``State`` is a frozen dataclass; ``as_arrays(state)`` views it as a namedtuple that the jitted
rule kernels (numba) take, and ``Tables`` is the same for the ``Scenario``'s lookup tables.
Per game (U units, H hexes, A actions, O objectives)::

    phase               int8      decision phase (PHASE_NAMES)
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
    path_hex            int16[6,4] Paths of Retreat of retreated/eliminated units      7.91
    path_count          int8
    adv_side            int8      side allowed to advance after the combat (-1 none)  7.9
    gs_points           int16[2]  Ground Support Points left this Game-Turn            9.14
    objective_owner     int8[O]   side controlling each objective (-1 none)
    last_die, last_result, last_column, last_line  int8;  last_differential int16
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, fields

import numpy as np

from wargym.core import BaseState
from wargym.island_war.scenario import Scenario

# Attack declarations a player may abandon per Combat Phase before CANCEL is offered only for a
# declaration that can neither grow nor be resolved (README: declaring is not a rule of the book;
# unbounded cancelling let a player cycle forever without changing the game)
MAX_CANCELS = 8
MAX_PATHS = 6      # at most six units can be adjacent to one hex (no stacking, 5.31)
PATH_LEN = 4       # combat position + up to three hexes of retreat (D3/A3)

# decision phases
MOVE_SELECT, MOVE_DEST, COMBAT_SELECT, COMBAT_BUILD, FPF, RETREAT, ADVANCE_SELECT, ADVANCE_DEST, OVER, DISPLACE = \
    range(10)
PHASE_NAMES = ("move: select unit", "move: destination", "combat: select target", "combat: declare attack",
               "final protective fire", "retreat", "advance: select unit", "advance: destination", "game over",
               "displacement")

WAITING, ON_MAP, ELIMINATED = 0, 1, 2


@dataclass(frozen=True)
class State(BaseState):
    phase: np.ndarray
    phasing: np.ndarray
    player_turn: np.ndarray
    combat_phase: np.ndarray
    decisions: np.ndarray
    unit_hex: np.ndarray
    unit_status: np.ndarray
    moved: np.ndarray
    attacked: np.ndarray
    advanced: np.ndarray
    fpf_used: np.ndarray
    last_adverse: np.ndarray
    selected: np.ndarray
    cb_attacker: np.ndarray
    cb_barrage: np.ndarray
    cb_defender: np.ndarray
    cb_fpf: np.ndarray
    cb_gs_attack: np.ndarray
    cb_gs_defense: np.ndarray
    cb_banzai: np.ndarray
    cancels: np.ndarray
    rt_queue: np.ndarray
    rt_head: np.ndarray
    rt_len: np.ndarray
    rt_hexes: np.ndarray
    rt_done: np.ndarray
    rt_origin: np.ndarray
    displace_into: np.ndarray
    path_hex: np.ndarray
    path_count: np.ndarray
    adv_side: np.ndarray
    gs_points: np.ndarray
    objective_owner: np.ndarray
    last_die: np.ndarray
    last_result: np.ndarray
    last_column: np.ndarray
    last_line: np.ndarray
    last_differential: np.ndarray


StateArrays = namedtuple("StateArrays", [f.name for f in fields(State)])

Tables = namedtuple("Tables", [
    "nbr", "dist", "hexside", "move_cost", "armor_ok", "hex_line", "river_cost", "river_line",
    "line_rank", "col_min", "crt", "u_side", "u_type", "u_attack", "u_defense", "u_move", "u_barrage",
    "u_fpf", "u_range", "u_vp", "u_arrives", "u_entry", "entry_hexes", "gs", "obj_hex", "obj_vp",
    "first_player", "game_turns", "us_win", "japan_win", "major_only", "max_decisions",
])


def as_arrays(state: State) -> StateArrays:
    return StateArrays(*(getattr(state, f) for f in StateArrays._fields))


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


def blank_state(sc: Scenario, keys: np.ndarray, num_actions: int) -> State:
    """Games at the start of Game-Turn 1, before the first decision's mask is computed (3.0)."""
    b, u = len(keys), sc.num_units
    on_map = sc.unit_setup >= 0
    z8 = lambda *s: np.zeros((b, *s), dtype=np.int8)  # noqa: E731
    z16 = lambda *s: np.zeros((b, *s), dtype=np.int16)  # noqa: E731
    zb = lambda *s: np.zeros((b, *s), dtype=bool)  # noqa: E731
    first = sc.first_player
    return State(
        current_player=np.full(b, first, dtype=np.int8), legal_action_mask=zb(num_actions),
        terminated=zb(), truncated=zb(), rewards=np.zeros((b, 2), dtype=np.float32),
        turn=np.ones(b, dtype=np.int16), rng_key=np.asarray(keys, dtype=np.uint64).copy(),
        rng_counter=np.zeros(b, dtype=np.uint32), next_die=z8(),
        phase=np.full(b, MOVE_SELECT, dtype=np.int8), phasing=np.full(b, first, dtype=np.int8),
        player_turn=z8(), combat_phase=z16(), decisions=np.zeros(b, dtype=np.int32),
        unit_hex=np.tile(sc.unit_setup, (b, 1)).astype(np.int16),
        unit_status=np.tile(np.where(on_map, ON_MAP, WAITING), (b, 1)).astype(np.int8),
        moved=zb(u), attacked=zb(u), advanced=zb(u), fpf_used=zb(u),
        last_adverse=np.full((b, u), -10, dtype=np.int16), selected=np.full(b, -1, dtype=np.int16),
        cb_attacker=zb(u), cb_barrage=zb(u), cb_defender=zb(u), cb_fpf=zb(u),
        cb_gs_attack=z16(), cb_gs_defense=z16(), cb_banzai=zb(), cancels=z16(),
        rt_queue=np.full((b, u), -1, dtype=np.int16), rt_head=z16(), rt_len=z16(), rt_hexes=z8(), rt_done=z8(),
        rt_origin=np.full(b, -1, dtype=np.int16), displace_into=np.full(b, -1, dtype=np.int16),
        path_hex=np.full((b, MAX_PATHS, PATH_LEN), -1, dtype=np.int16),
        path_count=z8(), adv_side=np.full(b, -1, dtype=np.int8),
        gs_points=np.tile(sc.ground_support[1], (b, 1)).astype(np.int16),
        objective_owner=np.tile(sc.objective_owner, (b, 1)).astype(np.int8),
        last_die=z8(), last_result=np.full(b, -1, dtype=np.int8), last_column=np.full(b, -1, dtype=np.int8),
        last_line=np.full(b, -1, dtype=np.int8), last_differential=z16(),
    )
