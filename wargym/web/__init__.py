"""The browser page (``wargym web``): the server (server.py, needs the ``web`` extra), the film of a
replay (film.py) and the rulesets' ``web`` modules, found by ``web_module``."""

from __future__ import annotations

from importlib import import_module


def web_module(ruleset: str):
    """The ruleset's ``web`` module (board and scene as data), or None where it has none yet."""
    from wargym.registry import get

    try:
        return import_module(f"{get(ruleset).package}.web")
    except ModuleNotFoundError:
        return None
