//! The service: applies commands to the store. Every front end calls
//! [`Service::execute`] with a command line and the caller's identity.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::{Value, json};
use tabula_model::{
    Event, EventAction, Game, GameKind, HistoryEntry, Options, ProposalKind, Seat, SeatResult, Timestamp,
    Turn, Viewer,
};

use crate::command::{Command, Credentials, GameCommand, GamesWhich, MoveKind};
use crate::error::{CommandError, ErrorCode};
use crate::help;
use crate::replays::Replays;
use crate::reply::{self, BoardText};
use crate::store::{
    GameFilter, GameHead, GameStatus, GameSummary, NewGame, OutboxMessage, Recipient, SideEffect, Store,
    StoreError, StoredGame, UserRow,
};
use crate::throttle::{Context, Origin};
use crate::users;

/// The wall clock, or a fixed time (the CLI's `--now`, tests, replays).
#[derive(Clone, Debug)]
pub enum Clock {
    /// Real time.
    System,
    /// Always this time.
    Fixed(Timestamp),
}

impl Clock {
    /// Now, in milliseconds since the epoch.
    pub fn now(&self) -> Timestamp {
        match self {
            Clock::System => chrono::Utc::now().timestamp_millis(),
            Clock::Fixed(t) => *t,
        }
    }
}

/// Who is calling, as established by the front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Caller {
    /// Unknown: commands authenticate with their password.
    Anonymous,
    /// Authenticated by the front end (bearer token, web session, or a
    /// signed mail gateway): the password word may be `-`.
    User(String),
    /// Authenticated by a bearer token, with the owner's account as it was
    /// read with the token: as [`Caller::User`], without reading the
    /// account a second time.
    Account(Box<UserRow>),
}

/// Plays the moves of built-in bots (`bot:NAME` players).
pub trait BotPlayer: Send + Sync {
    /// Whether `name` (without `bot:`) is a bot this server can run in
    /// the game `kind`.
    fn knows(&self, name: &str, kind: &str) -> bool;
    /// The bot's move for `seat`, as text.
    fn choose(&self, name: &str, game: &Game, seat: Seat) -> Option<String>;
    /// The bots (names without `bot:`) that play the game `kind`, to offer
    /// on challenge forms, strongest last.
    fn names(&self, kind: &str) -> Vec<String>;
}

/// What a successful command returns.
#[derive(Clone, Debug, Serialize)]
pub struct Reply {
    /// The heading (the mail subject).
    pub subject: String,
    /// The body text.
    pub text: String,
    /// The game the command was about, as the caller may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<GameReport>,
    /// Command-specific data (lists, tables).
    #[serde(skip_serializing_if = "Value::is_null")]
    pub data: Value,
}

impl Reply {
    fn plain(subject: impl Into<String>, text: impl Into<String>) -> Self {
        Reply { subject: subject.into(), text: text.into(), game: None, data: Value::Null }
    }
}

/// A game as the caller may see it (the `--json` form and the API's).
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// Board number.
    pub id: i64,
    /// Game kind.
    pub kind: String,
    /// Players in seat order.
    pub players: Vec<String>,
    /// Status.
    pub status: GameStatus,
    /// Users who must act now.
    pub to_move: Vec<String>,
    /// Moves made.
    pub moves: usize,
    /// Events stored (the version).
    pub version: usize,
    /// How it ended.
    pub outcome: Option<Value>,
    /// The options as typed.
    pub options: Vec<String>,
    /// The caller's view, in the game's JSON form, its long strings cut
    /// (see [`crate::views`]).
    pub view: Value,
    /// The strings of `view` that were cut, with their whole lengths.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cut: Vec<crate::views::CutText>,
    /// The history as the caller may see it.
    pub history: Vec<HistoryEntry>,
}

/// Clock events applied per command at most (a long downtime is caught up
/// over several commands and by the scheduler).
const CLOCK_CATCH_UP: usize = 100_000;
use crate::command::MAX_ACTIVE_GAMES;
/// Most players named in one challenge.
const MAX_CHALLENGE_PLAYERS: usize = 26;
/// How many times a move is retried when another request changed the game at the same moment.
const CONFLICT_RETRIES: usize = 8;
/// Longest chat message.
const MAX_CHAT: usize = 4000;

/// A game changed: sent to live listeners (the web's event streams), who
/// then fetch the view they may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameUpdate {
    /// Board number.
    pub board: i64,
    /// Its new version.
    pub version: i64,
}

/// A board as one reader sees it: the reply text and report, and the SVG picture.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    /// Heading, text and the game report.
    pub reply: Reply,
    /// The board as a standalone SVG document.
    pub svg: String,
}

/// The service.
pub struct Service {
    store: Arc<dyn Store>,
    clock: Clock,
    bots: Option<Arc<dyn BotPlayer>>,
    /// Replayed games by board, with their versions; shared, so that a
    /// hit costs no copy under the lock.
    cache: Mutex<Replays>,
    /// Permits for CPU-heavy reads on the blocking pool (see [`Service::heavy`]).
    heavy: tokio::sync::Semaphore,
    updates: tokio::sync::broadcast::Sender<GameUpdate>,
    /// Challenges naming someone else one user may send an hour over the
    /// network (0: no limit).
    challenge_rate: u32,
}

struct Loaded {
    game: Game,
    stored: StoredGame,
    mail: Mail,
}

/// Who a game's changes are mailed to, read with its head (see
/// [`GameHead`]), so that a move's notifications need no query per reader.
#[derive(Clone, Debug, Default)]
struct Mail {
    subscribers: Vec<String>,
    recipients: Vec<Recipient>,
}

impl Mail {
    fn of(head: &mut GameHead) -> Mail {
        Mail {
            subscribers: std::mem::take(&mut head.subscribers),
            recipients: std::mem::take(&mut head.recipients),
        }
    }
}

impl Service {
    /// A service over `store`.
    pub fn new(store: Arc<dyn Store>, clock: Clock) -> Self {
        let (updates, _) = tokio::sync::broadcast::channel(1024);
        Service {
            store,
            clock,
            bots: None,
            cache: Mutex::new(Replays::new(crate::replays::DEFAULT_BUDGET)),
            heavy: tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(2, |n| n.get()).max(2),
            ),
            updates,
            challenge_rate: crate::throttle::DEFAULT_CHALLENGES_PER_HOUR,
        }
    }

    /// At most `per_hour` challenges naming someone else per user and hour
    /// over the network (0: no limit); the local command line has none.
    pub fn with_challenge_rate(mut self, per_hour: u32) -> Self {
        self.challenge_rate = per_hour;
        self
    }

    /// The challenges per user and hour taken over the network (0: no limit).
    pub fn challenge_rate(&self) -> u32 {
        self.challenge_rate
    }

    /// Let the service play built-in bots.
    pub fn with_bots(mut self, bots: Arc<dyn BotPlayer>) -> Self {
        self.bots = Some(bots);
        self
    }

    /// The built-in bots offered for the game `kind`, as players' ids
    /// (`bot:random`, `bot:mcts`, ...); none when this service runs no bots.
    pub fn bot_names(&self, kind: &str) -> Vec<String> {
        match &self.bots {
            Some(b) => b.names(kind).into_iter().map(|n| format!("bot:{n}")).collect(),
            None => Vec::new(),
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The current time.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// The game words this service knows.
    pub fn game_words() -> Vec<&'static str> {
        tabula_games::all().iter().map(|k| k.info().kind).collect()
    }

    /// Parse and run one command line for `context`: a [`Caller`] alone
    /// (`&caller`) is one at the local command line.
    pub async fn execute(&self, line: &str, context: impl Into<Context>) -> Result<Reply, CommandError> {
        let command = Command::parse(line, &Self::game_words())?;
        self.run(command, context).await
    }

    /// Run a parsed command for `context` (see [`Service::execute`]).
    pub async fn run(&self, command: Command, context: impl Into<Context>) -> Result<Reply, CommandError> {
        let context = context.into();
        let caller = &context;
        match command {
            Command::Signup { user, password, emails } => self.signup(&user, &password, &emails).await,
            Command::ChangePassword { auth, new_password } => {
                let mut u = self.authenticate_password(&auth, caller).await?;
                users::check_password(&new_password)
                    .map_err(|m| CommandError::new(ErrorCode::BadValue, m))?;
                u.password_hash = users::hash_password(&new_password);
                self.store.update_user(&u).await?;
                // Whoever had a token or a session of the account has them no more.
                self.store.end_logins(&u.id, self.now()).await?;
                Ok(Reply::plain(
                    "Password changed",
                    format!(
                        "The password of {} is changed. Every token and login session of the account has ended.\n",
                        u.id
                    ),
                ))
            }
            Command::ChangeAddress { auth, emails } => {
                let mut u = self.authenticate_password(&auth, caller).await?;
                u.emails = check_emails(&emails)?;
                self.store.update_user(&u).await?;
                Ok(Reply::plain(
                    "Address changed",
                    format!("Mail for {} now goes to {}.\n", u.id, u.emails.join(", ")),
                ))
            }
            Command::Signoff { auth } => self.signoff(&auth, caller).await,
            Command::Notify { auth, on } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.notify = on;
                self.store.update_user(&u).await?;
                let state = if on { "on" } else { "off" };
                Ok(Reply::plain("Notifications", format!("Email notifications for {} are {state}.\n", u.id)))
            }
            Command::Vacation { auth, days } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.vacation_until = days.map(|d| self.now() + i64::from(d) * 86_400_000);
                self.store.update_user(&u).await?;
                let text = match days {
                    Some(d) => format!(
                        "{} is on vacation for {d} days: no reminders or forfeits until then.\n",
                        u.id
                    ),
                    None => format!("{} is back from vacation.\n", u.id),
                };
                Ok(Reply::plain("Vacation", text))
            }
            Command::Limit { auth, limit } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.game_limit = limit.map(i64::from);
                self.store.update_user(&u).await?;
                let text = match limit {
                    Some(n) => {
                        format!("{} accepts challenges while in fewer than {n} running games.\n", u.id)
                    }
                    None => format!("{} has no limit on running games.\n", u.id),
                };
                Ok(Reply::plain("Limit", text))
            }
            Command::Policy { auth, ask } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.challenge_policy = if ask { "ask" } else { "open" }.into();
                self.store.update_user(&u).await?;
                let text = if ask {
                    format!("Challenges naming {} now wait until {} accepts them.\n", u.id, u.id)
                } else {
                    format!("Challenges naming {} now start at once.\n", u.id)
                };
                Ok(Reply::plain("Challenge policy", text))
            }
            Command::Help { topic } => help::help(topic.as_deref()),
            Command::List => Ok(help::list()),
            Command::Game { kind, command } => {
                let kind = tabula_games::find(&kind).ok_or_else(|| {
                    CommandError::new(ErrorCode::UnknownCommand, format!("no game {kind:?}"))
                })?;
                let title = kind.info().kind;
                self.game_command(kind, command, caller).await.map_err(|e| e.for_game(title))
            }
        }
    }

    async fn signup(&self, user: &str, password: &str, emails: &[String]) -> Result<Reply, CommandError> {
        let id = users::check_new_user_id(user).map_err(|m| CommandError::new(ErrorCode::BadValue, m))?;
        users::check_password(password).map_err(|m| CommandError::new(ErrorCode::BadValue, m))?;
        let emails = check_emails(emails)?;
        let row = UserRow {
            id: id.clone(),
            password_hash: users::hash_password(password),
            emails,
            created: self.now(),
            notify: true,
            vacation_until: None,
            game_limit: None,
            challenge_policy: "open".into(),
            signed_off: false,
        };
        match self.store.create_user(&row).await {
            Ok(()) => Ok(Reply::plain(
                "Welcome to Tabula",
                format!(
                    "Welcome, {id}. Your account is ready.\nSend `help` for the commands and `list` for the games.\n"
                ),
            )),
            Err(StoreError::Exists) => {
                Err(CommandError::new(ErrorCode::UserExists, format!("the user id {id} is taken")))
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn signoff(&self, auth: &Credentials, caller: &Context) -> Result<Reply, CommandError> {
        let mut u = self.authenticate_password(auth, caller).await?;
        let running = self
            .store
            .games(&GameFilter {
                player: Some(u.id.clone()),
                statuses: vec![GameStatus::Active, GameStatus::Proposed],
                limit: 10_000,
                ..Default::default()
            })
            .await?;
        for g in &running {
            let _ = self
                .apply_event(g.id, &u.id, |_, seat| {
                    Ok(EventAction::Resign { reason: Some("signed off".into()) }).map(|a| (a, seat))
                })
                .await;
        }
        u.signed_off = true;
        u.password_hash = String::new();
        self.store.update_user(&u).await?;
        self.store.end_logins(&u.id, self.now()).await?;
        Ok(Reply::plain("Signed off", format!("The account {} is closed. Goodbye.\n", u.id)))
    }

    /// Check credentials, or the front end's authentication: with a bearer
    /// token, a web session or a signed mail gateway, the password word
    /// may be `-` for the caller's own account.
    pub async fn authenticate(&self, auth: &Credentials, context: &Context) -> Result<UserRow, CommandError> {
        self.check_credentials(auth, context, true).await
    }

    /// Check credentials with the password itself, whoever the front end
    /// says the caller is: what account commands (a new password or
    /// address, signing off, a new token) take, so that a leaked token
    /// cannot take the account.
    pub async fn authenticate_password(
        &self,
        auth: &Credentials,
        context: &Context,
    ) -> Result<UserRow, CommandError> {
        self.check_credentials(auth, context, false).await
    }

    async fn check_credentials(
        &self,
        auth: &Credentials,
        context: &Context,
        token_will_do: bool,
    ) -> Result<UserRow, CommandError> {
        let id =
            users::canonical_user_id(&auth.user).map_err(|m| CommandError::new(ErrorCode::UnknownUser, m))?;
        let closed = || CommandError::new(ErrorCode::UnknownUser, format!("there is no user {id}"));
        if auth.password == "-" {
            match &context.caller {
                Caller::Account(account) if account.id == id && token_will_do => {
                    if account.signed_off {
                        return Err(closed());
                    }
                    return Ok((**account).clone());
                }
                Caller::User(who) if who == &id && token_will_do => {
                    return self.store.user(&id).await?.filter(|u| !u.signed_off).ok_or_else(closed);
                }
                Caller::Account(account) if account.id == id => return Err(password_needed()),
                Caller::User(who) if who == &id => return Err(password_needed()),
                _ => {}
            }
        }
        // Before the account is even read: an address that failed too
        // often waits, whichever user it tries.
        self.check_login(&id, &context.origin).await?;
        let Some(user) = self.store.user(&id).await?.filter(|u| !u.signed_off) else {
            self.login_failed(None, &context.origin).await?;
            return Err(closed());
        };
        if !users::verify_password(&auth.password, &user.password_hash) {
            self.login_failed(Some(&id), &context.origin).await?;
            return Err(CommandError::new(ErrorCode::WrongPassword, format!("wrong password for {id}")));
        }
        self.login_succeeded(&id, &context.origin).await?;
        Ok(user)
    }

    async fn game_command(
        &self,
        kind: &'static dyn GameKind,
        command: GameCommand,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        match command {
            GameCommand::Help => help::help(Some(kind.info().kind)),
            GameCommand::Challenge { players, options } => {
                self.challenge(kind, &players, &options, caller).await
            }
            GameCommand::Move { board, auth, kind: mv, guard } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_to_change(board).await?;
                if loaded.stored.summary.kind != kind.info().kind {
                    let error = wrong_kind(board, &loaded.stored.summary.kind);
                    self.put_back(board, loaded.stored.summary.version, loaded.game);
                    return Err(error);
                }
                if loaded.game.seat_of(&user.id).is_none()
                    && kind.info().open_join
                    && let MoveKind::Play(text) = &mv
                {
                    self.put_back(board, loaded.stored.summary.version, loaded.game);
                    self.join(board, &user.id, text).await?;
                    let loaded = self.load(board).await?;
                    return Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id)));
                }
                let action = |game: &Game, seat: Seat| -> Result<(EventAction, Seat), CommandError> {
                    if let Some(n) = guard
                        && n != game.moves() + 1
                    {
                        return Err(CommandError::new(
                            ErrorCode::StaleMove,
                            format!(
                                "this move was meant as move {n}, but the board is at move {}: look at the board again",
                                game.moves() + 1
                            ),
                        ));
                    }
                    let action = match &mv {
                        MoveKind::Play(text) => EventAction::Move(text.clone()),
                        MoveKind::Resign => EventAction::Resign { reason: None },
                        MoveKind::Propose => EventAction::Propose(ProposalKind::Draw),
                        MoveKind::Undo => EventAction::Propose(ProposalKind::Undo),
                        MoveKind::Accept => EventAction::Accept,
                        MoveKind::Reject => EventAction::Reject,
                    };
                    Ok((action, seat))
                };
                let (game, stored) =
                    self.apply_event_with(board, &user.id, action, Vec::new(), Some(loaded)).await?;
                // Only bots and queued moves (played in turn-based games) act
                // by themselves; otherwise the committed game is the board.
                let automatic = game.players().iter().any(|p| p.starts_with("bot:"))
                    || matches!(game.to_move(), Turn::Player(_));
                if !automatic {
                    return Ok(self.board_reply(&game, &stored, Some(&user.id)));
                }
                self.play_automatic(board).await;
                let (game, stored) = match self.load(board).await {
                    Ok(l) => (Arc::new(l.game), l.stored),
                    Err(_) => (game, stored),
                };
                Ok(self.board_reply(&game, &stored, Some(&user.id)))
            }
            GameCommand::Queue { board, auth, text } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_kind(kind, board).await?;
                let seat = self.seat(&loaded, &user.id)?;
                if loaded.game.is_over() {
                    return Err(CommandError::new(ErrorCode::GameOver, format!("board {board} is over")));
                }
                if !matches!(loaded.game.to_move(), Turn::Player(_)) {
                    return Err(CommandError::new(
                        ErrorCode::Refused,
                        format!(
                            "{} does not take queued moves: its moves are not made in turn",
                            kind.info().title
                        ),
                    ));
                }
                if text.len() > 1000 {
                    return Err(CommandError::new(
                        ErrorCode::MalformedMove,
                        "a queued move has at most 1000 characters",
                    ));
                }
                if loaded.game.to_move() == Turn::Player(seat) {
                    return Err(CommandError::new(
                        ErrorCode::Refused,
                        "it is your turn now: make the move instead",
                    ));
                }
                if self.store.queued_moves(board).await?.iter().filter(|q| q.user == user.id).count() >= 20 {
                    return Err(CommandError::new(ErrorCode::Refused, "at most 20 queued moves per board"));
                }
                self.store.queue_move(board, &user.id, &text, self.now()).await?;
                let mut reply = self.board_reply(&loaded.game, &loaded.stored, Some(&user.id));
                reply.text = format!(
                    "Queued for your next turn: {text}\n(it is played then if it is legal then)\n\n{}",
                    reply.text
                );
                Ok(reply)
            }
            GameCommand::Submit { board, auth, text } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_kind(kind, board).await?;
                let seat = self.seat(&loaded, &user.id)?;
                let (preview, note) = self.preview(&loaded, seat, &text)?;
                self.store.set_pending(board, &user.id, &text, self.now()).await?;
                let mut reply = self.board_text_reply(&preview, &loaded.stored, Viewer::Player(seat));
                reply.text = format!(
                    "Submitted, not yet played: {text}\nThe board would then be as below. Send `{} confirm {board} {} PASSWORD` to play it.\n{note}\n{}",
                    kind.info().kind,
                    user.id,
                    reply.text
                );
                Ok(reply)
            }
            GameCommand::Confirm { board, auth } => {
                let user = self.authenticate(&auth, caller).await?;
                self.check_kind(kind, board).await?;
                let text = self.store.pending(board, &user.id).await?.ok_or_else(|| {
                    CommandError::new(
                        ErrorCode::Refused,
                        format!("you have no submitted move on board {board}"),
                    )
                })?;
                let (_, _) = self
                    .apply_event_with(
                        board,
                        &user.id,
                        |_, seat| Ok((EventAction::Move(text.clone()), seat)),
                        vec![SideEffect::DeletePending { user: user.id.clone() }],
                        None,
                    )
                    .await?;
                self.play_automatic(board).await;
                let loaded = self.load(board).await?;
                Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id)))
            }
            GameCommand::Preview { board, auth, text } => {
                let loaded = self.load_kind(kind, board).await?;
                let (seat, viewer) = match &auth {
                    Some(a) => {
                        let u = self.authenticate(a, caller).await?;
                        let s = self.seat(&loaded, &u.id)?;
                        (s, Viewer::Player(s))
                    }
                    None => match loaded.game.to_move() {
                        Turn::Player(p) => (p, Viewer::Observer),
                        _ => {
                            return Err(CommandError::usage(format!(
                                "in {} give your user id and password: {}",
                                kind.info().title,
                                crate::command::syntax("preview")
                            )));
                        }
                    },
                };
                let (preview, note) = self.preview(&loaded, seat, &text)?;
                let mut reply = self.board_text_reply(&preview, &loaded.stored, viewer);
                reply.text = format!("Preview (nothing is played): {text}\n{note}\n{}", reply.text);
                Ok(reply)
            }
            GameCommand::Show { board, at } => {
                let loaded = self.load_kind(kind, board).await?;
                match at {
                    None => Ok(self.board_reply(&loaded.game, &loaded.stored, None)),
                    Some(n) => {
                        if n > loaded.game.moves() {
                            return Err(CommandError::new(
                                ErrorCode::Usage,
                                format!("board {board} has only {} moves", loaded.game.moves()),
                            ));
                        }
                        let record = loaded.game.record().clone();
                        let past = Game::replay_prefix(kind, record, n).map_err(|e| internal(&e))?;
                        let mut reply = self.board_text_reply(&past, &loaded.stored, Viewer::Observer);
                        reply.subject = format!("{} Board {board} at move {n}", kind.info().title);
                        Ok(reply)
                    }
                }
            }
            GameCommand::ShowAs { board, auth } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_kind(kind, board).await?;
                self.seat(&loaded, &user.id)?;
                Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id)))
            }
            GameCommand::History { board } => {
                let loaded = self.load_kind(kind, board).await?;
                let entries = loaded.game.history_for(Viewer::Observer);
                let mut text = String::new();
                let lines = entries.iter().map(HistoryEntry::line);
                reply::write_move_list(&mut text, lines, usize::MAX);
                for c in self.store.chats(board).await? {
                    text.push_str(&format!("      [chat] {}: {}\n", c.user, c.text));
                }
                if text.is_empty() {
                    text.push_str("No moves yet.\n");
                }
                let mut r = Reply::plain(format!("{} Board {board} history", kind.info().title), text);
                r.data = json!(entries);
                Ok(r)
            }
            GameCommand::Games { user, which } => self.games_list(kind, &user, which).await,
            GameCommand::Standings => self.standings(kind).await,
            GameCommand::Ratings => self.ratings(kind).await,
            GameCommand::Chat { board, auth, text } => {
                let user = self.authenticate(&auth, caller).await?;
                let loaded = self.load_kind(kind, board).await?;
                self.seat(&loaded, &user.id)?;
                let text = crate::text::clean(&text);
                if text.trim().is_empty() {
                    return Err(CommandError::new(ErrorCode::BadValue, "a chat message needs some text"));
                }
                if text.chars().count() > MAX_CHAT {
                    return Err(CommandError::new(
                        ErrorCode::BadValue,
                        format!("a chat message has at most {MAX_CHAT} characters"),
                    ));
                }
                let now = self.now();
                // One chat line is one transaction, never retried: a random tag keeps two
                // lines sent in the same millisecond from sharing an outbox key.
                let tag: u64 = rand::random();
                let subject = format!("{} Board {board} chat from {}", kind.info().title, user.id);
                let body = format!("{} writes on {} board {board}:\n\n{text}\n", user.id, kind.info().title);
                let mut messages = Vec::new();
                let mut readers: Vec<String> = loaded.game.players().to_vec();
                readers.extend(self.store.subscribers(board).await?);
                readers.sort();
                readers.dedup();
                for reader in readers.iter().filter(|r| **r != user.id) {
                    if let Some(addr) = self.mail_address(reader).await? {
                        messages.push(OutboxMessage {
                            key: format!("chat:{board}:{now}:{tag:016x}:{}:{reader}", user.id),
                            recipient: addr,
                            subject: subject.clone(),
                            body: body.clone(),
                            game_id: Some(board),
                        });
                    }
                }
                self.store.chat(board, &user.id, now, &text, &messages).await?;
                // Open pages show the line at once.
                let _ = self.updates.send(GameUpdate { board, version: loaded.stored.summary.version });
                Ok(Reply::plain(subject, format!("Sent to the other players of board {board}.\n")))
            }
            GameCommand::Subscribe { board, auth, on } => {
                let user = self.authenticate(&auth, caller).await?;
                self.load_kind(kind, board).await?;
                self.store.subscribe(board, &user.id, on).await?;
                let text = if on {
                    format!("{} will receive the updates of board {board}.\n", user.id)
                } else {
                    format!("{} no longer receives the updates of board {board}.\n", user.id)
                };
                Ok(Reply::plain(format!("{} Board {board}", kind.info().title), text))
            }
            GameCommand::Answer { board, auth, accept } => {
                self.answer(kind, board, &auth, accept, caller).await
            }
        }
    }

    async fn challenge(
        &self,
        kind: &'static dyn GameKind,
        players: &[String],
        options: &[String],
        context: &Context,
    ) -> Result<Reply, CommandError> {
        let info = kind.info();
        if players.len() > MAX_CHALLENGE_PLAYERS {
            return Err(CommandError::new(
                ErrorCode::BadValue,
                format!("at most {MAX_CHALLENGE_PLAYERS} players"),
            ));
        }
        // Over the network a challenge comes from one of its players, proven:
        // nobody starts games (and sends challenge mail) for others.
        let challenger = match (&context.caller, &context.origin) {
            (Caller::User(u), _) => Some(u.clone()),
            (Caller::Account(a), _) => Some(a.id.clone()),
            (Caller::Anonymous, Origin::Local) => None,
            (Caller::Anonymous, _) => {
                return Err(CommandError::new(
                    ErrorCode::Unauthorized,
                    "a challenge comes from one of its players: log in (or send a bearer token, or mail it from your registered address) and name yourself among the players",
                ));
            }
        };
        if let Some(me) = &challenger
            && !players.iter().any(|p| users::canonical_user_id(p).is_ok_and(|id| &id == me))
        {
            return Err(CommandError::new(
                ErrorCode::NotAPlayer,
                format!("{me} is not among the players: a challenge names its challenger"),
            ));
        }
        let mut ids = Vec::new();
        let mut accepted = Vec::new();
        for p in players {
            let id = users::canonical_user_id(p).map_err(|m| CommandError::new(ErrorCode::UnknownUser, m))?;
            if let Some(bot) = id.strip_prefix("bot:") {
                match &self.bots {
                    Some(b) if b.knows(bot, info.kind) => {}
                    Some(b) => {
                        let names: Vec<String> =
                            b.names(info.kind).iter().map(|n| format!("bot:{n}")).collect();
                        return Err(CommandError::new(
                            ErrorCode::UnknownUser,
                            format!(
                                "there is no bot {id} for {}: the bots are {}",
                                info.title,
                                names.join(", ")
                            ),
                        ));
                    }
                    None => {
                        return Err(CommandError::new(
                            ErrorCode::UnknownUser,
                            format!("there is no bot {id} on this server"),
                        ));
                    }
                }
                accepted.push(true);
            } else {
                let u = self.store.user(&id).await?.filter(|u| !u.signed_off).ok_or_else(|| {
                    CommandError::new(ErrorCode::UnknownUser, format!("there is no user {id}"))
                })?;
                let running = self
                    .store
                    .count_games(&GameFilter {
                        player: Some(id.clone()),
                        statuses: vec![GameStatus::Active, GameStatus::Proposed],
                        limit: MAX_ACTIVE_GAMES as i64 + 1,
                        ..Default::default()
                    })
                    .await?;
                let limit =
                    u.game_limit.map(|l| l as usize).unwrap_or(MAX_ACTIVE_GAMES).min(MAX_ACTIVE_GAMES);
                if running >= limit {
                    return Err(CommandError::new(
                        ErrorCode::Refused,
                        format!("{id} is in {running} running games and accepts no more (limit {limit})"),
                    ));
                }
                accepted.push(u.challenge_policy != "ask");
            }
            ids.push(id);
        }
        let options = Options::parse(info, options)
            .map_err(|e| CommandError::new(ErrorCode::BadOption, e.to_string()))?;
        if let Some(me) = &challenger
            && ids.iter().any(|p| p != me && !p.starts_with("bot:"))
        {
            self.count_challenge(me, &context.origin).await?;
        }
        let now = self.now();
        // `-seed=N` deals a known game (demos, tests); it is in the record's
        // options as well as its seed.
        let seed: u64 = options.int("seed").map_or_else(rand::random, |n| n.unsigned_abs());
        let game = Game::create(kind, options.clone(), ids.clone(), seed, now)
            .map_err(|e| CommandError::new(ErrorCode::BadOption, e.to_string()))?;
        let status = if accepted.iter().all(|a| *a) { GameStatus::Active } else { GameStatus::Proposed };
        let new = NewGame {
            kind: info.kind.to_string(),
            options,
            players: ids.clone(),
            seed,
            created: now,
            status,
            to_move: reply::to_move_users(&game),
            accepted: accepted.clone(),
            next_clock: game.state().next_clock(),
        };
        let id = self.store.create_game(&new).await?;
        let stored = self.load(id).await?.stored;
        // Tell every named human about the new board.
        let mut messages = Vec::new();
        for (seat, user) in ids.iter().enumerate() {
            if let Some(addr) = self.notify_address(user).await? {
                let t = self.board_text(&game, &stored, Viewer::Player(seat));
                let lead = if accepted[seat] {
                    format!("You are challenged to {} board {id}.\n\n", info.title)
                } else {
                    format!(
                        "You are challenged to {} board {id}. Accept with `{} accept {id} {user} PASSWORD` or refuse with `{} reject {id} {user} PASSWORD`.\n\n",
                        info.title, info.kind, info.kind
                    )
                };
                messages.push(OutboxMessage {
                    key: format!("challenge:{id}:{user}"),
                    recipient: addr,
                    subject: t.heading,
                    body: format!("{lead}{}", t.body),
                    game_id: Some(id),
                });
            }
        }
        self.store.enqueue(&messages, now).await?;
        if status == GameStatus::Active {
            self.play_automatic(id).await;
        }
        let loaded = self.load(id).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, None))
    }

    async fn answer(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: &Credentials,
        accept: bool,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(auth, caller).await?;
        let loaded = self.load_kind(kind, board).await?;
        let seat = self.seat(&loaded, &user.id)?;
        if loaded.stored.summary.status != GameStatus::Proposed {
            return Err(CommandError::new(
                ErrorCode::Refused,
                format!("board {board} is not waiting for acceptance"),
            ));
        }
        let mut acc = loaded.stored.accepted.clone();
        acc[seat] = accept;
        let status = if !accept {
            GameStatus::Cancelled
        } else if acc.iter().all(|a| *a) {
            GameStatus::Active
        } else {
            GameStatus::Proposed
        };
        self.store.set_acceptance(board, seat, accept, status).await?;
        self.forget(board);
        let _ = self.updates.send(GameUpdate { board, version: loaded.stored.summary.version });
        if status == GameStatus::Active {
            self.play_automatic(board).await;
        }
        let loaded = self.load(board).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id)))
    }

    /// `user` joins the open game `board` with the first move `text`.
    async fn join(&self, board: i64, user: &str, text: &str) -> Result<(), CommandError> {
        for _ in 0..CONFLICT_RETRIES {
            let Loaded { mut game, stored, mail } = self.load(board).await?;
            if stored.summary.status != GameStatus::Active || game.is_over() {
                return Err(CommandError::new(ErrorCode::GameOver, format!("board {board} is not running")));
            }
            let version = stored.summary.version;
            let event = Event {
                at: self.now(),
                seat: None,
                action: EventAction::Join { user: user.to_string(), text: text.to_string() },
            };
            let added = game.submit(event.clone())?;
            match self
                .commit(game, &stored, &mail, version, vec![event], &added, Some(user), Vec::new())
                .await
            {
                Ok(_) => return Ok(()),
                Err(StoreError::Conflict) => {
                    self.forget(board);
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict.into())
    }

    /// Apply the event `make(game, seat)` for `user` on `board`, retrying on
    /// a concurrent change. Returns the game after the append.
    async fn apply_event<F>(
        &self,
        board: i64,
        user: &str,
        make: F,
    ) -> Result<(Arc<Game>, StoredGame), CommandError>
    where
        F: Fn(&Game, Seat) -> Result<(EventAction, Seat), CommandError>,
    {
        self.apply_event_with(board, user, make, Vec::new(), None).await
    }

    async fn apply_event_with<F>(
        &self,
        board: i64,
        user: &str,
        make: F,
        effects: Vec<SideEffect>,
        loaded: Option<Loaded>,
    ) -> Result<(Arc<Game>, StoredGame), CommandError>
    where
        F: Fn(&Game, Seat) -> Result<(EventAction, Seat), CommandError>,
    {
        // The caller's fresh load serves the first attempt; a retry reloads.
        let mut loaded = loaded;
        for _ in 0..CONFLICT_RETRIES {
            let Loaded { mut game, stored, mail } = match loaded.take() {
                Some(l) => l,
                None => self.load_to_change(board).await?,
            };
            let version = stored.summary.version;
            let (action, seat) = match allowed(&game, &stored, user).and_then(|seat| make(&game, seat)) {
                Ok(made) => made,
                Err(e) => {
                    self.put_back(board, version, game);
                    return Err(e);
                }
            };
            let event = Event { at: self.now(), seat: Some(seat), action };
            let added = game.submit(event.clone())?;
            match self
                .commit(game, &stored, &mail, version, vec![event], &added, Some(user), effects.clone())
                .await
            {
                Ok(done) => return Ok(done),
                Err(StoreError::Conflict) => {
                    self.forget(board);
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict.into())
    }

    /// Store new events of `game` (already applied to it) with their
    /// notifications, against `version`; the game is then the cached one.
    #[allow(clippy::too_many_arguments)]
    async fn commit(
        &self,
        game: Game,
        stored: &StoredGame,
        mail: &Mail,
        version: i64,
        events: Vec<Event>,
        added: &[HistoryEntry],
        actor: Option<&str>,
        mut effects: Vec<SideEffect>,
    ) -> Result<(Arc<Game>, StoredGame), StoreError> {
        let board = stored.summary.id;
        let summary =
            summarize(&game, board, version + events.len() as i64, self.now(), stored.summary.status);
        let mut new_stored = stored.clone();
        new_stored.summary = summary.clone();
        new_stored.events.extend(events.iter().cloned());
        // Moves notify the players and subscribers; clock events only when something was logged.
        // Real-time games mail a daily digest instead (see `digest.rs`), and their end.
        let notify = !added.is_empty()
            && events.iter().any(|e| !matches!(e.action, EventAction::Clock))
            && (!crate::digest::sends_digests(game.kind().info().dynamics) || game.is_over());
        if notify {
            for (reader, viewer) in readers(&game, &mail.subscribers) {
                if Some(reader.as_str()) == actor {
                    continue;
                }
                let address = match mail.recipients.iter().find(|r| r.user == reader) {
                    Some(r) => r.address.clone(),
                    // A reader the head did not list (a player who joined since).
                    None => self.notify_address(&reader).await?,
                };
                if let Some(addr) = address {
                    let t = self.board_text(&game, &new_stored, viewer);
                    effects.push(SideEffect::Outbox(OutboxMessage {
                        key: format!("game:{board}:v{}:{reader}", summary.version),
                        recipient: addr,
                        subject: t.heading,
                        body: t.body,
                        game_id: Some(board),
                    }));
                }
            }
        }
        let started = std::time::Instant::now();
        self.store.append(version, &events, &summary, &effects).await?;
        let metrics = &*crate::metrics::METRICS;
        metrics.commit_seconds.observe(started.elapsed().as_secs_f64());
        metrics
            .moves
            .inc_by(events.iter().filter(|e| matches!(e.action, EventAction::Move(_))).count() as u64);
        let game = Arc::new(game);
        // Cached before the notice goes out, so that listeners reloading find it.
        self.remember(board, summary.version, game.clone());
        let _ = self.updates.send(GameUpdate { board, version: summary.version });
        Ok((game, new_stored))
    }

    async fn mail_address(&self, user: &str) -> Result<Option<String>, StoreError> {
        if user.starts_with("bot:") {
            return Ok(None);
        }
        Ok(self.store.user(user).await?.filter(|u| !u.signed_off).and_then(|u| u.emails.first().cloned()))
    }

    pub(crate) async fn notify_address(&self, user: &str) -> Result<Option<String>, StoreError> {
        if user.starts_with("bot:") {
            return Ok(None);
        }
        Ok(self
            .store
            .user(user)
            .await?
            .filter(|u| !u.signed_off && u.notify)
            .and_then(|u| u.emails.first().cloned()))
    }

    /// Play whatever is due without a person: bots' moves and queued
    /// moves, each committed on its own.
    pub async fn play_automatic(&self, board: i64) {
        for _ in 0..10_000 {
            let Ok(Loaded { game, stored, .. }) = self.load(board).await else { return };
            if stored.summary.status != GameStatus::Active || game.is_over() {
                return;
            }
            let mut acted = false;
            let candidates: Vec<Seat> = match game.to_move() {
                Turn::Player(p) => vec![p],
                Turn::Simultaneous(set) => set.to_vec(),
                Turn::Clock => (0..game.players().len()).collect(),
                Turn::Over => return,
            };
            for seat in candidates {
                let user = game.players()[seat].clone();
                if let Some(bot) = user.strip_prefix("bot:") {
                    if !game.state().is_active(seat) {
                        continue;
                    }
                    let Some(bots) = &self.bots else { return };
                    let choice = {
                        let bots = bots.clone();
                        let g = game.clone();
                        let name = bot.to_string();
                        tokio::task::spawn_blocking(move || bots.choose(&name, &g, seat)).await.ok().flatten()
                    };
                    let action = match choice {
                        Some(text) => EventAction::Move(text),
                        // On the clock a bot may simply have nothing worth doing now.
                        None if matches!(game.to_move(), Turn::Clock) => continue,
                        None => EventAction::Resign { reason: Some("the bot found no move".into()) },
                    };
                    if self.apply_event(board, &user, |_, s| Ok((action.clone(), s))).await.is_ok() {
                        acted = true;
                        break;
                    }
                } else if matches!(game.to_move(), Turn::Player(p) if p == seat) {
                    let Ok(queued) = self.store.queued_moves(board).await else { return };
                    if let Some(q) = queued.into_iter().find(|q| q.user == user) {
                        let text = q.text.clone();
                        let r = self
                            .apply_event_with(
                                board,
                                &user,
                                |_, s| Ok((EventAction::Move(text.clone()), s)),
                                vec![SideEffect::DeleteQueued(q.id)],
                                None,
                            )
                            .await;
                        if r.is_err() {
                            // An illegal queued move is dropped, and the player told.
                            let _ = self.drop_queued(board, &user, q.id, &q.text, &stored).await;
                        }
                        acted = true;
                        break;
                    }
                }
            }
            if !acted {
                return;
            }
        }
    }

    async fn drop_queued(
        &self,
        board: i64,
        user: &str,
        id: i64,
        text: &str,
        stored: &StoredGame,
    ) -> Result<(), StoreError> {
        let mut effects = vec![SideEffect::DeleteQueued(id)];
        if let Some(addr) = self.mail_address(user).await? {
            effects.push(SideEffect::Outbox(OutboxMessage {
                key: format!("queue-drop:{board}:{id}"),
                recipient: addr,
                subject: format!("Board {board}: queued move dropped"),
                body: format!("Your queued move {text} on board {board} was not legal when your turn came, so it was dropped.\n"),
                game_id: Some(board),
            }));
        }
        // An empty append (no events) keeps the version check and the outbox in one transaction.
        self.store.append(stored.summary.version, &[], &stored.summary, &effects).await
    }

    /// Load a game, replaying its record (or using the cached replay), and
    /// catch up its clock.
    async fn load(&self, board: i64) -> Result<Loaded, CommandError> {
        self.load_as(board, false).await
    }

    /// [`Service::load`] for a change: the cached replay is taken out of the
    /// cache rather than copied (a game's copy, and the old version's drop
    /// when the new one is cached, were about 7% of a move's server time
    /// in a profile under load). The
    /// commit caches the changed game; a change refused before it touched
    /// the game puts it back (see [`Service::put_back`]).
    async fn load_to_change(&self, board: i64) -> Result<Loaded, CommandError> {
        self.load_as(board, true).await
    }

    /// Cache `game` again, unchanged at `version`, unless a newer one is
    /// cached meanwhile.
    fn put_back(&self, board: i64, version: i64, game: Game) {
        let mut cache = self.cache.lock().expect("cache lock");
        if cache.version(board).is_none_or(|v| v < version) {
            cache.insert(board, version, Arc::new(game));
        }
    }

    async fn load_as(&self, board: i64, take: bool) -> Result<Loaded, CommandError> {
        let no_board = || CommandError::new(ErrorCode::UnknownBoard, format!("there is no board {board}"));
        // The summary alone tells whether the cached replay is current; the
        // events are read only to replay.
        let mut head = self.store.game_head(board).await?.ok_or_else(no_board)?;
        let mail = Mail::of(&mut head);
        let cached = {
            let mut cache = self.cache.lock().expect("cache lock");
            match (cache.current(board, head.summary.version).cloned(), take) {
                (Some(_), true) => cache.remove(board),
                (game, _) => game,
            }
        };
        let (mut game, stored) = match cached {
            Some(g) => {
                let g = Arc::try_unwrap(g).unwrap_or_else(|shared| Game::clone(&shared));
                let record = g.record();
                let stored = StoredGame {
                    options: record.options.clone(),
                    seed: record.seed,
                    created: record.created,
                    initial_players: record.players.clone(),
                    // The events are in the game's record; only a replay reads these.
                    events: Vec::new(),
                    summary: head.summary,
                    accepted: head.accepted,
                };
                (g, stored)
            }
            None => {
                let stored = self.store.game(board).await?.ok_or_else(no_board)?;
                let kind = tabula_games::find(&stored.summary.kind)
                    .ok_or_else(|| internal(&format!("unknown kind {}", stored.summary.kind)))?;
                let record = tabula_model::Record {
                    kind: stored.summary.kind.clone(),
                    options: stored.options.clone(),
                    players: stored.initial_players.clone(),
                    seed: stored.seed,
                    created: stored.created,
                    events: stored.events.clone(),
                };
                let g = self.heavy(move || Game::replay(kind, record).map_err(|e| internal(&e))).await?;
                self.remember(board, stored.summary.version, Arc::new(g.clone()));
                (g, stored)
            }
        };
        let mut stored = stored;
        // Catch up every due clock event, in bounded steps, before anything else.
        while stored.summary.status == GameStatus::Active
            && !game.is_over()
            && game.state().next_clock().is_some_and(|t| t <= self.now())
        {
            let version = stored.summary.version;
            let before = game.record().events.len();
            let history_before = game.history_for(Viewer::Observer).len();
            if let Some(due) = game.state().next_clock() {
                let late_ms = (self.now() - due).max(0);
                crate::metrics::METRICS.clock_lag_seconds.observe(late_ms as f64 / 1000.0);
            }
            game.advance_clock(self.now(), CLOCK_CATCH_UP);
            let events: Vec<Event> = game.record().events[before..].to_vec();
            if events.is_empty() {
                break;
            }
            let added = game.history_for(Viewer::Observer)[history_before..].to_vec();
            match self.commit(game, &stored, &mail, version, events, &added, None, Vec::new()).await {
                Ok((g, s)) => {
                    game = Arc::unwrap_or_clone(g);
                    stored = s;
                }
                // Someone else caught the clock up first: theirs is the record.
                Err(StoreError::Conflict) => {
                    self.forget(board);
                    return Box::pin(self.load(board)).await;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Ok(Loaded { game, stored, mail })
    }

    async fn load_kind(&self, kind: &'static dyn GameKind, board: i64) -> Result<Loaded, CommandError> {
        let loaded = self.load(board).await?;
        if loaded.stored.summary.kind != kind.info().kind {
            return Err(wrong_kind(board, &loaded.stored.summary.kind));
        }
        Ok(loaded)
    }

    async fn check_kind(&self, kind: &'static dyn GameKind, board: i64) -> Result<(), CommandError> {
        self.load_kind(kind, board).await.map(|_| ())
    }

    fn seat(&self, loaded: &Loaded, user: &str) -> Result<Seat, CommandError> {
        loaded.game.seat_of(user).ok_or_else(|| not_a_player(user, loaded.stored.summary.id))
    }

    /// The game after `seat`'s move `text`, not stored, and what the reply
    /// says before the board (see [`Game::preview`]).
    fn preview(&self, loaded: &Loaded, seat: Seat, text: &str) -> Result<(Game, &'static str), CommandError> {
        let preview = loaded.game.preview(seat, text, self.now())?;
        let note = if preview.completes_step {
            "This move completes the step: the other players' secret moves are shown, and the step \
             resolved, only once it is played. The board below shows your part alone, as if the \
             others had not moved yet.\n"
        } else {
            ""
        };
        Ok((preview.game, note))
    }

    /// Cache `game` at `version`; the game used least recently makes room.
    fn remember(&self, board: i64, version: i64, game: Arc<Game>) {
        // Not an arbitrary game: with more games stored than the cache
        // holds, the games being played were then dropped as often as the
        // idle ones, and replayed from their events again and again.
        self.cache.lock().expect("cache lock").insert(board, version, game);
    }

    fn forget(&self, board: i64) {
        self.cache.lock().expect("cache lock").remove(board);
    }

    fn board_text(&self, game: &Game, stored: &StoredGame, viewer: Viewer) -> BoardText {
        reply::board_text(
            game,
            stored.summary.id,
            stored.summary.status,
            viewer,
            self.now(),
            &waiting_for(stored),
        )
    }

    fn board_text_reply(&self, game: &Game, stored: &StoredGame, viewer: Viewer) -> Reply {
        board_text_reply(game, stored, viewer, self.now())
    }

    fn board_reply(&self, game: &Game, stored: &StoredGame, user: Option<&str>) -> Reply {
        let viewer = user.and_then(|u| game.seat_of(u)).map(Viewer::Player).unwrap_or(Viewer::Observer);
        self.board_text_reply(game, stored, viewer)
    }

    /// Live notice of every change to any game (listeners filter by board).
    pub fn updates(&self) -> tokio::sync::broadcast::Receiver<GameUpdate> {
        self.updates.subscribe()
    }

    /// Announce a change made outside this service (another process's
    /// commit, relayed by the store's notifications).
    pub fn announce(&self, update: GameUpdate) {
        self.forget(update.board);
        let _ = self.updates.send(update);
    }

    /// A board as `user` may see it (an observer's view if `None` or not a
    /// player), optionally as it was after `at` moves. `user` must be an
    /// identity the front end has authenticated.
    pub async fn snapshot(
        &self,
        board: i64,
        user: Option<&str>,
        at: Option<usize>,
    ) -> Result<Snapshot, CommandError> {
        let loaded = self.load(board).await?;
        let Loaded { game, stored, .. } = loaded;
        let now = self.now();
        let (past, viewer) = position(&game, user, at);
        // Replaying and rendering take the longest of any read (a long
        // Rewrite string is copied into the view): off the async workers.
        self.heavy(move || {
            let game = replayed(game, past)?;
            let reply = board_text_reply(&game, &stored, viewer, now);
            let svg = game.render_svg(viewer, now);
            Ok(Snapshot { reply, svg })
        })
        .await
    }

    /// One string of a board's view as `user` may see it (see
    /// [`Service::snapshot`] for `user` and `at`), whole, by its JSON
    /// `pointer` in the view (`/table`): what a report cut (see
    /// [`crate::views`]).
    pub async fn view_text(
        &self,
        board: i64,
        user: Option<&str>,
        at: Option<usize>,
        pointer: &str,
    ) -> Result<String, CommandError> {
        let Loaded { game, .. } = self.load(board).await?;
        let now = self.now();
        let (past, viewer) = position(&game, user, at);
        let pointer = pointer.to_string();
        self.heavy(move || {
            let game = replayed(game, past)?;
            let mut view = game.view_json(viewer, now);
            match view.pointer_mut(&pointer) {
                Some(Value::String(text)) => Ok(std::mem::take(text)),
                _ => Err(CommandError::new(
                    ErrorCode::BadValue,
                    format!("the view of board {board} has no text at {pointer:?}"),
                )),
            }
        })
        .await
    }

    /// Run CPU-heavy `work` (a replay, a long view) on the blocking pool,
    /// at most as many at once as there are processors, so that the async
    /// workers stay free to answer everyone else.
    async fn heavy<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, CommandError> + Send + 'static,
    ) -> Result<T, CommandError> {
        let _permit = self.heavy.acquire().await.map_err(|e| internal(&e))?;
        tokio::task::spawn_blocking(work).await.map_err(|e| internal(&e))?
    }

    /// The replayed game and its version (for the scheduler).
    pub(crate) async fn snapshot_game(&self, board: i64) -> Result<(Game, i64), CommandError> {
        let loaded = self.load(board).await?;
        Ok((loaded.game, loaded.stored.summary.version))
    }

    /// The board text a reader gets by mail.
    pub(crate) fn board_text_for(&self, game: &Game, board: i64, viewer: Viewer) -> String {
        let t = reply::board_text(game, board, GameStatus::Active, viewer, self.now(), &[]);
        format!("{}\n\n{}", t.heading, t.body)
    }

    /// Apply an event for `user` on `board` as the server (forfeits),
    /// optionally only if the game is still at `version`.
    pub(crate) async fn apply_event_public(
        &self,
        board: i64,
        user: &str,
        action: EventAction,
        version: Option<i64>,
    ) -> Result<(), CommandError> {
        if let Some(v) = version
            && self.store.game_version(board).await? != Some(v)
        {
            return Err(StoreError::Conflict.into());
        }
        self.apply_event(board, user, |_, seat| Ok((action.clone(), seat))).await?;
        self.play_automatic(board).await;
        Ok(())
    }

    /// A game's board for a reader: used by the web and mail front ends.
    pub async fn board_for(&self, board: i64, user: Option<&str>) -> Result<Reply, CommandError> {
        let loaded = self.load(board).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, user))
    }

    async fn games_list(
        &self,
        kind: &'static dyn GameKind,
        user: &str,
        which: GamesWhich,
    ) -> Result<Reply, CommandError> {
        let id = users::canonical_user_id(user).map_err(|m| CommandError::new(ErrorCode::UnknownUser, m))?;
        if !id.starts_with("bot:") && self.store.user(&id).await?.is_none() {
            return Err(CommandError::new(ErrorCode::UnknownUser, format!("there is no user {id}")));
        }
        let filter = GameFilter {
            kind: Some(kind.info().kind.to_string()),
            player: Some(id.clone()),
            statuses: match which {
                GamesWhich::Active | GamesWhich::Next => vec![GameStatus::Active, GameStatus::Proposed],
                GamesWhich::Inactive => vec![GameStatus::Finished, GameStatus::Cancelled],
                GamesWhich::All => Vec::new(),
            },
            to_move: (which == GamesWhich::Next).then(|| id.clone()),
            before: None,
            limit: 500,
        };
        let games = self.store.games(&filter).await?;
        let mut text = String::new();
        for g in &games {
            let state = match g.status {
                GameStatus::Finished => g.result.clone().unwrap_or_else(|| "over".into()),
                GameStatus::Cancelled => "cancelled".into(),
                GameStatus::Proposed => "waiting for acceptance".into(),
                GameStatus::Active if g.to_move.is_empty() => "running".into(),
                GameStatus::Active => format!("{} to move", reply::and_list(&g.to_move)),
            };
            text.push_str(&format!("Board {:>5}  {}  ({state})\n", g.id, g.players.join(" ")));
        }
        if games.is_empty() {
            text.push_str("No boards.\n");
        }
        let which_word = match which {
            GamesWhich::Active => "active",
            GamesWhich::Inactive => "finished",
            GamesWhich::Next => "waiting for them",
            GamesWhich::All => "all",
        };
        let mut r = Reply::plain(format!("{} games of {id} ({which_word})", kind.info().title), text);
        r.data = json!(games);
        Ok(r)
    }

    async fn standings(&self, kind: &'static dyn GameKind) -> Result<Reply, CommandError> {
        let finished = self.store.finished(Some(kind.info().kind)).await?;
        let mut table: HashMap<String, [u32; 3]> = HashMap::new();
        for g in &finished {
            for (seat, user) in g.players.iter().enumerate() {
                let row = table.entry(user.clone()).or_default();
                match g.seat_results.get(seat).copied().flatten() {
                    Some(SeatResult::Win) => row[0] += 1,
                    Some(SeatResult::Loss) => row[1] += 1,
                    Some(SeatResult::Draw) => row[2] += 1,
                    None => {}
                }
            }
        }
        let mut rows: Vec<(String, [u32; 3])> = table.into_iter().collect();
        rows.sort_by(|a, b| b.1[0].cmp(&a.1[0]).then(a.1[1].cmp(&b.1[1])).then(a.0.cmp(&b.0)));
        let mut text = format!("{:<20} {:>6} {:>6} {:>6}\n", "player", "won", "lost", "drawn");
        for (u, [w, l, d]) in &rows {
            text.push_str(&format!("{u:<20} {w:>6} {l:>6} {d:>6}\n"));
        }
        if rows.is_empty() {
            text.push_str("No finished games yet.\n");
        }
        let mut r = Reply::plain(format!("{} standings", kind.info().title), text);
        r.data = json!(
            rows.iter()
                .map(|(u, [w, l, d])| json!({"user": u, "won": w, "lost": l, "drawn": d}))
                .collect::<Vec<_>>()
        );
        Ok(r)
    }

    async fn ratings(&self, kind: &'static dyn GameKind) -> Result<Reply, CommandError> {
        let finished = self.store.finished(Some(kind.info().kind)).await?;
        let ratings = elo(&finished);
        let mut text = format!("{:<20} {:>7} {:>6}\n", "player", "rating", "games");
        for (u, r, n) in &ratings {
            text.push_str(&format!("{u:<20} {r:>7.0} {n:>6}\n"));
        }
        if ratings.is_empty() {
            text.push_str("No finished games yet.\n");
        }
        text.push_str("\nElo ratings from every finished game in order (start 1500, K = 32; a game of several players counts as a match between every pair).\n");
        let mut r = Reply::plain(format!("{} ratings", kind.info().title), text);
        r.data = json!(
            ratings.iter().map(|(u, r, n)| json!({"user": u, "rating": r, "games": n})).collect::<Vec<_>>()
        );
        Ok(r)
    }

    /// Catch up the clocks of every game whose next clock event is due (the
    /// scheduler calls this; commands catch up their own game anyway).
    pub async fn run_due_clocks(&self) -> Result<usize, CommandError> {
        let due = self.store.due_clocks(self.now(), 100).await?;
        let mut n = 0;
        for board in due {
            // Another process sharing the database is on it: it catches up.
            let Some(claim) = self.store.claim(crate::store::Work::Clock(board)).await? else { continue };
            let loaded = self.load(board).await;
            claim.release().await;
            loaded?;
            n += 1;
        }
        Ok(n)
    }
}

/// Pairwise Elo over finished games, in order: (user, rating, games).
fn elo(finished: &[GameSummary]) -> Vec<(String, f64, u32)> {
    let mut ratings: HashMap<String, (f64, u32)> = HashMap::new();
    for g in finished {
        let n = g.players.len();
        let mut delta = vec![0.0; n];
        for i in 0..n {
            for j in (i + 1)..n {
                let score = |seat: usize| match g.seat_results.get(seat).copied().flatten() {
                    Some(SeatResult::Win) => 1.0,
                    Some(SeatResult::Draw) => 0.5,
                    _ => 0.0,
                };
                let (si, sj) = (score(i), score(j));
                let actual = if si == sj {
                    0.5
                } else if si > sj {
                    1.0
                } else {
                    0.0
                };
                let ri = ratings.get(&g.players[i]).map(|r| r.0).unwrap_or(1500.0);
                let rj = ratings.get(&g.players[j]).map(|r| r.0).unwrap_or(1500.0);
                let expected = 1.0 / (1.0 + 10f64.powf((rj - ri) / 400.0));
                let k = 32.0 / (n - 1) as f64;
                delta[i] += k * (actual - expected);
                delta[j] -= k * (actual - expected);
            }
        }
        for (i, p) in g.players.iter().enumerate() {
            let e = ratings.entry(p.clone()).or_insert((1500.0, 0));
            e.0 += delta[i];
            e.1 += 1;
        }
    }
    let mut out: Vec<(String, f64, u32)> = ratings.into_iter().map(|(u, (r, n))| (u, r, n)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

fn summarize(game: &Game, id: i64, version: i64, now: Timestamp, status: GameStatus) -> GameSummary {
    let outcome = game.outcome();
    let over = game.is_over();
    let seat_results = (0..game.players().len())
        .map(|s| outcome.as_ref().filter(|_| over).map(|o| o.result_for(s)))
        .collect();
    GameSummary {
        id,
        kind: game.kind().info().kind.to_string(),
        players: game.players().to_vec(),
        status: if over { GameStatus::Finished } else { status },
        moves: game.moves() as i64,
        to_move: reply::to_move_users(game),
        version,
        updated: now,
        result: outcome.filter(|_| over).map(|o| reply::outcome_line(game, &o)),
        seat_results,
        next_clock: if over { None } else { game.state().next_clock() },
    }
}

/// Who reads a game's changes: its players, then its other subscribers.
fn readers(game: &Game, subscribers: &[String]) -> Vec<(String, Viewer)> {
    let mut out: Vec<(String, Viewer)> =
        game.players().iter().enumerate().map(|(s, u)| (u.clone(), Viewer::Player(s))).collect();
    for s in subscribers {
        if !out.iter().any(|(u, _)| u == s) {
            out.push((s.clone(), Viewer::Observer));
        }
    }
    out
}

/// The seat `user` acts from on `game`, if the game takes a change from
/// them now (accepted, not cancelled, not over).
fn allowed(game: &Game, stored: &StoredGame, user: &str) -> Result<Seat, CommandError> {
    let board = stored.summary.id;
    match stored.summary.status {
        GameStatus::Proposed => {
            let waiting = waiting_for(stored);
            return Err(CommandError::new(
                ErrorCode::Refused,
                format!("board {board} waits for {} to accept the challenge", reply::and_list(&waiting)),
            ));
        }
        GameStatus::Cancelled => {
            return Err(CommandError::new(ErrorCode::GameOver, format!("board {board} was cancelled")));
        }
        _ => {}
    }
    let seat = game.seat_of(user).ok_or_else(|| not_a_player(user, board))?;
    if game.is_over() {
        return Err(CommandError::new(ErrorCode::GameOver, format!("board {board} is over")));
    }
    Ok(seat)
}

fn waiting_for(stored: &StoredGame) -> Vec<String> {
    stored
        .summary
        .players
        .iter()
        .zip(&stored.accepted)
        .filter(|(_, a)| !**a)
        .map(|(u, _)| u.clone())
        .collect()
}

fn check_emails(emails: &[String]) -> Result<Vec<String>, CommandError> {
    if emails.len() > users::MAX_EMAILS {
        return Err(CommandError::new(
            ErrorCode::BadValue,
            format!("at most {} addresses", users::MAX_EMAILS),
        ));
    }
    emails
        .iter()
        .map(|e| users::check_email(e).map_err(|m| CommandError::new(ErrorCode::BadValue, m)))
        .collect()
}

fn not_a_player(user: &str, board: i64) -> CommandError {
    CommandError::new(ErrorCode::NotAPlayer, format!("{user} is not a player of board {board}"))
}

fn wrong_kind(board: i64, kind: &str) -> CommandError {
    CommandError::new(ErrorCode::UnknownBoard, format!("board {board} is a {kind} game"))
}

/// A board's reply for `viewer` at `now`: its text and its report.
fn board_text_reply(game: &Game, stored: &StoredGame, viewer: Viewer, now: Timestamp) -> Reply {
    let history = game.history_for(viewer);
    let t = reply::board_text_with(
        game,
        stored.summary.id,
        stored.summary.status,
        viewer,
        now,
        &waiting_for(stored),
        &history,
    );
    Reply {
        subject: t.heading,
        text: t.body,
        game: Some(report_at(game, stored, viewer, history, now)),
        data: Value::Null,
    }
}

/// A game's report for `viewer` at `now`, with the history lines given.
fn report_at(
    game: &Game,
    stored: &StoredGame,
    viewer: Viewer,
    history: Vec<HistoryEntry>,
    now: Timestamp,
) -> GameReport {
    let mut view = game.view_json(viewer, now);
    GameReport {
        id: stored.summary.id,
        kind: stored.summary.kind.clone(),
        players: game.players().to_vec(),
        status: stored.summary.status,
        to_move: reply::to_move_users(game),
        moves: game.moves(),
        version: game.record().events.len(),
        outcome: game.outcome().map(|o| {
            json!({
                "winners": o.winners.iter().map(|&s| game.players()[s].clone()).collect::<Vec<_>>(),
                "draw": o.winners.len() > 1,
                "reason": o.reason,
                // Exact (`61/3`), and as shown (`20.33`).
                "scores": o.scores,
                "scores_text": o.scores.iter().map(|s| s.decimal()).collect::<Vec<_>>(),
            })
        }),
        options: game.record().options.given().to_vec(),
        cut: crate::views::window(&mut view),
        view,
        history,
    }
}

/// The position `user` asks for with `at` (the moves made then, if not the
/// current one) and the viewer it is shown to: a past position is shown as
/// an observer saw it then, so replay never reveals a secret early.
fn position(game: &Game, user: Option<&str>, at: Option<usize>) -> (Option<usize>, Viewer) {
    let past = at.filter(|&n| n < game.moves());
    let viewer = match (past, user.and_then(|u| game.seat_of(u))) {
        (None, Some(seat)) => Viewer::Player(seat),
        _ => Viewer::Observer,
    };
    (past, viewer)
}

/// `game` as it was after `past` moves, or as it is.
fn replayed(game: Game, past: Option<usize>) -> Result<Game, CommandError> {
    match past {
        Some(n) => Game::replay_prefix(game.kind(), game.record().clone(), n).map_err(|e| internal(&e)),
        None => Ok(game),
    }
}

fn password_needed() -> CommandError {
    CommandError::new(
        ErrorCode::WrongPassword,
        "this account command needs the password itself, not a token or a login session",
    )
}

fn internal(e: &dyn std::fmt::Display) -> CommandError {
    tracing::error!(error = %e, "internal error");
    CommandError::new(ErrorCode::Internal, "internal error: the stored game does not replay")
}
