"""The contract every core meets, as checks that run on any core.

tests/envs/test_contract.py runs them for every registered ruleset (wargym.registry) and every
env case its record names; a ruleset of one's own passes them by registering.  Each check raises
``ContractError`` (an AssertionError) that says what broke, in which game and at which step::

    same_games_in_any_batch(core, seed)   game i alone, in a batch of 7 and in a batch of 256:
                                          equal, field for field, decision after decision
    records_continue(core, seed)          to_dict -> JSON -> from_dict at random points, then the
                                          same actions: the restored games stay equal (the fuzz
                                          sends every position it reaches through its record)
    masks_are_exact(core, seed)           every legal action steps; a sample of masked-out ones
                                          raise IllegalActionError and leave the state unchanged
    reset_done_replaces_finished(core, seed)
    hidden_stays_hidden(core, seed)       the leak test: wargym.hidden.perturb a viewer's hidden
                                          facts in mid-game states; observe, the legal mask, the
                                          text and image boards, the env's observation and info,
                                          the summary, every bot-protocol session payload and
                                          every text (each action's description and refusal,
                                          legal or not, deciding or waiting) must not change for
                                          that viewer
    events_stay_hidden(core, seed)        the same for the event log: a step from a position and from
                                          one that differs only in what the viewer may not see, the
                                          dice kept: where the viewer's views after agree, so must
                                          the events it reads
    samples_look_real(core, seed)         determinization (``core.sample_hidden``) in mid-game
                                          positions for every viewer: each sample looks the same to
                                          the viewer as the position (its view; in some positions
                                          everything the leak test compares), has dice of its own
                                          (never the game's key) and keeps the invariants; where
                                          the viewer decides, it plays on legally (see the check)
    fuzz(core, decisions, seed)           random masked play; after every decision every game
                                          through to_dict -> JSON -> from_dict, which refuses a
                                          game that breaks ``invariants`` (every field in its
                                          declared range, the ruleset's ``check_state``, the end
                                          of the game by ``check_outcome``), and no field
                                          declared ``grows`` decreased

The random play of these checks is keyed per game (``keyed_actions``: a hash of the game's dice key
and the step), so a game's actions do not depend on the batch around it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np

from wargym import schema
from wargym.core import BaseState, IllegalActionError, RecordError
from wargym.hidden import declarations, perturb
from wargym.rng import game_keys


class ContractError(AssertionError):
    """A core breaks the contract."""


def _mix(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def keyed_actions(keys: np.ndarray, step: int, mask: np.ndarray) -> np.ndarray:
    """int64[B]: a legal action of each game drawn from a hash of its key ``keys[g]`` (uint64[2],
    as ``rng_key``) and ``step`` alone (0 for a game with no legal action)."""
    keys = np.asarray(keys, dtype=np.uint64)
    with np.errstate(over="ignore"):
        key = keys[:, 0] ^ _mix(keys[:, 1])   # a seeded game's second word is 0, and _mix(0) == 0
        u = _mix(key ^ (np.uint64(step + 1) * np.uint64(0x9E3779B97F4A7C15)))
    counts = mask.sum(axis=1)
    rank = (u % np.maximum(counts, 1).astype(np.uint64)).astype(np.int64)
    order = np.cumsum(mask, axis=1) - 1
    hit = mask & (order == rank[:, None])
    return np.where(counts > 0, hit.argmax(axis=1), 0).astype(np.int64)


def games_of(core, seed: int, first: int, count: int) -> BaseState:
    """Games ``first .. first + count - 1`` of ``core.init(..., seed)``, set up on their own."""
    return core._init(game_keys(seed, count, first_game=first))


def _live(core, state) -> np.ndarray:
    return ~np.asarray(core.terminated(state) | core.truncated(state))


def play(core, state: BaseState, steps: int, keys: np.ndarray | None = None, start: int = 0):
    """``state`` after ``steps`` keyed random decisions in every running game (finished games stay)."""
    keys = state.rng_key.copy() if keys is None else keys
    for t in range(start, start + steps):
        live = _live(core, state)
        if not live.any():
            break
        state = core.step(state, keyed_actions(keys, t, np.asarray(core.legal_mask(state))), active=live)
    return state


def _differ(a: BaseState, b: BaseState, ga: int = 0, gb: int = 0) -> list[str]:
    return [f.name for f in dataclasses.fields(a) if not np.array_equal(getattr(a, f.name)[ga], getattr(b, f.name)[gb])]


# ------------------------------------------------------------------------------------ the checks
def same_games_in_any_batch(core, seed: int = 0, steps: int = 300, games: int = 7, large: int = 256) -> None:
    """Game i stepped alone, inside a batch of ``games`` and inside one of ``large``: identical."""
    alone = [games_of(core, seed, i, 1) for i in range(games)]
    small = core.init(games, seed)
    big = core.init(large, seed)
    keys = big.rng_key.copy()
    for i in range(games):
        for name, other in (("a batch of %d" % games, small), ("a batch of %d" % large, big)):
            bad = _differ(alone[i], other, 0, i)
            if bad:
                raise ContractError(f"{core.name}: new game {i} alone and in {name} differ in {bad}")
    for t in range(steps):
        small = play(core, small, 1, keys[:games], t)
        big = play(core, big, 1, keys, t)
        for i in range(games):
            alone[i] = play(core, alone[i], 1, keys[i:i + 1], t)
            for name, other in (("a batch of %d" % games, small), ("a batch of %d" % large, big)):
                bad = _differ(alone[i], other, 0, i)
                if bad:
                    raise ContractError(f"{core.name}: game {i} after {t + 1} decisions differs alone and in "
                                        f"{name}, in {bad}")
        if not _live(core, small).any():
            break


def records_continue(core, seed: int = 0, games: int = 4, points: int = 6, steps: int = 40,
                     rng: np.random.Generator | None = None) -> None:
    """At ``points`` random moments a game goes through to_dict, JSON and from_dict; the copy
    equals the original, and both stay equal over ``steps`` more decisions."""
    rng = rng or np.random.default_rng(seed)
    state = core.init(games, seed)
    keys, t = state.rng_key.copy(), 0
    for _ in range(points):
        state = play(core, state, int(rng.integers(1, 120)), keys, t)
        t += 120
        g = int(rng.integers(games))
        a = state.take([g])
        try:
            b = records_round_trip(core, a)
        except ContractError as err:
            raise ContractError(f"{err} (game {g} of the batch, at step {t})") from None
        for k in range(steps):
            a, b = play(core, a, 1, keys[g:g + 1], t + k), play(core, b, 1, keys[g:g + 1], t + k)
            bad = _differ(a, b)
            if bad:
                raise ContractError(f"{core.name}: game {g} restored from its record differs {k + 1} decisions "
                                    f"later, in {bad}")


def masks_are_exact(core, seed: int = 0, games: int = 4, samples: int = 12, masked_out: int = 8,
                    rng: np.random.Generator | None = None) -> None:
    """In sampled positions every legal action steps, and masked-out actions raise
    IllegalActionError leaving the state exactly as it was."""
    rng = rng or np.random.default_rng(seed)
    state = core.init(games, seed)
    keys, t = state.rng_key.copy(), 0
    for _ in range(samples):
        state = play(core, state, int(rng.integers(1, 80)), keys, t)
        t += 80
        live = np.flatnonzero(_live(core, state))
        if not len(live):
            break
        g = int(rng.choice(live))
        one = state.take([g])
        mask = np.asarray(core.legal_mask(one))[0]
        if not mask.any():
            raise ContractError(f"{core.name}: running game {g} has no legal action")
        for a in np.flatnonzero(mask):
            try:
                core.step(one, np.array([a]))
            except IllegalActionError as err:
                raise ContractError(f"{core.name}: game {g}: the legal action {a} was refused: {err}") from None
        before = one.copy()
        illegal = np.flatnonzero(~mask)
        for a in rng.choice(illegal, size=min(masked_out, len(illegal)), replace=False):
            try:
                core.step(one, np.array([a]))
            except IllegalActionError:
                pass
            else:
                raise ContractError(f"{core.name}: game {g}: the masked-out action {a} was stepped")
            bad = _differ(before, one)
            if bad:
                raise ContractError(f"{core.name}: game {g}: refusing action {a} changed {bad}")


def reset_done_replaces_finished(core, seed: int = 0, games: int = 6) -> None:
    """``reset_done`` replaces exactly the finished games, each by the new game its episode keys;
    ``reset_done_in_place`` does the same to the state itself."""
    state = core.init(games, seed)
    done = np.zeros(games, dtype=bool)
    done[::2] = True
    state = dataclasses.replace(state, truncated=state.truncated | done)
    episode = np.arange(games) + 100
    after = core.reset_done(state, seed, episode)
    in_place = state.copy()
    core.reset_done_in_place(in_place, seed, episode)
    for g in range(games):
        want = games_of(core, seed, int(episode[g]), 1) if done[g] else state.take([g])
        for how, got in (("reset_done", after), ("reset_done_in_place", in_place)):
            bad = _differ(want, got, 0, g)
            if bad:
                raise ContractError(f"{core.name}: after {how} game {g} ({'finished' if done[g] else 'running'}) "
                                    f"differs in {bad}")


def mid_game_states(core, seed: int, count: int, games: int = 8, rng: np.random.Generator | None = None):
    """``count`` positions (batches of one) sampled from keyed random games at random moments."""
    rng = rng or np.random.default_rng(seed)
    out = []
    state = core.init(games, seed)
    keys, t = state.rng_key.copy(), 0
    while len(out) < count:
        state = play(core, state, int(rng.integers(1, 40)), keys, t)
        t += 40
        live = np.flatnonzero(_live(core, state))
        if not len(live):
            seed += 1
            state = core.init(games, seed)
            keys, t = state.rng_key.copy(), 0
            continue
        out.append(state.take([int(rng.choice(live))]))
    return out


def viewer_payloads(core, state: BaseState, viewer: int, images: bool) -> dict[str, Any]:
    """Everything a client playing ``viewer`` receives about ``state`` (a batch of one), every
    text included: each action's description and the error ``play`` would answer for it, legal
    or not, whether the viewer decides or waits."""
    from wargym.agents.serve import described, session_observation, session_refusals, session_view
    from wargym.envs.single import env_view

    every = list(range(core.num_actions))
    out: dict[str, Any] = {"observe": core.observe(state, viewer), "view": core.to_dict(core.view(state, viewer), 0),
                           "text": core.render(state, 0, "ansi", viewer=viewer),
                           "summary": core.summary(state, 0, viewer=viewer),
                           "session": session_view(core, state, viewer),
                           "session observation": session_observation(core, state, viewer),
                           "descriptions": described(core, state, every, viewer),
                           "refusals": session_refusals(core, state, viewer, every)}
    if int(core.current_player(state)[0]) == viewer:
        out["legal mask"] = np.asarray(core.legal_mask(state))[0]
        out["env"] = env_view(core, state, viewer)
    if images:
        out["image"] = core.render(state, 0, "rgb_array", viewer=viewer)
    return out


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


def _diff(a: Any, b: Any, path: str = "") -> str:
    """Where ``a`` and ``b`` first differ: a path of keys and list indices, and both values there
    when they are short (a text, a number)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in a:
            if k not in b or not _same(a[k], b[k]):
                return _diff(a[k], b.get(k), f"{path}.{k}" if path else str(k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if not _same(x, y):
                return _diff(x, y, f"{path}[{i}]")
    shown = f" {a!r} != {b!r}" if isinstance(a, (str, int, float)) and len(repr(a)) + len(repr(b)) < 400 else ""
    return (path or "value") + shown


def hidden_stays_hidden(core, seed: int = 0, states: int = 200, images: int = 20,
                        rng: np.random.Generator | None = None) -> dict[str, int]:
    """The leak test (module docstring) in ``states`` mid-game positions for every viewer; the
    image board is compared in the first ``images`` of them.  Returns how many positions had
    something hidden from the viewer to perturb, per declaration."""
    rng = rng or np.random.default_rng(seed)
    exercised: dict[str, int] = {}
    positions = mid_game_states(core, seed, states, rng=rng)
    for viewer in range(len(core.players)):
        decls = declarations(core, viewer)
        for i, state in enumerate(positions):
            for d in decls:
                key = f"{core.players[viewer]}: {type(d).__name__} {getattr(d, 'field', None) or getattr(d, 'axis')}"
                exercised[key] = exercised.get(key, 0) + int(_applies_here(core, state, viewer, d))
            changed = perturb(core, state, viewer, rng)
            if not any(_differ(state, changed)):
                raise ContractError(f"{core.name}: perturbing what {core.players[viewer]} may not see changed nothing")
            want = viewer_payloads(core, state, viewer, i < images)
            got = viewer_payloads(core, changed, viewer, i < images)
            for name in want:
                if not _same(want[name], got.get(name)):
                    hidden = _differ(state, changed)
                    raise ContractError(
                        f"{core.name}: what {core.players[viewer]} receives ({name}: {_diff(want[name], got.get(name))}) "
                        f"changed when only what it may not see changed (fields {hidden}); position {i}, "
                        f"phase {core.phase_names[int(state.phase[0])]!r}")
    return exercised


def events_stay_hidden(core, seed: int = 0, states: int = 60, rng: np.random.Generator | None = None) -> int:
    """The event log's leak test.  In ``states`` mid-game positions, for every viewer: a legal
    action is stepped with the log on (``core.step_logged``) from the position and from one that
    differs only in what the viewer may not see, the dice to come kept the same (``perturb``
    ``keep_dice``).  Where the viewer's view after the two steps is the same (what it may not see
    did not show in this step), the events it reads (``core.events_for``: structured and in words)
    must be the same.  Returns how many steps were compared."""
    rng = rng or np.random.default_rng(seed)
    compared = 0
    positions = mid_game_states(core, seed, states, rng=rng)
    for viewer in range(len(core.players)):
        for i, state in enumerate(positions):
            legal = np.flatnonzero(np.asarray(core.legal_mask(state))[0])
            action = int(rng.choice(legal))
            other = perturb(core, state, viewer, rng, keep_dice=True)
            if not other.legal_action_mask[0, action]:
                continue  # the decider's options differ with what the viewer may not see
            after, logged = core.step_logged(state, np.array([action]))
            after_other, logged_other = core.step_logged(other, np.array([action]))
            if not _same(core.to_dict(core.view(after, viewer), 0), core.to_dict(core.view(after_other, viewer), 0)):
                continue  # what was hidden showed in this step: the events may tell it too
            want = core.events_for(logged[0], after, 0, viewer)
            got = core.events_for(logged_other[0], after_other, 0, viewer)
            if not _same(want, got):
                raise ContractError(
                    f"{core.name}: the events {core.players[viewer]} reads ({_diff({'events': want}, {'events': got})}) "
                    f"changed when only what it may not see changed; position {i}, phase "
                    f"{core.phase_names[int(state.phase[0])]!r}, action {core.describe_action(action, state, 0)!r}")
            compared += 1
    return compared


def samples_look_real(core, seed: int = 0, states: int = 200, per_state: int = 5, payloads: int = 10,
                      steps: int = 3, rng: np.random.Generator | None = None) -> int:
    """Determinization (module docstring): ``per_state`` samples of each of ``states`` mid-game
    positions for every viewer; all the viewer receives compared in the first ``payloads``
    positions.  Where another player decides, the prompt it answers may rest on what the viewer
    cannot see (World at War: asked whether to play a card of its hand), so a sample may deal that
    player a position its prompt does not fit: there the samples' fields are checked (ranges and
    the ruleset's ``check_state``) but not its options nor play.  Returns how many samples were
    checked."""
    rng = rng or np.random.default_rng(seed)
    checked = 0
    positions = mid_game_states(core, seed, states, rng=rng)
    for viewer in range(len(core.players)):
        for i, state in enumerate(positions):
            samples = core.sample_hidden(state, viewer, rng, per_state)
            where = f"{core.name}: samples of position {i} for {core.players[viewer]}"
            if samples.batch_size != per_state:
                raise ContractError(f"{where}: {samples.batch_size} samples, asked for {per_state}")
            decides = int(state.current_player[0]) == viewer
            bad = (invariants(core, samples) if decides else
                   schema.check(core.state_class, samples.arrays(), core.dims) + core.check_state(samples))
            if bad:
                raise ContractError(f"{where} break the invariants: {bad[:3]}")
            if (samples.rng_key == state.rng_key[0]).all(axis=1).any():
                raise ContractError(f"{where}: a sample kept the game's dice key")
            want = core.to_dict(core.view(state, viewer), 0)
            for k in range(per_state):
                one = samples.take([k])
                got = core.to_dict(core.view(one, viewer), 0)
                if not _same(want, got):
                    raise ContractError(f"{where}: sample {k}'s view differs ({_diff(want, got)})")
                if i < payloads and k == 0:
                    a, b = viewer_payloads(core, state, viewer, False), viewer_payloads(core, one, viewer, False)
                    for name in a:
                        if not _same(a[name], b.get(name)):
                            raise ContractError(f"{where}: sample {k} sends the viewer another {name} "
                                                f"({_diff(a[name], b.get(name))})")
            if decides:
                after = play(core, samples, steps)
                bad = invariants(core, after, samples)
                if bad:
                    raise ContractError(f"{where} break the invariants after {steps} random decisions: {bad[:3]}")
            checked += per_state
    return checked


def _applies_here(core, state, viewer: int, decl) -> bool:
    from wargym.hidden import Secret, _hidden_elements

    if isinstance(decl, Secret):
        return bool(_hidden_elements(decl, core, state, viewer).any())
    return int(np.asarray(decl.who(core, state, viewer))[0].sum()) >= 2


def invariants(core, state: BaseState, before: BaseState | None = None) -> list[str]:
    """What every game must hold after every decision: the ruleset's own invariants
    (``check_state``: with whether the game is over by its position), the end of the game
    (``check_outcome``: rewards, terminated and truncated), every field within its declared range
    and, given the state ``before`` the decision, no field declared ``grows`` smaller in a game
    that was running then (a finished game is left as it is; a replaced one is not compared)."""
    errors = schema.check(core.state_class, state.arrays(), core.dims)
    errors += core.check_state(state) + core.check_outcome(state)
    if before is not None:
        errors += shrunk(core, before, state)
    return errors


def shrunk(core, before: BaseState, after: BaseState) -> list[str]:
    """One message per field declared ``grows`` (wargym.schema) that is smaller ``after`` than
    ``before`` in a game running ``before``."""
    live = _live(core, before)
    errors = []
    for name in schema.growing(core.state_class):
        a, b = getattr(before, name), getattr(after, name)
        fell = (b < a).reshape(len(a), -1).any(axis=1) & live
        if fell.any():
            g = int(np.argmax(fell))
            errors.append(f"field {name}: game {g} went from {a[g].tolist()} to {b[g].tolist()}, "
                          f"but play only adds to it (declared grows)")
    return errors


def records_round_trip(core, state: BaseState) -> BaseState:
    """Every game of ``state`` through to_dict -> JSON -> from_dict (one list of records, checked
    as one batch), returned; refused, or back different in any field, is a ContractError."""
    text = json.dumps([core.to_dict(state, g) for g in range(state.batch_size)])
    try:
        restored = core.from_dict(json.loads(text))
    except RecordError as err:
        raise ContractError(f"{core.name}: from_dict refused its own record: {err}") from None
    for f in dataclasses.fields(state):
        a, b = getattr(state, f.name), getattr(restored, f.name)
        if not np.array_equal(a, b):
            g = int(np.argmax((a != b).reshape(len(a), -1).any(axis=1)))
            raise ContractError(f"{core.name}: the record of game {g} comes back different in {f.name}")
    return restored


def fuzz(core, decisions: int, seed: int = 0, batch: int = 16, probe_every: int = 100) -> tuple[int, int]:
    """Random masked play of at least ``decisions`` decisions, finished games replaced.  After
    every decision ``records_round_trip`` of every game, the finished ones before they are
    replaced (from_dict refuses a game that breaks ``invariants``), and the ``grows`` fields
    against the state before it (``shrunk``); every ``probe_every`` calls a masked-out action
    must raise and leave the state unchanged.  Returns (decisions, games finished)."""
    from wargym.agents.random_agent import sample_legal

    rng = np.random.default_rng(seed)
    state = core.init(batch, seed)
    taken = finished = step = 0

    def check(state: BaseState, before: BaseState | None) -> None:
        # from_dict checks every game as ``invariants`` does (and its mask against the rules'), so
        # the round trip stands for them here: each position is checked once
        errors = shrunk(core, before, state) if before is not None else []
        if errors:
            raise ContractError(f"{core.name}: after {taken} decisions: " + "; ".join(errors[:5]))
        try:
            records_round_trip(core, state)
        except ContractError as err:
            raise ContractError(f"{err} (after {taken} decisions)") from None

    check(state, None)
    while taken < decisions:
        mask = np.asarray(core.legal_mask(state))
        live = _live(core, state)
        if step % probe_every == 0 and live.any():
            g = int(np.flatnonzero(live)[0])
            a = sample_legal(rng, mask)
            a[g] = rng.choice(np.flatnonzero(~mask[g]))
            before = state.copy()
            try:
                core.step(state, a)
            except IllegalActionError:
                pass
            else:
                raise ContractError(f"{core.name}: masked-out action {a[g]} in game {g} was stepped")
            bad = [f.name for f in dataclasses.fields(state)
                   if not np.array_equal(getattr(before, f.name), getattr(state, f.name))]
            if bad:
                raise ContractError(f"{core.name}: a refused action changed {bad}")
        before = state
        state = core.step(state, sample_legal(rng, mask))
        taken += int(live.sum())
        step += 1
        check(state, before)
        done = ~_live(core, state)
        if done.any():
            finished += int(done.sum())
            state = core.reset_done(state, seed + 1, np.arange(batch) + 1000 * step)
    return taken, finished
