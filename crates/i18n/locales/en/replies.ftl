# Replies to the commands of the command language: the heading (the mail
# subject) and the text, as every front end prints them.

language-set-subject = Language
language-set = Replies and mail for { $user } are now in English.

## Accounts

signup-subject = Welcome to Tabula
signup-text =
    Welcome, { $user }. Your account is ready.
    Send `help` for the commands and `list` for the games.
signoff-subject = Signed off
signoff-text = The account { $user } is closed. Goodbye.
password-subject = Password changed
password-text = The password of { $user } is changed. Every token and login session of the account has ended.
address-subject = Address changed
address-text = Mail for { $user } now goes to { $addresses }.
notify-subject = Notifications
notify-text = Email notifications for { $user } are { $state }.
vacation-subject = Vacation
vacation-text = { $user } is on vacation for { $days } days, until { $until }: no reminders or forfeits until then.
vacation-back = { $user } is back from vacation.
limit-subject = Limit
limit-text = { $user } accepts challenges while in fewer than { NUMBER($limit, useGrouping: "false") } running games.
limit-off = { $user } has no limit on running games.
policy-subject = Challenge policy
policy-ask = Challenges naming { $user } now wait until { $user } accepts them.
policy-open = Challenges naming { $user } now start at once.
bot-subject = Bot account
bot-on =
    { $user } is a bot account now: it is shown as a bot, and its games are played by a program.
    Run one on your machine with `tabula bot connect URL --token TOKEN -- COMMAND`
    (a token: `POST /api/v1/tokens`), or ask the operator to host it.
    Challenges start { $policy ->
        [ask] once the program accepts them
       *[open] at once
    } (`policy { $user } PASSWORD open|ask`).
bot-off = { $user } is a person's account again.

## A board: its heading (the mail subject), status lines and move list

heading = { $game } Board { $board }
heading-to-move = { $game } Board { $board } { $users }
heading-over = { $game } Board { $board } over
heading-cancelled = { $game } Board { $board } cancelled
heading-at-move = { $game } Board { $board } at move { NUMBER($moves, useGrouping: "false") }
heading-history = { $game } Board { $board } history
outcome-won = Game won by { $winner } ({ $reason }).
outcome-drawn = Game drawn ({ $reason }).
outcome-drawn-between = Game drawn between { $players } ({ $reason }).
status-challenge-waits = This challenge waits for { $users } to accept it.
status-challenge-rejected = This challenge was rejected.
status-turn = It is { $user }'s turn.
status-simultaneous = Waiting for { $users } to move (moves stay secret until all are in).
status-clock = The game runs on the clock: any player may move at any time.
status-proposes-draw = { $user } proposes a draw; waiting for { $others } to accept or reject.
status-proposes-undo = { $user } proposes to take back the last move; waiting for { $others } to accept or reject.
moves-heading = Moves:
moves-cut = ({ NUMBER($lines, useGrouping: "false") } earlier lines: the history command shows them all)
move-taken-back = (taken back)
history-empty = No moves yet.

## Moves that wait, and previews

queued-text =
    Queued for your next turn: { $text }
    (it is played then if it is legal then)
submitted-text =
    Submitted, not yet played: { $text }
    The board would then be as below. Send `{ $game } confirm { $board } { $user } PASSWORD` to play it.
preview-text = Preview (nothing is played): { $text }
preview-completes-step = This move completes the step: the other players' secret moves are shown, and the step resolved, only once it is played. The board below shows your part alone, as if the others had not moved yet.
queue-dropped-subject = Board { $board }: queued move dropped
queue-dropped-text = Your queued move { $text } on board { $board } was not legal when your turn came, so it was dropped.

## Chat and subscriptions

chat-subject = { $game } Board { $board } chat from { $user }
chat-text = { $user } writes on { $game } board { $board }:
chat-sent = Sent to the other players of board { $board }.
comment-from = Comment from { $user }:
subscribed = { $user } will receive the updates of board { $board }.
unsubscribed = { $user } no longer receives the updates of board { $board }.

## Challenges, reminders, digests

challenged = You are challenged to { $game } board { $board }.
challenged-accept = You are challenged to { $game } board { $board }. Accept with `{ $kind } accept { $board } { $user } PASSWORD` or refuse with `{ $kind } reject { $board } { $user } PASSWORD`.
reminder-subject = { $game } Board { $board } { $user }: your move
reminder-text = Reminder: it has been { $idle } since the last move on { $game } board { $board }, and it is your move.
forfeit-warning-subject = { $game } Board { $board } { $user }: forfeit in { $left }
forfeit-warning-text = You have not moved on { $game } board { $board } for { $idle }. If you do not move within { $left }, you forfeit the game.
digest-subject = { $game } Board { $board } digest
digest-text = The day on { $game } board { $board } ({ $day }): moves by { $moves }.

## Lists, standings and ratings

games-subject = { $game } games of { $user } ({ $which ->
        [active] active
        [finished] finished
        [waiting] waiting for them
       *[all] all
    })
games-line = Board { $board }  { $players }  ({ $state })
games-none = No boards.
boards-state-over = over
boards-state-cancelled = cancelled
boards-state-proposed = waiting for acceptance
boards-state-running = running
boards-state-to-move = { $users } to move
standings-subject = { $game } standings
standings-none = No finished games yet.
ratings-subject = { $game } ratings
ratings-explained = Glicko-2 ratings over every finished game in order (start 1500, deviation RD 350; the rating is within 2 RD of the truth with about 95 % confidence; a game of several players counts as a match between every pair).
column-player = player
column-won = won
column-lost = lost
column-drawn = drawn
column-rating = rating
column-deviation = RD
column-games = games
