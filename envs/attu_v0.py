"""Attu for PettingZoo: ``env(**kwargs)`` (wrapped) and ``raw_env`` (see WargymAECEnv)."""

from wargym.envs.pettingzoo_env import aec_factories

env, raw_env = aec_factories("attu")
