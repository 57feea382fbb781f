"""The Attu event log (wargym.events): what the rules do, in order, with the book's case.

Every die is an event of its own, with what it was thrown for (``PURPOSES``); the events after
it say what came of it (a fire's hits, the weather, the factors of Airpower, a landing).  An
attack's hits then each give one event as their owner places them: a step lost, a counter taken
off the map, or a hit with no effect (8.0: excess hits are lost; 8.5: the last Japanese Infantry
of a hex stays).  A Victory Hex that changes hands is an event too (3.8.1): with the log on, the
driver's hooks (sequence.py ``apply``, ``progress``) compare who occupies each before and after
(victory.py ``note_victory_hexes``), so the event closes the decision or automatic step that
moved the units; none comes after the game's end.

What the U.S. may not read (2.5, 12.1, 14.0; wargym/attu/fog.py):

* a face-down or off-map Japanese counter is not named to it: every unit is a ``unit`` argument,
  which the log writes as "a unit it cannot see" to a side that may not identify it after the
  step (fog.HIDDEN's ``Anonymous``); a counter the U.S. remembers (``us_knows``: seen face up,
  then hidden again, even within the step, or a gun from the set-up) it may identify, and reads
  by name;
* the die rolled on an Unknown's table (2.5, and 13.3's ambush) is ``secret`` from it (the kind
  ``secret die``, whose value it reads as "?"): with the number of Infantry that appear it would
  tell which table, so which counter, the lot rolled on, and fog.py keeps the identity of a
  counter off the map from it.  13.3's die is logged only when an ambush comes of it: whether a
  die is thrown at all depends on the Unknowns in the container, which the U.S. may not know
  (solitaire.py ``ambush_roll``), and an event cannot be hidden whole;
* a Japanese counter that leaves the map looks the same to it whether it was eliminated or melted
  back into the cup (8.5, fog.py ``seen_as``): one kind, ``off the map``, whose ``how`` is secret
  from it;
* the Komandorski chits (12.1) and victory point chits (14.0) appear only as they are revealed.

Japan reads everything: the U.S. hides nothing in this game.
"""

from wargym.events import EventKind

# The kernels (njit) compile the codes below in as constants, so this file is hashed with the kernel
# sources (wargym/_numba_cache.py marks a file by that word): a new code recompiles them.

# what a die was thrown for (``event_purposes``); those from SECRET_PURPOSES on are kept from the U.S.
PURPOSES = (
    "weather (3.3)", "Airpower Determination (3.4)", "Ranged Combat (8.1)", "Airpower attack (8.1.6)",
    "defensive fire (8.2.1.1)", "offensive fire (8.2.1.2)", "Loss Recovery (9.1)", "Scatter Chart (9.2.2)",
    "Unknowns to draw (13.2.1)", "ad hoc placement (13.2.2)", "night infiltration (13.5)",
    "an Unknown's table (2.5)", "an ambush: an Unknown's table (13.3)",
)
(P_WEATHER, P_AIRPOWER, P_RANGED, P_AIR_ATTACK, P_DEFENSIVE, P_OFFENSIVE, P_RECOVERY, P_SCATTER, P_SOLITAIRE_SETUP,
 P_AD_HOC, P_INFILTRATION, P_UNKNOWN_TABLE, P_AMBUSH) = range(len(PURPOSES))
SECRET_PURPOSES = P_UNKNOWN_TABLE
NOT_LOGGED = -1   # a die its thrower logs itself, when it should (13.3: only a die an ambush comes of)

# the ``result`` arguments (``event_results``)
RESULTS = (
    "eliminated", "melted back into the cup", "a hit", "a miss", "a hit on the nearest friendly unit",
    "a hit on a friendly unit, with none on the map to take it", "Step 7 (3.7)", "Colonel Yamasaki's assault (11.3.2)",
    "an ambush (13.3)", "lands at", "scatters to", "it must stay", "it may go", "all the Victory Hexes held (3.8.1)",
    "Landing Zones D, E, F and G held, or a gun on Engineer Hill reaching them (3.8.1)",
    "the Casualty Track at 30 (3.8.2)", "every Japanese Infantry and Artillery unit eliminated (3.8.2)",
    "the U.S. has not won by the end of the last turn (3.8.3)", "the Victory Level Table (14.0)",
    "no U.S. unit sees it", "not in a U.S. ZOC at the end of the turn (3.9)",
    "neither next to a U.S. unit nor in or next to a Landing Zone in a Refit Turn (9.5)",
)
(R_ELIMINATED, R_MELTED, R_HIT, R_MISS, R_FRIENDLY, R_FRIENDLY_LOST, R_STEP7, R_YAMASAKI, R_AMBUSH, R_LANDS, R_SCATTERS,
 R_STAYS, R_GOES, R_ALL_VICTORY_HEXES, R_BEACHES, R_CASUALTIES, R_ALL_ELIMINATED, R_LAST_TURN, R_VICTORY_POINTS,
 R_UNSEEN, R_NO_ZOC, R_REFIT_TURN) = range(len(RESULTS))

KINDS = (
    # dice (1.2) and what the sequence rolls (3.3, 3.4)
    EventKind("die", "1.2", (("for", "purpose"), ("value", "int")), "{for}: a die, {value}"),
    EventKind("secret die", "1.2", (("for", "purpose"), ("value", "int")), "{for}: a die, {value}", {"value": ("us",)}),
    EventKind("weather", "3.3", (("weather", "weather"),), "the weather is {weather}"),
    EventKind("airpower", "3.4", (("side", "side"), ("factors", "int")), "{side} has {factors} Airpower factor(s)"),
    EventKind("turn", "3.9", (("date", "int"),), "the Turn marker advances to May {date}"),
    # combat (8.0-8.5)
    EventKind("ranged fire", "8.1", (("unit", "unit"), ("from", "hex"), ("at", "hex"), ("dice", "int"),
                                     ("modifier", "modifier"), ("hits", "int")),
              "{unit} at {from} fires {dice} dice at {at}, modifier {modifier}: {hits} hit(s)"),
    EventKind("soft ground", "8.1.5", (("unit", "unit"), ("steps", "int")),
              "{unit} sinks into the soft ground: {steps} step(s) to lose"),
    EventKind("airpower attack", "8.1.6", (("side", "side"), ("at", "hex"), ("modifier", "modifier"),
                                           ("result", "result")),
              "Airpower attack by {side} on {at}, modifier {modifier}: {result}"),
    EventKind("airpower wasted", "8.1.6", (("side", "side"), ("at", "hex")),
              "the Airpower attack by {side} on {at} is wasted: no enemy unit is left there"),
    EventKind("melee", "8.2", (("side", "side"), ("hex", "hex"), ("kind", "result")),
              "{side} attacks {hex} in Melee: {kind}"),
    EventKind("melee fire", "8.2.1", (("round", "int"), ("fire", "purpose"), ("unit", "unit"), ("dice", "int"),
                                      ("modifier", "modifier"), ("hits", "int")),
              "round {round}, {fire}: {unit} rolls {dice} dice, modifier {modifier}: {hits} hit(s)"),
    EventKind("step lost", "8.0", (("unit", "unit"), ("steps", "int"), ("left", "int")),
              "{unit} loses {steps} step(s), {left} left"),
    EventKind("no effect", "8.0, 8.5", (), "a hit has no effect"),
    EventKind("eliminated", "8.0", (("unit", "unit"), ("hex", "hex")), "{unit} is eliminated at {hex}"),
    EventKind("off the map", "8.5", (("unit", "unit"), ("hex", "hex"), ("how", "result")),
              "{unit} at {hex} is taken off the map: {how}", {"how": ("us",)}),
    EventKind("set aside", "8.2.1.2", (("unit", "unit"), ("hex", "hex")),
              "{unit} loses its last step at {hex} and is set aside until the Melee ends"),
    EventKind("casualty track", "8.4", (("steps", "int"), ("track", "int")),
              "the Casualty Track rises by {steps} to {track}"),
    EventKind("retreat", "8.2.1.3", (("unit", "unit"), ("from", "hex"), ("to", "hex")),
              "{unit} retreats from {from} to {to}"),
    EventKind("no retreat", "8.2.1.3", (("unit", "unit"), ("hex", "hex")),
              "{unit} has no hex to retreat to from {hex}"),
    EventKind("advance", "8.2.1.4", (("unit", "unit"), ("from", "hex"), ("to", "hex")),
              "{unit} advances from {from} to {to}"),
    EventKind("captured", "8.2.1.4", (("unit", "unit"), ("hex", "hex")), "Japan captures {unit} at {hex}"),
    # fog of war (2.5)
    EventKind("revealed", "2.5", (("unit", "unit"), ("hex", "hex")), "{unit} at {hex} is revealed"),
    EventKind("unknowns revealed", "2.5", (("hex", "hex"), ("counters", "int"), ("table", "unit")),
              "{counters} Unknown(s) at {hex} are revealed: one die for the lot, on the table of {table}"),
    EventKind("infantry appears", "2.5", (("unit", "unit"), ("hex", "hex")), "{unit} comes from the cup to {hex}"),
    EventKind("face down", "2.5", (("unit", "unit"), ("hex", "hex"), ("why", "result")),
              "{unit} at {hex} is flipped face down: {why}"),
    # the heroes (11.0)
    EventKind("Joe Martinez", "11.1", (("hits", "int"),), "Joe Martinez turns a missed die into a '0': {hits} hit(s)"),
    EventKind("General Arnold", "11.2", (("unit", "unit"),), "General Arnold: {unit} defends with a combat value of 6"),
    EventKind("Colonel Yamasaki", "11.3", (("hex", "hex"),), "Colonel Yamasaki activates the units at {hex}"),
    # Refit Turns and landings (9.0-9.4, 12.5)
    EventKind("loss recovery", "9.1", (("roll", "int"), ("casualties", "int"), ("steps", "int")),
              "Loss Recovery Table: modified roll {roll} against {casualties} casualties gives {steps} refit "
              "step(s); the Casualty Track goes back to 0"),
    EventKind("refit", "9.1", (("unit", "unit"), ("steps", "int")), "{unit} is refit to {steps} step(s)"),
    EventKind("landing", "9.2.2", (("unit", "unit"), ("zone", "lz"), ("result", "result"), ("to", "hex")),
              "{unit} (staging box {zone}) {result} {to}"),
    EventKind("delayed", "9.2.2", (("unit", "unit"), ("zone", "lz")),
              "{unit} (staging box {zone}) is delayed: back to the Reinforcements Box"),
    EventKind("landing lost", "9.2.2", (("unit", "unit"), ("hex", "hex")),
              "{unit} comes ashore at {hex}, on a Japanese unit or in its ZOC"),
    EventKind("over capacity", "9.2.1", (("hex", "hex"), ("steps", "int")),
              "the Landing Zone at {hex} holds {steps} step(s) over its capacity"),
    EventKind("independent", "9.3", (("unit", "unit"), ("from", "unit"), ("hex", "hex")),
              "{from} gives a step to form {unit} at {hex}"),
    EventKind("supply depot", "9.4", (("depot", "unit"), ("engineer", "unit"), ("hex", "hex")),
              "{engineer} gives a step to build {depot} at {hex}"),
    # victory (3.8, 10.0, 12.1, 14.0)
    EventKind("victory hex", "3.8.1", (("hex", "hex"), ("side", "side")), "{side} holds the Victory Hex {hex}"),
    EventKind("zone cleared", "10.0", (("hex", "hex"), ("unknowns", "int")),
              "the Victory Zone of {hex} is cleared: {unknowns} Unknown(s) leave it"),
    EventKind("zone marker removed", "10.0", (("hex", "hex"),),
              "Japanese Infantry on {hex}: its Zone Cleared marker is removed"),
    EventKind("Komandorski Effect", "12.1.3", (("date", "int"),),
              "the Komandorski Effect chit is revealed: May {date}"),
    EventKind("Komandorski Delay", "12.1.3", (("turns", "int"), ("last", "int")),
              "the Komandorski Delay chit is revealed: {turns} more turn(s), the last on May {last}"),
    EventKind("victory points", "14.0", (("points", "int"),),
              "the victory point chits are revealed: the U.S. scores {points} Victory Point(s)"),
    EventKind("game over", "3.8", (("winner", "side"), ("how", "result")), "the game ends, {winner} wins: {how}"),
    # solitaire play (13.0)
    EventKind("ad hoc placement", "13.2.2", (("hex", "hex"), ("infantry", "int")),
              "the die calls {infantry} Japanese Infantry from the cup to defend {hex}"),
    EventKind("ambush", "13.3", (("unit", "unit"), ("hex", "hex")), "Japanese Infantry ambush {unit} at {hex}"),
    EventKind("night infiltration", "13.5", (("unit", "unit"), ("result", "result")),
              "{unit} tries to leave a Japanese ZOC at night: {result}"),
)
(DIE, SECRET_DIE, WEATHER, AIRPOWER, TURN, RANGED_FIRE, SOFT_GROUND, AIR_ATTACK, AIR_WASTED, MELEE, MELEE_FIRE,
 STEP_LOST, NO_EFFECT, ELIMINATED, OFF_MAP, SET_ASIDE, CASUALTY_TRACK, RETREAT, NO_RETREAT, ADVANCE, CAPTURED,
 REVEALED, UNKNOWNS_REVEALED, INFANTRY_APPEARS, FACE_DOWN, MARTINEZ, ARNOLD, YAMASAKI, LOSS_RECOVERY, REFIT,
 LANDING, DELAYED, LANDING_LOST, OVER_CAPACITY, INDEPENDENT, SUPPLY_DEPOT, VICTORY_HEX, ZONE_CLEARED,
 ZONE_MARKER_REMOVED, KOMANDORSKI_EFFECT, KOMANDORSKI_DELAY, VICTORY_POINTS, GAME_OVER, AD_HOC, AMBUSH,
 INFILTRATION) = range(len(KINDS))
