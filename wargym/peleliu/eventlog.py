"""The D-Day at Peleliu event log (wargym.events): what the rules and the card system do in a step, in
order, each with the case of the book that does it.

The kernels emit the codes below (``emit(S, g, ev.FIRE, f, limit, column)``); ``PeleliuCore`` reads
them (``event_value``, ``events_for``).  Arguments of Peleliu's own types: ``place`` a hex with its
position's id ("0716 (B13)"), ``group`` a position or position group and its colour, ``box`` a
beach landing box, ``colour`` a position colour, ``action`` an entry of the Japanese Action Chart,
``attack`` / ``barrage`` the results of the US Attack Chart / Barrage Table, ``cc_event`` a close
combat event, ``outcome`` the game's result; ``item:J`` a Japanese unit (or, in Bloody Nose Ridge, a
fortification marker), ``item:D`` a depth or counterattack marker.

What the U.S. player may not read (fog.py, wargym.events): a Japanese unit face down after the step
(9.1: only its type shows on its back) reads "an unseen counter", and so does a depth marker face
down under a unit or in a pool (2.24, 9.21); a card still in the deck or in a close combat pile after
the step (4.0, 8.6: drawn blindly) reads "a card".  A card is named, with the section its draw reads
(2.3: "a single card draw is for only one of these purposes"), once it lies face up on the card
track or the discard pile; what a card decided (a barrage's result, a close combat card's hit and
event) is read with it (``CARD_BOUND``), since a card shuffled back into the deck in the same step
(4.0 VII) is one the player may no longer tell from another; a close combat whose cards went so is
told by its start, its end and where its survivors went (``told``), and the number of discards
shuffled in is not read either (what the U.S. reads is worked out from what it may see after the
step: the contract's ``events_stay_hidden``).  An attack on a unit that may end the
step face down keeps the Japanese strength from the U.S. (``attack, unit may turn face down``: its
``jp_strength`` is secret): a result that turns the unit face down again (9.1, the US Attack Chart's
"unreveal"), or an elite unit, which a defeat sends face down to the reserve box (8.33); the unit
itself is named where it stays face up, and its counter shows its strength.
"""

from __future__ import annotations

from wargym.events import EventKind, read
from wargym.jit import njit
from wargym.peleliu.scenario import (
    ATTACK_CODES, BARRAGE_CODES, BOXES, CC_EVENTS, COLOURS, EVENTS, JP_ACTIONS, LETTERS, SYMBOLS, WEAPONS,
)

KINDS = (
    # the sequence of play (4.0)
    EventKind("turn", "4.0", (("turn", "int"),), "turn {turn} begins"),
    EventKind("phase", "4.0", (("phase", "purpose"),), "{phase}"),
    EventKind("reshuffle", "4.0", (("cards", "int"),),
              "the discard pile holds more cards than the deck: its {cards} cards are shuffled back into the deck",
              secret={"cards": ("us",)}),
    # amphibious operations (5.0)
    EventKind("landing card", "5.1", (("box", "box"), ("card", "card")), "landing check for box {box}: {card}"),
    EventKind("landing hit", "5.1", (("unit", "unit"), ("box", "box")),
              "{unit} in box {box} shows the landing card's symbol under a live position of its "
              "colour: it loses a step"),
    EventKind("drift", "5.1", (("unit", "unit"), ("from", "box"), ("to", "box")),
              "{unit} drifts from box {from} to box {to}"),
    EventKind("lands", "5.2", (("unit", "unit"), ("hex", "place")), "{unit} lands at {hex}"),
    EventKind("waits", "5.2", (("unit", "unit"), ("box", "box")), "{unit} stays in box {box} to land next turn"),
    EventKind("into box", "5.3", (("unit", "unit"), ("box", "box")), "{unit} is placed in landing box {box}"),
    # the event cards (2.3)
    EventKind("event card", "2.3", (("card", "card"), ("turn", "int")), "event card: {card}"),
    EventKind("marker", "8.5", (("marker", "purpose"), ("held", "int")),
              "the U.S. gains a {marker} marker ({held} held)"),
    EventKind("hero", "10.11", (("unit", "unit"),), "a hero marker is placed on {unit}"),
    EventKind("step gained", "2.3", (("unit", "unit"), ("steps", "int")), "{unit} gains a step ({steps} steps)"),
    EventKind("smoke", "2.3", (("colour", "colour"),),
              "smoke: the {colour} fire dots in landing beach hexes are disregarded this turn"),
    EventKind("CP under fire", "2.3", (("unit", "unit"),),
              "US CP under fire: the command range of {unit} is one this turn"),
    EventKind("fortification", "2.3", (("hex", "place"),),
              "a fortification marker is placed at {hex}: an attack on it requires artillery (AR)"),
    EventKind("suicide attack", "2.3", (("jp", "item:J"), ("from", "place"), ("unit", "unit"), ("hex", "place")),
              "suicide attack: {jp} at {from} gives up its depth marker to attack {unit} at {hex}"),
    EventKind("naval fire hits position", "2.3", (("hex", "place"),),
              "unexpected US naval fire hits the position at {hex}"),
    EventKind("card drawn", "2.3", (("card", "card"), ("for", "purpose")), "{card} is drawn {for}"),
    # Japanese fire (6.0) and actions (12.0, 13.0)
    EventKind("fire card", "6.1", (("card", "card"),), "fire card: {card}"),
    EventKind("acts", "12.0", (("group", "group"), ("action", "action")), "{group} acts: {action}"),
    EventKind("fire", "6.3", (("group", "group"), ("limit", "int"), ("column", "result")),
              "{group} fires on the column of {column}, hit limit {limit} (6.31)"),
    EventKind("hit", "6.3", (("unit", "unit"), ("group", "group"), ("dot", "purpose"), ("effect", "result")),
              "{unit} is hit by {group}, {dot}: {effect}"),
    EventKind("leader hit", "10.4", (("unit", "unit"), ("group", "group")),
              "{unit}, a leader, is hit by {group} (a starred colour)"),
    EventKind("hero killed", "10.4", (("unit", "unit"), ("group", "group")),
              "the hero with {unit} is hit by {group} and killed: his marker turns to its inspired side (10.16)"),
    EventKind("hero sacrificed", "10.15", (("unit", "unit"),),
              "the hero with {unit} is sacrificed to save its last step: his marker turns to its "
              "inspired side (10.16)"),
    EventKind("HQ off the map", "10.4", (("unit", "unit"), ("turn", "int")),
              "{unit} leaves the map for turn {turn} of the turn track"),
    EventKind("tie", "6.31", (("hits", "int"), ("units", "int")),
              "{hits} hit(s) wait for your choice among {units} tied U.S. units"),
    EventKind("tied hit", "6.31", (("unit", "unit"),), "{unit} takes one of the tied hits"),
    EventKind("garrison removed", "14.41", (("hex", "place"),), "the garrison at {hex} is removed"),
    EventKind("artillery value", "6.5", (("positions", "int"), ("needed", "int")),
              "Japanese artillery: {positions} occupied artillery position(s), {needed} needed"),
    EventKind("artillery hit", "6.5", (("unit", "unit"), ("for", "purpose")),
              "{unit} is hit by Japanese artillery: {for}"),
    EventKind("mortar hit", "12.1", (("unit", "unit"), ("group", "group")), "{unit} is hit by the mortars of {group}"),
    EventKind("ambush", "12.9", (("unit", "unit"), ("group", "group"), ("effect", "result")),
              "{group} ambushes {unit}: {effect}"),
    EventKind("redeploy", "12.4", (("jp", "item:J"), ("from", "place"), ("to", "place")),
              "{jp} redeploys from {from} to {to}"),
    EventKind("assault", "12.8", (("jp", "item:J"), ("from", "place"), ("to", "place"), ("how", "purpose")),
              "{jp} assaults from {from} {how} {to}"),
    EventKind("tank advance", "13.2", (("jp", "item:J"), ("from", "place"), ("to", "place")),
              "{jp} advances from {from} to {to}"),
    EventKind("tank swap", "13.2", (("jp", "item:J"), ("to", "place")), "{jp} swaps places with the tank: to {to}"),
    EventKind("overrun", "13.2", (("jp", "item:J"), ("from", "place"), ("to", "place")),
              "{jp} overruns from {from} into {to}"),
    EventKind("counterattack stance", "13.41", (("jp", "item:J"), ("hex", "place"), ("marker", "item:D")),
              "{jp} at {hex} enters counterattack stance under {marker}"),
    EventKind("counterattack", "13.42", (("jp", "item:J"), ("from", "place"), ("to", "place")),
              "{jp} counterattacks from {from} to {to}"),
    EventKind("counterattack ends", "13.47", (("jp", "item:J"), ("hex", "place")),
              "{jp} at {hex} fires on a landing beach hex: it leaves counterattack stance"),
    EventKind("enters", "9.0", (("jp", "item:J"), ("hex", "place"), ("how", "purpose")),
              "{jp} enters from the reserve box at {hex}, {how}"),
    EventKind("depth placed", "9.21", (("marker", "item:D"), ("jp", "item:J"), ("hex", "place"), ("how", "result")),
              "{marker} is placed {how} under {jp} at {hex}"),
    EventKind("depth revealed", "9.1", (("marker", "item:D"), ("jp", "item:J"), ("hex", "place")),
              "{marker} under {jp} at {hex} is revealed"),
    EventKind("depth eliminated", "9.23", (("marker", "item:D"), ("jp", "item:J"), ("hex", "place")),
              "{marker} under {jp} at {hex} is eliminated"),
    EventKind("depth to the pool", "13.41", (("marker", "item:D"), ("jp", "item:J"), ("hex", "place")),
              "{marker} under {jp} at {hex} goes back to the depth pool face down"),
    EventKind("counterattack marker flipped", "13.46", (("marker", "item:D"), ("jp", "item:J"), ("side", "result")),
              "{marker} on {jp} flips {side}"),
    EventKind("revealed", "9.1", (("jp", "item:J"), ("hex", "place")), "{jp} at {hex} is revealed"),
    EventKind("face down", "9.1", (("jp", "item:J"), ("hex", "place")), "{jp} at {hex} turns face down again"),
    EventKind("Japanese disrupted", "6.4", (("jp", "item:J"), ("hex", "place")), "{jp} at {hex} is disrupted"),
    EventKind("Japanese disruption removed", "6.42", (("jp", "item:J"), ("hex", "place")),
              "{jp} at {hex} loses its disruption"),
    EventKind("Japanese defeated", "8.33", (("jp", "item:J"), ("hex", "place"), ("to", "result")),
              "{jp} at {hex} is defeated: {to}"),
    # U.S. units: losses, disruption (6.32, 7.6)
    EventKind("step lost", "6.32", (("unit", "unit"), ("steps", "int")), "{unit} loses a step ({steps} left)"),
    EventKind("eliminated", "6.32", (("unit", "unit"), ("hex", "place")), "{unit} is eliminated at {hex}"),
    EventKind("disrupted", "7.6", (("unit", "unit"),), "{unit} is disrupted"),
    EventKind("disruption removed", "7.6", (("unit", "unit"),), "{unit} loses its disruption"),
    # U.S. actions (7.0, 8.0)
    EventKind("move", "7.3", (("unit", "unit"), ("from", "place"), ("to", "place")),
              "{unit} moves from {from} to {to}"),
    EventKind("infiltration", "7.33", (("unit", "unit"), ("from", "place"), ("to", "place"), ("group", "group")),
              "{unit} attempts to infiltrate from {from} to {to} past {group}"),
    EventKind("stays", "7.33", (("unit", "unit"), ("hex", "place")), "{unit} stays at {hex}"),
    EventKind("enters the hex", "7.4", (("unit", "unit"), ("from", "place"), ("to", "place")),
              "{unit} enters the Japanese-occupied hex {to} from {from}"),
    EventKind("attack", "8.3", (("hex", "place"), ("jp", "item:J"), ("us", "int"), ("jp_strength", "int"),
                                ("weapons", "result"), ("result", "attack")),
              "attack on {jp} at {hex}: U.S. strength {us} against {jp_strength}, {weapons}: {result}"),
    EventKind("attack, unit may turn face down", "8.3", (("hex", "place"), ("jp", "item:J"), ("us", "int"),
                                                  ("jp_strength", "int"), ("weapons", "result"), ("result", "attack")),
              "attack on {jp} at {hex}: U.S. strength {us} against {jp_strength}, {weapons}: {result}",
              secret={"jp_strength": ("us",)}),
    EventKind("attrition", "8.3", (("hex", "place"),),
              "optional attrition at {hex}: the depth marker and a step of an adjacent attacker"),
    EventKind("barrage", "8.4", (("unit", "unit"), ("hex", "place"), ("strength", "int"), ("card", "card"),
                                 ("result", "barrage")),
              "{unit} barrages {hex} with strength {strength}: {card}: {result}"),
    EventKind("marker barrage", "8.52", (("marker", "purpose"), ("hex", "place"), ("strength", "int"), ("card", "card"),
                                         ("result", "barrage")),
              "a {marker} marker barrages {hex} with strength {strength}: {card}: {result}"),
    EventKind("artillery destroyed", "6.51", (("hex", "place"),), "the artillery at {hex} is destroyed"),
    # close combat (8.6, 8.7)
    EventKind("close combat", "8.6", (("hex", "place"), ("jp", "item:J"), ("colour", "colour"), ("us_cards", "int"),
                                      ("jp_cards", "int"), ("how", "purpose")),
              "close combat at {hex} against {jp}, {how}, in {colour}: {us_cards} U.S. and "
              "{jp_cards} Japanese card(s)"),
    EventKind("close combat card", "8.6", (("side", "purpose"), ("card", "card"), ("outcome", "result"),
                                           ("event", "cc_event")),
              "{side} card: {card}: {outcome}, close combat event {event}"),
    EventKind("close combat card added", "8.7", (("side", "purpose"),), "a card is added to the {side} pile"),
    EventKind("close combat card discarded", "8.6", (("side", "purpose"), ("card", "card")),
              "the top card of the {side} pile, {card}, is discarded"),
    EventKind("close combat round spent", "8.65", (("hex", "place"),),
              "the disrupted U.S. units at {hex} spend the round removing their disruption"),
    EventKind("withdrawal under fire", "8.63", (("hex", "place"),),
              "the U.S. units withdraw from {hex} under fire: one more Japanese card"),
    EventKind("close combat ends", "8.6", (("hex", "place"), ("how", "result")),
              "the close combat at {hex} ends: {how}"),
    EventKind("U.S. units leave", "8.62", (("unit", "unit"), ("from", "place"), ("to", "place")),
              "{unit} leaves the close combat at {from} for {to}"),
    EventKind("Japanese attacker returns", "8.62", (("jp", "item:J"), ("from", "place"), ("to", "place")),
              "{jp} goes back from {from} to {to}, disrupted"),
    EventKind("cards back", "8.6", (("cards", "int"),), "{cards} undrawn card(s) go back on top of the deck"),
    # stacking, the HQ phase (7.53, 14.0)
    EventKind("overstacked", "7.53", (("unit", "unit"), ("hex", "place")),
              "{hex} holds more than two units at the end of the Action Phase: {unit} is eliminated"),
    EventKind("garrison", "14.4", (("hex", "place"),), "a garrison marker is placed at {hex}"),
    EventKind("command post", "14.1", (("unit", "unit"), ("how", "result")), "{unit} {how}"),
    EventKind("command range", "14.2", (("unit", "unit"), ("range", "int")),
              "the command range of {unit} is now {range}"),
    # the overnight turn, the end (15.0-17.0)
    EventKind("reorganization", "16.0", (("back", "int"),),
              "reorganization: {back} eliminated elite unit(s) go back to the reserve box; every Japanese unit and "
              "depth marker on the map turns face down"),
    EventKind("catastrophic loss", "15.1", (("box", "int"), ("level", "int")),
              "the Infantry Loss Box holds {box} counters, the level of catastrophic loss is {level}"),
    EventKind("positions secured", "15.2", (("total", "int"), ("beach", "int"), ("zone_b", "int"), ("a5_a6", "int")),
              "{total} positions secured: {beach} firing on landing beach hexes, {zone_b} in zone B, "
              "{a5_a6} of A5 and A6"),
    EventKind("game over", "15.0", (("result", "outcome"),), "the game is over: {result}"),
    # Bloody Nose Ridge (18.0, 19.0)
    EventKind("fortification revealed", "19.1", (("fort", "item:J"), ("hex", "place")),
              "{fort} at {hex} is revealed, its arrow pointing west"),
    EventKind("fortification reduced", "19.4", (("old", "item:J"), ("new", "item:J"), ("hex", "place")),
              "{old} at {hex} is reduced: {new} replaces it"),
    EventKind("fortification removed", "19.2", (("fort", "item:J"), ("hex", "place")),
              "{fort} at {hex} is removed: the hex is held solely by U.S. units"),
    EventKind("night", "18.21", (), "night: every Action Under Fire and disruption marker comes off"),
    EventKind("withdrawn", "18.37", (("unit", "unit"), ("turn", "int")), "{unit} withdraws to night space {turn}"),
    EventKind("back to the reserve", "18.21", (("jp", "item:J"), ("hex", "place")),
              "{jp} at {hex} goes back to the reserve box face down"),
    EventKind("attack orders", "2.3", (("hex", "place"),), "an Attack Orders marker is placed at {hex}"),
    EventKind("command change", "18.32", (), "General Rupertus is no longer in command"),
    EventKind("flamethrower", "2.3", (("how", "result"),), "the flamethrower and ropes marker {how}"),
    EventKind("cave", "2.3", (("hex", "place"),), "a cave marker is placed at {hex}"),
    EventKind("Japanese left", "18.42", (("box", "int"), ("map", "int")),
              "{box} Japanese unit(s) in the reserve box, {map} on the map"),
    # written for the U.S. in place of a close combat's course (``told``), never emitted
    EventKind("close combat course", "8.6", (("hex", "place"),),
              "the close combat at {hex} runs its course with cards since shuffled into the deck"),
)
(TURN, PHASE, RESHUFFLE, LANDING_CARD, LANDING_HIT, DRIFT, LANDS, WAITS, INTO_BOX, EVENT_CARD, MARKER, HERO,
 STEP_GAINED, SMOKE, CP_FIRE, FORTIFY, SUICIDE, NAVAL_HITS, CARD_DRAWN, FIRE_CARD, ACTS, FIRE, HIT, LEADER_HIT,
 HERO_KILLED, HERO_SACRIFICED, HQ_AWAY, TIE, TIED_HIT, GARRISON_GONE, ARTILLERY, ARTILLERY_HIT, MORTAR_HIT, AMBUSH,
 REDEPLOY, ASSAULT, TANK_ADVANCE, TANK_SWAP, OVERRUN, CA_ENTERS, CA_MOVES, CA_LEAVES, JP_ENTERS, DEPTH_PLACED,
 DEPTH_REVEALED, DEPTH_ELIM, DEPTH_BACK, CA_FLIP, REVEALED, FACE_DOWN, JP_DISRUPTED, JP_RALLIED, JP_DEFEATED,
 STEP_LOST, US_ELIM, DISRUPTED, RALLIED, MOVE, INFILTRATES, STAYS, ENTERS, ATTACK, ATTACK_HIDDEN, ATTRITION, BARRAGE,
 MARKER_BARRAGE, ART_DESTROYED, CC_BEGINS, CC_CARD, CC_ADD, CC_DISCARD, CC_ROUND, CC_WITHDRAW, CC_ENDS, CC_US_BACK,
 CC_JP_BACK, CC_PILES_BACK, OVERSTACKED, GARRISON, COMMAND_POST, COMMAND_RANGE, REORGANIZATION, CATASTROPHIC,
 SECURED, GAME_OVER, FORT_REVEALED, FORT_REDUCED, FORT_REMOVED, NIGHT, WITHDRAWN, BACK_TO_RESERVE, ATTACK_ORDERS,
 COMMAND_CHANGE, FLAMETHROWER, CAVE, JAPANESE_LEFT, CC_COURSE) = range(len(KINDS))

# "purpose" arguments: a phase, why a card was drawn, a marker, a fire dot, a side, how a close
# combat began, how a reserve unit entered, how an assault goes, which artillery
PURPOSES = (
    "I. U.S. Amphibious Operations Phase", "II. First Event Phase", "III. Japanese Fire Phase",
    "IV. Second Event Phase", "V. HQ Phase", "VI. U.S. Action Phase", "VI.2 close combat", "VII. End of Turn",
    "for a barrage (8.4)", "for an infiltration move (7.33)", "for a naval artillery blast (8.7)",
    "for the withdrawal under fire (8.63)", "for the suicide attack", "for the unexpected US naval fire: the position",
    "for the unexpected US naval fire: the U.S. step", "for the night's reorganization (18.21)",
    "naval fire", "Dauntless airstrike",
    "intense fire", "steady fire", "next to intense fire: machine guns",
    "Japanese", "U.S.",
    "U.S. units entered it (7.4)", "a Japanese assault (12.8)", "a counterattack (13.42)", "a tank's overrun (13.2)",
    "by the reinforcement event (9.3)", "a tactical reinforcement (9.4)", "by the Muster action (12.2)",
    "by the Reinforce action (12.5)", "by the Infiltrate action (12.10)", "by the Japanese infiltration event",
    "into a cave (Hidden Caves)", "to man the fortified position (19.5)", "to man the fortification's assault (18.35)",
    "into the U.S. units at", "toward the U.S. units, to",
    "the fire card's artillery value", "an Artillery Fire action [A] (12.7)", "mountaintop artillery [A] (18.35)",
)
(PH_AOP, PH_EVENT1, PH_FIRE, PH_EVENT2, PH_HQ, PH_ACTIONS, PH_CC, PH_END,
 FOR_BARRAGE, FOR_INFILTRATION, FOR_NAVAL_BLAST, FOR_WITHDRAWAL, FOR_SUICIDE, FOR_NAVAL_POSITION, FOR_NAVAL_STEP,
 FOR_REORGANIZATION,
 NAVAL, DAUNTLESS,
 DOT_INTENSE, DOT_STEADY, DOT_MG,
 JAPANESE, AMERICAN,
 CC_BY_US, CC_BY_ASSAULT, CC_BY_CA, CC_BY_OVERRUN,
 BY_EVENT, BY_TACTICAL, BY_MUSTER, BY_REINFORCE, BY_INFILTRATE, BY_INFILTRATION_EVENT, BY_CAVE, BY_FORT_ATTACKED,
 BY_FORT_ASSAULT,
 INTO_US, TOWARD_US,
 ART_VALUE, ART_ACTION, ART_MOUNTAINTOP) = range(len(PURPOSES))

RESULTS = (
    "a position with all units revealed", "a position with an unrevealed unit",
    "disrupted", "a step lost", "a step lost and disrupted",
    "with the required weapons", "lacking a required weapon",
    "to the eliminated elite units box", "it withdraws face down to the reserve box (8.33)", "out of play",
    "removed from play (13.3)",
    "no effect", "a hit", "no hit (US fire on counterattack)", "a hit (US fire on counterattack)",
    "the hit and the Reinforce event offset each other",
    "the Japanese are eliminated (8.61)", "the U.S. units are eliminated (8.61)", "both sides are eliminated (8.61)",
    "both sides' cards are exhausted (8.62)", "the U.S. units withdraw (8.63)",
    "face down", "revealed",
    "to its depth side", "to its non-depth side",
    "becomes a command post", "is a regimental HQ again",
    "is gained", "is spent",
)
(COL_REVEALED, COL_UNREVEALED, EFF_DISRUPT, EFF_STEP, EFF_BOTH, WEAPONS_MET, WEAPONS_LACKING,
 TO_ELITE_BOX, TO_RESERVE, TO_OUT, TANK_OUT,
 NO_EFFECT, A_HIT, NO_HIT_CA, HIT_CA, OFFSET,
 END_JP_GONE, END_US_GONE, END_BOTH_GONE, END_EXHAUSTED, END_WITHDRAWN,
 FACE_DOWN_PLACED, REVEALED_PLACED,
 TO_DEPTH_SIDE, TO_PLAIN_SIDE,
 CP_ESTABLISHED, CP_REVERTS,
 GAINED, SPENT) = range(len(RESULTS))

# the card draws whose words name a section of the card (2.3) and the arguments a card decides:
# both read only where the viewer may identify the card (module docstring)
SECTIONS = {"landing card": "landing", "event card": "event", "fire card": "fire", "card drawn": "draw",
            "barrage": "draw", "marker barrage": "draw", "close combat card": "close combat"}
CARD_BOUND = {"barrage": ("result",), "marker barrage": ("result",), "close combat card": ("outcome", "event")}
UNSEEN = {"barrage": "{unit} barrages {hex} with strength {strength}: a card since shuffled into the deck",
          "marker barrage": "a {marker} marker barrages {hex} with strength {strength}: a card since shuffled into "
                            "the deck",
          "close combat card": "{side} card: a card since shuffled into the deck"}

ACTION_WORDS = {
    "no_action": "no action", "fire": "fire (6.3)", "mg_fire": "fire with machine guns [M] (6.31)",
    "resupply": "Re-Supply [R] (12.3)", "redeploy": "Redeploy [R] (12.4)", "patrol": "Patrol [P] (12.6)",
    "assault": "Assault [A] (12.8)", "mortar": "Mortar [M] (12.1)", "artillery_fire": "Artillery Fire [A] (12.7)",
    "muster": "Muster [M] (12.2)", "reinforce": "Reinforce [R] (12.5)", "ambush": "Ambush [A] (12.9)",
    "infiltrate": "Infiltrate [I] (12.10)", "fire_or_advance": "tank: Fire or Advance (13.2)",
    "multiple_fire": "tank: Multiple Fire [M] (13.2)", "overrun": "tank: Overrun [R] (13.2)",
    "advance_fire": "tank: Advance and Fire [P] (13.2)", "double_advance": "tank: Double Advance or Fire [A] (13.2)",
    "bnr_resupply": "Re-Supply [R] (18.35)", "bnr_assault": "Assault [A] (18.35)",
    "bnr_artillery": "mountaintop artillery [A] (18.35)",
}
ATTACK_WORDS = {"reveal_depth": "reveal the depth marker", "jp_disrupt": "the Japanese disrupted",
                "depth_elim": "the depth marker eliminated", "defeat": "the Japanese defeated",
                "add_depth": "a depth marker added", "unreveal": "the Japanese unit turns face down",
                "us_disrupt": "the attackers disrupted", "us_step": "an adjacent attacker loses a step",
                "attrition": "optional attrition"}
BARRAGE_WORDS = {"jp_disrupt": "the Japanese disrupted", "depth_elim": "the depth marker eliminated",
                 "defeat": "the Japanese defeated", "artillery_destroyed": "artillery destroyed",
                 "fortification": "fortification reduction"}
CC_WORDS = ("none", "Conscripts surrender", "Heroism", "Naval artillery blast", "Reinforce", "US Fire on Counterattack",
            "US Withdrawal Hit")
EVENT_WORDS = {
    "none": "no event", "depth": "add depth ({n} marker(s), 9.2)", "reinforce": "reinforcement ({n} unit(s), 9.3)",
    "naval_marker": "naval fire marker (8.5)", "dauntless_marker": "Dauntless airstrike marker (8.5)",
    "jp_rally": "Japanese rally: {colours}", "tank_action": "tank action (13.2)",
    "counterattack": "counterattack (13.4)", "hero": "hero (10.1){depth}", "black_angels": "Black Angels volunteer",
    "jp_infiltration": "check for Japanese infiltration",
    "heat_exhaustion": "heat exhaustion", "lost": "Lost!", "minefield": "minefield", "war_dogs": "Marine war dogs",
    "observation_plane": "observation plane", "patrol_report": "US Patrol Report",
    "fortify_coral": "place fortification in Japanese-occupied coral position",
    "scattered_platoon": "scattered platoon regroups",
    "suicide_attack": "suicide attack", "cp_under_fire": "US CP under fire", "smoke": "smoke: {colours}",
    "naval_hits_position": "unexpected US naval fire hits position ({positions})", "hidden_caves": "Hidden Caves",
    "rupertus_attack": "Rupertus: attack orders", "flamethrower_ropes": "flamethrower and ropes",
    "command_change": "command change",
}


# ---------------------------------------------------------------------------------------- words
def weapons_words(bits: int) -> str:
    return " ".join(w for i, w in enumerate(WEAPONS) if bits >> i & 1)


def jp_words(sc, j: int) -> str:
    """A Japanese unit as its revealed side reads: "J22 (elite 3 FL BR)", "T1 (tank 4 AR)"."""
    if j < 0:
        return "no unit"
    if sc.jp_fort[j]:
        req = weapons_words(int(sc.jp_requires[j]))
        return sc.jp_names[j] + (f" ({req})" if req else "")
    kind = "tank " if sc.jp_tank[j] else ("elite " if sc.jp_elite[j] else "")
    req = weapons_words(int(sc.jp_requires[j]))
    return f"{sc.jp_names[j]} ({kind}{int(sc.jp_strength[j])}{' ' + req if req else ''})"


def marker_words(sc, d: int) -> str:
    """A depth marker as its revealed side reads (2.24): "depth marker #12 (2 FT)", "tactical
    reinforcement #0 (9.4)", "counterattack marker #58 (purple 2 CC)"."""
    if d < 0:
        return "no marker"
    kind = int(sc.dm_kind[d])
    req = weapons_words(int(sc.dm_requires[d]))
    values = f"{int(sc.dm_strength[d])}{' ' + req if req else ''}"
    if kind == 2:
        return f"counterattack marker #{d} ({COLOURS[int(sc.dm_colour[d])]} {values})"
    if sc.dm_tr[d]:
        return f"tactical reinforcement marker #{d} (9.4)"
    return f"{'armor depth' if kind == 1 else 'depth'} marker #{d} ({values})"


def group_words(sc, f: int) -> str:
    ids = [sc.pos_id[int(p)] or f"provisional {sc.grid.label(int(sc.pos_hex[p]))}" for p in sc.grp_members[f] if p >= 0]
    return f"{'/'.join(ids)} ({COLOURS[int(sc.grp_colour[f])]})"


def place_words(sc, h: int) -> str:
    """A hex with its position's id; -1 none, -2 - b the landing box b (a unit eliminated there)."""
    if h <= -2:
        return f"box {BOXES[-2 - h]}"
    return "off the map" if h < 0 else sc.hex_label(h)


def result_bits(words: dict, codes: tuple, bits: int) -> str:
    named = [words[c] for i, c in enumerate(codes) if c in words and bits >> i & 1]
    return ", ".join(named) if named else "no effect"


def value_words(sc, typ: str, value: int) -> str:
    """An argument of one of Peleliu's own types in words (module docstring)."""
    from wargym.peleliu.state import RESULTS as OUTCOMES

    if typ == "item:J":
        return jp_words(sc, value)
    if typ == "item:D":
        return marker_words(sc, value)
    if typ == "place":
        return place_words(sc, value)
    if typ == "group":
        return group_words(sc, value)
    if typ == "box":
        return BOXES[value]
    if typ == "colour":
        return COLOURS[value]
    if typ == "action":
        return ACTION_WORDS[JP_ACTIONS[value]]
    if typ == "attack":
        return result_bits(ATTACK_WORDS, ATTACK_CODES, value)
    if typ == "barrage":
        return result_bits(BARRAGE_WORDS, BARRAGE_CODES, value)
    if typ == "cc_event":
        return CC_WORDS[value] if value > 0 else "none"
    if typ == "outcome":
        return OUTCOMES[value]
    raise ValueError(f"peleliu events: no argument type {typ!r}")


# ------------------------------------------------------------------------------------- the cards
def fire_words(sc, c: int, full: bool) -> str:
    """The fire/action section (6.1): three colours (``full``: their letters, star, armor bonus),
    the target symbol (``full``: the artillery value); not ``full``, what a barrage, an infiltration
    or an event reads of it (8.4, 7.33)."""
    cols = []
    for i in range(3):
        t = COLOURS[int(sc.card_colour[c, i])]
        letter = LETTERS[int(sc.card_letter[c, i])]
        if full and letter:
            t += f" [{letter}]"
        if full and sc.card_star[c, i]:
            t += " star"
        if full and sc.card_armor[c, i]:
            t += " armor bonus"
        cols.append(t)
    text = f"{', '.join(cols)}; target {SYMBOLS[int(sc.card_symbol[c])]}"
    if full:
        text += f"; artillery {int(sc.card_artillery[c])}" if sc.card_artillery[c] else "; no artillery"
    return text


def event_words(sc, c: int, turn: int) -> str:
    """The event the card lists for ``turn`` (0: its BNR event) with its parameters."""
    name = EVENTS[int(sc.card_event[c, turn])]
    params = [int(v) for v in sc.card_param[c, turn] if v >= 0]
    words = {"n": max(1, params[0]) if params else 1,
             "depth": " with a depth marker" if name == "hero" and params and params[0] == 1 else ""}
    if name in ("jp_rally", "smoke"):
        words["colours"] = " and ".join(COLOURS[v] for v in params)
    if name == "naval_hits_position":
        words["positions"] = ", ".join(sc.pos_id[v] or "?" for v in params)
    text = EVENT_WORDS[name].format(**words)
    return f"{'BNR' if turn == 0 else f'turn {turn}'}: {text}"


def card_words(sc, c: int, section: str, turn: int = 0) -> str:
    """The section of card c a draw for ``section`` reads (2.3)."""
    if section == "landing":
        drift = int(sc.card_drift[c])
        return (f"landing {COLOURS[int(sc.card_land_colour[c])]} {SYMBOLS[int(sc.card_land_symbol[c])]}, "
                f"{'no drift' if drift == 0 else ('drift left' if drift < 0 else 'drift right')}")
    if section == "event":
        return event_words(sc, c, turn)
    if section == "fire":
        return fire_words(sc, c, True)
    cc = int(sc.card_cc[c])
    text = ", ".join(COLOURS[int(sc.card_colour[c, i])] for i in range(3))
    if section == "close combat":
        return text + (f"; close combat event {CC_WORDS[cc]}" if cc else "; no close combat event")
    return fire_words(sc, c, False)


def told(core, events: list[dict], viewer) -> list[dict]:
    """The events as ``viewer`` reads them (wargym.events.for_viewer, then ``written``); for a
    player, a close combat whose cards were shuffled back into the deck in the same step (4.0 VII:
    a card read "a card") is told by its start, its end and where its survivors went: its course
    card by card, the cards left over and which disruptions its end adds (those the course did not
    already place) are what those cards decided, which the player may no longer tell from the
    position (module docstring)."""
    out = [written(core, e) for e in events]
    if viewer is None:
        return out
    told_, start = [], 0                   # start: where the close combat under way began in told_
    quiet = False                          # in the end of a close combat told so (END_KINDS)
    for e in out:
        kind = e["kind"]
        if quiet and kind in END_KINDS:
            if kind not in QUIET_END:
                told_.append(e)
            continue
        quiet = False
        if kind == "close combat":
            start = len(told_)
        if kind == "close combat ends":
            course = told_[start:]
            if any(c.get("args", {}).get("card", 0) is None and c["kind"] in COURSE for c in course):
                opened = course[:1] if course and course[0]["kind"] == "close combat" else []
                hex_ = e["args"]["hex"]
                summary = KINDS[CC_COURSE]
                told_[start:] = opened + [{"kind": summary.name, "rule": summary.rule, "args": {"hex": hex_},
                                           "text": f"{summary.text.format(hex=read(core, 'place', hex_))} "
                                                   f"({summary.rule})"}]
                quiet = True
            told_.append(e)
            start = len(told_)
            continue
        told_.append(e)
    return told_


# the kinds that tell a close combat's cards; those its end reports (closecombat.end_cc), and of them
# the ones its course decides (``told``)
COURSE = ("close combat card", "close combat card discarded", "card drawn")
END_KINDS = ("cards back", "U.S. units leave", "disrupted", "Japanese disrupted", "Japanese attacker returns",
             "garrison removed", "counterattack ends", "depth placed", "enters", "fortification removed")
QUIET_END = ("cards back", "disrupted", "Japanese disrupted")


def written(core, event: dict) -> dict:
    """An event as ``wargym.events.for_viewer`` wrote it, with its card read (module docstring):
    the section the draw reads where the viewer may identify the card, else the arguments the card
    decided left out as well."""
    name = event["kind"]
    section = SECTIONS.get(name)
    if section is None:
        return event
    kind = KINDS[NAMES[name]]
    args = dict(event["args"])
    card = args["card"]
    if card is None:
        for arg in CARD_BOUND.get(name, ()):
            args[arg] = None
    words = {a: read(core, t, args[a]) for a, t in kind.args}
    if card is not None:
        if section == "draw":
            section = "close combat" if args.get("for") == FOR_WITHDRAWAL else "draw"
        words["card"] = f"{core.event_card(card)} ({card_words(core.scenario, card, section, args.get('turn', 0))})"
    text = kind.text if card is not None or name not in UNSEEN else UNSEEN[name]
    return {**event, "args": args, "text": f"{text.format(**words)} ({kind.rule})"}


@njit(cache=True)
def effect_of(e):
    """The fire chart's bits (1 disrupt, 2 step) as a result (RESULTS); a kernel helper, which also
    puts this file among those whose edits recompile the kernels (wargym/_numba_cache.py): they
    hold its codes as constants."""
    if (e & 3) == 3:
        return EFF_BOTH
    if e & 2:
        return EFF_STEP
    if e & 1:
        return EFF_DISRUPT
    return NO_EFFECT


NAMES = {k.name: i for i, k in enumerate(KINDS)}
assert len(NAMES) == len(KINDS), "event kinds must have distinct names"
