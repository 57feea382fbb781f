"""Train a MaskablePPO policy for one side of a wargym game: ``wargym train``.

    wargym train --config configs/train/island_war_us.yaml --out runs/us
    wargym train --ruleset island_war --side japan --opponent rule --steps 2000000 \\
                 --config configs/train/island_war_japan.yaml --out runs/japan --seed 1
    wargym train --config configs/train/island_war_us.yaml --out runs/us --resume

    from wargym.agents.train import train
    final = train("configs/train/smoke.yaml", out_dir="runs/smoke")      # -> runs/smoke/final.zip

The script, top to bottom (as CleanRL's): read the config (every hyperparameter is in
configs/train/*.yaml; flags override side, opponent, steps and seed), name the run, build N games
in ONE batched core (``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")`` seen
through ``SB3VecEnv``), build or reload the model (``MultiInputPolicy`` over
``HexMapExtractor``), learn, save.

The output folder::

    DIR/run.json                       run_name, seeds, the full config, library versions, timing
    DIR/tb/<run_name>/events.out...    TensorBoard: charts/ (win_rate, episodic_return, SPS, ...)
                                       and losses/ (value_loss, policy_gradient_loss, approx_kl, ...)
    DIR/curve.csv                      per rollout: env steps, seconds, games, win rate (the curve)
    DIR/checkpoints/model_<N>_steps.zip    every ``checkpoint_every`` env steps, and at the end
    DIR/final.zip                      the trained model (``SB3Agent(path)`` plays it)

A step is one decision of the agent's side (the opponent's decisions are inside the env).
``steps`` is the run's total: ``--resume`` reloads the newest checkpoint and trains on up to it
(the games themselves restart; the checkpoint holds the model and optimizer, not the envs).

What survives a kill (kill -9 at any moment, the machine's power): run.json, every checkpoint and
final.zip are written to a temporary file in their folder and renamed over the target
(wargym.atomic), so each is whole or absent; curve.csv is appended a whole row at a time, each
flushed and fsynced.  ``--resume`` deletes the temporary files a kill left, takes the newest
checkpoint that is whole and loads, saying on stderr which it skipped and why (a 0-byte or cut
zip from an older wargym, a damaged member), fails naming them if none loads, and cuts curve.csv
back to that checkpoint's steps (and a last line cut short).  A run stopped before its first
checkpoint starts again from step 0 under its name.  TensorBoard's event files are SB3's: a kill
may cut their last event.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
import zipfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import yaml

from wargym import atomic

# Every key a config may set, with the value used when it does not.
DEFAULTS: dict[str, Any] = {
    "ruleset": "island_war", "scenario": None, "side": None, "opponent": "rule",
    "decisions": None, "max_decisions": None, "reward_shaping": 0.0, "phases": None, "delegate": "rule",
    "core_options": None,
    "steps": 100_000, "seed": 0, "n_envs": 32, "checkpoint_every": 100_000,
    "device": "cpu", "torch_threads": None, "numba_threads": None, "progress_bar": True,
    "n_steps": 128, "batch_size": 1024, "n_epochs": 4, "learning_rate": 2.5e-4, "lr_schedule": "constant",
    "gamma": 0.999,
    "gae_lambda": 0.95, "clip_range": 0.2, "ent_coef": 0.01, "vf_coef": 0.5, "max_grad_norm": 0.5,
    "target_kl": None,
    "max_minutes": None,
    "policy": "hex_map",
    "value_summary": False,
    "net_arch": {"pi": [128], "vf": [128]},
    "extractor": None,
    "pretrain": None,
}
# The policies a config may name: "hex_map" (MultiInputPolicy over HexMapExtractor, one linear
# layer to the logits) and "hex_pointer" (HexPointerPolicy: a logit per hex from a convolutional
# trunk); each with its extractor's defaults.
EXTRACTOR_DEFAULTS: dict[str, dict[str, Any]] = {
    "hex_map": {"cnn_channels": [16, 16], "head_channels": 8, "spatial_dim": 128, "global_layers": [64]},
    "hex_pointer": {"channels": [16, 16, 16], "dilations": [1, 2, 4], "global_embed": 8, "summary_dim": 128},
}
# How the learning rate moves over the run: "constant", or "linear" from learning_rate down to 0 at
# ``steps`` (PPO's usual annealing: late updates are small, so the late checkpoints differ little).
LR_SCHEDULES = ("constant", "linear")
# Keys that may change when a run is resumed (everything else must match the recorded config).
RESUMABLE = ("steps", "max_minutes", "checkpoint_every", "progress_bar", "torch_threads", "numba_threads", "device")


def env_id(ruleset: str) -> str:
    """The gymnasium id a config's ruleset trains on (wargym.registry)."""
    from wargym.registry import get

    return get(ruleset).env_id
WIN_RATE_WINDOW = 100  # charts/win_rate is over the last this many finished games


# -------------------------------------------------------------------------------------- config
def config_dir() -> Path:
    """configs/train/ (the shipped training configs)."""
    import wargym.configs

    return Path(wargym.configs.__file__).parent / "train"


def load_config(config: dict | str | Path | None) -> tuple[dict[str, Any], str | None]:
    """(the config with every key of DEFAULTS filled in, the file it came from).  ``config`` is a
    dict, a YAML path, or the name of a file in configs/train/ ("smoke", "island_war_us.yaml")."""
    source = None
    if config is None:
        raw: dict[str, Any] = {}
    elif isinstance(config, dict):
        raw = dict(config)
    else:
        path = Path(config)
        if not path.exists():
            shipped = config_dir() / (path.name if path.suffix else f"{path.name}.yaml")
            if not shipped.exists():
                raise FileNotFoundError(f"training config {str(config)!r} not found (nor in {config_dir()})")
            path = shipped
        raw = yaml.safe_load(path.read_text()) or {}
        if not isinstance(raw, dict):
            raise ValueError(f"{path}: a training config is a YAML mapping, got {type(raw).__name__}")
        source = str(path)
    unknown = sorted(set(raw) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"unknown training config keys {unknown}; known: {sorted(DEFAULTS)}")
    cfg = {**DEFAULTS, **raw}
    if cfg["policy"] not in EXTRACTOR_DEFAULTS:
        raise ValueError(f"{source or 'config'}: policy {cfg['policy']!r} is not one of {sorted(EXTRACTOR_DEFAULTS)}")
    cfg["extractor"] = {**EXTRACTOR_DEFAULTS[cfg["policy"]], **(raw.get("extractor") or {})}
    if cfg["pretrain"] is not None or cfg["phases"] is not None:
        from wargym.agents.pretrain import pretrain_config
        from wargym.core import phase_ids
        from wargym.registry import core_class

        phases = core_class(cfg["ruleset"]).phase_names
        if cfg["phases"] is not None:
            if not isinstance(cfg["phases"], list) or not cfg["phases"]:
                raise ValueError(f"{source or 'config'}: phases must be a list of phase names, got {cfg['phases']!r}")
            phase_ids(phases, cfg["phases"], f"{source or 'config'}: phases: {cfg['ruleset']}")
        if cfg["pretrain"] is not None:
            cfg["pretrain"] = pretrain_config(cfg["pretrain"], source, phases)
    return cfg, source


# The numbers a config sets and what each must be (wargym.cli_types.check_numbers; None: the default).
NUMBERS = {"steps": "positive_int", "n_envs": "positive_int", "checkpoint_every": "positive_int",
           "n_steps": "positive_int", "batch_size": "positive_int", "n_epochs": "positive_int",
           "max_decisions": "positive_int", "torch_threads": "positive_int", "numba_threads": "positive_int",
           "seed": "non_negative_int", "max_minutes": "positive_float", "learning_rate": "positive_float"}


def check_config(cfg: dict[str, Any], source: str | None = None) -> None:
    """ValueError naming the key and value of a config (with its overrides) that cannot run: a
    count that is not positive, an unknown scenario, a policy file missing or of the wrong kind."""
    from wargym.cli_types import check_agent_spec, check_numbers
    from wargym.registry import check_scenario

    where = f"training config {source}" if source else "training config"
    check_numbers(cfg, NUMBERS, where)
    if cfg["scenario"] is not None:
        try:
            check_scenario(cfg["ruleset"], cfg["scenario"])
        except ValueError as err:
            raise ValueError(f"{where}: scenario: {err}") from None
    if cfg["lr_schedule"] not in LR_SCHEDULES:
        raise ValueError(f"{where}: lr_schedule {cfg['lr_schedule']!r} is not one of {list(LR_SCHEDULES)}")
    if cfg["value_summary"] and cfg["policy"] != "hex_pointer":
        raise ValueError(f"{where}: value_summary needs policy hex_pointer, got policy {cfg['policy']!r}")
    options = cfg["core_options"]
    if options is not None:
        from wargym.agents.base import core_defaults

        known = sorted(set(core_defaults(cfg["ruleset"])) - {"scenario", "decisions", "max_decisions", "threads"})
        if not isinstance(options, dict) or not set(options) <= set(known):
            raise ValueError(f"{where}: core_options {options!r}: a mapping of the {cfg['ruleset']} core's options "
                             f"({', '.join(known)})")
    check_agent_spec(cfg["opponent"], f"{where}: opponent")
    check_agent_spec(cfg["delegate"], f"{where}: delegate")


def learning_rate(cfg: dict[str, Any]):
    """The config's learning rate as MaskablePPO takes it: a number, or its ``lr_schedule``."""
    if cfg["lr_schedule"] == "linear":
        from stable_baselines3.common.utils import LinearSchedule

        return LinearSchedule(cfg["learning_rate"], 0.0, 1.0)  # of progress_remaining: 1 at the start, 0 at steps
    return cfg["learning_rate"]


def make_run_name(cfg: dict[str, Any]) -> str:
    """CleanRL's ``{env}__{experiment}__{seed}__{time}``: island_war__us_vs_rule__0__1700000000."""
    opponent = re.sub(r"[^A-Za-z0-9_-]+", "-", str(cfg["opponent"])).strip("-")[-40:] or "agent"
    return f"{cfg['ruleset']}__{cfg['side']}_vs_{opponent}__{cfg['seed']}__{int(time.time())}"


def versions() -> dict[str, str]:
    import gymnasium
    import numba
    import sb3_contrib
    import stable_baselines3
    import torch

    import wargym

    return {"wargym": wargym.__version__, "python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "torch": torch.__version__, "gymnasium": gymnasium.__version__,
            "stable_baselines3": stable_baselines3.__version__, "sb3_contrib": sb3_contrib.__version__,
            "platform": platform.platform()}


def checkpoints(out_dir: str | Path) -> list[tuple[int, Path]]:
    """(env steps, path) of every DIR/checkpoints/model_<N>_steps.zip, fewest steps first."""
    found = [(int(m.group(1)), p) for p in (Path(out_dir) / "checkpoints").glob("model_*_steps.zip")
             if (m := re.fullmatch(r"model_(\d+)_steps\.zip", p.name))]
    return sorted(found)


def latest_checkpoint(out_dir: Path) -> Path | None:
    """The checkpoint in DIR/checkpoints with the most env steps (whole or not: see load_latest)."""
    found = checkpoints(out_dir)
    return found[-1][1] if found else None


def checkpoint_problem(path: Path) -> str | None:
    """Why ``path`` is not a whole SB3 model file, or None: empty, not a zip file, a member that
    fails its CRC, or no ``data`` / ``policy.pth`` in it (a save cut short, or another file)."""
    try:
        size = path.stat().st_size
        if size == 0:
            return "0 bytes (a save cut short)"
        if not zipfile.is_zipfile(path):
            return f"not a zip file ({size:,} bytes: a save cut short?)"
        with zipfile.ZipFile(path) as archive:
            damaged = archive.testzip()
            if damaged is not None:
                return f"{damaged} in it fails its CRC check"
            missing = [name for name in ("data", "policy.pth") if name not in archive.namelist()]
            if missing:
                return f"no {' or '.join(missing)} in it: not an SB3 model"
    except (OSError, zipfile.BadZipFile, EOFError) as err:
        return f"unreadable ({type(err).__name__}: {err})"
    return None


def load_latest(out_dir: Path, load: Callable[[Path], Any]) -> tuple[Any, Path]:
    """(``load(path)``, path) of the newest checkpoint of the run in ``out_dir`` that is whole
    (``checkpoint_problem``) and loads; each one skipped is named on stderr with why.
    FileNotFoundError naming them all when none loads."""
    skipped = []
    for _, path in reversed(checkpoints(out_dir)):
        problem = checkpoint_problem(path)
        if problem is None:
            try:
                return load(path), path
            except Exception as err:  # whole but not loadable here (another SB3, another policy class)
                problem = f"does not load ({type(err).__name__}: {err})"
        print(f"--resume: skipping {path}: {problem}", file=sys.stderr)
        skipped.append(f"{path.name}: {problem}")
    raise FileNotFoundError(f"nothing to resume in {out_dir}: no checkpoint loads"
                            + (f" ({'; '.join(skipped)})" if skipped else " (there is none)"))


def save_model(model, path: Path) -> Path:
    """``model.save(path)``, written whole or not at all (wargym.atomic): a kill while it saves
    leaves the file as it was, never a part of a zip."""
    with atomic.atomic_open(path, "wb") as f:
        model.save(f)
    return path


# ---------------------------------------------------------------------------------- the curve
CURVE_COLUMNS = ("steps", "seconds", "games", "win_rate", "loss_rate")


def read_curve(path: str | Path) -> list[dict[str, float]]:
    """The rows of a run's curve.csv (steps and games as int), without a last line cut short by
    a kill; [] when there is no curve."""
    text, _ = atomic.complete_text(path)
    rows = []
    for line in text.splitlines()[1:]:
        values = dict(zip(CURVE_COLUMNS, line.split(",")))
        rows.append({k: int(v) if k in ("steps", "games") else float(v) for k, v in values.items()})
    return rows


def trim_curve(path: Path, steps: int) -> None:
    """Keep the rows of curve.csv up to ``steps`` env steps (a resumed run trains the rest again
    from its checkpoint, and writes those rows anew) and no line cut short."""
    text, torn = atomic.complete_text(path)
    lines = text.splitlines(keepends=True)
    keep = lines[:1] + [line for line in lines[1:] if int(line.split(",", 1)[0]) <= steps]
    if torn or keep != lines:
        atomic.write_text(path, "".join(keep))


def progress_bar_available() -> bool:
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


# ----------------------------------------------------------------------------------- callbacks
def _callbacks():
    """The SB3 callback classes (imported late so the module loads without stable-baselines3)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import TensorBoardOutputFormat

    class WinRateCallback(BaseCallback):
        """charts/win_rate: games won by the agent's side / games finished (the last
        WIN_RATE_WINDOW), from each finished game's result (``infos[g]["result"]``: +1 win, -1
        loss, 0 draw or truncated by max_decisions).  Each rollout also appends a row to
        ``curve`` (CSV: env steps, seconds since ``started``, games, win rate; each row flushed
        and fsynced as it is written): the learning curve against steps and wall time.  Stops the
        run after ``max_seconds`` since ``started``."""

        def __init__(self, curve: Path, started: float, max_seconds: float | None = None,
                     window: int = WIN_RATE_WINDOW):
            super().__init__()
            self.results: list[float] = []
            self.window = window
            self.finished = 0
            self.started, self.max_seconds = started, max_seconds
            self.curve, _ = atomic.open_lines(curve, ",".join(CURVE_COLUMNS) + "\n")

        def _on_step(self) -> bool:
            dones, infos = self.locals["dones"], self.locals["infos"]
            for g in np.flatnonzero(dones):
                self.finished += 1
                self.results.append(float(infos[g].get("result", 0.0)))
            del self.results[:-self.window]
            return self.max_seconds is None or time.perf_counter() - self.started < self.max_seconds

        def _on_rollout_end(self) -> None:
            self.logger.record("charts/episodes", self.finished)
            win = loss = float("nan")
            if self.results:
                results = np.asarray(self.results)
                win, loss = float((results > 0).mean()), float((results < 0).mean())
                self.logger.record("charts/win_rate", win)
                self.logger.record("charts/loss_rate", loss)
            self.curve.write(f"{self.num_timesteps},{time.perf_counter() - self.started:.1f},{self.finished},"
                             f"{win:.4f},{loss:.4f}\n")
            atomic.sync(self.curve)  # a whole line, on disk: a kill leaves the curve readable

        def _on_training_end(self) -> None:
            self.curve.close()

    class CleanRLTensorBoard(TensorBoardOutputFormat):
        """TensorBoard with CleanRL's names: SB3's train/* under losses/, rollout/* under charts/."""

        RENAME = {"rollout/ep_rew_mean": "charts/episodic_return", "rollout/ep_len_mean": "charts/episodic_length",
                  "time/fps": "charts/SPS", "train/learning_rate": "charts/learning_rate"}

        def write(self, key_values, key_excluded, step=0):
            renamed = {self._name(k): v for k, v in key_values.items()}
            excluded = {self._name(k): v for k, v in key_excluded.items()}
            super().write(renamed, excluded, step)

        def _name(self, key: str) -> str:
            return self.RENAME.get(key) or re.sub(r"^train/", "losses/", key)

    class CheckpointCallback(BaseCallback):
        """Every ``every`` calls (one env step of all the games each), the model to
        ``folder/model_<N>_steps.zip``, written whole or not at all (``save_model``), where SB3's
        CheckpointCallback writes in place and a kill can leave a file ``--resume`` cannot read."""

        def __init__(self, every: int, folder: Path):
            super().__init__()
            self.every, self.folder = every, folder

        def _on_step(self) -> bool:
            if self.n_calls % self.every == 0:
                save_model(self.model, self.folder / f"model_{self.num_timesteps}_steps.zip")
            return True

    return WinRateCallback, CleanRLTensorBoard, CheckpointCallback


# ---------------------------------------------------------------------------------------- train
def default_side(ruleset: str) -> str:
    """The side ``wargym train --ruleset R`` trains when none is named: the first of the ruleset's
    players with a config in configs/train/ (``<ruleset>_<side>.yaml``; "us" for every ruleset)."""
    from wargym.registry import make_core

    players = make_core(ruleset).players
    for player in players:
        if (config_dir() / f"{ruleset}_{player}.yaml").exists():
            return player
    raise ValueError(f"no training config for any side of {ruleset} ({', '.join(players)}) in {config_dir()}")


def default_config(ruleset: str | None, side: str | None) -> str:
    """The config of ``wargym train`` without --config: configs/train/<ruleset>_<side>.yaml (the
    ruleset Island War and its default side when not named)."""
    ruleset = ruleset or DEFAULTS["ruleset"]
    side = side or default_side(ruleset)
    name = f"{ruleset}_{side}.yaml"
    if not (config_dir() / name).exists():
        have = sorted(p.name for p in config_dir().glob(f"{ruleset}_*.yaml"))
        raise ValueError(f"no default training config for side {side!r} of {ruleset}: {config_dir() / name} does not "
                         f"exist (configs of {ruleset}: {', '.join(have) or 'none'}); give --config")
    return name


def train(config: dict | str | Path | None = None, ruleset: str | None = None, side: str | None = None,
          opponent: str | None = None, steps: int | None = None, out_dir: str | Path = "runs/train",
          seed: int | None = None, resume: bool = False, progress_bar: bool | None = None,
          max_minutes: float | None = None, scenario: str | None = None) -> Path:
    """Train MaskablePPO for ``side`` of ``ruleset`` against ``opponent``; returns DIR/final.zip.

    ``config``: dict, YAML path or name in configs/train/ (see DEFAULTS for the keys).  ``ruleset``,
    ``scenario``, ``side``, ``opponent``, ``steps``, ``seed``, ``progress_bar`` and ``max_minutes``
    override the config's values when given.  A config that names no side trains the ruleset's
    default side (``default_side``), and one that names no scenario its default scenario.
    ``resume``: continue the run in ``out_dir`` from its newest
    checkpoint that loads up to ``steps`` env steps in all (the module docstring).
    """
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import HumanOutputFormat, Logger
    from stable_baselines3.common.vec_env import VecMonitor

    import wargym.envs  # noqa: F401  (registers the gymnasium ids)
    from wargym.agents.policy import HexMapExtractor, HexPointerPolicy, pointer_policy_kwargs
    from wargym.agents.pretrain import pretrain
    from wargym.envs.sb3 import SB3VecEnv

    run_started = time.perf_counter()  # max_minutes counts from here: pretraining included

    # 1. the config: file values, then the arguments given here
    cfg, config_path = load_config(config)
    for key, value in {"ruleset": ruleset, "scenario": scenario, "side": side, "opponent": opponent, "steps": steps,
                       "seed": seed, "progress_bar": progress_bar, "max_minutes": max_minutes}.items():
        if value is not None:
            cfg[key] = value
    env_id(cfg["ruleset"])  # a ValueError naming the known rulesets
    if cfg["side"] is None:
        cfg["side"] = default_side(cfg["ruleset"])
    if cfg["scenario"] is None:
        from wargym.registry import get as ruleset_record

        cfg["scenario"] = ruleset_record(cfg["ruleset"]).default_scenario
    if not isinstance(cfg["opponent"], str):
        raise ValueError("opponent must be an agent spec string ('rule', 'random', 'sb3:<path>', ...)")
    check_config(cfg, config_path)  # before the run's folder and record are written
    if cfg["progress_bar"] and not progress_bar_available():
        cfg["progress_bar"] = False  # tqdm or rich missing: train without the bar
    if cfg["torch_threads"]:
        torch.set_num_threads(int(cfg["torch_threads"]))
    if cfg["numba_threads"]:
        import numba

        numba.set_num_threads(min(int(cfg["numba_threads"]), numba.config.NUMBA_NUM_THREADS))

    # 2. the run: its name and record; a resumed run keeps both
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    record_path = out / "run.json"
    for folder in (out, out / "checkpoints"):
        atomic.remove_leftovers(folder)  # a save a kill cut short
    if resume:
        if not record_path.exists():
            raise FileNotFoundError(f"nothing to resume in {out}: no run.json")
        record = json.loads(record_path.read_text())
        changed = sorted(k for k in cfg if k not in RESUMABLE and cfg[k] != record["config"].get(k))
        if changed:
            raise ValueError(f"--resume: {', '.join(f'{k}={cfg[k]!r}' for k in changed)} differ from the run in "
                             f"{out} (" + ", ".join(f"{k}={record['config'].get(k)!r}" for k in changed) + ")")
        run_name = record["run_name"]
        if not checkpoints(out):  # stopped before its first checkpoint: nothing to continue from
            print(f"--resume: {out} holds no checkpoint yet: {run_name} starts again from step 0")
            resume = False
            trim_curve(out / "curve.csv", 0)
            record["resumes"].append({"checkpoint": None, "num_timesteps": 0,
                                      "started": time.strftime("%Y-%m-%dT%H:%M:%S")})
    else:
        if record_path.exists():
            raise FileExistsError(f"{out} already holds a run (run.json): continue it with --resume, "
                                  "or give another --out")
        run_name = make_run_name(cfg)
        record = {"run_name": run_name, "config_file": config_path, "config": cfg, "seed": cfg["seed"],
                  "versions": versions(), "command": sys.argv, "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
                  "resumes": []}
    record["config"] = cfg
    record["status"] = "running"

    def write_record() -> None:
        atomic.write_text(record_path, json.dumps(record, indent=2, default=str))

    write_record()

    # 3. the env: N games in one batched core, the opponent's decisions played inside
    vector_env = gymnasium.make_vec(env_id(cfg["ruleset"]), num_envs=cfg["n_envs"],
                                    vectorization_mode="vector_entry_point", side=cfg["side"],
                                    opponent=cfg["opponent"], scenario=cfg["scenario"], decisions=cfg["decisions"],
                                    max_decisions=cfg["max_decisions"], reward_shaping=cfg["reward_shaping"],
                                    phases=cfg["phases"], delegate=cfg["delegate"],
                                    core_options=cfg["core_options"])
    env = VecMonitor(SB3VecEnv(vector_env))  # VecMonitor: episode returns and lengths for charts/

    # 4. the model: new, or the newest checkpoint that loads
    checkpoint = None
    if not resume:
        policy, policy_kwargs = "MultiInputPolicy", {"features_extractor_class": HexMapExtractor}
        if cfg["policy"] == "hex_pointer":
            policy = HexPointerPolicy
            policy_kwargs = {**pointer_policy_kwargs(vector_env.unwrapped.core), "value_summary": cfg["value_summary"]}
        policy_kwargs.update(features_extractor_kwargs=cfg["extractor"], net_arch=cfg["net_arch"])
        model = MaskablePPO(policy, env, n_steps=cfg["n_steps"], batch_size=cfg["batch_size"],
                            n_epochs=cfg["n_epochs"], learning_rate=learning_rate(cfg), gamma=cfg["gamma"],
                            gae_lambda=cfg["gae_lambda"], clip_range=cfg["clip_range"], ent_coef=cfg["ent_coef"],
                            vf_coef=cfg["vf_coef"], max_grad_norm=cfg["max_grad_norm"], target_kl=cfg["target_kl"],
                            policy_kwargs=policy_kwargs, tensorboard_log=str(out / "tb"), seed=cfg["seed"],
                            device=cfg["device"], verbose=0)
    else:
        try:
            model, checkpoint = load_latest(out, lambda path: MaskablePPO.load(
                path, env=env, device=cfg["device"], tensorboard_log=str(out / "tb")))
        except BaseException:
            env.close()
            raise
        trim_curve(out / "curve.csv", model.num_timesteps)
        resume_seed = cfg["seed"] + model.num_timesteps  # a fresh but reproducible stream for the restarted games
        model.set_random_seed(resume_seed)
        record["resumes"].append({"checkpoint": str(checkpoint), "num_timesteps": model.num_timesteps,
                                  "seed": resume_seed, "started": time.strftime("%Y-%m-%dT%H:%M:%S")})
        print(f"resuming {run_name} from {checkpoint.name} ({model.num_timesteps:,} steps)")

    # 4b. a new model may first imitate a teacher (behaviour cloning, agents/pretrain.py)
    if checkpoint is None and cfg["pretrain"] is not None:
        deadline = None if cfg["max_minutes"] is None else run_started + 60.0 * cfg["max_minutes"]
        record["pretrain"] = pretrain(model, vector_env.unwrapped, cfg["pretrain"], seed=cfg["seed"],
                                      progress=progress_bar is not False, deadline=deadline)  # on unless --quiet
        write_record()
        save_model(model, out / "checkpoints" / "model_0_steps.zip")  # the cloned policy, before any PPO step

    # 5. logging and callbacks: TensorBoard under DIR/tb/<run_name>, checkpoints, win rate
    WinRateCallback, CleanRLTensorBoard, CheckpointCallback = _callbacks()
    formats = [CleanRLTensorBoard(str(out / "tb" / run_name))]
    if not cfg["progress_bar"]:
        formats.append(HumanOutputFormat(sys.stdout))
    model.set_logger(Logger(str(out / "tb" / run_name), formats))
    saving = CheckpointCallback(max(cfg["checkpoint_every"] // cfg["n_envs"], 1), out / "checkpoints")

    # 6. learn up to cfg["steps"] env steps in all
    start_steps, start = model.num_timesteps, time.perf_counter()
    remaining = cfg["steps"] - model.num_timesteps
    if remaining > 0:
        max_seconds = None if cfg["max_minutes"] is None else 60.0 * cfg["max_minutes"]
        win_rate = WinRateCallback(out / "curve.csv", run_started, max_seconds)
        model.learn(total_timesteps=remaining, callback=[saving, win_rate], tb_log_name=run_name,
                    reset_num_timesteps=checkpoint is None, progress_bar=bool(cfg["progress_bar"]))
    seconds = time.perf_counter() - start

    # 7. save: the final model, a checkpoint of it (the next --resume starts there), the record
    final = save_model(model, out / "final.zip")
    last = out / "checkpoints" / f"model_{model.num_timesteps}_steps.zip"
    if not last.exists():
        save_model(model, last)
    env.close()
    done = model.num_timesteps - start_steps
    record.update(status="finished", finished=time.strftime("%Y-%m-%dT%H:%M:%S"), num_timesteps=model.num_timesteps,
                  seconds=round(seconds, 2), steps_per_second=round(done / seconds, 1) if seconds > 0 else None,
                  wall_seconds=round(time.perf_counter() - run_started, 1))
    write_record()
    return final


# ------------------------------------------------------------------------------------------ CLI
def add_train_arguments(p: argparse.ArgumentParser) -> None:
    from wargym.cli_types import non_negative_int, positive_float, positive_int
    from wargym.registry import RULESETS

    p.add_argument("--config", default=None,
                   help="training config: a YAML file or a name in configs/train/, e.g. smoke (any ruleset) "
                        "(default: <ruleset>_<side>.yaml there)")
    p.add_argument("--ruleset", default=None, choices=sorted(RULESETS),
                   help="ruleset (default: the config's, else island_war)")
    p.add_argument("--side", default=None,
                   help="the side to train, e.g. us or japan (default: the config's, else the ruleset's first "
                        "player with a config: us)")
    p.add_argument("--scenario", default=None,
                   help="the ruleset's scenario or a YAML path (default: the config's, else the ruleset's default)")
    p.add_argument("--opponent", default=None, metavar="SPEC",
                   help="the other side: rule, random, or an agent spec (default: the config's)")
    p.add_argument("--steps", type=positive_int, default=None,
                   help="total env steps of the run (default: the config's)")
    p.add_argument("--max-minutes", type=positive_float, default=None,
                   help="stop after this much wall-clock time, pretraining included (default: the config's)")
    p.add_argument("--out", default="runs/train", help="output folder (default ./runs/train)")
    p.add_argument("--seed", type=non_negative_int, default=None,
                   help="seed of the model and the games (default: the config's)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run in --out from its newest checkpoint that loads (it names the ones it skips)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run_train(args: argparse.Namespace) -> int:
    from wargym.cli_types import check_agent_spec

    check_agent_spec(args.opponent, "--opponent")
    config = args.config if args.config is not None else default_config(args.ruleset, args.side)
    final = train(config, ruleset=args.ruleset, side=args.side, opponent=args.opponent, steps=args.steps,
                  out_dir=args.out, seed=args.seed, resume=args.resume, progress_bar=False if args.quiet else None,
                  max_minutes=args.max_minutes, scenario=args.scenario)
    record = json.loads((final.parent / "run.json").read_text())
    print(f"{record['run_name']}: {record['num_timesteps']:,} steps "
          f"({record['steps_per_second'] or 0:,.0f}/s); model {final}; "
          f"tensorboard --logdir {final.parent / 'tb'}")
    return 0
