"""The Agent protocol, how agents are named, and the settings a trained policy carries.

An agent picks one action for every game of a batch::

    agent.act(core, state, player) -> int64[B]

The envs only use the actions of games whose current player is ``player``; the others may be
anything in ``[0, num_actions)``.  An agent may also define ``reset(seed)``; the envs call it when
they are reset with a seed, so seeded episodes are reproducible.

Agent specs (``make_agent``; the same everywhere: eval, tournament, serve, play, demo, train's opponent)::

    "random"             uniform over the legal actions (RandomAgent)
    "rule"               the ruleset's registered rule-based baseline for that side
    "rule:<name>"        another registered baseline (wargym.agents.baselines)
    "sb3:<path>"         a saved MaskablePPO policy (SB3Agent; needs the [train] extra)
    "onnx:<path>"        an exported ONNX policy (OnnxAgent: numpy + onnxruntime, no torch)
    "py:<module>:<Name>" your own agent, imported from a module (``load_py_agent``; docs/agents.md)
    "plan[:k=v,...]"     the planner: determinized playouts of a base policy (wargym.agents.planner)
    "sides:<side>=<spec>;<side>=<spec>"
                         one agent that plays each side by its own spec (``parse_sides``), e.g. two
                         trained policies, one a side, as one tournament entry
    an Agent object      used as is
    a callable           (core, state, player) -> int64[B], wrapped as an Agent

A trained policy carries its settings (``agent_settings``): the ruleset, side, scenario, decision
mode, rule options, decision phases and delegate it was trained with, read from the run.json of
its ``wargym train`` run (sb3:) or from the sidecar ``wargym export`` writes (onnx:).  The
commands build the game from them (``game_settings``) and seat the policy on its side
(``policy_sides``); an option given on the command line that contradicts a policy, or two
policies that want different games, is an error naming both values.  Without a policy the
decision mode is ``DEFAULT_DECISIONS`` ("major") in every command.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from wargym.core import BaseState, Core

Policy = Callable[[Core, BaseState, int], np.ndarray]

#: the decision mode of every command (demo, play, serve, eval, tournament) when neither the
#: command line nor a policy names one: the minor choices by the rules' defaults, as the shipped
#: training configs train
DEFAULT_DECISIONS = "major"
#: what a policy's settings name (``agent_settings``); "source" says which file they came from
SETTING_KEYS = ("ruleset", "side", "scenario", "decisions", "options", "phases", "delegate")
#: the keyword arguments a ``py:`` agent class or factory may take
PY_FACTORY_KEYWORDS = ("ruleset", "side", "seed")


class SettingsError(ValueError):
    """Settings that contradict each other: an option given against a policy's own, or two
    policies that want different games (or the same side)."""


class AgentSpecError(ValueError):
    """An agent spec that names no agent (a ``py:`` module or name that is missing, say)."""


class Default(str):
    """A command-line default that a policy's own setting overrides.

    ``Default("major") == "major"``, but a command can tell it from the same value typed (argparse
    cannot): ``--decisions major`` against a "full" policy is an error, the default is not."""

    def __repr__(self) -> str:
        return str.__repr__(str(self))


def is_given(value: Any) -> bool:
    """Whether a command-line value was given (not None, not a ``Default``)."""
    return value is not None and not isinstance(value, Default)


@runtime_checkable
class Agent(Protocol):
    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        """int64[B]: an action for every game (used where ``player`` is to decide)."""
        ...


class FunctionAgent:
    """An Agent around a plain function ``(core, state, player) -> int64[B]``."""

    def __init__(self, policy: Policy):
        self.policy = policy

    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        return np.asarray(self.policy(core, state, player), dtype=np.int64)

    def __repr__(self) -> str:
        return f"FunctionAgent({getattr(self.policy, '__name__', self.policy)!r})"


class PhaseAgent:
    """``agent`` deciding in the named decision phases (``core.phase_names``), ``delegate`` in all
    the others: how a policy trained with the env's ``phases`` option (wargym.envs.single) plays
    a whole game."""

    def __init__(self, agent: Agent, delegate: Agent, phases: tuple[str, ...] | list[str]):
        self.agent, self.delegate, self.phases = agent, delegate, tuple(phases)

    def reset(self, seed: int | None) -> None:
        reset_agent(self.agent, seed)
        reset_agent(self.delegate, seed)

    def act(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        names = tuple(core.phase_names)
        missing = [name for name in self.phases if name not in names]
        if missing:
            raise ValueError(f"PhaseAgent: {core.name} has no phases {missing}; its phases: {list(names)}")
        mine = np.flatnonzero(np.isin(np.asarray(state.phase), [names.index(name) for name in self.phases]))
        actions = np.asarray(self.delegate.act(core, state, player), dtype=np.int64).copy()
        if mine.size:  # the agent sees only the games in its phases
            actions[mine] = np.asarray(self.agent.act(core, state.take(mine), player), dtype=np.int64)
        return actions

    def __repr__(self) -> str:
        return f"PhaseAgent({self.agent!r} in {list(self.phases)}, else {self.delegate!r})"


def split_agent(policy: Policy, record: dict[str, Any] | None) -> PhaseAgent | None:
    """``policy`` deciding only in the phases ``record`` names (a training run's config or an
    export's sidecar: its "phases", "delegate", "ruleset" and "side"), its delegate in the others;
    None when the record names no phases (the policy makes every decision)."""
    if not record or not record.get("phases"):
        return None
    delegate = make_agent(record.get("delegate") or "rule", record["ruleset"], record["side"])
    return PhaseAgent(FunctionAgent(policy), delegate, record["phases"])


def checkpoint_path(path: str | Path) -> Path:
    """The saved model ``path`` names: SB3 adds the ``.zip`` itself, so ``runs/us/final`` finds
    ``runs/us/final.zip`` (and ``model.v2`` finds ``model.v2.zip``); ``path`` when neither exists."""
    path = Path(path)
    if path.exists():
        return path
    return next((p for p in (path.with_suffix(".zip"), path.with_name(path.name + ".zip")) if p.is_file()), path)


def training_run_path(checkpoint: str | Path) -> Path | None:
    """The run.json of the ``wargym train`` run a checkpoint belongs to (beside final.zip, one
    folder above checkpoints/model_*.zip), or None."""
    checkpoint = Path(checkpoint)
    for folder in (checkpoint.parent, checkpoint.parent.parent):
        record = folder / "run.json"
        if record.is_file():
            return record
    return None


def training_run(checkpoint: str | Path) -> dict[str, Any] | None:
    """The config of the ``wargym train`` run a checkpoint belongs to (its run.json), or None."""
    record = training_run_path(checkpoint)
    if record is None:
        return None
    try:
        return json.loads(record.read_text(encoding="utf-8")).get("config") or {}
    except json.JSONDecodeError as err:
        raise ValueError(f"{record}: not a training run record (invalid JSON: {err.msg})") from None


def reset_agent(agent: Any, seed: int | None) -> None:
    """Call the agent's optional ``reset(seed)`` hook."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(seed)


def joint_actions(core: Core, state: BaseState, agents: Sequence[Agent],
                  games: np.ndarray | None = None) -> np.ndarray:
    """int64[B]: in each game (of ``games``, bool[B], all by default) the action of ``agents[p]``,
    p the player who decides there, each agent asked once for the whole batch; 0 elsewhere."""
    actions = np.zeros(state.batch_size, dtype=np.int64)
    current = np.asarray(core.current_player(state))
    for p, agent in enumerate(agents):
        mine = current == p if games is None else games & (current == p)
        if mine.any():
            actions[mine] = np.asarray(agent.act(core, state, p), dtype=np.int64)[mine]
    return actions


# ------------------------------------------------------------------------------ policy settings
def core_defaults(ruleset: str) -> dict[str, Any]:
    """The keyword defaults of the ruleset's core class (its decision mode, its rule options)."""
    from wargym.registry import core_class

    return {name: p.default for name, p in inspect.signature(core_class(ruleset)).parameters.items()
            if p.default is not inspect.Parameter.empty}


def default_decisions(ruleset: str) -> str | None:
    """``DEFAULT_DECISIONS`` for a ruleset whose core has decision modes, None for one without."""
    return DEFAULT_DECISIONS if "decisions" in core_defaults(ruleset) else None


def changed_options(ruleset: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The rule options of ``options`` (a core's ``options``) that differ from the core's defaults:
    what a game must be built with to be the game a policy was trained in."""
    defaults = core_defaults(ruleset)
    return {k: v for k, v in options.items() if k not in defaults or defaults[k] != v}


def run_settings(config: Mapping[str, Any], source: str | Path) -> dict[str, Any]:
    """The settings of a training run (the "config" of its run.json), its unset values resolved
    as ``wargym train`` resolved them: the ruleset's default scenario, the core's default decision
    mode, the core options it set (``core_options``) and the rule option the "solitaire" opponent
    switches on."""
    from wargym.registry import core_class, default_scenario

    ruleset = config.get("ruleset") or "island_war"
    options: dict[str, Any] = dict(config.get("core_options") or {})
    play = core_class(ruleset).system_play
    if config.get("opponent") == "solitaire" and play is not None and play.option:
        options[play.option] = True
    phases = list(config.get("phases") or []) or None
    return {"ruleset": ruleset, "side": config.get("side"),
            "scenario": config.get("scenario") or default_scenario(ruleset),
            "decisions": config.get("decisions") or core_defaults(ruleset).get("decisions"),
            "options": options, "phases": phases, "delegate": (config.get("delegate") or "rule") if phases else None,
            "source": str(source)}


def checkpoint_settings(checkpoint: str | Path) -> dict[str, Any] | None:
    """The settings of the training run a checkpoint belongs to (``run_settings`` of its
    run.json), or None for a checkpoint without one."""
    record = training_run_path(checkpoint)
    return run_settings(training_run(checkpoint) or {}, record) if record is not None else None


def sidecar_settings(meta: Mapping[str, Any], source: str | Path) -> dict[str, Any]:
    """The settings an export's sidecar (policy.json) records."""
    phases = list(meta.get("phases") or []) or None
    return {"ruleset": meta["ruleset"], "side": meta["side"], "scenario": meta.get("scenario"),
            "decisions": meta.get("decisions"), "options": dict(meta.get("options") or {}),
            "phases": phases, "delegate": (meta.get("delegate") or "rule") if phases else None,
            "source": str(source)}


def agent_settings(spec: Any) -> dict[str, Any] | None:
    """The settings of the policy ``spec`` names, without loading it: an onnx: policy's sidecar,
    an sb3: checkpoint's run.json (None for a checkpoint without one), an Agent object's
    ``settings``; None for an agent that plays any game and side (random, rule, py:, ...).
    ``spec`` may be a tournament entry ``{"spec": ...}``."""
    if isinstance(spec, Mapping):
        spec = spec.get("spec")
    if isinstance(spec, str):
        kind, _, arg = spec.partition(":")
        if kind == "sides":
            return sides_settings(spec)
        if kind == "onnx" and arg:
            from wargym.agents.onnx_agent import read_sidecar

            _, meta, json_path = read_sidecar(arg)
            return sidecar_settings(meta, json_path)
        if kind == "sb3" and arg:
            path = checkpoint_path(arg)
            if not path.is_file():
                raise FileNotFoundError(f"agent spec {spec!r}: no saved policy at {arg}")
            return checkpoint_settings(path)
        return None
    settings = getattr(spec, "settings", None)
    return dict(settings) if isinstance(settings, Mapping) and settings else None


def parse_sides(spec: str) -> dict[str, str]:
    """{side: spec} of a ``sides:<side>=<spec>;<side>=<spec>`` agent spec, in its order.
    ``AgentSpecError`` naming the part that is not ``<side>=<spec>``, a side named twice, or a
    nested ``sides:``."""
    kind, _, arg = spec.partition(":")
    if kind != "sides":
        raise AgentSpecError(f"agent spec {spec!r}: not a sides: spec")
    out: dict[str, str] = {}
    for part in arg.split(";"):
        side, eq, sub = (s.strip() for s in part.partition("="))
        if not eq or not side or not sub:
            raise AgentSpecError(f"agent spec {spec!r}: {part.strip()!r} is not <side>=<spec>; write e.g. "
                                 "'sides:us=onnx:us.onnx;japan=onnx:japan.onnx'")
        if side in out:
            raise AgentSpecError(f"agent spec {spec!r}: side {side!r} is given twice")
        if sub.partition(":")[0] == "sides":
            raise AgentSpecError(f"agent spec {spec!r}: a side's spec cannot be another sides: spec")
        out[side] = sub
    return out


def sides_settings(spec: str) -> dict[str, Any] | None:
    """The game a ``sides:`` agent's policies were trained for (``agent_settings`` of each side's
    spec, which must agree: ``game_settings``), with no side of its own: it plays every side it
    names.  ``SettingsError`` when a side's policy was trained for another side; None when no
    side's spec carries settings."""
    parts = parse_sides(spec)
    labels = {side: f"{spec!r}'s {side}" for side in parts}
    settings = {side: agent_settings(sub) for side, sub in parts.items()}
    for side, s in settings.items():
        if s and s.get("side") and s["side"] != side:
            raise SettingsError(f"{labels[side]}: the policy plays side {s['side']!r} ({_from(s)}), not {side!r}")
    if not any(settings.values()):
        return None
    game = game_settings([(labels[side], sub) for side, sub in parts.items()])
    sources = [s["source"] for s in settings.values() if s and s.get("source")]
    return {"ruleset": game["ruleset"], "side": None, "scenario": game["scenario"], "decisions": game["decisions"],
            "options": game["options"], "phases": None, "delegate": None, "source": "; ".join(sources)}


#: how error messages write an option given in Python (PY_FLAGS) and on the command line (CLI_FLAGS)
PY_FLAGS = {"ruleset": "ruleset={!r}", "scenario": "scenario={!r}", "decisions": "decisions={!r}",
            "side": "side={!r}", "a_side": "a_side={!r}", "options": "core_options {}"}
CLI_FLAGS = {"ruleset": "--ruleset {}", "scenario": "--scenario {}", "decisions": "--decisions {}",
             "side": "--side {}", "a_side": "--a-side {}", "options": "option {}"}


def _from(settings: Mapping[str, Any]) -> str:
    return f"from {settings['source']}" if settings.get("source") else "its own settings"


def game_settings(agents: Iterable[tuple[str, Any]], ruleset: str | None = None, scenario: str | None = None,
                  decisions: str | None = None, options: Mapping[str, Any] | None = None,
                  flags: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The game ``agents`` (pairs (label, spec or Agent)) are to play: {"ruleset", "scenario",
    "decisions", "options", "settings": {label: the agent's settings or None}}.

    Each of ruleset, scenario and decisions is the value given (not None, not a ``Default``),
    else the policies' (``agent_settings``), else the default (a ``Default``'s value; the ruleset's
    default scenario; ``DEFAULT_DECISIONS``).  ``options`` (core options, e.g. max_decisions) are
    added to the rule options the policies were trained with.  ``SettingsError`` when two policies
    want different values, or a given value contradicts a policy's; the message names both values
    (``flags``: how each option is written, ``CLI_FLAGS`` on the command line)."""
    flags = {**PY_FLAGS, **(flags or {})}
    settings = {label: agent_settings(spec) for label, spec in agents}
    policies = [(label, s) for label, s in settings.items() if s]
    out: dict[str, Any] = {}
    for key, value in (("ruleset", ruleset), ("scenario", scenario), ("decisions", decisions)):
        claims = [(label, s) for label, s in policies if s.get(key) is not None]
        for label, s in claims[1:]:
            first, theirs = claims[0]
            if s[key] != theirs[key]:
                raise SettingsError(f"{first} plays {key} {theirs[key]!r} ({_from(theirs)}) but {label} plays "
                                    f"{key} {s[key]!r} ({_from(s)}): they cannot play one game")
        if is_given(value):
            if claims and claims[0][1][key] != value:
                label, s = claims[0]
                raise SettingsError(f"{flags[key].format(value)}: {label} plays {key} {s[key]!r} ({_from(s)})")
            out[key] = str(value)
        elif claims:
            out[key] = claims[0][1][key]
        elif key == "ruleset":
            if value is None:
                raise SettingsError(f"which game? give {flags['ruleset'].format('NAME')}, or an agent that names one "
                                    "(an sb3:/onnx: policy)")
            out[key] = str(value)
        elif key == "decisions":  # a ruleset without decision modes takes none
            out[key] = default_decisions(out["ruleset"]) and (DEFAULT_DECISIONS if value is None else str(value))
        else:
            out[key] = None if value is None else str(value)
    rule_options: dict[str, Any] = {}
    owner: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for label, s in policies:
        for k, v in (s.get("options") or {}).items():
            if k in rule_options and rule_options[k] != v:
                first, theirs = owner[k]
                raise SettingsError(f"{first} plays with {k}={rule_options[k]!r} ({_from(theirs)}) but {label} with "
                                    f"{k}={v!r} ({_from(s)}): they cannot play one game")
            rule_options[k], owner[k] = v, (label, s)
    for k, v in (options or {}).items():
        if k in rule_options and rule_options[k] != v:
            label, s = owner[k]
            raise SettingsError(f"{flags['options'].format(f'{k}={v!r}')}: {label} plays with {k}={rule_options[k]!r} "
                                f"({_from(s)})")
    out["options"] = {**rule_options, **dict(options or {})}
    out["settings"] = settings
    return out


def policy_sides(players: tuple[str, ...] | list[str], a: tuple[str, Mapping[str, Any] | None],
                 b: tuple[str, Mapping[str, Any] | None] | None = None, a_side: str | None = None,
                 flag: str = "a_side={!r}") -> str | None:
    """The side agent A plays in every game (None: both, sides swapped), given the sides the
    policies ``a`` and ``b`` ((label, settings or None)) were trained for: a one-side policy plays
    only its side, the other agent the other side.  ``a_side`` (A's side given) must agree;
    ``SettingsError`` naming both sides when it does not, or when both policies play one side."""
    players = tuple(players)
    seats = [(label, s, s.get("side")) for label, s in (a, b or ("", None)) if s and s.get("side")]
    for label, s, side in seats:
        if side not in players:
            raise SettingsError(f"{label} plays side {side!r} ({_from(s)}), not a player of this game "
                                f"({', '.join(players)})")
    side_a = a[1].get("side") if a[1] else None
    side_b = b[1].get("side") if b and b[1] else None
    if len(players) != 2:
        if is_given(a_side) and side_a and a_side != side_a:
            raise SettingsError(f"{flag.format(a_side)}: {a[0]} plays side {side_a!r} ({_from(a[1])})")
        return a_side if is_given(a_side) else side_a
    other = {players[0]: players[1], players[1]: players[0]}
    if side_a and side_b and side_a == side_b:
        raise SettingsError(f"{a[0]} and {b[0]} both play side {side_a!r} ({_from(a[1])}; {_from(b[1])}): "
                            f"one game needs one of them on {other[side_a]!r}")
    if is_given(a_side):
        if side_a and a_side != side_a:
            raise SettingsError(f"{flag.format(a_side)}: {a[0]} plays side {side_a!r} ({_from(a[1])})")
        if side_b and a_side == side_b:
            raise SettingsError(f"{flag.format(a_side)}: {b[0]} plays side {side_b!r} ({_from(b[1])}), so A plays "
                                f"{other[side_b]!r}")
        return a_side
    if side_a:
        return side_a
    if side_b:
        return other[side_b]
    return None


# ------------------------------------------------------------------------------------ py: agents
def _py_error(spec: str, text: str) -> AgentSpecError:
    return AgentSpecError(f"agent spec {spec!r}: {text}")


def _import_module(spec: str, name: str):
    """``name`` imported; the current directory is searched too (after the Python path), as
    ``python -m`` would, so ``wargym eval --a py:my_agent:Agent`` finds ./my_agent.py."""
    for attempt in (0, 1):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as err:
            missing = err.name or ""
            if not (name == missing or name.startswith(missing + ".")):  # the module imports something missing
                raise _py_error(spec, f"importing {name!r} failed: {err}") from err
            cwd = os.getcwd()
            if attempt == 0 and cwd not in sys.path and "" not in sys.path:
                sys.path.append(cwd)
                continue
            raise _py_error(spec, f"no module named {missing!r} on the Python path (nor in {cwd}); put the folder "
                                  f"that holds it on PYTHONPATH") from None
        except Exception as err:  # noqa: BLE001 - any error of the user's module, named
            raise _py_error(spec, f"importing {name!r} raised {type(err).__name__}: {err}") from err
    raise AssertionError("unreachable")


def _keyword_call(spec: str, factory: Callable, values: Mapping[str, Any]) -> Any:
    """``factory(**the values it accepts among ruleset, side, seed)``; an AgentSpecError when it
    needs any other argument."""
    name = getattr(factory, "__name__", repr(factory))
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin without a signature: call it bare
        return factory()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return factory(**values)
    needed = [n for n, p in params.items() if p.default is inspect.Parameter.empty
              and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)]
    others = [n for n in needed if n not in values]
    if others:
        raise _py_error(spec, f"{name}() needs {', '.join(others)}; a py: agent class or factory takes only "
                              f"{', '.join(PY_FACTORY_KEYWORDS)} (as keywords), or none")
    return factory(**{n: v for n, v in values.items() if n in params})


def _is_act_function(fn: Callable) -> bool:
    """A plain act function ``(core, state, player)``: it needs arguments other than the factory
    keywords (ruleset, side, seed)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    needed = [n for n, p in params.items() if p.default is inspect.Parameter.empty
              and p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    return bool(needed) and not set(needed) <= set(PY_FACTORY_KEYWORDS)


def load_py_agent(spec: str, ruleset: str, side: str, seed: int | None = None) -> Agent:
    """The agent of a ``py:package.module:Name`` spec playing ``side`` of ``ruleset``.

    ``Name`` (dotted for a nested attribute) is looked up in the imported module and may be:

    * a class: constructed with those of ``ruleset=``, ``side=``, ``seed=`` its ``__init__``
      takes (all of them with ``**kwargs``; none is fine), one instance per side it plays;
    * a factory function taking only those keywords (or none): called the same way, it returns
      an agent (or an act function, which is wrapped);
    * an agent object (has ``act``): used as is, for every side;
    * an act function ``(core, state, player) -> int64[B]``: wrapped as a FunctionAgent.

    An agent built without the seed gets ``reset(seed)`` when it has that hook, so a seeded
    evaluation is reproducible either way.  ``AgentSpecError`` names what is wrong: no such
    module, no such name in it, or something that is not an agent."""
    target = spec.partition(":")[2]
    module_name, sep, name = target.partition(":")
    if not (module_name and sep and name):
        raise _py_error(spec, "use py:package.module:Name (a module on the Python path, then the agent's "
                              "name in it)")
    module = _import_module(spec, module_name)
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            where = getattr(module, "__file__", None) or module_name
            public = sorted(k for k, v in vars(module).items() if not k.startswith("_") and callable(v)
                            and getattr(v, "__module__", None) == module.__name__)
            raise _py_error(spec, f"module {module_name!r} ({where}) has no {name!r}"
                                  + (f"; it defines {', '.join(public)}" if public else ""))
        obj = getattr(obj, part)
    values = {"ruleset": ruleset, "side": side, "seed": seed}
    if isinstance(obj, type):  # a class (checked first: a class with an act method passes as an Agent)
        agent = _keyword_call(spec, obj, values)
        took_seed = _takes(obj, "seed")
    elif isinstance(obj, Agent):
        agent, took_seed = obj, False
    elif callable(obj) and _is_act_function(obj):
        return FunctionAgent(obj)
    elif callable(obj):
        agent = _keyword_call(spec, obj, values)
        took_seed = _takes(obj, "seed")
        if not isinstance(agent, Agent) and callable(agent):
            agent = FunctionAgent(agent)
    else:
        raise _py_error(spec, f"{name} is of type {type(obj).__name__}, not an agent: give an Agent class or object "
                              "(with act(core, state, player)), a factory returning one, or an act function "
                              "(core, state, player) -> int64[B]")
    if not isinstance(agent, Agent):
        raise _py_error(spec, f"{name}(...) returned a value of type {type(agent).__name__}, not an agent (no "
                              "act(core, state, player) method)")
    if seed is not None and not took_seed:
        reset_agent(agent, seed)
    return agent


def _takes(factory: Callable, keyword: str) -> bool:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False
    return keyword in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


# ----------------------------------------------------------------------------------------- specs
def make_agent(spec: str | Agent | Policy, ruleset: str, side: str, seed: int | None = None) -> Agent:
    """The agent named by ``spec`` playing ``side`` (a player name) of ``ruleset``."""
    if isinstance(spec, Agent):
        return spec
    if callable(spec):
        return FunctionAgent(spec)
    if not isinstance(spec, str):
        raise TypeError(f"agent spec must be a string, an Agent or a callable, got {type(spec).__name__}")
    kind, _, arg = spec.partition(":")
    if kind == "random" and not arg:
        from wargym.agents.random_agent import RandomAgent

        return RandomAgent(seed)
    if kind == "rule":
        from wargym.agents import baselines

        return baselines.get(ruleset, side, arg or "rule")
    if kind == "sb3" and arg:
        from wargym.agents.sb3_agent import SB3Agent

        return SB3Agent(arg)
    if kind == "onnx" and arg:
        from wargym.agents.onnx_agent import OnnxAgent

        return OnnxAgent(arg)
    if kind == "py":
        return load_py_agent(spec, ruleset, side, seed)
    if kind == "sides":
        parts = parse_sides(spec)
        if side not in parts:
            raise AgentSpecError(f"agent spec {spec!r} names no agent for side {side!r}; it names "
                                 f"{', '.join(parts)}")
        return make_agent(parts[side], ruleset, side, seed)
    if kind == "plan":
        from wargym.agents.planner import PlannerAgent, parse_spec

        try:
            return PlannerAgent(ruleset, side, seed=seed, **parse_spec(arg))
        except (ValueError, FileNotFoundError) as err:
            raise AgentSpecError(f"agent spec {spec!r}: {err}") from None
    raise AgentSpecError(f"unknown agent spec {spec!r}; use 'random', 'rule', 'rule:<name>', 'sb3:<path>', "
                         "'onnx:<path>', 'py:<module>:<Name>', 'plan[:key=value,...]', "
                         "'sides:<side>=<spec>;<side>=<spec>', an Agent or a callable")


def settings_mismatch(settings: Mapping[str, Any] | None, core: Core, player: int, where: str,
                      made: str = "trained") -> str | None:
    """What makes ``core`` / ``player`` another game than the one a policy's ``settings`` name
    (its ruleset, scenario, side, decision mode, rule options), or None when it is that game: a
    policy that plays a game it never saw plays nonsense without failing, so its agents ask."""
    if not settings:
        return None
    if settings.get("ruleset") and core.name != settings["ruleset"]:
        return f"{where} plays {settings['ruleset']}, not {core.name}"
    scenario, want = core.scenario.name, settings.get("scenario")
    if want and scenario and scenario != want and not str(want).endswith((".yaml", ".yml", ".json")):
        return f"{where} was {made} for scenario {want!r}, this game is {scenario!r}"
    side = settings.get("side")
    if side and core.players[player] != side:
        return f"{where} plays {side!r}; it was asked to play {core.players[player]!r}"
    decisions = settings.get("decisions")
    if decisions and getattr(core, "decisions", decisions) != decisions:
        return f"{where} was {made} with decisions {decisions!r}, this game has decisions {core.decisions!r}"
    for key, value in (settings.get("options") or {}).items():
        if key in core.options and core.options[key] != value:
            return f"{where} was {made} with {key}={value!r}, this game has {key}={core.options[key]!r}"
    return None
