"""Drawing helpers shared by the rulesets' image renderers (pillow).

``Canvas`` takes coordinates, line widths and font sizes in final-image pixels and draws SCALE
times larger; ``result()`` scales it down (anti-aliased) to an RGB array.  Hex geometry is for
flat-topped hexes: ``corner`` k of a hex (0 east, clockwise with y down), ``edge`` d the two corners
of the hexside in direction d (0 N, 1 NE, ...).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

SCALE = 2                 # drawn at SCALE x and scaled down
INK = (30, 30, 30)


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False):
    names = ("DejaVuSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf") if bold else \
        ("DejaVuSans.ttf", "DejaVuSansCondensed.ttf")
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


class Canvas:
    """A pillow drawing in final-image pixel units, drawn SCALE times larger."""

    def __init__(self, width: float, height: float, background):
        self.k = SCALE
        self.image = Image.new("RGB", (int(width) * self.k, int(height) * self.k), background)
        self.draw = ImageDraw.Draw(self.image)

    def _p(self, pts):
        return [(x * self.k, y * self.k) for x, y in pts]

    def _w(self, width: float) -> int:
        return max(1, round(width * self.k))

    def polygon(self, pts, fill=None, outline=None, width: float = 1):
        self.draw.polygon(self._p(pts), fill=fill, outline=outline, width=self._w(width))

    def line(self, pts, fill, width: float, joint: bool = True):
        self.draw.line(self._p(pts), fill=fill, width=self._w(width), joint="curve" if joint else None)

    def dashed(self, a, b, fill, width: float, dash: float, gap: float):
        (x0, y0), (x1, y1) = a, b
        length = math.hypot(x1 - x0, y1 - y0)
        t = 0.0
        while t < length:
            t1 = min(length, t + dash)
            self.line([(x0 + (x1 - x0) * t / length, y0 + (y1 - y0) * t / length),
                       (x0 + (x1 - x0) * t1 / length, y0 + (y1 - y0) * t1 / length)], fill, width, joint=False)
            t = t1 + gap

    def ellipse(self, cx, cy, rx, ry, fill=None, outline=None, width: float = 1):
        k = self.k
        self.draw.ellipse([(cx - rx) * k, (cy - ry) * k, (cx + rx) * k, (cy + ry) * k], fill=fill,
                          outline=outline, width=self._w(width))

    def rect(self, x0, y0, x1, y1, fill=None, outline=None, width: float = 1, radius: float = 0):
        k = self.k
        self.draw.rounded_rectangle([x0 * k, y0 * k, x1 * k, y1 * k], radius=radius * k, fill=fill,
                                    outline=outline, width=self._w(width) if outline else 0)

    def text(self, x, y, text: str, size: float, fill=INK, bold: bool = False, anchor: str = "la"):
        self.draw.text((x * self.k, y * self.k), text, font=font(round(size * self.k), bold), fill=fill,
                       anchor=anchor)

    def text_width(self, text: str, size: float, bold: bool = False) -> float:
        return self.draw.textlength(text, font=font(round(size * self.k), bold)) / self.k

    def result(self) -> np.ndarray:
        w, h = self.image.size
        small = self.image.resize((w // self.k, h // self.k), Image.LANCZOS)
        return np.asarray(small, dtype=np.uint8).copy()


def corner(cx: float, cy: float, r: float, k: int) -> tuple[float, float]:
    a = math.radians(60 * k)
    return cx + r * math.cos(a), cy + r * math.sin(a)


def edge(cx: float, cy: float, r: float, d: int):
    """The two corners of the hexside in direction d (0 N, 1 NE, ... clockwise; y grows down)."""
    return corner(cx, cy, r, 4 + d), corner(cx, cy, r, 5 + d)


def wrap(cv: Canvas, text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """``text`` broken into lines no wider than ``width``; continuation lines indented."""
    lines, cur = [], ""
    for word in text.split():
        trial = f"{cur} {word}" if cur else word
        if cur and cv.text_width(trial, size, bold) > width:
            lines.append(cur)
            cur = "   " + word
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return lines
