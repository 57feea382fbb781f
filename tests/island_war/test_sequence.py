"""Sequence of Play (4.0-4.1) and the movement-phase discipline (5.11, 5.16)."""

import pytest

from wargym.core import IllegalActionError

from conftest import attack, jp, legal, legal_hexes, make_core, phase, play, step, us


def test_4_1_first_player_moves_first(tmp_path):
    core = make_core(tmp_path, [us("A", "0101"), jp("X", "0808")], first_player="japan")
    s = core.init(1, 0)
    assert s.current_player[0] == 1 and phase(s) == "move: select unit" and legal_hexes(core, s) == {"0808"}


def test_4_1_movement_combat_then_second_player_then_next_game_turn(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=30, attack=1)])
    s = core.init(1, 0)
    assert (int(s.turn[0]), s.current_player[0], phase(s)) == (1, 0, "move: select unit")
    s = play(core, s, ["END_PHASE"])
    assert (s.current_player[0], phase(s)) == (0, "combat: select target")   # 4.1 B: US Combat Phase
    s = attack(core, s, ["0405"], ["0305"], die=2)                              # -26: A3
    while phase(s) == "retreat":
        s = play(core, s, [min(legal_hexes(core, s))])
    if phase(s).startswith("advance"):
        s = play(core, s, ["CONFIRM"])
    assert (int(s.turn[0]), s.current_player[0], phase(s)) == (1, 1, "move: select unit")   # 4.1 2
    s = play(core, s, ["END_PHASE"])
    while s.current_player[0] == 1 and phase(s).startswith("combat"):
        s = play(core, s, ["END_PHASE"])
    assert int(s.turn[0]) == 2 and s.current_player[0] == 0 and phase(s) == "move: select unit"   # 4.1 3


def test_4_1_combat_phase_decisions(tmp_path):
    # 4.1 B a-d: the phasing player declares; FPF (c) is the non-phasing player's; then the die
    core = make_core(tmp_path, [us("A", "0305", attack=6), jp("X", "0405", defense=2),
                                jp("J", "0506", type="artillery")])
    s = play(core, core.init(1, 0), ["END_PHASE", "0405", "0305"])
    assert phase(s) == "combat: declare attack" and s.current_player[0] == 0
    s = play(core, s, ["CONFIRM"])
    assert phase(s) == "final protective fire" and s.current_player[0] == 1
    s = play(core, s, ["CONFIRM"])
    assert int(s.last_die[0]) in range(1, 7)


def test_4_1_attacks_in_any_order(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0707"), jp("X", "0405", defense=30),
                                jp("Y", "0706", defense=30)])
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert legal_hexes(core, s) == {"0405", "0706"}


def test_4_0_game_ends_after_the_last_game_turn(tmp_path):
    core = make_core(tmp_path, [us("A", "0101"), jp("X", "0808")], game_turns=2)
    s = core.init(1, 0)
    for _ in range(3):
        s = play(core, s, ["END_PHASE"])
        assert not s.terminated[0]
    s = play(core, s, ["END_PHASE"])
    assert s.terminated[0] and int(s.turn[0]) == 2 and not s.legal_action_mask[0].any()


def test_5_11_no_movement_in_the_combat_phase(tmp_path):
    # in the Combat Phase a hex action means "attack"/"add", never a move
    core = make_core(tmp_path, [us("A", "0305"), us("B", "0101"), jp("X", "0405", defense=2)])
    s = play(core, core.init(1, 0), ["END_PHASE"])
    assert legal_hexes(core, s) == {"0405"}
    with pytest.raises(IllegalActionError):
        step(core, s, "0101")


def test_5_11_non_phasing_player_never_decides_movement(tmp_path):
    core = make_core(tmp_path, [us("A", "0101"), jp("X", "0808")])
    s = core.init(1, 0)
    assert s.current_player[0] == 0 and not legal(core, s, "0808")


def test_4_1_step_never_modifies_its_input_state(tmp_path):
    core = make_core(tmp_path, [us("A", "0305"), jp("X", "0405", defense=2)])
    s0 = core.init(1, 0)
    before = {k: v.copy() for k, v in s0.arrays().items()}
    play(core, s0, ["END_PHASE", "0405", "0305", "CONFIRM"])
    assert all((before[k] == v).all() for k, v in s0.arrays().items())
