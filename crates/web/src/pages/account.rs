//! Accounts: sign-up, login and logout, and the account page with every
//! setting the account commands have (password, addresses, notifications,
//! vacation, challenge policy, game limit, closing the account) and the
//! API tokens. Each setting is a form of its own, CSRF-checked, sent as the
//! account command it stands for.

use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use minijinja::context;
use serde::Deserialize;
use serde_json::Value;
use tabula_i18n::{msg, t};
use tabula_model::Lang;
use tabula_service::auth::Login;
use tabula_service::{Command, CommandError, Credentials, ErrorCode};

use super::{CsrfField, Signed, base, expired_form, page, query, safe_next, visitor};
use crate::Web;
use crate::auth::{self, FORM_COOKIE, SESSION_COOKIE};
use crate::client::ClientAddress;
use crate::error::PageError;
use crate::lang::current;
use crate::templates::render;

fn form<T>(f: Result<Form<T>, FormRejection>) -> Result<T, PageError> {
    f.map(|Form(v)| v).map_err(|e| {
        PageError::new(StatusCode::BAD_REQUEST, t!(current(), "form-bad", error = e.body_text()))
    })
}

#[derive(Deserialize)]
pub(super) struct NextQuery {
    next: Option<String>,
}

/// The token of the login and sign-up forms: the form cookie's, or a new
/// one (with the cookie to set).
fn form_token(headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    match auth::cookie(headers, FORM_COOKIE).filter(|t| t.starts_with("f_") && t.len() == 50) {
        Some(t) => (t.to_string(), None),
        None => {
            let t = auth::new_form_token();
            let c = auth::set_cookie(FORM_COOKIE, &t, auth::FORM_LIFETIME_SECS, auth::is_https(headers));
            (t, Some(c))
        }
    }
}

fn check_form_token(headers: &HeaderMap, sent: &str) -> bool {
    auth::cookie(headers, FORM_COOKIE).is_some_and(|c| auth::same_secret(c, sent))
}

fn account_form(
    template: &str,
    headers: &HeaderMap,
    status: StatusCode,
    next: &str,
    user: &str,
    email: &str,
    error: Option<String>,
) -> Result<Response, PageError> {
    let (token, cookie) = form_token(headers);
    let html = render(
        template,
        context! { base => super::frame(None, 0), form_token => token, next, user, email, error },
    )?;
    let mut response = page(status, html);
    if let Some(c) = cookie {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    Ok(response)
}

/// `/login?next=PATH`.
pub(super) async fn login_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let next = safe_next(query(q)?.next.as_deref());
    if visitor(&web, client, &headers).await?.is_some() {
        return Ok(Redirect::to(&next).into_response());
    }
    account_form("login.html", &headers, StatusCode::OK, &next, "", "", None)
}

/// `/signup?next=PATH`.
pub(super) async fn signup_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    q: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let next = safe_next(query(q)?.next.as_deref());
    if visitor(&web, client, &headers).await?.is_some() {
        return Ok(Redirect::to(&next).into_response());
    }
    account_form("signup.html", &headers, StatusCode::OK, &next, "", "", None)
}

#[derive(Deserialize)]
pub(super) struct LoginForm {
    #[serde(default)]
    form_token: String,
    #[serde(default)]
    user: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password2: String,
    #[serde(default)]
    email: String,
    next: Option<String>,
}

/// Answer a successful login: the session cookie, the form cookie gone,
/// and on to `next`.
fn logged_in(login: &Login, now: i64, headers: &HeaderMap, next: &str) -> Response {
    let max_age = ((login.expires - now) / 1000).max(0);
    let mut response = Redirect::to(next).into_response();
    let h = response.headers_mut();
    h.append(
        header::SET_COOKIE,
        auth::set_cookie(SESSION_COOKIE, &login.session, max_age, auth::is_https(headers)),
    );
    h.append(header::SET_COOKIE, auth::clear_cookie(FORM_COOKIE));
    response
}

/// `POST /login`.
pub(super) async fn login_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    f: Result<Form<LoginForm>, FormRejection>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    let next = safe_next(f.next.as_deref());
    if !check_form_token(&headers, &f.form_token) {
        let (s, e) = (StatusCode::FORBIDDEN, Some(expired_form()));
        return account_form("login.html", &headers, s, &next, &f.user, "", e);
    }
    match web.service.login(f.user.trim(), &f.password, &client.origin()).await {
        Ok(login) => Ok(logged_in(&login, web.service.now(), &headers, &next)),
        Err(e) => {
            let status = crate::error::status_of(e.code);
            let message = match e.code {
                // One answer for a wrong id and a wrong password.
                ErrorCode::UnknownUser | ErrorCode::WrongPassword => t!(current(), "login-wrong"),
                _ => e.message,
            };
            let status = if status == StatusCode::NOT_FOUND { StatusCode::UNAUTHORIZED } else { status };
            account_form("login.html", &headers, status, &next, &f.user, "", Some(message))
        }
    }
}

/// `POST /signup`: make the account and log in.
pub(super) async fn signup_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    f: Result<Form<LoginForm>, FormRejection>,
) -> Result<Response, PageError> {
    let f = form(f)?;
    let next = safe_next(f.next.as_deref());
    let again = |status: StatusCode, message: String| {
        account_form("signup.html", &headers, status, &next, &f.user, &f.email, Some(message))
    };
    if !check_form_token(&headers, &f.form_token) {
        return again(StatusCode::FORBIDDEN, expired_form());
    }
    if f.password != f.password2 {
        return again(StatusCode::BAD_REQUEST, t!(current(), "signup-passwords-differ"));
    }
    let email = f.email.trim();
    let id = match web.service.signup_user(f.user.trim(), &f.password, Some(email)).await {
        Ok(id) => id,
        Err(e) => return again(crate::error::status_of(e.code), e.message),
    };
    match web.service.login(&id, &f.password, &client.origin()).await {
        Ok(login) => Ok(logged_in(&login, web.service.now(), &headers, &next)),
        Err(e) => Err(e.into()),
    }
}

/// `POST /logout`: end the session. A stale form still logs out (nothing
/// but the session's own end can come of it).
pub(super) async fn logout_form(
    State(web): State<Web>,
    signed: Signed<CsrfField>,
) -> Result<Response, PageError> {
    web.service.logout(&signed.login.session).await?;
    let mut response = Redirect::to("/").into_response();
    response.headers_mut().append(header::SET_COOKIE, auth::clear_cookie(SESSION_COOKIE));
    Ok(response)
}

#[derive(Deserialize)]
pub(super) struct DoneQuery {
    /// The setting just changed, to confirm.
    done: Option<String>,
}

/// `/account`: the account's settings and API tokens.
pub(super) async fn account_page(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    q: Result<Query<DoneQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let Some(login) = visitor(&web, client, &headers).await? else {
        return Ok(Redirect::to("/login?next=/account").into_response());
    };
    let done = query(q)?.done.and_then(|d| confirmation(&d));
    account_view(&web, &login, StatusCode::OK, Shown { done, ..Shown::default() }).await
}

/// What the account page shows besides the settings.
#[derive(Default)]
struct Shown {
    /// A token just made, shown this once.
    new_token: Option<String>,
    /// A refused form: which one, and why.
    error: Option<(String, String)>,
    /// What was just changed.
    done: Option<String>,
}

/// The confirmation of a changed setting.
fn confirmation(setting: &str) -> Option<String> {
    let lang = current();
    Some(match setting {
        "password" => t!(lang, "account-done-password"),
        "emails" => t!(lang, "account-done-emails"),
        "notify" => t!(lang, "account-done-notify"),
        "vacation" => t!(lang, "account-done-vacation"),
        "limit" => t!(lang, "account-done-limit"),
        "policy" => t!(lang, "account-done-policy"),
        "language" => t!(lang, "account-done-language"),
        _ => return None,
    })
}

async fn account_view(
    web: &Web,
    login: &Login,
    status: StatusCode,
    shown: Shown,
) -> Result<Response, PageError> {
    let tokens = web.service.tokens(&login.user).await?;
    let tokens: Vec<Value> = tokens
        .iter()
        .map(|t| {
            serde_json::json!({
                "id": t.id, "name": t.name, "created": t.created,
                "last_used": t.last_used, "revoked": t.revoked,
            })
        })
        .collect();
    let account = web.service.account(&login.user).await?;
    let now = web.service.now();
    let vacation_days =
        account.vacation_until.filter(|&t| t > now).map(|t| (t - now + 86_399_999) / 86_400_000);
    let (error_form, error) = shown.error.unzip();
    let html = render(
        "account.html",
        context! {
            base => base(web, Some(login)).await?,
            tokens,
            new_token => shown.new_token,
            error,
            error_form,
            done => shown.done,
            emails => account.emails.join(" "),
            notify => account.notify,
            vacation_days,
            vacation_until => account.vacation_until.filter(|&t| t > now),
            limit => account.game_limit,
            ask => account.challenge_policy == "ask",
            // The page is in the account's language, or in the browser's
            // while the account has chosen none.
            language => account.lang().unwrap_or_else(current).code(),
        },
    )?;
    Ok(page(status, html))
}

#[derive(Deserialize)]
pub(super) struct TokenForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
}

/// `POST /account/tokens`: a new API token, shown once.
pub(super) async fn token_form(
    State(web): State<Web>,
    client: ClientAddress,
    signed: Signed<TokenForm>,
) -> Result<Response, PageError> {
    let Signed { login, form: f, .. } = signed;
    match web.service.create_token(&login.user, &f.password, f.name.trim(), &client.origin()).await {
        Ok((secret, _)) => {
            account_view(&web, &login, StatusCode::OK, Shown { new_token: Some(secret), ..Shown::default() })
                .await
        }
        Err(e) => refused(&web, &login, "token", e).await,
    }
}

async fn refused(web: &Web, login: &Login, which: &str, e: CommandError) -> Result<Response, PageError> {
    let shown = Shown { error: Some((which.to_string(), e.message)), ..Shown::default() };
    account_view(web, login, crate::error::status_of(e.code), shown).await
}

/// `POST /account/tokens/{id}/revoke`.
pub(super) async fn revoke_form(
    State(web): State<Web>,
    Path(id): Path<String>,
    signed: Signed<CsrfField>,
) -> Result<Response, PageError> {
    let login = signed.login;
    let id: i64 = id.parse().map_err(|_| PageError::not_found(t!(current(), "account-no-token")))?;
    match web.service.revoke_token(&login.user, id).await {
        Ok(()) => Ok(Redirect::to("/account").into_response()),
        Err(e) => refused(&web, &login, "token", e).await,
    }
}

#[derive(Deserialize)]
pub(super) struct SettingsForm {
    /// Which setting: `password`, `emails`, `notify`, `vacation`, `limit`,
    /// `policy`, `language` or `close`.
    #[serde(default)]
    setting: String,
    /// The current password (password, addresses, closing).
    #[serde(default)]
    password: String,
    #[serde(default)]
    new_password: String,
    #[serde(default)]
    new_password2: String,
    #[serde(default)]
    emails: String,
    #[serde(default)]
    value: String,
    /// Closing the account: the box saying so.
    #[serde(default)]
    confirm: String,
}

fn bad_value(message: impl Into<String>) -> CommandError {
    CommandError::new(ErrorCode::BadValue, message)
}

/// The account command a settings form stands for.
fn settings_command(login: &Login, f: &SettingsForm) -> Result<Command, CommandError> {
    let session = Credentials { user: login.user.clone(), password: "-".into() };
    let with_password = Credentials { user: login.user.clone(), password: f.password.clone() };
    let on_off = |value: &str| -> Result<Option<u32>, CommandError> {
        match value.trim() {
            "" | "off" => Ok(None),
            n => n
                .parse::<u32>()
                .map(Some)
                .map_err(|_| bad_value(t!(current(), "account-not-a-number", value = format!("{n:?}")))),
        }
    };
    Ok(match f.setting.as_str() {
        "password" => {
            if f.new_password != f.new_password2 {
                return Err(bad_value(t!(current(), "account-new-passwords-differ")));
            }
            Command::ChangePassword { auth: with_password, new_password: f.new_password.clone() }
        }
        "emails" => Command::ChangeAddress {
            auth: with_password,
            emails: f
                .emails
                .split([' ', ',', '\n', '\r', '\t'])
                .filter(|e| !e.is_empty())
                .map(str::to_string)
                .collect(),
        },
        "notify" => Command::Notify { auth: session, on: f.value == "on" },
        "vacation" => Command::Vacation { auth: session, days: on_off(&f.value)? },
        "limit" => Command::Limit { auth: session, limit: on_off(&f.value)? },
        "policy" => Command::Policy { auth: session, ask: f.value == "ask" },
        "language" => match Lang::ALL.into_iter().find(|l| l.code() == f.value.trim()) {
            Some(lang) => Command::Language { auth: session, lang },
            None => {
                let given: String = f.value.chars().take(40).collect();
                let e =
                    CommandError::says(ErrorCode::BadValue, msg!("error-language-unknown", given = given));
                return Err(e.localized(current()));
            }
        },
        "close" => {
            if f.confirm != "yes" {
                return Err(bad_value(t!(current(), "account-tick-to-close")));
            }
            Command::Signoff { auth: with_password }
        }
        other => return Err(bad_value(t!(current(), "account-no-setting", setting = format!("{other:?}")))),
    })
}

/// `POST /account/settings`: one setting changed, as its account command.
pub(super) async fn settings_form(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    signed: Signed<SettingsForm>,
) -> Result<Response, PageError> {
    let Signed { login, form: f, .. } = signed;
    let command = match settings_command(&login, &f) {
        Ok(c) => c,
        Err(e) => return refused(&web, &login, &f.setting, e).await,
    };
    if let Err(e) = web.service.run(command, super::form_context(&login, &client)).await {
        return refused(&web, &login, &f.setting, e).await;
    }
    match f.setting.as_str() {
        // Every session ended with the old password: this one goes on
        // under the new one.
        "password" => {
            let again = web.service.login(&login.user, &f.new_password, &client.origin()).await?;
            Ok(logged_in(&again, web.service.now(), &headers, "/account?done=password"))
        }
        "close" => {
            let _ = web.service.logout(&login.session).await;
            let mut response = Redirect::to("/").into_response();
            response.headers_mut().append(header::SET_COOKIE, auth::clear_cookie(SESSION_COOKIE));
            Ok(response)
        }
        s => Ok(Redirect::to(&format!("/account?done={s}")).into_response()),
    }
}
