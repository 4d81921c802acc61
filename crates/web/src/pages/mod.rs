//! The web pages: server-rendered HTML that works without a script, made
//! livelier by `static/app.js` (live updates, moves and chat sent without
//! reloading, replay without reloading, clicks on boards, pan and zoom).
//!
//! One file per concern: [`lists`] (the games lists), [`game`] (a game's
//! page and the forms sent from it), [`challenge`] (starting games),
//! [`account`] (sign-up, login and the account's settings).
//!
//! Every form that changes something is a POST carrying a CSRF token: the
//! login session's for a logged-in user (checked once, by the [`Signed`]
//! extractor), or the form cookie's for the login and sign-up forms. A page
//! shows a game as the logged-in user may see it, and as an observer to
//! everyone else.

mod account;
mod challenge;
mod game;
mod lists;

pub(crate) use game::status_lines;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tabula_i18n::t;
use tabula_service::auth::Login;
use tabula_service::{Caller, Context, Credentials};

use crate::Web;
use crate::auth;
use crate::client::ClientAddress;
use crate::error::PageError;
use crate::lang::current;
use crate::templates::{APP_CSS, APP_JS, ICON_SVG};

/// The pages' routes.
pub fn routes() -> Router<Web> {
    Router::new()
        .route("/", get(lists::games_page))
        .route("/games/{id}", get(game::game_page))
        .route("/games/{id}/move", get(game::back_to_game).post(game::move_form))
        .route("/games/{id}/answer", post(game::answer_form))
        .route("/games/{id}/chat", post(game::chat_form))
        .route("/games/{id}/rematch", post(challenge::rematch_form))
        .route("/challenge", get(challenge::challenge_list))
        .route("/challenge/{kind}", get(challenge::challenge_page).post(challenge::challenge_form))
        .route("/users/{id}", get(lists::user_page))
        .route("/ladder/{kind}", get(lists::ladder_page))
        .route("/signup", get(account::signup_page).post(account::signup_form))
        .route("/login", get(account::login_page).post(account::login_form))
        .route("/logout", post(account::logout_form))
        .route("/account", get(account::account_page))
        .route("/account/tokens", post(account::token_form))
        .route("/account/tokens/{id}/revoke", post(account::revoke_form))
        .route("/account/settings", post(account::settings_form))
        .route("/static/app.js", get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }))
        .route("/static/app.css", get(|| async { asset(APP_CSS, "text/css; charset=utf-8") }))
        .route("/static/icon.svg", get(|| async { asset(ICON_SVG, "image/svg+xml") }))
        .route("/favicon.ico", get(|| async { asset(ICON_SVG, "image/svg+xml") }))
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            // The URL carries a digest of the content.
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        ],
        body,
    )
        .into_response()
}

/// What every page's frame shows: who is logged in, the session's CSRF
/// token for the logout form, how many games wait for them, and the games
/// on offer.
#[derive(Serialize)]
pub(crate) struct Base {
    me: Option<String>,
    csrf: Option<String>,
    /// Games waiting for the logged-in user: their move, a challenge to
    /// answer, an offer to answer.
    waiting: usize,
    kinds: Vec<KindLink>,
}

#[derive(Serialize)]
struct KindLink {
    kind: &'static str,
    title: &'static str,
    summary: &'static str,
}

fn kind_links() -> Vec<KindLink> {
    let lang = current();
    tabula_games::all()
        .iter()
        .map(|k| {
            let i = k.info();
            KindLink { kind: i.kind, title: i.title(lang), summary: i.summary(lang) }
        })
        .collect()
}

/// The frame of a page for `login`, with the count of games waiting for
/// them.
pub(crate) async fn base(web: &Web, login: Option<&Login>) -> Result<Base, PageError> {
    let waiting = match login {
        Some(l) => web.service.waiting_for(&l.user).await?.len(),
        None => 0,
    };
    Ok(frame(login, waiting))
}

/// The frame of a page whose waiting games are known already.
fn frame(login: Option<&Login>, waiting: usize) -> Base {
    Base {
        me: login.map(|l| l.user.clone()),
        csrf: login.map(|l| l.csrf.clone()),
        waiting,
        kinds: kind_links(),
    }
}

/// A game's title in the request's language.
fn title_of(kind: &str) -> String {
    let lang = current();
    tabula_games::find(kind).map_or_else(|| t!(lang, "unknown-game"), |k| k.info().title(lang).to_string())
}

/// The logged-in user of a request, if any, and the language of the page
/// they see: every page finds its reader here, so the page's language is
/// settled here, once. A visitor's is the request's own (the address's,
/// the remembered switch's, the browser's); a signed-in user's is their
/// setting, whatever their browser sends, and the footer's switch (a
/// `?lang=` address they followed on this site) changes the setting, so
/// that the choice holds on every device.
pub(crate) async fn visitor(
    web: &Web,
    client: ClientAddress,
    headers: &HeaderMap,
) -> Result<Option<Login>, PageError> {
    let login =
        auth::session_login(&web.service, headers).await.map_err(|e| PageError::new(e.status, e.message))?;
    let Some(login) = login else { return Ok(None) };
    match crate::lang::named() {
        // A link from another site shows its page in the language it
        // names, and changes nothing.
        Some(named) if crate::lang::own_navigation(headers) => {
            if web.service.language(&login.user).await? != Some(named) {
                let auth = Credentials { user: login.user.clone(), password: "-".into() };
                let context = Context::new(Caller::User(login.user.clone()), client.origin()).in_lang(named);
                web.service.set_language(auth, named, context).await?;
            }
        }
        Some(_) => {}
        None => crate::lang::follow_setting(&web.service, &login.user).await?,
    }
    Ok(Some(login))
}

/// A command of the signed-in `login`'s own form: their session proves who
/// they are, and its refusals come in the page's language.
fn form_context(login: &Login, client: &ClientAddress) -> Context {
    Context::new(Caller::User(login.user.clone()), client.origin()).in_lang(current())
}

/// An HTML page, never cached (it shows one user's view).
pub(crate) fn page(status: StatusCode, html: String) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, PageError> {
    q.map(|Query(v)| v).map_err(|e| {
        PageError::new(StatusCode::BAD_REQUEST, t!(current(), "bad-address", error = e.body_text()))
    })
}

/// Percent-encode a URL component.
fn encode_component(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Where to go after logging in: only a path of this site.
fn safe_next(next: Option<&str>) -> String {
    match next {
        Some(n)
            if n.starts_with('/')
                && !n.starts_with("//")
                && n.len() <= 500
                && !n.chars().any(|c| c == '\\' || c.is_control()) =>
        {
            n.to_string()
        }
        _ => "/".to_string(),
    }
}

fn board_number(text: &str) -> Result<i64, PageError> {
    crate::api::board_id(text)
        .map_err(|_| PageError::not_found(t!(current(), "game-no-board", board = format!("{text:?}"))))
}

/// The answer to a form whose CSRF token does not match.
fn expired_form() -> String {
    t!(current(), "form-expired")
}

/// A form posted by a logged-in user from one of this site's pages: the
/// login and the form's fields, its CSRF token checked.
///
/// Without a login the browser is sent to log in and come back to the
/// page the form was on. A form sent by the page script (`fetch`, with
/// `Accept: application/json`) is answered in JSON ([`Signed::json`]).
pub(crate) struct Signed<T> {
    /// Who sent it.
    pub login: Login,
    /// The form's fields.
    pub form: T,
    /// The page script sent it and wants a JSON answer, not a page.
    pub json: bool,
}

#[derive(Deserialize)]
struct CsrfField {
    #[serde(default)]
    csrf: String,
}

/// The path of the page a form was sent from, for coming back after
/// logging in: its `Referer` (which this site's policy sends only to
/// itself), else the page the form's own address belongs to.
fn form_page(headers: &HeaderMap, path: &str) -> String {
    let referer = headers.get(header::REFERER).and_then(|v| v.to_str().ok());
    if let Some(r) = referer {
        let referer_path = r.split_once("://").and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]));
        return safe_next(referer_path);
    }
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["", "games", board, ..] => safe_next(Some(&format!("/games/{board}"))),
        ["", "account", ..] => "/account".to_string(),
        _ => safe_next(Some(path)),
    }
}

/// Whether the request was sent by the page script and wants JSON back.
fn wants_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

impl<T: DeserializeOwned> FromRequest<Web> for Signed<T> {
    type Rejection = Response;

    async fn from_request(request: Request, web: &Web) -> Result<Self, Response> {
        let headers = request.headers().clone();
        let client = ClientAddress::of(&request);
        let path = request.uri().path().to_string();
        let json = wants_json(&headers);
        let refuse = |status: StatusCode, message: String| -> Response {
            if json {
                crate::ApiError::new(status, "refused", message).into_response()
            } else {
                PageError::new(status, message).into_response()
            }
        };
        let Some(login) = visitor(web, client, &headers).await.map_err(IntoResponse::into_response)? else {
            if json {
                return Err(refuse(StatusCode::UNAUTHORIZED, t!(current(), "log-in-first")));
            }
            let back = form_page(&headers, &path);
            return Err(Redirect::to(&format!("/login?next={}", encode_component(&back))).into_response());
        };
        let body = Bytes::from_request(request, web).await.map_err(IntoResponse::into_response)?;
        let bad = |e: serde_urlencoded::de::Error| {
            refuse(StatusCode::BAD_REQUEST, t!(current(), "form-bad", error = e.to_string()))
        };
        let CsrfField { csrf } = serde_urlencoded::from_bytes(&body).map_err(bad)?;
        if !auth::same_secret(&login.csrf, &csrf) {
            return Err(refuse(StatusCode::FORBIDDEN, expired_form()));
        }
        let form = serde_urlencoded::from_bytes(&body).map_err(bad)?;
        Ok(Signed { login, form, json })
    }
}

/// The JSON answer to a form the page script sent: `{"ok": true}` and the
/// page updates from the live stream, or the error to show in place.
fn json_answer(result: Result<(), tabula_service::CommandError>) -> Response {
    match result {
        Ok(()) => axum::Json(serde_json::json!({ "ok": true })).into_response(),
        Err(e) => crate::ApiError::from(e).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn next_is_a_local_path_only() {
        assert_eq!(safe_next(Some("/games/3")), "/games/3");
        assert_eq!(safe_next(Some("//evil.example/x")), "/");
        assert_eq!(safe_next(Some("https://evil.example/")), "/");
        assert_eq!(safe_next(Some("/\\evil")), "/");
        assert_eq!(safe_next(None), "/");
    }

    #[test]
    fn forms_come_back_to_their_page() {
        let mut h = HeaderMap::new();
        assert_eq!(form_page(&h, "/games/4/move"), "/games/4");
        assert_eq!(form_page(&h, "/challenge/dna"), "/challenge/dna");
        assert_eq!(form_page(&h, "/account/tokens/3/revoke"), "/account");
        h.insert(header::REFERER, HeaderValue::from_static("http://127.0.0.1:8080/games/7?at=2"));
        assert_eq!(form_page(&h, "/games/7/move"), "/games/7?at=2");
        h.insert(header::REFERER, HeaderValue::from_static("http://example.org//evil"));
        assert_eq!(form_page(&h, "/games/7/move"), "/");
    }
}
