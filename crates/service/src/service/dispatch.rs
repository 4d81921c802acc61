//! Parsing a command line and running the parsed command: the one
//! entry every front end calls.

use tabula_i18n::{msg, t};
use tabula_model::GameKind;
use tabula_model::Lang;

use crate::command::{Command, GameCommand};
use crate::error::{CommandError, ErrorCode};
use crate::help;
use crate::store::SideEffect;
use crate::throttle::Context;
use crate::users;

use super::accounts::check_emails;
use super::{MAX_CHAT, Reply, Service};

impl Service {
    /// Parse and run one command line for `context`: a [`Caller`] alone
    /// (`&caller`) is one at the local command line.
    pub async fn execute(&self, line: &str, context: impl Into<Context>) -> Result<Reply, CommandError> {
        let context = context.into();
        let command = Command::parse(line, &Self::game_words()).map_err(|e| e.localized(context.lang))?;
        self.run(command, context).await
    }

    /// Run a parsed command for `context` (see [`Service::execute`]).
    pub async fn run(&self, command: Command, context: impl Into<Context>) -> Result<Reply, CommandError> {
        let context = context.into();
        // Logged as the grammar masks it, never with a password: a command
        // that ran had its password where the grammar puts it; of a refused
        // one, whose words may be out of place, only its name.
        let (masked, name) = (command.masked(), command.name());
        let result = self.run_parsed(command, &context).await.map_err(|e| e.localized(context.lang));
        match &result {
            Ok(_) => tracing::debug!(command = %masked, origin = ?context.origin, "command"),
            Err(e) => {
                tracing::debug!(command = %name, code = e.code.as_str(), origin = ?context.origin, "command refused")
            }
        }
        result
    }

    async fn run_parsed(&self, command: Command, caller: &Context) -> Result<Reply, CommandError> {
        let lang = caller.lang;
        match command {
            Command::Signup { user, password, emails } => {
                Box::pin(self.signup(&user, &password, &emails, caller)).await
            }
            Command::ChangePassword { auth, new_password } => {
                let mut u = self.authenticate_password(&auth, caller).await?;
                users::check_password(&new_password)
                    .map_err(|m| CommandError::says(ErrorCode::BadValue, m))?;
                u.password_hash = users::hash_password(&new_password);
                let reply =
                    Reply::said(t!(lang, "password-subject"), t!(lang, "password-text", user = &u.id));
                // Whoever had a token or a session of the account has them no
                // more, from the same transaction on.
                let mut effects = self.answered(caller, &reply);
                effects.push(SideEffect::EndLogins { user: u.id.clone() });
                self.store.update_user(&u, &effects, self.now()).await?;
                Ok(reply)
            }
            Command::ChangeAddress { auth, emails } => {
                let mut u = self.authenticate_password(&auth, caller).await?;
                u.emails = check_emails(&emails)?;
                let reply = Reply::said(
                    t!(lang, "address-subject"),
                    t!(lang, "address-text", user = &u.id, addresses = u.emails.join(", ")),
                );
                self.settled(&u, caller, reply).await
            }
            Command::Signoff { auth } => self.signoff(&auth, caller).await,
            Command::Notify { auth, on } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.notify = on;
                let state = if on { "on" } else { "off" };
                let reply = Reply::said(
                    t!(lang, "notify-subject"),
                    t!(lang, "notify-text", user = &u.id, state = state),
                );
                self.settled(&u, caller, reply).await
            }
            Command::Vacation { auth, days } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.vacation_until = days.map(|d| self.now() + i64::from(d) * 86_400_000);
                let text = match (days, u.vacation_until) {
                    (Some(d), Some(until)) => {
                        // English names the weekday and the month, as it always has.
                        let until = match lang {
                            Lang::En => chrono::DateTime::from_timestamp_millis(until)
                                .map(|t| t.format("%A %-d %B %Y, %H:%M UTC").to_string())
                                .unwrap_or_default(),
                            _ => tabula_i18n::format_datetime(lang, until),
                        };
                        t!(lang, "vacation-text", user = &u.id, days = d, until = until)
                    }
                    _ => t!(lang, "vacation-back", user = &u.id),
                };
                self.settled(&u, caller, Reply::said(t!(lang, "vacation-subject"), text)).await
            }
            Command::Limit { auth, limit } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.game_limit = limit.map(i64::from);
                let text = match limit {
                    Some(n) => t!(lang, "limit-text", user = &u.id, limit = n),
                    None => t!(lang, "limit-off", user = &u.id),
                };
                self.settled(&u, caller, Reply::said(t!(lang, "limit-subject"), text)).await
            }
            Command::Policy { auth, ask } => {
                let mut u = self.authenticate(&auth, caller).await?;
                u.challenge_policy = if ask { "ask" } else { "open" }.into();
                let text = if ask {
                    t!(lang, "policy-ask", user = &u.id)
                } else {
                    t!(lang, "policy-open", user = &u.id)
                };
                self.settled(&u, caller, Reply::said(t!(lang, "policy-subject"), text)).await
            }
            Command::Language { auth, lang: chosen } => {
                let lang = chosen;
                let mut u = self.authenticate(&auth, caller).await?;
                u.language = Some(lang.code().to_string());
                // Said in the language chosen: the first text the account
                // reads in it.
                let reply =
                    Reply::said(t!(lang, "language-set-subject"), t!(lang, "language-set", user = &u.id));
                self.settled(&u, caller, reply).await
            }
            Command::Bot { auth, on } => self.bot_switch(&auth, on, caller).await,
            Command::Help { topic } => help::help(topic.as_deref(), lang),
            Command::List => Ok(help::list(lang)),
            Command::Game { kind, command } => {
                let kind = tabula_games::find(&kind).ok_or_else(|| {
                    CommandError::says(
                        ErrorCode::UnknownCommand,
                        msg!("error-no-game", quoted = format!("{kind:?}")),
                    )
                })?;
                let title = kind.info().kind;
                self.game_command(kind, command, caller).await.map_err(|e| e.for_game(title))
            }
        }
    }

    pub(super) async fn game_command(
        &self,
        kind: &'static dyn GameKind,
        command: GameCommand,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        match command {
            GameCommand::Help => help::help(Some(kind.info().kind), caller.lang),
            GameCommand::Challenge { players, options } => {
                Box::pin(self.challenge(kind, &players, &options, caller)).await
            }
            GameCommand::Move { board, auth, action: mv, guard } => {
                self.play(kind, board, auth, mv, guard, caller).await
            }
            GameCommand::Queue { board, auth, text } => self.queue(kind, board, auth, text, caller).await,
            GameCommand::Submit { board, auth, text } => self.submit(kind, board, auth, text, caller).await,
            GameCommand::Confirm { board, auth } => self.confirm(kind, board, auth, caller).await,
            GameCommand::Preview { board, auth, text } => {
                self.preview_move(kind, board, auth, text, caller).await
            }
            GameCommand::Show { board, at } => self.show(kind, board, at, caller).await,
            GameCommand::ShowAs { board, auth } => self.show_as(kind, board, auth, caller).await,
            GameCommand::History { board } => self.history(kind, board, caller).await,
            GameCommand::Games { user, which } => self.games_list(kind, &user, which, caller.lang).await,
            GameCommand::Standings => self.standings(kind, caller.lang).await,
            GameCommand::Ratings => self.ratings(kind, caller.lang).await,
            GameCommand::Chat { board, auth, text } => self.chat(kind, board, auth, text, caller).await,
            GameCommand::Subscribe { board, auth, on } => self.subscribe(kind, board, auth, on, caller).await,
            GameCommand::Answer { board, auth, accept } => {
                Box::pin(self.answer(kind, board, &auth, accept, caller)).await
            }
        }
    }
}

impl Service {
    /// Store the account `u` as a setting command changed it, with the
    /// reply to the mail message it came in (if any) in the same
    /// transaction; the reply.
    async fn settled(
        &self,
        u: &crate::store::UserRow,
        caller: &Context,
        reply: Reply,
    ) -> Result<Reply, CommandError> {
        self.store.update_user(u, &self.answered(caller, &reply), self.now()).await?;
        Ok(reply)
    }

    /// A chat line or a mail's comment as stored and sent: control
    /// characters cleaned out; refused when empty or too long.
    ///
    /// # Errors
    /// `bad_value` for no text or more than 4000 characters.
    pub fn chat_text(text: &str) -> Result<String, CommandError> {
        let text = crate::text::clean(text);
        if text.trim().is_empty() {
            return Err(CommandError::says(ErrorCode::BadValue, msg!("error-chat-empty")));
        }
        if text.chars().count() > MAX_CHAT {
            return Err(CommandError::says(ErrorCode::BadValue, msg!("error-chat-too-long", max = MAX_CHAT)));
        }
        Ok(text)
    }
}
