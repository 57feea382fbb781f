"""The network a wargym policy sees the board through, and the observation it is fed.

``HexMapExtractor`` is a stable-baselines3 features extractor for the Dict observation every
wargym core gives (``core.observe``)::

    "spatial"  float32[B, C, rows, cols]   hex map planes (hex XXYY at [YY-1, XX-1])
    "global"   float32[B, G]               turn, phase, scores, the combat being resolved ...

         spatial                                   global
            |                                         |
    conv 3x3 (pad 1) + ReLU  x len(cnn_channels)   linear + ReLU  x len(global_layers)
    conv 1x1 -> head_channels + ReLU                  |
    flatten -> linear -> spatial_dim + ReLU           |
            +-------------------- concat -------------+
                                    |
                       features_dim = spatial_dim + global_layers[-1]

The map keeps its layout to the end (flatten, not pooling): actions name hexes, so where a plane
lights up matters as much as what lights up.  A 3x3 kernel over the offset-coordinate array covers
a hex's six neighbours plus two hexes at distance 2; two layers see two hexes around.
The 1x1 head shrinks the channels before the flatten, which keeps the linear layer small enough to
train on a CPU.

``sb3_observation`` turns a core observation into the flat dict SB3 policies take (the same arrays
``wargym.envs.sb3.SB3VecEnv`` serves), for agents that play on a core state directly.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from wargym.core import BaseState, Core


class HexMapExtractor(BaseFeaturesExtractor):
    """CNN over the hex map planes + MLP over the global vector, concatenated.

    Args (``policy_kwargs["features_extractor_kwargs"]``, from the training config's ``extractor``):
        cnn_channels: output channels of the 3x3 convolutions, one per layer.
        head_channels: channels of the 1x1 convolution before the flatten.
        spatial_dim: width of the linear layer after the flatten.
        global_layers: widths of the MLP over the global vector.
    """

    def __init__(self, observation_space: spaces.Dict, cnn_channels: Sequence[int] = (16, 16),
                 head_channels: int = 8, spatial_dim: int = 128, global_layers: Sequence[int] = (64,)):
        spatial_shape = observation_space["spatial"].shape
        global_shape = observation_space["global"].shape
        if len(spatial_shape) != 3 or len(global_shape) != 1:
            raise ValueError(f"HexMapExtractor needs spatial [C, rows, cols] and global [G], got "
                             f"{spatial_shape} and {global_shape}")
        global_layers = list(global_layers) or [global_shape[0]]
        super().__init__(observation_space, features_dim=spatial_dim + global_layers[-1])

        channels, rows, cols = spatial_shape
        layers: list[nn.Module] = []
        for width in cnn_channels:
            layers += [nn.Conv2d(channels, width, kernel_size=3, padding=1), nn.ReLU()]
            channels = width
        layers += [nn.Conv2d(channels, head_channels, kernel_size=1), nn.ReLU(), nn.Flatten(),
                   nn.Linear(head_channels * rows * cols, spatial_dim), nn.ReLU()]
        self.spatial = nn.Sequential(*layers)

        mlp: list[nn.Module] = []
        width_in = global_shape[0]
        for width in global_layers:
            mlp += [nn.Linear(width_in, width), nn.ReLU()]
            width_in = width
        self.globals = nn.Sequential(*mlp) if mlp else nn.Identity()

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        return torch.cat([self.spatial(observations["spatial"]), self.globals(observations["global"])], dim=1)


def sb3_observation(core: Core, state: BaseState, player: int) -> dict[str, np.ndarray]:
    """The batched observation of ``player`` as an SB3 policy takes it: ``core.observe``'s arrays
    as float32 (what ``SB3VecEnv`` returns for that player)."""
    return {key: np.asarray(value, dtype=np.float32) for key, value in core.observe(state, player).items()}


# ------------------------------------------------------------------------ the hex pointer policy
class HexPointerExtractor(BaseFeaturesExtractor):
    """A fully convolutional trunk over the map that keeps one feature vector per hex, for
    ``HexPointerPolicy``.

    The global vector is embedded and broadcast onto every hex as extra input channels, so the
    phase of the decision (select, destination, declare ...) shapes what every hex computes.
    Features = [per-hex trunk output, flattened (map_channels x rows x cols) | board summary].
    The summary (a linear layer over the 1x1-shrunk map, plus the global MLP) feeds the value
    head and the special actions.

    Args: ``channels``/``dilations``: the 3x3 convolutions of the trunk (dilations widen the view:
    1, 2, 4 see seven hexes around), after a 1x1 convolution to ``channels[0]`` that keeps the
    first 3x3 layer cheap (the input has ~50 planes); ``global_embed``: broadcast channels;
    ``summary_dim``; ``summary_inputs``: entries of the global vector the summary carries as they
    are, so the special actions' and the value's linear layers read them unmixed (World at War:
    what each hand card could order now, beside its card's logit); ``pointer_inputs``: entries of
    the global vector passed on as they are, at the end of the features (the hexes of the actions
    that move with the game: ``special_inputs``, set by ``HexPointerPolicy``).  Cost with the
    defaults: ~3.3 M multiply-adds per Saipan observation.
    """

    def __init__(self, observation_space: spaces.Dict, channels: Sequence[int] = (16, 16, 16),
                 dilations: Sequence[int] = (1, 2, 4), global_embed: int = 8, summary_dim: int = 128,
                 focus_planes: Sequence[int] = (), residual: bool = False, pointer_inputs: Sequence[int] = (),
                 pointer_block: int = 0, summary_inputs: Sequence[int] = ()):
        planes, rows, cols = observation_space["spatial"].shape
        n_global = observation_space["global"].shape[0]
        if len(channels) != len(dilations) or not channels:
            raise ValueError(f"channels and dilations need one entry per layer, got {channels} and {dilations}")
        self.map_channels, self.rows, self.cols = int(channels[-1]), int(rows), int(cols)
        self.summary_dim = (summary_dim + global_embed + len(focus_planes) * self.map_channels
                            + len(summary_inputs))
        self.n_pointers = len(pointer_inputs)
        self.pointer_block = int(pointer_block) if self.n_pointers else 0
        super().__init__(observation_space, features_dim=self.map_channels * rows * cols + self.summary_dim
                         + self.n_pointers * (1 + self.pointer_block))
        self.register_buffer("focus_planes", torch.as_tensor(list(focus_planes), dtype=torch.long),
                             persistent=False)
        if any(not 0 <= i < n_global for i in summary_inputs):
            raise ValueError(f"summary_inputs {list(summary_inputs)}: the global vector has {n_global} entries")
        self.register_buffer("summary_inputs", torch.as_tensor(list(summary_inputs), dtype=torch.long),
                             persistent=False)
        self.register_buffer("pointer_inputs", torch.as_tensor(list(pointer_inputs), dtype=torch.long),
                             persistent=False)  # from the constructor: models saved before them load
        blocks = [i - self.pointer_block + 1 + k for i in pointer_inputs for k in range(self.pointer_block)]
        if blocks and min(blocks) < 0:
            raise ValueError(f"pointer_block {pointer_block}: a block would start before the global vector")
        self.register_buffer("pointer_blocks", torch.as_tensor(blocks, dtype=torch.long), persistent=False)
        self.embed = nn.Sequential(nn.Linear(n_global, global_embed), nn.ReLU())
        layers: list[nn.Module] = [nn.Conv2d(planes + global_embed, channels[0], kernel_size=1), nn.ReLU()]
        width_in = channels[0]
        for width, dilation in zip(channels, dilations):
            layers += [nn.Conv2d(width_in, width, kernel_size=3, padding=dilation, dilation=dilation), nn.ReLU()]
            width_in = width
        self.trunk = nn.Sequential(*layers)
        if residual and channels[-1] != channels[0]:
            raise ValueError(f"residual: the last channels ({channels[-1]}) must equal the first ({channels[0]})")
        self.residual = residual
        self.summary = nn.Sequential(nn.Conv2d(width_in, 4, kernel_size=1), nn.ReLU(), nn.Flatten(),
                                     nn.Linear(4 * rows * cols, summary_dim), nn.ReLU())

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        spatial, glob = observations["spatial"], observations["global"]
        g = self.embed(glob)
        broadcast = g[:, :, None, None].expand(-1, -1, spatial.shape[2], spatial.shape[3])
        # channels last: the same numbers in another memory order, which the CPU convolutions run
        # faster (World at War's extractor, batch 512, forward and backward: 79 ms instead of 97)
        entry = torch.cat([spatial, broadcast], dim=1).contiguous(memory_format=torch.channels_last)
        if self.residual:  # the hex's own planes reach the heads past the 3x3 layers
            entry = self.trunk[1](self.trunk[0](entry))
            hexes = self.trunk[2:](entry) + entry
        else:
            hexes = self.trunk(entry)
        parts = [hexes.flatten(1), self.summary(hexes), g]
        if len(self.focus_planes):  # the trunk's features at each marked hex: [B, focus x channels]
            marks = spatial.index_select(1, self.focus_planes)
            parts.append(torch.einsum("bchw,bkhw->bkc", hexes, marks).flatten(1))
        if len(self.summary_inputs):
            parts.append(glob.index_select(1, self.summary_inputs))
        if self.n_pointers:
            parts.append(glob.index_select(1, self.pointer_inputs))
            if self.pointer_block:
                parts.append(glob.index_select(1, self.pointer_blocks))
        return torch.cat(parts, dim=1)


class PointerHead(nn.Module):
    """Logits of a hex-pointer action space: a 1x1 convolution gives each hex its logit (the hex
    actions, gathered into the core's dense hex order), a linear layer over the board summary the
    special actions after them.  A special action that stands for a fixed hex (``special_planes``:
    its plane position, -1 for none; Attu: a landing zone) also gets that hex's logit, so it is
    judged by what is around the hex, as the hex actions are.  So does one whose hex changes with
    the game (``special_inputs``, -1 for none; Peleliu: a unit's action, where the unit stands):
    the extractor passes the observation's entry for it on (``pointer_inputs``, in the order of
    those specials), holding (plane position + 1) / planes, 0 for none (a unit off the map)."""

    def __init__(self, extractor: HexPointerExtractor, hex_planes: Sequence[int], num_actions: int,
                 special_planes: Sequence[int] = (), special_inputs: Sequence[int] = ()):
        super().__init__()
        self.map_size = extractor.map_channels * extractor.rows * extractor.cols
        self.summary_dim = extractor.summary_dim
        self.shape = (extractor.map_channels, extractor.rows, extractor.cols)
        n_specials = num_actions - len(hex_planes)
        planes = list(special_planes) or [-1] * n_specials
        if len(planes) != n_specials:
            raise ValueError(f"special_planes: {len(planes)} entries for {n_specials} special actions")
        inputs = list(special_inputs) or [-1] * n_specials
        if len(inputs) != n_specials:
            raise ValueError(f"special_inputs: {len(inputs)} entries for {n_specials} special actions")
        pointed = [i for i, x in enumerate(inputs) if x >= 0]
        passed = getattr(extractor, "n_pointers", 0)  # an extractor built before pointers passes none
        if len(pointed) != passed:
            raise ValueError(f"special_inputs: {len(pointed)} specials with an input, the extractor passes "
                             f"{passed} (pointer_inputs)")
        self.n_pointers, self.n_planes = len(pointed), extractor.rows * extractor.cols
        to_specials = torch.zeros((len(pointed), n_specials))  # pointer k -> its special action
        to_specials[torch.arange(len(pointed)), torch.as_tensor(pointed, dtype=torch.long)] = 1.0
        self.register_buffer("pointer_to_specials", to_specials, persistent=False)
        self.register_buffer("hex_planes", torch.as_tensor(list(hex_planes), dtype=torch.long))
        self.register_buffer("special_planes", torch.as_tensor([max(p, 0) for p in planes], dtype=torch.long),
                             persistent=False)  # from the constructor: models saved before them load
        self.register_buffer("special_on", torch.as_tensor([p >= 0 for p in planes], dtype=torch.float32),
                             persistent=False)
        self.hexes = nn.Sequential(nn.Conv2d(extractor.map_channels, 16, kernel_size=1), nn.ReLU(),
                                   nn.Conv2d(16, 1, kernel_size=1))
        self.specials = nn.Linear(extractor.summary_dim, n_specials)
        self.block = getattr(extractor, "pointer_block", 0)
        self.pointed = None
        if self.block:  # each pointed action: its own block and the trunk's features at its hex
            self.pointed = nn.Sequential(nn.Linear(self.block + extractor.map_channels, 16), nn.ReLU(),
                                         nn.Linear(16, 1))

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        hexes = features[:, :self.map_size].reshape(-1, *self.shape)
        plane = self.hexes(hexes).flatten(1)
        per_hex = plane.index_select(1, self.hex_planes)
        summary = features[:, self.map_size:self.map_size + self.summary_dim]
        specials = self.specials(summary) + plane.index_select(1, self.special_planes) * self.special_on
        if self.n_pointers:
            start = self.map_size + self.summary_dim
            where = torch.round(features[:, start:start + self.n_pointers] * self.n_planes) - 1  # plane position, -1 none
            on = (where >= 0).to(plane.dtype)
            at = where.clamp(min=0).long()
            pointed = plane.gather(1, at) * on
            if self.pointed is not None:
                blocks = features[:, start + self.n_pointers:].reshape(-1, self.n_pointers, self.block)
                local = hexes.flatten(2).gather(2, at[:, None, :].expand(-1, self.shape[0], -1)).transpose(1, 2)
                pointed = pointed + self.pointed(torch.cat([blocks, local * on[:, :, None]], dim=2)).squeeze(2)
            specials = specials + pointed @ self.pointer_to_specials
        return torch.cat([per_hex, specials], dim=1)


def hex_planes(core: Core) -> list[int]:
    """For a hex-pointer core (actions [0, H) name hexes): the flat plane position of each hex."""
    return core.grid.plane_index.tolist()


def special_planes(core: Core) -> list[int]:
    """The plane position of the hex each special action stands for (``core.special_hexes()``,
    where the core has it), -1 for the others."""
    hexes = core.special_hexes()
    if hexes is None:
        return []
    planes = hex_planes(core)
    return [planes[h] if h >= 0 else -1 for h in hexes]


def special_inputs(core: Core) -> list[int]:
    """The global observation entry that says where each special action's hex is now
    (``core.special_hex_inputs()``, where the core has it), -1 for the others."""
    inputs = core.special_hex_inputs()
    return [] if inputs is None else [int(x) for x in inputs]


def pointer_policy_kwargs(core: Core) -> dict:
    """``policy_kwargs`` of a ``HexPointerPolicy`` for ``core``'s action layout (add the extractor's
    kwargs and ``net_arch``)."""
    return {"features_extractor_class": HexPointerExtractor, "hex_planes": hex_planes(core),
            "special_planes": special_planes(core), "special_inputs": special_inputs(core)}


class Columns(nn.Module):
    """features[:, start:stop]."""

    def __init__(self, start: int, stop: int):
        super().__init__()
        self.start, self.stop = start, stop

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return features[:, self.start:self.stop]


class HexPointerPolicy(MaskableActorCriticPolicy):
    """MaskablePPO policy whose hex actions are scored hex by hex (``PointerHead``) over a
    ``HexPointerExtractor`` trunk; the value net reads the whole feature vector.
    ``hex_planes``, ``special_planes``, ``special_inputs``: see ``hex_planes(core)``,
    ``special_planes(core)`` and ``special_inputs(core)``.

    ``value_summary``: the value net reads the board's summary (the extractor's ``summary_dim``
    numbers after the map: summary, global embedding, focus) through a LayerNorm, in place of the
    whole feature vector.  Over Peleliu's 13,480 features Adam's steps, each of the learning rate on
    every weight, move a first-layer unit by up to the learning rate times the features' summed
    magnitude: behaviour cloning at 0.003 left every one of the 128 tanh units at |x| > 3 (64 on
    average) in every state, so the value was one constant and its gradient zero; PPO's advantages
    were then the raw returns, and its explained variance 0."""

    def __init__(self, *args, hex_planes: Sequence[int] = (), special_planes: Sequence[int] = (),
                 special_inputs: Sequence[int] = (), value_summary: bool = False, **kwargs):
        self.hex_planes = list(hex_planes)
        self.special_planes = list(special_planes)
        self.special_inputs = list(special_inputs)
        self.value_summary = bool(value_summary)
        if any(x >= 0 for x in self.special_inputs):  # the extractor passes those entries on to the head
            kwargs["features_extractor_kwargs"] = {**(kwargs.get("features_extractor_kwargs") or {}),
                                                   "pointer_inputs": [x for x in self.special_inputs if x >= 0]}
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        if not isinstance(self.features_extractor, HexPointerExtractor):
            raise TypeError("HexPointerPolicy needs features_extractor_class=HexPointerExtractor")
        self.action_net = PointerHead(self.features_extractor, self.hex_planes, int(self.action_space.n),
                                      self.special_planes, self.special_inputs)
        if self.value_summary:
            trunk = self.features_extractor
            start = trunk.map_channels * trunk.rows * trunk.cols
            layers: list[nn.Module] = [Columns(start, start + trunk.summary_dim), nn.LayerNorm(trunk.summary_dim)]
            width = trunk.summary_dim
            for size in self.mlp_extractor.value_net:  # the net_arch's vf layers, rebuilt on the summary
                if isinstance(size, nn.Linear):
                    layers.append(nn.Linear(width, size.out_features))
                    width = size.out_features
                else:
                    layers.append(size)
            self.mlp_extractor.value_net = nn.Sequential(*layers)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict:
        return {**super()._get_constructor_parameters(), "hex_planes": self.hex_planes,
                "special_planes": self.special_planes, "special_inputs": self.special_inputs,
                "value_summary": self.value_summary}
