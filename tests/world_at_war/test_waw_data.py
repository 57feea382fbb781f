"""The World at War data (configs/world_at_war/): every fact the book states is in the data
exactly, and a bad file is refused with file, key, value and rule.

Book facts checked here: appendix 2's air force deck (8 F, 8 FB, 2 blanks, 5 picked) and its air
support card table, row by row, 2 of each (18 a country), 3 picked, no Japanese decks; the terrain
effects sheet, every row; appendix 1's infantry figures; the three scenarios' sides.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wargym.data import DataError
from wargym.world_at_war.scenario import (
    FEATURES, SCENARIOS, TERRAINS, load_rulebook_data, load_scenario_file, load_units, scenario_path)

TERRAIN, UNITS, CARDS, AIR = load_rulebook_data()

# The AIR SUPPORT CARD DECK table of appendix 2, as printed (columns Germany, USA, UK, USSR).
AIR_TABLE = """
1 FB + 2 F | 1 F | 2 FB | 1 FB
1 FB + 1 F | 3 FB + 1 F | 2 FB + 1 F | 1 FB + 1 F
2 FB + 1 F | 1 F | 2 F | 3 FB
1 FB | 1 FB + 2 F | 1 FB + 1 F | 1 FB
2 FB + 2 F | 2 FB | 1 FB | 2 FB + 1 F
1 FB + 2 F | 2 FB + 1 F | 2 FB + 1 F | 1 F
1 FB + 1 F | 1 F | 2 FB + 2 F | 2 FB
1 F | 2 FB + 1 F | 1 FB + 1 F | 2 FB
2 FB + 1 F | 2 FB | 1 F | 1 FB
"""


def planes(text: str) -> tuple[int, int]:
    fb = f = 0
    for part in text.split("+"):
        n, kind = part.split()
        if kind == "FB":
            fb += int(n)
        else:
            f += int(n)
    return fb, f


def test_waw_appendix2_air_support_table_row_by_row():
    rows = [[planes(cell) for cell in line.split("|")] for line in AIR_TABLE.strip().splitlines()]
    for column, country in enumerate(("germany", "usa", "uk", "ussr")):
        assert [(c.fb, c.f) for c in AIR.air_support[country]] == [row[column] for row in rows], country
    # "2 cards of each type per country (18 cards per deck)"; "Each player picks 3 cards"
    assert AIR.copies * len(AIR.air_support["usa"]) == 18 and AIR.air_support_pick == 3


def test_waw_appendix2_air_force_deck_and_no_japanese_air():
    # "8 fighter (F) cards, 8 fighter-bomber (FB) cards and 2 blanks ... each side picks (blind) 5"
    assert (AIR.air_force.fighter, AIR.air_force.fighter_bomber, AIR.air_force.blank, AIR.air_force.pick) == (8, 8, 2, 5)
    assert "japan" not in AIR.air_support
    # "Aircraft: 1 hex (ZOC)  AA guns: 2 hexes"; "3 ... dice for fighter-bombers and 1 for fighters"
    assert (AIR.aircraft_range, AIR.aa_range) == (1, 2)
    assert AIR.attack_dice == {"fighter_bomber": 3, "fighter": 1}


def test_waw_terrain_effects_sheet_every_row():
    t, f = TERRAIN.terrains, TERRAIN.features
    assert list(t) == list(TERRAINS) and list(f) == list(FEATURES)
    # Wood: "Stop & do not battle.  Attacker: -1 infantry -2 vehicles & arty.  Blocks."
    assert t["wood"].stop and t["wood"].no_battle and t["wood"].blocks
    assert (t["wood"].attacker.infantry, t["wood"].attacker.vehicle, t["wood"].attacker.artillery) == (1, 2, 2)
    # Bocage: "-1 infantry -2 vehicles"
    assert (t["bocage"].attacker.infantry, t["bocage"].attacker.vehicle, t["bocage"].attacker.artillery) == (1, 2, 0)
    # Hill: "-1 attacker.  Blocks."
    assert t["hill"].attacker.infantry == t["hill"].attacker.vehicle == t["hill"].attacker.artillery == 1
    assert t["hill"].blocks and not t["hill"].stop
    # Towns & villages: "Defender: -2 vehicles"
    assert t["town"].defender.vehicle == 2 and t["town"].no_battle and t["town"].buildings
    # River: only at fords or bridges; "Crossing by fords takes 1 turn"
    assert t["river"].enter == "none" and t["ford"].stop and t["bridge"].enter == "all"
    # Sea: "Maximum 1 hex.  Land unit cannot battle."  Beach: "Maximum 1 hex."
    assert t["sea"].max_move == 1 and t["sea"].no_battle and t["beach"].max_move == 1
    # Marshes: "Stop.  -1 attacker."
    assert t["marsh"].stop and t["marsh"].attacker.infantry == 1 and not t["marsh"].blocks
    # Depressions: "Infantry only.  Infantry and tanks may only attack from adjacent hexes."
    assert t["depression"].enter == "infantry" and t["depression"].adjacent_attack_only
    # Debris & low walls: "Stop.  Vehicles -1 hex to cross.  Defender may ignore first flag.  Blocks."
    assert f["debris"].stop and f["debris"].vehicle_move_cost == 1 and f["debris"].ignore_flags == 1
    # Bunkers: "Only infantry may enter.  Artillery may not retreat from bunkers.  Attacker: -1
    # infantry -2 vehicles -1 artillery.  Defender: first 2 flags may be ignored.  Blocks."
    b = f["bunker"]
    assert b.enter == "infantry" and b.no_artillery_retreat and b.ignore_flags == 2 and b.blocks
    assert (b.attacker.infantry, b.attacker.vehicle, b.attacker.artillery) == (1, 2, 1)
    # Anti tank obstacles: "Infantry only.  Defender may ignore first flag."
    assert f["anti_tank"].enter == "infantry" and f["anti_tank"].ignore_flags == 1
    # Sandbags: "-1 infantry -2 vehicles; first flag may be ignored; destroyed when overrun"
    s = f["sandbags"]
    assert (s.attacker.infantry, s.attacker.vehicle, s.ignore_flags, s.overrun) == (1, 2, 1, "all")
    # Barbed wire: "Stop.  Defender: -1.  May be cleared by infantry.  Destroyed when overrun by
    # tracked vehicles."
    w = f["barbed_wire"]
    assert w.stop and w.defender.infantry == 1 and w.clear == "infantry" and w.overrun == "tracked"
    # Mine fields: "Stop." and cleared as the sheet says
    assert f["minefield"].stop and f["minefield"].clear == "minefield"


def test_waw_appendix1_infantry_up_to_8_figures_and_motorized_carry_a_vehicle():
    u = load_units()
    for name, card in UNITS.cards.items():
        if card.kind == "infantry":
            assert card.figures <= 8, name
        assert (card.vehicles > 0) == (card.transport in ("motorized", "mechanized")), name
    assert u.vehicles[u.names.index("us_motorized_infantry")] == 1


def test_waw_command_deck_has_standard_cards_of_every_colour_and_an_air_support_card():
    colours = {c.colour for c in CARDS.standard}
    assert colours == {"red", "blue", "green"}
    assert any(s.action == "air_support" for s in CARDS.special)


@pytest.mark.parametrize("name", SCENARIOS)
def test_waw_scenarios_load(name):
    path, data = load_scenario_file(name)
    assert path == scenario_path(name) and data.name == name


def test_waw_pacific_default_has_no_japanese_air_support():
    # appendix 2 lists air decks for Germany, the USA, the UK and the USSR only
    _, data = load_scenario_file("pacific")
    assert data.sides == ["us", "japan"] and data.countries["japan"] == "japan"
    assert data.air["japan"] is None and data.air["us"] is not None


# ------------------------------------------------------------------------- bad files
def bad_copy(tmp_path: Path, change) -> str:
    data = yaml.safe_load(scenario_path("pacific").read_text())
    change(data)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return str(path)


def refused(tmp_path, change) -> DataError:
    with pytest.raises(DataError) as err:
        load_scenario_file(bad_copy(tmp_path, change))
    assert "bad.yaml" in str(err.value)
    return err.value


def test_waw_bad_scenario_two_units_in_one_hex(tmp_path):
    def change(d):
        d["units"][1]["hex"] = d["units"][0]["hex"]
    err = refused(tmp_path, change)
    assert err.key == "units[1].hex" and err.rule == "moving units" and "two units" in str(err)


def test_waw_bad_scenario_hex_off_the_map(tmp_path):
    def change(d):
        d["units"][0]["hex"] = "1410"
    err = refused(tmp_path, change)
    assert err.key == "units[0].hex" and err.value == "1410" and "not on the 13x9 map" in str(err)


def test_waw_bad_scenario_japanese_air_support(tmp_path):
    def change(d):
        d["air"]["japan"] = {"air_force": 5, "air_support": 3}
    err = refused(tmp_path, change)
    assert err.key == "air.japan" and err.rule == "appendix 2"


def test_waw_bad_scenario_unknown_terrain_letter(tmp_path):
    def change(d):
        d["map"]["terrain"][0] = "X" + d["map"]["terrain"][0][1:]
    err = refused(tmp_path, change)
    assert err.key == "map.terrain[0]" and err.value == "X" and err.rule == "terrain effects sheet"


def test_waw_bad_scenario_enemy_card_and_too_many_figures(tmp_path):
    def enemy(d):
        d["units"][0]["card"] = "de_infantry"
    err = refused(tmp_path, enemy)
    assert err.key == "units[0].card" and "germany card in us's (usa) force" in str(err)

    def figures(d):
        d["units"][0]["figures"] = 8
        d["units"][0]["card"] = "us_light_tank"
    err = refused(tmp_path, figures)
    assert err.key == "units[0].figures" and err.value == 8


def test_waw_bad_scenario_shape_names_key_and_rule(tmp_path):
    def change(d):
        d["units"][0]["colour"] = "purple"
    err = refused(tmp_path, change)
    assert err.key == "units[0].colour" and err.value == "purple" and err.rule == "moving units"
