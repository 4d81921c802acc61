# The command line's own words around the service's replies.

cli-help-game-more = `tabula help { $game }` gives the game's rules, options and moves.
cli-calculator = Calculator: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } takes a game command, which starts with its verb: `tabula help { $game }` lists them
cli-game-verb-calculator = { $game } takes a game command, which starts with its verb: `tabula help { $game }` lists them; the calculator is `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` lists the commands)

## clap's own words in a command's help (English help is clap's own)

cli-help-verb = The commands, or a game's rules, options and move syntax
cli-heading-usage = Usage:
cli-heading-options = Options
cli-heading-arguments = Arguments
cli-heading-commands = Commands
cli-heading-global = Global options (before or after the command)
cli-flag-help = Print help
cli-flag-help-more = Print help (see more with '--help')
cli-flag-help-summary = Print help (see a summary with '-h')
cli-flag-version = Print version
cli-default = [default: { $value }]
cli-choices = [possible values: { $values }]
cli-choices-heading = Possible values:

## clap's errors (English errors are clap's own)

cli-error = error:
cli-error-unknown-argument = unexpected argument '{ $arg }' found
cli-error-unknown-command = unrecognized subcommand '{ $command }'
cli-error-invalid-value = invalid value '{ $value }' for '{ $arg }'
cli-error-value-required = a value is required for '{ $arg }' but none was supplied
cli-error-missing = the following required arguments were not provided: { $args }
cli-error-conflict = the argument '{ $arg }' cannot be used with '{ $other }'
cli-error-twice = the argument '{ $arg }' cannot be used multiple times
cli-error-too-many = unexpected value '{ $value }' for '{ $arg }' found; no more were expected
cli-error-no-equals = equal sign is needed when assigning values to '{ $arg }'
cli-error-did-you-mean = tip: a similar one exists: '{ $suggestion }'
cli-error-more = For more information, try '--help'.
cli-error-no-command = no command given
cli-error-not-utf8 = { $word } is not UTF-8

## The server's own commands (serve, backup, outbox, cron, worker)

op-serving = Tabula is serving on { $url }
op-receiving-smtp = Tabula receives mail over SMTP on { $address }
op-listening = listening on { $address }
op-listening-smtp = listening for SMTP on { $address }
op-serving-failed = serving on { $address }
op-opening-database = opening the database { $db }
op-backup-postgres =
    backup copies a SQLite database; back up PostgreSQL with pg_dump, e.g.
      pg_dump --format=custom --file=tabula.dump '{ $db }'
op-backup-no-file = there is no database file { $db }
op-backup-exists = { $file } exists already: name a new file, or pass --force to replace it
op-backing-up = backing up { $db } to { $file }
op-backed-up = Backed up { $db } to { $file }: { NUMBER($users, useGrouping: "false") } users, { NUMBER($games, useGrouping: "false") } games, { NUMBER($events, useGrouping: "false") } events, { NUMBER($bytes, useGrouping: "false") } bytes; integrity check ok.
op-outbox-sent = sent
op-outbox-given-up = given up: { $error }
op-outbox-failed = failed { NUMBER($attempts, useGrouping: "false") } times: { $error }
op-outbox-waiting = waiting
op-outbox-row = #{ NUMBER($id, useGrouping: "false") } to { $recipient } [{ $state }]
op-outbox-subject = Subject: { $subject }
op-outbox-empty = The outbox is empty.
op-cron-done = clocks caught up on { NUMBER($clocks, useGrouping: "false") } games; { NUMBER($games, useGrouping: "false") } games checked: { NUMBER($reminders, useGrouping: "false") } reminders, { NUMBER($warnings, useGrouping: "false") } forfeit warnings, { NUMBER($forfeits, useGrouping: "false") } forfeits, { NUMBER($digests, useGrouping: "false") } digests; { NUMBER($pruned, useGrouping: "false") } old outbox rows deleted
op-cron-mail = mail: { NUMBER($sent, useGrouping: "false") } sent, { NUMBER($retry, useGrouping: "false") } to retry, { NUMBER($given_up, useGrouping: "false") } given up
op-worker-needs-postgres = a worker needs the shared PostgreSQL database: --db postgres://user@host/db
op-worker-played = worker played { NUMBER($games, useGrouping: "false") } games
op-starting-runtime = starting the runtime
op-following-changes = listening for changes
op-reading-address = reading the address listened on
op-writing-stdout = writing to standard output
op-listening-signal = listening for { $signal }
op-worker-thread-failed = a worker thread failed
op-reading-file = { $option }: reading { $file }
op-relay-password-visible = warning: the relay's password in --relay can be read by every user of this machine in the process list; use --relay-password-file FILE or { $variable }
op-relay-no-user = --relay-password-file: --relay names no user (smtp://USER@HOST:587?tls=required)
op-relay-no-password-in-file = --relay-password-file: { $file } holds no password for { $user } on its first line
op-relay-needs-password = --relay: the relay's user { $user } needs a password: --relay-password-file FILE or the environment variable { $variable }
op-sending-outbox = sending the outbox
op-outgoing-mail-failed = outgoing mail { $error }
op-mail-left = { $error }; the message is left to the mail server, to be delivered again later
op-reading-message = reading the message
op-mail-no-database = the database { $db } does not exist: give --db the absolute path of the database, created by the operator first (for example by `tabula --db { $db } serve` or any other command)
op-not-bytes = { $text } is not a number of bytes
op-bytes-out-of-range = { NUMBER($bytes, useGrouping: "false") } is out of range: from 1024 bytes to 67108864 (64 MiB)

## A tournament's results table

report-heading = { $game }: { NUMBER($bots, useGrouping: "false") } bots, { NUMBER($players, useGrouping: "false") } players a game, { NUMBER($per_pair, useGrouping: "false") } games per { $players ->
        [2] pair
       *[other] combination
    }, seed { $seed }, { NUMBER($games, useGrouping: "false") } games
report-column-rank = rank
report-column-bot = bot
report-column-games = games
report-column-wins = wins
report-column-losses = losses
report-column-draws = draws
report-column-win-rate = win %
report-column-interval = 95% interval
report-column-rating = rating
report-column-failures = failures
report-head-to-head = Head to head (wins-losses-draws of the row's bot against the column's):
report-failures = Failures ({ NUMBER($count, useGrouping: "false") }):
report-failure = game { NUMBER($game, useGrouping: "false") }: { $message }
report-more-failures = ... and { NUMBER($count, useGrouping: "false") } more (see the JSON results)

## tabula bot add, remove, list and connect

bot-hosted-set = The server runs `{ $command }` for { $user }'s games.
bot-hosted-removed = The server no longer runs a program for { $user }; it is still a bot account.
bot-list-empty = No bot accounts.
bot-list-hosted = hosted: { $command }
bot-list-run-by = (run by { $host })
bot-list-not-run = (no server runs it now)
bot-list-remote = remote (tabula bot connect)
bot-no-game = there is no game { $game }: the games are { $games }
bot-reading-token-file = --token-file: reading { $file }
bot-token-missing = the bot's token is missing: --token-file FILE, the environment variable { $variable }, or --token TOKEN
bot-token-empty = the token is empty
bot-url-scheme = the URL must start with http:// or https://
bot-url-bad = { $url } is not a server's URL (http://HOST:PORT or https://HOST:PORT)
bot-ca-plain = --ca is for https:// servers; { $url } is plain http
bot-bad-host = { $host } is not a host name or address a certificate can carry
bot-ca-reading = --ca: reading { $file }
bot-ca-not-pem = --ca: { $file } is not a PEM certificate file: { $error }
bot-ca-no-certificate = --ca: { $file } holds no certificate (-----BEGIN CERTIFICATE-----)
bot-tls-settings = the TLS settings
bot-untrusted = { $server }: the server's certificate is not trusted ({ $why }); if it comes from a private authority, give that authority's certificate with --ca FILE
bot-handshake-failed = { $server }: the TLS handshake failed: { $error }
bot-no-connection = no connection within { NUMBER($seconds) } s
bot-no-handshake = no TLS handshake within { NUMBER($seconds) } s
bot-no-answer = the answer did not arrive within { NUMBER($seconds) } s
bot-not-json = the answer is not JSON: { $error }
bot-stream-silent = the event stream went silent
bot-event-too-long = an event longer than 8 MiB
bot-playing = playing as { $user } on { $url } with `{ $command }`
bot-sending-again = { $error }; sending `{ $command }` again in { NUMBER($seconds) } s
bot-unknown-token = the server does not know the token
bot-token-refused = the server refused the token: { $message }
bot-unreachable = cannot reach the server ({ $error }); trying again in { NUMBER($seconds) } s
bot-stream-ended = the server ended the event stream; connecting again
bot-stream-refused = the server refused the event stream: { $message } ({ $code })
bot-connection-lost = connection lost ({ $error }); connecting again in { NUMBER($seconds) } s
bot-accepted = accepted the challenge of board { $board } ({ $game })
bot-rejected = rejected the challenge of board { $board } ({ $game })
bot-accept-failed = could not accept board { $board }: { $message }
bot-reject-failed = could not reject board { $board }: { $message }
bot-game-over = board { $board } is over
bot-on-board = board { $board }: { $text }
bot-program-not-running = the program is not running
bot-last-words = the program's last words:
    { $tail }
bot-move-refused = the move { $answer } was refused: { $message }
bot-refused-move-loses = the program answered a move the server refused: { $answer }
bot-resigning = { $reason }; resigning
bot-resign-failed = could not resign: { $message }

## Why a bot lost a game (tournament tables and pages, a connected bot's log)

fault-not-started = { $bot } could not be started: { $error }
fault-did-not-read = { $bot } timed out (it did not read its input within { NUMBER($ms, useGrouping: "false") } ms)
fault-crashed-before-start = { $bot } crashed before the game started
fault-dead = { $bot } crashed
fault-input-closed = { $bot } crashed (its input is closed)
fault-pipe = { $bot } crashed (pipe error: { $error })
fault-exited = { $bot } crashed ({ $status })
fault-output-closed = { $bot } crashed (it closed its output)
fault-empty-line = { $bot } answered an empty line
fault-game-time = { $bot } used up its { NUMBER($ms, useGrouping: "false") } ms for the game
fault-no-move = { $bot } timed out (no move within { NUMBER($ms, useGrouping: "false") } ms)
fault-no-move-starting = { $bot } timed out (no move within { NUMBER($ms, useGrouping: "false") } ms: { NUMBER($move_ms, useGrouping: "false") } ms for the move and { NUMBER($startup_ms, useGrouping: "false") } ms to start up)
fault-flood = { $bot } wrote more than 64 KiB in one line
fault-malformed = { $bot } answered a malformed move { $answer }: { $error }
fault-illegal = { $bot } answered an illegal move { $answer }: { $error }
fault-no-record = { $bot } cannot be shown a game kept without its record
fault-found-no-move = { $bot } found no move
