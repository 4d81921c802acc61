//! The language each response speaks. In order: a `?lang=` in the address
//! (the footer's switch, remembered in a cookie), the signed-in user's own
//! setting, the remembered switch, the browser's `Accept-Language`; else
//! English. For a signed-in user the switch changes their setting (see
//! the pages' visitor), so their choice holds on every device.
//!
//! The language is chosen once per request, by [`answer_in_language`], and
//! is then the request's for every text made while answering it, error
//! pages made far from the handler included: a task-local value, read with
//! [`current`].
//! The JSON keys and error codes of the API never change; only what people
//! read does.

use std::cell::Cell;
use std::future::Future;

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Uri, header};
use axum::response::Response;
use tabula_model::Lang;
use tabula_service::{CommandError, Service};

use crate::auth;

/// The cookie remembering a visitor's choice of language.
pub const LANG_COOKIE: &str = "tabula_lang";
/// How long the choice is remembered: a year (seconds).
const LANG_COOKIE_SECS: i64 = 365 * 24 * 3600;

/// What one request knows of its language.
struct Chosen {
    lang: Cell<Lang>,
    /// The language the address named: nothing overrides that.
    named: Option<Lang>,
}

tokio::task_local! {
    static REQUEST: Chosen;
}

/// The language of the request being answered; English outside a request.
pub fn current() -> Lang {
    REQUEST.try_with(|c| c.lang.get()).unwrap_or_default()
}

/// The language the request's address named (`?lang=`), if any.
pub fn named() -> Option<Lang> {
    REQUEST.try_with(|c| c.named).ok().flatten()
}

/// The signed-in user's own setting, for the rest of the request (unless
/// the address itself named a language).
pub fn use_setting(lang: Lang) {
    let _ = REQUEST.try_with(|c| {
        if c.named.is_none() {
            c.lang.set(lang);
        }
    });
}

/// The rest of the request in `user`'s own language, if they chose one:
/// for the reads a page's script makes for its signed-in user, which must
/// speak the page's language.
///
/// # Errors
/// Storage failures.
pub async fn follow_setting(service: &Service, user: &str) -> Result<(), CommandError> {
    if let Some(lang) = service.language(user).await? {
        use_setting(lang);
    }
    Ok(())
}

/// Whether the request is a navigation the reader made on this site (a
/// link of its pages followed, or an address typed), not one another site
/// made their browser send: only those may change a setting on a `GET`.
/// The browser's `Sec-Fetch-Site` says; a browser too old to send it is
/// believed when its `Referer` (which this site's policy sends only to
/// itself) names this site.
pub fn own_navigation(headers: &HeaderMap) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text("sec-fetch-site") {
        return matches!(site, "same-origin" | "none");
    }
    let host = text(header::HOST.as_str());
    let referer_host = text(header::REFERER.as_str())
        .and_then(|r| r.split_once("://"))
        .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or(""));
    host.is_some_and(|h| referer_host.is_some_and(|r| r.eq_ignore_ascii_case(h)))
}

/// The language a `lang` query parameter names, if any.
fn asked(uri: &Uri) -> Option<Lang> {
    uri.query()?
        .split('&')
        .filter_map(|pair| pair.strip_prefix("lang="))
        .find_map(|v| Lang::parse(v).filter(|_| v.len() <= 16))
}

/// The language a visitor's request gets before any user's setting: the
/// remembered switch, else the browser's preference.
fn of_visitor(headers: &HeaderMap) -> Lang {
    if let Some(lang) = auth::cookie(headers, LANG_COOKIE).and_then(Lang::parse) {
        return lang;
    }
    let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    Lang::from_accept_language(accept)
}

/// Choose `request`'s language and answer it with `answer` in that
/// language, saying so in `Content-Language`, and remember a switch made
/// with `?lang=`.
pub(crate) async fn answer_in_language<F>(request: Request, answer: impl FnOnce(Request) -> F) -> Response
where
    F: Future<Output = Response>,
{
    let named = asked(request.uri());
    let lang = named.unwrap_or_else(|| of_visitor(request.headers()));
    let https = auth::is_https(request.headers());
    let chosen = Chosen { lang: Cell::new(lang), named };
    let (mut response, lang) = REQUEST
        .scope(chosen, async move {
            let response = answer(request).await;
            (response, current())
        })
        .await;
    let headers = response.headers_mut();
    headers.entry(header::CONTENT_LANGUAGE).or_insert(HeaderValue::from_static(lang.code()));
    if let Some(named) = named {
        headers
            .append(header::SET_COOKIE, auth::set_cookie(LANG_COOKIE, named.code(), LANG_COOKIE_SECS, https));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_address_names_a_language() {
        let uri = |s: &str| s.parse::<Uri>().unwrap();
        assert_eq!(asked(&uri("/games/3?lang=fi")), Some(Lang::Fi));
        assert_eq!(asked(&uri("/?game=dna&lang=es&state=all")), Some(Lang::Es));
        assert_eq!(asked(&uri("/?lang=de")), None);
        assert_eq!(asked(&uri("/?slang=fi")), None);
        assert_eq!(asked(&uri("/")), None);
    }

    #[test]
    fn a_visitor_gets_the_remembered_choice_then_the_browser_s() {
        let mut h = HeaderMap::new();
        assert_eq!(of_visitor(&h), Lang::En);
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("fi-FI,fi;q=0.9,en;q=0.5"));
        assert_eq!(of_visitor(&h), Lang::Fi);
        h.insert(header::COOKIE, HeaderValue::from_static("tabula_lang=es"));
        assert_eq!(of_visitor(&h), Lang::Es);
        h.insert(header::COOKIE, HeaderValue::from_static("tabula_lang=xx"));
        assert_eq!(of_visitor(&h), Lang::Fi);
    }

    #[test]
    fn only_the_reader_s_own_navigation_changes_a_setting() {
        let mut h = HeaderMap::new();
        assert!(!own_navigation(&h));
        h.insert(header::HOST, HeaderValue::from_static("tabula.example"));
        h.insert(header::REFERER, HeaderValue::from_static("https://tabula.example/games/3"));
        assert!(own_navigation(&h));
        h.insert(header::REFERER, HeaderValue::from_static("https://evil.example/tabula.example"));
        assert!(!own_navigation(&h));
        h.insert(header::REFERER, HeaderValue::from_static("https://tabula.example.evil.example/"));
        assert!(!own_navigation(&h));
        // The browser's own word comes first.
        h.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
        h.insert(header::REFERER, HeaderValue::from_static("https://tabula.example/"));
        assert!(!own_navigation(&h));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(own_navigation(&h));
        h.insert("sec-fetch-site", HeaderValue::from_static("none"));
        assert!(own_navigation(&h));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-site"));
        assert!(!own_navigation(&h));
    }
}
