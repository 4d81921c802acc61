//! Where a request comes from, and how fast passwords may be guessed and
//! challenges sent from there. The counts live in the database (see
//! [`crate::store::Store::count_limit`]), so every server sharing it
//! limits as one, and a restart forgets nothing.
//!
//! - Wrong passwords for one user from one origin (a network address, a
//!   mail sender, the local command line): after [`PAIR_FREE`] of them,
//!   each next try from there waits 1 s, then 2 s, 4 s ... at most
//!   [`PAIR_MAX_WAIT_S`] after the last failure. The same user from
//!   another origin is not slowed, so nobody can lock a player out of
//!   their own account: an attacker only slows themselves.
//! - Failures of any kind from one network address or mail sender (wrong
//!   passwords for any users, unknown users, bad tokens): after
//!   [`ORIGIN_FREE`], that origin waits the same way, at most
//!   [`ORIGIN_MAX_WAIT_S`], before its next password is even looked at: one
//!   address cannot guess at many users.
//! - Challenges naming another person, per challenger and hour, over the
//!   network (see [`Service::with_challenge_rate`]).
//!
//! The local command line on its own database is the operator's tool: no
//! origin count, no challenge rate.

use std::net::IpAddr;

use tabula_i18n::msg;
use tabula_model::Lang;

use crate::error::CommandError;
use crate::service::{Answer, Caller, Service};

/// Wrong passwords for one user from one origin before tries are slowed.
pub const PAIR_FREE: i64 = 5;
/// The longest wait between two tries for one user from one origin.
pub const PAIR_MAX_WAIT_S: i64 = 1024;
/// Failures from one origin before its tries are slowed.
pub const ORIGIN_FREE: i64 = 20;
/// The longest wait imposed on one origin.
pub const ORIGIN_MAX_WAIT_S: i64 = 15 * 60;
/// A count that has not grown for this long starts again.
const FORGET_MS: i64 = 3_600_000;
/// Counts quiet for this long are deleted by the scheduler.
pub(crate) const PRUNE_AFTER_MS: i64 = 86_400_000;
/// Challenges naming another person one user may send in an hour over the
/// network, unless the server says otherwise.
pub const DEFAULT_CHALLENGES_PER_HOUR: u32 = 60;

/// Where a request comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The command line on its own database: the operator.
    Local,
    /// A network client, by its address (as the server sees it, or as a
    /// trusted proxy reports it).
    Address(IpAddr),
    /// A mail message, by its sender's address.
    Mail(String),
}

impl Origin {
    /// The name counts are kept under. IPv6 addresses count by their /64
    /// network, which one client usually holds whole.
    fn key(&self) -> String {
        match self {
            Origin::Local => "local".into(),
            Origin::Address(ip) => match ip.to_canonical() {
                IpAddr::V4(v4) => format!("ip:{v4}"),
                IpAddr::V6(v6) => {
                    let s = v6.segments();
                    format!("ip:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
            Origin::Mail(from) => format!("mail:{}", from.trim().to_ascii_lowercase()),
        }
    }
}

/// Who is asking, and from where: what every command runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// The identity the front end established.
    pub caller: Caller,
    /// Where the request came from.
    pub origin: Origin,
    /// The reply to the mail message the command came in, committed with
    /// the change the command makes (see [`Answer`]).
    pub answer: Option<Answer>,
    /// The language of the reply and its errors: the reader's, as the
    /// front end knows it (`--lang` or the locale on the command line, the
    /// account's setting or the browser's on the web, the account's by
    /// mail). English unless the front end says otherwise.
    pub lang: Lang,
}

impl Context {
    /// `caller`, asking from `origin`.
    pub fn new(caller: Caller, origin: Origin) -> Self {
        Context { caller, origin, answer: None, lang: Lang::En }
    }

    /// The same, replying in `lang`.
    pub fn in_lang(mut self, lang: Lang) -> Self {
        self.lang = lang;
        self
    }

    /// The same, with the reply to the mail message the command came in.
    pub fn answering(mut self, answer: Answer) -> Self {
        self.answer = Some(answer);
        self
    }
}

/// A caller at the local command line (the operator's tool), as the CLI,
/// tools and tests run commands.
impl From<&Caller> for Context {
    fn from(caller: &Caller) -> Self {
        Context::new(caller.clone(), Origin::Local)
    }
}

impl From<Caller> for Context {
    fn from(caller: Caller) -> Self {
        Context::new(caller, Origin::Local)
    }
}

/// How long (ms) a count of `hits` failures, the last at `last_at`, still
/// makes its next try wait at `now`; 0 when it need not.
fn wait_ms(hits: i64, last_at: i64, now: i64, free: i64, max_s: i64) -> i64 {
    if hits < free {
        return 0;
    }
    let wait = (1000i64 << (hits - free).min(20)).min(max_s * 1000);
    (last_at + wait - now).max(0)
}

fn seconds(ms: i64) -> u64 {
    ((ms + 999) / 1000).max(1) as u64
}

impl Service {
    /// Refuse any try from `origin` if it failed too often lately.
    pub(crate) async fn check_origin(&self, origin: &Origin) -> Result<(), CommandError> {
        if *origin == Origin::Local {
            return Ok(());
        }
        if let Some(c) = self.store().limit(&format!("origin:{}", origin.key())).await? {
            let wait = wait_ms(c.hits, c.last_at, self.now(), ORIGIN_FREE, ORIGIN_MAX_WAIT_S);
            if wait > 0 {
                let s = seconds(wait);
                return Err(CommandError::too_many_says(msg!("error-wait-address", seconds = s), s));
            }
        }
        Ok(())
    }

    /// Refuse a password try for `user` from `origin` that must wait.
    pub(crate) async fn check_login(&self, user: &str, origin: &Origin) -> Result<(), CommandError> {
        self.check_origin(origin).await?;
        let now = self.now();
        if let Some(c) = self.store().limit(&pair_key(user, origin)).await? {
            let wait = wait_ms(c.hits, c.last_at, now, PAIR_FREE, PAIR_MAX_WAIT_S);
            if wait > 0 {
                let s = seconds(wait);
                return Err(CommandError::too_many_says(
                    msg!("error-wait-user", user = user, seconds = s),
                    s,
                ));
            }
        }
        Ok(())
    }

    /// Count a refused password (for `user`, when there is one) or token
    /// from `origin`.
    pub(crate) async fn login_failed(&self, user: Option<&str>, origin: &Origin) -> Result<(), CommandError> {
        let now = self.now();
        if let Some(user) = user {
            self.store().count_limit(&pair_key(user, origin), now, now - FORGET_MS).await?;
        }
        if *origin != Origin::Local {
            self.store().count_limit(&format!("origin:{}", origin.key()), now, now - FORGET_MS).await?;
        }
        Ok(())
    }

    /// A right password for `user` from `origin` ends that pair's count.
    pub(crate) async fn login_succeeded(&self, user: &str, origin: &Origin) -> Result<(), CommandError> {
        let key = pair_key(user, origin);
        if self.store().limit(&key).await?.is_some() {
            self.store().clear_limit(&key).await?;
        }
        Ok(())
    }

    /// Count a challenge by `user` that names someone else, refusing it
    /// past the hour's rate; from the local command line, nothing.
    pub(crate) async fn count_challenge(&self, user: &str, origin: &Origin) -> Result<(), CommandError> {
        let rate = i64::from(self.challenge_rate());
        if *origin == Origin::Local || rate == 0 {
            return Ok(());
        }
        let now = self.now();
        let hour = now.div_euclid(3_600_000);
        let counted =
            self.store().count_limit(&format!("challenge:{user}:{hour}"), now, now - FORGET_MS).await?;
        if counted.hits > rate {
            let s = seconds((hour + 1) * 3_600_000 - now);
            return Err(CommandError::too_many_says(
                msg!("error-wait-challenges", user = user, rate = rate, seconds = s),
                s,
            ));
        }
        Ok(())
    }
}

fn pair_key(user: &str, origin: &Origin) -> String {
    format!("login:{user}:{}", origin.key())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_after_the_free_tries_up_to_the_longest() {
        assert_eq!(wait_ms(4, 0, 0, 5, 1024), 0);
        assert_eq!(wait_ms(5, 0, 0, 5, 1024), 1000);
        assert_eq!(wait_ms(6, 0, 500, 5, 1024), 1500);
        assert_eq!(wait_ms(6, 0, 2000, 5, 1024), 0);
        assert_eq!(wait_ms(100, 0, 0, 5, 1024), 1_024_000);
    }

    #[test]
    fn origins_have_keys_of_their_own() {
        let v4: IpAddr = "127.0.0.5".parse().unwrap();
        assert_eq!(Origin::Address(v4).key(), "ip:127.0.0.5");
        let mapped: IpAddr = "::ffff:127.0.0.5".parse().unwrap();
        assert_eq!(Origin::Address(mapped).key(), "ip:127.0.0.5");
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(Origin::Address(a).key(), Origin::Address(b).key());
        assert_eq!(Origin::Mail(" Ned@Example.org".into()).key(), "mail:ned@example.org");
        assert_eq!(Origin::Local.key(), "local");
    }
}
