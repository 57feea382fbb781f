"""The World at War action layout: a pointer over the map's hexes, a few named answers, a hand slot
for each command card held, and one action for each piece of the scenario.

    action              meaning (by decision phase, state.PHASE_NAMES)
    ------------------  -------------------------------------------------------------------------
    [0, H)              hex h (dense index, wargym.hexgrid):
                          move: destination         the piece moves to h (its own hex: it stays)
                          battle: target hex        the enemy in h is battled
                          retreat: hex              the retreating unit goes to h
    H + 0  DONE         no more orders / moves / battles this turn
    H + 1  YES          yes to the question of the phase (voluntary retreat, the commander goes
                        with his unit, the hits on the vehicle, breakthrough, battle again)
    H + 2  NO           no to it; cancel the battle being declared
    H + 3  MOUNT        motorized / mechanized infantry mounts (or dismounts) instead of moving
    H + 4  CLEAR        the infantry unit clears the wire or works on the minefield in its hex
                        instead of moving (terrain sheet: barbed wire, mine fields)
    H + 5  FORM         the commander forms a combat command instead of moving
    H + 6  DISSOLVE     the commander gives up his combat command instead of moving
    H + 7  FLARE        night games: the artillery unit fires a flare instead of battling
    H + 8 + k  CARD_k   the k-th card of one's hand (play it; or discard it when none can order;
                        the k-th air support card when playing air support)
    H + 8 + MAX_HAND + p  PIECE_p   piece p of the scenario (order it, move it, battle with it,
                        take a second unit under a commander's control, take the hits, join a
                        combat command)
"""

from __future__ import annotations

DONE, YES, NO, MOUNT, CLEAR, FORM, DISSOLVE, FLARE, CARD_0 = range(9)
MAX_HAND = 10
PIECE_0 = CARD_0 + MAX_HAND
SPECIAL_NAMES = ("done", "yes", "no", "mount / dismount", "clear the wire or the minefield",
                 "form a combat command", "give up the combat command", "fire a flare")


def num_actions(num_hexes: int, num_pieces: int) -> int:
    return num_hexes + PIECE_0 + num_pieces


def special_name(k: int) -> str:
    if k < CARD_0:
        return SPECIAL_NAMES[k]
    if k < PIECE_0:
        return f"card #{k - CARD_0 + 1} of the hand"
    return f"piece {k - PIECE_0}"
