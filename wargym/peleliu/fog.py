"""Who sees what, declared once (``HIDDEN``, wargym.hidden): the U.S. player, the only player, may
not know

* 4.0, 8.6: the order of the draw deck, nor the close combat piles drawn blindly;
* 3.0, 9.1: which Japanese unit a face-down counter is (on the map or in the reserve box), among
  those of its general type (printed on the back, 9.1: infantry, engineer, HQ, antitank, machinegun,
  tank);
* 18.1, 19.1: which fortification marker lies face down in a position or in the cup (the markers
  are "Japanese units" of the type fortification, scenario.jp_fort);
* 2.24, 9.2: which depth marker lies face down under a unit or in a pool (armor, counterattack and
  regular markers are told apart by their backs, so each kind is anonymous among its own);
* 20.1: the action letter markers not yet flipped on the turn track.
"""

import numpy as np

from wargym.hidden import Anonymous, Secret
from wargym.peleliu.scenario import JP_TYPES
from wargym.peleliu.state import DM_CUP, DM_POOL, DM_UNIT, JP_MAP, JP_RESERVE, PILE_CC_JP, PILE_CC_US, PILE_DECK

LETTER_TURNS = np.array([3, 5, 7, 9, 11])


def hidden_cards(core, state, viewer: int) -> np.ndarray:
    pile = state.card_pile
    return (pile == PILE_DECK) | (pile == PILE_CC_US) | (pile == PILE_CC_JP)


def _hidden_units(kind: int):
    """9.1: a face-down unit shows its general type on its back, so it is anonymous among the
    face-down units of its type."""
    def who(core, state, viewer: int) -> np.ndarray:
        face_down = (state.jp_loc == JP_RESERVE) | ((state.jp_loc == JP_MAP) & ~state.jp_rev)
        return face_down & (core.scenario.jp_type == kind)[None, :]
    return who


def _hidden_markers(kind: int):
    def who(core, state, viewer: int) -> np.ndarray:
        face_down = (state.dm_loc == DM_POOL) | (state.dm_loc == DM_CUP) | ((state.dm_loc == DM_UNIT) & ~state.dm_rev)
        return face_down & (core.scenario.dm_kind == kind)[None, :]
    return who


def _letters(core, state, viewer: int) -> np.ndarray:
    if not core.options["variable_letters"]:
        return np.zeros(state.letter_order.shape, np.bool_)
    return state.turn[:, None] < LETTER_TURNS[None, :]


HIDDEN = (
    Anonymous("C", ("us",), hidden_cards, public=("card_pile", "card_pos"), refs=("fire_card",)),
    # the markers first: told apart by where they lie (dm_hex), so that the units' jp_depth holds
    # the markers' canonical numbers when the units are put in order
    *(Anonymous("D", ("us",), _hidden_markers(kind), public=("dm_loc", "dm_rev", "dm_hex"),
                refs=("jp_depth", "jp_ca")) for kind in range(3)),
    *(Anonymous("J", ("us",), _hidden_units(kind),
                public=("jp_loc", "jp_hex", "jp_rev", "jp_dis", "jp_depth", "jp_ca", "jp_from", "jp_acted",
                        "jp_attacked", "jp_barraged", "jp_rot"),
                refs=("cc_jp",)) for kind in range(len(JP_TYPES))),
    Secret("letter_order", ("us",), when=_letters, values=lambda core: np.arange(1, 6, dtype=np.int8),
           pool=lambda core: np.arange(1, 6, dtype=np.int8)),
)
