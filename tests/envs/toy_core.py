"""A tiny complete ruleset for testing the front doors: Hex Dash.

Map: 5 columns x 4 rows (``HexGrid(5, 4)``, hexes 0101..0504).  Scenario "duel": red (two units
in column 1) and blue (two units in column 5) race to the far column; scenario "solo": red alone,
its moves through the swamp succeed on a die roll of 3+; scenario "secret": the duel with each
unit's hidden power (0-2, drawn at the start, seen by nobody: hidden information for the
contract's leak test).

Sequence of play (multi-decision turns, the non-phasing player answers attacks):

    SELECT  phasing player: pick an unmoved own unit (its hex) or end the turn
    MOVE    phasing player: pick an adjacent hex not holding an own unit, or hold
            (into an enemy unit: an attack, the defender answers)
    DEFEND  defender: "defend" (die roll + attacker's power - defender's power, 4+ the attacker
            wins and the defender is eliminated, else the attacker is eliminated) or "yield" (the
            units swap hexes)

Victory: a unit in the player's goal column wins; losing all units loses.  After turn
``TURN_LIMIT`` the duel is a draw and the solo game a loss.

Actions::

    0 .. 19   hex pointer (dense index of HexGrid)
    20        END   end the turn (SELECT) / hold (MOVE)
    21        DEFEND
    22        YIELD

Observation: spatial float32[4, rows, cols] planes (own units, enemy units, own goal column,
selected unit/attack target) and global float32[6] (phase one-hot, my decision, turn fraction,
am I phasing).  Importing this module registers the ruleset "toy" (wargym.registry: its ids
"wargym/Toy-v0" and module wargym.envs.toy_v0) and its "rule" baselines.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from wargym.agents import baselines
from wargym.core import BaseCore, BaseState
from wargym.hexgrid import HexGrid
from wargym.hidden import EVERYONE, Secret
from wargym.registry import Ruleset, register
from wargym.rng import roll_batch, roll_numpy
from wargym.schema import var

GRID = HexGrid(columns=5, rows=4)
H = GRID.size
END, DEFEND, YIELD = H, H + 1, H + 2
NUM_ACTIONS = H + 3
SELECT, MOVE, DEFEND_PHASE = 0, 1, 2
TURN_LIMIT = 8
UNITS = 2
COLUMN = GRID.plane_col.astype(np.int64)
NEIGHBOURS = GRID.neighbours.astype(np.int64)


@dataclass(frozen=True)
class ToyScenario:
    name: str
    title: str
    facts: str
    grid: HexGrid = GRID


SCENARIOS = {
    "duel": ToyScenario("duel", "Hex Dash: the duel", "red and blue, two units each"),
    "solo": ToyScenario("solo", "Hex Dash: solo", "red alone, through the swamp"),
    "secret": ToyScenario("secret", "Hex Dash: secret powers", "the duel with hidden unit powers"),
}
POWERS = (0, 1, 2)


@dataclass(frozen=True)
class ToyState(BaseState):
    phasing: np.ndarray = var("int8", low=0, high="P-1")                       # whose turn it is
    unit_hex: np.ndarray = var("int8", ("P", UNITS), low=-1, high=H - 1)       # -1 = eliminated
    moved: np.ndarray = var("bool", ("P", UNITS))
    selected: np.ndarray = var("int8", init=-1, low=-1, high=UNITS - 1)       # the unit being moved
    target: np.ndarray = var("int8", init=-1, low=-1, high=H - 1)             # the hex attacked
    power: np.ndarray = var("int8", ("P", UNITS), low=0, high=2)              # hidden (scenario "secret")


def _not_the_owner(core, state, viewer: int) -> np.ndarray:
    """bool[B, P, U]: the power of every unit but the viewer's own."""
    return np.broadcast_to((np.arange(len(core.players)) != viewer)[None, :, None], state.power.shape)


class ToyCore(BaseCore):
    name = "toy"
    state_class = ToyState
    phase_names = ("select", "move", "defend")
    hidden = (Secret("power", EVERYONE, when=_not_the_owner, values=lambda core: np.array(POWERS)),)

    def __init__(self, scenario: str | None = None, decisions: str | None = None):
        scenario = scenario or "duel"
        if scenario not in SCENARIOS:
            raise ValueError(f"toy scenarios are {sorted(SCENARIOS)}, got {scenario!r}")
        self.scenario = SCENARIOS[scenario]
        self.players = ("red",) if scenario == "solo" else ("red", "blue")
        self.num_actions = NUM_ACTIONS
        self.goal_column = np.array([GRID.columns - 1, 0][: len(self.players)])

    @classmethod
    def scenario_names(cls) -> list[str]:
        return list(SCENARIOS)

    @classmethod
    def load_scenario(cls, name: str) -> ToyScenario:
        return SCENARIOS[name]

    @property
    def observation_shapes(self) -> dict[str, tuple[int, ...]]:
        return {"spatial": (4, GRID.rows, GRID.columns), "global": (6,)}

    observation_bounds = {"spatial": (0.0, 1.0), "global": (0.0, 2.0)}

    # -- rules -----------------------------------------------------------------------------------
    def _init(self, keys: np.ndarray) -> ToyState:
        b, p = len(keys), len(self.players)
        start = np.array([[GRID.index(102), GRID.index(103)], [GRID.index(502), GRID.index(503)]])[:p]
        state = self.blank(keys, unit_hex=np.broadcast_to(start, (b, p, UNITS)))
        if self.scenario.name == "secret":  # the powers: the first dice of each game
            powers = np.empty((b, p * UNITS), np.int8)
            counter = state.rng_counter
            for i in range(p * UNITS):
                rolls, counter = roll_numpy(state.rng_key, counter, len(POWERS))
                powers[:, i] = rolls - 1
            state = dataclasses.replace(state, power=powers.reshape(b, p, UNITS), rng_counter=counter)
        return self.refresh(state)

    def _dims(self) -> dict[str, int]:
        return {}

    def _step(self, state: ToyState, actions: np.ndarray) -> ToyState:
        b, p = state.batch_size, len(self.players)
        games = np.arange(b)
        a = actions
        phase, phasing = state.phase.copy(), state.phasing.astype(np.int64)
        unit_hex, moved = state.unit_hex.astype(np.int64), state.moved.copy()
        selected, target, turn = state.selected.astype(np.int64), state.target.astype(np.int64), state.turn.copy()
        own = unit_hex[games, phasing]                             # [B, U]
        enemy = unit_hex[games, (phasing + 1) % p]

        # SELECT: end the turn, or pick a unit
        end = (a >= 0) & (phase == SELECT) & (a == END)
        moved[end] = False
        phasing = np.where(end, (phasing + 1) % p, phasing)
        turn = np.where(end & (phasing == 0), turn + 1, turn).astype(np.int16)
        pick = (a >= 0) & (phase == SELECT) & (a < H)
        selected = np.where(pick, np.argmax(own == a[:, None], axis=1), selected)
        phase = np.where(pick, MOVE, phase)

        # MOVE: hold, move, or attack
        slot = np.clip(selected, 0, UNITS - 1)
        moving = (a >= 0) & (state.phase == MOVE)
        moved[games[moving], phasing[moving], slot[moving]] = True
        go = moving & (a < H)
        attack = go & (p > 1) & (enemy == a[:, None]).any(axis=1)
        step_in = go & ~attack
        answer = (a >= 0) & (state.phase == DEFEND_PHASE)
        rolled = (step_in if self.scenario.name == "solo" else np.zeros(b, bool)) | (answer & (a == DEFEND))
        rolls, after_roll = roll_batch(state, 6, rolled)
        if self.scenario.name == "solo":  # the swamp: a move succeeds on 3+
            step_in &= rolls >= 3
        unit_hex[games[step_in], phasing[step_in], slot[step_in]] = a[step_in]
        target = np.where(attack, a, target)
        phase = np.where(moving & ~attack, SELECT, np.where(attack, DEFEND_PHASE, phase))
        selected = np.where(moving & ~attack, -1, selected)

        # DEFEND: the defender answers the attack
        d_slot = np.argmax(enemy == target[:, None], axis=1)
        origin = own[games, slot]
        other = (phasing + 1) % p
        fight = rolls + state.power[games, phasing, slot] - state.power[games, other, d_slot]
        attacker_wins = answer & (((a == DEFEND) & (fight >= 4)) | (a == YIELD))
        attacker_dies = answer & (a == DEFEND) & (fight < 4)
        unit_hex[games[attacker_wins], phasing[attacker_wins], slot[attacker_wins]] = target[attacker_wins]
        swap = answer & (a == YIELD)
        unit_hex[games[swap], other[swap], d_slot[swap]] = origin[swap]
        beaten = attacker_wins & ~swap
        unit_hex[games[beaten], other[beaten], d_slot[beaten]] = -1
        unit_hex[games[attacker_dies], phasing[attacker_dies], slot[attacker_dies]] = -1
        phase = np.where(answer, SELECT, phase)
        selected = np.where(answer, -1, selected)
        target = np.where(answer, -1, target)

        # victory
        alive = (unit_hex >= 0).any(axis=2)                                        # [B, P]
        col = np.where(unit_hex >= 0, COLUMN[np.clip(unit_hex, 0, H - 1)], -1)
        reached = (col == self.goal_column[None, :, None]).any(axis=2)
        wins = reached | (~alive[:, ::-1] if p > 1 else np.zeros_like(reached))
        over_time = turn > TURN_LIMIT
        if p == 1:
            loses = over_time[:, None] & ~wins
        else:
            loses = wins[:, ::-1] & ~wins
        finished = (a >= 0) & (wins.any(axis=1) | loses.any(axis=1) | over_time)
        rewards = np.where(finished[:, None], wins.astype(np.float32) - loses.astype(np.float32), state.rewards)

        current = np.where(phase == DEFEND_PHASE, (phasing + 1) % p, phasing)
        new = dataclasses.replace(
            state, phase=phase.astype(np.int8), phasing=phasing.astype(np.int8), unit_hex=unit_hex.astype(np.int8),
            moved=moved, selected=selected.astype(np.int8), target=target.astype(np.int8), turn=turn,
            current_player=current.astype(np.int8), terminated=state.terminated | finished,
            rewards=rewards.astype(np.float32), **after_roll)
        stepped = a >= 0
        new = dataclasses.replace(new, **{f.name: np.where(stepped.reshape((-1,) + (1,) * (getattr(new, f.name).ndim - 1)),
                                                           getattr(new, f.name), getattr(state, f.name))
                                          for f in dataclasses.fields(new)})
        return self.refresh(new)

    def _legal(self, state: ToyState) -> tuple[np.ndarray, np.ndarray]:
        b = state.batch_size
        games = np.arange(b)
        mask = np.zeros((b, NUM_ACTIONS), bool)
        phasing = state.phasing.astype(np.int64)
        own = state.unit_hex[games, phasing].astype(np.int64)
        ready = (own >= 0) & ~state.moved[games, phasing]
        select, move = state.phase == SELECT, state.phase == MOVE
        for u in range(UNITS):
            ok = select & ready[:, u]
            mask[games[ok], own[ok, u]] = True
        mask[select, END] = True
        here = own[games, np.clip(state.selected, 0, UNITS - 1)]
        for d in range(6):
            nb = NEIGHBOURS[np.clip(here, 0, H - 1), d]
            ok = move & (nb >= 0) & ~(own == nb[:, None]).any(axis=1)
            mask[games[ok], nb[ok]] = True
        mask[move, END] = True
        defend = state.phase == DEFEND_PHASE
        mask[defend, DEFEND] = mask[defend, YIELD] = True
        mask[state.terminated | state.truncated] = False
        current = np.where(state.phase == DEFEND_PHASE, (phasing + 1) % len(self.players), phasing)
        return mask, current.astype(np.int8)

    def _observe(self, state: ToyState, player: int) -> dict[str, np.ndarray]:
        b, p = state.batch_size, len(self.players)
        games = np.arange(b)
        spatial = np.zeros((b, 4, GRID.rows, GRID.columns), np.float32)
        for q in range(p):
            plane = 0 if q == player else 1
            for u in range(UNITS):
                h = state.unit_hex[:, q, u].astype(np.int64)
                on = h >= 0
                spatial[games[on], plane, GRID.plane_row[h[on]], GRID.plane_col[h[on]]] = 1.0
        spatial[:, 2, :, self.goal_column[player]] = 1.0
        sel = state.unit_hex[games, state.phasing, np.clip(state.selected, 0, UNITS - 1)].astype(np.int64)
        mark = np.where(state.target >= 0, state.target, np.where(state.selected >= 0, sel, -1)).astype(np.int64)
        on = mark >= 0
        spatial[games[on], 3, GRID.plane_row[mark[on]], GRID.plane_col[mark[on]]] = 1.0
        glob = np.zeros((b, 6), np.float32)
        glob[games, state.phase.astype(np.int64)] = 1.0
        glob[:, 3] = state.current_player == player
        glob[:, 4] = state.turn / TURN_LIMIT
        glob[:, 5] = state.phasing == player
        return {"spatial": spatial, "global": glob}

    def _describe(self, action: int, state: ToyState | None, game: int, viewer: int | None) -> str:
        if 0 <= action < H:
            return f"hex {GRID.label(action)}"
        return {END: "end turn / hold", DEFEND: "defend", YIELD: "yield"}.get(action, f"unknown action {action}")

    # -- rendering -------------------------------------------------------------------------------
    def _board(self, state: ToyState, game: int) -> np.ndarray:
        board = np.full((GRID.rows, GRID.columns), ".", dtype="<U1")
        for q, letter in enumerate("RB"[: len(self.players)]):
            for h in state.unit_hex[game, q]:
                if h >= 0:
                    board[GRID.plane_row[h], GRID.plane_col[h]] = letter
        return board

    def _render_ansi(self, state: ToyState, game: int, viewer: int | None) -> str:
        head = (f"turn {state.turn[game]} phase {int(state.phase[game])} "
                f"to move: {self.players[state.current_player[game]]}")
        return "\n".join([head] + [" ".join(row) for row in self._board(state, game)]) + "\n"

    def _render_rgb(self, state: ToyState, game: int, viewer: int | None) -> np.ndarray:
        colours = {".": (200, 200, 160), "R": (200, 40, 40), "B": (40, 40, 200)}
        board = self._board(state, game)
        image = np.array([[colours[c] for c in row] for row in board], dtype=np.uint8)
        return np.kron(image, np.ones((8, 8, 1), np.uint8))


# a goal-seeking baseline: move toward the goal column, pick units before ending, always defend
def _scores(goal_column: int) -> np.ndarray:
    toward = -np.abs(COLUMN - goal_column).astype(np.float64)
    return np.concatenate([toward, [-100.0, 100.0, -50.0]])  # END last resort, DEFEND over YIELD


class ToyRuleAgent:
    def act(self, core: ToyCore, state: ToyState, player: int) -> np.ndarray:
        scores = np.where(core.legal_mask(state), _scores(int(core.goal_column[player]))[None, :], -np.inf)
        return np.argmax(scores, axis=1).astype(np.int64)


baselines.register("toy", "red")(ToyRuleAgent)
baselines.register("toy", "blue")(ToyRuleAgent)


register(Ruleset("toy", title="Hex Dash (a test ruleset)", core="toy_core:ToyCore", env_name="Toy",
                 default_scenario="duel", baselines="toy_core",
                 contract=({}, {"scenario": "solo"}, {"side": "blue", "opponent": "random"},
                           {"scenario": "secret", "side": "blue"}),
                 factory=ToyCore))
