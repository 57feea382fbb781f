"""The World at War invariants no single field states (the fuzz test and ``from_dict`` check them).

* air cards (appendix 2): the same for the air force and air support cards, each side's in its own
  deck, pool or hand (or lost, played, used, out);
* cards: every card in one pile, places 0..n-1 in each (wargym.cards.check_deck); each side holds
  its scenario hand, the side playing a card one fewer ("6. Draw a command card" refills it); the
  card being played lies on the played pile, alone;
* pieces: eliminated exactly when no figures are left; figures within the card's; vehicles only
  for motorized and mechanized infantry; nobody mounted without vehicles;
* stacking ("Moving units", "Moving commanders or snipers"): at most one unit a hex, at most one
  commander or sniper a hex, never pieces of both sides in one hex, nobody on a river hex;
* platoons: a unit's controlling commander is a commander of its side, alive, in or next to its
  hex, controlling at most two units;
* combat commands: a member's commander is a living commander of its side commanding one, with
  four units at most; a piece moving with its command this turn (``p_cc_move``) is ordered, in
  one, at the speed its commander moves at;
* victory points never more than the enemy pieces destroyed (and the point for an air attack
  nobody could counter, appendix 2);
* the end (``check_end``): a game is over exactly when it has a winner and stands in "game over",
  with the rewards the rules give the winner (sequence.finish); the winner holds its quota of victory points (with
  the objectives its units hold); a turn begins (a card to play or discard) only with both sides
  below their quotas (the end of the turn before checks them).
"""

from __future__ import annotations

import numpy as np

from wargym.cards import check_deck
from wargym.core import end_marks
from wargym.world_at_war.scenario import ENTER_NONE, K_COMMANDER, K_SNIPER, MECHANIZED, MOTORIZED
from wargym.world_at_war.sequence import finish, scores
from wargym.world_at_war.state import N_AF_PILES, N_AS_PILES, N_PILES, P_CARD, P_DISCARD, P_OVER, PILE_HAND, PILE_PLAYED


def check(core, state) -> list[str]:
    sc = core.scenario
    errors = [f"field card_pile: {e}" for e in check_deck(state.card_pile, state.card_pos, N_PILES)]
    errors += [f"field af_pile: {e}" for e in check_deck(state.af_pile, state.af_pos, N_AF_PILES)]
    errors += [f"field as_pile: {e}" for e in check_deck(state.as_pile, state.as_pos, N_AS_PILES)]
    side_of = np.arange(state.af_pile.shape[1]) // (state.af_pile.shape[1] // 2)
    for name, pile in (("af_pile", state.af_pile), ("as_pile", state.as_pile)):
        own = (pile < 4) & ((pile // 2) != side_of[None, :])
        for g in np.flatnonzero(own.any(axis=1))[:2]:
            errors.append(f"field {name}: game {g} holds a side's air card in the other side's deck or pool")
    kind = sc.units.kind[sc.piece_card]
    leader = (kind == K_COMMANDER) | (kind == K_SNIPER)
    transport = sc.units.transport[sc.piece_card]
    carries = (transport == MOTORIZED) | (transport == MECHANIZED)
    max_figures = sc.units.figures[sc.piece_card]
    dist = sc.grid.distance
    for g in range(state.batch_size):
        playing = int(state.card[g] >= 0)
        for s in range(2):
            n = int((state.card_pile[g] == PILE_HAND + s).sum())
            want = int(sc.hand[s]) - (playing if s == state.active[g] else 0)
            if n != want:
                errors.append(f"field card_pile: game {g}: {sc.sides[s]} holds {n} cards, the scenario's hand is "
                              f"{int(sc.hand[s])}" + (", one of them in play" if want < sc.hand[s] else ""))
        if int((state.card_pile[g] == PILE_PLAYED).sum()) != playing:
            errors.append(f"field card_pile: game {g} has {int((state.card_pile[g] == PILE_PLAYED).sum())} cards on "
                          f"the played pile, {playing} being played")
        if state.card[g] >= 0 and state.card_pile[g, state.card[g]] != PILE_PLAYED:
            errors.append(f"field card: game {g}: card {int(state.card[g])} is being played but lies in pile "
                          f"{int(state.card_pile[g, state.card[g]])}")
        hexes = state.p_hex[g]
        figures = state.p_figures[g]
        gone = hexes < 0
        if (gone != (figures == 0)).any():
            p = int(np.flatnonzero(gone != (figures == 0))[0])
            errors.append(f"field p_figures: game {g}: piece {p} at hex {int(hexes[p])} with {int(figures[p])} figures")
        if (figures > max_figures).any():
            p = int(np.flatnonzero(figures > max_figures)[0])
            errors.append(f"field p_figures: game {g}: piece {p} has {int(figures[p])} figures, its card {int(max_figures[p])}")
        if ((state.p_vehicles[g] > 0) & ~carries).any() or (state.p_mounted[g] & (state.p_vehicles[g] == 0)).any():
            errors.append(f"field p_vehicles: game {g}: vehicles or mounting on a unit without vehicles")
        for h in np.unique(hexes[~gone]):
            here = np.flatnonzero(hexes == h)
            units = here[~leader[here]]
            leaders = here[leader[here]]
            if len(units) > 1 or len(leaders) > 1:
                errors.append(f"field p_hex: game {g}: hex {sc.grid.label(int(h))} holds pieces {here.tolist()}")
            if len(set(sc.piece_side[here].tolist())) > 1:
                errors.append(f"field p_hex: game {g}: both sides in hex {sc.grid.label(int(h))}")
            if sc.enter[h] == ENTER_NONE:
                errors.append(f"field p_hex: game {g}: pieces {here.tolist()} on the river hex {sc.grid.label(int(h))}")
        for u in np.flatnonzero(state.p_leader[g] >= 0):
            c = int(state.p_leader[g, u])
            if (kind[c] != K_COMMANDER or sc.piece_side[c] != sc.piece_side[u] or hexes[c] < 0 or hexes[u] < 0
                    or dist[hexes[c], hexes[u]] > 1):
                errors.append(f"field p_leader: game {g}: unit {int(u)} controlled by piece {c}, not a commander of its side next to it")
        for c in np.flatnonzero(kind == K_COMMANDER):
            if int((state.p_leader[g] == c).sum()) > 2:
                errors.append(f"field p_leader: game {g}: commander {int(c)} controls more than two units")
        for u in np.flatnonzero(state.p_cc[g] >= 0):
            c = int(state.p_cc[g, u])
            if kind[c] != K_COMMANDER or state.p_cc[g, c] != c or sc.piece_side[c] != sc.piece_side[u] or hexes[u] < 0:
                errors.append(f"field p_cc: game {g}: piece {int(u)} in the combat command of piece {c}, not a commander of one")
        for c in np.flatnonzero((kind == K_COMMANDER) & (state.p_cc[g] >= 0)):
            members = int((state.p_cc[g] == c).sum()) - 1
            if members > 4:
                errors.append(f"field p_cc: game {g}: the combat command of {int(c)} has {members} units (4 at most)")
        moving = np.flatnonzero(state.p_cc_move[g] >= 0)
        for u in moving:   # moving with a combat command: ordered with it this turn, its commander too
            c = int(state.p_cc[g, u])
            if c < 0 or not state.p_ordered[g, u] or state.p_cc_move[g, c] != state.p_cc_move[g, u]:
                errors.append(f"field p_cc_move: game {g}: piece {int(u)} moves with a combat command at "
                              f"{int(state.p_cc_move[g, u])}, but is not ordered with one at that speed")
        for s in range(2):
            destroyed = int((gone & (sc.piece_side == 1 - s)).sum()) + int(state.air_vp[g, s])
            if state.vp[g, s] > destroyed:
                errors.append(f"field vp: game {g}: {sc.sides[s]} has {int(state.vp[g, s])} points for {destroyed} pieces destroyed")
    return errors or check_end(core, state)


def check_end(core, state) -> list[str]:
    """Whether each game is over agrees with its position (module docstring).  The rules end a
    game the moment a side reaches its quota, the active side first when both do; which side
    reached it first cannot be read from a position where both stand at their quotas, so there
    the winner is only checked to be a side that did."""
    sc = core.scenario
    over = state.terminated
    winner = state.winner.astype(np.int64)
    errors = end_marks(state, P_OVER, winner=winner >= 0)
    if errors:
        return errors
    probe, S = core.reopened(state)
    T = core.tables
    points = np.zeros(2, np.int64)
    starting = np.isin(state.phase, (P_CARD, P_DISCARD)) & ~state.truncated
    for g in np.flatnonzero(over | starting):
        scores(T, S, g, points)
        if over[g]:
            finish(S, g, winner[g])   # the rewards the rules give the winner
        if over[g] and not np.array_equal(probe.rewards[g], state.rewards[g]):
            errors.append(f"field rewards: game {g} was won by {sc.sides[winner[g]]} with rewards "
                          f"{state.rewards[g].tolist()}, the rules give {probe.rewards[g].tolist()}")
        elif over[g] and points[winner[g]] < sc.vp_quota[winner[g]]:
            errors.append(f"field winner: game {g} was won by {sc.sides[winner[g]]} with {int(points[winner[g]])} "
                          f"victory points, below its quota of {int(sc.vp_quota[winner[g]])}")
        elif not over[g] and (points >= sc.vp_quota).any():
            s = int(np.argmax(points >= sc.vp_quota))
            errors.append(f"field terminated: game {g} runs on into a turn with {sc.sides[s]} at {int(points[s])} "
                          f"victory points, its quota {int(sc.vp_quota[s])}: the game ends there")
        if errors:
            break
    return errors
