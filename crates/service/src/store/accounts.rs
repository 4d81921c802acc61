//! Accounts: users, their bearer tokens, their web login sessions, and the
//! rate limits counted for them.

use super::games::side_effects;
use super::*;

impl Store {
    /// Create a user, with `effects` (the reply to the mail message that
    /// asked for it, say) in the same transaction, made at `at`; `Exists`
    /// if the id is taken.
    pub async fn create_user(&self, u: &UserRow, effects: &[SideEffect], at: Timestamp) -> StoreResult<()> {
        let sql = "INSERT INTO users (password_hash, emails, notify, vacation_until, game_limit, challenge_policy, \
                   signed_off, language, id, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
        let mut values = user_values(u);
        values.push(Value::from(u.created));
        match self.write_with([(sql.into(), values)], effects, None, at).await {
            Err(e) if is_taken(&e) => Err(StoreError::Exists),
            r => r,
        }
    }

    /// A user by lower-case id.
    pub async fn user(&self, id: &str) -> StoreResult<Option<UserRow>> {
        Ok(self.rows_on(On::Writer, "SELECT * FROM users WHERE id = ?1", values![id]).await?.pop())
    }

    /// The open accounts that registered the mail `address` (in any case),
    /// by id. Every account is read: for the few messages that name no
    /// account of their sender (`help`, `list`, `show`).
    pub async fn users_at_address(&self, address: &str) -> StoreResult<Vec<UserRow>> {
        let has_address = match self.db {
            Db::Sqlite(_) => {
                "EXISTS (SELECT 1 FROM json_each(users.emails) WHERE lower(json_each.value) = lower(?1))"
            }
            Db::Postgres(_) => {
                "EXISTS (SELECT 1 FROM jsonb_array_elements_text(users.emails::jsonb) e WHERE lower(e) = lower(?1))"
            }
        };
        let sql = format!("SELECT * FROM users WHERE signed_off = 0 AND {has_address} ORDER BY id");
        self.rows(sql, values![address.trim()]).await
    }

    /// Replace a user's mutable fields, with `effects` in the same
    /// transaction, made at `at`.
    pub async fn update_user(&self, u: &UserRow, effects: &[SideEffect], at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE users SET password_hash = ?1, emails = ?2, notify = ?3, vacation_until = ?4, \
                   game_limit = ?5, challenge_policy = ?6, signed_off = ?7, language = ?8 WHERE id = ?9";
        let mut statements = vec![(sql.into(), user_values(u))];
        statements.extend(side_effects(effects, None, at)?);
        // Nothing else happens for an account that is not there.
        match self.write_guarded(statements).await {
            Err(StoreError::Conflict) => Err(StoreError::NotFound),
            r => r,
        }
    }

    /// Store a new bearer token (by the hash of its secret); returns its id.
    pub async fn create_token(&self, user: &str, name: &str, hash: &str, now: Timestamp) -> StoreResult<i64> {
        let sql = "INSERT INTO tokens (hash, user_id, name, created) VALUES (?1, ?2, ?3, ?4) RETURNING id";
        let ids: Vec<(i64,)> = self.rows_on(On::Batch, sql, values![hash, user, name, now]).await?;
        ids.first().map(|(id,)| *id).ok_or(StoreError::NotFound)
    }

    /// The owner of an unrevoked token and the owner's account as it
    /// stands (`None` if there is no such account), noting the token's use
    /// (at most once a minute: a busy client's requests need not each be a
    /// write).
    pub async fn token_account(
        &self,
        hash: &str,
        now: Timestamp,
    ) -> StoreResult<Option<(String, Option<UserRow>)>> {
        let Some((owner, last_used, account)) = on_db!(self, db => db.token_owner(hash).await)? else {
            return Ok(None);
        };
        if token_use_due(last_used, now) {
            let sql = "UPDATE tokens SET last_used = ?1 WHERE hash = ?2 AND revoked IS NULL";
            self.execute(sql, values![now, hash]).await?;
        }
        Ok(Some((owner, account)))
    }

    /// A user's tokens.
    pub async fn tokens(&self, user: &str) -> StoreResult<Vec<TokenRow>> {
        self.rows("SELECT * FROM tokens WHERE user_id = ?1 ORDER BY id", values![user]).await
    }

    /// Revoke a user's token; false if there is no such unrevoked token.
    pub async fn revoke_token(&self, user: &str, id: i64, now: Timestamp) -> StoreResult<bool> {
        let sql = "UPDATE tokens SET revoked = ?1 WHERE id = ?2 AND user_id = ?3 AND revoked IS NULL";
        Ok(self.execute(sql, values![now, id, user]).await? > 0)
    }

    /// Store a login session (by the hash of its secret).
    pub async fn create_session(
        &self,
        hash: &str,
        user: &str,
        csrf: &str,
        now: Timestamp,
        expires: Timestamp,
    ) -> StoreResult<()> {
        let sql = "INSERT INTO sessions (hash, user_id, csrf, created, expires) VALUES (?1, ?2, ?3, ?4, ?5)";
        self.execute(sql, values![hash, user, csrf, now, expires]).await.map(drop)
    }

    /// An unexpired session.
    pub async fn session(&self, hash: &str, now: Timestamp) -> StoreResult<Option<SessionRow>> {
        let sql = "SELECT user_id, csrf, expires FROM sessions WHERE hash = ?1 AND expires > ?2";
        self.row(sql, values![hash, now]).await
    }

    /// End a session.
    pub async fn delete_session(&self, hash: &str) -> StoreResult<()> {
        self.execute("DELETE FROM sessions WHERE hash = ?1", values![hash]).await.map(drop)
    }

    /// The count of the rate limit `name`, if anything was counted.
    pub async fn limit(&self, name: &str) -> StoreResult<Option<LimitCount>> {
        self.row("SELECT hits, last_at FROM rate_limits WHERE name = ?1", values![name]).await
    }

    /// Count one more try under `name` at `now` and return the count: one
    /// statement, so that processes sharing the database count together
    /// (the conflict makes the second of two at once wait for the first's
    /// row). A count that last grew before `forget_before` starts again at one.
    pub async fn count_limit(
        &self,
        name: &str,
        now: Timestamp,
        forget_before: Timestamp,
    ) -> StoreResult<LimitCount> {
        let sql = "INSERT INTO rate_limits (name, hits, last_at) VALUES (?1, 1, ?2) ON CONFLICT (name) DO UPDATE \
                   SET hits = CASE WHEN rate_limits.last_at < ?3 THEN 1 ELSE rate_limits.hits + 1 END, \
                   last_at = ?2 RETURNING hits, last_at";
        let counts = self.rows_on(On::Batch, sql, values![name, now, forget_before]).await?;
        counts.into_iter().next().ok_or(StoreError::NotFound)
    }

    /// Forget the count `name` (a right password ends its failures).
    pub async fn clear_limit(&self, name: &str) -> StoreResult<()> {
        self.execute("DELETE FROM rate_limits WHERE name = ?1", values![name]).await.map(drop)
    }

    /// Delete the counts that last grew before `before`; how many.
    pub async fn prune_limits(&self, before: Timestamp) -> StoreResult<u64> {
        self.execute("DELETE FROM rate_limits WHERE last_at < ?1", values![before]).await
    }
}

/// The values of a user's row in the order both its insert and its update
/// bind them: the mutable fields, then the id.
fn user_values(u: &UserRow) -> Vec<Value> {
    values![
        &u.password_hash,
        json(&u.emails),
        u.notify,
        u.vacation_until,
        u.game_limit,
        &u.challenge_policy,
        u.signed_off,
        &u.language,
        &u.id
    ]
}
