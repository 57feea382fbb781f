"""Helpers for the hand-worked Island War rule tests: build any position on the fixture map.

The fixture map (fixtures/small_map.yaml, 10 columns x 8 rows; even columns sit half a hex lower)::

    row 1   . . . . j j . . . ~      j jungle (2 MP)   r rough (2 MP)   t town (1 MP)
    row 2   . . . . j j . . . ~      s swamp (3 MP)    m mountain (3 MP) ~ sea
    row 3   . . r . . . . . . ~      road   0104-0204-0304-0404-0504-0604-0704
    row 4   . . . t . . . . . ~      trail  0107-0207-0307
    row 5   . . . . . m . . . ~      river hexsides 0702|0802, 0703|0803 (+1 MP)
    row 6   . . . s . . . . . ~      prohibited hexside 0506|0606
    row 7   . . . . . . . . j ~
    row 8   . . . . . . . . j ~

Neighbours of an odd column hex XXYY: N XX(YY-1), S XX(YY+1), NE/SE (XX+1)(YY-1)/(XX+1)YY,
NW/SW (XX-1)(YY-1)/(XX-1)YY.  Of an even column hex: NE/SE (XX+1)YY/(XX+1)(YY+1), NW/SW alike.

    core = make_core(tmp_path, units=[us("A", "0305"), jp("X", "0405")])
    state = core.init(1, 0)
    state = play(core, state, ["END_PHASE", "0405", "0305", "CONFIRM"])
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml

from wargym.island_war import actions as act
from wargym.island_war.core import IslandWarCore
from wargym.island_war.scenario import RESULTS
from wargym.island_war.state import PHASE_NAMES

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SPECIALS = {"END_PHASE": act.END_PHASE, "CONFIRM": act.CONFIRM, "CANCEL": act.CANCEL,
            "GS_ADD": act.GS_ADD, "BANZAI": act.BANZAI}
US, JAPAN = 0, 1
_counter = [0]


def unit(name, side, setup=None, type="infantry", attack=None, defense=4, move=4, **extra):
    """One unit spec.  Artillery defaults to barrage 4, FPF 4, range 3, no attack strength."""
    spec = {"name": name, "side": side, "type": type, "defense": defense, "move": move}
    if type == "artillery":
        spec.update(barrage=extra.pop("barrage", 4), fpf=extra.pop("fpf", 4), range=extra.pop("range", 3))
        if attack:
            spec["attack"] = attack
    else:
        spec["attack"] = 4 if attack is None else attack
    if setup is not None:
        spec["setup"] = setup
    spec.update(extra)
    return spec


def us(name, setup=None, **kw):
    return unit(name, "us", setup, **kw)


def jp(name, setup=None, **kw):
    return unit(name, "japan", setup, **kw)


def make_core(tmp_path, units, first_player="us", ground_support=None, objectives=(), game_turns=3,
              decisions="full", victory=(1, -1), entry_areas=None, map_extra=None):
    """An IslandWarCore on the fixture map/terrain/CRT with exactly these units.  ``map_extra``
    appends to the map's lists, e.g. {"rivers": [["0303", "0403"]]} (written as a new map file)."""
    for f in ("terrain.yaml", "crt.yaml"):
        if not (tmp_path / f).exists():
            shutil.copy(FIXTURES / f, tmp_path / f)
    _counter[0] += 1
    map_name = "small_map.yaml"
    if map_extra:
        m = yaml.safe_load((FIXTURES / map_name).read_text(encoding="utf-8"))
        for key, extra in map_extra.items():
            m[key] = list(m.get(key, [])) + list(extra)
        map_name = f"map{_counter[0]}.yaml"
        (tmp_path / map_name).write_text(yaml.safe_dump(m, sort_keys=False), encoding="utf-8")
    elif not (tmp_path / map_name).exists():
        shutil.copy(FIXTURES / map_name, tmp_path / map_name)
    gs = {"us": [0] * game_turns, "japan": [0] * game_turns}
    gs.update(ground_support or {})
    doc = {
        "name": f"case{_counter[0]}", "title": "rule test", "map": map_name,
        "first_player": first_player, "game_turns": game_turns, "units": list(units),
        "entry_areas": entry_areas or {}, "ground_support": gs, "objectives": list(objectives),
        "victory": {"us_wins_at_margin": victory[0], "japan_wins_at_margin": victory[1]},
    }
    path = tmp_path / f"case{_counter[0]}.yaml"  # a fresh name: load_scenario caches by path
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return IslandWarCore(str(path), decisions=decisions)


def hexidx(core, label) -> int:
    return core.scenario.grid.index(int(label))


def act_hex(core, label) -> int:
    return hexidx(core, label)


def special(core, name) -> int:
    if name.startswith("REINF_"):
        return core.scenario.num_hexes + act.REINF_0 + int(name[6:])
    return core.scenario.num_hexes + SPECIALS[name]


def action(core, a) -> int:
    """'0405' -> hex pointer, 'CONFIRM' -> special, ints pass through."""
    if isinstance(a, (int, np.integer)):
        return int(a)
    return act_hex(core, a) if a.isdigit() else special(core, a)


def step(core, state, a):
    return core.step(state, np.array([action(core, a)]))


def play(core, state, actions):
    """Step through ``actions`` (each must be legal: core.step raises IllegalActionError)."""
    for a in actions:
        state = step(core, state, a)
    return state


def legal(core, state, a) -> bool:
    return bool(state.legal_action_mask[0, action(core, a)])


def legal_hexes(core, state) -> set[str]:
    h = core.scenario.num_hexes
    return {core.scenario.grid.label(i) for i in np.nonzero(state.legal_action_mask[0, :h])[0]}


def uid(core, name) -> int:
    return core.scenario.unit_names.index(name)


def where(core, state, name):
    """Hex label of the named unit, or None when it is not on the map."""
    u = uid(core, name)
    if state.unit_status[0, u] != 1:
        return None
    return core.scenario.grid.label(int(state.unit_hex[0, u]))


def eliminated(core, state, name) -> bool:
    return int(state.unit_status[0, uid(core, name)]) == 2


def phase(state) -> str:
    return PHASE_NAMES[int(state.phase[0])]


def result(state) -> str:
    return RESULTS[int(state.last_result[0])]


def reach(core, state, name):
    """Hexes the named unit may end its move in (selects it; returns the labels and that state)."""
    state = step(core, state, where(core, state, name))
    assert phase(state) == "move: destination"
    return legal_hexes(core, state) - {where(core, state, name)}


def crt_cell(line, column, die):
    """The fixture CRT's result, read from fixtures/crt.yaml (line name, column index, die 1-6)."""
    doc = yaml.safe_load((FIXTURES / "crt.yaml").read_text(encoding="utf-8"))
    return doc["lines"][line]["results"][column][die - 1]


@pytest.fixture
def new_core(tmp_path):
    def _make(units, **kw):
        return make_core(tmp_path, units, **kw)
    return _make


def attack(core, state, defenders, attackers, die=None, extras=()):
    """Declare an attack (first defender, further defenders, attackers, extras such as 'GS_ADD'
    or 'BANZAI'), force the die, CONFIRM.  Returns the state after CONFIRM (FPF may follow)."""
    if die is not None:
        state = core.force(state, [die])
    return play(core, state, [*defenders, *attackers, *extras, "CONFIRM"])


def distance(core, a, b) -> int:
    return int(core.scenario.grid.distance[hexidx(core, a), hexidx(core, b)])


def line_name(core, state) -> str:
    return core.scenario.crt_line_names[int(state.last_line[0])]


def column_label(core, state) -> str:
    return core.scenario.crt_column_labels[int(state.last_column[0])]
