# The web pages: every text of the templates, the page code and the page
# script. Messages whose id ends in -html are markup: their arguments are
# escaped, the rest is shown as written. Identifiers (board, tournament and
# game numbers, user ids) go in as text; quantities as numbers.

## The frame of every page

nav-games = Games
nav-new-game = New game
nav-tournaments = Tournaments
nav-your-turn = Your turn
nav-waiting = waiting
nav-my-games = My games
nav-account = Account
nav-log-out = Log out
nav-log-in = Log in
nav-sign-up = Sign up
footer = Tabula: DNA, Rewrite, Intervalo, Conway and Real-Time Life by mail, terminal, web and API
footer-api = API
language-menu = Language

## Games tables

table-label = Games
table-board = Board
table-game = Game
table-players = Players
table-state = State
table-moves = Moves
table-updated = Updated
table-moves-unit = { $count ->
    [one] move
   *[other] moves
}
badge-bot = bot
state-over = over
state-rejected = challenge rejected
state-proposed = waiting for acceptance
state-running = running
state-to-move = { $players } to move
why-move = your move
why-challenge = challenge: accept or reject
why-offer = an offer to answer
unknown-game = Unknown game

## The games list

games-title = Games
games-none-waiting = No game is waiting for you.
games-start-hint-html = Start a game from <a href="/challenge">New game</a>: against a friend by their user id, or against one of the bots.
games-filter-game = Game
games-filter-all-games = all games
games-filter-player = Player
games-filter-user-id = user id
games-filter-state = State
games-state-all = any
games-state-running = running
games-state-proposed = waiting for acceptance
games-state-active = being played
games-state-over = over
games-state-finished = finished
games-state-cancelled = rejected
games-filter-show = Show
games-none-match = No games match.
games-pages = Pages
games-newest = Newest games
games-older = Older games

## A game's page

game-your-turn = Your turn
game-board-title = { $title } board { $board }
game-board-no = board { $board }
game-live-title = This page follows the game as it happens
game-bot-title = a program plays this seat
game-you = (you)
game-not-accepted = (has not accepted yet)
game-challenged = You are challenged to this game.
button-accept = Accept
button-reject = Reject
game-move-join = Join this game: your first move
game-move-replace = Your move is in: you may replace it until everyone has moved
game-move-play = Your move
game-move-placeholder-click = tap the board or type
game-move-placeholder = type your move
game-move-button = Move
game-move-help = How to write a move
game-offer-draw = Offer a draw
game-offer-undo = Ask to take back
game-resign-confirm = Resign this game?
game-resign = Resign
game-rematch = Rematch
game-rematch-help = the same players and options, on a new board
game-log-in-to-play-html = <a href="{ $href }">Log in</a> to play.
game-board-view = Board view
game-zoom-in = Zoom in
game-zoom-out = Zoom out
game-zoom-reset = Reset the view
game-tick-soon = Next tick in a moment
game-replay = Replay
game-replay-start = Start
game-replay-previous = Previous move
game-replay-next = Next move
game-replay-latest = Latest
game-moves = Moves
game-chat = Chat
game-no-chat = No messages yet.
game-chat-label = Message to the other players
game-chat-placeholder = a message to the other players
game-chat-send = Send
game-chat-players-only = Only the players of this board write here.
game-text-board = The board as text
rules-of = Rules of { $title }
game-options = Options:
options-defaults = the defaults
ladder-title = { $title } ladder
game-your-turn-line = It is your turn.
game-no-board = There is no board { $board }.
game-bad-at = ?at={ $at }: write a move number, 0 or more
game-unknown-kind = a game of an unknown kind
game-write-move = Write a move first.
game-move-too-long = { $max ->
    [one] A move has at most { $max } character.
   *[other] A move has at most { $max } characters.
}
game-move-one-line = A move is one line of text.
game-move-pasted = Type only the move itself here, without the mail command's words before it.
game-no-action = no such action { $action }
game-write-chat = Write something first.
game-chat-too-long = { $max ->
    [one] A chat line has at most { $max } character.
   *[other] A chat line has at most { $max } characters.
}
game-answer = answer accept or reject

## The page script's texts (arguments in braces are filled in by the script)

js-live = live
js-reconnecting = reconnecting
js-to-move = ◀ to move
js-offer-draw = { $user } offers a draw.
js-offer-undo = { $user } offers to take back the last move.
js-taken-back = (taken back)
js-no-moves = No moves yet.
js-position-after = after move { $position } of { $total }
js-position-latest = move { $total } (latest)
js-tick-in = Next tick in { $seconds } s
js-tick-now = Next tick now
js-refused = The server refused this.
js-status = The server answered { $status }.
js-not-sent = Not sent: the connection failed. Try again.

## Starting games

challenge-list-title = Start a game
challenge-list-log-in-html = <a href="{ $login }">Log in</a> or <a href="{ $signup }">sign up</a> to challenge other players.
challenge-list-about = Play another user, or one of the server's bots: each game's form offers them.
challenge-title = Challenge: { $title }
challenge-heading = { $title }: new game
challenge-ladder = The { $title } ladder
challenge-log-in-html = <a href="{ $login }">Log in</a> or <a href="{ $signup }">sign up</a> to start a game.
challenge-players = Players, in turn order
challenge-players-placeholder = you and your opponents
challenge-players-range = { $min } to { $max } user ids, separated by spaces.
challenge-players-exact = { $count ->
    [one] { $count } user id, separated by spaces.
   *[other] { $count } user ids, separated by spaces.
}
challenge-bots-as-html = Bots play as <code>bot:NAME</code>.
challenge-bot = Play against a bot
challenge-no-bot = no bot
challenge-bot-help-html = Joins as the last player and moves as soon as it is its turn ({ $bots }; <code>bot:mcts</code> is the strongest).
challenge-options = Options
challenge-default = default
challenge-default-is = default ({ $default })
challenge-not-set = not set
challenge-start = Start the game
challenge-accepts-range = { $min } to { $max }
challenge-accepts-text = { $min } to { $max } characters: { $accepts }
challenge-accepts-duration = a duration such as 30m, 12h, 7d or 2w, from { $min } to { $max } (a bare number is in { $unit })
challenge-no-game = There is no game { $kind } here.
challenge-no-such-bot = There is no bot { $bot } for { $title } here.
challenge-name-players = Name the players, in turn order.
challenge-option-spaces = -{ $option }: a value has no spaces
challenge-too-many-fields = too many form fields
challenge-rematch-refused = Only a player of a game that is over can ask for a rematch.

## Users and ladders

user-built-in-bot = A built-in bot played by the server.
user-hosted-bot = A bot account: a program plays its games, run by the server. Playing since { $since }.
user-bot = A bot account: a program plays its games. Playing since { $since }.
user-since = Playing since { $since }.
user-closed = This account is closed.
user-challenge = Challenge { $user }
user-running = Running games
user-finished = Finished games
user-none-running = No running games.
user-none-finished = No finished games yet.
ladder-about = Glicko-2 ratings of every player, people and bots, over every finished game of { $title } in the order they ended. A rating starts at 1500 with a deviation (RD) of 350; the true strength is within two deviations of the rating with about 95% confidence, and the deviation shrinks as games are played. A game of several players counts as a match between every pair.
ladder-start = Start a game of { $title }
ladder-games = { $title } games
ladder-label = Ladder
ladder-rank = Rank
ladder-player = Player
ladder-rating = Rating
ladder-rd = RD
ladder-games-played = Games
ladder-won = Won
ladder-lost = Lost
ladder-drawn = Drawn
ladder-more = The first { $shown } of { $total } players.
ladder-none = No finished games of { $title } yet.
no-game = There is no game { $kind }.

## Sign-up, login and the account

field-user-id = User id
field-password = Password
login-new-here-html = New here? <a href="{ $href }">Sign up</a>.
signup-user-help-html = Letters, digits, <code>_ - .</code>; starting with a letter. Also your name in mail commands.
signup-password-help = No spaces. Mail commands use it too, so do not reuse a precious one.
signup-password-again = Password again
signup-email = Email (optional)
signup-email-help = For notifications and for playing by mail.
signup-have-account-html = Have an account? <a href="{ $href }">Log in</a>.
login-wrong = Wrong user id or password.
signup-passwords-differ = The two passwords differ.
form-expired = This form has expired or did not come from this site. Reload the page and try again.
form-bad = bad form: { $error }
bad-address = bad address: { $error }
log-in-first = Log in first.
account-heading = Account: { $user }
account-settings = Settings
account-notify = Notifications by email
account-notify-on = Mail me when it is my turn and when my games change
account-notify-off = No mail
account-notify-save = Save notifications
account-language = Language
account-language-about = Pages and mail come in this language, on every device you sign in on.
account-language-save = Save language
account-vacation = Vacation
account-vacation-until = On vacation until { $until }: no reminders or forfeits until then.
account-vacation-none = Not on vacation.
account-vacation-days = Days away (empty: back from vacation)
account-vacation-save = Save vacation
account-policy = Challenges naming me
account-policy-open = Start at once
account-policy-ask = Wait until I accept them
account-policy-save = Save challenge policy
account-limit = Game limit
account-limit-label = Most running games to be challenged into (empty: no limit)
account-limit-save = Save game limit
account-emails = Email addresses
account-emails-label = Addresses, the first gets the mail
account-your-password = Your password
account-emails-save = Change addresses
account-password-current = Current password
account-password-new = New password
account-password-new-again = New password again
account-password-ends = Every other login session and every API token ends.
account-password-save = Change password
account-tokens = API tokens
account-tokens-about-html = Programs and bots use a token instead of your password: <code>Authorization: Bearer TOKEN</code> on requests to <a href="/api/openapi.json">the API</a>, with <code>-</code> as the password word of commands.
account-token-new = Your new token, shown only this once:
account-token-name = Name
account-token-made = Made
account-token-used = Last used
account-token-revoke = Revoke
account-token-no-name = (no name)
account-token-never = never
account-token-revoked = revoked { $when }
account-tokens-none = No tokens yet.
account-token-new-name = Name of the new token
account-token-placeholder = my bot
account-token-make = Make a token
account-no-token = There is no such token.
account-close = Close the account
account-close-about = You leave every running game (resigned) and can no longer log in. The games played stay on record.
account-close-confirm = I mean to close my account
account-close-ask = Close your account for good?
account-close-button = Close my account
account-done-password = Your password is changed. Every other login session and every token has ended.
account-done-emails = Your addresses are changed.
account-done-notify = Your notification setting is saved.
account-done-vacation = Your vacation is saved.
account-done-limit = Your game limit is saved.
account-done-policy = Your challenge policy is saved.
account-done-language = Your language is saved.
account-new-passwords-differ = The two new passwords differ.
account-not-a-number = { $value } is not a whole number
account-tick-to-close = Tick the box to say you mean to close the account.
account-no-setting = There is no setting { $setting }.

## Error pages

error-title = { $status ->
    [400] Bad Request
    [401] Unauthorized
    [403] Forbidden
    [404] Not Found
    [405] Method Not Allowed
    [409] Conflict
    [413] Payload Too Large
    [429] Too Many Requests
    [500] Internal Server Error
    [503] Service Unavailable
   *[other] Error
}
error-back = Back to the games
error-no-page = There is no such page.
error-method = { $path } does not take { $method } requests
error-internal-page = internal error: the page could not be made

## Tournaments

tournaments-about-html = Round robins between bots, run with <code>tabula tournament</code> on this server's database. Built-in bots and programs speaking the bot protocol take part.
tournaments-number = No.
tournaments-bots = Bots
tournaments-games = Games
tournaments-started = Started
tournaments-won-by-html = won by <strong>{ $leader }</strong>
tournaments-running = running
tournaments-none = No tournaments yet. Run one, for example:
tournament-title = Tournament { $id }: { $title }
tournament-heading = { $title } tournament
tournament-finished = { $games ->
    [one] Finished { $when }: { $games } game.
   *[other] Finished { $when }: { $games } games.
}
tournament-running = Running (or stopped): { $done } of { $total } games played; the figures below cover those.
tournament-setup-html = { $players } bots a game, { $games ->
    [one] { $games } game
   *[other] { $games } games
} per { $players ->
    [2] pair
   *[other] combination
}, seed { $seed }, options the defaults; started { $started }.
tournament-setup-options-html = { $players } bots a game, { $games ->
    [one] { $games } game
   *[other] { $games } games
} per { $players ->
    [2] pair
   *[other] combination
}, seed { $seed }, options <code>{ $options }</code>; started { $started }.
tournament-standings = Standings
tournament-standings-about = Ranked by games won (draws do not count), then rating. The rating is a Bradley-Terry fit of all games on the Elo scale (mean 1500).
tournament-bot = Bot
tournament-wins = Wins
tournament-losses = Losses
tournament-draws = Draws
tournament-win-rate = Win rate
tournament-interval = 95% interval
tournament-failures = Failures
tournament-ratings = Ratings
tournament-win-rates = Win rates and their 95% intervals
tournament-head-to-head = Head to head
tournament-head-to-head-about = Wins-losses-draws of the row's bot in the games it played with the column's.
tournament-failed-games = { $count ->
    [one] { $count } game ended by a bot's failure (crash, time, illegal move): marked below.
   *[other] { $count } games ended by a bot's failure (crash, time, illegal move): marked below.
}
tournament-games-count = { $count ->
    [one] { $count } game
   *[other] { $count } games
}
tournament-games-shown-html = (the first { $shown } shown; all through <a href="{ $href }">the API</a>)
tournament-seats = Seats
tournament-winner = Winner
tournament-scores = Scores
tournament-ending = How it ended
tournament-game-link = Game { $number }: seats, seed, results and failures
tournament-draw = draw
tournament-bot-said = { $bot }: what it said
tournament-no-stderr = (nothing on its error output)
tournament-json-html = As JSON: <a href="{ $standings }">standings and matrix</a>, <a href="{ $games }">games</a>.
tournament-cell = { $row } against { $column }: { $won } won, { $lost } lost, { $drawn } drawn
tournament-rating-chart = Ratings (Bradley-Terry, Elo scale, mean 1500)
tournament-win-chart = Win rates with their 95% intervals
tournament-not-a-number = { $text } is not a tournament number
tournament-none = there is no tournament { $id }
tournament-damaged = tournament { $id } is stored damaged

## The API's own errors (the service's errors come from errors.ftl)

bad-query = bad query parameters: { $error }
limit-range = limit must be 1 to { $max }
api-internal = internal error
api-not-a-board = { $text } is not a board number
api-body-too-large = a request body may be at most { $bytes } bytes
api-body-shape = the body must be JSON { $shape }: { $error }
api-request-timeout = the request body did not arrive within { $seconds } seconds
api-no-game = no game { $kind }
api-not-a-state = { $word } is not a state: use proposed, active, finished, cancelled, running, over or all
api-too-few-moves = { $moves ->
    [one] board { $board } has only { $moves } move
   *[other] board { $board } has only { $moves } moves
}
api-needs-token = this needs `Authorization: Bearer TOKEN`
api-bad-authorization = the Authorization header must be `Bearer TOKEN`
api-not-a-token-id = { $id } is not a token id
api-no-resource = no API resource { $path }
api-busy-replays = { $count } replays are being prepared for your address already: wait for them
bot-events-need-token = a bot's events need its token: `Authorization: Bearer TOKEN` (or ?token=)
bot-events-not-a-bot = { $user } is not a bot account: mark it with `bot on { $user } PASSWORD` first
bot-events-hosted = the server runs { $user }'s program itself (`tabula bot remove { $user }` ends that)
bot-events-too-many = at most { $max } boards
