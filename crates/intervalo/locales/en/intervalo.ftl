# intervalo: its title, the one line `list` shows, the rules and the move syntax
# that `help intervalo` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

intervalo-title = Intervalo
intervalo-summary = two players choose cells of a strip at the same time; intervals score
intervalo-rules =
    Two players share a strip of cells numbered from 1 (64 by default), all empty at the start.
    Each turn both players secretly choose one empty cell; a choice cannot be changed once made,
    and neither sees the other's until both are in.
    - Same cell: a neutral piece goes there.
    - Different cells: each chosen cell gets its chooser's piece. Then each player's pieces lying
      between the two chosen cells (both included) are counted, and whoever has more there scores
      a point. Equal counts score nothing.
    The game ends when no empty cell is left (a last single empty cell is chosen by both and
    becomes neutral). More points wins; equal points is a draw.
intervalo-move-help =
    A cell number: `intervalo move B user pw 17`. The choice stays secret until both players
    have chosen; then both choices and the score are shown to both.

## Options, as `help intervalo` and the challenge form describe them

intervalo-option-cells = number of cells of the strip

## Refusals ($text is the input, quoted)

intervalo-error-empty = a move is a cell number, like 17
intervalo-error-not-a-number = { $text } is not a cell number: write a number like 17
intervalo-error-not-a-cell = { $text } is not a cell number
intervalo-error-no-cell = there is no cell { $cell }: the cells are numbered 1 to { $cells }
intervalo-error-chosen = it is not your turn: you have already chosen this turn, and a choice cannot be changed
intervalo-error-taken = cell { $cell } is not empty
intervalo-error-cells = -cells must be 2 to { $max }, not { $given }

## How a game ended

intervalo-outcome-resigned = { $user } resigned
intervalo-outcome-more-points = more points
intervalo-outcome-equal-points = equal points

## History lines

intervalo-history-chooses = { $user } chooses cell { $cell }
intervalo-history-chosen = { $user } has chosen a cell
intervalo-history-neutral = both chose cell { $cell }: a neutral piece
intervalo-history-scores = { $p0 } { $c0 }, { $p1 } { $c1 }: { $user } scores
intervalo-history-no-point = { $p0 } { $c0 }, { $p1 } { $c1 }: no point
intervalo-history-turn = Turn { $turn }: { $what } ({ $p0 } { $s0 }, { $p1 } { $s1 }).

## The board ($turn, $cell, $c0, $c1, $s0 and $s1 are numbers written as they are; $l0 and $l1 are the seats' letters; $you is you or other)

intervalo-board-score = Score: { $l0 } { $p0 } { $s0 }, { $l1 } { $p1 } { $s1 }
intervalo-board-neutral = both chose the same cell: neutral
intervalo-board-scores = { $user } scores
intervalo-board-no-point = no point
intervalo-board-last = Last turn ({ $turn }): { $p0 } { $c0 }, { $p1 } { $c1 }: { $what }
intervalo-board-wins = { $user } wins: { $reason }
intervalo-board-draw = a draw: { $reason }
intervalo-board-waiting = Turn { $turn }: waiting for { $users }
intervalo-board-you-chose = you chose cell { $cell }
intervalo-board-legend-player = { $letter } { $user }{ $you ->
    [you] {" "}(you)
   *[other] {""}
}: { NUMBER($points, useGrouping: "false") } { $points ->
    [one] point
   *[other] points
}
intervalo-board-legend-neutral = # neutral: both chose the same cell
intervalo-board-legend-interval = the last turn's interval
intervalo-board-cell = cell { $cell }: { $what }
intervalo-board-cell-neutral = neutral
intervalo-board-cell-empty = empty
