"""``wargym play``: a human at the terminal against any agent.

    wargym play --ruleset island_war --scenario bloody_ridge --side us --vs rule

The board is drawn as text before each of your decisions, with the numbered list of your legal
moves; type a number and Enter.  ``u`` takes back your last decision (and the opponent's replies
after it), ``b`` redraws the board, ``h`` helps, ``q`` quits.  The opponent's moves are printed as
it makes them; the game ends with a summary.

No one key ends a phase by accident: the choice that ends the phase or step ("end phase", "end")
is always listed last, and while any other move is still open (a unit that may move, an attack or
a landing not yet made) choosing it asks "Really end phase? [y/N]" and names what is left; only
``y`` ends it.

``play(...)`` takes ``input_fn`` (called with the prompt, returns the typed line) and ``out`` (a
text stream), so a test can script a game.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, TextIO

import numpy as np

KEYS = "u undo, b board, h help, q quit"

HELP = """\
How to play
  Your turn is a series of small decisions (for example: pick a unit, then the hex it moves to;
  pick an enemy unit to attack, add attackers, then confirm).  Each decision shows the board and a
  numbered list of everything the rules allow you now: type the number of your choice and press
  Enter.  "end phase" finishes the current phase; it is always the last choice, and while other
  moves are still open it asks "Really end phase? [y/N]" (y ends it; Enter or anything else keeps
  the phase going).  "cancel" drops the unit or attack being picked.  When there is only one
  choice, Enter alone takes it.

  u  undo: take back your last decision (and the opponent's moves after it); repeat to go further
  b  show the board again
  h  this help
  q  quit the game

  The key to the board's letters is printed under the map.  The opponent's moves are listed as it
  makes them.
"""


def _side(name: str) -> str:
    return name.upper() if len(name) <= 3 else name.capitalize()


class _Quit(Exception):
    pass


class TerminalGame:
    """One game between a human (``side``) and agents; the state machine behind ``play``."""

    def __init__(self, core, human: int, opponents: dict, seed: int, input_fn: Callable[[str], str], out: TextIO):
        self.core, self.human, self.opponents = core, human, opponents
        self.input_fn, self.out = input_fn, out
        self.state = core.init(1, seed)
        self.history: list[tuple[object, int]] = []  # (state at a human decision, the action taken)
        self.board_due = True

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # -- drawing -------------------------------------------------------------------------------------
    def board(self) -> None:
        self.say(self.core.render(self.state, 0, "ansi", viewer=self.human).rstrip("\n"))
        self.say()

    def where(self) -> str:
        core, state = self.core, self.state
        facts = core.summary(state, 0, viewer=self.human)
        text = f"Game-Turn {int(state.turn[0])}"
        if "phase" in facts:
            text += f", {facts['phase']}"
        return text

    def choices(self, legal: np.ndarray) -> None:
        you = _side(self.core.players[self.human])
        self.say(f"Your decision ({you}, {self.where()}):")
        width = len(str(len(legal)))
        for i, a in enumerate(legal, 1):
            self.say(f"  {i:>{width}}  {self.core.describe_action(int(a), self.state, 0)}")

    def is_end(self, action: int) -> bool:
        """Whether ``action`` ends the phase or step ("end phase", "end")."""
        return self.core.describe_action(int(action), self.state, 0).split(" ")[0] == "end"

    def ordered(self, legal: np.ndarray) -> np.ndarray:
        """The legal actions as listed: in action order, the ones that end the phase or step last
        (so that choice 1, or Enter, never ends it)."""
        ends = np.array([self.is_end(a) for a in legal], dtype=bool)
        return np.concatenate([legal[~ends], legal[ends]])

    def left_undone(self, action: int, legal: np.ndarray) -> list[str]:
        """What ending the phase or step with ``action`` would leave undone: the other legal
        choices (a cancel only drops a pick, so it is not counted); empty for any other action."""
        if not self.is_end(action):
            return []
        texts = [self.core.describe_action(int(a), self.state, 0) for a in legal if int(a) != int(action)]
        return [t for t in texts if t.split(" ")[0] not in ("end", "cancel")]

    def confirm_end(self, action: int, left: list[str]) -> bool:
        """Ask before ending the phase or step while ``left`` is still open; only y/yes ends it."""
        what = self.core.describe_action(int(action), self.state, 0)
        n = len(left)
        shown = ", ".join(left[:5]) + (f" and {n - 5} more" if n > 5 else "")
        self.say(f"'{what}' would leave {n} other choice{'s' if n != 1 else ''} unused here: {shown}.")
        try:
            answer = self.input_fn(f"Really {what}? [y/N]: ").strip().lower()
        except EOFError:
            raise _Quit from None
        if answer in ("y", "yes"):
            return True
        self.say(f"Not ended: choose a move (the last choice, '{what}', ends it).")
        return False

    # -- the loop ------------------------------------------------------------------------------------
    def over(self) -> bool:
        return bool(self.core.terminated(self.state)[0] or self.core.truncated(self.state)[0])

    def run(self) -> int:
        try:
            while not self.over():
                player = int(self.core.current_player(self.state)[0])
                if player == self.human:
                    self.human_decides()
                else:
                    self.opponent_decides(player)
        except _Quit:
            self.say(f"You quit at {self.where()}.  Goodbye.")
            return 0
        self.finish()
        return 0

    def opponent_decides(self, player: int) -> None:
        core, state = self.core, self.state
        action = int(np.asarray(self.opponents[player].act(core, state, player)).reshape(-1)[0])
        # in the human's words: what the human may know of the move (a card from a hidden hand is not named)
        self.say(f"  {_side(core.players[player])}: {core.describe_action(action, state, 0, viewer=self.human)}")
        self.advance(action)
        self.board_due = True

    def advance(self, action: int) -> None:
        """Step the game by ``action`` and tell what the rules did, as the human may read it (the
        event log: dice, results, losses, retreats, with their rules)."""
        self.state, log = self.core.step_logged(self.state, np.array([action], dtype=np.int64))
        for event in self.core.events_for(log[0], self.state, 0, viewer=self.human):
            self.say(f"      {event['text']}")

    def human_decides(self) -> None:
        legal = self.ordered(np.flatnonzero(self.core.legal_mask(self.state)[0]))
        self.say()
        self.board()
        self.choices(legal)
        n = len(legal)
        prompt = f"Your move (1-{n}" + (", Enter = 1" if n == 1 else "") + f"; {KEYS}): "
        while True:
            try:
                text = self.input_fn(prompt).strip().lower()
            except EOFError:
                raise _Quit from None
            if text in ("q", "quit", "exit"):
                raise _Quit
            if text in ("h", "help", "?"):
                self.say(HELP)
                self.choices(legal)
                continue
            if text in ("b", "board"):
                self.board()
                self.choices(legal)
                continue
            if text in ("u", "undo"):
                if self.undo():
                    return
                continue
            if text == "" and n == 1:
                text = "1"
            if text.isdigit() and 1 <= int(text) <= n:
                action = int(legal[int(text) - 1])
                left = self.left_undone(action, legal)
                if left and not self.confirm_end(action, left):
                    continue
                you = _side(self.core.players[self.human])
                self.say(f"  {you} (you): {self.core.describe_action(action, self.state, 0)}")
                self.history.append((self.state, action))
                self.advance(action)
                return
            shown = text if text else "(nothing)"
            self.say(f"'{shown}' is not a choice: type a number from 1 to {n}, or one of: {KEYS}.")

    def undo(self) -> bool:
        """Back to the human's previous decision point; False if there is none."""
        if not self.history:
            self.say("Nothing to undo: this is your first decision.")
            return False
        state, action = self.history.pop()
        self.say(f"Undone: {self.core.describe_action(action, state, 0)} (and every move after it).")
        self.state = state
        return True

    def finish(self) -> None:
        from wargym.cli import result_text

        core, state = self.core, self.state
        self.say()
        self.board()
        rewards = [float(r) for r in core.rewards(state)[0]]
        mine = rewards[self.human]
        verdict = ("You win!" if mine > 0 else "You lose." if mine < 0 else
                   "No result." if core.truncated(state)[0] else "A draw.")
        facts = core.summary(state, 0, viewer=self.human)
        result = result_text(core, state)
        if "margin" in facts:
            result += f" (victory margin {facts['margin']:+d})"
        self.say(f"Game over: {result}.  {verdict}")
        self.say(f"  game-turns played: {int(state.turn[0])}; your decisions: {len(self.history)}")
        if "eliminated" in facts:
            self.say("  units eliminated: " + ", ".join(f"{_side(s)} {n}" for s, n in facts["eliminated"].items()))
        if "objectives" in facts:
            self.say("  objectives held: " + "; ".join(
                f"{name}: {_side(owner) if owner else 'nobody'}" for name, owner in facts["objectives"].items()))


def play(ruleset: str | None = None, side: str | None = None, vs: str = "rule", scenario: str | None = None,
         seed: int = 0, decisions: str | None = None, input_fn: Callable[[str], str] = input,
         out: TextIO | None = None) -> int:
    """Play one game at the terminal as ``side`` against ``vs`` (an agent spec for every other
    side); returns 0 when the game ends or the player quits.

    ``ruleset``, ``scenario`` and ``decisions`` default to those of a trained policy ``vs`` (its
    sidecar or run.json), else island_war, its default scenario and major; such a policy plays
    the side it was trained for, and ``side`` defaults to the other one (else to the first
    player).  A value given that contradicts the policy is an error naming both."""
    from wargym.agents.base import CLI_FLAGS, Default, SettingsError, game_settings, make_agent
    from wargym.replay import make_core_for

    out = out or sys.stdout
    label = f"the opponent {vs if isinstance(vs, str) else repr(vs)}"
    game = game_settings([(label, vs)], Default("island_war") if ruleset is None else ruleset, scenario, decisions,
                         flags=CLI_FLAGS)
    ruleset, decisions = game["ruleset"], game["decisions"]
    core = make_core_for(ruleset, game["scenario"], decisions, game["options"])
    policy = game["settings"][label] or {}
    theirs = policy.get("side")
    if theirs in core.players and len(core.players) == 2:
        mine = core.players[1 - core.players.index(theirs)]
        if side is not None and side == theirs:
            raise SettingsError(f"--side {side}: {label} plays side {theirs!r} (from {policy['source']}); "
                                f"you play {mine!r}")
        side = side or mine
    side = side or core.players[0]
    if side not in core.players:
        raise ValueError(f"--side {side!r}: the players of {ruleset} are {', '.join(core.players)}")
    human = core.players.index(side)
    opponents = {p: make_agent(vs, ruleset, name, seed=seed + 1 + p)
                 for p, name in enumerate(core.players) if p != human}
    title, name = core.scenario.title, core.scenario.name
    others = ", ".join(_side(core.players[p]) for p in opponents)
    out.write(f"{ruleset} / {name}" + (f": {title}" if title else "") + f" (seed {seed}, decisions={decisions})\n")
    out.write(f"You play {_side(side)}; {others} played by '{vs}'.\n" if opponents else
              f"You play {_side(side)}; the rules themselves play the other side (a solitaire game).\n")
    out.write(f"At each decision type the number of your move; {KEYS}.\n")
    out.flush()
    _warm_up(core, opponents)
    return TerminalGame(core, human, opponents, seed, input_fn, out).run()


def _warm_up(core, opponents: dict) -> None:
    """The rules kernels compile (or load from numba's cache) before the game starts."""
    state = core.init(1, 0)
    for p, agent in opponents.items():
        agent.act(core, state, p)


# ------------------------------------------------------------------------------------------ CLI
def add_play_arguments(p: argparse.ArgumentParser) -> None:
    from wargym.agents.base import Default
    from wargym.agents.ladder import RUNGS
    from wargym.cli_types import non_negative_int
    from wargym.registry import RULESETS

    p.add_argument("--ruleset", default=Default("island_war"), choices=sorted(RULESETS),
                   help="ruleset (default: the opponent policy's, else island_war)")
    p.add_argument("--scenario", default=None, help="scenario (default: the opponent policy's, else the ruleset's "
                                                    "default)")
    p.add_argument("--side", default=None, help="the side you play, e.g. us or japan (default: the side the opponent "
                                                "policy does not play, else the first player)")
    p.add_argument("--vs", default=Default("rule"), metavar="SPEC",
                   help="your opponent: rule, random, rule:<name>, plan[:k=v,...], sb3:<path>, onnx:<path>, "
                        "py:<module>:<Name> (default rule); a policy brings its ruleset, scenario, decisions and side")
    p.add_argument("--strength", default=None, choices=list(RUNGS),
                   help="your opponent by its rung on the strength ladder, weakest first (wargym.agents.ladder; "
                        "instead of --vs)")
    p.add_argument("--seed", type=non_negative_int, default=0,
                   help="game seed (dice); the opponent is seeded from it too")
    p.add_argument("--decisions", default=Default("major"), choices=("major", "full"),
                   help="'major': minor choices (FPF, retreat routes, advances) made for you by the default "
                        "rules; 'full': you make every choice (default: the opponent policy's, else major)")


def run_play(args: argparse.Namespace) -> int:
    from wargym.cli_types import check_agent_spec

    from wargym.agents.ladder import with_strength

    vs = with_strength(args.vs, getattr(args, "strength", None), "--vs", str(args.ruleset))
    check_agent_spec(vs, "--vs")
    return play(args.ruleset, args.side, vs, args.scenario, args.seed, args.decisions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="wargym play", description="play a game at the terminal")
    add_play_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_play(args)
    except (ValueError, OSError) as err:  # OSError: a policy file that is missing (FileNotFoundError)
        print(f"wargym play: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nwargym play: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
