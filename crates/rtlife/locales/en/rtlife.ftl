# rtlife: its title, the one line `list` shows, the rules and the move syntax
# that `help rtlife` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

rtlife-title = Real-Time Life
rtlife-summary = Life on the wall clock: join any time, move cells with points, outscore the others
rtlife-rules =
    Real-Time Life runs on the wall clock. Every -tick (default one hour) each player who has placed cells gains movement points: one per 10 live cells, never less than 1; points accumulate. Every -gen_ticks ticks (default 12) the whole field undergoes one generation of Life: every cell counts as a neighbour, whatever its owner; a cell with 2 or 3 neighbours survives, every other cell dies; an empty point with exactly 3 neighbours gets a new cell, owned by the owner of at least 2 of the 3 parents, or neutral (#) if all three differ.

    A player's first move places -start_cells cells (default 10) on empty points, all connected (horizontally, vertically or diagonally). The creator and the listed users are players from the start; anyone else may join while the game runs (up to -max_players, at most 26, shown as letters A..Z) with the same placing move.

    Moving a cell costs the length of the shortest king-move path (one point per step, horizontal, vertical or diagonal) through empty points: a cell cannot pass through or over another cell, but can go around. A move with no such path, or costing more points than the player has, is refused and costs nothing. Several moves in one command apply in order, all or none.

    Immediately after each generation each player adds (live cells) / (generations they have been in the game, this one included) to their score: 100 cells after 10 generations score 10, as do 10 cells after one. A player who has placed cells and has none after a generation is out. Once at least two players have placed cells, the last player standing wins; if the last players vanish in the same generation, the highest score among them wins (equal scores draw). With -generations=N the highest score after generation N wins among the players still on the field, or if none is, among those who placed cells and did not resign: a player who never placed cells has no score to win with. A player who resigns leaves their cells to nobody (they become neutral).

    Edges: dead (nothing lives outside the -width x -height field), torus (the field wraps), or unbounded (the infinite plane; -width and -height are not used, and points may be written (x,y), with a1 = (0,0)).
rtlife-move-help =
    rtlife move <board#> <userid> <password> c5,d5,e5,...   first move: place -start_cells connected cells
    rtlife move <board#> <userid> <password> c5-f8           move a cell along the shortest free path
    rtlife move <board#> <userid> <password> c5-f8,a1-b2     several moves, in order, all or none
    The words place and move may stand before the points (place c5,d5,e5 or move c5-f8).
    On the unbounded plane points may be written (x,y): place (-3,12),(-2,12),...

## Options, as `help rtlife` and the challenge form describe them

rtlife-option-width = columns of a bounded field (columns past z are aa, ab, ..)
rtlife-option-height = rows of a bounded field
rtlife-option-edges = dead: nothing lives outside the field; torus: it wraps; unbounded: the infinite plane
rtlife-option-tick = real time between two ticks (movement points are handed out every tick)
rtlife-option-gen_ticks = ticks between two generations
rtlife-option-start_cells = cells a player places on joining, all connected
rtlife-option-generations = the game ends after this many generations; the highest score wins
rtlife-option-max_players = most players, those joining later included

## Refusals: set-ups, places and moves

rtlife-error-setup-off = { $point } is off the field
rtlife-error-setup-twice = { $point } is given twice
rtlife-error-setup-owner = { $owner } is not a player of this game
rtlife-error-no-room = a { $width }x{ $height } field has no room for -start_cells={ $cells }
rtlife-error-max-players = -max_players={ $max } but { NUMBER($given, useGrouping: "false") } players are listed
rtlife-error-too-far-out = { $point } is too far out: coordinates run from -{ $limit } to { $limit }
rtlife-error-off-field = { $point } is off the field (a1 to { $last })
rtlife-owner-player = { $user }'s cell
rtlife-owner-someone = a player's cell
rtlife-owner-neutral = a neutral cell
rtlife-error-placed = you have placed your cells already: move them with move c5-f8
rtlife-error-place-count = place exactly { $cells } cells, not { $given }
rtlife-error-twice = { $point } is listed twice
rtlife-error-taken = { $point } is not empty: it holds { $owner }
rtlife-error-connected = the cells must all be connected (touching horizontally, vertically or diagonally): { $loose } is not connected to { $first }
rtlife-error-place-first = place your { $cells } cells first: place c5,d5,...
rtlife-error-from-empty = { $from } is empty: there is no cell to move
rtlife-error-not-yours = { $from } holds { $owner }: you may move only your own cells
rtlife-error-no-move = { $from }-{ $to } does not move the cell
rtlife-error-blocked = { $from } cannot reach { $to }: every path is blocked by other cells
rtlife-error-cost = { $from }-{ $to } costs at least { $cost } points; you have { $left }{ $step ->
    [first] {""}
   *[later] {" "}left after the earlier moves
}
rtlife-error-too-far = { $from }-{ $to } is too far to search (the moves of one command may visit { $max } points): move in shorter steps
rtlife-error-no-moves = give the moves, like move c5-f8
rtlife-error-commas = a move is missing between commas: write c5-f8,a1-b2
rtlife-error-from-to = { $text } is not a move: write from-to, like c5-f8
rtlife-error-too-many = too many moves: at most { $max } in one command
rtlife-error-place-what = give the { $cells } points to place, like place c5,d5,e5
rtlife-error-empty = give a move: place c5,d5,... or move c5-f8
rtlife-error-not-a-move = { $text } is not a move: write place c5,d5,... or move c5-f8
rtlife-error-full = this game is full: it has its { $players } players

## How a game ended

rtlife-outcome-vanished = the last players vanished in the same generation
rtlife-outcome-nobody-left = nobody is left in the game
rtlife-outcome-generation-limit = the generation limit is reached

## History lines ($players: none when no player has cells)

rtlife-history-wins = { $user } wins with the highest score ({ $score }): { $reason }
rtlife-history-draw = The game is a draw between { $users } with { $score } each: { $reason }
rtlife-history-generation-empty = Generation { $generation }: no cells
rtlife-history-generation = Generation { $generation }: { $players ->
    [none] neutral { NUMBER($neutral, useGrouping: "false") }
   *[some] { $cells }{ $neutral ->
        [0] {""}
       *[other] , neutral { NUMBER($neutral, useGrouping: "false") }
    }
}
rtlife-history-out = { $user } is out: no cells left
rtlife-history-joins = { $user } joins: { $cells }
rtlife-history-places = { $user } places: { $cells }
rtlife-history-moves = { $user } moves { $steps } ({ NUMBER($points, useGrouping: "false") } { $points ->
    [one] point
   *[other] points
})

## The board ($generation, $tick, $n and the coordinates are numbers written as they are; $count, $cells and $points are quantities)

rtlife-board-generation = Generation { $generation }, tick { $tick }
rtlife-board-ends-after = (the game ends after generation { $generation })
rtlife-board-over = The game is over: { $reason }.
rtlife-board-next-tick = Next tick at { $when }
rtlife-board-next-generation = Next generation at { $when }
rtlife-board-due-now = { $time } (due now)
rtlife-board-due-in = { $time } (in { $span })
rtlife-board-days = { $n }d
rtlife-board-hours = { $n }h
rtlife-board-minutes = { $n }m
rtlife-board-seconds = { $n }s
rtlife-board-empty = The plane is empty.
rtlife-board-plane = x { $left } to { $right }, y { $top } down to { $bottom }
rtlife-board-plane-part = (part of the occupied box x { $left } to { $right }, y { $top } down to { $bottom })
rtlife-board-plane-points = points are (x,y)
rtlife-board-neutral = neutral
rtlife-board-cells = { $count ->
    [one] cell
   *[other] cells
}
rtlife-board-points = { $count ->
    [one] point
   *[other] points
}
rtlife-board-score = score { $score }
rtlife-board-not-placed = (not placed yet)
rtlife-board-out = (out)
rtlife-board-resigned = (resigned)
rtlife-board-winner = (winner)
rtlife-board-draw = (draw)
rtlife-board-legend-player = { $letter } { $user }: { NUMBER($cells, useGrouping: "false") } cells, { NUMBER($points, useGrouping: "false") } points, score { $score }
rtlife-board-legend-neutral = # neutral: { NUMBER($cells, useGrouping: "false") } cells
