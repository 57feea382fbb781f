"""The strength ladder: named rungs of play, weakest first, for solitaire players and tournaments.

    random       uniform over the legal actions
    rule         the ruleset's rule-based baseline for the side
    plan-quick   the planner (wargym.agents.planner), 16 playouts a decision
    plan         64 playouts a decision
    plan-deep    256 playouts a decision, at most about a second of thought

``wargym play --strength NAME`` and ``wargym serve --strength NAME`` seat the rung's agent;
configs/tournament/ladder_<ruleset>.yaml plays the rungs (and a ruleset's trained policies) against
each other, and docs/ladder.md gives each rung's Elo.
"""

from __future__ import annotations

RUNGS = {
    "random": "random",
    "rule": "rule",
    "plan-quick": "plan:budget=16,top=4",
    "plan": "plan:budget=64,top=4",
    "plan-deep": "plan:budget=256,top=6,seconds=1",
}


def rung_spec(name: str) -> str:
    """The agent spec of the rung ``name``."""
    if name not in RUNGS:
        raise ValueError(f"no strength {name!r}; the rungs, weakest first: {', '.join(RUNGS)}")
    return RUNGS[name]


def with_strength(spec, strength: str | None, option: str):
    """``spec`` (an agent option's value), or the rung ``strength`` names when one is given; both
    given is an error naming ``option``."""
    from wargym.agents.base import is_given

    if strength is None:
        return spec
    if is_given(spec):
        raise ValueError(f"give {option} or --strength, not both ({option} {spec}, --strength {strength})")
    return rung_spec(strength)
