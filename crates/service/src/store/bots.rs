//! Bot accounts: ordinary accounts marked as played by a program, and the
//! command of those the server runs itself (hosted bots).

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use tabula_model::Timestamp;

use super::StoreResult;

/// An account marked as a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
pub struct BotAccountRow {
    /// The account's id.
    pub user_id: String,
    /// When it became a bot.
    pub since: Timestamp,
    /// A hosted bot's command, a JSON array of words; `None` for a remote
    /// bot (its program connects with the account's token).
    pub command: Option<String>,
}

impl BotAccountRow {
    /// A hosted bot's command as words (`None` for a remote bot, or a
    /// stored command that does not read).
    pub fn argv(&self) -> Option<Vec<String>> {
        self.command.as_deref().and_then(|c| serde_json::from_str(c).ok())
    }
}

/// Which accounts are bots, and the programs the server runs for some.
#[async_trait]
pub trait BotAccounts: Send + Sync {
    /// Mark `user` as a bot (`on`, keeping a hosted command it has) or
    /// as a person again (its hosted command goes too).
    async fn set_bot(&self, user: &str, on: bool, now: Timestamp) -> StoreResult<()>;
    /// Mark `user` as a bot run by the server with `command` (JSON words),
    /// or, with `None`, as a remote bot again.
    async fn set_bot_command(&self, user: &str, command: Option<&str>, now: Timestamp) -> StoreResult<()>;
    /// The bot account `user`, if it is one.
    async fn bot_account(&self, user: &str) -> StoreResult<Option<BotAccountRow>>;
    /// Every bot account, by id.
    async fn bot_accounts(&self) -> StoreResult<Vec<BotAccountRow>>;
    /// Which of `users` are bot accounts.
    async fn bots_among(&self, users: &[String]) -> StoreResult<Vec<String>>;
}
