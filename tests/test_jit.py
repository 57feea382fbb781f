"""wargym.jit: rules functions borrow their arguments (BorrowedArgs), and every reference is still
counted where numba counts it: a returned argument, one stored in a container, an argument
variable assigned anew, a temporary a caller passes on."""

from __future__ import annotations

import re
import sys
import types

import numpy as np
from numba import njit as numba_njit
from numba.core.runtime import _nrt_python, rtsys

from wargym.jit import njit


def compiled(py_func, module: str):
    """``py_func`` compiled by wargym's njit as a function of ``module`` (BorrowedArgs changes the
    functions of wargym's packages only)."""
    py_func.__module__ = module
    return njit(py_func)


def pick(a, b, i):
    """Branches (a chain of ``and``): numba's pass that removes count pairs leaves these in place."""
    return a[i] > 0 and b[i] > 0 and a[i + 1] < b[i]


def arg_counts(dispatcher) -> int:
    """Reference-count calls in the compiled function's own body (not in the helpers it links)."""
    ir = dispatcher.inspect_llvm(dispatcher.signatures[0])
    body = re.search(r"define [^\n]*pick[^\n]*\{.*?\n\}\n", ir, re.S).group(0)
    return body.count("@NRT_incref(") + body.count("@NRT_decref(")


def _copy(f):
    """A fresh function object of ``f`` (each compile below changes its own copy's module)."""
    return types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)


def test_a_rules_function_takes_no_counts_on_its_arguments():
    a, b = np.arange(5), np.full(5, 9)
    ours = compiled(_copy(pick), "wargym.test_borrowed")
    plain = numba_njit(_copy(pick))
    assert ours(a, b, 1) and not ours(a, b, 0) and plain(a, b, 1) and not plain(a, b, 0)
    assert arg_counts(plain) > 0  # numba's own lowering counts the array on entry and exit
    assert arg_counts(ours) == 0


def identity(a):
    return a


def kept(a):
    box = [a]
    return box[0]


def reassigned(a, fresh):
    if fresh:
        a = np.zeros(3)
    return a.sum()


def inner_sum(a):
    return a.sum()


def test_borrowed_arguments_keep_every_reference_and_allocation_balanced():
    f_identity = compiled(_copy(identity), "wargym.test_borrowed")
    f_kept = compiled(_copy(kept), "wargym.test_borrowed")
    f_reassigned = compiled(_copy(reassigned), "wargym.test_borrowed")
    f_inner = compiled(_copy(inner_sum), "wargym.test_borrowed")
    g = dict(inner_sum=f_inner, np=np)

    def outer(n):
        return inner_sum(np.ones(n))  # a temporary the caller holds for the call

    outer_copy = types.FunctionType(outer.__code__, g, "outer")
    f_outer = compiled(outer_copy, "wargym.test_borrowed")
    a = np.arange(4.0)
    for f, args in ((f_identity, (a,)), (f_kept, (a,)), (f_reassigned, (a, True)), (f_reassigned, (a, False)),
                    (f_outer, (7,))):
        f(*args)  # compiled before the counts are taken
    was_enabled = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    try:
        refs = sys.getrefcount(a)
        before = rtsys.get_allocation_stats()
        for _ in range(1000):
            out = f_identity(a)
            assert out is a or np.shares_memory(out, a)
            del out
            assert f_kept(a)[3] == 3.0
            assert f_reassigned(a, True) == 0.0 and f_reassigned(a, False) == 6.0
            assert f_outer(7) == 7.0
        after = rtsys.get_allocation_stats()
    finally:
        if not was_enabled:
            _nrt_python.memsys_disable_stats()
    assert sys.getrefcount(a) == refs
    assert after.alloc - before.alloc == after.free - before.free > 0
    assert after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free
