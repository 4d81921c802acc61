//! Hosted bots: the programs `tabula serve` runs itself for bot accounts
//! (`tabula bot add USERID -- COMMAND ..`), one process a game, confined
//! and held to the same deadlines as the tournament referee's bots. Each
//! account's events come from the same feed as a remote bot's stream, and
//! its moves go to the service as the account's commands.
//!
//! With several servers on one database, each hosted bot is run by the one
//! server that holds its claim (see [`Service::claim_hosted_bot`]): a
//! claim is renewed while the server runs, and taken over by another server
//! once it is not, so that no two programs play one seat and a bot whose
//! server stopped plays on from another.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tabula_bots::BotLimits;
use tabula_bots::live::BotFeed;
use tabula_service::{Caller, Context, Origin, Service};
use tokio::sync::broadcast::error::RecvError;

use crate::botplay::{Games, Refusal, Sender};

/// How often the bot accounts and their games are looked at when nothing
/// is heard (changes made by other processes on the database, new hosted
/// bots).
const POLL: Duration = Duration::from_secs(2);

/// How long a server's claim on a hosted bot holds without renewal, in
/// milliseconds: how soon another server takes over the bots of one that
/// died.
const HOSTED_CLAIM_MS: i64 = 20_000;

/// One hosted account: its command, feed and games, and until when this
/// server's claim on it holds.
struct Hosted {
    argv: Vec<String>,
    feed: BotFeed,
    games: Games,
    claimed_until: i64,
}

/// A name for this server among those sharing the database, for its claims
/// on hosted bots: unique to this run of it.
pub fn host_name() -> String {
    let machine = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let machine = machine.trim();
    let machine = if machine.is_empty() { "server" } else { machine };
    // The standard library's hasher keys are random per process.
    let nonce = std::hash::BuildHasher::hash_one(&std::collections::hash_map::RandomState::new(), 0u8);
    format!("{machine}:{}:{:08x}", std::process::id(), nonce as u32)
}

/// Play the hosted bots' games, those whose claim the server `host` holds,
/// until the task running this is dropped.
pub async fn run(service: Arc<Service>, limits: BotLimits, host: String) {
    let mut hosted: HashMap<String, Hosted> = HashMap::new();
    let mut updates = service.updates();
    let mut poll = tokio::time::interval(POLL);
    loop {
        tokio::select! {
            _ = poll.tick() => {}
            received = updates.recv() => match received {
                Ok(u) if !hosted.values().any(|h| h.feed.follows(u.board)) => continue,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => return,
            },
        }
        let accounts = match service.bot_accounts().await {
            Ok(a) => a,
            Err(e) => {
                tracing::warn!(error = %e.message, "hosted bots: the bot accounts could not be read");
                continue;
            }
        };
        // Accounts no longer hosted, or with another command: their games'
        // programs end (the threads kill them once their channel closes).
        hosted.retain(|user, h| {
            accounts.iter().any(|a| &a.user_id == user && a.argv().as_ref() == Some(&h.argv))
        });
        for account in &accounts {
            let Some(argv) = account.argv() else { continue };
            let user = account.user_id.clone();
            let now = service.now();
            let held = hosted.get(&user).map(|h| h.claimed_until);
            // Renewed when half the claim is spent: not a write per event.
            if held.is_none_or(|until| now >= until - HOSTED_CLAIM_MS / 2) {
                match service.claim_hosted_bot(&user, &host, HOSTED_CLAIM_MS).await {
                    Ok(Some(until)) => {
                        if let Some(h) = hosted.get_mut(&user) {
                            h.claimed_until = until;
                        }
                    }
                    Ok(None) => {
                        if hosted.remove(&user).is_some() {
                            tracing::warn!(user = %user, "hosted bot: another server holds it now");
                        }
                        continue;
                    }
                    // Kept while the claim holds; no server takes it before.
                    Err(e) if held.is_some_and(|until| now < until) => {
                        tracing::warn!(user = %user, error = %e.message, "hosted bot: its claim not renewed");
                    }
                    Err(e) => {
                        tracing::warn!(user = %user, error = %e.message, "hosted bot: not claimed");
                        hosted.remove(&user);
                        continue;
                    }
                }
            }
            let h = hosted.entry(user.clone()).or_insert_with(|| {
                tracing::info!(user = %user, command = %argv.join(" "), host = %host, "hosting a bot");
                Hosted {
                    claimed_until: now + HOSTED_CLAIM_MS,
                    feed: BotFeed::new(service.clone(), &user, &[]),
                    games: Games::new(
                        &user,
                        argv.clone(),
                        limits.clone(),
                        Vec::new(),
                        sender(&service, &user),
                        log,
                    ),
                    argv,
                }
            });
            match h.feed.scan().await {
                Ok(events) => {
                    for e in events {
                        h.games.event(e.name, e.board, &e.kind, e.version, e.message);
                    }
                }
                Err(e) => {
                    tracing::warn!(user = %user, error = %e.message, "hosted bot: its games could not be read")
                }
            }
        }
    }
}

fn log(user: &str, text: &str) {
    tracing::info!(bot = %user, "{text}");
}

/// The account's commands, run by the service as the account's own.
fn sender(service: &Arc<Service>, user: &str) -> Sender {
    let (service, user) = (service.clone(), user.to_string());
    let runtime = tokio::runtime::Handle::current();
    Arc::new(move |line: &str| {
        let context = Context::new(Caller::User(user.clone()), Origin::Local);
        runtime
            .block_on(service.execute(line, context))
            .map(drop)
            .map_err(|e| Refusal { code: e.code.as_str().to_string(), message: e.message })
    })
}
