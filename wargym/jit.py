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
from numba.core import config, ir, lowering
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


# ------------------------------------------------------------------------------ borrowed arguments
class BorrowedArgs:
    """numba's lowering, changed for wargym's functions: an argument is borrowed, not owned.

    numba increments the reference count of every reference-counted argument (an array, a
    structref) when a function starts and decrements it when the argument's variable dies, though
    the caller holds its own reference for the whole call.  Each count is an atomic add, and a
    rules function takes two structs and often arrays: measured on Peleliu, ``can_act_on(T, S, g,
    u, occ)`` cost 37 ns a call, four atomic counts of its 5-access body, which numba's pass for
    removing count pairs leaves in place once the function branches.  Borrowing is what the caller
    already guarantees: its variable stays alive until the call returns (numba deletes a variable
    after its last use, and the call is a use).  Every other reference stays counted as numba
    counts it: a copy of the argument, a value stored from it into a struct or a container, and a
    returned argument (numba counts a returned value where it is cast to the return type).

    Only a variable assigned from the argument exactly once is borrowed (numba's SSA pass renames
    the later assignments); only functions of wargym's packages are changed.  It replaces three
    methods of numba's ``Lower``: tests/test_jit.py checks, on the numba installed, that a
    branching function takes no counts and that references and allocations stay balanced."""

    installed = False

    @classmethod
    def install(cls) -> None:
        if cls.installed:
            return
        cls.installed = True
        assign, incref, delvar = lowering.Lower.lower_assign, lowering.Lower.incref, lowering.Lower.delvar

        def borrowed_names(self) -> set:
            names = self.__dict__.get("_wargym_borrowed")
            if names is None:
                names = set()
                if self.fndesc.modname.split(".")[0] == "wargym":
                    count: dict = {}
                    for block in self.func_ir.blocks.values():
                        for inst in block.find_insts(ir.Assign):
                            count[inst.target.name] = count.get(inst.target.name, 0) + 1
                    for block in self.func_ir.blocks.values():
                        for inst in block.find_insts(ir.Assign):
                            if isinstance(inst.value, ir.Arg) and count[inst.target.name] == 1:
                                names.add(inst.target.name)
                self.__dict__["_wargym_borrowed"] = names
            return names

        def lower_assign_borrowed(self, ty, inst):
            if isinstance(inst.value, ir.Arg) and inst.target.name in borrowed_names(self):
                self.__dict__["_wargym_no_incref"] = True
                try:
                    return assign(self, ty, inst)
                finally:
                    self.__dict__["_wargym_no_incref"] = False
            return assign(self, ty, inst)

        def incref_unless_borrowed(self, typ, val):
            if not self.__dict__.get("_wargym_no_incref"):
                incref(self, typ, val)

        def delvar_unless_borrowed(self, name):
            if name not in borrowed_names(self):
                delvar(self, name)

        lowering.Lower.lower_assign = lower_assign_borrowed
        lowering.Lower.incref = incref_unless_borrowed
        lowering.Lower.delvar = delvar_unless_borrowed


BorrowedArgs.install()

__all__ = ["njit", "widen", "WidenedDispatcher", "BorrowedArgs"]
