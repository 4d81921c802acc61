//! Games: their records and summaries, and what hangs on a game
//! (subscriptions, queued and pending moves, chat).

use super::*;

/// The columns of a game's summary, as [`GameSummary`] reads them.
macro_rules! summary {
    () => {
        "g.id, g.kind, g.players, g.status, g.moves, g.to_move, g.version, g.updated, g.result, g.next_clock"
    };
}

/// A game's row, its seats and its events: what [`Store::game`] reads, in
/// one snapshot.
pub(super) const GAME: [&str; 3] = [
    "SELECT * FROM games g WHERE id = ?1",
    "SELECT p.accepted, p.result, p.user_id, b.user_id IS NOT NULL AS bot FROM game_players p \
     LEFT JOIN bot_accounts b ON b.user_id = p.user_id WHERE p.game_id = ?1 ORDER BY p.seat",
    "SELECT at, seat, action FROM events WHERE game_id = ?1 ORDER BY seq",
];

/// A row per seat (`part` 0, with `accepted` and `seat_result`) and per
/// other subscriber (`part` 1), each with its `reader` and that reader's
/// `emails`, `notify`, `signed_off`, `bot` and `language`, then the game's
/// summary columns: what [`Store::game_head`] returns, in one statement.
/// The reader's columns come first, [`HEAD_READER_COLUMNS`] of them, so
/// that a row's reader is read from those alone.
pub(super) const GAME_HEAD: &str = concat!(
    "SELECT p.accepted, p.result AS seat_result, p.user_id AS reader, u.emails, u.notify, u.signed_off, \
     b.user_id IS NOT NULL AS bot, u.language, ",
    summary!(),
    ", 0 AS part, p.seat FROM games g \
     LEFT JOIN game_players p ON p.game_id = g.id LEFT JOIN users u ON u.id = p.user_id \
     LEFT JOIN bot_accounts b ON b.user_id = p.user_id WHERE g.id = ?1 \
     UNION ALL SELECT NULL, NULL, s.user_id, u.emails, u.notify, u.signed_off, NULL, u.language, ",
    summary!(),
    ", 1, NULL FROM games g \
     JOIN subscriptions s ON s.game_id = g.id LEFT JOIN users u ON u.id = s.user_id WHERE g.id = ?1 \
     ORDER BY part, seat, reader"
);

/// How many of [`GAME_HEAD`]'s columns, first, are a reader's.
pub(super) const HEAD_READER_COLUMNS: usize = 8;

impl Store {
    /// Store a new game, with the side effects `effects` makes for its board
    /// number (its mail) in the same transaction; returns the board number.
    pub async fn create_game(&self, game: &NewGame, effects: NewGameEffects) -> StoreResult<i64> {
        let (store, g) = (self.clone(), game.clone());
        let then = move |id| {
            let mut statements: Vec<_> = new_seats(id, &g).into_iter().collect();
            statements.extend(side_effects(&effects(id), Some(id), g.created)?);
            statements.extend(store.announce(id));
            Ok(statements)
        };
        self.write_new(new_game(game), Box::new(then)).await
    }

    /// A game's record and summary.
    pub async fn game(&self, id: i64) -> StoreResult<Option<StoredGame>> {
        on_db!(self, db => db.game(id).await)
    }

    /// A game's summary and acceptances without its events (cheap: what a
    /// command needs when it has the game replayed in memory already).
    pub async fn game_head(&self, id: i64) -> StoreResult<Option<GameHead>> {
        on_db!(self, db => db.game_head(id).await)
    }

    /// Append events against `expected_version`, update the summary, and
    /// carry out the side effects, all in one durable transaction.
    pub async fn append(
        &self,
        expected_version: i64,
        events: &[Event],
        summary: &GameSummary,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let started = std::time::Instant::now();
        let mut statements = append(expected_version, events, summary, effects)?;
        statements.extend(self.announce(summary.id));
        self.write_guarded(statements).await?;
        // SQLite's writer reports its batches as it syncs them; here each
        // append is a transaction of its own.
        if let (Db::Postgres(_), Some(metrics)) = (&self.db, crate::metrics::kept()) {
            metrics.commit_batch_size.observe(1.0);
            metrics.commit_batch_seconds.observe(started.elapsed().as_secs_f64());
        }
        Ok(())
    }

    /// Set a challenged player's acceptance, and the status.
    pub async fn set_acceptance(
        &self,
        id: i64,
        seat: usize,
        accepted: bool,
        status: GameStatus,
        effects: &[SideEffect],
        at: Timestamp,
    ) -> StoreResult<()> {
        let seat_row = "UPDATE game_players SET accepted = ?1 WHERE game_id = ?2 AND seat = ?3";
        let game_row = "UPDATE games SET status = ?1 WHERE id = ?2";
        let changes = [
            (seat_row.into(), values![accepted, id, seat as i64]),
            (game_row.into(), values![status.as_str(), id]),
        ];
        self.write_with(changes.into_iter().chain(self.announce(id)), effects, Some(id), at).await
    }

    /// List games.
    pub async fn games(&self, filter: &GameFilter) -> StoreResult<Vec<GameSummary>> {
        let (sql, values, on) = filter.query(summary!(), &self.db);
        self.rows_on(on, sql, values).await
    }

    /// How many games [`Store::games`] would list for `filter` (at most
    /// its limit), without reading them.
    pub async fn count_games(&self, filter: &GameFilter) -> StoreResult<usize> {
        let (inner, values, on) = filter.query("g.id", &self.db);
        let count: Vec<(i64,)> =
            self.rows_on(on, format!("SELECT COUNT(*) FROM ({inner}) listed"), values).await?;
        Ok(count.first().map_or(0, |(n,)| *n as usize))
    }

    /// Finished games of a kind (or all), oldest first, for standings and ratings.
    pub async fn finished(&self, kind: Option<&str>) -> StoreResult<Vec<GameSummary>> {
        let seat_results = match self.db {
            Db::Sqlite(_) => "json_group_array",
            Db::Postgres(_) => "json_agg",
        };
        let sql = format!(
            "SELECT {}, COALESCE((SELECT {seat_results}(p.result ORDER BY p.seat) FROM game_players p \
             WHERE p.game_id = g.id), '[]') AS seat_results FROM games g \
             WHERE status = 'finished' AND (CAST(?1 AS TEXT) IS NULL OR kind = ?1) ORDER BY updated, id",
            summary!()
        );
        self.rows(sql, values![kind]).await
    }

    /// Subscribe a user to a game's updates.
    pub async fn subscribe(
        &self,
        game: i64,
        user: &str,
        on: bool,
        effects: &[SideEffect],
        at: Timestamp,
    ) -> StoreResult<()> {
        let sql = if on {
            "INSERT INTO subscriptions (game_id, user_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM subscriptions WHERE game_id = ?1 AND user_id = ?2"
        };
        self.write_with([(sql.into(), values![game, user])], effects, Some(game), at).await
    }

    /// A game's subscribers.
    pub async fn subscribers(&self, game: i64) -> StoreResult<Vec<String>> {
        let sql = "SELECT user_id FROM subscriptions WHERE game_id = ?1 ORDER BY user_id";
        Ok(self.rows(sql, values![game]).await?.into_iter().map(|(user,)| user).collect())
    }

    /// Queue a conditional move.
    pub async fn queue_move(
        &self,
        game: i64,
        user: &str,
        text: &str,
        at: Timestamp,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let sql = "INSERT INTO queued_moves (game_id, user_id, move, created) VALUES (?1, ?2, ?3, ?4)";
        self.write_with([(sql.into(), values![game, user, text, at])], effects, Some(game), at).await
    }

    /// A game's queued moves, oldest first.
    pub async fn queued_moves(&self, game: i64) -> StoreResult<Vec<QueuedMove>> {
        let sql = "SELECT id, user_id, move FROM queued_moves WHERE game_id = ?1 ORDER BY id";
        self.rows(sql, values![game]).await
    }

    /// Store (replace) a submitted two-step move.
    pub async fn set_pending(
        &self,
        game: i64,
        user: &str,
        text: &str,
        at: Timestamp,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let sql = "INSERT INTO pending_moves (game_id, user_id, move, created) VALUES (?1, ?2, ?3, ?4) \
                   ON CONFLICT (game_id, user_id) DO UPDATE SET move = excluded.move, created = excluded.created";
        self.write_with([(sql.into(), values![game, user, text, at])], effects, Some(game), at).await
    }

    /// The submitted move of a user.
    pub async fn pending(&self, game: i64, user: &str) -> StoreResult<Option<String>> {
        let sql = "SELECT move FROM pending_moves WHERE game_id = ?1 AND user_id = ?2";
        self.value(sql, values![game, user]).await
    }

    /// Add a chat line, with `effects` (its messages, the reply to its
    /// mail) in one transaction.
    pub async fn chat(
        &self,
        game: i64,
        user: &str,
        at: Timestamp,
        text: &str,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        // Open pages elsewhere show the line at once.
        let line = [insert_chat(game, user, at, text)].into_iter().chain(self.announce(game));
        self.write_with(line, effects, Some(game), at).await
    }

    /// A game's chat.
    pub async fn chats(&self, game: i64) -> StoreResult<Vec<ChatRow>> {
        self.rows("SELECT user_id, at, text FROM chats WHERE game_id = ?1 ORDER BY id", values![game]).await
    }

    /// Run `changes` with the statements of `effects` (made at `at`, of the
    /// game `board` if any) in one transaction: what a command by mail
    /// commits with the reply to its message.
    pub(super) async fn write_with(
        &self,
        changes: impl IntoIterator<Item = Statement>,
        effects: &[SideEffect],
        board: Option<i64>,
        at: Timestamp,
    ) -> StoreResult<()> {
        let mut statements: Vec<_> = changes.into_iter().collect();
        statements.extend(side_effects(effects, board, at)?);
        self.write(statements).await.map(drop)
    }

    /// The statement announcing a change to game `board` to the other
    /// processes sharing the database, in the transaction of the change:
    /// none on SQLite, which no other process serves while this one runs.
    fn announce(&self, board: i64) -> Option<Statement> {
        match &self.db {
            Db::Sqlite(_) => None,
            Db::Postgres(db) => Some(db.announce(board)),
        }
    }
}

/// The statement storing a new game's row; it returns the game's board number.
pub(super) fn new_game(g: &NewGame) -> Statement {
    let sql = "INSERT INTO games (kind, options, players, seed, created, version, status, moves, to_move, \
               updated, next_clock) VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6, 0, ?7, ?5, ?8) RETURNING id";
    let values = values![
        &g.kind,
        json(&g.options),
        json(&g.players),
        g.seed as i64,
        g.created,
        g.status.as_str(),
        json(&g.to_move),
        g.next_clock
    ];
    (sql.into(), values)
}

/// The statement storing the seats of the new game `g`, board `id`.
pub(super) fn new_seats(id: i64, g: &NewGame) -> Option<Statement> {
    let seats = g.players.iter().enumerate();
    let rows = seats
        .map(|(seat, user)| values![id, seat as i64, user, g.accepted.get(seat).copied().unwrap_or(true)]);
    insert_rows("INSERT INTO game_players (game_id, seat, user_id, accepted)", rows, "")
}

/// The statements of an append: first the update of the game's summary,
/// checked against the version the append was validated on (it changes no
/// row if the game moved on since), then the events, the seats (a join
/// adds one, a result changes them) and the side effects.
pub(super) fn append(
    expected_version: i64,
    events: &[Event],
    s: &GameSummary,
    effects: &[SideEffect],
) -> StoreResult<Vec<Statement>> {
    let mut statements = vec![update_summary(expected_version, events.len(), s)];
    // The seats change only when a player joins or the game ends with each
    // seat's result: any other event leaves them as they were.
    let seats_change = events.iter().any(|e| matches!(e.action, EventAction::Join { .. }))
        || s.seat_results.iter().any(Option::is_some);
    let events = events
        .iter()
        .zip(expected_version..)
        .map(|(e, seq)| values![s.id, seq, e.at, e.seat.map(|x| x as i64), json(&e.action)]);
    statements.extend(insert_rows("INSERT INTO events (game_id, seq, at, seat, action)", events, ""));
    let seats = s.players.iter().enumerate().filter(|_| seats_change).map(|(seat, user)| {
        values![s.id, seat as i64, user, true, s.seat_results.get(seat).copied().flatten().map(result_word)]
    });
    statements.extend(insert_rows(
        "INSERT INTO game_players (game_id, seat, user_id, accepted, result)",
        seats,
        " ON CONFLICT (game_id, seat) DO UPDATE SET result = excluded.result \
         WHERE game_players.result IS DISTINCT FROM excluded.result",
    ));
    statements.extend(side_effects(effects, Some(s.id), s.updated)?);
    Ok(statements)
}

/// One statement adding `rows` (the values of each, all as many) to a
/// table: `insert` (`INSERT INTO table (columns)`), their `VALUES`, then
/// `tail`; none for no rows. One statement, not one per row: each
/// statement is a round trip to PostgreSQL.
fn insert_rows(insert: &str, rows: impl Iterator<Item = Vec<Value>>, tail: &str) -> Option<Statement> {
    let (mut sql, mut values) = (format!("{insert} VALUES "), Vec::new());
    for row in rows {
        let marks: Vec<String> =
            (values.len() + 1..=values.len() + row.len()).map(|n| format!("?{n}")).collect();
        let comma = if values.is_empty() { "" } else { ", " };
        sql += &format!("{comma}({})", marks.join(", "));
        values.extend(row);
    }
    (!values.is_empty()).then(|| ((sql + tail).into(), values))
}

/// The update of a game's summary an append starts with.
fn update_summary(expected_version: i64, events: usize, s: &GameSummary) -> Statement {
    let sql = "UPDATE games SET version = ?1, status = ?2, moves = ?3, to_move = ?4, updated = ?5, \
               result = ?6, next_clock = ?7, players = ?8 WHERE id = ?9 AND version = ?10";
    let version = expected_version + events as i64;
    let (to_move, players) = (json(&s.to_move), json(&s.players));
    let values = values![
        version,
        s.status.as_str(),
        s.moves,
        to_move,
        s.updated,
        &s.result,
        s.next_clock,
        players,
        s.id,
        expected_version
    ];
    (sql.into(), values)
}

/// The statements of `effects`, side effects of a change made at `at` to
/// the game `board` (`None`: a change of no game, such as an account's).
pub(super) fn side_effects(
    effects: &[SideEffect],
    board: Option<i64>,
    at: Timestamp,
) -> StoreResult<Vec<Statement>> {
    let game = || board.ok_or_else(|| StoreError::Failed("a game's side effect without a game".into()));
    let mut statements = Vec::with_capacity(effects.len());
    for effect in effects {
        let statement = match effect {
            SideEffect::Outbox(m) => mail::insert_outbox(m, at),
            SideEffect::DeleteQueued(id) => ("DELETE FROM queued_moves WHERE id = ?1".into(), values![*id]),
            SideEffect::DeletePending { user } => {
                let sql = "DELETE FROM pending_moves WHERE game_id = ?1 AND user_id = ?2";
                (sql.into(), values![game()?, user])
            }
            SideEffect::Held { message, due } => mail::replace_held_outbox(message, at, *due),
            SideEffect::Handled(key) => mail::finish_incoming(key, at),
            SideEffect::Chat { user, text } => insert_chat(game()?, user, at, text),
            SideEffect::EndLogins { user } => {
                let revoke = "UPDATE tokens SET revoked = ?1 WHERE user_id = ?2 AND revoked IS NULL";
                statements.push((revoke.into(), values![at, user]));
                ("DELETE FROM sessions WHERE user_id = ?1".into(), values![user])
            }
        };
        statements.push(statement);
    }
    Ok(statements)
}

/// Add a line to a game's chat.
fn insert_chat(game: i64, user: &str, at: Timestamp, text: &str) -> Statement {
    let sql = "INSERT INTO chats (game_id, user_id, at, text) VALUES (?1, ?2, ?3, ?4)";
    (sql.into(), values![game, user, at, text])
}
