//! Bot accounts: ordinary accounts marked as played by a program, and the
//! command of those the server runs itself (hosted bots).

use super::*;

/// An account marked as a bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotAccountRow {
    /// The account's id.
    pub user_id: String,
    /// When it became a bot.
    pub since: Timestamp,
    /// A hosted bot's command, a JSON array of words; `None` for a remote
    /// bot (its program connects with the account's token).
    pub command: Option<String>,
    /// The server that runs a hosted bot's program (see
    /// [`Store::claim_hosted_bot`]), if one claimed it.
    pub host: Option<String>,
    /// Until when that server's claim holds unless renewed.
    pub host_until: Option<Timestamp>,
}

impl BotAccountRow {
    /// A hosted bot's command as words (`None` for a remote bot, or a
    /// stored command that does not read).
    pub fn argv(&self) -> Option<Vec<String>> {
        self.command.as_deref().and_then(|c| serde_json::from_str(c).ok())
    }

    /// The server running a hosted bot's program at `now`: the holder of
    /// a claim that has not run out.
    pub fn host_at(&self, now: Timestamp) -> Option<&str> {
        self.host.as_deref().filter(|_| self.command.is_some() && self.host_until.is_some_and(|t| t >= now))
    }
}

impl Store {
    /// Mark `user` as a bot (`on`, keeping a hosted command it has) or
    /// as a person again (its hosted command goes too).
    pub async fn set_bot(
        &self,
        user: &str,
        on: bool,
        now: Timestamp,
        effects: &[SideEffect],
    ) -> StoreResult<()> {
        let change = if on {
            let sql =
                "INSERT INTO bot_accounts (user_id, since) VALUES (?1, ?2) ON CONFLICT (user_id) DO NOTHING";
            (sql.into(), values![user, now])
        } else {
            ("DELETE FROM bot_accounts WHERE user_id = ?1".into(), values![user])
        };
        self.write_with([change], effects, None, now).await
    }

    /// Mark `user` as a bot run by the server with `command` (JSON words),
    /// or, with `None`, as a remote bot again.
    pub async fn set_bot_command(
        &self,
        user: &str,
        command: Option<&str>,
        now: Timestamp,
    ) -> StoreResult<()> {
        let sql = "INSERT INTO bot_accounts (user_id, since, command) VALUES (?1, ?2, ?3) \
                   ON CONFLICT (user_id) DO UPDATE SET command = ?3";
        self.execute(sql, values![user, now, command]).await.map(drop)
    }

    /// The bot account `user`, if it is one.
    pub async fn bot_account(&self, user: &str) -> StoreResult<Option<BotAccountRow>> {
        self.row("SELECT * FROM bot_accounts WHERE user_id = ?1", values![user]).await
    }

    /// Every bot account, by id.
    pub async fn bot_accounts(&self) -> StoreResult<Vec<BotAccountRow>> {
        self.rows("SELECT * FROM bot_accounts ORDER BY user_id", values![]).await
    }

    /// Claim the hosted bot `user` for the server `host` until `until`:
    /// whether `host` holds it now. A claim is taken when no server holds
    /// it, or the holder's ran out before `now`, and renewed by its holder;
    /// one statement, so that of two servers asking at once one wins.
    pub async fn claim_hosted_bot(
        &self,
        user: &str,
        host: &str,
        now: Timestamp,
        until: Timestamp,
    ) -> StoreResult<bool> {
        let sql = "UPDATE bot_accounts SET host = ?1, host_until = ?2 WHERE user_id = ?3 \
                   AND command IS NOT NULL AND (host IS NULL OR host = ?1 OR host_until < ?4)";
        Ok(self.execute(sql, values![host, until, user, now]).await? == 1)
    }

    /// Give up `host`'s claims (a server stopping), so that another server
    /// takes its hosted bots over at once.
    pub async fn release_hosted_bots(&self, host: &str) -> StoreResult<()> {
        let sql = "UPDATE bot_accounts SET host = NULL, host_until = NULL WHERE host = ?1";
        self.execute(sql, values![host]).await.map(drop)
    }

    /// Which of `users` are bot accounts.
    pub async fn bots_among(&self, users: &[String]) -> StoreResult<Vec<String>> {
        let sql = match self.db {
            Db::Sqlite(_) => {
                "SELECT user_id FROM bot_accounts WHERE user_id IN (SELECT value FROM json_each(?1))"
            }
            Db::Postgres(_) => {
                "SELECT user_id FROM bot_accounts WHERE user_id IN (SELECT json_array_elements_text(?1::json))"
            }
        };
        Ok(self.rows(sql, values![json(&users)]).await?.into_iter().map(|(user,)| user).collect())
    }
}
