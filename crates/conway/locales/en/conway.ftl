# conway: its title, the one line `list` shows, the rules and the move syntax
# that `help conway` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

conway-title = Conway
conway-summary = multiplayer Life on a torus: place pieces, survive the generations
conway-rules =
    The board is a torus (it wraps from top to bottom and from left to right), initially empty. Players take turns placing their pieces on empty points. Move m (counting every player's moves from 1) may place up to min(m, P) pieces, where P is the -place option (default 4): one on the first move, two on the second, and so on up to P. Fewer pieces are allowed, and 'pass' places none; 'random' places the allowed number on random empty points and is marked with * in the move list.

    From move P on, after each move's placement the whole board undergoes one generation of Life: every piece counts as a neighbour, whatever its owner; a piece with 2 or 3 neighbours survives, every other piece dies; an empty point with exactly 3 neighbours gets a new piece, owned by the owner of at least 2 of the 3 parents, or neutral (#) if all three differ.

    Once every player has had a turn, a player with no pieces left after a generation is out. The last player with pieces wins; players who vanish in the same generation draw. With -max_turns=N, after N moves the player with the most pieces wins (equal counts draw). A player who resigns is out at once and their pieces become neutral.
conway-move-help =
    conway move <board#> <userid> <password> a1,b2,c3   place pieces (column letter, row number; a1 is bottom left)
    conway move <board#> <userid> <password> a1         place one piece
    conway move <board#> <userid> <password> pass       place nothing
    conway move <board#> <userid> <password> random     place the allowed number on random empty points

## Options, as `help conway` and the challenge form describe them

conway-option-size = the board is size x size points (columns past z are aa, ab, ..)
conway-option-place = most pieces a move may place; generations start at this move
conway-option-max_turns = after this many moves the player with the most pieces wins

## Refusals

conway-error-empty = give points like a1,b2, or pass, or random
conway-error-too-many = move { $move } may place at most { $allowed ->
    [one] { NUMBER($allowed, useGrouping: "false") } piece
   *[other] { NUMBER($allowed, useGrouping: "false") } pieces
}, not { $given }
conway-error-off-board = { $point } is off the board (a1 to { $last })
conway-error-twice = { $point } is listed twice
conway-error-taken = { $point } is not empty: it holds { $user }'s piece
conway-error-taken-neutral = { $point } is not empty: it holds a neutral piece

## How a game ended

conway-outcome-vanished = the last players vanished together
conway-outcome-most-pieces = most pieces after the last turn
conway-outcome-equal-pieces = equal pieces after the last turn

## History lines

conway-history-out = { $user } is out: no pieces left
conway-history-vanished = The game is a draw: { $users } vanished together
conway-history-most-pieces = { $user } wins with the most pieces ({ NUMBER($pieces, useGrouping: "false") })
conway-history-equal-pieces = The game is a draw: { $users } have { NUMBER($pieces, useGrouping: "false") } pieces each

## The board ($moves and $generation are numbers written as they are)

conway-board-pieces = { NUMBER($pieces, useGrouping: "false") } { $pieces ->
    [one] piece
   *[other] pieces
}
conway-board-out = (out)
conway-board-resigned = (resigned)
conway-board-winner = (winner)
conway-board-draw = (draw)
conway-board-neutral = neutral
conway-board-move = Move { $moves }, generation { $generation }
conway-board-may-place = the next move may place up to { NUMBER($pieces, useGrouping: "false") } { $pieces ->
    [one] piece
   *[other] pieces
}
conway-board-ends-after = the game ends after move { $moves }
conway-board-to-move = (to move)
