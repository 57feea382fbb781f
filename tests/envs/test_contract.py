"""The front-door contract, for every registered ruleset (add a line to CASES to cover one).

Each case is (gymnasium id, env kwargs).  The toy ruleset (toy_core.py) checks the front doors on
short games; real rulesets run with ``max_decisions`` so that truncation and auto-reset happen
within the tests' budgets.
"""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import toy_core  # noqa: F401  (registers "wargym/Toy-v0" and the toy baselines)
from wargym import IllegalActionError
from wargym.agents import sample_legal
from wargym.envs import WargymAECEnv, WargymVectorEnv

CASES = [
    ("wargym/Toy-v0", {}),
    ("wargym/Toy-v0", {"scenario": "solo"}),
    ("wargym/Toy-v0", {"side": "blue", "opponent": "random"}),
    ("wargym/IslandWar-v0", {"decisions": "major", "max_decisions": 60}),
    ("wargym/IslandWar-v0", {"scenario": "bloody_ridge", "side": "japan", "opponent": "random",
                             "max_decisions": 60}),
    ("wargym/Attu-v0", {"opponent": "rule", "max_decisions": 60}),
    ("wargym/Attu-v0", {"opponent": "solitaire", "max_decisions": 60}),
    ("wargym/Attu-v0", {"scenario": "hogs_back", "side": "japan", "opponent": "rule", "decisions": "major",
                        "max_decisions": 60}),
]
IDS = [f"{env_id}{kwargs or ''}" for env_id, kwargs in CASES]
pytestmark = pytest.mark.parametrize("env_id,kwargs", CASES, ids=IDS)


def ruleset_of(env_id: str) -> str:
    return gymnasium.spec(env_id).kwargs["ruleset"]


def aec_kwargs(kwargs: dict) -> dict:
    return {k: v for k, v in kwargs.items() if k in ("scenario", "decisions", "max_decisions")}


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    return sample_legal(rng, np.atleast_2d(np.asarray(mask, dtype=bool)))


def test_check_env(env_id, kwargs):
    # check_env steps unmasked random actions, so it runs in the "lose" mode (see WargymEnv)
    env = gymnasium.make(env_id, illegal_action="lose", **kwargs)
    check_env(env.unwrapped)


def test_masks_agree_with_observation_and_step(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        assert np.array_equal(mask, info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(random_legal(rng, mask)[0]))
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            assert reward in (-1.0, 0.0, 1.0)
            obs, info = env.reset()


def test_illegal_action_raises_and_env_stays_usable(env_id, kwargs):
    env = gymnasium.make(env_id, **kwargs)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert np.array_equal(env.unwrapped.action_masks(), obs["action_mask"].astype(bool))
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_same_seed_same_observations(env_id, kwargs):
    def trajectory(seed: int) -> list[np.ndarray]:
        env = gymnasium.make(env_id, **kwargs)
        rng = np.random.default_rng(7)
        obs, _ = env.reset(seed=seed)
        seen = [obs["observation"]["spatial"].copy()]
        for _ in range(60):
            obs, _, terminated, truncated, _ = env.step(int(random_legal(rng, obs["action_mask"])[0]))
            seen.append(obs["observation"]["spatial"].copy())
            if terminated or truncated:
                obs, _ = env.reset()
        return seen

    assert all(np.array_equal(a, b) for a, b in zip(trajectory(5), trajectory(5), strict=True))


def test_make_vec_returns_native_vector_env(env_id, kwargs):
    venv = gymnasium.make_vec(env_id, num_envs=5, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(venv, WargymVectorEnv)
    obs, info = venv.reset(seed=0)
    a = venv.single_action_space.n
    masks = venv.action_masks()
    assert masks.shape == (5, a) and masks.dtype == bool and masks.any(axis=1).all()
    assert np.array_equal(masks, info["action_mask"])
    assert venv.observation_space.contains(obs)
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP


def test_vector_autoreset_same_step(env_id, kwargs):
    n = 8
    venv = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    obs, _ = venv.reset(seed=11)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(300):
        obs, rewards, terminated, truncated, info = venv.step(random_legal(rng, venv.action_masks()))
        done = terminated | truncated
        assert venv.action_masks().any(axis=1).all()  # every returned game waits for a decision
        assert np.array_equal(obs["action_mask"].astype(bool), venv.action_masks())
        assert np.all(rewards[~done] == 0)
        if done.any():
            assert np.array_equal(info["_final_obs"], done)
            for g in np.flatnonzero(done):
                assert venv.single_observation_space.contains(info["final_obs"][g])
            assert all(info["final_obs"][g] is None for g in np.flatnonzero(~done))
        finished += int(done.sum())
    assert finished > n


def test_vector_runs_reproducibly(env_id, kwargs):
    def run(seed: int):
        venv = gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", **kwargs)
        rng = np.random.default_rng(2)
        obs, _ = venv.reset(seed=seed)
        out = [obs["observation"]["spatial"]]
        for _ in range(120):
            obs, rewards, *_ = venv.step(random_legal(rng, venv.action_masks()))
            out += [obs["observation"]["spatial"], rewards]
        return out

    assert all(np.array_equal(a, b) for a, b in zip(run(9), run(9), strict=True))


def test_vector_game_is_the_single_game(env_id, kwargs):
    # game 0 of reset(seed=s) is the game of the single env reset(seed=s) (deterministic opponent)
    if kwargs.get("opponent", "rule") != "rule":
        pytest.skip("needs a deterministic opponent")
    env = gymnasium.make(env_id, **kwargs)
    venv = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point", **kwargs)
    obs, _ = env.reset(seed=4)
    vobs, _ = venv.reset(seed=4)
    rng = np.random.default_rng(3)
    for _ in range(100):
        assert np.array_equal(obs["observation"]["spatial"], vobs["observation"]["spatial"][0])
        assert np.array_equal(obs["action_mask"], vobs["action_mask"][0])
        actions = random_legal(rng, venv.action_masks())
        obs, reward, terminated, truncated, _ = env.step(int(actions[0]))
        vobs, vrewards, vterminated, *_ = venv.step(actions)
        assert reward == vrewards[0] and terminated == vterminated[0]
        if terminated or truncated:
            break


def test_max_decisions_truncates(env_id, kwargs):
    env = gymnasium.make(env_id, **{**kwargs, "max_decisions": 2})
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(2):
        obs, _, terminated, truncated, _ = env.step(int(random_legal(rng, obs["action_mask"])[0]))
    assert terminated or truncated
    venv = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point",
                              **{**kwargs, "max_decisions": 2})
    venv.reset(seed=0)
    venv.step(random_legal(rng, venv.action_masks()))
    _, _, terminated, truncated, info = venv.step(random_legal(rng, venv.action_masks()))
    assert (terminated | truncated).all() and info["_final_obs"].all()


def test_pettingzoo_api(env_id, kwargs):
    env = WargymAECEnv(ruleset=ruleset_of(env_id), **aec_kwargs(kwargs))
    api_test(env, num_cycles=300)


def test_sb3_maskable_ppo_never_takes_a_masked_action(env_id, kwargs):
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from wargym.envs.sb3 import SB3VecEnv

    venv = SB3VecEnv(gymnasium.make_vec(env_id, num_envs=4, vectorization_mode="vector_entry_point", **kwargs))
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
