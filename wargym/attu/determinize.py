"""Determinization for the U.S. (``AttuCore._complete_sample``; wargym.hidden.sample).

``hidden.sample`` deals the counters the U.S. cannot tell apart (fog.HIDDEN's ``Anonymous``) back
to their places by one uniform permutation, from the U.S. view alone.  In that view every hidden
counter off the map stands in the cup with one step (``seen_as``), and a uniform permutation of
all of them would put Infantry face down on the map, guns in the cup and Unknowns anywhere.  This
module deals them again by what the rules make certain, and uniformly among the rest (README
"What the U.S. remembers", the interpretations listed there):

* a counter is an Unknown (``UNK``), an Infantry unit (``INF``) or a gun (``GUN``); counters of
  one kind are dealt among the places of that kind by a uniform permutation (their tables and
  ratings are what the U.S. cannot see);
* the places: face down on the map (pinned by 13.2.1: an Unknown; with a Melee declared, 8.2: no
  gun), off the map (shown in the cup: an Unknown or an Infantry unit in the cup, a gun in the
  eliminated pile: guns never go to the cup), taken off the map by the hits now being placed
  (8.5: the one Unknown of a Ranged attack melted into the cup, any other counter eliminated),
  not yet placed at the set-up (Unknowns and guns: 12.4 places the Unknowns first, then the
  guns; 13.2.1 draws only Unknowns);
* what the U.S. remembers settles most of it: every Infantry unit comes onto the map face up
  (2.5) and every gun is set up in its sight (12.3, 12.4, 13.2.1), so a counter it cannot tell
  apart on the map is an Unknown, and one off the map is in the cup (Unknowns and Infantry are
  put back there, 2.5, 8.5, 9.6).  A position that memory cannot explain (one laid out by hand,
  a record written before ``us_knows``) is dealt with as few counters outside that as its view
  allows: each Infantry unit face down on the map and each counter in the eliminated pile counts
  one, and the deals of least count are drawn uniformly (each deal of counters to places alike);
* the eliminated pile holds no more counters the U.S. cannot tell apart than were taken off the
  map unseen (``jp_removed`` less the counters it saw eliminated), where the view allows;
* the whole position stays one the rules reach: at most three Japanese Infantry and guns a hex
  (4.2), a running game not over by 3.8.2, a finished one won as its rewards say; the flag that an
  Unknown of the attack already melted (``loss_unknown_done``) is set where the deal melted one.

The U.S. view of every sample is the real position's (the tests check it), and the samples are
states the invariants accept (``check_state``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from wargym.attu.fog import HIDDEN, anonymous_units
from wargym.attu.invariants import check_end
from wargym.attu.scenario import ARTILLERY, INFANTRY, JAPAN, UNKNOWN, US
from wargym.attu.state import (
    LOC_ELIM, LOC_MAP, LOC_NONE, LOC_RESERVE, LOSS, LOSS_RANGED, OPT_JP_FREE, OPT_SOLITAIRE,
)
from wargym.hidden import Anonymous, item_fields, move_items

UNK, INF, GUN = 0, 1, 2
KIND_NAMES = ("Unknown", "Infantry", "gun")
TRIES = 500   # draws of one sample's deal before a position is given up on (4.2, 3.8.2)


def unit_kinds(core) -> np.ndarray:
    """int[U]: each unit's kind for the deal (UNK, INF, GUN; -1 for the U.S. units)."""
    sc = core.scenario
    kinds = np.full(sc.num_units, -1, dtype=np.int64)
    jp = sc.unit_side == JAPAN
    kinds[jp & (sc.unit_type == UNKNOWN)] = UNK
    kinds[jp & (sc.unit_type == INFANTRY)] = INF
    kinds[jp & (sc.unit_type == ARTILLERY)] = GUN
    return kinds


def _log_choose(n: int, *parts: int) -> float:
    """log of the multinomial n! / (parts! (n - sum parts)!)."""
    rest = n - sum(parts)
    return math.lgamma(n + 1) - sum(math.lgamma(k + 1) for k in (*parts, rest))


@dataclasses.dataclass
class Places:
    """One sample's places of the counters the U.S. cannot tell apart, by class: each a list of the
    unit numbers that hold them now (before the deal)."""
    pin: list[int]
    mel: list[int]
    free: list[int]
    off: list[int]
    rem: list[int]
    none: list[int]

    def sizes(self) -> tuple[int, ...]:
        return tuple(len(x) for x in (self.pin, self.mel, self.free, self.off, self.rem, self.none))


def places_of(state, r: int, items: np.ndarray, relax: bool) -> Places:
    """The places of sample ``r``: ``relax`` drops the map's own rules (pinned, Melee declared)."""
    loss = int(state.phase[r]) == LOSS
    p = Places([], [], [], [], [], [])
    for u in items.tolist():
        loc = int(state.unit_loc[r, u])
        if loc == LOC_MAP:
            if relax:
                p.free.append(u)
            elif state.pinned[r, u]:
                p.pin.append(u)
            elif state.melee_target[r, u] >= 0:
                p.mel.append(u)
            else:
                p.free.append(u)
        elif loc == LOC_NONE:
            p.none.append(u)
        elif loss and state.loss_pool[r, u] and not relax:
            p.rem.append(u)
        else:
            p.off.append(u)
    return p


@dataclasses.dataclass(frozen=True)
class Plan:
    """How many counters of each kind go to each class of places (one optimal count)."""
    gn: int   # guns not yet placed (the rest of those places: Unknowns)
    gf: int   # guns on the map
    um: int   # Unknowns on the map, past the pinned ones (the rest of the map: Infantry)
    go: int   # guns off the map (eliminated)
    uo: int   # Unknowns off the map (the rest of it: Infantry in the cup)
    gr: int   # guns among the counters the hits being placed took off (eliminated)
    ur: int   # the Unknown that melted in the attack (0 or 1)


def plans(core, state, r: int, places: Places, supply: tuple[int, int, int], budget: int | None
          ) -> tuple[list[Plan], np.ndarray]:
    """The optimal counts for sample ``r`` (README: fewest counters outside what memory explains)
    and their weights (how many deals each has): ([], []) when none fits."""
    us, inf, guns = supply
    P, E, F, O, R, N = places.sizes()
    cap = 1 if int(state.phase[r]) == LOSS and int(state.loss_kind[r]) == LOSS_RANGED else 0
    forced = none_kinds(core, state, r, N, supply)
    found: list[tuple[int, Plan, float]] = []
    for gn in ([forced] if forced is not None else range(min(guns, N) + 1)):
        un = N - gn
        for gf in range(min(guns - gn, F) + 1):
            mapx = E + F - gf
            for gr in range(min(guns - gn - gf, R) + 1):
                go = guns - gn - gf - gr
                if go > O:
                    continue
                for ur in range(min(cap, R - gr) + 1):
                    ir = R - gr - ur
                    for um in range(mapx + 1):
                        uo = us - P - un - um - ur
                        io = O - go - uo
                        if uo < 0 or io < 0 or un < 0:
                            continue
                        if (mapx - um) + ir + io != inf:
                            continue
                        elim = go + gr + ir
                        if budget is not None and elim > budget:
                            continue
                        cost = (mapx - um) + elim
                        logw = (_log_choose(F, gf) + _log_choose(mapx, um) + _log_choose(O, go, uo) +
                                _log_choose(R, gr, ur) + (_log_choose(N, gn) if forced is None else 0.0))
                        found.append((cost, Plan(gn, gf, um, go, uo, gr, ur), logw))
    if not found:
        return [], np.zeros(0)
    best = min(c for c, _, _ in found)
    kept = [(p, w) for c, p, w in found if c == best]
    logw = np.array([w for _, w in kept])
    weights = np.exp(logw - logw.max())
    return [p for p, _ in kept], weights / weights.sum()


def none_kinds(core, state, r: int, n: int, supply: tuple[int, int, int]) -> int | None:
    """How many of the ``n`` counters not yet placed are guns, where the set-up makes it certain:
    13.2.1 draws only Unknowns to place; 12.4 (and 15.x) places the Unknowns, then the guns, one
    counter after another (setup.placement_unit), so those left are the last of that order.
    None where the set-up does not say (a position laid out by hand)."""
    if n == 0:
        return 0
    T, sc = core.tables, core.scenario
    if T.opts[OPT_SOLITAIRE]:
        return 0 if n <= supply[0] else None
    if not T.opts[OPT_JP_FREE]:
        return None
    jp = (sc.unit_side == JAPAN) & sc.unit_in_play & ((sc.unit_type == UNKNOWN) | (sc.unit_type == ARTILLERY))
    order = np.flatnonzero(jp & np.isin(state.unit_loc[r], (LOC_NONE, LOC_MAP, LOC_ELIM, LOC_RESERVE)))
    guns = int((sc.unit_type[order[-n:]] == ARTILLERY).sum()) if n <= len(order) else -1
    if guns < 0 or guns > supply[2] or n - guns > supply[0]:
        return None
    return guns


def draw(places: Places, plan: Plan, rng: np.random.Generator) -> tuple[dict[int, int], set[int], bool]:
    """One deal of kinds to places by ``plan``, uniform among its deals: (place -> kind, the places
    whose counter is eliminated, whether an Unknown melted in the attack being placed)."""
    kind: dict[int, int] = {}
    elim: set[int] = set()
    for u in places.pin:
        kind[u] = UNK
    free = list(places.free)
    guns = set(rng.choice(len(free), size=plan.gf, replace=False).tolist()) if plan.gf else set()
    mapx = list(places.mel) + [u for i, u in enumerate(free) if i not in guns]
    for i in guns:
        kind[free[i]] = GUN
    order = rng.permutation(len(mapx))
    for j, i in enumerate(order.tolist()):
        kind[mapx[i]] = UNK if j < plan.um else INF

    def deal(where: list[int], labels: list[int]) -> None:
        for u, k in zip([where[i] for i in rng.permutation(len(where)).tolist()], labels):
            kind[u] = k

    O, R, N = len(places.off), len(places.rem), len(places.none)
    deal(places.off, [GUN] * plan.go + [UNK] * plan.uo + [INF] * (O - plan.go - plan.uo))
    deal(places.rem, [GUN] * plan.gr + [UNK] * plan.ur + [INF] * (R - plan.gr - plan.ur))
    deal(places.none, [GUN] * plan.gn + [UNK] * (N - plan.gn))
    for u in places.off + places.rem:
        if kind[u] == GUN or (kind[u] == INF and u in places.rem):
            elim.add(u)  # 8.5: a gun is never in the cup; an Infantry unit hit is eliminated
    return kind, elim, plan.ur > 0


def fits(core, state, r: int, kinds: np.ndarray, who: np.ndarray, kind: dict[int, int], elim: set[int]) -> bool:
    """The deal keeps the position one the rules reach: 4.2 (at most three Japanese Infantry and
    guns a hex) and, in a running game, 3.8.2 (a Japanese Infantry unit or gun left, outside
    solitaire play, 13.6)."""
    sc = core.scenario
    loc, hexes = state.unit_loc[r], state.unit_hex[r]
    fixed = ~who & (((sc.unit_side == JAPAN) & (sc.unit_type != UNKNOWN)) | state.captured[r])
    count: dict[int, int] = {}
    for u in np.flatnonzero(fixed & (loc == LOC_MAP)).tolist():
        count[int(hexes[u])] = count.get(int(hexes[u]), 0) + 1
    fighting = int((fixed & sc.unit_in_play & ((loc == LOC_MAP) | (loc == LOC_RESERVE))).sum())
    for u, k in kind.items():
        if k == UNK:
            continue
        if loc[u] == LOC_MAP:
            count[int(hexes[u])] = count.get(int(hexes[u]), 0) + 1
            fighting += 1
        elif u not in elim and loc[u] != LOC_NONE:
            fighting += 1
    if count and max(count.values()) > 3:
        return False
    running = not (state.terminated[r] or state.truncated[r])
    return not running or bool(core.tables.opts[OPT_SOLITAIRE]) or fighting > 0


def complete(core, state, viewer: int, rng: np.random.Generator):
    """``state`` (samples dealt by wargym.hidden.sample for ``viewer``) with the U.S.'s anonymous
    counters dealt again as the module docstring says; Japan, who sees every counter, gets
    ``state`` as it is."""
    if viewer != US:
        return state
    decl = next(d for d in HIDDEN if isinstance(d, Anonymous))
    fields = item_fields(core, decl.axis)
    out = {f.name: getattr(state, f.name).copy() for f in dataclasses.fields(state)}
    who = anonymous_units(core, state, viewer)
    kinds = unit_kinds(core)
    # counters the U.S. saw go to the eliminated pile, each taken off the map once at least (an
    # Unknown revealed in a short scenario was not: it was replaced, 2.5)
    seen_gone = (state.us_knows & (state.unit_loc == LOC_ELIM) & ((kinds == INF) | (kinds == GUN))).sum(axis=1)
    out["loss_unknown_done"][:] = False   # no Unknown of an attack melted, unless a deal says so
    counted: dict[tuple, tuple[list[Plan], np.ndarray]] = {}   # the samples' places differ only in order
    for r in range(state.batch_size):
        items = np.flatnonzero(who[r])
        if not len(items):
            continue
        supply = tuple(int((kinds[items] == k).sum()) for k in (UNK, INF, GUN))
        budget = max(int(state.jp_removed[r]) - int(seen_gone[r]), 0)
        chosen = None
        for relax, limit in ((False, budget), (False, None), (True, None)):
            places = places_of(state, r, items, relax)
            key = (relax, limit, places.sizes(), supply)
            if key not in counted:
                counted[key] = plans(core, state, r, places, supply, limit)
            options, weights = counted[key]
            if options:
                chosen = places, options, weights
                break
        if chosen is None:
            raise ValueError(f"{core.name}: no deal of the counters the U.S. cannot tell apart fits the view of "
                             f"sample {r} ({supply} of {KIND_NAMES} for places {places.sizes()})")
        places, options, weights = chosen
        for _ in range(TRIES):
            plan = options[int(rng.choice(len(options), p=weights))]
            kind, elim, melted = draw(places, plan, rng)
            if fits(core, state, r, kinds, who[r], kind, elim):
                break
        else:
            raise ValueError(f"{core.name}: no deal of the counters the U.S. cannot tell apart fits sample {r}: "
                             f"{TRIES} tries broke 4.2 or 3.8.2")
        _apply(out, fields, decl.refs, r, kind, elim, kinds, rng)
        out["loss_unknown_done"][r] = melted
    sampled = dataclasses.replace(state, **out)
    return _finished(core, sampled)


def _apply(out: dict[str, np.ndarray], fields: list[str], refs: tuple[str, ...], r: int, kind: dict[int, int],
           elim: set[int], kinds: np.ndarray, rng: np.random.Generator) -> None:
    """Sample ``r``: each place's counter dealt from the counters of its kind (a uniform
    permutation), with everything the place holds and the unit numbers in ``refs``."""
    src, dst = [], []
    for k in (UNK, INF, GUN):
        where = [u for u, kk in kind.items() if kk == k]
        units = [u for u in kind if kinds[u] == k]
        src += where
        dst += [units[i] for i in rng.permutation(len(units)).tolist()]
    src_a, dst_a = np.array(src, dtype=np.int64), np.array(dst, dtype=np.int64)
    move_items(out, fields, refs, np.array([r]), src_a[None, :], dst_a[None, :])
    relabel = np.arange(out[fields[0]].shape[1])
    relabel[src_a] = dst_a
    gone = relabel[np.array(sorted(elim), dtype=np.int64)] if elim else np.zeros(0, dtype=np.int64)
    out["unit_loc"][r, gone] = LOC_ELIM   # seen_as: the U.S. sees it in the cup with one step
    out["unit_steps"][r, gone] = 0
    out["unit_hex"][r, gone] = -1


def _finished(core, state):
    """A finished game must be won as its rewards say (3.8, 14.0): where the deal does not give
    that verdict (3.8.2: every Japanese Infantry unit and gun eliminated), the Infantry the deal
    put in the cup are put in the eliminated pile instead, the only other place the view allows."""
    if not state.terminated.any():
        return state
    who = anonymous_units(core, state, US)
    kinds = unit_kinds(core)
    for r in np.flatnonzero(state.terminated).tolist():
        one = state.take([r])
        if not check_end(core, one):
            continue
        cup = who[r] & (kinds == INF) & (state.unit_loc[r] == LOC_RESERVE)
        state.unit_loc[r, cup] = LOC_ELIM
        state.unit_steps[r, cup] = 0
    return state
