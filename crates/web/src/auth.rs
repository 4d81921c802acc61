//! Who is asking: bearer tokens (API, bots), login sessions in an HttpOnly
//! SameSite=Lax cookie (pages), and CSRF tokens for forms.
//!
//! A logged-in page's forms carry the session's CSRF token. The login and
//! sign-up forms, shown before any session exists, carry a random token that
//! is also set in a short-lived cookie of their own (double submit), so a
//! form posted from another site is refused either way.

use axum::http::{HeaderMap, HeaderValue, header};
use tabula_i18n::t;
use tabula_service::auth::Login;
use tabula_service::{Origin, Service};

use crate::error::ApiError;

/// The cookie holding the login session's secret.
pub const SESSION_COOKIE: &str = "tabula_session";
/// The cookie holding the CSRF token of forms shown before logging in.
pub const FORM_COOKIE: &str = "tabula_form";
/// How long a login or sign-up form stays valid (seconds).
pub const FORM_LIFETIME_SECS: i64 = 3600;
/// The longest cookie value looked at.
const MAX_COOKIE_VALUE: usize = 256;

/// The value of cookie `name`, if the request has it.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.trim())
        .filter(|v| !v.is_empty() && v.len() <= MAX_COOKIE_VALUE)
}

/// The token of an `Authorization: Bearer TOKEN` header, if there is one.
/// The scheme's name is case-insensitive (RFC 9110, section 11.1), so
/// `bearer` and `BEARER` are as good as `Bearer`.
///
/// # Errors
/// An `Authorization` header of any other form.
pub fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Ok(None) };
    value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty())
        .map(|(_, token)| Some(token.trim()))
        .ok_or_else(|| ApiError::unauthorized(t!(crate::lang::current(), "api-bad-authorization")))
}

/// The user a bearer token stands for, shown from `origin`; the rest of the
/// request speaks the owner's language, if they chose one.
///
/// # Errors
/// `wrong_password` for an unknown or revoked token.
pub async fn token_user(service: &Service, token: &str, origin: &Origin) -> Result<String, ApiError> {
    match service.token_caller(token, origin).await? {
        tabula_service::Caller::User(user) => Ok(user),
        tabula_service::Caller::Account(account) => {
            if let Some(lang) = account.lang() {
                crate::lang::use_setting(lang);
            }
            Ok(account.id)
        }
        tabula_service::Caller::Anonymous => {
            Err(ApiError::unauthorized(t!(crate::lang::current(), "error-bad-token")))
        }
    }
}

/// The login of the request's session cookie, if it is still valid.
///
/// # Errors
/// Only storage failures; a bad or expired cookie is simply no login.
pub async fn session_login(service: &Service, headers: &HeaderMap) -> Result<Option<Login>, ApiError> {
    match cookie(headers, SESSION_COOKIE) {
        Some(secret) => Ok(service.session(secret).await?),
        None => Ok(None),
    }
}

/// The user an API request is made by: the bearer token's owner, else (for
/// requests that change nothing) the session's user, else nobody. The rest
/// of the request speaks that user's language, if they chose one, as their
/// pages do.
///
/// Changing requests never take the session cookie, so no other site can
/// make a logged-in browser change anything through the API.
///
/// # Errors
/// A malformed `Authorization` header or a bad token.
pub async fn api_user(
    service: &Service,
    headers: &HeaderMap,
    origin: &Origin,
    allow_session: bool,
) -> Result<Option<String>, ApiError> {
    if let Some(token) = bearer(headers)? {
        return token_user(service, token, origin).await.map(Some);
    }
    if allow_session && let Some(login) = session_login(service, headers).await? {
        crate::lang::follow_setting(service, &login.user).await?;
        return Ok(Some(login.user));
    }
    Ok(None)
}

/// Whether two secrets are equal, in time that does not depend on where
/// they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A fresh random token for the forms shown before logging in.
pub fn new_form_token() -> String {
    let bytes: [u8; 24] = rand::random();
    let mut out = String::from("f_");
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Whether the request came over HTTPS (directly or through a proxy that
/// says so), so cookies can be marked `Secure`.
pub fn is_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Lax, path `/`, for `max_age`
/// seconds (0 deletes it).
pub fn set_cookie(name: &str, value: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text = format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("tabula_invalid=; Max-Age=0"))
}

/// A `Set-Cookie` value that deletes cookie `name`.
pub fn clear_cookie(name: &str) -> HeaderValue {
    set_cookie(name, "", 0, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_others() {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_static("a=1; tabula_session=s_abc ; b=2"));
        assert_eq!(cookie(&h, SESSION_COOKIE), Some("s_abc"));
        assert_eq!(cookie(&h, "b"), Some("2"));
        assert_eq!(cookie(&h, "c"), None);
        assert_eq!(cookie(&h, "tabula"), None);
    }

    #[test]
    fn bearer_headers_parse_or_are_refused() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), Ok(None));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer tbl_x"));
        assert_eq!(bearer(&h), Ok(Some("tbl_x")));
        for scheme in ["bearer", "BEARER", "beArer"] {
            h.insert(header::AUTHORIZATION, HeaderValue::from_str(&format!("{scheme} tbl_y")).unwrap());
            assert_eq!(bearer(&h), Ok(Some("tbl_y")), "{scheme}");
        }
        for bad in ["Basic abc", "Bearer", "Bearer ", "Bearertbl_x"] {
            h.insert(header::AUTHORIZATION, HeaderValue::from_static(bad));
            assert_eq!(bearer(&h).unwrap_err().code, "unauthorized", "{bad}");
        }
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(same_secret("c_abc", "c_abc"));
        assert!(!same_secret("c_abc", "c_abd"));
        assert!(!same_secret("c_abc", "c_ab"));
        assert_ne!(new_form_token(), new_form_token());
        assert_eq!(new_form_token().len(), 50);
    }

    #[test]
    fn cookies_are_http_only_and_lax() {
        let v = set_cookie(SESSION_COOKIE, "s_1", 60, true);
        assert_eq!(
            v.to_str().unwrap(),
            "tabula_session=s_1; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure"
        );
    }
}
