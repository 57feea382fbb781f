"""Which packages and data the wheel ships: found, not listed.

Every folder with an ``__init__.py`` under wargym/, envs/, agents/ and configs/ is a package
(envs/, agents/ and configs/ install as wargym.envs, wargym.agents and wargym.configs, the design
card's top level), and every package ships its ``*.md``, ``*.yaml`` and ``*.json`` files (and the
web page's ``*.js``, ``*.html`` and ``*.css``).  So a new
ruleset's package (wargym/<ruleset>/) and data (configs/<ruleset>/) ship by existing;
tests/test_registry.py checks that for every registered ruleset.  The project's metadata is in
pyproject.toml.
"""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
FOLDERS = {"wargym": "wargym", "wargym.envs": "envs", "wargym.agents": "agents", "wargym.configs": "configs"}
DATA = ["*.md", "*.yaml", "*.json", "*.js", "*.html", "*.css"]  # the last three: the web page (wargym/web/static)


def packages() -> list[str]:
    """The dotted names of every package the folders hold."""
    found = []
    for package, folder in FOLDERS.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            parts = init.parent.relative_to(ROOT / folder).parts
            if any(part.startswith((".", "_")) for part in parts):
                continue
            found.append(".".join((package, *parts)))
    return found


if __name__ == "__main__":
    names = packages()
    setup(packages=names, package_dir=dict(FOLDERS), package_data={name: DATA for name in names})
