"""Island War data (configs/island_war/): every fact the rule book states, the shape of the
reconstructed data, and clear errors (file, key, value, rule) for broken files.

Scenarios are loaded by path so the tests run from the source tree without installing.
"""

from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

import numpy as np
import pytest
import yaml

from wargym.data import DataError
from wargym.island_war.scenario import (
    ARMOR, JAPAN, PROHIBITED, RESULTS, ROAD, TRAIL, US, load_scenario,
)

CFG = Path(__file__).resolve().parents[2] / "configs" / "island_war"
SCENARIOS = ("saipan", "bloody_ridge")

# attacker's preference, worst first (7.62)
ORDER = {r: i for i, r in enumerate(("Ae", "A3", "A2", "A1", "D1", "D2", "D3", "De"))}
COLUMN_LABELS = ["-7 or less", "-6,-5", "-4,-3", "-2,-1", "0,1", "2,3", "4,5", "6,7", "8,9", "10,11", "12,13",
                 "14 or more"]
CRT_LINES = {"clear", "town", "rough", "jungle", "swamp", "mountain", "river"}


def raw(name: str):
    return yaml.safe_load((CFG / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=SCENARIOS)
def scen(request):
    return load_scenario(str(CFG / f"{request.param}.yaml"))


@pytest.fixture(scope="module")
def saipan():
    return load_scenario(str(CFG / "saipan.yaml"))


@pytest.fixture(scope="module")
def ridge():
    return load_scenario(str(CFG / "bloody_ridge.yaml"))


def column_of(sc, differential: int) -> int:
    return int(np.nonzero(sc.crt_column_min <= differential)[0][-1])


# ------------------------------------------------------------------------------------------ CRT
def test_7_0_crt_example_jungle_plus9_die1_is_D3(saipan):
    differential = 13 - 4                      # "thirteen Strength Points attacking ... four"
    assert differential == 9
    col = column_of(saipan, differential)
    assert saipan.crt_column_labels[col] == "8,9"
    line = saipan.crt_line_names.index("jungle")
    assert RESULTS[saipan.crt_table[line, col, 0]] == "D3"      # die roll of one


def test_7_0_crt_example_via_jungle_terrain_line(saipan):
    """The Jungle terrain type of the Terrain Key points at the CRT's jungle line (7.43)."""
    key = raw("terrain.yaml")
    assert key["terrain"]["jungle"]["crt_line"] == "jungle"
    jungle = list(key["terrain"]).index("jungle")
    hexes = np.nonzero(saipan.hex_terrain == jungle)[0]
    assert len(hexes) > 0
    line = int(saipan.hex_crt_line[hexes[0]])
    assert RESULTS[saipan.crt_table[line, column_of(saipan, 9), 0]] == "D3"


def test_7_61_crt_columns_contiguous_and_open_ended():
    cols = raw("crt.yaml")["columns"]
    assert [c["label"] for c in cols] == COLUMN_LABELS
    assert cols[0]["min"] is None and cols[0]["max"] == -7
    assert cols[-1]["min"] == 14 and cols[-1]["max"] is None
    for prev, cur in zip(cols, cols[1:]):
        assert cur["min"] == prev["max"] + 1
    for c in cols[1:-1]:
        lo, hi = (int(x) for x in c["label"].split(","))
        assert (c["min"], c["max"]) == (lo, hi)


def test_7_61_crt_column_lookup_for_every_differential(saipan):
    for d in range(-30, 40):
        label = saipan.crt_column_labels[column_of(saipan, d)]
        if d <= -7:
            assert label == "-7 or less"
        elif d >= 14:
            assert label == "14 or more"
        else:
            assert d in tuple(int(x) for x in label.split(","))


def test_7_61_crt_has_one_line_per_terrain_line_and_six_dice():
    crt = raw("crt.yaml")
    assert set(crt["lines"]) == CRT_LINES
    for line in crt["lines"].values():
        assert len(line["results"]) == len(COLUMN_LABELS)
        assert all(len(col) == 6 for col in line["results"])


def test_7_62_crt_results_only_book_codes():
    assert set(RESULTS) == set(ORDER)
    for line in raw("crt.yaml")["lines"].values():
        for col in line["results"]:
            assert set(col) <= set(RESULTS)


def _ranked(sc):
    return np.vectorize(lambda r: ORDER[RESULTS[r]])(sc.crt_table)


def test_7_61_crt_monotone_in_column(saipan):
    """A higher differential column is never worse for the attacker (same line, same die)."""
    t = _ranked(saipan)
    assert (np.diff(t, axis=1) >= 0).all()


def test_7_61_crt_die_one_best_for_attacker(saipan):
    t = _ranked(saipan)
    assert (np.diff(t, axis=2) <= 0).all()


def test_7_44_crt_more_defensive_line_never_better_for_attacker(saipan):
    t = _ranked(saipan)
    rank = saipan.crt_line_rank
    for a in range(len(rank)):
        for b in range(len(rank)):
            if rank[a] > rank[b]:
                assert (t[a] <= t[b]).all(), (saipan.crt_line_names[a], saipan.crt_line_names[b])


def test_7_44_rough_outranks_river_and_ranks_distinct(saipan):
    """7.44 example: a unit in rough terrain behind a river benefits from the rough terrain only."""
    names = saipan.crt_line_names
    rank = dict(zip(names, saipan.crt_line_rank.tolist()))
    assert rank["rough"] > rank["river"]
    assert rank["clear"] == min(rank.values())
    assert len(set(rank.values())) == len(rank)
    tables = [saipan.crt_table[i].tobytes() for i in range(len(names))]
    assert len(set(tables)) == len(tables), "every terrain line differs from the others"


def test_7_61_crt_clear_0_1_is_roughly_an_even_gamble(saipan):
    line = saipan.crt_line_names.index("clear")
    results = [RESULTS[r] for r in saipan.crt_table[line, column_of(saipan, 0)]]
    defender = sum(r.startswith("D") for r in results)
    assert 2 <= defender <= 4
    assert "Ae" not in results and "De" not in results


def test_7_61_crt_extremes_favour_the_right_side(saipan):
    t = saipan.crt_table
    lo, hi = column_of(saipan, -20), column_of(saipan, 30)
    assert all(RESULTS[r].startswith("A") for r in t[:, lo].ravel())
    clear = saipan.crt_line_names.index("clear")
    assert all(RESULTS[r] in ("D3", "De") for r in t[clear, hi])


# ---------------------------------------------------------------------------------- terrain key
def test_5_21_clear_costs_one_every_other_hex_more():
    key = raw("terrain.yaml")["terrain"]
    assert key["clear"]["move_cost"] == 1
    for name, t in key.items():
        if name != "clear" and t.get("passable", True):
            assert t["move_cost"] > 1, name


def test_5_25_armor_enters_only_clear_and_town():
    key = raw("terrain.yaml")["terrain"]
    assert {n for n, t in key.items() if t.get("armor", True) and t.get("passable", True)} == {"clear", "town"}


def test_7_42_river_hexside_is_a_crt_line_and_prohibited_exists():
    key = raw("terrain.yaml")
    assert key["river"]["crt_line"] == "river"
    assert "prohibited" in key
    assert key["terrain"]["sea"]["passable"] is False
    assert {t["crt_line"] for t in key["terrain"].values() if t.get("passable", True)} | {"river"} == CRT_LINES


# ------------------------------------------------------------------------------------ scenarios
def test_1_0_at_most_a_hundred_playing_pieces(scen):
    assert 2 <= scen.num_units <= 100


def test_5_31_no_two_units_set_up_in_one_hex(scen):
    hexes = scen.unit_setup[scen.unit_setup >= 0]
    assert len(hexes) == len(set(hexes.tolist()))


def test_3_0_every_unit_sets_up_or_arrives(scen):
    for i in range(scen.num_units):
        assert (scen.unit_setup[i] >= 0) != (scen.unit_arrives[i] > 0)
        if scen.unit_arrives[i]:
            assert 1 <= scen.unit_arrives[i] <= scen.game_turns
            assert scen.unit_entry[i] >= 0


def test_3_0_setup_and_entry_hexes_passable_and_on_the_map(scen):
    setup = scen.unit_setup[scen.unit_setup >= 0]
    assert (setup < scen.num_hexes).all()
    assert (scen.hex_move_cost[setup] > 0).all()
    assert scen.entry_hexes.any(axis=1).all(), "every entry area has hexes"
    entry = np.nonzero(scen.entry_hexes.any(axis=0))[0]
    assert (scen.hex_move_cost[entry] > 0).all()
    # armor never starts or enters where it could not move (5.25)
    for i in np.nonzero((scen.unit_type == ARMOR) & (scen.unit_setup >= 0))[0]:
        assert scen.hex_armor_ok[scen.unit_setup[i]]


def test_3_0_setup_hexes_are_declared_as_hex_numbers(scen):
    name = "saipan" if scen.name == "saipan" else "bloody_ridge"
    for u in raw(f"{name}.yaml")["units"]:
        if "setup" in u:
            assert isinstance(u["setup"], str) and len(u["setup"]) == 4 and u["setup"].isdigit()


def test_2_1_every_land_hex_is_connected(scen):
    land = scen.hex_move_cost > 0
    start = int(np.nonzero(land)[0][0])
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for d in range(6):
            n = int(scen.grid.neighbours[h, d])
            if n >= 0 and land[n] and not scen.hexside[h, d] & PROHIBITED and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(np.nonzero(land)[0].tolist())


def test_2_1_map_is_surrounded_or_bounded_by_sea_where_an_island():
    m = raw("saipan_map.yaml")
    rows = m["terrain_rows"]
    assert 14 <= m["columns"] <= 18 and 24 <= m["rows"] <= 30
    assert set(rows[0]) == {"S"} and set(rows[-1]) == {"S"}
    assert all(r[0] == "S" and r[-1] == "S" for r in rows)
    r = raw("bloody_ridge_map.yaml")
    assert (r["columns"], r["rows"]) == (14, 18)


@pytest.mark.parametrize("mapfile", ["saipan_map.yaml", "bloody_ridge_map.yaml"])
def test_5_22_5_23_roads_and_trails_are_paths_of_adjacent_passable_hexes(mapfile):
    m = raw(mapfile)
    sc = load_scenario(str(CFG / ("saipan.yaml" if mapfile.startswith("saipan") else "bloody_ridge.yaml")))
    g = sc.grid
    for kind, bit in (("roads", ROAD), ("trails", TRAIL)):
        assert m[kind], kind
        for path in m[kind]:
            assert all(isinstance(h, str) for h in path)
            for a, b in zip(path, path[1:]):
                ia, ib = g.index(int(a)), g.index(int(b))
                assert ib in g.neighbours[ia], (kind, a, b)
                d = g.direction(ia, ib)
                assert sc.hexside[ia, d] & bit and not sc.hexside[ia, d] & PROHIBITED, (kind, a, b)
            assert all(sc.hex_move_cost[g.index(int(h))] > 0 for h in path)


def test_7_42_bloody_ridge_rivers_and_7_72_saipan_cliffs(saipan, ridge):
    from wargym.island_war.scenario import RIVER
    assert (ridge.hexside & RIVER).any()
    land = saipan.hex_move_cost > 0
    cliffs = (saipan.hexside & PROHIBITED).astype(bool) & land[:, None]
    inland = [(h, d) for h, d in zip(*np.nonzero(cliffs)) if saipan.grid.neighbours[h, d] >= 0
              and land[saipan.grid.neighbours[h, d]]]
    assert inland, "Saipan has prohibited (cliff) hexsides between land hexes"


def test_9_0_ground_support_track_one_entry_per_game_turn(scen):
    name = "saipan" if scen.name == "saipan" else "bloody_ridge"
    gs = raw(f"{name}.yaml")["ground_support"]
    assert set(gs) == {"us", "japan"}
    for track in gs.values():
        assert len(track) == scen.game_turns
        assert all(p >= 0 for p in track)
    assert scen.ground_support.shape == (scen.game_turns + 1, 2)


def test_2_32_unit_values_by_type(scen):
    art = scen.unit_type == 3
    assert (scen.unit_range[art] >= 1).all() and (scen.unit_barrage[art] > 0).all()
    assert (scen.unit_barrage[~art] == 0).all() and (scen.unit_fpf[~art] == 0).all()
    assert (scen.unit_attack[~art] > 0).all() and (scen.unit_defense > 0).all() and (scen.unit_move > 0).all()


def test_3_0_objectives_on_passable_named_hexes(scen):
    assert len(scen.objective_hex) >= 3
    assert (scen.hex_move_cost[scen.objective_hex] > 0).all()
    assert len(set(scen.objective_hex.tolist())) == len(scen.objective_hex)
    for h in scen.objective_hex:
        assert int(h) in scen.hex_names
    assert scen.us_wins_at_margin > scen.japan_wins_at_margin
    assert scen.victory_text


def test_saipan_default_scenario_facts(saipan):
    assert saipan.first_player == US
    assert 10 <= saipan.game_turns <= 12
    us, jp = saipan.unit_side == US, saipan.unit_side == JAPAN
    assert 35 <= us.sum() <= 55 and 25 <= jp.sum() <= 40
    assert (saipan.unit_arrives[us] >= 1).all() and (saipan.unit_arrives[us] <= 4).all()
    assert (saipan.unit_setup[jp] >= 0).all()
    assert set(saipan.unit_type[us].tolist()) == {0, 2, 3} and set(saipan.unit_type[jp].tolist()) == {0, 1, 2, 3}
    assert {"Aslito Airfield", "Garapan", "Mount Tapotchau", "Tanapag", "Marpi Point"} <= set(saipan.objective_names)
    assert (saipan.objective_owner == JAPAN).all()
    us_gs, jp_gs = saipan.ground_support[1:, US], saipan.ground_support[1:, JAPAN]
    assert ((us_gs >= 6) & (us_gs <= 12)).all() and ((jp_gs >= 0) & (jp_gs <= 2)).all()
    # a US win needs every objective (32 VP) and 16+ Japanese units net of US losses (README's
    # worked examples: 32 + 22 - 6 = +48 wins, 22 + 25 - 4 = +43 loses); no draw band
    most = saipan.objective_vp.sum() + saipan.unit_vp[jp].sum()
    assert saipan.us_wins_at_margin == 48 and saipan.japan_wins_at_margin == 47
    assert saipan.objective_vp.sum() < saipan.us_wins_at_margin <= most == 59
    assert 32 + 22 - 6 >= saipan.us_wins_at_margin and 22 + 25 - 4 <= saipan.japan_wins_at_margin
    terrain = {saipan.terrain_names[saipan.hex_terrain[h]] for h in saipan.objective_hex}
    assert "mountain" in terrain                  # Mount Tapotchau


def test_bloody_ridge_scenario_facts(ridge):
    assert ridge.first_player == JAPAN
    assert 6 <= ridge.game_turns <= 8
    assert "Henderson Field" in ridge.objective_names
    assert (ridge.objective_owner == US).all()
    us = ridge.unit_side == US
    assert (ridge.unit_setup[us & (ridge.unit_arrives == 0)] >= 0).all()
    names = " ".join(ridge.unit_names)
    for unit in ("1st Raider", "1st Parachute", "/5 Marines", "/1 Marines", "/7 Marines", "/11 Marines",
                 "1/124", "2/124", "3/124", "2/4", "Kuma", "Oka"):
        assert unit in names, unit
    # taking Henderson Field swings the margin past the Japanese threshold
    hf = ridge.objective_vp[list(ridge.objective_names).index("Henderson Field")]
    assert ridge.objective_vp.sum() - 2 * hf <= ridge.japan_wins_at_margin


# ------------------------------------------------------------------------- reconstructed flags
@pytest.mark.parametrize("name", ["terrain.yaml", "crt.yaml", "saipan.yaml", "saipan_map.yaml",
                                  "bloody_ridge.yaml", "bloody_ridge_map.yaml"])
def test_5_data_policy_every_value_flagged_reconstructed(name):
    text = (CFG / name).read_text(encoding="utf-8")
    assert "RECONSTRUCTED" in text.split("\n", 5)[1] or "RECONSTRUCTED" in text[:600]
    data = yaml.safe_load(text)
    assert data["reconstructed"] is True
    if name == "terrain.yaml":
        for t in list(data["terrain"].values()) + [data["river"], data["prohibited"]]:
            assert t["reconstructed"] is True
    if name in ("saipan.yaml", "bloody_ridge.yaml"):
        assert all(u["reconstructed"] is True for u in data["units"])


# ------------------------------------------------------------------------------ broken copies
@pytest.fixture
def broken(tmp_path):
    """Copy the data folder into tmp_path; returns (folder, edit) where edit(file, fn) rewrites one file."""
    for f in CFG.glob("*.yaml"):
        shutil.copy(f, tmp_path / f.name)

    def edit(name, fn):
        data = yaml.safe_load((tmp_path / name).read_text(encoding="utf-8"))
        fn(data)
        (tmp_path / name).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

    return tmp_path, edit


def test_broken_copy_unchanged_loads(broken):
    folder, edit = broken
    edit("saipan.yaml", lambda d: None)
    assert load_scenario(str(folder / "saipan.yaml")).num_units > 0


def test_3_0_bad_setup_hex_off_the_map_names_file_key_value_rule(broken):
    folder, edit = broken
    units = raw("saipan.yaml")["units"]
    i = next(k for k, u in enumerate(units) if "setup" in u)
    edit("saipan.yaml", lambda d: d["units"][i].update(setup="9999"))
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "saipan.yaml"))
    err = e.value
    assert err.file.endswith("saipan.yaml") and err.key == f"units[{i}].setup"
    assert err.value == "9999" and err.rule == "3.0"
    assert "saipan.yaml" in str(err) and "9999" in str(err) and "rule 3.0" in str(err)


def test_5_31_two_units_in_one_hex_names_file_key_value_rule(broken):
    folder, edit = broken
    units = raw("bloody_ridge.yaml")["units"]
    i, j = [k for k, u in enumerate(units) if "setup" in u][:2]

    def stack(d):
        d["units"][j]["setup"] = d["units"][i]["setup"]
    edit("bloody_ridge.yaml", stack)
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "bloody_ridge.yaml"))
    err = e.value
    assert err.file.endswith("bloody_ridge.yaml") and err.key == f"units[{j}].setup"
    assert err.value == units[i]["setup"] and err.rule == "5.31"


def test_5_22_non_adjacent_road_names_file_key_value_rule(broken):
    folder, edit = broken
    road = raw("saipan_map.yaml")["roads"][0]
    edit("saipan_map.yaml", lambda d: d["roads"][0].append("0203"))   # far off the road's end
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "saipan.yaml"))
    err = e.value
    assert err.file.endswith("saipan_map.yaml") and err.key == f"roads[0][{len(road)}]"
    assert err.value == "0203" and err.rule == "5.22"


def test_5_23_trail_hex_off_the_map_names_rule(broken):
    folder, edit = broken
    edit("bloody_ridge_map.yaml", lambda d: d["trails"][0].insert(0, "9901"))
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "bloody_ridge.yaml"))
    assert e.value.key == "trails[0][0]" and e.value.value == "9901" and e.value.rule == "5.23"


def test_7_62_unknown_crt_result_code_names_file_key_value_rule(broken):
    folder, edit = broken
    edit("crt.yaml", lambda d: d["lines"]["clear"]["results"][0].__setitem__(0, "X9"))
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "saipan.yaml"))
    err = e.value
    assert err.file.endswith("crt.yaml") and err.key.startswith("lines.clear.results")
    assert "X9" in str(err.value) and err.rule == "7.61"
    assert "7.62" in str(err)                      # the message cites the results the book defines


def test_7_61_non_contiguous_crt_columns_rejected(broken):
    folder, edit = broken
    edit("crt.yaml", lambda d: d["columns"][5].update(min=3))
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "saipan.yaml"))
    assert e.value.key == "columns[5].min" and e.value.rule == "7.61"


def test_9_0_short_ground_support_track_rejected(broken):
    folder, edit = broken
    edit("saipan.yaml", lambda d: d["ground_support"]["us"].pop())
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "saipan.yaml"))
    assert e.value.key == "ground_support.us" and e.value.rule == "9.0"


def test_4_1_entry_hex_in_the_sea_rejected(broken):
    folder, edit = broken
    edit("saipan.yaml", lambda d: d["entry_areas"]["red_green"].append("0101"))
    with pytest.raises(DataError) as e:
        load_scenario(str(folder / "saipan.yaml"))
    assert e.value.value == "0101" and e.value.rule == "4.1" and "impassable" in str(e.value)
