# Help: the general help, a command's and a game's help, and the list of
# games. Command syntax lines are the protocol and stay as they are; what
# each command does is here (`syntax-NAME`).

help-subject = Tabula help
help-subject-topic = Help for { $topic }
help-intro =
    Tabula hosts small multiplayer games played by email, from a terminal, on the web
    or through the HTTP API. Every way in takes the same commands.

    To start: sign up, challenge other players, then move when it is your turn.
    Moves carry your user id and password, as on pbmserv:

        signup ned secret ned@example.org
        dna challenge ned ted jed
        dna move 1 ned secret AAG
        dna show 1

    Commands (GAME is one of: { $games }):
help-outro = `help GAME` gives a game's rules, options and move syntax; `list` the games on offer.
help-game-starts = starts a game for { $players }, in the order given.
help-rules-heading = Rules
help-moves-heading = Moves
help-options-heading = Options
help-game-also =
    Every game also takes the commands of `help` (show, showas, history, resign,
    draw and undo proposals, submit/confirm, chat, subscribe ...).
help-game-also-queue =
    Every game also takes the commands of `help` (show, showas, history, resign,
    draw and undo proposals, queue, submit/confirm, chat, subscribe ...).
players-fixed = { $count } players
players-range = { $min } to { $max } players
list-subject = Tabula games
list-heading = Games on offer:
list-players-range = { $min }-{ $max } players
list-outro = `help GAME` tells how to play one.
dynamics-sequential = in turn
dynamics-simultaneous = simultaneous secret moves
dynamics-realtime = real time
option-range = { $min } to { $max }
option-text-range = { $accepts }, { NUMBER($min, useGrouping: "false") } to { NUMBER($max, useGrouping: "false") } characters
option-default = default { $value }

## What each command does

syntax-signup = create an account
syntax-change-password = change your password
syntax-change-address = change your email addresses
syntax-signoff = close your account (you resign from your running games)
syntax-notify = turn email notifications on or off
syntax-vacation = suspend reminders and forfeits while away
syntax-limit = accept at most N running games
syntax-policy = start challenges at once, or ask you to accept them
syntax-language = read replies and mail in Finnish, Spanish or English
syntax-bot = mark your account as a bot, played by a program (`tabula bot connect`), or as a person again
syntax-help = this text, or a game's rules, options and move syntax
syntax-list = the games on offer
syntax-challenge = start a game (bots: bot:random, bot:mcts ..)
syntax-accept = accept a challenge that waits for you
syntax-reject = refuse a challenge
syntax-move = make a move; #MOVENO refuses it if the board has moved on
syntax-move-resign = resign
syntax-move-propose = propose a draw (every other player must accept)
syntax-move-undo = ask to take back the last move (every other player must accept)
syntax-move-accept = accept the pending draw or undo
syntax-move-reject = reject the pending draw or undo
syntax-queue = store a move to be played when it is your turn, if still legal
syntax-submit = store a move and preview it; play it with confirm
syntax-confirm = play the move you submitted
syntax-preview = show the board as it would be after MOVE
syntax-show = the board (as it was after move MOVENO)
syntax-showas = the board as you see it, with your secrets
syntax-history = every move of a board
syntax-games = a user's boards
syntax-standings = wins, losses and draws of every player
syntax-ratings = the ladder: Glicko-2 ratings from finished games
syntax-chat = a message to the other players of a board
syntax-subscribe = receive a board's updates
syntax-unsubscribe = stop receiving them
