"""wargym: vectorized rules engines and RL environments for WWII Pacific board wargames."""

from wargym.core import BaseCore, BaseState, Core, IllegalActionError
from wargym.registry import RULESETS, make_core

__version__ = "0.1.0"
__all__ = ["BaseCore", "BaseState", "Core", "IllegalActionError", "RULESETS", "make_core", "__version__"]
