//! Failed logins per network address: after [`FREE_FAILURES`] refused
//! passwords or tokens from one address, its further changing requests
//! (every request that can check a password is a `POST`) are refused with
//! `429 Too Many Requests` for a time that doubles with each further
//! failure, up to [`MAX_WAIT_SECS`]. The service slows down guesses at one
//! user id; this stops one address from guessing at many.
//!
//! The address is the connection's peer. Requests served in-process (no
//! connection) share one entry.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::{ApiError, PageError, Web};

/// Refused passwords (or tokens) from one address before it is slowed down.
pub const FREE_FAILURES: u32 = 20;
/// The longest wait imposed on an address.
pub const MAX_WAIT_SECS: u64 = 15 * 60;
/// An address's count is forgotten after this long without a failure.
const FORGET_AFTER: Duration = Duration::from_secs(3600);
/// Most addresses remembered; past it the oldest are dropped.
const MAX_ADDRESSES: usize = 100_000;

/// Failure counts per address.
#[derive(Default)]
pub struct AddressLimiter {
    failures: Mutex<HashMap<Option<IpAddr>, (u32, Instant)>>,
}

impl AddressLimiter {
    /// How long `address` must still wait, if it must.
    pub fn wait(&self, address: Option<IpAddr>, now: Instant) -> Option<Duration> {
        let map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let (count, last) = *map.get(&address)?;
        if count < FREE_FAILURES {
            return None;
        }
        let wait = Duration::from_secs((1u64 << (count - FREE_FAILURES).min(20)).min(MAX_WAIT_SECS));
        let since = now.saturating_duration_since(last);
        (since < wait).then(|| wait - since)
    }

    /// Count one refused password or token from `address`.
    pub fn fail(&self, address: Option<IpAddr>, now: Instant) {
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_ADDRESSES && !map.contains_key(&address) {
            map.retain(|_, (_, last)| now.saturating_duration_since(*last) < FORGET_AFTER);
            if map.len() >= MAX_ADDRESSES {
                let oldest = map.iter().min_by_key(|(_, (_, last))| *last).map(|(a, _)| *a);
                if let Some(a) = oldest {
                    map.remove(&a);
                }
            }
        }
        let entry = map.entry(address).or_insert((0, now));
        if now.saturating_duration_since(entry.1) >= FORGET_AFTER {
            entry.0 = 0;
        }
        entry.0 = entry.0.saturating_add(1);
        entry.1 = now;
    }
}

/// The middleware: refuse changing requests from an address that must
/// wait, and count every `401 Unauthorized` answer against its address.
pub async fn limit_addresses(State(web): State<Web>, request: Request, next: Next) -> Response {
    let address = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let limiter = &web.limiter;
    if request.method() == Method::POST
        && let Some(wait) = limiter.wait(address, Instant::now())
    {
        let message = format!(
            "too many wrong passwords from your address: wait {} seconds and try again",
            wait.as_secs().max(1)
        );
        let mut response = if request.uri().path().starts_with("/api/") {
            ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_requests", message).into_response()
        } else {
            PageError::new(StatusCode::TOO_MANY_REQUESTS, message).into_response()
        };
        if let Ok(v) = wait.as_secs().max(1).to_string().parse() {
            response.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return response;
    }
    let response = next.run(request).await;
    if response.status() == StatusCode::UNAUTHORIZED {
        limiter.fail(address, Instant::now());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_start_after_the_free_failures_and_double() {
        let l = AddressLimiter::default();
        let a = Some(IpAddr::from([10, 0, 0, 1]));
        let b = Some(IpAddr::from([10, 0, 0, 2]));
        let t = Instant::now();
        for _ in 0..FREE_FAILURES - 1 {
            l.fail(a, t);
        }
        assert_eq!(l.wait(a, t), None);
        l.fail(a, t);
        assert_eq!(l.wait(a, t), Some(Duration::from_secs(1)));
        assert_eq!(l.wait(a, t + Duration::from_secs(1)), None);
        l.fail(a, t);
        assert_eq!(l.wait(a, t), Some(Duration::from_secs(2)));
        assert_eq!(l.wait(b, t), None, "other addresses are not affected");
        for _ in 0..100 {
            l.fail(a, t);
        }
        assert_eq!(l.wait(a, t), Some(Duration::from_secs(MAX_WAIT_SECS)));
        l.fail(a, t + FORGET_AFTER);
        assert_eq!(l.wait(a, t + FORGET_AFTER), None, "an old count is forgotten");
    }
}
