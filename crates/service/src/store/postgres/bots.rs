//! [`BotAccounts`] on PostgreSQL.

use super::*;

#[async_trait]
impl BotAccounts for PostgresStore {
    async fn set_bot(&self, user: &str, on: bool, now: Timestamp) -> StoreResult<()> {
        if on {
            let sql =
                "INSERT INTO bot_accounts (user_id, since) VALUES ($1, $2) ON CONFLICT (user_id) DO NOTHING";
            self.execute(sql, args![user, now]).await.map(drop)
        } else {
            self.execute("DELETE FROM bot_accounts WHERE user_id = $1", args![user]).await.map(drop)
        }
    }

    async fn set_bot_command(&self, user: &str, command: Option<&str>, now: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO bot_accounts (user_id, since, command) VALUES ($1, $2, $3) \
                   ON CONFLICT (user_id) DO UPDATE SET command = $3";
        self.execute(sql, args![user, now, command]).await.map(drop)
    }

    async fn bot_account(&self, user: &str) -> StoreResult<Option<BotAccountRow>> {
        self.row("SELECT user_id, since, command FROM bot_accounts WHERE user_id = $1", args![user]).await
    }

    async fn bot_accounts(&self) -> StoreResult<Vec<BotAccountRow>> {
        self.rows("SELECT user_id, since, command FROM bot_accounts ORDER BY user_id", args![]).await
    }

    async fn bots_among(&self, users: &[String]) -> StoreResult<Vec<String>> {
        let sql = "SELECT user_id FROM bot_accounts WHERE user_id = ANY($1)";
        let rows: Vec<(String,)> = self.rows(sql, args![users]).await?;
        Ok(rows.into_iter().map(|r| r.0).collect())
    }
}
