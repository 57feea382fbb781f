"""Agents for wargym games: the Agent protocol, random play and the rule-based baselines."""

from wargym.agents import baselines
from wargym.agents.base import Agent, FunctionAgent, PhaseAgent, joint_actions, make_agent, reset_agent
from wargym.agents.random_agent import RandomAgent, sample_legal

__all__ = ["Agent", "FunctionAgent", "PhaseAgent", "RandomAgent", "baselines", "joint_actions", "make_agent",
           "reset_agent", "sample_legal"]
