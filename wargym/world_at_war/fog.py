"""Who sees what, declared once (wargym.hidden): "The information on the cards is only revealed when
they are played", so each side may not know

* which command cards the other side holds (it sees how many), nor the order of the draw deck;
* appendix 2: which air force cards (fighter, fighter-bomber, blank) the other side picked "blind"
  into its pool, nor the order of either air force deck (a card given up for a plane shot down is
  shown); which air support cards the other side holds, nor the order of the air support decks
  (a card played is shown).

Everything on the battlefield is in plain view (the book has no hidden units), and so are the card
being played and the discards.  The players are the scenario's sides, so the declaration is built
per core (``hidden_for``).
"""

from __future__ import annotations

import numpy as np

from wargym.hidden import Anonymous
from wargym.world_at_war.state import PILE_DECK, PILE_HAND


def _unseen_cards(side: int):
    def who(core, state, viewer: int) -> np.ndarray:
        pile = state.card_pile
        return (pile == PILE_DECK) | (pile == PILE_HAND + (1 - side))
    return who


def _unseen_air(field: str, side: int, owner: int):
    """Air cards of side ``owner`` that side ``side`` may not identify: the owner's deck (pile
    2 * owner) and, the other side's, its pool or hand (pile 2 * owner + 1).  A side's cards are
    its own, so each side's are anonymous among themselves (a determinization deals them back
    within the side)."""
    def who(core, state, viewer: int) -> np.ndarray:
        pile = getattr(state, field)
        return (pile == 2 * owner) | ((pile == 2 * owner + 1) if owner != side else False)
    return who


def hidden_for(players: tuple[str, str]) -> tuple[Anonymous, ...]:
    """Side s does not know the decks' order nor which cards the other side holds: the cards there
    are anonymous to it (where each lies is public: which pile, its place)."""
    out = []
    for s in range(2):
        out.append(Anonymous("C", (players[s],), _unseen_cards(s), public=("card_pile", "card_pos"), refs=("card",)))
        for owner in range(2):
            out.append(Anonymous("AF", (players[s],), _unseen_air("af_pile", s, owner), public=("af_pile", "af_pos")))
            out.append(Anonymous("AS", (players[s],), _unseen_air("as_pile", s, owner), public=("as_pile", "as_pos")))
    return tuple(out)
