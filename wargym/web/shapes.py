"""Small geometry and colour helpers the rulesets' ``web`` modules share (coordinates in hex radii)."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from wargym.draw import corner, edge


def colour(rgb: Sequence[int]) -> str:
    """``(r, g, b)`` as ``#rrggbb``."""
    return "#" + "".join(f"{int(c):02x}" for c in rgb[:3])


def hexside_points(center, d: int) -> list[list[float]]:
    """The two corners of the hexside of a unit hex at ``center`` in direction ``d`` (wargym.draw.edge)."""
    return [[round(x, 3), round(y, 3)] for x, y in edge(float(center[0]), float(center[1]), 1.0, d)]


def hex_path() -> str:
    """An SVG path of a flat-topped hex of radius 1 around (0, 0)."""
    points = [corner(0.0, 0.0, 1.0, k) for k in range(6)]
    return "M" + " L".join(f"{x:.4f},{y:.4f}" for x, y in points) + " Z"


def map_extent(centers: np.ndarray) -> tuple[float, float]:
    """The width and height of a map whose hex centres are ``centers`` (from the origin, a hex of
    margin right and below)."""
    return round(float(centers[:, 0].max()) + 1.0, 3), round(float(centers[:, 1].max()) + math.sqrt(3) / 2, 3)
