"""wargym: vectorized rules engines and RL environments for WWII Pacific board wargames."""

from wargym import _numba_cache

_numba_cache.configure()  # before any kernel is declared (wargym/_numba_cache.py)

from wargym.core import BaseCore, BaseState, Core, IllegalActionError  # noqa: E402
from wargym.registry import RULESETS, make_core  # noqa: E402

__version__ = "0.1.0"
__all__ = ["BaseCore", "BaseState", "Core", "IllegalActionError", "RULESETS", "make_core", "__version__"]
