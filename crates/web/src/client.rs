//! The address a request comes from: the connection's peer, or, when the
//! peer is a proxy the server was told to trust (`tabula serve
//! --trust-proxy CIDR`), the client that proxy names in `Forwarded` or
//! `X-Forwarded-For`. Failed logins are counted against it (see
//! `tabula_service::throttle`), so behind a load balancer one attacker
//! slows only themselves, and a header sent by anyone else is ignored: a
//! client cannot choose the address it is counted under.
//!
//! Requests served in-process (no connection) all come from `0.0.0.0`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::sync::{Arc, Mutex};

use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use tabula_service::{CommandError, Origin};

use crate::Web;

/// A network given as `ADDRESS/BITS` (or one address alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    bits: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (address, bits) = match text.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        let network: IpAddr =
            address.trim().parse().map_err(|_| format!("{text:?}: {address:?} is not an IP address"))?;
        let most = if network.is_ipv4() { 32 } else { 128 };
        let bits = match bits {
            Some(b) => b
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|b| *b <= most)
                .ok_or_else(|| format!("{text:?}: the prefix length must be 0 to {most}"))?,
            None => most,
        };
        Ok(Cidr { network, bits })
    }
}

impl Cidr {
    /// Whether `ip` is in this network (IPv4-mapped IPv6 addresses count as
    /// their IPv4 address).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let mask = |bits: u8, width: u32| if bits == 0 { 0 } else { u128::MAX << (width - u32::from(bits)) };
        match (self.network.to_canonical(), ip.to_canonical()) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let m = mask(self.bits, 32) as u32;
                u32::from(n) & m == u32::from(a) & m
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let m = mask(self.bits, 128);
                u128::from(n) & m == u128::from(a) & m
            }
            _ => false,
        }
    }
}

/// The proxies whose word on the client's address is taken.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(pub Vec<Cidr>);

impl TrustedProxies {
    /// Whether `ip` is one of the trusted proxies.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|c| c.contains(ip))
    }

    /// The client behind `peer`: `peer` itself unless it is a trusted proxy;
    /// then the nearest address in the forwarding headers that is not a
    /// trusted proxy (each proxy appends the address it got the request
    /// from, so the entries right of it are the trusted chain's, and the
    /// ones left of it anyone could have written).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let chain = forwarded_for(headers);
        chain.iter().rev().copied().find(|ip| !self.trusts(*ip)).or(chain.first().copied()).unwrap_or(peer)
    }
}

/// The addresses a request went through, first (the client) to last, from
/// `Forwarded` (RFC 7239) if present, else `X-Forwarded-For`. An entry that
/// is not an address (`unknown`, an obfuscated name) ends the list there,
/// since nothing left of it can be placed.
fn forwarded_for(headers: &HeaderMap) -> Vec<IpAddr> {
    let values = |name: &str| -> Vec<String> {
        headers.get_all(name).iter().filter_map(|v| v.to_str().ok()).map(str::to_string).collect()
    };
    let forwarded = values("forwarded");
    let entries: Vec<String> = if forwarded.is_empty() {
        values("x-forwarded-for").iter().flat_map(|v| v.split(',')).map(|e| e.trim().to_string()).collect()
    } else {
        forwarded
            .iter()
            .flat_map(|v| v.split(','))
            .map(|element| {
                element
                    .split(';')
                    .filter_map(|pair| pair.split_once('='))
                    .find(|(k, _)| k.trim().eq_ignore_ascii_case("for"))
                    .map(|(_, v)| v.trim().trim_matches('"').to_string())
                    .unwrap_or_default()
            })
            .collect()
    };
    let mut out = Vec::new();
    for entry in entries.iter().rev() {
        match node_address(entry) {
            Some(ip) => out.push(ip),
            None => break,
        }
    }
    out.reverse();
    out
}

/// The address of one entry: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`,
/// `[2001:db8::1]` or `[2001:db8::1]:5678`.
fn node_address(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse() {
        return Some(ip);
    }
    if let Ok(socket) = entry.parse::<SocketAddr>() {
        return Some(socket.ip());
    }
    entry.strip_prefix('[').and_then(|e| e.strip_suffix(']')).and_then(|e| e.parse().ok())
}

/// The client's address, as [`mark_client_address`] found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub IpAddr);

impl ClientAddress {
    /// The origin the service counts this client's failed logins under.
    pub fn origin(self) -> Origin {
        Origin::Address(self.0)
    }

    /// The client of a request not yet taken apart (as an extractor of the
    /// whole request sees it).
    pub fn of<B>(request: &axum::http::Request<B>) -> Self {
        request.extensions().get::<ClientAddress>().copied().unwrap_or(IN_PROCESS)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<ClientAddress>().copied().unwrap_or(IN_PROCESS))
    }
}

/// Replays a client may have prepared at once (a past position, or a view's
/// whole text, each on the blocking pool): more are refused at once rather
/// than queued, so one client cannot take every turn of the pool.
pub const HEAVY_PER_CLIENT: usize = 2;

/// The replays being prepared, per client address.
#[derive(Default)]
pub struct HeavyReads(Mutex<HashMap<IpAddr, usize>>);

/// A view being prepared for one client; its place is given back on drop.
pub struct HeavyRead {
    reads: Arc<HeavyReads>,
    client: IpAddr,
}

impl HeavyReads {
    /// A place for one more view for `client`, unless it has
    /// [`HEAVY_PER_CLIENT`] being prepared already.
    ///
    /// # Errors
    /// `too_many_requests`, to try again in a second.
    pub fn enter(self: &Arc<Self>, client: ClientAddress) -> Result<HeavyRead, CommandError> {
        let mut running = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = running.entry(client.0).or_default();
        if *n >= HEAVY_PER_CLIENT {
            return Err(CommandError::too_many_says(
                tabula_i18n::msg!("api-busy-replays", count = HEAVY_PER_CLIENT),
                1,
            ));
        }
        *n += 1;
        Ok(HeavyRead { reads: self.clone(), client: client.0 })
    }
}

impl Drop for HeavyRead {
    fn drop(&mut self) {
        let mut running = self.reads.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = running.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                running.remove(&self.client);
            }
        }
    }
}

/// The address of requests with no connection (served in-process).
const IN_PROCESS: ClientAddress = ClientAddress(IpAddr::V4(Ipv4Addr::UNSPECIFIED));

/// Find the request's client address once and keep it in the request, for
/// the handlers (see [`ClientAddress`]).
pub(crate) fn mark_client_address(web: &Web, request: &mut Request) {
    let address = match request.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(peer)) => ClientAddress(web.proxies.client(peer.ip(), request.headers())),
        None => IN_PROCESS,
    };
    request.extensions_mut().insert(address);
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn networks_parse_and_contain() {
        let c: Cidr = "10.1.0.0/16".parse().unwrap();
        assert!(c.contains(ip("10.1.200.3")) && !c.contains(ip("10.2.0.1")));
        assert!(c.contains(ip("::ffff:10.1.0.9")));
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:ffff::1")) && !v6.contains(ip("2001:db9::1")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("8.8.8.8")) && !all.contains(ip("::1")));
        for bad in ["10.0.0.0/33", "nope", "10.0.0.0/x", "::/129"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarding_headers_count_only_from_a_trusted_proxy() {
        let proxies = TrustedProxies(vec!["10.0.0.0/8".parse().unwrap()]);
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", HeaderValue::from_static("6.6.6.6, 1.2.3.4"));
        // Anyone else's header is ignored.
        assert_eq!(proxies.client(ip("5.5.5.5"), &h), ip("5.5.5.5"));
        // From the proxy: the nearest address that is not one of ours; the
        // left one could be written by the client itself.
        assert_eq!(proxies.client(ip("10.0.0.2"), &h), ip("1.2.3.4"));
        h.insert("x-forwarded-for", HeaderValue::from_static("1.2.3.4, 10.0.0.7"));
        assert_eq!(proxies.client(ip("10.0.0.2"), &h), ip("1.2.3.4"));
        h.insert(
            "forwarded",
            HeaderValue::from_static("for=9.9.9.9, for=\"[2001:db8::5]:4711\";proto=https"),
        );
        assert_eq!(proxies.client(ip("10.0.0.2"), &h), ip("2001:db8::5"));
        // No header from the proxy: the proxy itself.
        assert_eq!(proxies.client(ip("10.0.0.2"), &HeaderMap::new()), ip("10.0.0.2"));
        h.insert("forwarded", HeaderValue::from_static("for=unknown"));
        assert_eq!(proxies.client(ip("10.0.0.2"), &h), ip("10.0.0.2"));
    }
}
