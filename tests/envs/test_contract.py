"""The one contract, for every registered ruleset (wargym.registry) with no per-ruleset code.

Each ruleset's record names the env options its front doors are checked with (``contract``);
the core behind each case is checked by wargym.contract (the same game alone and in batches of 7
and 256, records through JSON, exact masks, reset_done, the leak test on 200 mid-game positions,
fuzz with the ruleset's invariants), and the front doors by gymnasium's check_env, PettingZoo's
api_test and the env behaviour tests below.  The toy ruleset (toy_core.py) is registered too, and
two broken toys show that the contract catches a planted leak and a planted batch dependence.
"""

from __future__ import annotations

import dataclasses

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import toy_core
from wargym import IllegalActionError, contract
from wargym.events import EventKind
from wargym.agents import sample_legal
from wargym.envs import WargymAECEnv, WargymVectorEnv
from wargym.envs.single import build_core
from wargym.registry import RULESETS

CASES = [(name, dict(kwargs)) for name, record in RULESETS.items() for kwargs in record.contract]
IDS = [f"{name}{kwargs or ''}" for name, kwargs in CASES]
CORE_KEYS = ("scenario", "decisions", "opponent", "core_options")


def core_case(kwargs: dict) -> tuple:
    return tuple((k, repr(kwargs.get(k))) for k in CORE_KEYS if k != "opponent" or kwargs.get(k) == "solitaire")


# the distinct cores behind the cases: each is checked once
CORES = list({(name, core_case(kwargs)): (name, kwargs) for name, kwargs in CASES}.values())
CORE_IDS = [f"{name}{dict((k, v) for k, v in core_case(kwargs))}" for name, kwargs in CORES]
_BUILT: dict = {}


def make(name: str, kwargs: dict):
    key = (name, core_case(kwargs))
    if key not in _BUILT:
        _BUILT[key] = build_core(None, name, kwargs.get("scenario"), kwargs.get("decisions"), kwargs.get("opponent"),
                                 kwargs.get("core_options"))
    return _BUILT[key]


def env_id(name: str) -> str:
    return RULESETS[name].env_id


def aec_kwargs(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if k in ("scenario", "decisions", "max_decisions", "core_options")}


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return sample_legal(rng, np.atleast_2d(np.asarray(mask, dtype=bool)))


# ------------------------------------------------------------------------------ the cores
@pytest.mark.parametrize("name,kwargs", CORES, ids=CORE_IDS)
class TestCore:
    def test_same_game_alone_in_a_batch_of_7_and_of_256(self, name, kwargs):
        contract.same_games_in_any_batch(make(name, kwargs), seed=5, steps=200)

    def test_records_through_json_continue_identically(self, name, kwargs):
        contract.records_continue(make(name, kwargs), seed=6)

    def test_every_legal_action_steps_and_masked_out_ones_raise_leaving_the_state(self, name, kwargs):
        contract.masks_are_exact(make(name, kwargs), seed=7)

    def test_reset_done_replaces_exactly_the_finished_games(self, name, kwargs):
        contract.reset_done_replaces_finished(make(name, kwargs), seed=8)

    def test_hidden_information_stays_hidden_in_200_positions(self, name, kwargs):
        contract.hidden_stays_hidden(make(name, kwargs), seed=9, states=200)

    def test_events_stay_hidden(self, name, kwargs):
        contract.events_stay_hidden(make(name, kwargs), seed=12, states=40)

    def test_determinized_samples_look_real_keep_the_invariants_and_play_on(self, name, kwargs):
        assert contract.samples_look_real(make(name, kwargs), seed=13, states=200, per_state=5) >= 1_000

    def test_fuzz_keeps_the_invariants(self, name, kwargs):
        taken, _ = contract.fuzz(make(name, kwargs), decisions=4_000, seed=10, batch=8)
        assert taken >= 4_000


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_hidden_declaration_is_perturbed_in_some_case(name):
    """The leak test does perturb each thing the ruleset hides, in the games of its cases."""
    seen: dict[str, int] = {}
    for case_name, kwargs in CORES:
        if case_name == name:
            for key, n in contract.hidden_stays_hidden(make(name, kwargs), seed=11, states=30, images=0).items():
                seen[key] = seen.get(key, 0) + n
    never = [key for key, n in seen.items() if n == 0 and "legal_action_mask" not in key]
    assert not never, f"never hidden in the sampled positions: {never}"


# ------------------------------------------------------------------- what the contract catches
class LeakyToy(toy_core.ToyCore):
    """Shows the other player's hidden powers in the global vector."""

    def _observe(self, state, player):
        obs = super()._observe(state, player)
        obs["global"][:, 5] = state.power[:, 1 - player].sum(axis=1) / 4.0 if len(self.players) > 1 else 0.0
        return obs


class TellingToy(toy_core.ToyCore):
    """Names the units' hidden powers in the description of "defend", worked out from the whole
    game instead of the viewer's view: a text leak."""

    def describe_actions(self, actions, state=None, game=0, viewer=None):
        texts = super().describe_actions(actions, state, game, None)
        if state is None:
            return texts
        powers = state.power[game].tolist()
        return [f"{t} (powers {powers})" if a == toy_core.DEFEND else t for a, t in zip(actions, texts)]


class EventToy(toy_core.ToyCore):
    """Logs each move with the moving unit's power (``tells``: a leak, the powers are hidden from
    the other player)."""

    event_kinds = (EventKind("moved", "T1", (("unit", "int"), ("power", "int")), "unit {unit} moved, power {power}"),)

    def __init__(self, *args, tells: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.tells = tells

    def _step_logged(self, state, actions):
        new = self._step(state, actions)
        records = []
        for g in np.flatnonzero(actions >= 0):
            if state.phase[g] == toy_core.MOVE:
                p = int(state.current_player[g])
                power = int(state.power[g, p].sum()) if self.tells else 0
                records.append([g, 0, p, power, 0, 0, 0, 0])
        return new, np.array(records, np.int32).reshape(-1, 8), len(records)


class BatchyToy(toy_core.ToyCore):
    """Rolls its dice from the batch's size instead of each game's key."""

    def _step(self, state, actions):
        state = dataclasses.replace(state, rng_key=state.rng_key + np.uint64(state.batch_size))
        out = super()._step(state, actions)
        return dataclasses.replace(out, rng_key=out.rng_key - np.uint64(state.batch_size))


def test_the_contract_catches_a_planted_leak():
    with pytest.raises(contract.ContractError, match="observe"):
        contract.hidden_stays_hidden(LeakyToy("secret"), seed=1, states=40)
    contract.hidden_stays_hidden(toy_core.ToyCore("secret"), seed=1, states=40)  # the honest toy passes


def test_the_contract_catches_a_planted_leak_in_a_text():
    """A description written from the whole game: caught in what a session side is told of every
    action ("descriptions"), legal or not, whichever side decides."""
    with pytest.raises(contract.ContractError, match="descriptions"):
        contract.hidden_stays_hidden(TellingToy("secret"), seed=1, states=40)


def test_the_contract_catches_a_planted_leak_in_the_event_log():
    """An event that tells a hidden power: the viewer's view after the step is the same, its events
    are not."""
    with pytest.raises(contract.ContractError, match="events"):
        contract.events_stay_hidden(EventToy("secret"), seed=1, states=60)
    assert contract.events_stay_hidden(EventToy("secret", tells=False), seed=1, states=60) > 20


def test_the_contract_catches_a_planted_batch_dependence():
    with pytest.raises(contract.ContractError, match="differs alone and in a batch"):
        contract.same_games_in_any_batch(BatchyToy("secret"), seed=1, steps=120)
    contract.same_games_in_any_batch(toy_core.ToyCore("secret"), seed=1, steps=120)


# ------------------------------------------------------------------------------ the front doors
pytestmark_envs = pytest.mark.parametrize("name,kwargs", CASES, ids=IDS)


@pytestmark_envs
def test_check_env(name, kwargs):
    """gymnasium's and stable-baselines3's checkers pass on the env as created (they step unmasked
    random actions: an illegal one ends the game as a loss by default, WargymEnv)."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    env = gymnasium.make(env_id(name), **kwargs)
    check_env(env.unwrapped)
    sb3_check_env(env, warn=True)


@pytestmark_envs
def test_masks_agree_with_observation_and_step(name, kwargs):
    env = gymnasium.make(env_id(name), **kwargs)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, env.get_wrapper_attr("action_masks")())
        assert np.array_equal(mask, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(random_legal(rng, mask)[0]))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            assert reward in (-1.0, 0.0, 1.0)
            obs, info = env.reset()


@pytestmark_envs
def test_illegal_action_raises_and_env_stays_usable(name, kwargs):
    env = gymnasium.make(env_id(name), illegal_action="raise", **kwargs)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])
    env.step(int(np.flatnonzero(info["action_mask"])[0]))


@pytestmark_envs
def test_illegal_action_loses_by_default_and_says_why(name, kwargs):
    env = gymnasium.make(env_id(name), **kwargs)
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"].startswith(env.unwrapped.core.describe_action(illegal, env.unwrapped.state,
                                                                                viewer=env.unwrapped.side))
    with pytest.raises(IllegalActionError, match="outside the action space"):
        env.reset(seed=1)
        env.step(env.action_space.n)


@pytestmark_envs
def test_same_seed_same_observations(name, kwargs):
    def trajectory(seed: int) -> list[np.ndarray]:
        env = gymnasium.make(env_id(name), **kwargs)
        rng = np.random.default_rng(7)
        obs, info = env.reset(seed=seed)
        seen = [obs["spatial"].copy()]
        for _ in range(60):
            obs, _, terminated, truncated, info = env.step(int(random_legal(rng, info["action_mask"])[0]))
            seen.append(obs["spatial"].copy())
            if terminated or truncated:
                obs, _ = env.reset()
        return seen

    assert all(np.array_equal(a, b) for a, b in zip(trajectory(5), trajectory(5), strict=True))


@pytestmark_envs
def test_make_vec_returns_native_vector_env(name, kwargs):
    venv = gymnasium.make_vec(env_id(name), num_envs=5, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(venv, WargymVectorEnv)
    obs, info = venv.reset(seed=0)
    a = venv.single_action_space.n
    masks = venv.action_masks()
    assert masks.shape == (5, a) and masks.dtype == bool and masks.any(axis=1).all()
    assert np.array_equal(masks, info["action_mask"])
    assert venv.observation_space.contains(obs)
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP


@pytestmark_envs
def test_vector_autoreset_same_step(name, kwargs):
    n = 8
    venv = gymnasium.make_vec(env_id(name), num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    obs, _ = venv.reset(seed=11)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        obs, rewards, terminated, truncated, info = venv.step(random_legal(rng, venv.action_masks()))
        done = terminated | truncated
        assert venv.action_masks().any(axis=1).all()  # every returned game waits for a decision
        assert np.array_equal(info["action_mask"], venv.action_masks())
        assert np.all(rewards[~done] == 0)
        if done.any():
            assert np.array_equal(info["_final_obs"], done)
            for g in np.flatnonzero(done):
                assert venv.single_observation_space.contains(info["final_obs"][g])
            assert all(info["final_obs"][g] is None for g in np.flatnonzero(~done))
        finished += int(done.sum())
    assert finished > n


@pytestmark_envs
def test_vector_runs_reproducibly(name, kwargs):
    def run(seed: int):
        venv = gymnasium.make_vec(env_id(name), num_envs=4, vectorization_mode="vector_entry_point", **kwargs)
        rng = np.random.default_rng(2)
        obs, _ = venv.reset(seed=seed)
        out = [obs["spatial"]]
        for _ in range(120):
            obs, rewards, *_ = venv.step(random_legal(rng, venv.action_masks()))
            out += [obs["spatial"], rewards]
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(9), run(9), strict=True))


@pytestmark_envs
def test_vector_game_is_the_single_game(name, kwargs):
    # game 0 of reset(seed=s) is the game of the single env reset(seed=s) (deterministic opponent)
    if kwargs.get("opponent", "rule") not in ("rule", "solitaire"):
        pytest.skip("needs a deterministic opponent")
    env = gymnasium.make(env_id(name), **kwargs)
    venv = gymnasium.make_vec(env_id(name), num_envs=3, vectorization_mode="vector_entry_point", **kwargs)
    obs, info = env.reset(seed=4)
    vobs, vinfo = venv.reset(seed=4)
    rng = np.random.default_rng(3)
    for _ in range(100):
        assert np.array_equal(obs["spatial"], vobs["spatial"][0])
        assert np.array_equal(info["action_mask"], vinfo["action_mask"][0])
        actions = random_legal(rng, venv.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(actions[0]))
        vobs, vrewards, vterminated, _, vinfo = venv.step(actions)
        assert reward == vrewards[0] and terminated == vterminated[0]
        if terminated or truncated:
            break


@pytestmark_envs
def test_max_decisions_truncates(name, kwargs):
    env = gymnasium.make(env_id(name), **{**kwargs, "max_decisions": 2})
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(2):
        _, _, terminated, truncated, info = env.step(int(random_legal(rng, info["action_mask"])[0]))
    assert terminated or truncated
    venv = gymnasium.make_vec(env_id(name), num_envs=3, vectorization_mode="vector_entry_point",
                              **{**kwargs, "max_decisions": 2})
    venv.reset(seed=0)
    venv.step(random_legal(rng, venv.action_masks()))
    _, _, terminated, truncated, info = venv.step(random_legal(rng, venv.action_masks()))
    assert (terminated | truncated).all() and info["_final_obs"].all()


@pytestmark_envs
def test_pettingzoo_api(name, kwargs):
    env = WargymAECEnv(ruleset=name, **aec_kwargs(kwargs))
    api_test(env, num_cycles=300)


@pytestmark_envs
def test_sb3_maskable_ppo_never_takes_a_masked_action(name, kwargs):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from wargym.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv(gymnasium.make_vec(env_id(name), num_envs=4, vectorization_mode="vector_entry_point", **kwargs))
    taken = []
    step_async = venv.step_async

    def checked_step_async(actions):
        mask = venv.action_masks()
        taken.append(mask[np.arange(len(actions)), actions].all())
        step_async(actions)

    venv.step_async = checked_step_async
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=32, batch_size=64, n_epochs=2, seed=0, device="cpu")
    model.learn(total_timesteps=300)
    assert len(taken) >= 64 and all(taken)
