"""Export a trained MaskablePPO policy to ONNX, with a JSON sidecar that says what it plays.

    onnx_path, json_path = export_policy("run/model.zip", "policy.onnx", "island_war", "us",
                                         scenario="saipan", decisions="major")
    report = verify_export("run/model.zip", onnx_path, collect_observations(core, side=0, n=1000))

or ``wargym export --checkpoint runs/us/final.zip --out policy.onnx --verify 1000``: the game the
policy plays (ruleset, side, scenario, decisions, the rule options its opponent switched on, its
decision phases and delegate) is read from the run.json of its ``wargym train`` run, beside the
checkpoint (or one folder up, for checkpoints/model_*.zip); --ruleset, --side, --scenario and
--decisions are needed only for a checkpoint without one, and one that contradicts the run is an
error naming both values.  ``wargym.agents.onnx_agent.OnnxAgent`` plays the result with numpy and
onnxruntime only (no torch), and the commands (eval, tournament, serve, play) build the game from
its sidecar.

The graph (opset 17, batch axis N dynamic)::

    input   spatial      float32[N, C, R, Q]   core.observe(state, side)["spatial"]
    input   global       float32[N, G]         core.observe(state, side)["global"]
    input   action_mask  bool[N, A]            core.legal_mask(state)
    output  logits       float32[N, A]         the policy's action logits, -1e9 where masked
    output  action       int64[N]              argmax of the masked logits (the deterministic action)

It is the policy's own actor path, whatever its features extractor (SB3's default
CombinedExtractor or a custom one): ``policy.extract_features`` (which applies SB3's observation
preprocessing) -> ``policy.mlp_extractor.forward_actor`` -> ``policy.action_net``.

The sidecar (``policy.json`` beside ``policy.onnx``) records ruleset, side, scenario, decisions,
the rule options that differ from the ruleset's defaults ("options": Attu's ``solitaire`` for a
policy trained against the solitaire system), the opponent it was trained against, the decision
phases the policy plays and the delegate of the others (null: every decision), the
observation layout (shapes, dtypes, bounds, plane count), the action layout (num_actions, hex
pointers, the named specials), the wargym version, the opset, when it was made and from which
checkpoint.  Requires the ``train`` extra (torch, sb3-contrib, onnx).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

SIDECAR_FORMAT = 1
OPSET = 17
MASK_VALUE = -1e9
INPUT_NAMES = ("spatial", "global", "action_mask")
OUTPUT_NAMES = ("logits", "action")


class ExportError(ValueError):
    """A checkpoint that does not fit the game it is exported for, or an export that does not
    reproduce the policy."""


def sidecar_path(onnx_path: str | Path) -> Path:
    """``policy.json`` for ``policy.onnx``."""
    return Path(onnx_path).with_suffix(".json")


# ------------------------------------------------------------------------------------ the graph
def _masked_actor(policy):
    """A torch module (spatial, global, action_mask) -> (masked logits, argmax) around ``policy``."""
    import torch

    class MaskedActor(torch.nn.Module):
        def __init__(self, policy):
            super().__init__()
            self.policy = policy

        def forward(self, spatial, global_, action_mask):
            features = self.policy.extract_features({"spatial": spatial, "global": global_})
            if isinstance(features, tuple):  # separate actor / critic extractors: (pi, vf)
                features = features[0]
            latent = self.policy.mlp_extractor.forward_actor(features)
            logits = self.policy.action_net(latent)
            logits = torch.where(action_mask.to(torch.bool), logits, torch.full_like(logits, MASK_VALUE))
            return logits, torch.argmax(logits, dim=1)

    return MaskedActor(policy).eval()


def load_model(checkpoint_zip: str | Path):
    """The MaskablePPO of a saved zip, on the CPU."""
    from sb3_contrib import MaskablePPO

    path = Path(checkpoint_zip)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such checkpoint")
    return MaskablePPO.load(str(path), device="cpu")


def _model_layout(model) -> tuple[dict[str, tuple[int, ...]], int]:
    from gymnasium import spaces

    obs_space, act_space = model.observation_space, model.action_space
    if not isinstance(obs_space, spaces.Dict) or set(obs_space.spaces) != {"spatial", "global"}:
        raise ExportError(f"the checkpoint's observation space must be Dict(spatial, global) (wargym's SB3 "
                          f"observation), got {obs_space}")
    if not isinstance(act_space, spaces.Discrete):
        raise ExportError(f"the checkpoint's action space must be Discrete, got {act_space}")
    return {k: tuple(int(d) for d in obs_space[k].shape) for k in ("spatial", "global")}, int(act_space.n)


def _check_fits(core, shapes: dict[str, tuple[int, ...]], num_actions: int, what: str) -> None:
    want = {k: tuple(v) for k, v in core.observation_shapes.items()}
    if shapes != want:
        raise ExportError(f"{what} observes {shapes}, but {core.name} / {_scenario_name(core)} observes {want}")
    if num_actions != core.num_actions:
        raise ExportError(f"{what} has {num_actions} actions, but {core.name} / {_scenario_name(core)} "
                          f"has {core.num_actions}")


def _scenario_name(core) -> str:
    return core.scenario.name


def _export_graph(model, path: Path, shapes: dict[str, tuple[int, ...]], num_actions: int, opset: int) -> None:
    import torch

    actor = _masked_actor(model.policy)
    args = (torch.zeros((2, *shapes["spatial"])), torch.zeros((2, *shapes["global"])),
            torch.ones((2, num_actions), dtype=torch.bool))
    axes = {name: {0: "batch"} for name in INPUT_NAMES + OUTPUT_NAMES}
    common = dict(input_names=list(INPUT_NAMES), output_names=list(OUTPUT_NAMES), opset_version=opset,
                  dynamic_axes=axes)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the TorchScript exporter announces its deprecation
        try:
            try:
                torch.onnx.export(actor, args, str(path), dynamo=False, **common)
            except TypeError as err:  # a torch without the `dynamo` switch: TorchScript is its only exporter
                if "dynamo" not in str(err):
                    raise
                torch.onnx.export(actor, args, str(path), **common)
        except Exception as err:  # an operator of a custom extractor ONNX cannot express, for one
            raise ExportError(f"torch could not export the policy to ONNX (opset {opset}): "
                              f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}") from err


# ---------------------------------------------------------------------------------- the sidecar
def _box(space) -> dict[str, Any]:
    low, high = np.asarray(space.low), np.asarray(space.high)
    return {"shape": [int(d) for d in space.shape], "dtype": str(space.dtype),
            "low": float(low.min()), "high": float(high.max())}


def action_layout(core) -> dict[str, Any]:
    """num_actions, the hex pointers [0, H) and the named specials [H, A) of a core."""
    hexes = core.grid.size
    return {"num_actions": int(core.num_actions), "num_hex_pointers": int(hexes),
            "hex_pointers": f"actions [0, {hexes}) point at the map's hexes (dense index)",
            "specials": [{"action": a, "name": core.describe_action(a)} for a in range(hexes, core.num_actions)],
            "mask_value": MASK_VALUE}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def make_sidecar(model, core, side: str, checkpoint: Path, decisions: str | None, opset: int,
                 phases: list[str] | None = None, delegate: str = "rule",
                 opponent: str | None = None) -> dict[str, Any]:
    from wargym import __version__
    from wargym.agents.base import changed_options

    obs = {k: _box(model.observation_space[k]) for k in ("spatial", "global")}
    obs["planes"] = obs["spatial"]["shape"][0]
    obs["layout"] = "spatial: planes x rows x columns over the hex map; global: one vector per game"
    obs["source"] = f"core.observe(state, {core.players.index(side)}) -- the side's own view"
    policy = model.policy
    return {
        "format": SIDECAR_FORMAT, "kind": "wargym-policy",
        "ruleset": core.name, "side": side, "players": list(core.players),
        "scenario": _scenario_name(core), "decisions": core.decisions,
        "options": changed_options(core.name, core.options), "opponent": opponent,
        "phases": phases or None, "delegate": delegate if phases else None,
        "observation": obs,
        "action": action_layout(core),
        "onnx": {"opset": opset,
                 "inputs": {"spatial": ["N", *obs["spatial"]["shape"]], "global": ["N", *obs["global"]["shape"]],
                            "action_mask": ["N", core.num_actions]},
                 "input_dtypes": {"spatial": "float32", "global": "float32", "action_mask": "bool"},
                 "outputs": {"logits": ["N", core.num_actions], "action": ["N"]},
                 "output_dtypes": {"logits": "float32", "action": "int64"}},
        "onnx_opset": opset,
        "wargym": __version__,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "checkpoint": str(checkpoint.resolve()), "checkpoint_sha256": _sha256(checkpoint),
        "policy": {"class": type(policy).__name__,
                   "features_extractor": type(policy.features_extractor).__name__,
                   "algorithm": type(model).__name__},
    }


# --------------------------------------------------------------------------------------- export
def export_policy(checkpoint_zip: str | Path, out_onnx: str | Path, ruleset: str, side: str,
                  scenario: str | None = None, decisions: str | None = None,
                  opset: int = OPSET, phases: list[str] | None = None,
                  delegate: str = "rule", options: dict[str, Any] | None = None,
                  opponent: str | None = None) -> tuple[Path, Path]:
    """Write ``out_onnx`` and its sidecar (``out_onnx`` with ``.json``); returns both paths.

    ``ruleset`` / ``scenario`` / ``decisions`` name the game the policy plays (``scenario`` None:
    the ruleset's default; ``decisions`` None: the core's default) and ``side`` its player; the
    checkpoint's observation and action spaces must match that game's core (``ExportError``).
    ``phases``: a policy trained with the env's ``phases`` option decides only there; the sidecar
    records them and the ``delegate`` (an agent spec) that makes the side's other decisions, and
    ``OnnxAgent`` plays it so.  ``options``: rule options of the core (Attu's ``solitaire``);
    ``opponent``: the agent spec it was trained against (recorded only)."""
    from wargym.core import phase_ids
    from wargym.replay import make_core_for

    if opset < 17:
        raise ExportError(f"opset must be >= 17, got {opset}")
    checkpoint = Path(checkpoint_zip)
    core = make_core_for(ruleset, scenario, decisions, options)
    if side not in core.players:
        raise ExportError(f"side {side!r} is not a player of {ruleset}; players: {', '.join(core.players)}")
    if phases:
        try:
            phase_ids(core.phase_names, phases, f"phases: {ruleset}")
        except ValueError as err:
            raise ExportError(str(err)) from None
    model = load_model(checkpoint)
    shapes, num_actions = _model_layout(model)
    _check_fits(core, shapes, num_actions, f"checkpoint {checkpoint}")
    out = Path(out_onnx)
    out.parent.mkdir(parents=True, exist_ok=True)
    _export_graph(model, out, shapes, num_actions, opset)
    meta = make_sidecar(model, core, side, checkpoint, decisions, opset, phases, delegate, opponent)
    json_path = sidecar_path(out)
    json_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return out, json_path


# --------------------------------------------------------------------------------------- verify
def collect_observations(core, side: int, n: int, batch: int = 16, seed: int = 0) -> dict[str, np.ndarray]:
    """``n`` decision points of player ``side`` met in uniformly random masked play of ``batch``
    games at once (finished games restart): {"spatial", "global", "action_mask"}."""
    from wargym.agents.random_agent import sample_legal

    rng = np.random.default_rng(seed)
    state = core.init(batch, seed)
    episodes = batch
    parts: dict[str, list[np.ndarray]] = {"spatial": [], "global": [], "action_mask": []}
    have = 0
    for _ in range(1_000_000):
        if have >= n:
            break
        mask = np.asarray(core.legal_mask(state), dtype=bool)
        live = ~(np.asarray(core.terminated(state)) | np.asarray(core.truncated(state)))
        ours = live & (np.asarray(core.current_player(state)) == side)
        if ours.any():
            obs = core.observe(state, side)
            for key in ("spatial", "global"):
                parts[key].append(np.asarray(obs[key], dtype=np.float32)[ours])
            parts["action_mask"].append(mask[ours])
            have += int(ours.sum())
        state = core.step(state, sample_legal(rng, mask))
        done = np.asarray(core.terminated(state) | core.truncated(state))
        if done.any():
            episode = np.zeros(batch, dtype=np.int64)
            episode[done] = episodes + np.arange(int(done.sum()))
            episodes += int(done.sum())
            state = core.reset_done(state, seed, episode)
    return {k: np.concatenate(v)[:n] for k, v in parts.items()}


@dataclass
class VerifyReport:
    """ONNX vs torch on a set of observations.  ``mismatches``: indices where the actions differ
    although torch's best legal logit beats the runner-up by more than ``tie_tolerance``;
    ``ties``: indices where they differ on a numerical tie (both are the policy's argmax)."""

    n: int
    agree: int
    mismatches: list[int] = field(default_factory=list)
    ties: list[int] = field(default_factory=list)
    max_logit_diff: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def __str__(self) -> str:
        text = (f"ONNX == torch on {self.agree} of {self.n} observations; max |logit difference| on legal "
                f"actions {self.max_logit_diff:.2e}")
        if self.ties:
            text += f"; {len(self.ties)} numerical tie(s)"
        if self.mismatches:
            text += f"; {len(self.mismatches)} MISMATCH(ES) at {self.mismatches[:10]}"
        return text


def verify_export(checkpoint_zip: str | Path, onnx_path: str | Path, observations: dict[str, np.ndarray],
                  strict: bool = True, tie_tolerance: float = 1e-5, chunk: int = 256) -> VerifyReport:
    """Check that onnxruntime's masked argmax equals ``MaskablePPO.predict(..., deterministic=True,
    action_masks=...)`` on every observation ({"spatial", "global", "action_mask"} with a leading
    axis).  ``strict``: raise ``ExportError`` when they differ (beyond numerical ties)."""
    import onnxruntime as ort
    import torch

    model = load_model(checkpoint_zip)
    session = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    actor = _masked_actor(model.policy)
    spatial = np.asarray(observations["spatial"], dtype=np.float32)
    global_ = np.asarray(observations["global"], dtype=np.float32)
    masks = np.asarray(observations["action_mask"], dtype=bool)
    n = len(masks)
    report = VerifyReport(n=n, agree=0)
    for start in range(0, n, chunk):
        rows = slice(start, min(start + chunk, n))
        obs = {"spatial": spatial[rows], "global": global_[rows]}
        torch_actions, _ = model.predict(obs, deterministic=True, action_masks=masks[rows])
        onnx_logits, onnx_actions = session.run(list(OUTPUT_NAMES), {**obs, "action_mask": masks[rows]})
        with torch.no_grad():
            torch_logits, _ = actor(torch.as_tensor(obs["spatial"]), torch.as_tensor(obs["global"]),
                                    torch.as_tensor(masks[rows]))
        torch_logits = torch_logits.numpy()
        legal = masks[rows]
        if legal.any():
            report.max_logit_diff = max(report.max_logit_diff,
                                        float(np.abs(onnx_logits - torch_logits)[legal].max()))
        for i, (a, b) in enumerate(zip(np.asarray(torch_actions).reshape(-1), onnx_actions)):
            if a == b:
                report.agree += 1
                continue
            row = torch_logits[i]
            scale = max(1.0, float(np.abs(row[legal[i]]).max()))
            if abs(float(row[a]) - float(row[b])) <= tie_tolerance * scale:
                report.ties.append(start + i)
            else:
                report.mismatches.append(start + i)
    if strict and not report.ok:
        raise ExportError(f"{onnx_path} does not reproduce {checkpoint_zip}: {report}")
    return report


# ------------------------------------------------------------------------------------------ CLI
def add_export_arguments(p: argparse.ArgumentParser) -> None:
    from wargym.cli_types import non_negative_int
    from wargym.registry import RULESETS

    p.add_argument("--checkpoint", required=True,
                   help="a saved MaskablePPO (final.zip, or checkpoints/model_*.zip of a run)")
    p.add_argument("--out", default="policy.onnx", help="ONNX file to write; the sidecar goes beside it "
                                                        "as .json (default policy.onnx)")
    p.add_argument("--ruleset", default=None, choices=sorted(RULESETS),
                   help="ruleset the policy plays (default: the training run's, from the run.json beside the "
                        "checkpoint; needed without one)")
    p.add_argument("--side", default=None,
                   help="player the policy plays, e.g. us or japan (default: the run's; needed without a run.json)")
    p.add_argument("--scenario", default=None, help="scenario (default: the run's, else the ruleset's default)")
    p.add_argument("--decisions", default=None, choices=("major", "full"),
                   help="decision mode the policy was trained with (default: the run's, else the core's default)")
    p.add_argument("--phases", nargs="*", default=None, metavar="PHASE",
                   help="the decision phases the policy plays, the rest by --delegate (default: the "
                        "training run's, from the run.json beside the checkpoint; none without one)")
    p.add_argument("--delegate", default=None,
                   help="agent spec of the side's other decisions with --phases (default: the run's, else rule)")
    p.add_argument("--opset", type=int, default=OPSET, help=f"ONNX opset, >= 17 (default {OPSET})")
    p.add_argument("--verify", type=non_negative_int, default=0, metavar="N",
                   help="check ONNX == torch on N observations from random play (default 0: no check)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the --verify games")


def export_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The game the checkpoint's policy plays: its training run's settings (run.json), each
    option given on the command line checked against them (an ``ExportError`` naming both values
    when they differ); without a run.json, the options given (--ruleset and --side required)."""
    from wargym.agents.base import checkpoint_path, run_settings, training_run, training_run_path

    checkpoint = checkpoint_path(args.checkpoint)
    record = training_run_path(checkpoint)
    given = {key: getattr(args, key) for key in ("ruleset", "side", "scenario", "decisions")}
    if record is None:
        missing = [f"--{key}" for key in ("ruleset", "side") if given[key] is None]
        if missing:
            raise ExportError(f"{args.checkpoint}: no run.json beside it (or one folder up) says what the policy "
                              f"plays; give {' and '.join(missing)}")
        return {**given, "options": {}, "phases": args.phases or None, "delegate": args.delegate or "rule",
                "opponent": None}
    config = training_run(checkpoint) or {}
    run = run_settings(config, record)
    for key, value in given.items():
        if value is not None and run.get(key) is not None and value != run[key]:
            raise ExportError(f"--{key} {value}: the run at {record} trained {key} {run[key]!r}")
    settings = {key: run[key] if given[key] is None else given[key] for key in given}
    if settings["side"] is None:
        raise ExportError(f"{record} names no side; give --side")
    phases = run["phases"] if args.phases is None else (args.phases or None)
    return {**settings, "options": run["options"], "phases": phases,
            "delegate": args.delegate or run["delegate"] or "rule", "opponent": config.get("opponent")}


def run_export(args: argparse.Namespace) -> int:
    from wargym.cli_types import check_agent_spec, check_sb3_file
    from wargym.replay import make_core_for

    check_sb3_file(args.checkpoint, "--checkpoint")  # files first: a clear error before any work
    if Path(args.out).suffix != ".onnx":
        raise ValueError(f"--out {args.out!r}: the file to write must end in .onnx (its sidecar is written "
                         f"beside it as .json)")
    check_agent_spec(args.delegate, "--delegate")
    game = export_settings(args)
    onnx_path, json_path = export_policy(args.checkpoint, args.out, game["ruleset"], game["side"],
                                         scenario=game["scenario"], decisions=game["decisions"], opset=args.opset,
                                         phases=game["phases"], delegate=game["delegate"], options=game["options"],
                                         opponent=game["opponent"])
    meta = json.loads(json_path.read_text(encoding="utf-8"))
    print(f"the policy plays {meta['side']} of {meta['ruleset']} / {meta['scenario']}, decisions={meta['decisions']}"
          + "".join(f", {k}={v}" for k, v in meta["options"].items()))
    if game["phases"]:
        print(f"the policy decides in {game['phases']}; {game['delegate']} makes the other decisions")
    print(f"wrote {onnx_path} and {json_path}")
    if args.verify > 0:
        core = make_core_for(game["ruleset"], game["scenario"], game["decisions"], game["options"])
        observations = collect_observations(core, core.players.index(game["side"]), args.verify, seed=args.seed)
        report = verify_export(args.checkpoint, onnx_path, observations, strict=False)
        print(f"verify: {report}")
        return 0 if report.ok else 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wargym export", description="export a MaskablePPO policy to ONNX")
    add_export_arguments(parser)
    return run_export(parser.parse_args(argv))
