# What every game shares: refusals of a move or an event, set-up and
# option errors, and the help of the options every game has. Option names
# (-seed) and move syntax are the protocol and stay as they are.

## Moves and events

move-error-not-your-turn = it is not your turn
move-error-not-your-turn-next = it is not your turn; it is { $user }'s turn
move-error-game-over = the game is over
move-error-clock-seat = clock events have no player
move-error-no-clock = no clock event is due
move-error-already-in = { $user } is already in this game
move-error-join-seat = join event names the wrong seat
move-error-no-player = event without a player
move-error-no-seat = no such seat
move-error-no-player-seat = no such player
move-error-not-in-game = you are no longer in this game
move-error-nothing-proposed = nothing has been proposed
move-error-already-proposed = { $user } has already proposed { $proposal ->
    [draw] a draw
   *[undo] an undo
}: accept or reject it first
move-error-nothing-to-undo = there is no move to undo
move-error-already-accepted = you have already accepted the { $proposal ->
    [draw] draw
   *[undo] undo
}
move-error-no-join = { $game } games cannot be joined once started

## Setting a game up

setup-error-seed = -seed cannot be used here: { $game } with these options hides moves from its players, and anyone who knows the seed could work out its random draws; leave -seed out
setup-error-player-count = { $game } needs { $min } to { $max } players, not { $given }
setup-error-duplicate-player = { $user } is listed twice

## Options

option-error-unknown = unknown option -{ $name } for { $game } (options: { $known })
option-error-bad-value = -{ $name }: { $problem }
option-error-repeated = -{ $name } is given twice
option-error-flag = is a flag: write -{ $name } alone
option-error-needs-number = needs a number: -{ $name }=N
option-error-not-number = { $value } is not a whole number
option-error-range = must be between { $min } and { $max }, not { $value }
option-error-needs-text = needs a value: -{ $name }=TEXT
option-error-text-length = must be { NUMBER($min, useGrouping: "false") } to { NUMBER($max, useGrouping: "false") } characters ({ $accepts }), not { NUMBER($length, useGrouping: "false") }
option-error-text-letters = must be { $accepts }
option-error-needs-duration = needs a duration: -{ $name }=1h
option-error-not-duration = { $value } is not a duration (use 30s, 15m, 1h, 7d or 2w)
option-error-needs-choice = needs one of { $choices }
option-error-choice = must be one of { $choices }, not { $value }

option-nag = send a reminder to a player who has not moved for this long
option-forfeit = resign a player who has not moved for this long; when every player still in the game has not, the game is drawn among them
option-seed = deal the game from this seed instead of a random one: the same seed deals the same game, for demos and tests; refused in a game that hides moves from its players, since anyone who knows the seed could work out its random draws

## Points of a grid (a1, (x,y)); $text is the input, quoted

point-error-xy = { $text } is not a point: write (x,y)
point-error-whole = { $text } is not a point: coordinates are whole numbers
point-error-letter-number = { $text } is not a point: write a column letter and a row number, like c5
point-error-row = { $text } is not a point: rows start at 1
point-error-paren = { $text }: missing ')'
point-error-too-many = too many points: at most { $max }
point-error-trailing-comma = a point is missing after the last comma
point-error-commas = { $text }: points are separated by commas

## How a game ended (the reason in the outcome line)

outcome-last-standing = last player standing
outcome-forfeited = every player forfeited
outcome-draw-agreed = draw agreed

## History lines every game shares ($proposal is draw or undo)

history-resigns = { $user } resigns
history-last-standing = { $user } wins: last player standing
history-all-forfeit = { $users } all forfeit ({ $why }): the game is drawn.
history-with-reason = { $line } ({ $reason })
history-proposes = { $user } proposes { $proposal ->
    [draw] a draw
   *[undo] an undo
}
history-accepts = { $user } accepts the { $proposal ->
    [draw] draw
   *[undo] undo
}
history-rejects = { $user } rejects the { $proposal ->
    [draw] draw
   *[undo] undo
}
history-draw-agreed = The game is drawn by agreement.
history-last-taken-back = The last move is taken back.
history-move-taken-back = { $user }'s move { $move } is taken back.
history-users-last-taken-back = { $user }'s move the last move is taken back.

## Why the server resigned a player

resign-reason-server = resigned by the server
resign-reason-signed-off = signed off
resign-reason-no-move = the bot found no move
resign-reason-forfeited = forfeited: no move in { $span }

## Parts of a line joined

list-comma = { $first }, { $rest }
list-semicolon = { $first }; { $rest }
