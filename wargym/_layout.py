"""The design card's top level read from a clone: envs/, agents/ and configs/ as wargym.*.

An install puts the three folders under wargym/ (setup.py), so ``wargym.envs`` is a subfolder
there.  A clone keeps them beside wargym/, and ``python`` started in the clone's folder imports
wargym/ from that folder (the current directory comes first on ``sys.path``), where no
``wargym/envs`` exists.  ``install`` adds a finder that maps the three names to the folders
beside wargym/ when this wargym/ is a source folder: the same files an install would ship.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from pathlib import Path

PACKAGES = ("envs", "agents", "configs")   # the top-level folders installed as wargym.<name>


class SourceTreeFinder(importlib.abc.MetaPathFinder):
    """Finds ``wargym.envs``, ``wargym.agents`` and ``wargym.configs`` in a clone's folders."""

    def __init__(self, root: Path):
        self.folders = {f"wargym.{name}": root / name for name in PACKAGES}

    def find_spec(self, fullname, path, target=None):
        folder = self.folders.get(fullname)
        if folder is None:
            return None
        return importlib.util.spec_from_file_location(fullname, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])


def install(package_dir: Path) -> bool:
    """Add the finder when ``package_dir`` (wargym/) is a source folder with the top-level
    folders beside it; True if it did."""
    root = package_dir.parent
    if (package_dir / "envs").is_dir() or not all((root / n / "__init__.py").is_file() for n in PACKAGES):
        return False
    if not any(isinstance(f, SourceTreeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceTreeFinder(root))  # before an editable install's finder of another checkout
    return True
