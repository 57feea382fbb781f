"""What a player sees: spatial planes over the hex map plus a global vector.

Hidden from a player: the cards in the other side's hand and the order of the draw deck (fog.py);
everything on the battlefield is in plain view, and so are played and discarded cards.  Planes are
C x rows x columns, hex XXYY at [YY-1, XX-1]; "own" and "enemy" are from the viewer's side:

    plane              value
    -----------------  ---------------------------------------------------------------------
    0 .. 11            terrain one-hot (scenario.TERRAINS)
    12 .. 17           obstacles now on the hex (scenario.FEATURES)
    18                 elevation (hills)
    19, 20, 21         objective: points / 5; scored by me; scored by the enemy
    22 .. 42           own pieces: present, figures / 8, vehicles / 2, mounted, kind one-hot (8,
                       scenario.KINDS), colour one-hot (3), ordered, moved, battled, under a
                       commander's control, target kind / 3 (what scores on it), in a combat command
    43 .. 63           enemy pieces: the same twenty-one
    64, 65, 66         the piece selected; the hex battled; the unit retreating
    67                 legal hex actions of the viewer (0 when it is not the viewer's decision)
    68 .. 71           planes in the air: own fighter, own fighter-bomber, enemy fighter, enemy FB
    72                 night games: lit by a flare this turn

Global vector::

    0 .. 16            phase one-hot (state.PHASE_NAMES)
    17, 18             viewer is the active side; viewer decides now
    19, 20             own / enemy victory points (objectives held included) / quota
    21, 22             own / enemy quota / 10
    23                 player turns / 100
    24 .. 133          own hand, slot by slot (10 slots): colour one-hot (3), action one-hot (7,
                       scenario.ACTIONS), units it orders / 4
    134 .. 144         the card being played, the same eleven; 145 orders left / 4
    146, 147           enemy hand size / 10; draw deck size / cards
    148 .. 155         discards: standard cards by colour (3) and special cards by action (5) / 10
    156 .. 164         the last throw: dice by symbol / 12 (scenario.SYMBOLS)
    165, 166, 167      last casualties / 8, flags / 4, retreat hexes / 4
    168, 169, 170      hits on the vehicle; voluntary retreat; a breakthrough's second battle
    171 .. 181         air (appendix 2): own pool's fighters / 8, fighter-bombers / 8, blanks / 2;
                       the enemy pool's size / 5; own and enemy air support hands / 6; the air
                       combat's stage / 4; the viewer's dogfight turn; free shots; own and enemy
                       point for an uncountered air attack scored
    182 .. 193         own air support hand, 6 slots: fighter-bombers / 3, fighters / 3
    194 + 3p ..        piece p: (plane position + 1) / cells or 0 when gone, own, alive
"""

from __future__ import annotations

import numpy as np

from wargym.world_at_war.scenario import ACTIONS, COLOURS, FEATURES, KINDS, SYMBOLS, TERRAINS
from wargym.world_at_war.state import PILE_DECK, PILE_DISCARD, PILE_HAND

N_TERRAIN, N_FEATURES, N_KINDS = len(TERRAINS), len(FEATURES), len(KINDS)
PIECE_PLANES = 21
OWN, ENEMY = 22, 43
SELECTED, TARGET, RETREATING, LEGAL = 64, 65, 66, 67
PLANE_0 = 68
LIT = 72
N_PLANES = 73
SLOT = len(COLOURS) + len(ACTIONS) + 1
HAND_0 = 24
PLAYED = HAND_0 + 10 * SLOT
G_DISCARD = PLAYED + SLOT + 3
G_THROW = G_DISCARD + 8
G_AIR = G_THROW + len(SYMBOLS) + 6
AIR_SLOTS = 6
G_PIECES = G_AIR + 11 + 2 * AIR_SLOTS


def n_global(num_pieces: int) -> int:
    return G_PIECES + 3 * num_pieces


def static_planes(sc) -> np.ndarray:
    g = sc.grid
    planes = np.zeros((N_PLANES, g.rows, g.columns), dtype=np.float32)
    r, c = g.plane_row, g.plane_col
    planes[sc.terrain, r, c] = 1.0
    planes[18, r, c] = sc.elevation
    for o, h in enumerate(sc.objective_hex):
        planes[19, r[h], c[h]] = sc.objective_points[o] / 5.0
    return planes


def _card_code(sc, cards: np.ndarray, out: np.ndarray) -> None:
    """Eleven numbers per card (-1: zeros): colour one-hot, action one-hot, order / 4."""
    ok = cards >= 0
    c = np.where(ok, cards, 0)
    colour = sc.card_colour[c]
    rows = np.nonzero(ok & (colour >= 0))[0]
    out[rows, colour[rows]] = 1.0
    rows = np.nonzero(ok)[0]
    out[rows, len(COLOURS) + sc.card_action[c[rows]]] = 1.0
    out[rows, SLOT - 1] = sc.card_order[c[rows]] / 4.0


def observe_batch(core, state, player: int) -> dict[str, np.ndarray]:
    sc = core.scenario
    grid = sc.grid
    B, H = state.batch_size, grid.size
    r, c = grid.plane_row, grid.plane_col
    spatial = np.repeat(core.static[None], B, axis=0)
    gl = np.zeros((B, n_global(len(sc.piece_side))), dtype=np.float32)
    games = np.arange(B)
    enemy = 1 - player
    # obstacles
    for f in range(N_FEATURES):
        has = (state.features >> f) & 1
        spatial[:, N_TERRAIN + f][:, r, c] = has
    mine = (sc.objective_for == player) | (sc.objective_for == 2)
    theirs = (sc.objective_for == enemy) | (sc.objective_for == 2)
    spatial[:, 20, r[sc.objective_hex], c[sc.objective_hex]] = mine
    spatial[:, 21, r[sc.objective_hex], c[sc.objective_hex]] = theirs
    # pieces
    u = sc.units
    for p in range(len(sc.piece_side)):
        h = state.p_hex[:, p]
        on = np.nonzero(h >= 0)[0]
        if len(on) == 0:
            continue
        base = OWN if sc.piece_side[p] == player else ENEMY
        card = sc.piece_card[p]
        rr, cc = r[h[on]], c[h[on]]
        spatial[on, base, rr, cc] = 1.0
        spatial[on, base + 1, rr, cc] = state.p_figures[on, p] / 8.0
        spatial[on, base + 2, rr, cc] = state.p_vehicles[on, p] / 2.0
        spatial[on, base + 3, rr, cc] = state.p_mounted[on, p]
        spatial[on, base + 4 + u.kind[card], rr, cc] = 1.0
        if sc.piece_colour[p] >= 0:
            spatial[on, base + 12 + sc.piece_colour[p], rr, cc] = 1.0
        spatial[on, base + 15, rr, cc] = state.p_ordered[on, p]
        spatial[on, base + 16, rr, cc] = state.p_moved[on, p]
        spatial[on, base + 17, rr, cc] = state.p_battled[on, p]
        spatial[on, base + 18, rr, cc] = state.p_leader[on, p] >= 0
        spatial[on, base + 19, rr, cc] = u.target[card] / 3.0
        spatial[on, base + 20, rr, cc] = state.p_cc[on, p] >= 0
    for plane, field in ((TARGET, state.target_hex),):
        on = np.nonzero(field >= 0)[0]
        spatial[on, plane, r[field[on]], c[field[on]]] = 1.0
    for plane, piece in ((SELECTED, state.selected), (RETREATING, state.rt_piece)):
        on = np.nonzero(piece >= 0)[0]
        h = state.p_hex[on, piece[on]]
        ok = h >= 0
        spatial[on[ok], plane, r[h[ok]], c[h[ok]]] = 1.0
    deciding = (state.current_player == player) & ~(state.terminated | state.truncated)
    legal = state.legal_action_mask[:, :H] & deciding[:, None]
    spatial[:, LEGAL][:, r, c] = legal
    # global
    gl[games, state.phase] = 1.0
    gl[:, 17] = state.active == player
    gl[:, 18] = deciding
    points = core.victory_points(state)
    gl[:, 19] = points[:, player] / sc.vp_quota[player]
    gl[:, 20] = points[:, enemy] / sc.vp_quota[enemy]
    gl[:, 21] = sc.vp_quota[player] / 10.0
    gl[:, 22] = sc.vp_quota[enemy] / 10.0
    gl[:, 23] = state.turn / 100.0
    in_hand = state.card_pile == PILE_HAND + player
    slots = np.full((B, 10), -1, dtype=np.int64)
    gi, ci = np.nonzero(in_hand)
    pos = state.card_pos[gi, ci]
    keep = pos < 10
    slots[gi[keep], pos[keep]] = ci[keep]
    for k in range(10):
        _card_code(sc, slots[:, k], gl[:, HAND_0 + k * SLOT:HAND_0 + (k + 1) * SLOT])
    _card_code(sc, state.card.astype(np.int64), gl[:, PLAYED:PLAYED + SLOT])
    gl[:, PLAYED + SLOT] = state.order_left / 4.0
    gl[:, PLAYED + SLOT + 1] = (state.card_pile == PILE_HAND + enemy).sum(1) / 10.0
    gl[:, PLAYED + SLOT + 2] = (state.card_pile == PILE_DECK).sum(1) / len(sc.card_action)
    discard = state.card_pile == PILE_DISCARD
    for k in range(len(COLOURS)):
        gl[:, G_DISCARD + k] = (discard & (sc.card_colour == k)).sum(1) / 10.0
    for k in range(1, 6):
        gl[:, G_DISCARD + 2 + k] = (discard & (sc.card_action == k)).sum(1) / 10.0
    for s in range(len(SYMBOLS)):
        gl[:, G_THROW + s] = (state.last_throw == s).sum(1) / 12.0
    t = G_THROW + len(SYMBOLS)
    gl[:, t] = state.last_kills / 8.0
    gl[:, t + 1] = state.last_flags / 4.0
    gl[:, t + 2] = state.last_retreat / 4.0
    gl[:, t + 3] = state.bt_vehicle
    gl[:, t + 4] = state.rt_voluntary
    gl[:, t + 5] = state.second
    # air
    own_pool = (state.af_pile == 2 * player + 1)
    gl[:, G_AIR] = (own_pool & (sc.af_kind == 1)).sum(1) / 8.0
    gl[:, G_AIR + 1] = (own_pool & (sc.af_kind == 2)).sum(1) / 8.0
    gl[:, G_AIR + 2] = (own_pool & (sc.af_kind == 0)).sum(1) / 2.0
    gl[:, G_AIR + 3] = (state.af_pile == 2 * enemy + 1).sum(1) / 5.0
    gl[:, G_AIR + 4] = (state.as_pile == 2 * player + 1).sum(1) / 6.0
    gl[:, G_AIR + 5] = (state.as_pile == 2 * enemy + 1).sum(1) / 6.0
    gl[:, G_AIR + 6] = state.air_stage / 4.0
    gl[:, G_AIR + 7] = (state.air_stage > 0) & (state.air_turn == player)
    gl[:, G_AIR + 8] = state.air_free
    gl[:, G_AIR + 9] = state.air_vp[:, player]
    gl[:, G_AIR + 10] = state.air_vp[:, enemy]
    gi, ci = np.nonzero(state.as_pile == 2 * player + 1)
    pos = state.as_pos[gi, ci]
    keep = pos < AIR_SLOTS
    gl[gi[keep], G_AIR + 11 + 2 * pos[keep]] = sc.as_planes[ci[keep], 0] / 3.0
    gl[gi[keep], G_AIR + 12 + 2 * pos[keep]] = sc.as_planes[ci[keep], 1] / 3.0
    spatial[:, LIT][:, r, c] = state.lit
    flying = (state.pl_state == 2) | (state.pl_state == 3)
    for k in range(state.pl_state.shape[1]):
        on = np.nonzero(flying[:, k] & (state.pl_hex[:, k] >= 0))[0]
        if len(on) == 0:
            continue
        h = state.pl_hex[on, k]
        plane = PLANE_0 + 2 * (state.pl_side[on, k] != player) + (state.pl_kind[on, k] - 1)
        spatial[on, plane, r[h], c[h]] = 1.0
    cells = float(grid.rows * grid.columns)
    for p in range(len(sc.piece_side)):
        h = state.p_hex[:, p]
        on = h >= 0
        gl[:, G_PIECES + 3 * p] = np.where(on, (grid.plane_index[np.maximum(h, 0)] + 1) / cells, 0.0)
        gl[:, G_PIECES + 3 * p + 1] = float(sc.piece_side[p] == player)
        gl[:, G_PIECES + 3 * p + 2] = on
    return {"spatial": spatial, "global": gl}


__all__ = ["observe_batch", "static_planes", "n_global", "N_PLANES", "G_PIECES"]
