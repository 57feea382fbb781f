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
