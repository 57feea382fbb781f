"""The strength ladder: named rungs of play, weakest first, for solitaire players and tournaments.

    random       uniform over the legal actions
    rule         the ruleset's rule-based baseline for the side
    plan-quick   the planner (wargym.agents.planner), 16 playouts a decision
    plan         64 playouts a decision
    plan-deep    256 playouts a decision

The planner rungs plan where the planner was measured to gain against the rule (``PLANNED``:
World at War's card to play, Island War's first-turn moves).  On Attu the gains measured are one
side's each, played out to the end (the U.S. refit decision; Japan's late decisions, from turn
14), and a rung plans the same phases and turns for both sides; on Peleliu none is significant
yet.  Their rungs plan where room was probed, with playouts cut at a horizon and scored by the
standing, so that a decision costs well under a second: Attu's fighting questions, Peleliu's
close-combat withdrawals (benchmarks/README.md, "The planner against the rule"; docs/ladder.md
rates them).
``wargym play --strength NAME`` and ``wargym serve --strength NAME`` seat the rung's agent;
configs/tournament/ladder_<ruleset>.yaml plays the rungs against each other, and docs/ladder.md
gives each rung's Elo.
"""

from __future__ import annotations

#: the agent spec of each rung
RUNGS: dict[str, str] = {
    "random": "random",
    "rule": "rule",
    "plan-quick": "plan:budget=16,top=4",
    "plan": "plan:budget=64,top=4",
    "plan-deep": "plan:budget=256,top=6",
}
#: where the planner rungs plan, per ruleset, as planner spec options (others: every decision);
#: benchmarks/README.md "The planner against the rule" measured each
PLANNED = {"world_at_war": "phases=command card: play",
           "island_war": "phases=move: destination,turns=1",
           # not "refit decision": scored 80 decisions on, a Refit Turn looks good (steps restored,
           # no casualties) and costs the U.S. the days it needs: 8 -> 0 wins of 100 (README)
           "attu": "horizon=80,phases=advance|retreat option|melee: select target|airpower: target hex"
                   "|night decision",
           "peleliu": "horizon=60,phases=close combat: withdraw"}


def rung_spec(name: str, ruleset: str | None = None) -> str:
    """The agent spec of the rung ``name`` (for ``ruleset``: its planned phases)."""
    if name not in RUNGS:
        raise ValueError(f"no strength {name!r}; the rungs, weakest first: {', '.join(RUNGS)}")
    spec = RUNGS[name]
    if spec.startswith("plan") and ruleset in PLANNED:
        spec += "," + PLANNED[ruleset]
    return spec


def with_strength(spec, strength: str | None, option: str, ruleset: str | None = None):
    """``spec`` (an agent option's value), or the rung ``strength`` names when one is given; both
    given is an error naming ``option``."""
    from wargym.agents.base import is_given

    if strength is None:
        return spec
    if is_given(spec):
        raise ValueError(f"give {option} or --strength, not both ({option} {spec}, --strength {strength})")
    return rung_spec(strength, ruleset)
