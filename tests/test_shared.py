"""The shared engine pieces: hex grid, batched dice, data validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, strategies as st
from pydantic import BaseModel

from wargym.data import DataError, load_yaml, validate
from wargym.hexgrid import NE, NW, S, SE, SW, N, HexGrid, opposite
from wargym.rng import draw, entropy_keys, game_keys, roll_numpy, siphash24

GRID = HexGrid(10, 8)


def test_hex_numbers_round_trip():
    for h in range(GRID.size):
        assert GRID.index(GRID.number(h)) == h
    assert GRID.label(GRID.index(307)) == "0307"
    with pytest.raises(KeyError, match="1109"):
        GRID.index(1109)


def test_even_columns_sit_half_a_hex_lower():
    """0201 lies between 0101 and 0102: it is SE of 0101 and NE of 0102."""
    i = GRID.index
    assert GRID.neighbours[i(101), SE] == i(201)
    assert GRID.neighbours[i(102), NE] == i(201)
    assert GRID.neighbours[i(201), NW] == i(101)
    assert GRID.neighbours[i(201), SW] == i(102)
    assert GRID.neighbours[i(101), N] == -1


def test_neighbours_are_symmetric_and_distance_one():
    nb = GRID.neighbours
    for h in range(GRID.size):
        for d in range(6):
            n = nb[h, d]
            if n >= 0:
                assert nb[n, opposite(d)] == h
                assert GRID.distance[h, n] == 1


@given(a=st.integers(0, GRID.size - 1), b=st.integers(0, GRID.size - 1), c=st.integers(0, GRID.size - 1))
def test_distance_is_a_metric(a, b, c):
    d = GRID.distance
    assert d[a, b] == d[b, a]
    assert (d[a, b] == 0) == (a == b)
    assert d[a, c] <= d[a, b] + d[b, c]


def test_distance_counts_target_not_origin():
    """8.12: 0101 to 0104 is three hexes (0102, 0103, 0104)."""
    assert GRID.distance[GRID.index(101), GRID.index(104)] == 3
    assert GRID.distance[GRID.index(101), GRID.index(401)] == 3


def test_hex_line_is_contiguous_and_ends_at_both_hexes():
    for a, b in ((101, 808), (305, 1001), (501, 508)):
        line = GRID.hex_line(GRID.index(a), GRID.index(b))
        assert line[0] == GRID.index(a) and line[-1] == GRID.index(b)
        assert len(line) == GRID.distance[GRID.index(a), GRID.index(b)] + 1
        assert all(GRID.distance[x, y] == 1 for x, y in zip(line, line[1:]))


def test_dice_depend_only_on_game_key_and_counter():
    keys = game_keys(3, 5)
    assert np.array_equal(game_keys(3, 1), keys[:1])
    counters = np.zeros(5, dtype=np.uint32)
    rolls = [draw(keys, counters, g, 6) for g in range(5)]
    again, _ = roll_numpy(keys, np.zeros(5, dtype=np.uint32), 6)
    assert rolls == again.tolist()
    assert (counters == 1).all()


def test_dice_are_uniform():
    keys = game_keys(0, 1)
    counters = np.zeros(1, dtype=np.uint32)
    rolls = np.array([draw(keys, counters, 0, 6) for _ in range(60_000)])
    counts = np.bincount(rolls, minlength=7)[1:]
    assert rolls.min() == 1 and rolls.max() == 6
    assert np.abs(counts - 10_000).max() < 400  # ~4 sigma


MASK64 = 2**64 - 1


def _splitmix64(x: int) -> int:
    """SplitMix64 (Steele, Lea and Flood 2014) in plain Python integers, the reference."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def test_a_seeded_games_dice_are_splitmix64_of_its_key_and_counter_as_before():
    """A seeded game's key is (SeedSequence([seed, i]), 0): its dice are those of the one-word
    key that records of format 2 held, so seeded games play as they always did."""
    keys = game_keys(3, 2)
    assert (keys[:, 1] == 0).all()
    assert keys[0, 0] == np.random.SeedSequence([3, 0]).generate_state(1, np.uint64)[0]
    counters = np.zeros(2, dtype=np.uint32)
    for c in range(50):
        want = _splitmix64(int(keys[1, 0]) ^ ((c * 0xD1B54A32D192ED03) & MASK64)) % 6 + 1
        assert draw(keys, counters, 1, 6) == want


def test_siphash_2_4_gives_the_reference_vector():
    """Aumasson and Bernstein's test vector: key 00 01 .. 0f, message 00 01 .. 07 (8 bytes)."""
    key = bytes(range(16))
    k0, k1 = (int.from_bytes(key[i:i + 8], "little") for i in (0, 8))
    m = int.from_bytes(bytes(range(8)), "little")
    assert int(siphash24(np.uint64(k0), np.uint64(k1), np.uint64(m))) == 0x93F5F5799A932462


def test_an_entropy_keyed_game_draws_siphash_of_its_counter():
    keys = entropy_keys(3)
    counters = np.zeros(3, dtype=np.uint32)
    for c in range(20):
        want = int(siphash24(keys[2, 0], keys[2, 1], np.uint64(c))) % 20 + 1
        assert draw(keys, counters, 2, 20) == want
    again, _ = roll_numpy(keys, np.zeros(3, dtype=np.uint32), 20)
    assert again[2] == int(siphash24(keys[2, 0], keys[2, 1], np.uint64(0))) % 20 + 1


def test_entropy_keys_have_128_random_bits():
    """Every one of the 128 bits takes both values over 2,000 keys (a bit stuck at 0 or 1 would
    do so with probability 2**-1999), the second word is never 0 (it selects SipHash) and no two
    keys are alike."""
    keys = entropy_keys(2000)
    assert keys.shape == (2000, 2) and keys.dtype == np.uint64 and (keys[:, 1] != 0).all()
    bits = np.unpackbits(keys.view(np.uint8), axis=1)
    assert bits.shape[1] == 128 and bits.any(axis=0).all() and (~bits.astype(bool)).any(axis=0).all()
    assert len({tuple(k) for k in keys.tolist()}) == 2000


def test_negative_seed_rejected():
    with pytest.raises(ValueError, match="seed"):
        game_keys(-1, 2)


class _Model(BaseModel):
    name: str
    count: int


def test_data_error_names_file_key_value_rule(tmp_path):
    with pytest.raises(DataError) as err:
        validate(_Model, {"name": "x", "count": "many"}, tmp_path / "f.yaml", {"count": "9.9"})
    msg = str(err.value)
    assert "f.yaml" in msg and "count" in msg and "'many'" in msg and "rule 9.9" in msg


def test_bad_yaml_and_missing_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\n")
    with pytest.raises(DataError, match="not valid YAML"):
        load_yaml(bad)
    with pytest.raises(DataError, match="file not found"):
        load_yaml(tmp_path / "none.yaml")


def test_every_source_and_data_folder_ships_in_the_wheel():
    """setup.py ships every folder with an __init__.py and its data (a folder without one installs
    nothing: CI once had no module named 'wargym.attu'), so every folder holding code or data must
    be a package that setup.py finds."""
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("setup_script", root / "setup.py")
    setup = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup)
    wanted = set()
    for package, top in setup.FOLDERS.items():
        for folder in [root / top, *sorted(p for p in (root / top).rglob("*") if p.is_dir())]:
            files = [f for f in folder.iterdir() if f.suffix in (".py", ".yaml", ".md", ".json")]
            if folder.name != "__pycache__" and files:
                wanted.add(".".join([package, *folder.relative_to(root / top).parts]))
    assert sorted(wanted - set(setup.packages())) == []
    assert {"*.md", "*.yaml", "*.json"} <= set(setup.DATA)


def test_a_format_2_record_reads_as_its_key_and_a_zero_word():
    """Records of format 2 (before entropy keys) held a one-word rng_key: read as (key, 0), the
    same game with the same dice."""
    from wargym import make_core

    core = make_core("island_war", scenario="bloody_ridge")
    state = core.init(1, 5)
    record = core.to_dict(state, 0)
    assert record["format"] == 3 and record["fields"]["rng_key"]["value"][1] == 0
    old = {**record, "format": 2,
           "fields": {**record["fields"], "rng_key": {"dtype": "uint64", "value": record["fields"]["rng_key"]["value"][0]}}}
    restored = core.from_dict(old)
    assert all(np.array_equal(getattr(restored, k), v) for k, v in state.arrays().items())
