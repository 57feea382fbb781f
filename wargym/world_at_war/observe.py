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

    0 .. 29            phase one-hot (state.PHASE_NAMES, all 30)
    30, 31             viewer is the active side; viewer decides now
    32, 33             own / enemy victory points (objectives held included) / quota
    34, 35             own / enemy quota / 10
    36                 player turns / 100
    37 .. 146          own hand, slot by slot (10 slots): colour one-hot (3), action one-hot (7,
                       scenario.ACTIONS), units it orders / 4
    147 .. 157         the card being played, the same eleven; 158 orders left / 4
    159, 160           enemy hand size / 10; draw deck size / cards
    161 .. 168         discards: standard cards by colour (3) and special cards by action (5) / 10
    169 .. 177         the last throw: dice by symbol / 12 (scenario.SYMBOLS)
    178, 179, 180      last casualties / 8, flags / 4, retreat hexes / 4
    181, 182, 183      hits on the vehicle; voluntary retreat; a breakthrough's second battle
    184 .. 194         air (appendix 2): own pool's fighters / 8, fighter-bombers / 8, blanks / 2;
                       the enemy pool's size / 5; own and enemy air support hands / 6; the air
                       combat's stage / 4; the viewer's dogfight turn; free shots; own and enemy
                       point for an uncountered air attack scored
    195 .. 206         own air support hand, 6 slots: fighter-bombers / 3, fighters / 3
    207 .. 216         own hand, slot by slot: the pieces the card could order now, at most its
                       count, / 4 (sequence.hand_orders; 0 while the enemy is the active side)
    217 + 3p ..        piece p: (plane position + 1) / cells or 0 when gone, own, alive
"""

from __future__ import annotations

import numpy as np

from wargym.world_at_war.actions import MAX_HAND
from wargym.world_at_war.scenario import ACTIONS, COLOURS, FEATURES, KINDS, SYMBOLS, TERRAINS
from wargym.world_at_war.sequence import hand_orders
from wargym.world_at_war.state import PHASE_NAMES, PILE_DECK, PILE_DISCARD, PILE_HAND, StateArg

N_TERRAIN, N_FEATURES, N_KINDS = len(TERRAINS), len(FEATURES), len(KINDS)
PIECE_PLANES = 21
OWN, ENEMY = 22, 43
SELECTED, TARGET, RETREATING, LEGAL = 64, 65, 66, 67
PLANE_0 = 68
LIT = 72
N_PLANES = 73
SLOT = len(COLOURS) + len(ACTIONS) + 1
N_PHASES = len(PHASE_NAMES)
G_SIDE = N_PHASES          # viewer active, deciding, victory points, quotas, turns
HAND_0 = G_SIDE + 7
PLAYED = HAND_0 + MAX_HAND * SLOT
G_DISCARD = PLAYED + SLOT + 3
G_THROW = G_DISCARD + 8
G_AIR = G_THROW + len(SYMBOLS) + 6
AIR_SLOTS = 6
G_ORDERS = G_AIR + 11 + 2 * AIR_SLOTS
G_PIECES = G_ORDERS + MAX_HAND


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


def _card_code(sc, cards: np.ndarray) -> np.ndarray:
    """Eleven numbers per card of cards[B, K] (-1: zeros): colour one-hot, action one-hot, order / 4."""
    out = np.zeros(cards.shape + (SLOT,), dtype=np.float32)
    gi, ki = np.nonzero(cards >= 0)
    c = cards[gi, ki]
    colour = sc.card_colour[c]
    coloured = colour >= 0
    out[gi[coloured], ki[coloured], colour[coloured]] = 1.0
    out[gi, ki, len(COLOURS) + sc.card_action[c]] = 1.0
    out[gi, ki, SLOT - 1] = sc.card_order[c] / 4.0
    return out


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
    # pieces: every (game, piece) on the map at once
    u = sc.units
    gi, pi = np.nonzero(state.p_hex >= 0)
    h = state.p_hex[gi, pi]
    rr, cc = r[h], c[h]
    base = np.where(sc.piece_side[pi] == player, OWN, ENEMY)
    card = sc.piece_card[pi]
    for k, value in ((0, 1.0), (1, state.p_figures[gi, pi] / 8.0), (2, state.p_vehicles[gi, pi] / 2.0),
                     (3, state.p_mounted[gi, pi]), (15, state.p_ordered[gi, pi]), (16, state.p_moved[gi, pi]),
                     (17, state.p_battled[gi, pi]), (18, state.p_leader[gi, pi] >= 0),
                     (19, u.target[card] / 3.0), (20, state.p_cc[gi, pi] >= 0)):
        spatial[gi, base + k, rr, cc] = value
    spatial[gi, base + 4 + u.kind[card], rr, cc] = 1.0
    colour = sc.piece_colour[pi]
    coloured = colour >= 0
    spatial[gi[coloured], (base + 12 + colour)[coloured], rr[coloured], cc[coloured]] = 1.0
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
    gl[:, G_SIDE] = state.active == player
    gl[:, G_SIDE + 1] = deciding
    points = core.victory_points(state)
    gl[:, G_SIDE + 2] = points[:, player] / sc.vp_quota[player]
    gl[:, G_SIDE + 3] = points[:, enemy] / sc.vp_quota[enemy]
    gl[:, G_SIDE + 4] = sc.vp_quota[player] / 10.0
    gl[:, G_SIDE + 5] = sc.vp_quota[enemy] / 10.0
    gl[:, G_SIDE + 6] = state.turn / 100.0
    in_hand = state.card_pile == PILE_HAND + player
    slots = np.full((B, MAX_HAND), -1, dtype=np.int64)
    gi, ci = np.nonzero(in_hand)
    pos = state.card_pos[gi, ci]
    keep = pos < MAX_HAND
    slots[gi[keep], pos[keep]] = ci[keep]
    gl[:, HAND_0:PLAYED] = _card_code(sc, slots).reshape(B, MAX_HAND * SLOT)
    gl[:, PLAYED:PLAYED + SLOT] = _card_code(sc, state.card.astype(np.int64)[:, None])[:, 0]
    orders = np.zeros((B, MAX_HAND), dtype=np.int64)
    hand_orders(core.tables, StateArg.of(state), player, orders)
    gl[:, G_ORDERS:G_ORDERS + MAX_HAND] = orders / 4.0
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


__all__ = ["observe_batch", "static_planes", "n_global", "N_PLANES", "N_PHASES", "G_ORDERS", "G_PIECES"]
