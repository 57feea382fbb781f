"""How well a Peleliu policy imitates the U.S. rule baseline, by decision phase.

    # fit a fresh network (the config's extractor) to the rule's own decisions, score held-out ones
    python benchmarks/peleliu_cloning.py fit --samples 24000 --held-out 8000 --epochs 4
    python benchmarks/peleliu_cloning.py fit --set residual=false --set pointer_block=0 --lr 0.001
    # a saved policy: on its own games, or on the rule's (--drive rule)
    python benchmarks/peleliu_cloning.py agree runs/peleliu/us/final.zip --games 32

``fit`` plays the rule in 32 sept15 games (decisions "full", agents/pretrain.py ``collect``, the
learnability config's env), fits the policy of configs/train/peleliu_us.yaml (or ``--config``) to
those decisions by cross-entropy (agents/pretrain.py ``fit``, batch 256), and after each epoch
prints the share of the held-out decisions (another seed's games) where the policy's most probable
legal action is the rule's, per phase.  ``--set key=value`` overrides an ``extractor`` entry (YAML
values).  ``agree`` plays a saved policy (deterministic) in the test games (seeds 10000+) and
counts, per phase, how often it chose what the rule would have chosen in the same state; with
``--drive rule`` the rule's actions are played instead (the policy judged on the teacher's states).
Decisions with one legal action are not counted.

A rule breaks ties by order (the first hex, the first unit), which a network that sees no index
cannot learn; agreement is a lower bound on how alike the two play.
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np
import yaml

PHASES = ("actions: select unit", "actions: order", "move: destination", "target hex",
          "attack: add unit or resolve", "amphibious: land in beach hex", "stack: second unit")


def build(cfg: dict, num_envs: int):
    import gymnasium
    from sb3_contrib import MaskablePPO

    import wargym.envs  # noqa: F401  (the gymnasium ids)
    from wargym.agents.policy import HexPointerPolicy, pointer_policy_kwargs
    from wargym.agents.train import env_id
    from wargym.envs.sb3 import SB3VecEnv

    venv = gymnasium.make_vec(env_id("peleliu"), num_envs=num_envs, vectorization_mode="vector_entry_point",
                              side="us", scenario=cfg["scenario"], decisions=cfg["decisions"],
                              max_decisions=cfg["max_decisions"], reward_shaping=cfg["reward_shaping"],
                              core_options=cfg.get("core_options"))
    core = venv.unwrapped.core
    kwargs = {**pointer_policy_kwargs(core), "value_summary": cfg.get("value_summary", False),
              "features_extractor_kwargs": cfg["extractor"],
              "net_arch": cfg["net_arch"]}
    model = MaskablePPO(HexPointerPolicy, SB3VecEnv(venv), policy_kwargs=kwargs, seed=cfg["seed"], device="cpu")
    return venv.unwrapped, model


def phase_of(glob: np.ndarray) -> np.ndarray:
    from wargym.peleliu.observe import PHASE_AT
    from wargym.peleliu.state import PHASE_NAMES
    return glob[:, PHASE_AT:PHASE_AT + len(PHASE_NAMES)].argmax(1)


def report(counts: collections.Counter, agreed: collections.Counter, per_game: float | None = None) -> str:
    from wargym.peleliu.state import PHASE_NAMES
    names = [p for p in PHASES if counts[PHASE_NAMES.index(p)]]
    parts = [f"{p.split(': ')[-1]} {agreed[PHASE_NAMES.index(p)] / counts[PHASE_NAMES.index(p)]:.1%}" for p in names]
    total = sum(counts.values())
    return f"all {sum(agreed.values()) / max(total, 1):.1%} of {total}" + ("" if per_game is None else
                                                                        f" ({per_game:.0f} a game)") + "; " + ", ".join(parts)


def run_fit(args, cfg: dict) -> None:
    import torch

    from wargym.agents.pretrain import buffers, collect, fit

    torch.manual_seed(cfg["seed"])
    torch.set_num_threads(args.threads)
    env, model = build(cfg, 32)
    print(f"parameters {sum(p.numel() for p in model.policy.parameters()):,}; extractor {cfg['extractor']}")
    t0 = time.perf_counter()
    sets = []
    for rows, seed in ((args.samples, cfg["seed"]), (args.held_out, cfg["seed"] + 777)):
        data = buffers(env, -(-rows // 32) * 32)
        collect(env, "rule", -(-rows // 32), seed, 0.999, data, 0)
        sets.append(data)
    train, held = sets
    print(f"collected {len(train['action'])} + {len(held['action'])} decisions in {time.perf_counter() - t0:.0f} s")
    phase, counted = phase_of(held["global"]), held["mask"].sum(1) >= 2
    for epoch in range(args.epochs):
        t0 = time.perf_counter()
        record = fit(model.policy, train, 1, 256, args.lr, 0.5, cfg["seed"] + epoch)[0]
        chosen = np.concatenate([
            model.policy.get_distribution(
                {"spatial": torch.as_tensor(held["spatial"][s:s + 512], dtype=torch.float32),
                 "global": torch.as_tensor(held["global"][s:s + 512])},
                action_masks=held["mask"][s:s + 512]).distribution.probs.argmax(1).detach().numpy()
            for s in range(0, len(held["action"]), 512)])
        ok = (chosen == held["action"]) & counted
        counts = collections.Counter(phase[counted].tolist())
        agreed = collections.Counter(phase[ok].tolist())
        print(f"epoch {epoch + 1}: fitted {record['accuracy']:.1%}; held out {report(counts, agreed)} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)


def run_agree(args, cfg: dict) -> None:
    import torch

    from wargym.agents.base import make_agent
    from wargym.agents.sb3_agent import SB3Agent
    from wargym.peleliu.core import PeleliuCore
    from wargym.peleliu.scenario import load_scenario
    from wargym.rng import game_keys

    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    core = PeleliuCore(load_scenario(cfg["scenario"]), decisions=cfg["decisions"],
                       max_decisions=cfg["max_decisions"], threads=1, **(cfg.get("core_options") or {}))
    rule = make_agent("rule", "peleliu", "us", seed=0)
    policy = SB3Agent(args.model, deterministic=True)
    state = core._init(np.array([game_keys(args.seed + j, 1)[0] for j in range(args.games)], dtype=np.uint64))
    counts, agreed = collections.Counter(), collections.Counter()
    while not np.all(state.terminated | state.truncated):
        playing = ~(state.terminated | state.truncated)
        mine, taught = policy.act(core, state, 0), rule.act(core, state, 0)
        counted = playing & (state.legal_action_mask.sum(1) >= 2)
        counts.update(state.phase[counted].tolist())
        agreed.update(state.phase[counted & (mine == taught)].tolist())
        actions = (taught if args.drive == "rule" else mine).copy()
        actions[~playing] = -1
        core._step_in_place(state, actions)
    print(f"{args.model} in the {'rule' if args.drive == 'rule' else 'policy'}'s games: "
          + report(counts, agreed, sum(counts.values()) / args.games))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--config", default="configs/train/peleliu_us.yaml")
    p.add_argument("--threads", type=int, default=2)
    sub = p.add_subparsers(dest="mode", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--samples", type=int, default=24_000)
    f.add_argument("--held-out", type=int, default=8_000)
    f.add_argument("--epochs", type=int, default=4)
    f.add_argument("--lr", type=float, default=None, help="default: the config's pretrain learning rate")
    f.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="an extractor entry")
    a = sub.add_parser("agree")
    a.add_argument("model")
    a.add_argument("--games", type=int, default=32)
    a.add_argument("--seed", type=int, default=10_000)
    a.add_argument("--drive", choices=("policy", "rule"), default="policy")
    args = p.parse_args()
    with open(args.config) as fh:
        cfg = yaml.safe_load(fh)
    if args.mode == "fit":
        for item in args.set:
            key, _, value = item.partition("=")
            cfg["extractor"][key] = yaml.safe_load(value)
        args.lr = cfg["pretrain"]["learning_rate"] if args.lr is None else args.lr
        run_fit(args, cfg)
    else:
        run_agree(args, cfg)


if __name__ == "__main__":
    main()
