"""The Island War event log (wargym.events): what the rules do, in order, with the rule.

Nothing is hidden in Island War but the dice to come (2.3), so every side reads every event whole.
"""

from wargym.events import EventKind

# The kernels (njit) compile the kinds' codes below in as constants, so this file is hashed with the
# kernel sources (wargym/_numba_cache.py marks a file by that word): a new or moved kind recompiles them.

KINDS = (
    EventKind("combat", "7.6", (("hex", "hex"), ("differential", "int"), ("line", "crt_line"),
                                ("column", "crt_column"), ("die", "int"), ("result", "result")),
              "combat at {hex}: differential {differential}, column {column} on the {line} line, die {die}: {result}"),
    EventKind("eliminated", "7.62", (("unit", "unit"), ("hex", "hex")), "{unit} is eliminated at {hex}"),
    EventKind("retreat", "7.7", (("unit", "unit"), ("from", "hex"), ("to", "hex")), "{unit} retreats from {from} to {to}"),
    EventKind("displaced", "7.8", (("unit", "unit"), ("from", "hex"), ("to", "hex")),
              "{unit} is displaced from {from} to {to}"),
    EventKind("advance", "7.9", (("unit", "unit"), ("from", "hex"), ("to", "hex")), "{unit} advances from {from} to {to}"),
    EventKind("banzai loss", "10.12", (("unit", "unit"), ("hex", "hex")), "{unit} at {hex} is lost in the Banzai exchange"),
    EventKind("objective", "3.0", (("hex", "hex"), ("side", "side")), "{side} takes the objective at {hex}"),
    EventKind("reinforcement", "4.1", (("unit", "unit"), ("hex", "hex")), "{unit} enters the map at {hex}"),
    EventKind("game over", "4.0", (("winner", "side"), ("margin", "int")), "the game ends, victory margin {margin}: {winner} wins"),
)
COMBAT, ELIMINATED, RETREAT, DISPLACED, ADVANCE, BANZAI_LOSS, OBJECTIVE, REINFORCEMENT, GAME_OVER = range(len(KINDS))
