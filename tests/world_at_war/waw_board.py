"""Small battlefields for World at War rule tests: a 13 x 9 map of clear hexes with the terrain,
obstacles and pieces a test names, US (side 0, home edge south) against Germany (side 1, north);
and positions set up by hand at a decision, with the dice forced (``core.force``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from wargym.world_at_war import actions as act
from wargym.world_at_war.core import WorldAtWarCore
from wargym.world_at_war.state import P_BATTLE_SELECT, P_BATTLE_TARGET, P_MOVE_SELECT, PILE_DECK, PILE_HAND

SIDES = ("us", "germany")


def make_core(tmp_path: Path, units, commanders=(), snipers=(), terrain=None, features=(), objectives=(),
              vp=(6, 6), hand=(4, 4), first="us", air=(None, None), **options) -> WorldAtWarCore:
    """``units``: (side, card, colour, hex[, figures]); ``commanders``/``snipers``: (side, hex);
    ``terrain``: {hex: map letter}; ``features``: (hex, kind); ``objectives``: (hex, points, for)."""
    rows = [["."] * 13 for _ in range(9)]
    for hexnum, letter in (terrain or {}).items():
        rows[int(hexnum[2:]) - 1][int(hexnum[:2]) - 1] = letter
    data = {
        "reconstructed": True, "name": "test", "title": "a test battlefield", "sides": list(SIDES),
        "countries": {"us": "usa", "germany": "germany"}, "first_player": first,
        "hand": dict(zip(SIDES, hand)), "victory_points": dict(zip(SIDES, vp)),
        "air": {side: (None if a is None else {"air_force": a[0], "air_support": a[1]}) for side, a in zip(SIDES, air)},
        "map": {"columns": 13, "rows": 9, "terrain": [" ".join(r) for r in rows],
                "features": [{"hex": h, "kind": k} for h, k in features],
                "objectives": [{"hex": h, "points": p, "name": f"objective {h}", "for": f} for h, p, f in objectives]},
        "units": [dict(side=u[0], card=u[1], colour=u[2], hex=u[3], **({"figures": u[4]} if len(u) > 4 else {}))
                  for u in units],
        "commanders": [{"side": s, "hex": h} for s, h in commanders],
        "snipers": [{"side": s, "hex": h} for s, h in snipers],
    }
    path = tmp_path / "test.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return WorldAtWarCore(str(path), **options)


def hx(core, hexnum: str) -> int:
    return core.scenario.grid.index(int(hexnum))


def label(core, h: int) -> str:
    return core.scenario.grid.label(int(h))


def piece(core, p: int) -> int:
    return core.scenario.num_hexes + act.PIECE_0 + p


def special(core, k: int) -> int:
    return core.scenario.num_hexes + k


def card_named(core, name: str) -> int:
    return core.scenario.card_names.index(name)


def give_hand(state, side: int, cards: list[int], game: int = 0) -> None:
    """Side ``side`` holds exactly ``cards`` (slot order); every other card not in the other hand goes
    to the deck, in card order."""
    pile, pos = state.card_pile[game], state.card_pos[game]
    other = PILE_HAND + 1 - side
    for c in range(len(pile)):
        if pile[c] == PILE_HAND + side or (pile[c] != other and c not in cards):
            pile[c] = PILE_DECK
    for k, c in enumerate(cards):
        pile[c] = PILE_HAND + side
        pos[c] = k
    deck = [c for c in range(len(pile)) if pile[c] == PILE_DECK]
    for k, c in enumerate(deck):
        pos[c] = k
    rest = [c for c in range(len(pile)) if pile[c] == other]
    for k, c in enumerate(sorted(rest, key=lambda c: pos[c])):
        pos[c] = k


def at(core, state, phase: int, active: int = 0, ordered=(), selected: int = -1, game: int = 0):
    """A copy of the state at decision ``phase`` of ``active``'s turn with ``ordered`` pieces; masks
    refreshed."""
    state = state.copy()
    state.phase[game] = phase
    state.active[game] = active
    state.p_ordered[game] = False
    for p in ordered:
        state.p_ordered[game, p] = True
    state.selected[game] = selected
    return core.refresh(state)


def step(core, state, *actions):
    for a in actions:
        state = core.step(state, np.array([a]))
    return state


def legal_hexes(core, state, game: int = 0) -> list[str]:
    H = core.scenario.num_hexes
    return sorted(label(core, h) for h in np.flatnonzero(state.legal_action_mask[game, :H]))


def give_air(state, side: int, pool=(), hand=(), game: int = 0) -> None:
    """Side ``side``'s air force pool is exactly the cards ``pool`` and its air support hand ``hand``
    (card numbers, appendix 2 order: a side's 18 cards, side 0's first); its other cards lie in its
    decks, in card order."""
    for pile, pos, chosen in ((state.af_pile[game], state.af_pos[game], pool), (state.as_pile[game], state.as_pos[game], hand)):
        n = len(pile) // 2
        cards = range(side * n, (side + 1) * n)
        for c in cards:
            pile[c] = 2 * side + 1 if c in chosen else 2 * side
        for p in (2 * side, 2 * side + 1):
            members = [c for c in cards if pile[c] == p]
            if p == 2 * side + 1:
                members = list(chosen)
            for k, c in enumerate(members):
                pos[c] = k


# ------------------------------------------------------------------------------- battles and air
def duel(tmp_path, us=("us_infantry", "0605"), de=("de_infantry", "0604"), de_figures=None, **kw):
    """A US unit (piece 0) ordered to battle a German unit (piece 1)."""
    units = [("us", us[0], "red", us[1]), ("germany", de[0], "red", de[1]) + ((de_figures,) if de_figures else ())]
    core = make_core(tmp_path, units + list(kw.pop("more", ())), **kw)
    state = at(core, core.init(1, seed=1), P_BATTLE_SELECT, ordered=[0])
    return core, state


def attack(core, state, target: str, *forced):
    """Piece 0 battles ``target``; the dice that follow are ``forced``."""
    state = step(core, state, piece(core, 0))
    assert state.phase[0] == P_BATTLE_TARGET
    state = core.force(state, forced)
    return step(core, state, hx(core, target))


AIR_UNITS = [("us", "us_infantry", "red", "0606"), ("germany", "de_infantry", "red", "0604", 5)]


def air_game(tmp_path, us_pool, us_hand, de_pool=(), de_hand=(), more=(), **kw):
    """The US squad (piece 0) ordered, at the end of its moves, with the air cards given (appendix 2:
    ``give_air``), against a German squad of 5 two hexes away."""
    core = make_core(tmp_path, AIR_UNITS + list(more), air=((5, 3), (5, 3)), **kw)
    state = core.init(1, seed=1)
    give_air(state, 0, us_pool, us_hand)
    give_air(state, 1, de_pool, de_hand)
    return core, at(core, state, P_MOVE_SELECT, ordered=[0])
