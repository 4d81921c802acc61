//! Bot accounts: `bot on|off`, the programs the server runs for hosted
//! ones, and the games a bot's program is told about.

use std::sync::Arc;

use tabula_i18n::{msg, t};
use tabula_model::{Game, Seat};

use crate::command::Credentials;
use crate::error::{CommandError, ErrorCode};
use crate::reply;
use crate::store::{BotAccountRow, GameStatus};
use crate::throttle::Context;
use crate::users;

use super::{Loaded, Reply, Service};

/// Most words in a hosted bot's command.
pub const MAX_BOT_WORDS: usize = 64;
/// Longest hosted bot command, in bytes (its words as JSON).
pub const MAX_BOT_COMMAND: usize = 4096;

/// One of a bot's games as its program is told of it.
#[derive(Clone, Debug)]
pub struct BotGame {
    /// The game, replayed.
    pub game: Arc<Game>,
    /// The bot's seat.
    pub seat: Seat,
    /// Its status.
    pub status: GameStatus,
    /// Its version (events stored).
    pub version: i64,
    /// Whether the bot has accepted (a challenge waits for it while not).
    pub accepted: bool,
    /// Whether the bot must move now.
    pub to_move: bool,
}

impl Service {
    /// `bot on|off USERID PASSWORD`: with the password itself, as every
    /// command that changes what an account is.
    pub(super) async fn bot_switch(
        &self,
        auth: &Credentials,
        on: bool,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let u = self.authenticate_password(auth, caller).await?;
        let id = &u.id;
        let lang = caller.lang;
        let reply = if on {
            let policy = if u.challenge_policy == "ask" { "ask" } else { "open" };
            Reply::said(t!(lang, "bot-subject"), t!(lang, "bot-on", user = id, policy = policy))
        } else {
            Reply::said(t!(lang, "bot-subject"), t!(lang, "bot-off", user = id))
        };
        self.store.set_bot(id, on, self.now(), &self.answered(caller, &reply)).await?;
        Ok(reply)
    }

    /// The bot account `user`, if it is one.
    pub async fn bot_account(&self, user: &str) -> Result<Option<BotAccountRow>, CommandError> {
        Ok(self.store.bot_account(user).await?)
    }

    /// Every bot account (the operator's `tabula bot list`).
    pub async fn bot_accounts(&self) -> Result<Vec<BotAccountRow>, CommandError> {
        Ok(self.store.bot_accounts().await?)
    }

    /// Claim the hosted bot `user` for the server `host` for `hold_ms` from
    /// now, or renew its claim: until when it holds, or `None` when
    /// another server holds the bot (or it is hosted no more).
    pub async fn claim_hosted_bot(
        &self,
        user: &str,
        host: &str,
        hold_ms: i64,
    ) -> Result<Option<i64>, CommandError> {
        let (now, until) = (self.now(), self.now() + hold_ms);
        Ok(self.store.claim_hosted_bot(user, host, now, until).await?.then_some(until))
    }

    /// Give up the server `host`'s claims on hosted bots (it stops).
    pub async fn release_hosted_bots(&self, host: &str) -> Result<(), CommandError> {
        Ok(self.store.release_hosted_bots(host).await?)
    }

    /// Which of `players` are bots: built-in ones (`bot:NAME`) and bot
    /// accounts, in the order given.
    pub async fn bots_among(&self, players: &[String]) -> Result<Vec<String>, CommandError> {
        let people: Vec<String> = players.iter().filter(|p| !p.starts_with("bot:")).cloned().collect();
        let accounts = if people.is_empty() { Vec::new() } else { self.store.bots_among(&people).await? };
        Ok(players.iter().filter(|p| p.starts_with("bot:") || accounts.contains(p)).cloned().collect())
    }

    /// Host a program for the account `user` (the operator's `tabula bot
    /// add`): the server runs `argv` for the account's games, which makes
    /// it a bot account if it was not one. `None` ends the hosting; the
    /// account stays a bot.
    ///
    /// # Errors
    /// `unknown_user`, or a command that is empty or too long.
    pub async fn host_bot(&self, user: &str, argv: Option<&[String]>) -> Result<(), CommandError> {
        let id = users::canonical_user_id(user).map_err(|m| CommandError::says(ErrorCode::UnknownUser, m))?;
        self.store
            .user(&id)
            .await?
            .filter(|u| !u.signed_off)
            .ok_or_else(|| CommandError::says(ErrorCode::UnknownUser, msg!("error-no-user", user = &id)))?;
        let command = match argv {
            None => {
                if self.store.bot_account(&id).await?.is_none() {
                    return Err(CommandError::says(
                        ErrorCode::Refused,
                        msg!("error-not-a-bot-account", user = &id),
                    ));
                }
                None
            }
            Some([]) => return Err(CommandError::says(ErrorCode::BadValue, msg!("error-bot-command-empty"))),
            Some(words) if words.len() > MAX_BOT_WORDS => {
                return Err(CommandError::says(
                    ErrorCode::BadValue,
                    msg!("error-bot-command-words", max = MAX_BOT_WORDS),
                ));
            }
            Some(words) => {
                let text = serde_json::to_string(words).unwrap_or_default();
                if text.len() > MAX_BOT_COMMAND {
                    return Err(CommandError::says(
                        ErrorCode::BadValue,
                        msg!("error-bot-command-long", max = MAX_BOT_COMMAND),
                    ));
                }
                Some(text)
            }
        };
        self.store.set_bot_command(&id, command.as_deref(), self.now()).await?;
        Ok(())
    }

    /// The board `board` as the bot `user`'s program is told of it.
    ///
    /// # Errors
    /// `unknown_board`, or `not_a_player` when `user` has no seat there.
    pub async fn bot_game(&self, board: i64, user: &str) -> Result<BotGame, CommandError> {
        let Loaded { game, stored, .. } = self.load(board).await?;
        let seat = self.seat_in(&game, board, user)?;
        let to_move = stored.summary.status == GameStatus::Active
            && !game.is_over()
            && reply::to_move_users(&game).iter().any(|u| u == user);
        Ok(BotGame {
            seat,
            status: stored.summary.status,
            version: stored.summary.version,
            accepted: stored.accepted.get(seat).copied().unwrap_or(false),
            to_move,
            game,
        })
    }

    fn seat_in(&self, game: &Game, board: i64, user: &str) -> Result<Seat, CommandError> {
        game.seat_of(user).ok_or_else(|| super::boards::not_a_player(user, board))
    }
}
