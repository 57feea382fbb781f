"""wargym: vectorized rules engines and RL environments for WWII Pacific board wargames."""

from pathlib import Path

from wargym import _layout, _numba_cache, compiling

_layout.install(Path(__file__).resolve().parent)  # a clone's envs/, agents/, configs/ (wargym/_layout.py)
_numba_cache.configure()  # before any kernel is declared (wargym/_numba_cache.py)
compiling.install()       # compiles are reported on stderr as they happen (wargym/compiling.py)

from wargym.core import BaseCore, BaseState, Core, IllegalActionError  # noqa: E402
from wargym.registry import RULESETS, make_core  # noqa: E402

__version__ = "0.1.0"
__all__ = ["BaseCore", "BaseState", "Core", "IllegalActionError", "RULESETS", "make_core", "__version__"]
