//! Running the commands of an incoming message and writing the reply.

use lettre::message::header::{
    ContentTransferEncoding, ContentType, HeaderName, HeaderValue, MIME_VERSION_1_0,
};
use lettre::message::{Body, Mailbox};
use sha2::{Digest, Sha256};
use std::sync::Arc;

use tabula_i18n::{msg, t};
use tabula_model::Lang;
use tabula_service::command::{self, Command, GameCommand, Reading};
use tabula_service::store::OutboxMessage;
use tabula_service::{Answer, Caller, CommandError, Context, ErrorCode, Origin, Reply, Service};

use crate::message::{Ignored, Incoming, read_message};
use crate::{MailConfig, MailError, relay};

/// How long a claim on an incoming message protects it from a second
/// delivery while its commands run; a claim older than this was left by a
/// crash, and the message is handled again.
const CLAIM_STALE_MS: i64 = 10 * 60 * 1000;

/// A reply to an incoming message, ready to render or to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutgoingMail {
    /// The address the reply goes to (`Reply-To`, else `From`).
    pub to: String,
    /// `DNA Board 1 ted`, `DNA error`, `Tabula error` ...
    pub subject: String,
    /// The `Message-ID` it answers, without angle brackets.
    pub in_reply_to: Option<String>,
    /// The thread: the thread root of the board the reply is about, the
    /// message's `References`, and its `Message-ID` last.
    pub references: Vec<String>,
    /// The board the reply is about, if any: its mails form one thread.
    pub board: Option<i64>,
    /// The text.
    pub body: String,
    /// Its own `Message-ID`, without angle brackets; derived from
    /// [`OutgoingMail::key`], so a redelivered message is answered with the
    /// same id.
    pub message_id: String,
    /// The outbox key: `reply:<message-id>` (one reply per message, ever).
    pub key: String,
}

impl OutgoingMail {
    /// The reply as an RFC 5322 message from `from` (`Tabula
    /// <tabula@example.org>` or a bare address): `Date`, `Message-ID`,
    /// threading headers, `MIME-Version`, `Content-Type: text/plain;
    /// charset=utf-8`, 7bit or quoted-printable, headers encoded as RFC 2047
    /// where they are not ASCII.
    ///
    /// # Errors
    ///
    /// [`MailError::Build`] if `from` or [`OutgoingMail::to`] is not an address.
    pub fn to_rfc5322(&self, from: &str) -> Result<Vec<u8>, MailError> {
        let draft = Draft {
            to: &self.to,
            subject: &self.subject,
            body: &self.body,
            message_id: &self.message_id,
            in_reply_to: self.in_reply_to.as_deref(),
            references: &self.references,
            auto_submitted: "auto-replied",
        };
        let mut bytes = build_message(&draft, from)?.formatted();
        bytes.extend_from_slice(b"\r\n");
        Ok(bytes)
    }

    /// The outbox row this reply is queued as.
    pub fn outbox_message(&self) -> OutboxMessage {
        OutboxMessage {
            key: self.key.clone(),
            recipient: self.to.clone(),
            subject: self.subject.clone(),
            body: self.body.clone(),
            game_id: self.board,
        }
    }
}

/// Handle one incoming message: run its commands, send its comment to the
/// other players of the board a move was made on, and return the reply.
/// `Ok(None)` for mail that must not be answered (auto-replies, bounces,
/// list mail: see [`crate::Ignored`]); nothing is run then.
///
/// A command that acts for a user runs only if the message comes from one
/// of that user's addresses (see [`MailConfig::require_registered_sender`])
/// and its password is right; otherwise it changes nothing and the reply
/// says why. Passwords never appear in the reply: quoted commands show
/// `********` instead.
///
/// # Errors
///
/// [`MailError::TooLarge`] and [`MailError::Unreadable`]: nothing was run.
pub async fn handle_message(
    service: &Service,
    raw: &[u8],
    config: &MailConfig,
) -> Result<Option<OutgoingMail>, MailError> {
    let incoming = read_message(raw, config)?;
    if let Some(reason) = &incoming.ignored {
        // Mail without a command from a stranger is left alone (spam, a
        // misdirected note); from a player's registered address it is
        // answered, once an hour's error budget allows, with how to write
        // a command.
        let from_player = match (reason, incoming.from.as_deref()) {
            (Ignored::NoCommand, Some(from)) => service.address_registered(from).await?,
            _ => false,
        };
        if !from_player {
            tracing::info!(from = ?incoming.from, %reason, "mail not answered");
            return Ok(None);
        }
    }
    let Some(to) = incoming.reply_to.clone() else { return Ok(None) };
    // Mail servers deliver again after a timeout or a crash: the commands of
    // one message run once, and its reply is queued once.
    let key = incoming_key(&incoming);
    let now = service.now();
    if !service.mailroom().claim_incoming(&key, now, now.saturating_sub(CLAIM_STALE_MS)).await? {
        if service.mailroom().incoming_done(&key).await? {
            tracing::info!(from = ?incoming.from, %key, "mail delivered again: already handled");
            return Ok(None);
        }
        // The first delivery is still at work (or died lately): this one is
        // neither run nor dropped, but handed back to be delivered again.
        tracing::info!(from = ?incoming.from, %key, "mail delivered again while being handled: try again later");
        return Err(MailError::Busy);
    }
    crate::fault::pause_point("after-claim");
    // The reply is in its reader's language: the account's that sent it.
    let lang = reader_lang(service, &incoming).await?;
    let (subject, body) = if incoming.commands.is_empty() {
        (error_subject(None, lang), format!("{}\n", t!(lang, "mail-no-command")))
    } else if incoming.commands.len() > config.max_commands {
        let text =
            t!(lang, "mail-too-many-commands", count = incoming.commands.len(), max = config.max_commands);
        (error_subject(None, lang), format!("{text}\n"))
    } else {
        let thread = Thread::of(&incoming, to);
        let (subject, body, board) = run_commands(service, &incoming, config, (&key, &thread), lang).await;
        // A crash here, after the commands' changes and before the reply is
        // queued, must lose nothing: the tests stop the process at this point.
        crate::fault::pause_point("after-commit");
        return finish(service, &key, thread.mail(subject, body, board, config), config).await;
    };
    let reply = Thread::of(&incoming, to).mail(subject, body, None, config);
    finish(service, &key, reply, config).await
}

/// The reply to a message handled, unless it is an error reply over the
/// address's budget.
async fn finish(
    service: &Service,
    key: &str,
    reply: OutgoingMail,
    config: &MailConfig,
) -> Result<Option<OutgoingMail>, MailError> {
    let now = service.now();
    if relay::is_error_reply(&reply.key, &reply.subject) {
        // Error replies are what a program that answers everything keeps
        // asking for: each address gets a few an hour, then silence.
        let since = now.saturating_sub(3_600_000);
        let mut sent = 0;
        for suffix in relay::error_suffixes() {
            sent += service.mailroom().count_outbox_to(&reply.to, "reply:", &suffix, since).await?;
        }
        if sent >= i64::from(config.error_replies_per_hour) {
            tracing::warn!(
                to = %reply.to,
                sent,
                budget = config.error_replies_per_hour,
                "error reply not sent: the address had its error replies for the hour"
            );
            service.mailroom().finish_incoming(key, service.now()).await?;
            return Ok(None);
        }
    }
    Ok(Some(reply))
}

/// Queue `mail` in the service's outbox (key [`OutgoingMail::key`]: a reply
/// already queued for the same message is not queued again), and mark the
/// message it answers handled in the same transaction.
///
/// # Errors
///
/// [`MailError::Store`] if the store fails.
pub async fn enqueue_reply(service: &Service, mail: &OutgoingMail) -> Result<(), MailError> {
    match mail.key.strip_prefix("reply:") {
        Some(key) => service.mailroom().answer_incoming(key, &mail.outbox_message(), service.now()).await?,
        None => {
            service.mailroom().enqueue(&[mail.outbox_message()], service.now()).await?;
        }
    }
    Ok(())
}

/// Mark the message `mail` answers as handled, once its reply is on its
/// way ([`enqueue_reply`] does this itself; call it after delivering a reply
/// some other way). Until then a second delivery of the message, after a
/// crash, is handled again.
///
/// # Errors
///
/// [`MailError::Store`] if the store fails.
pub async fn finish_reply(service: &Service, mail: &OutgoingMail) -> Result<(), MailError> {
    if let Some(key) = mail.key.strip_prefix("reply:") {
        service.mailroom().finish_incoming(key, service.now()).await?;
    }
    Ok(())
}

/// What identifies a message across deliveries: its `Message-ID` with a
/// digest of what it asks (its sender, commands and comment), or a digest
/// of its bytes when it has no usable id. A mail server's second delivery
/// is the same message, whatever trace headers it added; a program that
/// reuses an id for a new message sends a new one, which is run and
/// answered.
fn incoming_key(incoming: &Incoming) -> String {
    match incoming.message_id.as_deref().filter(|id| relay::is_safe_message_id(id)) {
        Some(id) => {
            let mut content = Sha256::new();
            content.update(incoming.from.as_deref().unwrap_or_default());
            for line in &incoming.commands {
                content.update(b"\n");
                content.update(line);
            }
            content.update(b"\n\n");
            content.update(&incoming.comment);
            let digest = hex::encode(content.finalize());
            // A space never occurs in an id: the id is what comes before it.
            format!("{id} {}", &digest[..16])
        }
        None => format!("#{}", incoming.digest),
    }
}

/// Where a reply goes and which thread it belongs to: everything of it
/// but its subject and text.
#[derive(Clone, Debug)]
struct Thread {
    to: String,
    in_reply_to: Option<String>,
    /// The message's own `References`.
    chain: Vec<String>,
    key: String,
}

impl Thread {
    fn of(incoming: &Incoming, to: String) -> Thread {
        let parent = incoming.message_id.as_deref().filter(|id| relay::is_safe_message_id(id));
        Thread {
            to,
            in_reply_to: parent.map(str::to_string),
            chain: incoming.references.clone(),
            key: format!("reply:{}", incoming_key(incoming)),
        }
    }

    /// The reply, in the thread of `board` when it is about one.
    fn mail(&self, subject: String, body: String, board: Option<i64>, config: &MailConfig) -> OutgoingMail {
        let root = board.map(|b| relay::board_thread_id(b, config.domain()));
        OutgoingMail {
            to: self.to.clone(),
            message_id: relay::message_id_for(&self.key, &subject, config.domain()),
            subject,
            in_reply_to: self.in_reply_to.clone(),
            references: relay::thread_references(root.as_deref(), &self.chain, self.in_reply_to.as_deref()),
            board,
            body,
            key: self.key.clone(),
        }
    }
}

/// The language of the reply to `incoming`: that of the account the
/// message speaks for (an acting user of one of its commands whose
/// registered address sent it, else the account named like the sender's
/// address whose address it is, else the account that registered the
/// sender's address, else any acting user's), English when no account
/// says.
async fn reader_lang(service: &Service, incoming: &Incoming) -> Result<Lang, MailError> {
    let games = Service::game_words();
    let from = incoming.from.as_deref().map(|f| f.trim().to_ascii_lowercase()).unwrap_or_default();
    let mut users: Vec<String> = Vec::new();
    for line in &incoming.commands {
        let Ok(command) = Command::parse(line, &games) else { continue };
        users.extend(command.acting_users().into_iter().map(str::to_string));
    }
    // `help` and `show` act for nobody: the sender's own account, if its id
    // is the address's local part.
    let local = from.split_once('@').map(|(local, _)| local.to_string());
    let mut any = None;
    for (n, user) in users.iter().chain(local.iter()).enumerate() {
        let Ok(id) = tabula_service::users::canonical_user_id(user) else { continue };
        let Some(row) = service.user(&id).await? else { continue };
        if row.signed_off {
            continue;
        }
        if row.emails.iter().any(|e| e.trim().to_ascii_lowercase() == from) {
            return Ok(row.lang().unwrap_or_default());
        }
        if n < users.len() {
            any = any.or(row.lang());
        }
    }
    // A message that acts for nobody (`help`, `list`, `show`) from an
    // address whose local part is not its account's id.
    if !from.is_empty()
        && let Some(lang) = service.language_at_address(&from).await?
    {
        return Ok(lang);
    }
    Ok(any.unwrap_or_default())
}

/// The subject of an error reply about the game `kind` (`None`: about
/// none), in `lang`: `DNA error`, `Tabula error`.
fn error_subject(kind: Option<&str>, lang: Lang) -> String {
    let game = kind.and_then(tabula_games::find).map_or("Tabula", |k| k.info().title(lang));
    t!(lang, "mail-error-subject", game = game)
}

/// One command and how it went.
struct Ran {
    /// The line as the grammar read it: what to mask when quoting it.
    reading: Reading,
    /// The game word of the command, if it is a game's.
    title: Option<&'static str>,
    result: Result<Reply, CommandError>,
    /// With a refusal of a command on a board: the board as anybody may
    /// see it, so that the player sees why without asking.
    board: Option<Reply>,
}

/// How long the reply committed with a command's change waits for the
/// whole reply, queued once every command of the message has run, to
/// replace it: far longer than the commands of one message take, so that
/// the whole reply always comes first unless the process died.
const REPLY_HOLD_MS: i64 = 60_000;

/// Run every command in order; the reply's subject, body and board. A command
/// that changes a game commits with its change the notifications it sends,
/// held back until the message is answered, with the message's comment at
/// their end, and (with [`MailConfig::commit_replies`]) the reply as it
/// would be if the message ended there (see [`Answer`]). `answered`: the
/// message's key and thread.
async fn run_commands(
    service: &Service,
    incoming: &Incoming,
    config: &MailConfig,
    answered: (&str, &Thread),
    lang: Lang,
) -> (String, String, Option<i64>) {
    let games = Service::game_words();
    let count = incoming.commands.len();
    // Wrong passwords are counted against the sender's address.
    let origin = Origin::Mail(incoming.from.clone().unwrap_or_default());
    let mut ran = Vec::new();
    let mut boards: Vec<(i64, String)> = Vec::new();
    let mut about_a_game = false;
    let mut notes = Vec::new();
    // What the message's changes tell each reader, across its commands and boards.
    let told = tabula_service::Notes::default();
    let comment = match incoming.comment.trim() {
        "" => None,
        text => match Service::chat_text(text) {
            Ok(text) => Some(text),
            Err(e) => {
                notes.push(t!(lang, "mail-comment-refused", reason = e.localized(lang).message));
                None
            }
        },
    };
    for line in &incoming.commands {
        let reading = Reading::new(line, &games);
        let title = line
            .split_whitespace()
            .next()
            .and_then(|w| tabula_games::find(&w.to_ascii_lowercase()))
            .map(|k| k.info().kind);
        about_a_game |= title.is_some();
        let result = match reading.command.clone().map_err(|e| e.localized(lang)) {
            Err(e) => Err(e),
            Ok(command) => match check_sender(service, &command, incoming.from.as_deref(), config)
                .await
                .map_err(|e| e.localized(lang))
            {
                Err(e) => Err(e),
                Ok(()) => {
                    let moved_on = moved_board(&command);
                    let context = match challenger(service, &command, incoming.from.as_deref()).await {
                        Ok(caller) => {
                            let (key, thread) = answered;
                            let mut answer = interim_answer(
                                service,
                                key,
                                thread,
                                config,
                                &ran,
                                &reading,
                                title,
                                ran.len() + 1 < count,
                                lang,
                            );
                            answer.comment = comment.clone();
                            answer.notes = told.clone();
                            Context::new(caller, origin.clone()).answering(answer).in_lang(lang)
                        }
                        Err(e) => {
                            ran.push(Ran { reading, title, result: Err(e.localized(lang)), board: None });
                            continue;
                        }
                    };
                    let result = service.run(command, context).await;
                    if result.is_ok()
                        && let Some((board, user)) = moved_on
                        && !boards.iter().any(|(b, _)| *b == board)
                    {
                        boards.push((board, user));
                    }
                    result
                }
            },
        };
        let board = match (&result, reading.command.as_ref().ok().and_then(named_board)) {
            // Not where the line was masked whole (the board's number may be what was mistyped as a password).
            (Err(e), Some(board))
                if !matches!(
                    e.code,
                    ErrorCode::UnknownBoard
                        | ErrorCode::WrongPassword
                        | ErrorCode::UnknownUser
                        | ErrorCode::Unauthorized
                ) =>
            {
                service.board_for(board, None, lang).await.ok()
            }
            _ => None,
        };
        ran.push(Ran { reading, title, result, board });
    }

    if comment.is_some() {
        // Account commands (signup, help) come with greetings: no note for those.
        if boards.is_empty() && about_a_game {
            notes.push(t!(lang, "mail-comment-not-sent"));
        }
        // The players have it in the move's notification; the board's chat
        // keeps it for the web (committed with the move).
        for (board, _) in boards {
            notes.push(t!(lang, "mail-comment-sent", board = board.to_string()));
        }
    }

    let sections: Vec<Section> = ran.iter().map(|r| Section::of(r, lang)).collect();
    compose(&sections, &notes, lang)
}

/// One command's part of the reply.
#[derive(Clone, Debug)]
struct Section {
    /// The part without the command quoted, and with it.
    plain: String,
    quoted: String,
    /// The subject of a command that succeeded; `Err(title)` of one refused.
    subject: Result<String, Option<&'static str>>,
    /// The board the command was about: the one it made or acted on, or
    /// the one shown with its refusal.
    board: Option<i64>,
}

impl Section {
    fn of(ran: &Ran, lang: Lang) -> Section {
        let named = ran.reading.command.as_ref().ok().and_then(named_board);
        Section {
            plain: section(ran, false, lang),
            quoted: section(ran, true, lang),
            subject: match &ran.result {
                Ok(reply) => Ok(reply.subject.clone()),
                Err(_) => Err(ran.title),
            },
            board: match &ran.result {
                Ok(reply) => reply.game.as_ref().map(|g| g.id).or(named),
                Err(_) => ran.board.as_ref().and(named),
            },
        }
    }
}

/// The reply's subject, body and board from its commands' parts and notes.
fn compose(sections: &[Section], notes: &[String], lang: Lang) -> (String, String, Option<i64>) {
    // A message one of whose commands went through is answered under that
    // command's subject (and in that command's board's thread): only a
    // message whose every command was refused is an error.
    let (subject, board) = match sections.iter().rev().find(|s| s.subject.is_ok()) {
        Some(done) => (done.subject.clone().unwrap_or_default(), done.board),
        None => {
            let kind = sections.iter().find_map(|s| s.subject.as_ref().err().copied()).flatten();
            (error_subject(kind, lang), sections.iter().find_map(|s| s.board))
        }
    };
    let mut body = if let [only] = sections {
        only.plain.clone()
    } else {
        let parts: Vec<&str> = sections.iter().map(|s| s.quoted.as_str()).collect();
        parts.join(&format!("\n{}\n\n", "=".repeat(60)))
    };
    for note in notes {
        body.push('\n');
        body.push_str(note);
        body.push('\n');
    }
    (subject, body, board)
}

/// The reply committed with the change of the command `reading`, the next
/// after those `ran`: the reply as it would be if the message ended with
/// this command, held back until the whole reply replaces it.
#[allow(clippy::too_many_arguments)]
fn interim_answer(
    service: &Service,
    key: &str,
    thread: &Thread,
    config: &MailConfig,
    ran: &[Ran],
    reading: &Reading,
    title: Option<&'static str>,
    more: bool,
    lang: Lang,
) -> Answer {
    let before: Vec<Section> = ran.iter().map(|r| Section::of(r, lang)).collect();
    let (thread, config, reading) = (thread.clone(), config.clone(), reading.clone());
    let commit_reply = config.commit_replies;
    Answer {
        message: key.to_string(),
        hold_until: service.now() + REPLY_HOLD_MS,
        comment: None,
        notes: Default::default(),
        reply: commit_reply.then(|| -> tabula_service::ReplyMail {
            Arc::new(move |reply: &Reply| {
                let this = Ran { reading: reading.clone(), title, result: Ok(reply.clone()), board: None };
                let mut sections = before.clone();
                sections.push(Section::of(&this, lang));
                let mut notes = Vec::new();
                if more {
                    notes.push(t!(lang, "mail-commands-not-run"));
                }
                let (subject, body, board) = compose(&sections, &notes, lang);
                thread.mail(subject, body, board, &config).outbox_message()
            })
        }),
    }
}

/// The text of one command's result: the reply as the command line prints
/// it, or the refusal with the command quoted.
fn section(ran: &Ran, quote_command: bool, lang: Lang) -> String {
    match &ran.result {
        Ok(reply) => {
            let mut text = format!("{}\n\n{}", reply.subject, reply.text);
            if matches!(ran.reading.command, Ok(Command::Help { topic: None })) {
                // What `help` by mail adds: how to write to Tabula.
                text.push('\n');
                text.push_str(&t!(lang, "mail-help"));
                text.push('\n');
            }
            if quote_command { format!("> {}\n\n{text}", ran.reading.quoted(None)) } else { text }
        }
        Err(e) => {
            // Which words are passwords is the grammar's to say, from how far the command got.
            let message = command::masked_error(e, &ran.reading.secrets(Some(e)), lang);
            let quoted = ran.reading.quoted(Some(e));
            let mut out = format!("{}\n", t!(lang, "mail-refused", command = quoted, reason = message));
            if matches!(e.code, ErrorCode::Usage | ErrorCode::UnknownCommand) {
                out.push_str(&format!("\n{}\n", t!(lang, "mail-refused-help")));
            }
            if matches!(e.code, ErrorCode::WrongPassword | ErrorCode::UnknownUser) {
                out.push_str(&format!("{}\n", t!(lang, "mail-nothing-changed")));
            }
            if let Some(board) = &ran.board {
                let heading = t!(lang, "mail-board-as-it-stands");
                out.push_str(&format!("\n{heading}\n\n{}\n\n{}", board.subject, board.text));
            }
            out
        }
    }
}

/// The board a game command acts on, if it names one.
fn named_board(command: &Command) -> Option<i64> {
    match command {
        Command::Game {
            command:
                GameCommand::Move { board, .. }
                | GameCommand::Queue { board, .. }
                | GameCommand::Submit { board, .. }
                | GameCommand::Confirm { board, .. }
                | GameCommand::Preview { board, .. }
                | GameCommand::ShowAs { board, .. }
                | GameCommand::Chat { board, .. }
                | GameCommand::Subscribe { board, .. }
                | GameCommand::Answer { board, .. },
            ..
        } => Some(*board),
        _ => None,
    }
}

/// The board a command moves on, with the mover: where a comment goes.
fn moved_board(command: &Command) -> Option<(i64, String)> {
    match command {
        Command::Game {
            command: GameCommand::Move { board, auth, .. } | GameCommand::Confirm { board, auth },
            ..
        } => Some((*board, tabula_service::users::canonical_user_id(&auth.user).ok()?)),
        _ => None,
    }
}

/// Who a challenge by mail comes from: the named player whose registered
/// address sent it (as pbmserv took it); for any other command, nobody the
/// password does not prove. A challenge from an address of none of its
/// players is refused, whatever [`MailConfig::require_registered_sender`]
/// says: a challenge starts games and sends mail for others.
async fn challenger(
    service: &Service,
    command: &Command,
    from: Option<&str>,
) -> Result<Caller, CommandError> {
    let Command::Game { command: GameCommand::Challenge { players, .. }, .. } = command else {
        return Ok(Caller::Anonymous);
    };
    let from = from.map(|f| f.trim().to_ascii_lowercase()).unwrap_or_default();
    for player in players {
        let Ok(id) = tabula_service::users::canonical_user_id(player) else { continue };
        if id.starts_with("bot:") {
            continue;
        }
        let Some(row) = service.user(&id).await? else { continue };
        if !row.signed_off && row.emails.iter().any(|e| e.trim().to_ascii_lowercase() == from) {
            return Ok(Caller::User(id));
        }
    }
    let error = if from.is_empty() {
        msg!("error-mail-challenge-no-sender")
    } else {
        msg!("error-mail-challenge-sender", address = from.as_str())
    };
    Err(CommandError::says(ErrorCode::Unauthorized, error))
}

/// A command that acts for users must come from an address of one of them.
async fn check_sender(
    service: &Service,
    command: &Command,
    from: Option<&str>,
    config: &MailConfig,
) -> Result<(), CommandError> {
    if !config.require_registered_sender {
        return Ok(());
    }
    let users = command.acting_users();
    if users.is_empty() {
        return Ok(());
    }
    let from = from.map(|f| f.trim().to_ascii_lowercase());
    let mut known = false;
    for user in &users {
        let Ok(id) = tabula_service::users::canonical_user_id(user) else { continue };
        let Some(row) = service.user(&id).await? else { continue };
        if row.signed_off {
            continue;
        }
        known = true;
        if from.as_ref().is_some_and(|from| row.emails.iter().any(|e| e.trim().to_ascii_lowercase() == *from))
        {
            return Ok(());
        }
    }
    if !known {
        // No such user: the service's own answer says so.
        return Ok(());
    }
    // Unauthorized: refused for an account that exists before its password
    // was looked at, so a quote of the line masks every word but its id.
    let Some(from) = from else {
        return Err(CommandError::says(ErrorCode::Unauthorized, msg!("error-mail-no-from")));
    };
    let error = match users.as_slice() {
        [one] => msg!("error-mail-sender-user", address = from.as_str(), user = *one),
        _ => msg!("error-mail-sender-players", address = from.as_str()),
    };
    Err(CommandError::says(ErrorCode::Unauthorized, error))
}

/// What a message says, apart from its addresses.
pub(crate) struct Draft<'a> {
    pub to: &'a str,
    pub subject: &'a str,
    pub body: &'a str,
    pub message_id: &'a str,
    pub in_reply_to: Option<&'a str>,
    pub references: &'a [String],
    /// The `Auto-Submitted` value (RFC 3834): `auto-replied` or `auto-generated`.
    pub auto_submitted: &'static str,
}

const AUTO_SUBMITTED: HeaderName = HeaderName::new_from_ascii_str("Auto-Submitted");
const AUTO_RESPONSE_SUPPRESS: HeaderName = HeaderName::new_from_ascii_str("X-Auto-Response-Suppress");

/// Build a plain-text message from `from`.
pub(crate) fn build_message(draft: &Draft<'_>, from: &str) -> Result<lettre::Message, MailError> {
    let from: Mailbox = from.parse().map_err(|e| MailError::Build(format!("from {from:?}: {e}")))?;
    let to: Mailbox = draft.to.parse().map_err(|e| MailError::Build(format!("to {:?}: {e}", draft.to)))?;
    // No control characters but newlines and tabs: a NUL would cut the body
    // short in many mail programs, an escape sequence would reach terminals.
    let text = tabula_service::text::clean(draft.body).trim_end_matches('\n').to_string();
    // Long lines (prose, a long comment) are wrapped as format=flowed (RFC 3676):
    // the raw text stays readable, and mail programs join the lines again.
    let too_long = text.split('\n').any(|line| line.len() > MAX_PLAIN_LINE);
    let (text, content_type) = match too_long.then(|| flowed(&text)).flatten() {
        Some(wrapped) => (wrapped, flowed_content_type()),
        None => (text, ContentType::TEXT_PLAIN),
    };
    let mut builder = lettre::Message::builder()
        .from(from)
        .to(to)
        .subject(draft.subject.replace(['\r', '\n'], " "))
        .message_id(Some(format!("<{}>", draft.message_id)))
        .header(MIME_VERSION_1_0)
        .header(content_type)
        // Keeps vacation programs and out-of-office rules from answering (RFC 3834, Exchange).
        .raw_header(HeaderValue::new(AUTO_SUBMITTED, draft.auto_submitted.to_string()))
        .raw_header(HeaderValue::new(AUTO_RESPONSE_SUPPRESS, "All".to_string()));
    if let Some(parent) = draft.in_reply_to.filter(|id| relay::is_safe_message_id(id)) {
        builder = builder.in_reply_to(format!("<{parent}>"));
    }
    let references: Vec<String> =
        draft.references.iter().filter(|r| relay::is_safe_message_id(r)).map(|r| format!("<{r}>")).collect();
    if !references.is_empty() {
        builder = builder.references(references.join(" "));
    }
    // SMTP clients end the data with CRLF.CRLF whatever the body's end, so the
    // body's own last line end is left off (above; else every mail grew a blank line).
    // 7bit where the text allows it, else quoted-printable (readable in any mail program; never base64).
    let body = match Body::new_with_encoding(text.clone(), ContentTransferEncoding::SevenBit) {
        Ok(body) => body,
        Err(_) => Body::new_with_encoding(text, ContentTransferEncoding::QuotedPrintable)
            .map_err(|_| MailError::Build("the body cannot be encoded".into()))?,
    };
    builder.body(body).map_err(|e| MailError::Build(e.to_string()))
}

/// The longest line, in bytes, sent as it is (lettre takes lines shorter
/// than 76 bytes, their line end counted, as 7bit); longer ones are wrapped.
const MAX_PLAIN_LINE: usize = 74;

/// `text/plain; charset=utf-8; format=flowed`.
fn flowed_content_type() -> ContentType {
    ContentType::parse("text/plain; charset=utf-8; format=flowed").unwrap_or(ContentType::TEXT_PLAIN)
}

/// `text` as format=flowed (RFC 3676, without DelSp): each line too long
/// broken after a space, the space kept at the line's end as the mark of a
/// soft break; lines that start with a space, `>` or `From ` stuffed with
/// a space; spaces at the end of a line of the text itself dropped (they
/// would read as soft breaks). `None` when a line has a word too long to
/// break (quoted-printable is left to carry it).
fn flowed(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let mut rest = line.trim_end_matches(' ');
        loop {
            let stuff = rest.starts_with(' ') || rest.starts_with('>') || rest.starts_with("From ");
            let room = MAX_PLAIN_LINE - usize::from(stuff);
            if stuff {
                out.push(' ');
            }
            if rest.len() <= room {
                out.push_str(rest);
                break;
            }
            // Break after the last space that fits (the space stays on this line).
            let mut end = room;
            while !rest.is_char_boundary(end) {
                end -= 1;
            }
            let cut = rest[..end].rfind(' ').filter(|&i| i > 0).map(|i| i + 1)?;
            out.push_str(&rest[..cut]);
            out.push('\n');
            rest = &rest[cut..];
        }
    }
    Some(out)
}
