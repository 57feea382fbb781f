"""A value fitted to outcomes: what a position is worth to a player, for playouts cut short.

The planner (wargym.agents.planner) scores a playout that stops at its horizon before the game
ends.  The rules' standing (``core.score``) is a hand-made measure; where a decision's price comes
after the horizon it misjudges it (Attu's Refit Turn: benchmarks/README.md).  A value fitted to
how games end is the measure the outcome itself teaches::

    features   the player's own observation, summarised: its global vector, the mean of every
               spatial plane over the map, and its standing less the others' (``features``).  Only
               what the player sees: the observation is its view
    positions  games of a base policy for every side (the rules by default) from fresh seeds,
               each game's positions sampled at random (about one decision in ``every``)
    label      the player's reward where the game ended (a draw counts half a win); games cut
               short, with no result, are left out
    model      logistic regression on the standardized features (scikit-learn), L2 penalty;
               ``value`` = 2 P(win) - 1, the expected reward of a game won or lost
    check      a fifth of the games held out (whole games: positions of one game are alike): the
               held-out log loss and Brier score of the model beside a fit on the standing
               alone and the base rate, saved with the model

A fitted value is a JSON file (``ValueModel.save``): the game it was fitted in (ruleset, scenario,
side, decision mode, core options), the weights and the held-out check.  Shipped values live in
configs/values/ and are named by their file name::

    python -m wargym.agents.value --ruleset attu --scenario campaign --side us --games 2000 \\
        --out configs/values/attu_campaign_us.json
    wargym eval --a "plan:horizon=80,value=attu_campaign_us" ...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from wargym.core import BaseState, Core

FORMAT = "wargym-value/1"


def features(core: Core, state: BaseState, player: int) -> np.ndarray:
    """float64[B, F]: ``player``'s observation summarised (module docstring).  F is the
    observation's global length, plus one per spatial plane, plus one (the standing)."""
    obs = core.observe(state, player)
    parts = []
    for key in sorted(obs):
        a = np.asarray(obs[key], dtype=np.float64)
        parts.append(a.reshape(a.shape[0], -1) if a.ndim <= 2 else a.reshape(a.shape[0], a.shape[1], -1).mean(axis=2))
    parts.append(standing(core, state, player)[:, None])
    return np.concatenate(parts, axis=1)


def standing(core: Core, state: BaseState, player: int) -> np.ndarray:
    """float[B]: ``player``'s standing by the rules' measure less the other players' mean (0 for a
    ruleset without one)."""
    score = core.score(state)
    if score is None:
        return np.zeros(state.batch_size)
    score = np.asarray(score, dtype=np.float64)
    if score.shape[1] == 1:
        return score[:, 0]
    others = (score.sum(axis=1) - score[:, player]) / (score.shape[1] - 1)
    return score[:, player] - others


class ValueFile(BaseModel):
    """The JSON file of a fitted value (``ValueModel.save``)."""

    model_config = ConfigDict(extra="forbid")
    format: str
    ruleset: str
    scenario: str
    side: str
    decisions: str | None = None
    options: dict[str, Any] = {}
    features: int
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    fitted: dict[str, Any] = {}

    @model_validator(mode="after")
    def _lengths(self) -> "ValueFile":
        if self.format != FORMAT:
            raise ValueError(f"format {self.format!r}: this version reads {FORMAT!r}")
        for key in ("mean", "scale", "coef"):
            if len(getattr(self, key)) != self.features:
                raise ValueError(f"{key} has {len(getattr(self, key))} numbers, features says {self.features}")
        if any(not s > 0 for s in self.scale):
            raise ValueError("scale: every number must be > 0")
        return self


class ValueModel:
    """A fitted value (module docstring): ``value(core, state, player)`` -> float[B] in (-1, 1)."""

    def __init__(self, data: ValueFile, source: str = "<fitted>"):
        self.data, self.source = data, source
        self.mean = np.asarray(data.mean)
        self.scale = np.asarray(data.scale)
        self.coef = np.asarray(data.coef)
        self._checked: set[int] = set()

    def __repr__(self) -> str:
        return f"ValueModel({self.source})"

    @property
    def settings(self) -> dict[str, Any]:
        d = self.data
        return {"ruleset": d.ruleset, "scenario": d.scenario, "side": d.side, "decisions": d.decisions,
                "options": d.options}

    def check(self, core: Core, player: int) -> None:
        """ValueError when ``core`` / ``player`` is another game than the one the value was fitted in."""
        from wargym.agents.base import settings_mismatch

        if id(core) in self._checked:
            return
        problem = settings_mismatch(self.settings, core, player, f"the value {self.source}", made="fitted")
        if problem:
            raise ValueError(problem)
        self._checked.add(id(core))

    def value(self, core: Core, state: BaseState, player: int) -> np.ndarray:
        self.check(core, player)
        x = features(core, state, player)
        if x.shape[1] != self.data.features:
            raise ValueError(f"the value {self.source} was fitted on {self.data.features} features, this game "
                             f"gives {x.shape[1]}")
        z = ((x - self.mean) / self.scale) @ self.coef + self.data.intercept
        return 2.0 / (1.0 + np.exp(-np.clip(z, -50, 50))) - 1.0

    def save(self, path: str | Path) -> Path:
        from wargym import atomic

        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(path, json.dumps(self.data.model_dump(), indent=1) + "\n")
        return path


def value_path(name: str) -> Path:
    """The file a ``value=`` option names: a path, or a shipped value's name (configs/values/)."""
    path = Path(name)
    if path.suffix == ".json" or path.is_file():
        return path
    from wargym.data import config_path

    return config_path("values", f"{name}.json")


def load_value(name: str) -> ValueModel:
    """The fitted value ``name`` names (``value_path``); FileNotFoundError or ValueError naming the
    file and what is wrong with it."""
    path = value_path(name)
    if not path.is_file():
        shipped = sorted(p.stem for p in value_path("x").parent.glob("*.json"))
        raise FileNotFoundError(f"no fitted value {name!r}: {path} is not a file (shipped values: "
                                f"{', '.join(shipped) or 'none'})")
    try:
        data = ValueFile.model_validate(json.loads(path.read_text()))
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not JSON ({err})") from None
    except ValidationError as err:
        first = err.errors()[0]
        key = ".".join(str(k) for k in first["loc"]) or "(file)"
        raise ValueError(f"{path}: {key}: {first['msg']}") from None
    return ValueModel(data, str(path))


# ------------------------------------------------------------------------------------- fitting
def collect(core: Core, player: int, agents: Sequence[Any], games: int, seed: int, every: int = 20,
            batch: int = 256) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Positions of ``games`` games of ``agents`` (one per player) from seeds ``seed ..``: (X
    float[N, F] ``player``'s features, y float[N] its reward where the game ended, game int[N]),
    about one position in ``every`` decisions of each game.  Games cut short are left out."""
    from wargym.agents.base import joint_actions, reset_agent
    from wargym.rng import game_keys

    rng = np.random.default_rng(seed)
    xs, ys, ids = [], [], []
    for first in range(0, games, batch):
        n = min(batch, games - first)
        state = core.init_from_keys(np.concatenate([game_keys(seed + first + i, 1) for i in range(n)]))
        for k, agent in enumerate(agents):
            reset_agent(agent, seed + first + k)
        rows, owners = [], []
        while True:
            live = ~np.asarray(state.terminated | state.truncated)
            if not live.any():
                break
            pick = np.flatnonzero(live & (rng.random(n) < 1.0 / every))
            if pick.size:
                rows.append(features(core, state.take(pick), player))
                owners.append(pick)
            core.step_in_place(state, joint_actions(core, state, agents, live), active=live)
        if not rows:
            continue
        x, owner = np.concatenate(rows), np.concatenate(owners)
        ended = np.asarray(state.terminated)[owner]
        xs.append(x[ended])
        ys.append(np.asarray(state.rewards, dtype=np.float64)[owner[ended], player])
        ids.append(first + owner[ended])
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(ids)


def _logistic(x: np.ndarray, y: np.ndarray, c: float):
    """A logistic regression of P(win) on ``x`` with reward labels ``y`` (a draw: half a win and
    half a loss, as two weighted rows)."""
    from sklearn.linear_model import LogisticRegression

    win, draw = y > 0, y == 0
    xx = np.concatenate([x, x[draw]])
    yy = np.concatenate([win | draw, np.zeros(int(draw.sum()), bool)])
    w = np.concatenate([np.where(draw, 0.5, 1.0), np.full(int(draw.sum()), 0.5)])
    if yy.all() or not yy.any():
        raise ValueError("every game ended the same way: nothing to fit (play more games)")
    return LogisticRegression(C=c, max_iter=2000).fit(xx, yy, sample_weight=w)


def _scores(p: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """Log loss and Brier score of win probabilities ``p`` against rewards ``y`` (a draw half a win)."""
    t = (y + 1.0) / 2.0
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return {"log_loss": float(-(t * np.log(p) + (1 - t) * np.log(1 - p)).mean()),
            "brier": float(((p - t) ** 2).mean())}


def fit(core: Core, player: int, x: np.ndarray, y: np.ndarray, game: np.ndarray, c: float = 1.0,
        held_out: int = 5, source: dict[str, Any] | None = None) -> ValueModel:
    """The value of ``player`` fitted to positions ``x`` with results ``y`` (``collect``), checked
    on the games whose number is 0 modulo ``held_out`` and then refitted on all of them."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    test = game % held_out == 0
    check: dict[str, Any] = {"positions": int(len(y)), "games": int(np.unique(game).size),
                             "held_out_games": int(np.unique(game[test]).size)}
    model = _logistic(z[~test], y[~test], c)
    check["model"] = _scores(model.predict_proba(z[test])[:, 1], y[test])
    alone = _logistic(z[~test][:, -1:], y[~test], c)  # the standing is the last feature
    check["standing_alone"] = _scores(alone.predict_proba(z[test][:, -1:])[:, 1], y[test])
    rate = float(((y[~test] + 1) / 2).mean())
    check["base_rate"] = _scores(np.full(int(test.sum()), rate), y[test])
    model = _logistic(z, y, c)
    data = ValueFile(format=FORMAT, ruleset=core.name, scenario=str(core.scenario.name),
                     side=core.players[player], decisions=getattr(core, "decisions", None),
                     options={k: v for k, v in getattr(core, "options", {}).items()}, features=x.shape[1],
                     mean=mean.tolist(), scale=scale.tolist(), coef=model.coef_[0].tolist(),
                     intercept=float(model.intercept_[0]), fitted={**(source or {}), "check": check, "C": c})
    return ValueModel(data)


def main(argv: list[str] | None = None) -> None:
    from wargym.agents.base import default_decisions, make_agent
    from wargym.registry import make_core

    p = argparse.ArgumentParser(description="Fit a player's value to the outcomes of games of a base policy "
                                            "(wargym.agents.value).")
    p.add_argument("--ruleset", required=True)
    p.add_argument("--scenario", default=None)
    p.add_argument("--side", required=True)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a core option (e.g. solitaire=true)")
    p.add_argument("--decisions", default="major", help="the decision mode, where the ruleset has them")
    p.add_argument("--base", default="rule", help="the agent spec every side plays (default: rule)")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=900_000, help="the first game's seed (default: far from the "
                                                             "test seeds)")
    p.add_argument("--every", type=int, default=20, help="about one position in this many decisions")
    p.add_argument("--C", type=float, default=1.0, help="inverse L2 penalty of the regression")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    options = {}
    for item in args.option:
        key, _, text = item.partition("=")
        options[key] = json.loads(text.lower()) if text.lower() in ("true", "false") or text.isdigit() else text
    if default_decisions(args.ruleset):
        options["decisions"] = args.decisions
    core = make_core(args.ruleset, args.scenario, **options)
    player = core.players.index(args.side)
    agents = [make_agent(args.base, args.ruleset, side) for side in core.players]
    x, y, game = collect(core, player, agents, args.games, args.seed, args.every)
    model = fit(core, player, x, y, game, args.C,
                source={"base": args.base, "games": args.games, "seed": args.seed, "every": args.every})
    model.save(args.out)
    check = model.data.fitted["check"]
    print(f"{args.out}: {check['positions']:,} positions of {check['games']:,} games; held out "
          f"{check['held_out_games']:,} games: log loss {check['model']['log_loss']:.4f} (the standing alone "
          f"{check['standing_alone']['log_loss']:.4f}, the base rate {check['base_rate']['log_loss']:.4f}), "
          f"Brier {check['model']['brier']:.4f} ({check['standing_alone']['brier']:.4f}, "
          f"{check['base_rate']['brier']:.4f})")


if __name__ == "__main__":
    main()
