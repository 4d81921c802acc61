# The command line's own help, per command and option (see crates/tabula/src/help.rs).

cli-tabula-about = Tabula: a server for small multiplayer games played by email, from a terminal, on the web or through an HTTP API
cli-tabula-after =
    Every command of the command language runs exactly as it would arrive by
    email, and prints the reply: a heading (the mail subject), the status, the
    move list and the board as you may see it.

    Examples:
      tabula signup ned secret ned@example.org
      tabula signup ted secret2 ted@example.org
      tabula dna challenge ned ted -seed=1
      tabula dna move 1 ned secret AAG
      tabula dna show 1
      tabula help dna        a game's rules, options and move syntax
      tabula serve           web pages and the API on http://127.0.0.1:8080/

    `tabula COMMAND --help` describes each command. Exit status: 0 done,
    1 rejected (the reason is printed), 2 bad usage.
cli-tabula-arg-db = The database: a SQLite file (created if missing) or a PostgreSQL URL (postgres://user:password@host/db)
cli-tabula-arg-now = Fix the clock (RFC 3339, e.g. 2026-01-01T12:00:00Z), for tests, replays and demos
cli-tabula-arg-json = Print machine-readable JSON
cli-tabula-arg-lang = The language of replies and errors: en, fi or es [default: from LC_ALL, LC_MESSAGES or LANG, else en]
cli-tabula-serve-about = Serve the web pages and the HTTP API, and run the clocks
cli-tabula-serve-about-long =
    Serve the web pages and the HTTP API, and run the clocks

    Serves the web pages and the JSON API over the database, and runs the clock of real-time games, reminders, forfeits and digests. Prints the address it serves once it listens. Stop it with Ctrl-C or SIGTERM: requests in flight are finished first. Logs go to standard error, in colour only on a terminal (RUST_LOG=debug for more).
cli-tabula-serve-arg-listen = Serve HTTP on ADDR (port 0: any free port)
cli-tabula-serve-arg-smtp = Also receive mail over SMTP on ADDR (e.g. 127.0.0.1:2525)
cli-tabula-serve-arg-relay = Send the outbox through the SMTP relay RELAY: HOST:PORT (plain SMTP), smtp://USER@HOST:587?tls=required (STARTTLS, then a login), or smtps://USER@HOST:465 (TLS from the start). With TLS the relay's certificate must be valid for HOST; nothing is ever sent in plain text instead. Mail the relay does not take stays queued and is tried again later
cli-tabula-serve-arg-relay_ca = Trust only the certificate authorities in FILE (PEM) for the relay's certificate, instead of the built-in roots: for a relay whose certificate comes from a private authority
cli-tabula-serve-arg-relay_password_file = Read the password of the relay's USER from FILE (its first line); without it, from the environment variable TABULA_RELAY_PASSWORD. Never put it in RELAY: the process list shows it to every user
cli-tabula-serve-arg-mail_from = The address mail comes from
cli-tabula-serve-arg-max_message_size = The largest message taken over --smtp, in bytes; larger ones are refused (552) before they are read
cli-tabula-serve-arg-log_format = How log lines are written: text, or json (one object a line, for log collectors)
cli-tabula-serve-arg-log_format-value-text = Human-readable lines; colours only when standard error is a terminal
cli-tabula-serve-arg-log_format-value-json = One JSON object a line
cli-tabula-serve-arg-trust_proxy = Take the client's address from Forwarded or X-Forwarded-For when the connection comes from this network (a load balancer, a reverse proxy), e.g. 127.0.0.1/32 or 10.0.0.0/8; repeatable. Failed logins are counted per client address: without it, every client behind the proxy shares the proxy's count
cli-tabula-serve-arg-challenges_per_hour = Challenges naming someone else one user may send in an hour over the network (0: no limit)
cli-tabula-serve-arg-replay_cache = Memory in MiB the games kept replayed between moves may hold; a game that does not fit is replayed from its record when next used (0: none is kept)
cli-tabula-serve-arg-max_connections = Open connections taken at most; past it new ones are answered 503 [default: 10000, or fewer when the open-files limit is lower]
cli-tabula-serve-arg-max_connections_per_address = Open connections taken from one client address
cli-tabula-serve-arg-read_timeout = Seconds a request's headers, its body, or the next request on a kept-alive connection may take
cli-tabula-serve-arg-write_timeout = Seconds a client may read nothing of an answer or an event stream before it is disconnected
cli-tabula-serve-arg-bot_user = When run as root: the user hosted bots' programs (`tabula bot add`) run as [default: nobody]
cli-tabula-serve-arg-no_hosted_bots = Run no hosted bots' programs here (by default each server on the database runs those it claims first, and takes over those of a server that stopped)
cli-tabula-mail-about = Run the commands of one email message from standard input and reply
cli-tabula-mail-about-long =
    Run the commands of one email message from standard input and reply

    For a mail server that pipes each incoming message to Tabula, as pbmserv was run. The commands come from the Subject line or the first lines of the body; quoted lines and the signature are ignored. The reply is queued in the outbox, sent by `tabula serve --relay` or, with --relay, at once by this command (a cron and pipe installation needs no server); or printed as a whole message with --reply-to-stdout. Auto-replies, bounces and mailing-list mail are never answered.
cli-tabula-mail-arg-reply_to_stdout = Print the reply as a whole message instead of queueing it
cli-tabula-mail-arg-mail_from = The address the reply comes from
cli-tabula-mail-arg-max_message_size = The largest message taken, in bytes; a larger one is refused (exit status 65, the mail server bounces it)
cli-tabula-mail-arg-relay = Send the outbox through the SMTP relay RELAY: HOST:PORT (plain SMTP), smtp://USER@HOST:587?tls=required (STARTTLS, then a login), or smtps://USER@HOST:465 (TLS from the start). With TLS the relay's certificate must be valid for HOST; nothing is ever sent in plain text instead. Mail the relay does not take stays queued and is tried again later
cli-tabula-mail-arg-relay_ca = Trust only the certificate authorities in FILE (PEM) for the relay's certificate, instead of the built-in roots: for a relay whose certificate comes from a private authority
cli-tabula-mail-arg-relay_password_file = Read the password of the relay's USER from FILE (its first line); without it, from the environment variable TABULA_RELAY_PASSWORD. Never put it in RELAY: the process list shows it to every user
cli-tabula-outbox-about = Show what waits in the outbox to be sent, and what was given up
cli-tabula-outbox-about-long =
    Show what waits in the outbox to be sent, and what was given up

    The newest rows last. Replies and notifications are written to the outbox in the same transaction as the move and sent by `tabula serve --relay RELAY`.
cli-tabula-outbox-arg-limit = Show at most N rows (the newest)
cli-tabula-cron-about = Run what is due once: clock events, reminders, forfeits and digests
cli-tabula-cron-about-long =
    Run what is due once: clock events, reminders, forfeits and digests

    For installations that drive the scheduler from cron, as pbmserv was run, and for tests with --now. `tabula serve` does the same continuously.
cli-tabula-cron-arg-mail_from = The address mail comes from (with --relay)
cli-tabula-cron-arg-relay = Send the outbox through the SMTP relay RELAY: HOST:PORT (plain SMTP), smtp://USER@HOST:587?tls=required (STARTTLS, then a login), or smtps://USER@HOST:465 (TLS from the start). With TLS the relay's certificate must be valid for HOST; nothing is ever sent in plain text instead. Mail the relay does not take stays queued and is tried again later
cli-tabula-cron-arg-relay_ca = Trust only the certificate authorities in FILE (PEM) for the relay's certificate, instead of the built-in roots: for a relay whose certificate comes from a private authority
cli-tabula-cron-arg-relay_password_file = Read the password of the relay's USER from FILE (its first line); without it, from the environment variable TABULA_RELAY_PASSWORD. Never put it in RELAY: the process list shows it to every user
cli-tabula-backup-about = Copy the SQLite database to FILE while servers keep serving
cli-tabula-backup-about-long =
    Copy the SQLite database to FILE while servers keep serving

    The copy is the database as it was at one moment: every move acknowledged before the backup began is in it. Servers keep taking moves meanwhile. The copy is checked (PRAGMA integrity_check) and synced before it appears under FILE. To restore, stop the servers and put the copy in place of the database file (removing the old file's -wal and -shm files). A PostgreSQL database is backed up with pg_dump.
cli-tabula-backup-arg-file = Where the copy goes (a new file)
cli-tabula-backup-arg-force = Replace FILE if it exists
cli-tabula-tournament-about = Play a round robin between bots, kept in the database as it goes
cli-tabula-tournament-about-long =
    Play a round robin between bots, kept in the database as it goes

    The bots are built-in (random, greedy, mcts, mcts:2000, mcts:250ms ..) or programs speaking the bot protocol. The same --seed gives the same games. Results are kept in the database as games finish; running the same tournament again resumes it. Prints the standings, or with --json the whole report.
cli-tabula-tournament-after =
    Example:
      tabula tournament --game intervalo --games-per-pair 100 \
          --bot random --bot mcts --bot "python3 examples/bots/center.py"
cli-tabula-tournament-arg-game = The game (dna, rewrite, intervalo, conway ..)
cli-tabula-tournament-arg-bots = A bot: a built-in name or a command line (repeat for each bot)
cli-tabula-tournament-arg-games_per_pair = Games each pair (or each combination of --players bots) plays
cli-tabula-tournament-arg-players = Bots seated in each game
cli-tabula-tournament-arg-seed = The tournament seed; every game's seed derives from it
cli-tabula-tournament-arg-move_time = Per-move time limit of external bots, in milliseconds
cli-tabula-tournament-arg-game_time = Per-game thinking time of each external bot, in seconds
cli-tabula-tournament-arg-view = What Intervalo bots see: static (the strip) or dynamic (with history and scores)
cli-tabula-tournament-arg-options = A game option for every game, e.g. --option=-cells=32 (repeat)
cli-tabula-tournament-arg-threads = Worker threads (default: one per core)
cli-tabula-tournament-arg-json_file = Write the results as JSON to FILE
cli-tabula-tournament-arg-csv = Write the results as CSV to FILE
cli-tabula-tournament-arg-quiet = Do not draw a progress bar
cli-tabula-tournament-arg-bot_user = The user bot programs run as when tabula runs as root (default: nobody)
cli-tabula-tournament-arg-distributed = Do not play here: offer the games to `tabula worker` processes on any machines sharing the PostgreSQL database, and report when all are done
cli-tabula-worker-about = Play the games of distributed tournaments from the PostgreSQL database
cli-tabula-worker-about-long =
    Play the games of distributed tournaments from the PostgreSQL database

    Plays the games that `tabula tournament --distributed` offers in the PostgreSQL database: claims one game at a time per thread, plays it and stores its result. Run as many workers on as many machines as you like; stop one at any time (a game it was playing is played again by another worker once its lease has run out).
cli-tabula-worker-arg-threads = Games played at once (default: one per core)
cli-tabula-worker-arg-lease = How long a claim holds without renewal, in seconds; a game that makes no progress is not renewed
cli-tabula-worker-arg-bot_user = The user bot programs run as when the worker runs as root (default nobody)
cli-tabula-worker-arg-exit_when_idle = Stop when no game of any tournament is left to play
cli-tabula-life-about = Evolve a board by the multi-colour Life rule (see `tabula life run --help`)
cli-tabula-life-run-about = Evolve a board by the multi-colour Life rule of Conway and Real-Time Life and print it
cli-tabula-life-run-after = FILE holds rows of `.` (empty), `#` (neutral) and `A`..`Z` (players), top row first; the grid size is the file's. `-` reads standard input. With --edges unbounded the plane grows as needed and the printout is the bounding box, after a line `#offset X Y` giving its top-left corner relative to the input's.
cli-tabula-life-run-arg-generations = Generations to run
cli-tabula-life-run-arg-edges = torus (default), dead (nothing lives outside the grid) or unbounded
cli-tabula-life-run-arg-file = The board file (`-` for standard input)
cli-tabula-bot-connect-about = Play a bot account's games on a Tabula server with a program on this machine
cli-tabula-bot-connect-after =
    The program speaks the bot protocol, version 1 (docs/bot-protocol.md), as in a tournament; one process of it plays each game. Make the account a bot with `bot on USERID PASSWORD` and a token with POST /api/v1/tokens. Over https the server's certificate must be valid for HOST and signed by an authority of the built-in roots (Mozilla's list), or of --ca FILE for a private authority; an untrusted certificate ends the command. The token comes from --token-file FILE, else the environment variable TABULA_BOT_TOKEN, else --token (which every user of the machine can read in the process list). Examples:
      tabula bot connect http://127.0.0.1:8080 --token T -- python3 examples/bots/center.py
      tabula bot connect https://play.example.org --token-file ~/.mybot-token -- ./mybot
      tabula bot connect https://tabula.internal:8443 --ca internal-ca.pem --token-file token -- ./mybot
cli-tabula-bot-connect-arg-url = The server: http://HOST[:PORT] or https://HOST[:PORT], with the path it is served under, if any
cli-tabula-bot-connect-arg-token = The bot account's API token (shown to every user of this machine in the process list: prefer --token-file or TABULA_BOT_TOKEN)
cli-tabula-bot-connect-arg-token_file = Read the bot account's API token from FILE (its first line)
cli-tabula-bot-connect-arg-ca = Over https, trust only the certificate authorities in FILE (PEM) for the server's certificate, instead of the built-in roots: for a server whose certificate comes from a private authority
cli-tabula-bot-connect-arg-games = Accept challenges (those that wait for acceptance) of this game only; repeat for several (default: every game)
cli-tabula-bot-connect-arg-bot_user = When run as root: the user the program runs as
cli-tabula-bot-connect-arg-command = The program and its arguments (after `--`)
cli-tabula-bot-add-about = Have the server run a program for a bot account's games (a hosted bot)
cli-tabula-bot-add-after =
    `tabula serve` on this database runs the program (protocol v1) for the account's games, one process a game, confined and held to the same deadlines as the tournament referee's bots. The account becomes a bot account if it was not one. Example:
      tabula bot add centrebot -- python3 /srv/bots/center.py
cli-tabula-bot-add-arg-user = The bot account
cli-tabula-bot-add-arg-command = The program and its arguments (after `--`)
cli-tabula-bot-remove-about = Stop running a program for a bot account (it stays a bot, and may connect from elsewhere)
cli-tabula-bot-remove-arg-user = The bot account
cli-tabula-bot-list-about = The bot accounts, and the programs the server runs for them
cli-tabula-dna-remove-about = Remove every instance of CHUNK from SEQUENCE by DNA's rule (left-to-right passes until one removes nothing)
cli-tabula-dna-remove-after =
    Any letters are allowed. Example: tabula dna remove TAAGAAGCGCCT AGC  prints TAT and removed 3.
    With --json: {"{"}"sequence": "...", "removed": N{"}"} on one line.
cli-tabula-dna-remove-arg-trace = Print each pass, with the removed chunks in brackets
cli-tabula-dna-remove-arg-sequence = The sequence to reduce
cli-tabula-dna-remove-arg-chunk = The chunk to remove
cli-tabula-rewrite-run-about = Apply rule sets to a string as one round of Rewrite does: the newest set first, down to the oldest
cli-tabula-rewrite-run-after =
    RULESFILE holds the rule sets oldest first, one rule a line (lhs=>rhs, or owner: lhs=>rhs), sets separated by a line ---. Any characters are allowed. `-` reads the file from standard input.
    With --json: the result and every pass as JSON.
    Example: tabula rewrite run --start pupupusu rules.txt
cli-tabula-rewrite-run-arg-trace = Print every pass with its applications
cli-tabula-rewrite-run-arg-start = The start string
cli-tabula-rewrite-run-arg-start_file = Read the start string from FILE (`-` for standard input; a final newline is not part of it)
cli-tabula-rewrite-run-arg-rules_file = The rule sets
