//! [`BotAccounts`] on SQLite.

use super::*;

#[async_trait]
impl BotAccounts for SqliteStore {
    async fn set_bot(&self, user: &str, on: bool, now: Timestamp) -> StoreResult<()> {
        if on {
            let sql =
                "INSERT INTO bot_accounts (user_id, since) VALUES (?1, ?2) ON CONFLICT (user_id) DO NOTHING";
            self.execute(sql, args![user, now]).await.map(drop)
        } else {
            self.execute("DELETE FROM bot_accounts WHERE user_id = ?1", args![user]).await.map(drop)
        }
    }

    async fn set_bot_command(&self, user: &str, command: Option<&str>, now: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO bot_accounts (user_id, since, command) VALUES (?1, ?2, ?3) \
                   ON CONFLICT (user_id) DO UPDATE SET command = ?3";
        self.execute(sql, args![user, now, command.map(str::to_string)]).await.map(drop)
    }

    async fn bot_account(&self, user: &str) -> StoreResult<Option<BotAccountRow>> {
        self.row("SELECT user_id, since, command FROM bot_accounts WHERE user_id = ?1", args![user]).await
    }

    async fn bot_accounts(&self) -> StoreResult<Vec<BotAccountRow>> {
        self.rows("SELECT user_id, since, command FROM bot_accounts ORDER BY user_id", args![]).await
    }

    async fn bots_among(&self, users: &[String]) -> StoreResult<Vec<String>> {
        #[derive(Deserialize)]
        struct Id {
            user_id: String,
        }
        let sql = "SELECT user_id FROM bot_accounts WHERE user_id IN (SELECT value FROM json_each(?1))";
        let ids: Vec<Id> = self.rows(sql, args![json(&users)]).await?;
        Ok(ids.into_iter().map(|i| i.user_id).collect())
    }
}
