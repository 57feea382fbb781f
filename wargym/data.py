"""Loading and validating the data files under configs/.

Every file is YAML, validated with a pydantic model.  A bad file raises ``DataError`` naming the
file, the key path, the offending value and the rule it breaks, e.g.::

    DataError: configs/island_war/saipan.yaml: units[3].setup = '9999': hex not on the map (rule 3.0)

Data ships inside the wheel as the package ``wargym.configs``; ``config_path`` finds a file there,
so nothing depends on the repository checkout.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class DataError(ValueError):
    """A data file that breaks a rule: file, key, value, rule."""

    def __init__(self, file: str | Path, key: str, value: Any, rule: str, message: str = ""):
        self.file, self.key, self.value, self.rule = str(file), key, value, rule
        text = f"{file}: {key} = {value!r}: {message or 'invalid'}"
        if rule:
            text += f" (rule {rule})"
        super().__init__(text)


def config_path(*parts: str) -> Path:
    """Path of a shipped data file, e.g. ``config_path("island_war", "saipan.yaml")``."""
    return Path(str(resources.files("wargym.configs").joinpath(*parts)))


def load_yaml(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError(path, "<file>", str(path), "", "file not found") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise DataError(path, "<file>", getattr(exc, "problem_mark", ""), "", f"not valid YAML: {exc}") from None


def _key_path(loc: tuple) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "<root>"


def _value_at(data: Any, loc: tuple) -> Any:
    for part in loc:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return "<missing>"
    return data


def validate(model: type[M], data: Any, file: str | Path, rules: dict[str, str] | None = None) -> M:
    """``model.model_validate(data)`` with pydantic's errors turned into one ``DataError`` that
    names file, key, value and the rule the top-level key implements (``rules`` maps key -> rule)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        rule = (rules or {}).get(str(loc[0]) if loc else "", "")
        raise DataError(file, _key_path(loc), _value_at(data, loc), rule, err["msg"]) from None
