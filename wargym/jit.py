"""wargym's ``njit``: numba's, compiling each rules function once rather than once per call site.

numba compiles a function anew for every combination of argument types a kernel calls it with,
and a constant is a type of its own: ``hit_unit(T, S, g, u, 0)``, ``hit_unit(T, S, g, u, k)`` and
the same call with ``u`` read from an ``int16`` array were three compiles of ``hit_unit`` and of
everything it calls.  Measured on a cold start of an Attu game: 395 compiled versions of 304
functions (``start_loss`` eight times).  The dispatcher below widens each scalar argument type
before it compiles: a literal to its plain type, an integer to ``int64`` (a ``uint64`` stays), a
boolean to ``bool``.  numba then converts a call's arguments to that one signature as it converts
any argument (a lossless widening), so every function has one compiled version per array layout.

Use it as numba's: ``@njit(cache=True)``, ``@njit(cache=True, nogil=True)``.  Under
``NUMBA_DISABLE_JIT`` it returns the plain function, as numba's does.
"""

from __future__ import annotations

from typing import Callable

from numba import types
from numba.core import config
from numba.core.registry import CPUDispatcher


def widen(t: types.Type) -> types.Type:
    """The type a rules function is compiled for when called with an argument of type ``t``."""
    t = types.unliteral(t)
    if isinstance(t, types.Boolean):
        return types.boolean
    if isinstance(t, types.Integer) and (t.signed or t.bitwidth < 64):
        return types.int64
    return t


class WidenedDispatcher(CPUDispatcher):
    """numba's CPU dispatcher, compiling calls from other kernels for widened argument types."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(widen(a) for a in args),
                                         {name: widen(t) for name, t in kws.items()})


def njit(fn: Callable | None = None, *, cache: bool = False, nogil: bool = False) -> Callable:
    """Compile ``fn`` in nopython mode with ``WidenedDispatcher`` (module docstring)."""

    def wrap(f: Callable) -> Callable:
        if config.DISABLE_JIT:
            return f
        disp = WidenedDispatcher(py_func=f, locals={},
                                 targetoptions={"nopython": True, "nogil": nogil, "boundscheck": None})
        if cache:
            disp.enable_caching()
        return disp

    return wrap(fn) if fn is not None else wrap


__all__ = ["njit", "widen", "WidenedDispatcher"]
