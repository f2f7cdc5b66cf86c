#!/usr/bin/env python3
"""Games between OpenSpiel's MCTS bot and the engine over GTP, OpenSpiel the referee.

    play.py ENGINE GAMES SIMULATIONS MOVETIME_MS [ROWS COLUMNS]

The engine runs as `ENGINE gtp --movetime MOVETIME_MS` behind OpenSpiel's own GTPBot
(open_spiel.python.bots.gtp); the MCTS bot is OpenSpiel's (random roll-outs). The engine
plays player 0 (OpenSpiel's black, who moves first) in even games and player 1 in odd
ones. Every move either bot makes is applied by OpenSpiel's rules, which refuse illegal
ones. Prints one JSON line per game and exits 0 when every game reached a terminal state.
"""

import json
import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import gtp


def main():
    engine, games, simulations, movetime = sys.argv[1], *map(int, sys.argv[2:5])
    rows, columns = (int(x) for x in sys.argv[5:7]) if len(sys.argv) > 6 else (8, 8)
    game = pyspiel.load_game(f"breakthrough(rows={rows},columns={columns})")
    rng = np.random.RandomState(7)
    variant = "breakthrough" if (rows, columns) == (8, 8) else f"breakthrough-{columns}x{rows}"
    ours = gtp.GTPBot(game, [engine, "gtp", "--variant", variant, "--movetime", str(movetime)])
    theirs = mcts.MCTSBot(
        game,
        uct_c=2,
        max_simulations=simulations,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        random_state=rng,
    )
    for number in range(games):
        our_player = number % 2
        bots = [ours, theirs] if our_player == 0 else [theirs, ours]
        ours.restart()
        state = game.new_initial_state()
        moves = []
        while not state.is_terminal():
            player = state.current_player()
            action = bots[player].step(state)
            if action not in state.legal_actions():
                sys.exit(f"game {number}: player {player} chose an illegal action {action}")
            text = state.action_to_string(player, action)
            if player != our_player:
                ours.inform_action(state, player, action)
            moves.append(text)
            state.apply_action(action)
        returns = state.returns()
        print(json.dumps({
            "game": number,
            "engine_player": our_player,
            "engine_return": returns[our_player],
            "moves": moves,
        }), flush=True)
    ours.close()


if __name__ == "__main__":
    main()
