"""What the U.S. player observes, as arrays (numpy over the batch, from the viewer's view).

``spatial`` float32[N_PLANES, rows, columns]::

    0-9    terrain (one plane per TERRAINS entry)                          static
    10     a landing beach hex; 11 a position hex; 12 its field covers a landing beach (15.2)
    13-18  position colour (one plane per colour)
    19-20  intense / steady dots of any field of fire (printed)
    21     zone A position, 22 zone B, 23 zone C/D; 24 artillery position; 25 coral victory positions A5/A6
    --- dynamic
    26     U.S. units (stacking count / 2); 27 U.S. steps / 8; 28 disrupted U.S. units; 29 U.S. units that
           may still act (not acted, not disrupted); 30 tanks and amtanks; 31 artillery; 32 HQs
           (regimental / infantry, CP doubled); 33 heroes / inspired
    34     a Japanese unit; 35 revealed; 36 disrupted; 37 revealed strength / 8; 38 a depth marker
           (0.5 face down, 1 revealed); 39 tank; 40 counterattack stance
    41     live intense dots (non-disrupted occupied positions); 42 live steady dots
    43     garrison; 44 artillery destroyed; 45 fortification; 46 in Japanese communication (positions)
    47     attacked / barraged this phase; 48 the selected unit's hex (or the assaulting Japanese
           unit's, P_ASSAULT_PICK); 49 the target hex (or the hexes tied for that assault); 50 units
           in the order being declared, or tied for a Japanese hit (P_HIT_PICK); 51 close combat hex
    --- Bloody Nose Ridge (zero in the invasion scenarios)
    52     fortification marker (0.5 face down, 1 revealed); 53-58 impassable hexside N, NE, SE, S, SW, NW
           (19.2); 59 U.S. units with an Action Under Fire marker (count / 2); 60 Attack Orders; 61 cave;
    62     the Japanese zone; 63 a hex in play (18.1)
    --- where the U.S. player is heading (derived from the planes above: nothing hidden)
    64     hexes to the nearest objective: a position (not provisional) held by a Japanese counter or
           by nobody (no U.S. unit, no garrison), / 20, at most 1; 65 the same over the beach-firing
           positions (15.2 goal 1); 66 the fire a unit there is exposed to: every live field of fire
           (41-42) counted, intense 3 and steady 1, / 10
    --- advice (the core's ``advice`` option; zero without it)
    67     the hex the U.S. rule baseline (agents/peleliu_rule.py) would choose at this decision
``global`` float32[N_GLOBAL]: turn, stage, phase, actions left, markers, losses and the level, the
boxes and the turn track, letters available, the fire card's colours and letters, the result; BNR:
Rupertus in command, the flamethrower, the morning's bonus barrages left, the kind of turn; the
advice (zero without the option): a one-hot of the rule baseline's choice among the specials that
are not units (END ... the landing boxes).
Then, per U.S. unit (N_UNIT each, in counters.yaml order): where it is, steps, disruption, acted,
hero, type, in the declared order (or tied for a hit), in close combat, command post, in command, the
rule baseline's choice (the advice: 1 for the unit it would choose; zero without the option), and last (UNIT_PLANE)
its hex on the map as (plane position + 1) / planes, 0 off the map: the pointer from the unit's
actions (UNIT_0 + u) to the map that a hex-pointer policy reads (core.special_hex_inputs).
"""

from __future__ import annotations

import numpy as np

from wargym.jit import njit
from wargym.peleliu.actions import END, NUM_SPECIALS, UNIT_0
from wargym.peleliu.scenario import COLOURS, INTENSE, STEADY, TERRAINS, US_TYPES, Scenario
from wargym.peleliu.state import (
    DIS_NEW, JP_MAP, JP_RESERVE, PHASE_NAMES, STAGE_NAMES, US_BOX, US_ELIM, US_MAP, US_TRACK,
)

N_STATIC = 26
N_PLANES = 68
ADVICE_PLANE = 67
PHASE_AT = 10 + len(STAGE_NAMES)  # where the global vector's one-hot of the decision phase starts
ADVICE_AT = PHASE_AT + len(PHASE_NAMES) + 5 + 24 + 5 + 18 + 6 + 5 + 8  # the advised special (not a unit)
N_SCALARS = ADVICE_AT + NUM_SPECIALS - END
N_UNIT = 5 + 4 + len(US_TYPES) + 6
ADVICE_UNIT = N_UNIT - 2  # a unit block's entry: the rule baseline would choose this unit
UNIT_PLANE = N_UNIT - 1  # a unit block's last entry: where the unit is on the map (module docstring)


def n_global(num_units: int) -> int:
    return N_SCALARS + num_units * N_UNIT


def static_planes(sc: Scenario) -> np.ndarray:
    g = sc.grid
    out = np.zeros((N_STATIC, g.rows, g.columns), np.float32)
    r, c = g.plane_row, g.plane_col
    H = g.size
    for t in range(len(TERRAINS)):
        out[t, r, c] = sc.terrain == t
    out[10, r, c] = sc.beach_box >= 0
    for p, h in enumerate(sc.pos_hex):
        out[11, r[h], c[h]] = 1
        out[12, r[h], c[h]] = sc.pos_beachfire[p]
        out[13 + sc.pos_colour[p], r[h], c[h]] = 1
        z = sc.pos_zone[p]
        if z >= 0:
            out[21 + min(z, 2), r[h], c[h]] = 1
        out[24, r[h], c[h]] = sc.pos_art[p]
        if sc.pos_id[p] in ("A5", "A6"):
            out[25, r[h], c[h]] = 1
    dots = sc.grp_dot.max(axis=0) if sc.grp_dot.size else np.zeros(H)
    out[19, r, c] = dots == INTENSE
    out[20, r, c] = dots == STEADY
    return out


def observe_batch(core, state) -> dict[str, np.ndarray]:
    sc: Scenario = core.scenario
    g = sc.grid
    B = state.batch_size
    H = g.size
    # the dynamic planes in hex order (hex h = column * rows + row), copied into the row-major
    # planes at the end by one transposed view
    dyn = np.zeros((B, N_PLANES - N_STATIC, H), np.float32)
    NU = len(sc.us_names)
    on = state.us_loc == US_MAP
    flat = (np.arange(B)[:, None] * H + np.where(on, state.us_hex, 0))[on]

    def add(plane, values):
        dyn[:, plane - N_STATIC] += np.bincount(flat, np.broadcast_to(values, (B, NU))[on], B * H).reshape(B, H)

    add(26, (sc.us_type != 3) * 0.5)
    add(27, state.us_steps / 8)
    add(28, state.us_dis > 0)
    add(29, (~state.us_acted) & (state.us_dis == 0))
    add(30, np.isin(sc.us_type, (5, 6)))
    add(31, sc.us_type == 7)
    add(32, np.isin(sc.us_type, (2, 3)) * (1 + (state.cp >= 0)))
    add(33, state.hero / 2)
    on_map = state.jp_loc == JP_MAP
    jon = on_map & ~sc.jp_fort[None, :]  # the units proper (fortification markers: plane 52)
    jb, jj = np.nonzero(jon)
    jh = state.jp_hex[jb, jj]
    rev = state.jp_rev[jb, jj]
    dyn[jb, 34 - N_STATIC, jh] = 1
    dyn[jb, 35 - N_STATIC, jh] = rev
    dyn[jb, 36 - N_STATIC, jh] = state.jp_dis[jb, jj]
    dyn[jb, 37 - N_STATIC, jh] = np.where(rev, sc.jp_strength[jj], 0) / 8
    dm = state.jp_depth[jb, jj]
    has = dm >= 0
    dyn[jb, 38 - N_STATIC, jh] = np.where(has, np.where(state.dm_rev[jb, np.maximum(dm, 0)], 1.0, 0.5), 0)
    dyn[jb, 39 - N_STATIC, jh] = sc.jp_tank[jj]
    dyn[jb, 40 - N_STATIC, jh] = state.jp_ca[jb, jj] >= 0
    # live fields of fire: groups with a non-disrupted unit in one of their positions
    mem = sc.grp_members
    fb, ff = np.nonzero(on_map & sc.jp_fort[None, :])
    fh = state.jp_hex[fb, ff]
    if mem.shape[0]:
        live_unit = np.zeros((B, H), np.bool_)
        live_unit[fb, fh] = ~state.jp_dis[fb, ff]  # a marker alone holds its position (18.31)
        live_unit[jb, jh] = ~state.jp_dis[jb, jj]
        live_grp = np.zeros((B, mem.shape[0]), np.bool_)
        for k in range(2):
            ok = mem[:, k] >= 0
            live_grp |= ok[None, :] & live_unit[:, sc.pos_hex[np.maximum(mem[:, k], 0)]]
        live_grp = live_grp.astype(np.float32)
        intense = live_grp @ (sc.grp_dot == INTENSE).astype(np.float32) > 0
        dyn[:, 41 - N_STATIC] = intense
        dyn[:, 42 - N_STATIC] = (live_grp @ (sc.grp_dot == STEADY).astype(np.float32) > 0) & ~intense
        dyn[:, 66 - N_STATIC] = live_grp @ (3.0 * (sc.grp_dot == INTENSE) + (sc.grp_dot == STEADY)).astype(np.float32) / 10
    ph = sc.pos_hex
    objective_planes(sc, state, on, on_map, dyn)
    dyn[:, 43 - N_STATIC, ph] = state.garrison
    dyn[:, 44 - N_STATIC, ph] = state.art_gone
    dyn[:, 45 - N_STATIC, ph] = state.fort
    dyn[:, 46 - N_STATIC, ph] = state.comm
    dyn[jb, 47 - N_STATIC, jh] = state.jp_attacked[jb, jj] | state.jp_barraged[jb, jj]
    games = np.arange(B)
    sel = state.sel.astype(np.int64)
    ok = (sel >= 0) & (sel < NU)
    ok[ok] = state.us_loc[games[ok], sel[ok]] == US_MAP
    dyn[games[ok], 48 - N_STATIC, state.us_hex[games[ok], sel[ok]]] = 1
    for plane, where in ((48, state.tie_from), (49, state.target), (51, state.cc_hex)):
        ok = (where >= 0) & (where < H)
        dyn[games[ok], plane - N_STATIC, where[ok]] = 1
    dyn[:, 49 - N_STATIC] = np.maximum(dyn[:, 49 - N_STATIC], state.tie_hexes)
    add(50, state.att_units | state.tie_units)
    advice = advised_actions(core, state)
    if advice is not None:
        at_hex = (advice >= 0) & (advice < H)
        dyn[games[at_hex], ADVICE_PLANE - N_STATIC, advice[at_hex]] = 1
    if sc.spec.kind == "bnr":
        frev = state.jp_rev[fb, ff]
        dyn[fb, 52 - N_STATIC, fh] = np.where(frev, 1.0, 0.5)
        rot = state.jp_rot[fb, ff].astype(np.int64)
        for d in range(6):
            dyn[fb, 53 + d - N_STATIC, fh] = frev & sc.jp_blocked[ff, (d - rot) % 6]
        add(59, state.us_auf * 0.5)
        dyn[:, 60 - N_STATIC, ph] = state.att_order
        cave = state.cave_hex
        for k in range(cave.shape[1]):
            ok = cave[:, k] >= 0
            dyn[games[ok], 61 - N_STATIC, cave[ok, k]] = 1
        dyn[:, 62 - N_STATIC] = sc.jp_zone & sc.in_play
        dyn[:, 63 - N_STATIC] = sc.in_play
    spatial = np.empty((B, N_PLANES, g.rows, g.columns), np.float32)
    spatial[:, :N_STATIC] = core.static
    spatial[:, N_STATIC:] = dyn.reshape(B, N_PLANES - N_STATIC, g.columns, g.rows).transpose(0, 1, 3, 2)
    # global
    glob = np.zeros((B, N_SCALARS), np.float32)
    turn = state.turn.astype(np.int64)
    bnr = sc.spec.kind == "bnr"
    if bnr:
        level = np.full(B, sc.bnr_catastrophic)
    else:
        level = sc.catastrophic[np.clip(turn, 0, len(sc.catastrophic) - 1)]
    glob[:, 0] = turn / 24
    glob[:, 1] = state.actions_left / 2
    glob[:, 2] = state.naval / 2
    glob[:, 3] = state.dauntless / 2
    glob[:, 4] = state.loss_box / 30
    glob[:, 5] = level / 30
    glob[:, 6] = np.where(level > 0, (level - state.loss_box) / 10, 1)
    glob[:, 7] = state.heroes_placed / 8
    glob[:, 8] = state.ca_done
    glob[:, 9] = turn == 13
    glob[np.arange(B), 10 + state.stage] = 1
    o = PHASE_AT
    glob[np.arange(B), o + np.minimum(state.phase, len(PHASE_NAMES) - 1)] = 1
    o += len(PHASE_NAMES)
    boxed = state.us_loc == US_BOX
    for bx in range(5):
        glob[:, o + bx] = (boxed & (state.us_hex == bx)).sum(axis=1) / 8
    o += 5
    track = state.us_loc == US_TRACK
    for t in range(24):
        glob[:, o + t] = (track & (state.us_track == t + 1)).sum(axis=1) / 8
    o += 24
    for L in range(1, 6):
        glob[:, o + L - 1] = letters_available(core, state, L)
    o += 5
    fc = state.fire_card
    has_card = fc >= 0
    cc = np.maximum(fc, 0)
    for k in range(3):
        col = sc.card_colour[cc, k]
        glob[np.arange(B), o + col] += has_card
        glob[np.arange(B), o + 6 + np.minimum(sc.card_letter[cc, k], 5)] += has_card * (sc.card_letter[cc, k] > 0)
        glob[np.arange(B), o + 12 + k] = has_card * sc.card_star[cc, k]
        glob[np.arange(B), o + 15 + k] = has_card * sc.card_armor[cc, k]
    o += 18
    glob[np.arange(B), o + sc.card_symbol[cc]] = has_card
    glob[:, o + 3] = has_card * sc.card_artillery[cc] / 8
    glob[:, o + 4] = ((state.jp_loc == JP_RESERVE) & ~sc.jp_fort[None, :]).sum(axis=1) / 20
    glob[:, o + 5] = state.result / 4
    o += 6
    glob[:, o] = state.terminated
    o += 5  # then the eight BNR numbers, then the advice at ADVICE_AT (module docstring)
    if bnr:
        glob[:, o] = state.rupertus
        glob[:, o + 1] = state.flame
        glob[:, o + 2] = (state.bonus & 1) == 0
        glob[:, o + 3] = (state.bonus & 2) == 0
        kind = sc.bnr_kind[np.clip(turn, 0, len(sc.bnr_kind) - 1)]
        glob[np.arange(B), o + 4 + kind] = 1
    if advice is not None:
        special = advice - H
        named = special >= END
        glob[games[named], ADVICE_AT + special[named] - END] = 1
    # units
    units = np.zeros((B, NU, N_UNIT), np.float32)
    for k, loc in enumerate((US_TRACK, US_BOX, US_MAP, US_ELIM)):
        units[:, :, k] = state.us_loc == loc
    units[:, :, 4] = state.us_steps / 4
    units[:, :, 5] = state.us_dis > 0
    units[:, :, 6] = state.us_dis == DIS_NEW
    units[:, :, 7] = state.us_acted
    units[:, :, 8] = state.hero / 2
    units[:, np.arange(NU), 9 + sc.us_type] = 1
    units[:, :, 9 + len(US_TYPES)] = state.att_units | state.tie_units
    units[:, :, 10 + len(US_TYPES)] = state.cc_units
    units[:, :, 11 + len(US_TYPES)] = state.cp >= 0
    units[:, :, 12 + len(US_TYPES)] = state.us_cmd
    if advice is not None:
        u = advice - H - UNIT_0
        unit = (u >= 0) & (u < NU)
        units[games[unit], u[unit], ADVICE_UNIT] = 1
    units[:, :, UNIT_PLANE] = np.where(on, g.plane_index[np.where(on, state.us_hex, 0)] + 1, 0) / (g.rows * g.columns)
    return {"spatial": spatial, "global": np.concatenate([glob, units.reshape(B, -1)], axis=1)}


def advised_actions(core, state) -> np.ndarray | None:
    """int64[B]: the action the U.S. rule baseline (agents/peleliu_rule.py) would take in each game
    (-1 where the game is over), with the core's ``advice`` option; None without it.  The rule reads
    only what the U.S. player sees (the contract's leak test runs with the option on)."""
    if not core.options["advice"]:
        return None
    from wargym.agents.peleliu_rule import PeleliuRuleAgent

    return PeleliuRuleAgent().act(core, state, 0)


def objective_planes(sc: Scenario, state, us_on: np.ndarray, jp_on: np.ndarray, dyn: np.ndarray) -> None:
    """Planes 64 and 65 (module docstring): hexes to the nearest position not held by the U.S., all
    of them and the beach-firing ones."""
    B, H = state.batch_size, sc.grid.size
    jp_hex = np.zeros((B, H), np.bool_)
    b, j = np.nonzero(jp_on)
    jp_hex[b, state.jp_hex[b, j]] = True
    us_hex = np.zeros((B, H), np.bool_)
    b, u = np.nonzero(us_on)
    us_hex[b, state.us_hex[b, u]] = True
    ph = sc.pos_hex
    objective = ~sc.pos_prov[None, :] & (jp_hex[:, ph] | ~(us_hex[:, ph] | state.garrison))
    order, near = nearest_positions(sc)
    for plane, among in ((64, objective), (65, objective & sc.pos_beachfire[None, :])):
        nearest_among(order, near, among, OBJECTIVE_CAP, dyn[:, plane - N_STATIC])


OBJECTIVE_CAP = 20  # planes 64-65: hexes counted up to this many


def nearest_positions(sc: Scenario) -> tuple[np.ndarray, np.ndarray]:
    """For each hex, the positions by distance (int32[H, P]) and those distances, computed once."""
    cached = getattr(sc, "_nearest_positions", None)
    if cached is None:
        to_pos = sc.grid.distance[:, sc.pos_hex]
        order = np.argsort(to_pos, axis=1, kind="stable").astype(np.int32)
        cached = (order, np.take_along_axis(to_pos, order, axis=1).astype(np.int32))
        object.__setattr__(sc, "_nearest_positions", cached)  # a frozen dataclass: a derived table
    return cached


@njit(cache=True)
def nearest_among(order, near, among, cap, out):
    """out[b, h] = min(hexes from h to the nearest position p with among[b, p], cap) / cap: the
    positions scanned nearest first, so the scan stops at the first one that counts."""
    for b in range(among.shape[0]):
        for h in range(order.shape[0]):
            d = cap
            for k in range(order.shape[1]):
                if near[h, k] >= cap:
                    break
                if among[b, order[h, k]]:
                    d = near[h, k]
                    break
            out[b, h] = d / cap


def letters_available(core, state, L: int) -> np.ndarray:
    sc = core.scenario
    turn = state.turn
    if core.options["variable_letters"]:
        out = np.zeros(state.batch_size, np.bool_)
        for k, t in enumerate((3, 5, 7, 9, 11)):
            out |= (state.letter_order[:, k] == L) & (turn >= t)
        return out
    return turn >= sc.letter_turn[L]


assert len(COLOURS) == 6
