"""The World at War event log (wargym.events): what the rules do in a step, in order, each with the
section of the book that does it.  The book numbers nothing, so the rule is the section's name
("5. Resolve battle", "Retreat", "Forcing a breakthrough", "Appendix 2" ...).

What a side may read: everything on the battlefield is in plain view, and "The information on the
cards is only revealed when they are played", so a command card played or discarded is named to
both sides and a card drawn only to its holder (its ``card`` argument: wargym.events writes None
for a card the viewer may not identify after the step).  An air support card picked is never
named; one played is shown ("The attacker now shows his air support card"), and so are its planes.

One event a die: a battle throw is a ``battle`` event (the dice of each colour) followed by one
``battle die`` event a die (its colour and symbol); then ``hits`` (what the throw scores on the
target), the saving throws one by one, the losses, the defence die, the flags and the retreat.

Arguments of World at War's own types (``WorldAtWarCore.event_value``): ``die`` a battle die's
colour, ``symbol`` the symbol it shows, ``plane`` fighter or fighter-bomber, ``air_face`` the
air support & AA die's result, ``air_save`` the saving throw of a plane (-1: none thrown),
``obstacle`` an obstacle of the terrain effects sheet.
"""

from __future__ import annotations

from wargym.events import EventKind

# The kernels (njit) compile the kinds' codes below in as constants, so this file is hashed with the
# kernel sources (wargym/_numba_cache.py marks a file by that word): a new or moved kind recompiles them.
from wargym.world_at_war.scenario import AIR_FACES, DICE, FEATURES, SYMBOLS

SAVE_ARGS = (("for", "purpose"), ("die", "die"), ("symbol", "symbol"), ("result", "result"))
KINDS = (
    EventKind("first player", "GAME TURN", (("die0", "int"), ("die1", "int"), ("chooser", "side")),
              "1 D6 each for the first turn: {die0} and {die1}; the higher chooses who goes first: {chooser}"),
    EventKind("card played", "1. Play a command card", (("side", "side"), ("card", "card")), "{side} plays {card}"),
    EventKind("no order", "1. Play a command card", (("side", "side"), ("card", "card")),
              "{side} can order none of its units: it discards {card}, which ends its turn"),
    EventKind("card discarded", "6. Draw a command card", (("side", "side"), ("card", "card")),
              "{side} discards {card}, the card it played"),
    EventKind("reshuffle", "6. Draw a command card", (("cards", "int"),),
              "the draw pile is empty: the {cards} discarded cards are shuffled into a new one"),
    EventKind("card drawn", "6. Draw a command card", (("side", "side"), ("card", "card"), ("for", "purpose")),
              "{side} draws {card} {for}"),
    EventKind("commander's die", "Commanders in battle", (("commander", "unit"), ("unit", "unit")),
              "{commander} adds a die to the battle of {unit}"),
    EventKind("battle", "4. Battle", (("unit", "unit"), ("hex", "hex"), ("white", "int"), ("yellow", "int"),
                                      ("red", "int"), ("green", "int")),
              "{unit} battles {hex}: {white} white, {yellow} yellow, {red} red and {green} green dice"),
    EventKind("battle die", "5. Resolve battle", (("die", "die"), ("symbol", "symbol")), "a {die} die: {symbol}"),
    EventKind("hits", "5. Resolve battle", (("unit", "unit"), ("hits", "int"), ("automatic", "int"), ("flags", "int")),
              "the throw scores {hits} hit(s) on {unit}, {automatic} of them an automatic kill, and {flags} flag(s)"),
    EventKind("hits on the vehicle", "APPENDIX 1", (("unit", "unit"),), "the hits go on the vehicle of {unit}"),
    EventKind("saving throw", "Saving throw", SAVE_ARGS, "saving throw for {for}: a {die} die, {symbol}: {result}"),
    EventKind("loss", "5. Resolve battle", (("unit", "unit"), ("lost", "int"), ("left", "int")),
              "{unit} loses {lost} figure(s), {left} left"),
    EventKind("vehicle loss", "APPENDIX 1", (("unit", "unit"), ("lost", "int"), ("left", "int")),
              "{unit} loses {lost} vehicle(s), {left} left"),
    EventKind("destroyed", "OBJECTIVE OF THE GAME", (("unit", "unit"), ("hex", "hex")), "{unit} is destroyed at {hex}"),
    EventKind("victory point", "OBJECTIVE OF THE GAME", (("side", "side"), ("points", "int")),
              "{side} scores a victory point ({points} for pieces destroyed and air attacks)"),
    EventKind("building", "Firing at buildings", (("hex", "hex"), ("die1", "int"), ("die2", "int"), ("result", "result")),
              "2 D6 for the building at {hex}: {die1} and {die2}: it {result}"),
    EventKind("defence die", "Defence", (("unit", "unit"), ("die", "die"), ("symbol", "symbol"), ("result", "result")),
              "{unit} throws its defence die: a {die} die, {symbol}: {result}"),
    EventKind("flag save", "Retreat", SAVE_ARGS, "saving throw for {for}: a {die} die, {symbol}: {result}"),
    EventKind("flags", "Retreat", (("unit", "unit"), ("flags", "int"), ("ignored", "int"), ("hexes", "int")),
              "{unit}: {flags} flag(s), {ignored} ignored: it must retreat {hexes} hex(es)"),
    EventKind("voluntary retreat", "Voluntary retreat", (("unit", "unit"),),
              "{unit} makes a voluntary retreat: 1 hex after the battle, no defence die"),
    EventKind("retreat", "Retreat rules", (("unit", "unit"), ("from", "hex"), ("to", "hex")),
              "{unit} retreats from {from} to {to}"),
    EventKind("rally", "Retreat rules", (("unit", "unit"), ("commander", "unit"), ("hex", "hex")),
              "{unit} rallies on {commander} at {hex}: the flags left are ignored"),
    EventKind("retreat blocked", "Retreat rules", (("unit", "unit"), ("hex", "hex")),
              "{unit} cannot retreat from {hex}: a figure is eliminated"),
    EventKind("off the battlefield", "Retreat rules", (("unit", "unit"), ("hex", "hex")),
              "{unit} retreats off the battlefield from {hex}"),
    EventKind("breakthrough", "Forcing a breakthrough", (("unit", "unit"), ("from", "hex"), ("to", "hex")),
              "{unit} forces a breakthrough from {from} into {to}"),
    EventKind("second battle", "Forcing a breakthrough", (("unit", "unit"), ("target", "unit")),
              "{unit} engages {target} in battle once more"),
    EventKind("scatter", "Direct and indirect artillery fire", (("unit", "unit"), ("aimed", "hex"), ("how", "purpose"),
                                                                ("throw", "int"), ("hit", "hex")),
              "{unit} fires at {aimed}, {how}: {throw}, the round hits {hit}"),
    EventKind("salvo", "Direct and indirect artillery fire", (("unit", "unit"), ("aimed", "hex"), ("hit", "hex")),
              "{unit}'s subsequent salvo at {aimed} hits {hit}"),
    EventKind("flare", "Flairs (night games)", (("unit", "unit"), ("hex", "hex")),
              "{unit}'s flare illuminates {hex} and its ZOC"),
    EventKind("obstacle gone", "Terrain effects sheet", (("hex", "hex"), ("obstacle", "obstacle"), ("how", "purpose")),
              "the {obstacle} at {hex} is {how}"),
    EventKind("minefield", "Terrain effects sheet", (("unit", "unit"), ("hex", "hex"), ("dice", "int")),
              "{unit} casts {dice} basic battle die/dice with saving throws in the minefield at {hex}"),
    EventKind("air support card", "Appendix 2", (("side", "side"), ("card_fb", "int"), ("card_f", "int"),
                                                 ("fb", "int"), ("f", "int")),
              "{side} shows an air support card of {card_fb} FB + {card_f} F and deploys {fb} FB + {f} F"),
    EventKind("air victory point", "Appendix 2", (("side", "side"), ("points", "int")),
              "an air attack the other side cannot counter (0 aircraft in its pool): a victory point for {side} "
              "({points} for pieces destroyed and air attacks)"),
    EventKind("plane placed", "Appendix 2", (("side", "side"), ("plane", "plane"), ("hex", "hex")),
              "{side} places a {plane} at {hex}"),
    EventKind("air fire", "Appendix 2", (("for", "purpose"), ("from", "hex"), ("at", "hex"), ("plane", "plane"),
                                         ("die", "air_face"), ("save", "air_save")),
              "{for} from {from} at the {plane} at {at}: {die}; {save}"),
    EventKind("plane lost", "Appendix 2", (("side", "side"), ("plane", "plane"), ("hex", "hex")),
              "the {plane} of {side} at {hex} is destroyed: {side} gives up an air force card"),
    EventKind("ground attack", "Appendix 2", (("plane", "plane"), ("from", "hex"), ("unit", "unit"), ("dice", "int")),
              "the {plane} at {from} attacks {unit} with {dice} air support & AA dice"),
    EventKind("air die", "Appendix 2", (("face", "air_face"),), "an air support & AA die: {face}"),
    EventKind("air retreat", "Appendix 2", (("unit", "unit"), ("hexes", "int")),
              "{unit} must retreat {hexes} hex(es), no saving throw for targets of ground attack"),
    EventKind("pick an air support", "Appendix 2", (("side", "side"), ("card", "card")),
              "{side} plays {card}: an air support card picked from its deck"),
    EventKind("objective held", "OBJECTIVE OF THE GAME", (("hex", "hex"), ("side", "side"), ("points", "int")),
              "{side} holds the objective at {hex} at the end of the turn: {points} victory point(s)"),
    EventKind("game over", "OBJECTIVE OF THE GAME", (("winner", "side"), ("points", "int"), ("quota", "int")),
              "{winner} reaches its quota ({points} of {quota} victory points): the game is over, {winner} wins"),
)
(FIRST_PLAYER, CARD_PLAYED, NO_ORDER, CARD_DISCARDED, RESHUFFLE, CARD_DRAWN, COMMANDER_DIE, BATTLE, BATTLE_DIE,
 HITS, VEHICLE_HIT, SAVING_THROW, LOSS, VEHICLE_LOSS, DESTROYED, VICTORY_POINT, BUILDING, DEFENCE, FLAG_SAVE, FLAGS,
 VOLUNTARY, RETREAT, RALLY, BLOCKED, OFF_MAP, BREAKTHROUGH, SECOND_BATTLE, SCATTER, SALVO, FLARE, OBSTACLE_GONE,
 MINEFIELD, AIR_CARD, AIR_POINT, PLANE_PLACED, AIR_FIRE, PLANE_LOST, GROUND_ATTACK, AIR_DIE, AIR_RETREAT, PICK_AIR,
 OBJECTIVE, GAME_OVER) = range(len(KINDS))

# "purpose" arguments: what a die was thrown for, why a card was drawn, how an obstacle went
PURPOSES = ("a hit", "a flag", "the commander", "at the end of its turn", "for the card it discarded",
            "after playing 'pick an air support'", "blind (1 D8)", "guided (2 D6)", "AA fire", "a dogfight",
            "return fire", "a free shot", "overrun", "overrun by a tracked vehicle", "cleared")
(FOR_HIT, FOR_FLAG, FOR_COMMANDER, AFTER_TURN, AFTER_DISCARD, AFTER_PICK, BLIND, GUIDED, AA_FIRE, DOGFIGHT,
 RETURN_FIRE, FREE_SHOT, OVERRUN, TRACKED_OVERRUN, CLEARED) = range(len(PURPOSES))

# "result" arguments
RESULTS = ("saved", "not saved", "a kill", "a miss", "collapses", "stands")
SAVED, NOT_SAVED, KILL, MISS, COLLAPSES, STANDS = range(len(RESULTS))

# the words of World at War's own argument types, in the order of scenario.py's codes
WORDS = {"hit": "HIT!", "strike": "STRIKE", "blow": "BLOW", "sherman": "Sherman", "tiger": "Tiger",
         "hit_any": "hit on F & FB", "hit_fb": "hit on FB", "kill_infantry": "kill on infantry & artillery",
         "flag": "flag", "kill_any": "kill on any ground target", "anti_tank": "anti-tank obstacle",
         "barbed_wire": "barbed wire"}
NAMES = {"die": DICE, "symbol": SYMBOLS, "air_face": AIR_FACES, "obstacle": FEATURES,
         "plane": ("no plane", "fighter", "fighter-bomber")}   # air.FIGHTER, air.FIGHTER_BOMBER


def value_words(typ: str, value: int) -> str:
    """An argument of one of World at War's own types in words (module docstring)."""
    if typ == "air_save":
        return "no saving throw" if value < 0 else f"its saving throw: {value_words('air_face', value)}"
    name = NAMES[typ][value]
    return WORDS.get(name, name)
