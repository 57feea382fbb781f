"""Attu action layout: a pointer over the map's hexes plus named specials.

    action              meaning (by decision phase, see state.PHASE_NAMES)
    ----------------    -------------------------------------------------------------------------
    [0, H)              hex h: place / select a hex / move to / fire at / airpower target /
                        refit, independent or depot in / hide in / retreat to / melee target
    H + END             end this step (actions, refit allocation, landing, hiding, ...)
    H + YES, H + NO     answer a decision (refit turn, night turn, hero, retreat option, land now)
    H + HOLD            the selected unit takes no action this step (3.5)
    H + AIR             announce an Airpower attack (then a target hex)              8.1.6
    H + STRIKE          make the announced Airpower attacks                          8.1.6
    H + YAMASAKI        Colonel Yamasaki activates the selected hex                  11.3
    H + RESERVE         keep the unit in the Reinforcements Box (free set-up)        12.6
    H + SLOT_k          the k-th eligible unit of the hex in question (k < 16)
    H + LZ_k            staging zone / landing zone A..I (k < LANDING_ZONES)         9.2.2
    H + MELEE_d         declare Melee against the neighbour in direction d (d < 6)   8.2
    H + REINF_k         the next unit of battalion k in the Reinforcements Box       9.2.2
"""

from __future__ import annotations

from wargym.attu.scenario import LANDING_ZONES
from wargym.jit import njit

END, YES, NO, HOLD, AIR, STRIKE, YAMASAKI, RESERVE = range(8)
MAX_SLOTS = 16
SLOT_0 = 8
LZ_0 = SLOT_0 + MAX_SLOTS
MELEE_0 = LZ_0 + LANDING_ZONES
REINF_0 = MELEE_0 + 6
MAX_BATTALIONS = 16
NUM_SPECIALS = REINF_0 + MAX_BATTALIONS
SPECIAL_NAMES = ("end", "yes", "no", "hold", "airpower attack", "strike", "Colonel Yamasaki", "keep in reserve")
DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")


def num_actions(num_hexes: int) -> int:
    return num_hexes + NUM_SPECIALS


def special_name(k: int) -> str:
    if k < SLOT_0:
        return SPECIAL_NAMES[k]
    if k < LZ_0:
        return f"unit slot {k - SLOT_0}"
    if k < MELEE_0:
        return f"zone {'ABCDEFGHI'[k - LZ_0]}"
    if k < REINF_0:
        return f"declare melee {DIRECTIONS[k - MELEE_0]}"
    return f"reinforcement battalion #{k - REINF_0}"


@njit(cache=True)
def allow_slots(m, num_hexes, n):
    """Make the first n SLOT actions legal in mask m: a decision among n units."""
    m[num_hexes + SLOT_0:num_hexes + SLOT_0 + n] = True
