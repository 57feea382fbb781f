"""``WargymEnv``: one game of any ruleset as a gymnasium.Env, the other side played by an opponent.

Observation (one game): a flat ``Dict``, as stable-baselines3's ``MultiInputPolicy`` takes it::

    {"spatial": float32[C, rows, cols],    core.observe(state, side)
     "global":  float32[G]}

Action mask: ``env.action_masks()`` (bool[A], sb3-contrib's ``MaskablePPO`` calls it through any
wrapper) and ``info["action_mask"]`` (gymnasium's place for it, as in its Taxi env), after
``reset`` and every ``step``.  The mask is not part of the observation: a policy reads the position,
its masking is done outside it, and the observation space is the same in the single env, the vector
env, ``SB3VecEnv`` and a checkpoint's ``SB3Agent``, so a policy trained through one runs in the others.
(The PettingZoo env puts the mask in the observation, ``{"observation": ..., "action_mask": ...}``,
where PettingZoo's tools read it.)

Action: ``Discrete(A)``, the core's flat action id (``core.describe_action(a)`` reads it).

A step is one decision of the agent's player (``side``).  After it the opponent makes every
decision that is not the agent's -- its own turn, several decisions in a row, and the answers
the rules ask of it inside the agent's turn -- until the agent must decide again or the game ends.
With ``phases`` the agent decides only in those decision phases (Attu: the U.S. command decisions
refit, night turn and retreat) and a ``delegate`` (its side's rule baseline by default) makes
the side's other decisions inside the env: a policy over a few strategic choices, the rule
playing the units.
Reward: ``core.rewards(state)[side]`` (+1 win / -1 loss / 0 draw at the end, 0 before).  With
``reward_shaping=c`` (off by default) every step also pays ``c`` times the change of the side's
``core.score`` (Island War: the victory margin) over the step, the opponent's replies included:
a potential-based shaping (Ng et al. 1999), so over a whole game it adds ``c`` times the final
score minus the first, and the best policy for the final result stays the best.
Episode: terminated when the rules end the game; truncated by the core's step limit or after
``max_decisions`` agent decisions.

An illegal action (in the action space, masked out now) ends the game as a loss by default
(``illegal_action="lose"``: reward -1, terminated, ``info["illegal_action"]`` says which action and
why it was masked), as PettingZoo's TerminateIllegalWrapper does: an env must take every action of
its space, and gymnasium's and stable-baselines3's ``check_env`` step unmasked random actions.  With
``illegal_action="raise"`` it raises ``wargym.IllegalActionError`` (the same text) and leaves the game
as it was: for debugging an agent that should never pick one.  An action outside the space always
raises.

The helpers below are shared with the vector and PettingZoo front doors.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from wargym.agents.base import Agent, Policy, make_agent, reset_agent
from wargym.core import RENDER_MODES as CORE_RENDER_MODES, BaseState, Core, phase_ids

IllegalActionMode = Literal["raise", "lose"]
RENDER_MODES = list(CORE_RENDER_MODES)
_SEED_BOUND = 2**31
MAX_RESTARTS = 100  # games in a row allowed to end before the agent's first decision
SOLITAIRE = "solitaire"  # opponent: the ruleset's own solitaire rules and their baseline


# -- shared by the front doors -------------------------------------------------------------------
def resolve_side(core: Core, side: str | int) -> int:
    """Index into ``core.players`` of ``side`` (a player name or index)."""
    if isinstance(side, str):
        if side not in core.players:
            raise ValueError(f"side {side!r} is not a player of {core.name}; players: {core.players}")
        return core.players.index(side)
    if not 0 <= int(side) < len(core.players):
        raise ValueError(f"side must be in 0..{len(core.players) - 1} or one of {core.players}, got {side}")
    return int(side)


def observation_space(core: Core) -> spaces.Dict:
    """The per-game observation space: a flat Dict of float32 boxes, {"spatial", "global"}.  Box
    bounds come from the core's ``observation_bounds`` ({key: (low, high)}); a key it does not
    bound is unbounded."""
    bounds = core.observation_bounds
    return spaces.Dict({k: spaces.Box(*bounds.get(k, (-np.inf, np.inf)), tuple(shape), np.float32)
                        for k, shape in core.observation_shapes.items()})


def observe(core: Core, state: BaseState, side: int) -> dict[str, np.ndarray]:
    """Batched observation of ``side`` (fresh arrays)."""
    return {k: np.asarray(v, dtype=np.float32) for k, v in core.observe(state, side).items()}


def game_slice(obs: dict[str, np.ndarray], game: int) -> dict[str, np.ndarray]:
    """Observation of one game out of a batched one."""
    return {k: v[game] for k, v in obs.items()}


def env_view(core: Core, state: BaseState, side: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The observation and info the single env hands its agent (player ``side``) in game 0."""
    obs = game_slice(observe(core, state, side), 0)
    return obs, {"action_mask": np.asarray(core.legal_mask(state)[0], dtype=bool).copy()}


def make_opponents(core: Core, side: int, opponent: str | Agent | Policy) -> dict[int, Agent]:
    """An agent for every player other than ``side`` (an Agent object serves all of them);
    "solitaire": the book's own system (``core.system_play``) plays its sides."""
    if isinstance(opponent, str) and opponent == SOLITAIRE:
        play = core.system_play
        return {p: make_agent(play.agent, core.name, name) for p, name in enumerate(core.players)
                if p != side and name in play.sides and play.agent is not None}
    return {p: make_agent(opponent, core.name, name) for p, name in enumerate(core.players) if p != side}


@dataclasses.dataclass(frozen=True)
class Delegate:
    """The agent's own decisions outside ``phases`` (names of ``core.phase_names``), made inside
    the env by ``agent``: the policy then decides only in those phases."""

    agent: Agent
    phases: tuple[str, ...]
    phase_ids: np.ndarray

    def handed(self, state: BaseState) -> np.ndarray:
        """bool[B]: games whose decision now is in none of the agent's phases."""
        return ~np.isin(np.asarray(state.phase), self.phase_ids)


def make_delegate(core: Core, side: int, phases: Sequence[str] | None,
                  delegate: str | Agent | Policy) -> Delegate | None:
    """None without ``phases``; else the Delegate of ``side`` (errors name an unknown phase)."""
    if phases is None:
        return None
    if isinstance(phases, str) or not phases:
        raise ValueError(f"phases must be a non-empty list of phase names, got {phases!r}")
    ids = np.asarray(phase_ids(core.phase_names, phases, f"phases: {core.name}"), dtype=np.int64)
    return Delegate(make_agent(delegate, core.name, core.players[side]), tuple(phases), ids)


def inner_agents(opponents: dict[int, Agent], delegate: Delegate | None) -> list[Agent]:
    """The agents that play inside an env (reset with it): the opponents, then the delegate."""
    return list(opponents.values()) + ([delegate.agent] if delegate else [])


def play_opponents(core: Core, state: BaseState, side: int, opponents: dict[int, Agent],
                   delegate: Delegate | None = None) -> BaseState:
    """Let the opponents decide in every running game until each waits for ``side`` or is over
    (and, with a ``delegate``, let it make the side's decisions outside the side's phases).
    All games are stepped together; the loop is over decision rounds, not games.  The caller's
    ``state`` is left as it was: the loop steps one copy of it in place (an opponent's turn is a
    dozen rounds; a copy per round was ~5 % of a World at War training step in a profile)."""
    own = None
    while True:
        current = np.asarray(core.current_player(state))
        live = ~np.asarray(core.terminated(state) | core.truncated(state))
        handed = live & (current == side) & delegate.handed(state) if delegate else np.zeros_like(live)
        waiting = live & (current != side)
        if not (waiting.any() or handed.any()):
            return state
        if own is None:
            state = own = state.copy()
        for player, agent in opponents.items():
            active = waiting & (current == player)
            if active.any():
                core.step_in_place(state, agent.act(core, state, player), active=active)
        if handed.any():  # games the opponents' steps above left untouched
            core.step_in_place(state, delegate.agent.act(core, state, side), active=handed)


def illegal_actions(core: Core, state: BaseState, actions: np.ndarray) -> np.ndarray:
    """bool[B]: running games whose action is outside the space or masked out."""
    actions = np.asarray(actions)
    if actions.shape != (state.batch_size,) or not np.issubdtype(actions.dtype, np.integer):
        raise ValueError(f"actions must be integers of shape ({state.batch_size},), got {actions.dtype}{actions.shape}")
    live = ~(core.terminated(state) | core.truncated(state))
    inside = (actions >= 0) & (actions < core.num_actions)
    legal = np.asarray(core.legal_mask(state))[np.arange(len(actions)), np.clip(actions, 0, core.num_actions - 1)]
    return live & ~(inside & legal)


def forfeit(state: BaseState, side: int, games: np.ndarray) -> BaseState:
    """End ``games`` as a loss for ``side`` (-1) and a win (+1) for every other player."""
    if not games.any():
        return state
    result = np.where(np.arange(state.rewards.shape[1]) == side, -1.0, 1.0).astype(state.rewards.dtype)
    return dataclasses.replace(state, terminated=state.terminated | games,
                               rewards=np.where(games[:, None], result, state.rewards))


def check_options(render_mode: str | None, illegal_action: str) -> None:
    """The constructor options the single and the vector env share."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, got {render_mode!r}")
    if illegal_action not in ("raise", "lose"):
        raise ValueError(f"illegal_action must be 'raise' or 'lose', got {illegal_action!r}")


def shaping_score(core: Core, state: BaseState, side: int, coef: float) -> np.ndarray:
    """float64[B]: ``coef`` times the side's ``core.score`` (zeros when coef is 0)."""
    if not coef:
        return np.zeros(state.batch_size)
    return coef * np.asarray(core.score(state), dtype=np.float64)[:, side]


def check_shaping(core: Core, coef: float) -> float:
    coef = float(coef)
    if coef and core.score(core.init(1, 0)) is None:
        raise ValueError(f"reward_shaping={coef} needs a score: ruleset {core.name!r} has none (core.score)")
    return coef


def build_core(core: Core | None, ruleset: str | None, scenario: str | None, decisions: str | None,
               opponent: Any = None, core_options: dict[str, Any] | None = None) -> Core:
    """The env's core; ``opponent="solitaire"`` asks for the book's own system (``system_play``:
    Attu's solitaire rules, 13.0), which must have a switch, be switched on and leave a side to
    the agent."""
    from wargym.registry import core_class, make_core

    solitaire = isinstance(opponent, str) and opponent == SOLITAIRE
    if core is None and ruleset is None:
        raise ValueError("give ruleset= (e.g. 'island_war') or core=")
    play = (core or core_class(ruleset)).system_play
    if solitaire and (play is None or play.option is None):
        raise ValueError(f"opponent='solitaire': ruleset {(core.name if core else ruleset)!r} has no solitaire rules")
    if core is not None:
        if solitaire and not core.options.get(play.option):
            raise ValueError(f"opponent='solitaire' needs a core built with {play.option}=True")
        return core
    kwargs: dict[str, Any] = dict(core_options or {})
    if decisions is not None:
        kwargs["decisions"] = decisions
    if solitaire:
        kwargs[play.option] = True
    return make_core(ruleset, scenario, **kwargs)


# -- the single-game env -------------------------------------------------------------------------
class WargymEnv(gymnasium.Env):
    """One game of a wargym ruleset from the point of view of player ``side``.

    Args:
        ruleset: a ruleset of wargym.registry (``"island_war"``).
        scenario: the ruleset's scenario (its default when None).
        side: the agent's player, by name or index.
        opponent: "rule" (the side's registered baseline), "rule:<name>", "random", "solitaire"
            (the book's solitaire rules drive the other side: Attu 13.0), an Agent,
            or a callable ``(core, state, player) -> int64[B]``.
        render_mode: "ansi" or "rgb_array" (drawn for the agent's side: its fog of war).
        decisions: passed to the core ("major" or "full" where the ruleset has both).
        max_decisions: truncate after this many agent decisions.
        illegal_action: "lose" (default: the game ends as a loss) or "raise" (IllegalActionError).
        reward_shaping: weight of the shaped reward (see the module docstring); 0 = results only.
        core: a ready core (then ruleset, scenario, decisions and core_options are not used).
        core_options: the core's rule options (Attu: ``{"vp_chits": True}``), recorded with the
            game like the scenario.
        phases: the agent decides only in these phases (names of ``core.phase_names``, e.g.
            Attu's ``["refit decision", "night decision"]``); ``delegate`` makes the side's other
            decisions inside the env.  None (default): the agent makes every decision of its side.
        delegate: the agent spec for those other decisions ("rule": the side's rule baseline).

    Attributes: ``core``, ``side`` (player index), ``opponents`` ({player: Agent}), ``delegate``
    (a Delegate or None) and ``state`` (the batch-1 core state; ``core.render``/``core.to_dict``
    read it).
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, ruleset: str | None = None, scenario: str | None = None, side: str | int = 0,
                 opponent: str | Agent | Policy = "rule", render_mode: str | None = None,
                 decisions: str | None = None, max_decisions: int | None = None,
                 illegal_action: IllegalActionMode = "lose", reward_shaping: float = 0.0,
                 core: Core | None = None, phases: Sequence[str] | None = None,
                 delegate: str | Agent | Policy = "rule", core_options: dict[str, Any] | None = None):
        check_options(render_mode, illegal_action)
        self.core = build_core(core, ruleset, scenario, decisions, opponent, core_options)
        self.reward_shaping = check_shaping(self.core, reward_shaping)
        self.side = resolve_side(self.core, side)
        self.opponents = make_opponents(self.core, self.side, opponent)
        self.delegate = make_delegate(self.core, self.side, phases, delegate)
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.illegal_action = illegal_action
        self.observation_space = observation_space(self.core)
        self.action_space = spaces.Discrete(self.core.num_actions)
        self.state: BaseState | None = None
        self._decisions = 0
        self._forfeited = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """New game: ``core.init(1, seed)`` (a seed drawn from ``np_random`` when None), then the
        opponents play until the agent's first decision."""
        super().reset(seed=seed)
        core_seed = seed if seed is not None else int(self.np_random.integers(_SEED_BOUND))
        for agent in inner_agents(self.opponents, self.delegate):
            reset_agent(agent, int(self.np_random.integers(_SEED_BOUND)))
        state = play_opponents(self.core, self.core.init(1, core_seed), self.side, self.opponents, self.delegate)
        restarts = 0
        while bool(self.core.terminated(state)[0] | self.core.truncated(state)[0]):
            # over before the agent's first decision: play the next game of this seed instead
            restarts += 1
            if restarts > MAX_RESTARTS:
                raise RuntimeError(f"{MAX_RESTARTS} games in a row ended before side {self.side} decided")
            state = self.core.reset_done(state, core_seed, np.array([restarts]))
            state = play_opponents(self.core, state, self.side, self.opponents, self.delegate)
        self.state = state
        self._decisions = 0
        self._forfeited = False
        self._score = shaping_score(self.core, state, self.side, self.reward_shaping)[0]
        return env_view(self.core, self.state, self.side)

    def step(self, action):
        if self.state is None or self._game_over():
            raise RuntimeError("the game is over (or was never started): call reset()")
        actions = np.asarray([action])
        state = self.state
        info: dict[str, Any] = {}
        if self.illegal_action == "lose" and illegal_actions(self.core, state, actions)[0]:
            if not self.action_space.contains(int(actions[0])):
                self.core.check_actions(state, actions)  # outside the space: IllegalActionError
            self._forfeited = True
            info["illegal_action"] = self.core.illegal_texts(state, 0, [int(actions[0])], viewer=self.side)[0]
            obs, view_info = env_view(self.core, self.state, self.side)
            return obs, -1.0, True, False, {**info, **view_info}
        state = self.core.step(state, actions)  # IllegalActionError: self.state is untouched
        self.state = play_opponents(self.core, state, self.side, self.opponents, self.delegate)
        self._decisions += 1
        terminated = bool(self.core.terminated(self.state)[0])
        truncated = not terminated and (bool(self.core.truncated(self.state)[0]) or self._out_of_decisions())
        score = shaping_score(self.core, self.state, self.side, self.reward_shaping)[0]
        reward = float(self.core.rewards(self.state)[0, self.side]) + score - self._score
        self._score = score
        obs, view_info = env_view(self.core, self.state, self.side)
        return obs, reward, terminated, truncated, {**info, **view_info}

    def action_masks(self) -> np.ndarray:
        """bool[A]: the agent's legal actions now (sb3-contrib MaskablePPO convention)."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return np.asarray(self.core.legal_mask(self.state)[0], dtype=bool).copy()

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        return self.core.render(self.state, 0, self.render_mode, viewer=self.side)

    def _out_of_decisions(self) -> bool:
        return self.max_decisions is not None and self._decisions >= self.max_decisions

    def _game_over(self) -> bool:
        return (self._forfeited or self._out_of_decisions()
                or bool(self.core.terminated(self.state)[0] | self.core.truncated(self.state)[0]))
