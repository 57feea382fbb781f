"""Who sees what, declared once (wargym.hidden): "The information on the cards is only revealed when
they are played", so each side may not know

* which command cards the other side holds (it sees how many), nor
* the order of the draw deck.

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


def hidden_for(players: tuple[str, str]) -> tuple[Anonymous, ...]:
    """Side s does not know the deck's order nor which cards the other side holds: the cards there
    are anonymous to it (where each lies is public: which pile, its place)."""
    return tuple(Anonymous("C", (players[s],), _unseen_cards(s), public=("card_pile", "card_pos"), refs=("card",))
                 for s in range(2))
