"""The planner (wargym.agents.planner): determinized playouts of a base policy, through the core
API only."""

from __future__ import annotations

import numpy as np
import pytest

from wargym import contract, make_core
from wargym.agents.base import AgentSpecError, joint_actions, make_agent
from wargym.agents.planner import PlannerAgent
from wargym.hidden import perturb

SMALL = "plan:budget=16,horizon=8,top=4"
HIDING = [("world_at_war", "pacific", "us"), ("peleliu", None, "us"), ("attu", None, "us")]


@pytest.mark.parametrize("ruleset,scenario,side", HIDING)
def test_planner_never_reads_what_its_side_may_not_see(ruleset, scenario, side):
    """Two positions that differ only in what the planner's side may not see (``perturb``: the other
    hand, the deck's order, face-down counters, the dice to come), with the same seed: the same
    choice, in every position where that side decides."""
    core = make_core(ruleset, scenario=scenario, decisions="major")
    player = core.players.index(side)
    rng = np.random.default_rng(21)
    compared = 0
    for state in contract.mid_game_states(core, 21, 60, rng=rng):
        if int(state.current_player[0]) != player or state.legal_action_mask[0].sum() < 2:
            continue
        other = perturb(core, state, player, rng)
        a = make_agent(SMALL, ruleset, side, seed=5).act(core, state, player)
        b = make_agent(SMALL, ruleset, side, seed=5).act(core, other, player)
        assert a[0] == b[0], core.describe_action(int(a[0]), state, 0)
        compared += 1
    assert compared >= 5


def test_planner_takes_legal_actions_and_plays_whole_games_reproducibly():
    """A whole World at War pacific game a side: every action the planner gives is legal, and the
    same seed plays the same game."""
    core = make_core("world_at_war", scenario="pacific", decisions="major")

    def game(seed: int):
        agents = [make_agent(SMALL + ",phases=battle: target hex", "world_at_war", "us", seed=seed),
                  make_agent("rule", "world_at_war", "japan")]
        state = core.init(2, 3)
        while not (state.terminated | state.truncated).all():
            live = ~(state.terminated | state.truncated)
            actions = joint_actions(core, state, agents, live)
            assert state.legal_action_mask[live, actions[live]].all()
            state = core.step(state, actions, active=live)
        return state, agents[0].stats

    first, stats = game(7)
    again, _ = game(7)
    assert stats["planned"] > 0 and stats["playouts"] >= stats["planned"]
    for field, value in first.arrays().items():
        assert np.array_equal(value, getattr(again, field)), field


def test_planner_plans_only_in_its_phases():
    """With ``phases``, a decision of another phase is the base policy's own."""
    core = make_core("world_at_war", scenario="pacific", decisions="major")
    planner = make_agent(SMALL + ",phases=battle: target hex", "world_at_war", "us", seed=1)
    rule = make_agent("rule", "world_at_war", "us")
    state = core.init(16, 4)
    for _ in range(40):
        live = ~(state.terminated | state.truncated)
        other = core.phase_names.index("battle: target hex") != state.phase
        mine = live & other & (state.current_player == 0)
        if mine.any():
            assert np.array_equal(planner.act(core, state, 0)[mine], rule.act(core, state, 0)[mine])
        state = core.step(state, joint_actions(core, state, [rule, make_agent("rule", "world_at_war", "japan")],
                                               live), active=live)


def test_planner_plans_only_in_its_first_turns():
    """With ``turns=1``, the planner plans its decisions of turn 1 and leaves every later turn's to
    the base policy."""
    core = make_core("world_at_war", scenario="pacific", decisions="major")
    planner = make_agent(SMALL + ",turns=1", "world_at_war", "us", seed=1)
    rules = [make_agent("rule", "world_at_war", side) for side in core.players]
    state = core.init(8, 4)
    planned_late = seen_late = 0
    while not (state.terminated | state.truncated).all() and seen_late < 20:
        live = ~(state.terminated | state.truncated)
        mine = live & (state.current_player == 0) & (state.turn > 1)
        planned = planner.planned_games(core, state, 0)
        planned_late += int(mine[planned].sum())
        seen_late += int(mine.sum())
        state = core.step(state, joint_actions(core, state, rules, live), active=live)
    assert seen_late >= 20 and planned_late == 0
    assert planner.planned_games(core, core.init(8, 4), 0).size > 0


def test_planner_plans_only_from_its_turn_on():
    """With ``since=2``, the planner leaves every decision of turn 1 to the base policy and plans
    from turn 2 on."""
    core = make_core("world_at_war", scenario="pacific", decisions="major")
    planner = make_agent(SMALL + ",since=2", "world_at_war", "us", seed=1)
    rules = [make_agent("rule", "world_at_war", side) for side in core.players]
    state = core.init(8, 4)
    seen_early = planned_late = 0
    while not (state.terminated | state.truncated).all() and not planned_late:
        live = ~(state.terminated | state.truncated)
        mine = live & (state.current_player == 0) & (state.legal_action_mask.sum(axis=1) > 1)
        planned = planner.planned_games(core, state, 0)
        assert (state.turn[planned] >= 2).all()
        seen_early += int((mine & (state.turn == 1)).sum())
        planned_late += planned.size
        state = core.step(state, joint_actions(core, state, rules, live), active=live)
    assert seen_early >= 5 and planned_late > 0


@pytest.mark.parametrize("spec,words", [
    ("plan:turns=0", "turns >= 1"), ("plan:since=0", "since >= 1"), ("plan:budget=x", "not a whole number"), ("plan:depth=3", "keys"), ("plan:budget=1", "budget >= 2"),
    ("plan:seconds=-1", "seconds must be > 0"), ("plan:bank=0.5", "bank must be >= 1"),
    ("plan:tiebreak=vps", "tiebreak is 'none' or 'standing'"),
    ("plan:tiebreak=standing,value=attu_campaign_us", "do not go together")])
def test_plan_spec_errors_name_the_option(spec, words):
    with pytest.raises(AgentSpecError, match=words):
        make_agent(spec, "island_war", "us")


def test_plan_spec_reads_its_options():
    agent = make_agent("plan:budget=128,horizon=20,top=5,base=random,phases=retreat|combat: select target,seconds=0.5,"
                       "bank=8,since=3,tiebreak=standing", "island_war", "us", seed=0)
    assert isinstance(agent, PlannerAgent)
    assert (agent.budget, agent.horizon, agent.top, agent.base_spec, agent.seconds, agent.bank, agent.since) == (
        128, 20, 5, "random", 0.5, 8.0, 3)
    assert agent.phases == ("retreat", "combat: select target") and agent.tiebreak == "standing"
    with pytest.raises(ValueError, match="has no phases"):
        agent.act(make_core("peleliu"), make_core("peleliu").init(1, 0), 0)


def test_tiebreak_ranks_ended_playouts_of_one_result_by_their_standing():
    """``tiebreak=standing``: an ended playout scores WIN times its reward plus its standing's change,
    so two losses rank by how they ended and a win still outranks every loss; without it both
    losses score -WIN alike.  Hand-laid: two Attu games ended, the U.S. beaten in both, no Victory
    Hex held and no Japanese counter taken off, the Casualty Track at 10 in one and 0 in the other.
    The U.S. standing is -0.1 a box (victory.standing_batch), less Japan's, its negative: -2.0 and
    0.0, so the losses score -WIN - 2 and -WIN."""
    from wargym.agents.planner import WIN

    core = make_core("attu", decisions="major")
    batch = core.init(2, 5).copy()
    batch.terminated[:] = True
    batch.rewards[:] = [[-1.0, 1.0], [-1.0, 1.0]]
    batch.casualties[:] = [10, 0]
    assert (batch.jp_removed == 0).all()
    before = np.zeros(2)
    plain, tie = np.zeros(2), np.zeros(2)
    make_agent("plan:budget=8,top=2", "attu", "us")._score(core, batch, 0, np.ones(2, bool), np.arange(2), before, plain)
    make_agent("plan:budget=8,top=2,tiebreak=standing", "attu", "us")._score(
        core, batch, 0, np.ones(2, bool), np.arange(2), before, tie)
    assert np.array_equal(plain, [-WIN, -WIN])
    assert np.allclose(tie, [-WIN - 2.0, -WIN])
    assert (np.abs(tie - plain) < WIN).all()  # the result still first: a win (+WIN) outranks both


def test_bank_spends_what_clear_decisions_leave_on_close_ones(monkeypatch):
    """``bank``: a decision whose playouts all end alike stops after the halving's half budget; a
    close one draws rounds from the reserve, never past ``bank`` budgets, and the two together
    spend no more than their two budgets."""
    core = make_core("island_war", scenario="saipan", decisions="major")
    state = core.init(2, 11)
    player = int(state.current_player[0])
    assert (state.current_player == player).all() and (state.legal_action_mask.sum(axis=1) > 1).all()
    planner = make_agent("plan:budget=16,top=2,bank=4", "island_war", core.players[player], seed=3)
    spent = {0: 0, 1: 0}
    noise = np.random.default_rng(0)

    def playouts(core, state, player, jobs):
        out = []
        for game, cands, n in jobs:
            spent[game] += len(cands) * n
            values = np.zeros((len(cands), n))
            if game == 1:  # the alternative is better by about a standard error of 16 samples
                values[1:] = noise.normal(0.25, 1.0, (len(cands) - 1, n))
            out.append(values)
        return out

    monkeypatch.setattr(planner, "playouts", playouts)
    planner.plan(core, state, player, np.array([0, 1]))
    assert spent[0] == 8                      # half the budget: the halving, then settled
    assert 16 < spent[1] <= 4 * 16            # rounds of 8 from the reserve, at most 4 budgets
    assert spent[0] + spent[1] <= 2 * 16 and planner.reserve >= 0


def test_strength_names_a_rung_of_the_ladder():
    """``--strength`` seats a rung's agent; with ``--vs``/``--agent`` too it is an error naming both,
    and a rung that is not one lists the rungs."""
    import argparse

    from wargym.agents.ladder import RUNGS, rung_spec, with_strength
    from wargym.agents.play import add_play_arguments

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    args = parser.parse_args(["--strength", "plan-quick"])
    assert with_strength(args.vs, args.strength, "--vs") == RUNGS["plan-quick"]
    planned = RUNGS["plan-quick"] + ",phases=command card: play"
    assert with_strength(args.vs, args.strength, "--vs", "world_at_war") == planned
    assert isinstance(make_agent(rung_spec("plan-deep"), "island_war", "us"), PlannerAgent)
    args = parser.parse_args(["--vs", "random", "--strength", "rule"])
    with pytest.raises(ValueError, match="--vs random, --strength rule"):
        with_strength(args.vs, args.strength, "--vs")
    with pytest.raises(ValueError, match="random, rule, plan-quick"):
        rung_spec("grandmaster")


def test_each_ladder_plans_phases_its_ruleset_has():
    """The planner rungs of every ruleset in ``ladder.PLANNED`` parse and name phases of its core."""
    from wargym.agents.ladder import PLANNED, rung_spec

    for ruleset in PLANNED:
        core = make_core(ruleset)
        agent = make_agent(rung_spec("plan", ruleset), ruleset, core.players[0], seed=0)
        assert agent.phases and set(agent.phases) <= set(core.phase_names), ruleset
        agent.planned_games(core, core.init(2, 0), 0)  # names no phase the core lacks
    island = make_agent(rung_spec("plan", "island_war"), "island_war", "us")
    assert (island.phases, island.turns) == (("move: destination",), 1)
