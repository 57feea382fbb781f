"""The action space: one flat Discrete(H + NUM_SPECIALS).

    [0, H)              a hex: a beach hex to land in, a move's destination, a target
    H + UNIT_0 + u      U.S. unit u (MAX_US slots): the unit to act, to join, to lose a step ...
    H + END             end the Action Phase
    H + YES / NO        the yes/no decisions (and NO cancels an order being declared)
    H + MOVE .. ENTER   the order of the selected unit (7.0)
    H + RESOLVE         resolve the declared attack (8.3)
    H + NAVAL/DAUNTLESS expend a naval fire / Dauntless airstrike marker (8.5)
    H + BOX_0 + b       landing box W1, W2, O1, O2, O3 (5.3)
"""

MAX_US = 64
UNIT_0 = 0
END = MAX_US
YES, NO, MOVE, ATTACK, BARRAGE, ENTER, RESOLVE, NAVAL, DAUNTLESS = range(END + 1, END + 10)
BOX_0 = DAUNTLESS + 1
NUM_SPECIALS = BOX_0 + 5
_NAMES = {END: "end the Action Phase", YES: "yes", NO: "no / cancel", MOVE: "order: move", ATTACK: "order: attack",
          BARRAGE: "order: barrage", ENTER: "order: enter for close combat", RESOLVE: "resolve the attack",
          NAVAL: "expend a naval fire marker", DAUNTLESS: "expend a Dauntless airstrike marker"}


def num_actions(num_hexes: int) -> int:
    return num_hexes + NUM_SPECIALS


def special_name(k: int, unit_names=None, boxes=("W1", "W2", "O1", "O2", "O3")) -> str:
    if UNIT_0 <= k < UNIT_0 + MAX_US:
        u = k - UNIT_0
        return f"unit {unit_names[u]}" if unit_names is not None and u < len(unit_names) else f"unit #{u}"
    if BOX_0 <= k < BOX_0 + 5:
        return f"landing box {boxes[k - BOX_0]}"
    return _NAMES.get(k, f"special {k}")
