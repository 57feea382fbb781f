"""``wargym play`` scripted: a human's moves, help, bad input, undo, board, quit, and a game to its
end (Bloody Ridge, decisions="major")."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from wargym.agents.play import add_play_arguments, play

CHOICE = re.compile(r"^\s+(\d+)  (.*)$", re.M)


class Script:
    """An input_fn answering from a list (or a function of the screen); prompts are written to out."""

    def __init__(self, answers):
        self.answers = answers if callable(answers) else iter(answers)
        self.out = io.StringIO()
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.out.write(prompt + "\n")
        if callable(self.answers):
            return self.answers(self.out.getvalue())
        return next(self.answers)

    def decisions(self) -> list[str]:
        """Each 'Your decision' block shown (header and numbered moves), in order."""
        return ["Your decision" + block.split("Your move")[0]
                for block in self.out.getvalue().split("Your decision")[1:]]


def run(answers, side="us", vs="rule", seed=0) -> tuple[int, Script]:
    script = Script(answers)
    code = play("island_war", side, vs, "bloody_ridge", seed, "major", input_fn=script, out=script.out)
    return code, script


def test_moves_help_bad_input_undo_board_and_quit():
    code, script = run(["h", "zz", "999", "", "1", "1", "u", "b", "2", "u", "u", "u", "q"])
    text = script.out.getvalue()
    assert code == 0
    assert text.startswith("island_war / bloody_ridge: Bloody Ridge")
    assert "You play US; Japan played by 'rule'." in text
    # Japan moves first: its moves are printed before the first board
    first_board = text.index("(viewed by US)")
    assert "  Japan: select " in text[:first_board] and "  Japan: move to " in text[:first_board]
    assert "Terrain: C clear" in text and "Game-Turn 1 of 7" in text
    assert "How to play" in text and "u  undo" in text
    assert "'zz' is not a choice: type a number from 1 to" in text
    assert "'999' is not a choice" in text and "'(nothing)' is not a choice" in text
    blocks = script.decisions()
    first = blocks[0]
    assert "Your decision (US, Game-Turn 1, move: select unit):" in first
    moves = dict(CHOICE.findall(first))
    assert moves["1"].startswith("select ") and moves[str(len(moves))] == "end phase"
    # '1' selects a unit, '1' moves it; 'u' goes back to the destination choice, '2' moves it elsewhere
    assert f"  US (you): {moves['1']}" in text
    undone = text.split("Undone: ")
    assert len(undone) == 4 and undone[1].startswith("move to ")
    assert undone[2].startswith("move to ") and undone[3].startswith(moves["1"])
    assert "Nothing to undo: this is your first decision." in text
    # after undoing everything the first decision is shown again, the same
    assert blocks[-1] == first
    assert text.rstrip().endswith("You quit at Game-Turn 1, move: select unit.  Goodbye.")
    assert all(p.startswith("Your move (1-") and "u undo, b board, h help, q quit" in p for p in script.prompts)


def test_undo_restores_the_decision_and_the_board():
    code, script = run(["1", "u", "q"])
    blocks = script.decisions()
    assert code == 0 and blocks[0] == blocks[-1] and len(blocks) == 3
    boards = script.out.getvalue().split("(viewed by US)")
    assert boards[1].split("Your decision")[0] == boards[-1].split("Your decision")[0]


def end_phase_or_confirm(screen: str) -> str:
    """A lazy human: ends every phase (saying yes when asked whether to leave moves undone),
    confirms what must be confirmed."""
    if screen.rstrip().endswith("[y/N]:"):
        return "y"
    moves = CHOICE.findall(screen.split("Your decision")[-1])
    for want in ("end phase", "confirm"):
        for number, text in moves:
            if text.startswith(want):
                return number
    return "1"


@pytest.mark.parametrize("side", ["us", "japan"])
def test_a_game_to_its_end_prints_a_summary(side):
    code, script = run(end_phase_or_confirm, side=side, vs="rule")
    text = script.out.getvalue()
    assert code == 0 and "Game over: " in text
    summary = text.split("Game over: ")[-1]
    assert re.match(r"(US wins|Japan wins|draw|stopped at the decision limit).* "
                    r"(You win!|You lose\.|A draw\.|No result\.)", summary)
    assert "game-turns played: " in summary and "units eliminated: US " in summary and "objectives held: " in summary
    # what the rules did is told after each move: the combats (7.6) and what followed them
    assert re.search(r"^      combat at \d{4}: differential -?\d+, column .+ on the .+ line, die [1-6]: \w+ \(7\.6\)$",
                     text, re.M)


def test_play_arguments_and_a_piped_game(tmp_path):
    import argparse

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    args = parser.parse_args(["--scenario", "bloody_ridge", "--side", "japan", "--vs", "random"])
    parsed = (args.ruleset, args.side, args.vs, args.seed, args.decisions)
    assert parsed == ("island_war", "japan", "random", 0, "major")
    # input from a pipe; the end of the input quits
    done = subprocess.run([sys.executable, "-c", "from wargym.agents.play import main; raise SystemExit(main())",
                           "--scenario", "bloody_ridge", "--side", "japan", "--vs", "random"],
                          cwd=tmp_path, input="1\nnonsense\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Your decision (Japan, Game-Turn 1, move: select unit):" in done.stdout
    assert "  Japan (you): select " in done.stdout and "'nonsense' is not a choice" in done.stdout
    assert "You quit at" in done.stdout
    bad = subprocess.run([sys.executable, "-c", "from wargym.agents.play import main; raise SystemExit(main())",
                          "--scenario", "bloody_ridge", "--side", "germany"],
                         cwd=tmp_path, input="", capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and "the players of island_war are us, japan" in bad.stderr


def scripted(*answers: str):
    """Answers for ``run``, with "END" standing for the number of the last choice shown."""
    remaining = iter(answers)

    def answer(screen: str) -> str:
        text = next(remaining)
        if text == "END":
            return CHOICE.findall(screen.split("Your decision")[-1])[-1][0]
        return text

    return answer


def test_choice_1_and_enter_never_end_the_phase_and_ending_early_asks():
    code, script = run(scripted("END", "", "END", "n", "1", "q"))
    text = script.out.getvalue()
    first = dict(CHOICE.findall(script.decisions()[0]))
    assert code == 0 and len(first) > 2
    assert first[str(len(first))] == "end phase" and not first["1"].startswith("end")
    # 'end phase' with units still to move asks, names what is left, and Enter or 'n' keep the phase
    others = len(first) - 1
    assert text.count(f"'end phase' would leave {others} other choices unused here: {first['1']}, ") == 2
    asked = [p for p in script.prompts if p == "Really end phase? [y/N]: "]
    assert len(asked) == 2 and text.count("Not ended: choose a move") == 2
    assert "US (you): end phase" not in text
    # then '1' takes the first move, which is not the end of the phase
    assert f"  US (you): {first['1']}" in text


def test_confirming_the_end_of_the_phase_ends_it():
    code, script = run(scripted("END", "y", "q"))
    text = script.out.getvalue()
    assert code == 0 and "Really end phase? [y/N]: " in script.prompts
    assert "  US (you): end phase" in text and "Not ended" not in text
    blocks = script.decisions()
    assert len(blocks) == 1 or blocks[1].splitlines()[0] != blocks[0].splitlines()[0]


def test_attu_lists_end_last_and_asks_before_skipping_the_landings():
    def answer(screen: str) -> str:
        """'1' until a decision offers 'end' among other moves; then 'end', Enter at the question, quit."""
        if screen.rstrip().endswith("[y/N]:"):
            return ""
        block = screen.split("Your decision")[-1]
        moves = CHOICE.findall(block)
        if "Not ended" in block:
            return "q"
        return moves[-1][0] if len(moves) > 1 and any(t == "end" for _, t in moves) else "1"

    script = Script(answer)
    code = play("attu", "us", "rule", "campaign", 0, "major", input_fn=script, out=script.out)
    text = script.out.getvalue()
    offered = [CHOICE.findall(block) for block in script.decisions()]
    assert code == 0 and all(moves[0][1] != "end" for moves in offered)  # choice 1 never ends a step
    moves = next(moves for moves in offered if any(t == "end" for _, t in moves))
    assert len(moves) > 1 and moves[-1][1] == "end"
    assert f"'end' would leave {len(moves) - 1} other choice" in text and f": {moves[0][1]}" in text
    assert "Really end? [y/N]: " in script.prompts and "Not ended" in text
    assert "US (you): end" not in text and text.rstrip().endswith("Goodbye.")


def test_the_text_board_shows_the_hex_id_beside_each_unit():
    from wargym.agents.play import TerminalGame
    from wargym.island_war.render import unit_short
    from wargym.replay import make_core_for

    for scenario in ("bloody_ridge", "saipan"):
        core = make_core_for("island_war", scenario, "major")
        out = io.StringIO()
        game = TerminalGame(core, 0, {}, 0, input, out)
        game.board()
        board, sc, state = out.getvalue(), core.scenario, game.state
        on_map = [int(u) for u in (state.unit_status[0] == 1).nonzero()[0]]
        assert len(on_map) > 4
        for u in on_map:  # each unit's hex id and counter side by side, e.g. "0712 J4-5"
            assert f"{sc.grid.label(int(state.unit_hex[0, u]))} {unit_short(sc, u)}" in board, (scenario, u)
        for side, name in enumerate(("US", "Japan")):  # Saipan's US units all land later
            assert (f"{name} units by hex: " in board) == any(sc.unit_side[u] == side for u in on_map)
        assert max(len(line) for line in board.splitlines()) <= 120, scenario


def test_peleliu_solitaire_is_playable_at_the_terminal():
    """Peleliu has one player: no opponent to name; the landing and the Action Phase take moves."""
    script = Script(["1"] * 12 + ["q"])
    code = play("peleliu", None, "rule", "sept15", 3, "major", input_fn=script, out=script.out)
    text = script.out.getvalue()
    assert code == 0
    assert "You play US; the rules themselves play the other side (a solitaire game)." in text
    assert "D-Day at Peleliu -- sept15 (viewed by the U.S.)" in text
    assert "amphibious: land in beach hex" in text and "You quit at Game-Turn" in text
