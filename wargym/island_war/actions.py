"""Island War action layout: a pointer over the map's hexes plus a few named specials.

    action          meaning (by decision phase)
    ------------    -------------------------------------------------------------------------
    [0, H)          hex h (dense index, see wargym.hexgrid):
                      move: select unit   the friendly unit in h                       5.16
                      move: destination   move the selected unit to h (its own hex: stays)
                      combat: select      start an attack on the enemy unit in h       7.1
                      combat: declare     add the unit in h as attacker or defender    7.2, 8.1
                      FPF                 add the artillery in h's FPF                 8.4
                      retreat             retreat the current unit into h              7.7
                      displacement        move the friend in the retreat's way into h  7.81
                      advance: select     the victorious unit in h advances            7.9
                      advance: dest.      advance it to h on the Path of Retreat       7.91
    H + 0  END_PHASE    end the Movement Phase / the Combat Phase (when 7.1 allows)
    H + 1  CONFIRM      resolve the declared attack / FPF done / stop advancing
    H + 2  CANCEL       deselect the unit / abandon the attack being declared
    H + 3  GS_ADD       add one Ground Support Point (barrage or FPF)              9.0
    H + 4  BANZAI       declare the attack a massed infantry (Banzai) attack       10.0
    H + 5 + k  REINF_k  select the k-th reinforcement waiting to enter (k < 8)     4.1
"""

from __future__ import annotations

END_PHASE, CONFIRM, CANCEL, GS_ADD, BANZAI, REINF_0 = range(6)
MAX_REINF_CHOICES = 8
NUM_SPECIALS = REINF_0 + MAX_REINF_CHOICES
SPECIAL_NAMES = ("end phase", "confirm", "cancel", "add ground support point", "declare banzai")


def num_actions(num_hexes: int) -> int:
    return num_hexes + NUM_SPECIALS


def special_name(k: int) -> str:
    if k < REINF_0:
        return SPECIAL_NAMES[k]
    return f"reinforcement #{k - REINF_0}"
