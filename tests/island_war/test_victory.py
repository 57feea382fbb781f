"""Victory (3.0, 4.0) and objective control; the "major" decision mode's default rules (7.62, 4.1 c).

Scenario objectives here: the Town 0404 (5 VP, Japanese at start) unless a test says otherwise.
margin = US VP - Japanese VP; the US wins at margin >= us_wins_at_margin, Japan at <= japan_wins_at_margin.
"""

from conftest import attack, jp, legal_hexes, make_core, phase, play, us, where

TOWN = {"hex": "0404", "name": "Town", "vp": 5, "owner": "japan"}


def game_over_after_one_turn(core, s):
    """End both Movement Phases of a one-turn game with nothing to fight."""
    while not s.terminated[0]:
        s = play(core, s, ["END_PHASE"])
    return s


def test_4_0_japan_wins_holding_its_objective_at_the_end(tmp_path):
    core = make_core(tmp_path, [us("A", "0101"), jp("X", "0808")], objectives=[TOWN], game_turns=1)
    s = game_over_after_one_turn(core, core.init(1, 0))
    assert core.summary(s)["margin"] == -5
    assert s.rewards[0].tolist() == [-1.0, 1.0]


def test_4_0_objective_changes_hands_when_entered(tmp_path):
    core = make_core(tmp_path, [us("A", "0304", move=1), jp("X", "0808")], objectives=[TOWN], game_turns=1)
    s = play(core, core.init(1, 0), ["0304", "0404"])   # along the road into the town
    assert s.objective_owner[0].tolist() == [0]
    s = game_over_after_one_turn(core, s)
    assert core.summary(s)["margin"] == 5 and s.rewards[0].tolist() == [1.0, -1.0]


def test_4_0_objective_stays_with_last_side_to_enter_it(tmp_path):
    # A enters the town and leaves it again: the US still controls it
    core = make_core(tmp_path, [us("A", "0304", move=4), jp("X", "0808")], objectives=[TOWN], game_turns=2)
    s = play(core, core.init(1, 0), ["0304", "0404", "END_PHASE"])
    s = play(core, s, ["0404", "0304"])
    assert where(core, s, "A") == "0304" and s.objective_owner[0].tolist() == [0]


def test_4_0_draw_between_the_margins(tmp_path):
    core = make_core(tmp_path, [us("A", "0101"), jp("X", "0808")], objectives=[TOWN], game_turns=1, victory=(10, -10))
    s = game_over_after_one_turn(core, core.init(1, 0))
    assert core.summary(s)["margin"] == -5 and s.rewards[0].tolist() == [0.0, 0.0] and s.terminated[0]


def test_4_0_eliminated_unit_vp_go_to_the_enemy(tmp_path):
    # X (3 VP) is eliminated (De): margin +3, US wins at +1
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2, vp=3), jp("Z", "0808")],
                     game_turns=1)
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=1)
    s = play(core, s, ["CONFIRM"])
    s = game_over_after_one_turn(core, s)
    assert core.summary(s)["margin"] == 3 and s.rewards[0].tolist() == [1.0, -1.0]


def test_4_0_objective_taken_by_advance_after_combat(tmp_path):
    # +14 on the town line, die 1: De
    core = make_core(tmp_path, [us("A", "0305", attack=16), jp("X", "0404", defense=2), jp("Z", "0808")],
                     objectives=[TOWN])
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0404"], ["0305"], die=1)
    s = play(core, s, ["0305", "0404"])
    assert s.objective_owner[0].tolist() == [0]


def test_4_0_objective_taken_by_retreat(tmp_path):
    # the US unit A retreats (A1) into the town 0404, a Japanese objective: now American
    core = make_core(tmp_path, [us("A", "0305", attack=2), jp("X", "0306", defense=2)], objectives=[TOWN])
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0306"], ["0305"], die=1)   # 0: A1
    assert phase(s) == "retreat" and "0404" in legal_hexes(core, s)
    s = play(core, s, ["0404"])
    assert s.objective_owner[0].tolist() == [0]


def test_4_0_sudden_death_when_a_side_has_no_unit_left(tmp_path):
    # interpretation (victory.py): X, Japan's only unit, is eliminated: the US wins at once
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2)], game_turns=3)
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=1)
    assert not s.terminated[0] and phase(s) == "advance: select unit"   # the combat ends first
    s = play(core, s, ["CONFIRM"])
    assert s.terminated[0] and int(s.turn[0]) == 1 and s.rewards[0].tolist() == [1.0, -1.0]


def test_4_0_no_sudden_death_while_reinforcements_are_due(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2),
                                jp("R", arrives=2, entry="east")], entry_areas={"east": ["0808"]})
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=1)
    assert not s.terminated[0]


# ------------------------------------------------------------------------ decisions="major"
def test_8_4_major_mode_fires_fpf_automatically(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=10), jp("X", "0405", defense=2),
                                jp("J", "0506", type="artillery", fpf=4)], decisions="major")
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=6)
    assert int(s.last_differential[0]) == 10 - 2 - 4        # J fired without a Japanese decision


def test_8_4_major_mode_adds_ground_support_fpf_to_reach_a_lower_column(tmp_path):
    # +5 without points; the default adds a point while the differential is positive and the points
    # left reach the next lower column: 5 (needs 2, has 4) 4 (needs 1) 3 (needs 2, has 2) 2 (needs 1) -> +1
    core = make_core(tmp_path, [us("A", "0305", attack=7), jp("X", "0405", defense=2)], decisions="major",
                     ground_support={"japan": [4, 0, 0]})
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=6)
    assert int(s.last_differential[0]) == 5 - 4 and int(s.gs_points[0, 1]) == 0


def test_7_62_major_mode_retreats_away_from_the_enemy(tmp_path):
    # D1: X may go to 0406, 0505 or 0506; the default takes the hex farthest from US units,
    # lowest hex index on ties: all three are 2 hexes from A -> 0406 (index 29 < 36 < 37)
    core = make_core(tmp_path, [us("A", "0305", attack=4), jp("X", "0405", defense=2)], decisions="major")
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=1)
    assert where(core, s, "X") == "0406"


def test_7_62_major_mode_advances_only_onto_an_objective(tmp_path):
    core = make_core(tmp_path, [us("A", "0305", attack=16), jp("X", "0404", defense=2), jp("Z", "0808")],
                     objectives=[TOWN], decisions="major")
    s = attack(core, play(core, core.init(1, 0), ["END_PHASE"]), ["0404"], ["0305"], die=1)
    assert where(core, s, "A") == "0404" and s.objective_owner[0].tolist() == [0]
    core2 = make_core(tmp_path, [us("A", "0305", attack=12), jp("X", "0405", defense=2), jp("Z", "0808")],
                      objectives=[TOWN], decisions="major")
    s2 = attack(core2, play(core2, core2.init(1, 0), ["END_PHASE"]), ["0405"], ["0305"], die=1)
    assert where(core2, s2, "A") == "0305"         # 0405 is no objective: it stays
