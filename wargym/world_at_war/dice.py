"""Battle dice: how many dice a unit casts, what a throw scores, saving and defence throws,
flags, hitting commanders, buildings collapsing, artillery scatter, and the air support & AA die.

Sections of the book: "4. Battle" (commanders in battle, direct and indirect artillery fire,
firing at buildings), "5. Resolve battle" (the four dice, saving throw, defence, hitting a
commander, retreat), the terrain effects sheet, appendix 2 (the air support & AA die).

Every function here is a rule on numbers already thrown: a throw is given as the symbols that came
up (``DiceTables.faces[die, face]``), so a test states the book's dice and the kernel rolls them
(``wargym.rng.roll``).  All are numba functions for the kernels; none allocates more than a
handful of scalars.

Interpretations (wargym/world_at_war/README.md lists them all):

* Dice less for terrain come off the white dice first, then yellow, then red, and the green
  (suppression) dice last: cover takes away killing power before suppression.
* A commander's extra die is one more of the colour the unit casts most of at that range (ties:
  the lighter colour).
* "More than 1 hit with an identical symbol ... the first hit is an automatic kill": once per
  throw, whichever symbol it is; every other hit is then saved or not by one saving die each.
* Saving throws (hits and flags alike): in close combat (the target adjacent) a HIT!, STRIKE or
  BLOW saves; at longer range a flag saves too.  The saving die is ``DiceTables.saving_die``.
* Flags: the flags a terrain lets the defender ignore come off first; if the attacker threw two or
  more flags, the first one left is an automatic retreat; every other one is saved or not.
* Hex sides for scatter: side 4 faces the firing gun and the sides count 1-6 clockwise, so side k
  is direction ``(towards_gun + k - 4) mod 6`` (wargym.hexgrid numbers directions clockwise).
"""

from __future__ import annotations

from wargym.jit import njit
from wargym.world_at_war.scenario import BLOW, FLAG, HIT, STRIKE

N_DICE = 4   # white, yellow, red, green: a count of each is an int64[4]; dice come off for terrain
             # in this order, so the green (suppression) dice last


@njit(cache=True)
def is_special(symbol):
    return symbol == HIT or symbol == STRIKE or symbol == BLOW


@njit(cache=True)
def dice_at(card_dice, card, distance, out):
    """``out[die]`` = the dice of each colour unit card ``card`` casts at ``distance`` hexes
    (``card_dice[card, band, die]``, band 0 = range 1); zeros out of range.  Returns the total."""
    total = 0
    for d in range(N_DICE):
        out[d] = 0
    if distance < 1 or distance > card_dice.shape[1]:
        return 0
    for d in range(N_DICE):
        out[d] = card_dice[card, distance - 1, d]
        total += out[d]
    return total


@njit(cache=True)
def deduct(counts, n):
    """Take ``n`` dice away for terrain (white first, green last); returns the dice left."""
    for d in range(N_DICE):
        take = min(n, counts[d])
        counts[d] -= take
        n -= take
    total = 0
    for d in range(N_DICE):
        total += counts[d]
    return total


@njit(cache=True)
def add_commander_die(counts):
    """Commanders in battle: one die more, of the colour the unit casts most of (ties: lighter)."""
    best = 0
    for d in range(1, N_DICE):
        if counts[d] > counts[best]:
            best = d
    if counts[best] > 0:
        counts[best] += 1


@njit(cache=True)
def score_throw(scores, special_range, symbols, n, target, distance, hits):
    """What a throw of ``n`` dice (``symbols[:n]``) scores against a target of kind ``target`` at
    ``distance`` hexes.  ``hits[symbol]`` counts the scoring dice by symbol: the ordinary symbols
    that hit this kind of target, and each special symbol (HIT!, STRIKE, BLOW) once at most, only
    within its range.  Returns (hits in all, flags thrown)."""
    for s in range(hits.shape[0]):
        hits[s] = 0
    flags = 0
    for i in range(n):
        s = symbols[i]
        if s == FLAG:
            flags += 1
        elif is_special(s):
            if distance <= special_range[s]:
                hits[s] = 1          # "can NEVER score more than one hit" with this symbol
        elif scores[target, s]:
            hits[s] += 1
    total = 0
    for s in range(hits.shape[0]):
        total += hits[s]
    return total, flags


@njit(cache=True)
def automatic_kills(hits):
    """Saving throw: more than 1 hit with an identical ordinary symbol makes the first hit an
    automatic kill (once a throw)."""
    for s in range(hits.shape[0]):
        if not is_special(s) and hits[s] > 1:
            return 1
    return 0


@njit(cache=True)
def saves(symbol, close):
    """Does a saving die showing ``symbol`` save?  Close combat: HIT!, STRIKE or BLOW; at longer
    range a flag as well."""
    return is_special(symbol) or (not close and symbol == FLAG)


@njit(cache=True)
def unsaved(n, save_symbols, close):
    """Of ``n`` hits or flags, each with the next saving die of ``save_symbols``, how many are not
    saved."""
    left = 0
    for i in range(n):
        if not saves(save_symbols[i], close):
            left += 1
    return left


@njit(cache=True)
def kills(hits_total, automatic, save_symbols, close, fastplay):
    """Figures killed by ``hits_total`` hits of which ``automatic`` are automatic kills; each other
    hit takes the next saving die of ``save_symbols`` (fastplay: no saving throws).  Returns
    (kills, saving dice used)."""
    if fastplay:
        return hits_total, 0
    n = hits_total - automatic
    return automatic + unsaved(n, save_symbols, close), n


@njit(cache=True)
def casualty_cap(dead, attacker_figures, armed, defender_figures):
    """A unit never inflicts more casualties than the figures in its ranks (only the armed ones
    when only part of it carries firearms); hits past the defender's figures are wasted."""
    return max(0, min(dead, attacker_figures, armed, defender_figures))


@njit(cache=True)
def ignores_flags(figures, flag, commander_in_hex, artillery):
    """Flags are ignored while the unit has at least the figures on its card's flag; a commander in
    its hex lowers that by one (not for artillery)."""
    need = flag - 1 if commander_in_hex and not artillery else flag
    return figures >= need


@njit(cache=True)
def retreats(flags, terrain_ignores, save_symbols, close, fastplay):
    """Forced retreat: hexes the defender must retreat for ``flags`` flags thrown.  The flags its
    terrain lets it ignore go first; of two or more flags thrown, the first one left is automatic;
    every other one takes the next saving die (fastplay: none).  Returns (hexes, saving dice used)."""
    left = max(0, flags - terrain_ignores)
    if left == 0:
        return 0, 0
    auto = 1 if flags >= 2 else 0
    if fastplay:
        return left, 0
    n = left - auto
    return auto + unsaved(n, save_symbols, close), n


@njit(cache=True)
def defence_kill(scores, special_range, symbol, attacker_target, distance):
    """Defence: the defender's one die kills a figure of the attacker when it shows a symbol that
    hits the attacker's kind (a special symbol within its range)."""
    if is_special(symbol):
        return 1 if distance <= special_range[symbol] else 0
    if symbol == FLAG:
        return 0
    return 1 if scores[attacker_target, symbol] else 0


@njit(cache=True)
def special_hit(special_range, symbols, n, distance):
    """Hitting a commander: the throw ``symbols[:n]`` shows a HIT!, STRIKE or BLOW within its range."""
    for i in range(n):
        s = symbols[i]
        if is_special(s) and distance <= special_range[s]:
            return True
    return False


@njit(cache=True)
def commander_hit(special_range, symbols, n, distance, save_symbol, close, fastplay):
    """Hitting a commander: a HIT!, STRIKE or BLOW (within its range) hits; a saving throw may save
    him (fastplay: none).  Returns 1 when he is eliminated."""
    if not special_hit(special_range, symbols, n, distance):
        return 0
    if fastplay:
        return 1
    return 0 if saves(save_symbol, close) else 1


@njit(cache=True)
def collapses(two_d6, collapse_totals):
    """Firing at buildings: 2 D6 against the totals that bring the structure down."""
    for t in collapse_totals:
        if two_d6 == t:
            return True
    return False


@njit(cache=True)
def scatter_side(blind, throw):
    """Indirect artillery fire, first round: the hex side (1-6) the shell lands beyond, or 0 when
    it hits the target hex.  Blind fire throws 1 D8 (7-8 hit), guided fire 2 D6 (7-12 hit)."""
    if throw >= 7:
        return 0
    return throw


@njit(cache=True)
def side_direction(towards_gun, side):
    """The direction (wargym.hexgrid: 0 N, clockwise) of hex side ``side`` (1-6) of a target hex
    whose side 4 faces the gun, which lies in direction ``towards_gun``."""
    return (towards_gun + side - 4) % 6


# ------------------------------------------------------------------------------ air support & AA
# air die faces (scenario.AIR_FACES)
AIR_HIT_ANY, AIR_HIT_FB, AIR_KILL_INFANTRY, AIR_FLAG, AIR_KILL_ANY, AIR_MISS = range(6)


@njit(cache=True)
def air_hits_plane(face, fighter_bomber, save_face):
    """AA fire or a dogfight against one plane: "hit on F & FB" or "hit on FB" (a fighter-bomber
    only) hits it, and a flag on its saving throw saves it.  Returns 1 when it is destroyed."""
    hit = face == AIR_HIT_ANY or (face == AIR_HIT_FB and fighter_bomber)
    if not hit:
        return 0
    return 0 if save_face == AIR_FLAG else 1


@njit(cache=True)
def ground_attack(faces, n, infantry_or_artillery):
    """A plane's attack on a ground unit with ``n`` air dice: "kill on infantry & artillery" kills
    those, "kill on any ground target" kills any, a flag forces a retreat (no saving throw).
    Returns (kills, retreat hexes)."""
    dead = 0
    flags = 0
    for i in range(n):
        f = faces[i]
        if f == AIR_KILL_ANY or (f == AIR_KILL_INFANTRY and infantry_or_artillery):
            dead += 1
        elif f == AIR_FLAG:
            flags += 1
    return dead, flags


__all__ = ["N_DICE", "dice_at", "deduct", "add_commander_die", "score_throw", "automatic_kills", "saves",
           "unsaved", "kills", "casualty_cap", "ignores_flags", "retreats", "defence_kill", "special_hit",
           "commander_hit", "collapses", "scatter_side", "side_direction", "air_hits_plane", "ground_attack"]
