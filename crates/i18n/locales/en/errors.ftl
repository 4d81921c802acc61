# Errors of the command language, as every front end shows them. Error
# codes (usage, bad_value ..) are the protocol and are not here; command
# words, option names and syntax lines stay as they are in every language.

error-language-unknown = "{ $given }" is not a language Tabula speaks: choose fi (suomi), es (español) or en (English)

## Reading a command

error-usage = usage: { $syntax }
error-usage-either =
    usage: { $first }
       or: { $second }
error-usage-vacation = usage: { $syntax } (at most 365 days)
error-usage-limit = usage: { $syntax } (at most { NUMBER($max, useGrouping: "false") } running games)
error-line-too-long = the command is longer than { NUMBER($max, useGrouping: "false") } bytes
error-too-many-words = the command has more than { NUMBER($max, useGrouping: "false") } words
error-empty-command = empty command: try `help`
error-unknown-command-games = unknown command { $quoted }: the games are { $games }; `help` lists the commands
error-unknown-command = unknown command { $quoted }: `help` lists the commands
error-unknown-command-near = unknown command { $quoted }: did you mean { $near }? `help` lists the commands
error-not-a-board =
    { $quoted } is not a board number
    usage: { $syntax }
error-not-a-move-number = #{ $number } is not a move number
error-no-help = no help on { $quoted }: try `help`, or `help GAME` for one of: { $games }
error-no-game = no game { $quoted }

## Accounts and passwords

error-not-a-bot-name = { $quoted } is not a bot name: write bot:NAME, e.g. bot:mcts
error-user-id-length = a user id has 1 to { $max } characters
error-user-id-start = { $quoted } is not a user id: it must start with a letter
error-user-id-letters = { $quoted } is not a user id: use letters, digits, '_', '-' and '.'
error-user-id-reserved = the user id { $quoted } is reserved
error-password-length = a password has { $min } to { $max } characters
error-password-characters = a password has no spaces or control characters
error-not-an-address = { $quoted } is not an email address
error-too-many-addresses = at most { $max } addresses
error-user-taken = the user id { $user } is taken
error-no-user = there is no user { $user }
error-wrong-password = wrong password for { $user }
error-password-needed = this account command needs the password itself, not a token or a login session
error-wait-address = too many wrong passwords from your address: wait { NUMBER($seconds, useGrouping: "false") } seconds and try again
error-wait-user = too many wrong passwords for { $user } from your address: wait { NUMBER($seconds, useGrouping: "false") } seconds and try again
error-token-name = a token name has at most 100 printable characters
error-too-many-tokens = at most { $max } tokens: revoke one first
error-token-not-stored = the new token was not stored
error-bad-token = invalid or revoked token
error-no-live-token = { $user } has no live token { $id }
error-not-a-bot-account = { $user } is not a bot account
error-bot-command-empty = the bot's command is empty
error-bot-command-words = the bot's command has more than { NUMBER($max, useGrouping: "false") } words
error-bot-command-long = the bot's command is longer than { NUMBER($max, useGrouping: "false") } bytes

## Challenges

error-too-many-players = at most { $max } players
error-challenge-unauthorized = a challenge comes from one of its players: log in (or send a bearer token, or mail it from your registered address) and name yourself among the players
error-challenger-not-player = { $user } is not among the players: a challenge names its challenger
error-no-such-bot = there is no bot { $bot } for { $game }: the bots are { $bots }
error-no-bots = there is no bot { $bot } on this server
error-game-limit = { $user } is in { NUMBER($running, useGrouping: "false") } running games and accepts no more (limit { NUMBER($limit, useGrouping: "false") })
error-wait-challenges = { $user } has sent { NUMBER($rate, useGrouping: "false") } challenges this hour, the most this server takes: wait { NUMBER($seconds, useGrouping: "false") } seconds and try again
error-not-waiting = board { $board } is not waiting for acceptance
error-waits-for-acceptance = board { $board } waits for { $users } to accept the challenge

## Boards and moves

error-no-board = there is no board { $board }
error-wrong-kind = board { $board } is a { $kind } game
error-not-a-player = { $user } is not a player of board { $board }
error-not-running = board { $board } is not running
error-board-cancelled = board { $board } was cancelled
error-board-over = board { $board } is over
error-stale-move = this move was meant as move { NUMBER($meant, useGrouping: "false") }, but the board is at move { NUMBER($now, useGrouping: "false") }: look at the board again
error-only-moves = board { $board } has only { NUMBER($moves, useGrouping: "false") } moves
error-no-queue = { $game } does not take queued moves: its moves are not made in turn
error-queued-too-long = a queued move has at most 1000 characters
error-queue-your-turn = it is your turn now: make the move instead
error-queue-full = at most 20 queued moves per board
error-nothing-submitted = you have no submitted move on board { $board }
error-preview-who = in { $game } give your user id and password: { $syntax }
error-no-view-text = the view of board { $board } has no text at { $quoted }
error-chat-empty = a chat message needs some text
error-chat-too-long = a chat message has at most { NUMBER($max, useGrouping: "false") } characters

## Inside

error-conflict = the board changed at the same moment; try again
error-storage = internal storage error; nothing was changed
error-replay = internal error: the stored game does not replay
