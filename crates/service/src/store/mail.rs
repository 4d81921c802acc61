//! Mail: the outbox of messages to send, and the incoming messages
//! already handled.

use super::*;

/// The mail area of a [`Store`] (from [`Store::mail`]): the outbox and the
/// claims of incoming messages, all the mail front end is given of the store.
#[derive(Clone, Copy, Debug)]
pub struct Mailroom<'a>(&'a Store);

impl Store {
    /// The mail area.
    pub fn mail(&self) -> Mailroom<'_> {
        Mailroom(self)
    }
}

impl Mailroom<'_> {
    /// Queue messages outside a game append (account mail, chat); returns
    /// how many were new (a message whose key is queued already is not).
    pub async fn enqueue(&self, messages: &[OutboxMessage], now: Timestamp) -> StoreResult<usize> {
        let added = self.0.write(messages.iter().map(|m| insert_outbox(m, now)).collect()).await?;
        Ok(added.iter().sum::<u64>() as usize)
    }

    /// Claim up to `limit` unsent messages due at `now` for one sender: they
    /// are not due again (for any sender) before `lease_until`, when a
    /// sender that died before recording the outcome has its messages retried.
    pub async fn claim_outbox(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: i64,
    ) -> StoreResult<Vec<OutboxRow>> {
        // SKIP LOCKED (PostgreSQL): senders claiming at the same moment take different rows.
        let lock = match self.0.db {
            Db::Sqlite(_) => "",
            Db::Postgres(_) => " FOR UPDATE SKIP LOCKED",
        };
        let sql = format!(
            "UPDATE outbox SET next_attempt = ?2 WHERE id IN (SELECT id FROM outbox WHERE sent_at IS NULL \
             AND gave_up_at IS NULL AND next_attempt <= ?1 ORDER BY id LIMIT ?3{lock}) RETURNING *"
        );
        let mut claimed: Vec<OutboxRow> =
            self.0.rows_on(On::Batch, sql, values![now, lease_until, limit]).await?;
        claimed.sort_by_key(|r| r.id);
        Ok(claimed)
    }

    /// Move the claim on the messages `ids` that a sender holds until
    /// `held_until` to `until`, and return how many it still held: a later
    /// `until` keeps them while the sender is alive and working (its
    /// heartbeat), `now` hands back those it will not try. Rows sent, given
    /// up, or claimed by another sender since are left alone.
    pub async fn move_outbox_claim(
        &self,
        ids: &[i64],
        held_until: Timestamp,
        until: Timestamp,
    ) -> StoreResult<u64> {
        let sql = "UPDATE outbox SET next_attempt = ?1 WHERE id = ?2 AND next_attempt = ?3 \
                   AND sent_at IS NULL AND gave_up_at IS NULL";
        let moves = ids.iter().map(|&id| (sql.into(), values![until, id, held_until])).collect();
        Ok(self.0.write(moves).await?.iter().sum())
    }

    /// How many messages were queued to `recipient` (compared without
    /// case) since `since` whose key starts with `key_prefix` and whose
    /// subject ends with `subject_suffix`: the budget of error replies an
    /// address may receive.
    pub async fn count_outbox_to(
        &self,
        recipient: &str,
        key_prefix: &str,
        subject_suffix: &str,
        since: Timestamp,
    ) -> StoreResult<i64> {
        // substr rather than LIKE: the prefix and suffix are matched as they are, wildcards and all.
        let sql = "SELECT COUNT(*) FROM outbox WHERE lower(recipient) = lower(?1) AND created >= ?2 \
                   AND substr(key, 1, length(?3)) = ?3 \
                   AND substr(subject, length(subject) - length(?4) + 1) = ?4";
        let count = self.0.value(sql, values![recipient, since, key_prefix, subject_suffix]).await?;
        Ok(count.unwrap_or(0))
    }

    /// Every outbox row (newest first), for inspection.
    pub async fn outbox(&self, limit: i64) -> StoreResult<Vec<OutboxRow>> {
        self.0.rows("SELECT * FROM outbox ORDER BY id DESC LIMIT ?1", values![limit]).await
    }

    /// How many messages wait to be sent (neither sent nor given up), and
    /// when the oldest of them was queued: the backlog `/metrics` shows.
    pub async fn outbox_backlog(&self) -> StoreResult<(i64, Option<Timestamp>)> {
        let sql = "SELECT COUNT(*), MIN(created) FROM outbox WHERE sent_at IS NULL AND gave_up_at IS NULL";
        Ok(self.0.row(sql, values![]).await?.unwrap_or((0, None)))
    }

    /// Mark a message sent.
    pub async fn outbox_sent(&self, id: i64, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET sent_at = ?1, attempts = attempts + 1 WHERE id = ?2 AND sent_at IS NULL";
        self.0.execute(sql, values![at, id]).await.map(drop)
    }

    /// Record a failed attempt and when to retry.
    pub async fn outbox_failed(&self, id: i64, error: &str, retry_at: Timestamp) -> StoreResult<()> {
        let sql =
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?1, next_attempt = ?2 WHERE id = ?3";
        self.0.execute(sql, values![error, retry_at, id]).await.map(drop)
    }

    /// Record a last failed attempt: the message is given up and never tried again.
    pub async fn outbox_gave_up(&self, id: i64, error: &str, at: Timestamp) -> StoreResult<()> {
        let sql = "UPDATE outbox SET attempts = attempts + 1, last_error = ?1, gave_up_at = ?2, next_attempt = ?3 \
                   WHERE id = ?4 AND sent_at IS NULL";
        self.0.execute(sql, values![error, at, i64::MAX, id]).await.map(drop)
    }

    /// Delete the rows of messages sent or given up before `before`, and
    /// return how many: every notification carries a whole board, so
    /// keeping them all would grow the database by kilobytes a move for
    /// ever. Rows still to be sent are kept whatever their age.
    pub async fn prune_outbox(&self, before: Timestamp) -> StoreResult<u64> {
        let sql = "DELETE FROM outbox WHERE (sent_at IS NOT NULL AND sent_at < ?1) \
                   OR (gave_up_at IS NOT NULL AND gave_up_at < ?1)";
        self.0.execute(sql, values![before]).await
    }

    /// Claim an incoming message (by its Message-ID or digest) before its
    /// commands run: `true` if it is new, or if an earlier claim was left
    /// unfinished (by a crash) before `stale_before`; `false` if it was
    /// handled already or is being handled now.
    pub async fn claim_incoming(
        &self,
        key: &str,
        now: Timestamp,
        stale_before: Timestamp,
    ) -> StoreResult<bool> {
        let new = "INSERT INTO incoming_mail (key, claimed) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING";
        let stale =
            "UPDATE incoming_mail SET claimed = ?2 WHERE key = ?1 AND done_at IS NULL AND claimed < ?3";
        let claimed = self
            .0
            .write(vec![(new.into(), values![key, now]), (stale.into(), values![key, now, stale_before])])
            .await?;
        Ok(claimed.contains(&1))
    }

    /// Whether the incoming message `key` was handled (a claim that
    /// [`Mailroom::claim_incoming`] refused is either that, or a delivery of the
    /// message still being handled).
    pub async fn incoming_done(&self, key: &str) -> StoreResult<bool> {
        let sql = "SELECT COUNT(*) FROM incoming_mail WHERE key = ?1 AND done_at IS NOT NULL";
        Ok(self.0.value::<i64>(sql, values![key]).await?.unwrap_or(0) > 0)
    }

    /// Mark a claimed incoming message handled (its reply is queued or
    /// sent), and release the notifications its commands hold back (keys
    /// under [`held_note_prefix`]): due at once.
    pub async fn finish_incoming(&self, key: &str, at: Timestamp) -> StoreResult<()> {
        self.0.write(vec![finish_incoming(key, at), release_held_notes(key, at)]).await.map(drop)
    }

    /// Queue the reply to a claimed incoming message and mark the message
    /// handled, in one transaction: one durable commit instead of two for
    /// every message answered by mail, and no moment at which the reply is
    /// queued but the message still looks unanswered. A reply with the
    /// same key still held back (see [`SideEffect::Held`]) is replaced by
    /// this one, due at once; one sent or on its way is left alone. The
    /// message's held notifications are released, as by
    /// [`Mailroom::finish_incoming`].
    pub async fn answer_incoming(&self, key: &str, reply: &OutboxMessage, at: Timestamp) -> StoreResult<()> {
        let statements =
            vec![replace_held_outbox(reply, at, at), finish_incoming(key, at), release_held_notes(key, at)];
        self.0.write(statements).await.map(drop)
    }
}

/// Queue `m` in the outbox, made (and first due) at `at`, unless a message
/// with its key is there already (0 rows changed then).
pub(super) fn insert_outbox(m: &OutboxMessage, at: Timestamp) -> Statement {
    let sql = "INSERT INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?2) ON CONFLICT (key) DO NOTHING";
    (sql.into(), values![&m.key, at, &m.recipient, &m.subject, &m.body, m.game_id])
}

/// Queue `m` in the outbox, made at `at` and first due at `due`, or replace
/// the message with its key while that one is held back (unsent, never
/// tried, due after `at`).
pub(super) fn replace_held_outbox(m: &OutboxMessage, at: Timestamp, due: Timestamp) -> Statement {
    let sql = "INSERT INTO outbox (key, created, recipient, subject, body, game_id, next_attempt) \
               VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (key) DO UPDATE SET \
               recipient = excluded.recipient, subject = excluded.subject, body = excluded.body, \
               game_id = excluded.game_id, next_attempt = excluded.next_attempt \
               WHERE outbox.sent_at IS NULL AND outbox.gave_up_at IS NULL AND outbox.attempts = 0 \
               AND outbox.next_attempt > ?2";
    (sql.into(), values![&m.key, at, &m.recipient, &m.subject, &m.body, m.game_id, due])
}

/// Mark a claimed incoming message handled (once: a later mark keeps the first time).
pub(super) fn finish_incoming(key: &str, at: Timestamp) -> Statement {
    ("UPDATE incoming_mail SET done_at = ?1 WHERE key = ?2 AND done_at IS NULL".into(), values![at, key])
}

/// Make the notifications held back by the incoming message `key` due at `at`.
fn release_held_notes(key: &str, at: Timestamp) -> Statement {
    let sql = "UPDATE outbox SET next_attempt = ?1 WHERE substr(key, 1, length(?2)) = ?2 \
               AND sent_at IS NULL AND gave_up_at IS NULL AND attempts = 0 AND next_attempt > ?1";
    (sql.into(), values![at, held_note_prefix(key)])
}
