//! Shared helpers of the web tests: a site over a real SQLite file in a
//! temporary directory, requests sent in-process with `oneshot`, browser
//! logins with cookies and CSRF tokens, and an event stream reader.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value;
use tabula_service::store::{Clients, SqliteStore, Store};
use tabula_service::{Clock, Service};
use tower::ServiceExt;

/// A running application over a fresh database.
pub struct Site {
    pub dir: tempfile::TempDir,
    pub service: Arc<Service>,
    /// The service's database, for what a test looks at or arranges
    /// underneath it (front ends only ever go through `service`).
    pub store: Arc<Store>,
    pub app: Router,
}

/// A response, read whole.
pub struct Page {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Page {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The value of `Set-Cookie` for cookie `name`, if set.
    pub fn cookie(&self, name: &str) -> Option<String> {
        self.headers
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|v| v.strip_prefix(&format!("{name}=")))
            .map(|v| v.split(';').next().unwrap_or("").to_string())
    }

    pub fn location(&self) -> Option<&str> {
        self.headers.get(header::LOCATION).and_then(|v| v.to_str().ok())
    }
}

/// The `value` of the first input named `name` in `html`.
pub fn input_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\" value=\""))?;
    let rest = &html[at + name.len() + 15..];
    Some(rest[..rest.find('"')?].to_string())
}

pub async fn site() -> Site {
    site_with_clock(Clock::System).await
}

pub async fn site_with_clock(clock: Clock) -> Site {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<Store> =
        Arc::new(SqliteStore::open(&dir.path().join("tabula.db"), Clients::Many).await.unwrap());
    let service = Arc::new(Service::new(store.clone(), clock));
    let app = tabula_web::app(service.clone());
    Site { dir, service, store, app }
}

/// A site whose service plays the built-in bots.
pub async fn site_with_bots() -> Site {
    let dir = tempfile::tempdir().unwrap();
    let store: Arc<Store> =
        Arc::new(SqliteStore::open(&dir.path().join("tabula.db"), Clients::Many).await.unwrap());
    let service =
        Arc::new(Service::new(store.clone(), Clock::System).with_bots(Arc::new(tabula_bots::ServerBots)));
    let app = tabula_web::app(service.clone());
    Site { dir, service, store, app }
}

pub fn urlencode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn form_body(fields: &[(&str, &str)]) -> String {
    fields.iter().map(|(k, v)| format!("{}={}", urlencode(k), urlencode(v))).collect::<Vec<_>>().join("&")
}

impl Site {
    pub async fn send(&self, request: Request<Body>) -> Page {
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Page { status, headers, body: String::from_utf8_lossy(&bytes).into_owned() }
    }

    pub async fn get(&self, uri: &str, headers: &[(&str, &str)]) -> Page {
        let mut r = Request::builder().uri(uri);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        self.send(r.body(Body::empty()).unwrap()).await
    }

    pub async fn request(&self, method: Method, uri: &str, headers: &[(&str, &str)], body: String) -> Page {
        let mut r = Request::builder().method(method).uri(uri);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        self.send(r.body(Body::from(body)).unwrap()).await
    }

    pub async fn post_json(&self, uri: &str, headers: &[(&str, &str)], body: &Value) -> Page {
        let mut h = vec![("content-type", "application/json")];
        h.extend_from_slice(headers);
        self.request(Method::POST, uri, &h, body.to_string()).await
    }

    /// `POST /api/v1/commands`, optionally with a bearer token.
    pub async fn command(&self, line: &str, token: Option<&str>) -> Page {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("authorization", a.as_str())).collect();
        self.post_json("/api/v1/commands", &headers, &serde_json::json!({ "line": line })).await
    }

    /// A command that must succeed.
    pub async fn ok(&self, line: &str) -> Value {
        let page = self.command(line, None).await;
        assert_eq!(page.status, StatusCode::OK, "{line}: {}", page.body);
        page.json()
    }

    /// A challenge that must succeed, made as the operator makes it at the
    /// command line on the site's database (over the network a challenge
    /// needs one of its players logged in); the reply as the API gives it.
    pub async fn challenge(&self, line: &str) -> Value {
        let reply = self
            .service
            .execute(line, &tabula_service::Caller::Anonymous)
            .await
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        tabula_web::api::reply_json(&reply).unwrap()
    }

    pub async fn post_form(&self, uri: &str, cookie: &str, fields: &[(&str, &str)]) -> Page {
        let mut h = vec![("content-type", "application/x-www-form-urlencoded")];
        if !cookie.is_empty() {
            h.push(("cookie", cookie));
        }
        self.request(Method::POST, uri, &h, form_body(fields)).await
    }

    /// A bearer token for `user`.
    pub async fn token(&self, user: &str, password: &str) -> String {
        let page = self
            .post_json(
                "/api/v1/tokens",
                &[],
                &serde_json::json!({ "user": user, "password": password, "name": "test" }),
            )
            .await;
        assert_eq!(page.status, StatusCode::CREATED, "{}", page.body);
        page.json()["token"].as_str().unwrap().to_string()
    }

    /// Log in through the login form, as a browser does.
    pub async fn browser(&self, user: &str, password: &str) -> Browser {
        let form = self.get("/login", &[]).await;
        let form_cookie = format!("tabula_form={}", form.cookie("tabula_form").expect("form cookie"));
        let token = input_value(&form.body, "form_token").expect("form token");
        let done = self
            .post_form(
                "/login",
                &form_cookie,
                &[("form_token", &token), ("user", user), ("password", password), ("next", "/")],
            )
            .await;
        assert_eq!(done.status, StatusCode::SEE_OTHER, "login of {user}: {}", done.body);
        let cookie = format!("tabula_session={}", done.cookie("tabula_session").expect("session cookie"));
        let home = self.get("/", &[("cookie", &cookie)]).await;
        let csrf = input_value(&home.body, "csrf").expect("csrf on the logged-in page");
        Browser { cookie, csrf }
    }
}

/// A logged-in browser: its session cookie and CSRF token.
pub struct Browser {
    pub cookie: String,
    pub csrf: String,
}

/// An open event stream.
pub struct Events {
    body: Body,
    buffer: String,
}

/// One event: its name and data.
#[derive(Debug)]
pub struct SseEvent {
    pub event: String,
    pub id: String,
    pub data: String,
}

impl SseEvent {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap()
    }
}

impl Site {
    pub async fn events(&self, uri: &str, headers: &[(&str, &str)]) -> Events {
        let mut r = Request::builder().uri(uri);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        let response = self.app.clone().oneshot(r.body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        let ct = response.headers()[header::CONTENT_TYPE].to_str().unwrap().to_string();
        assert!(ct.starts_with("text/event-stream"), "{ct}");
        Events { body: response.into_body(), buffer: String::new() }
    }
}

impl Events {
    /// The next event (keep-alive comments skipped), or `None` if none
    /// comes within `wait` (a bound so a broken stream fails the test
    /// instead of hanging it).
    pub async fn next(&mut self, wait: Duration) -> Option<SseEvent> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let mut e = SseEvent { event: String::new(), id: String::new(), data: String::new() };
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        e.event = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("id:") {
                        e.id = v.trim().to_string();
                    } else if let Some(v) = line.strip_prefix("data:") {
                        if !e.data.is_empty() {
                            e.data.push('\n');
                        }
                        e.data.push_str(v.strip_prefix(' ').unwrap_or(v));
                    }
                }
                if e.event.is_empty() && e.data.is_empty() {
                    continue;
                }
                return Some(e);
            }
            let frame = tokio::time::timeout_at(deadline, self.body.frame()).await.ok()??.ok()?;
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }

    /// Events until one satisfies `pred`; panics if none comes in time.
    pub async fn until(&mut self, wait: Duration, mut pred: impl FnMut(&Value) -> bool) -> Vec<SseEvent> {
        let mut seen = Vec::new();
        loop {
            let e = self.next(wait).await.unwrap_or_else(|| panic!("no matching event; saw {seen:?}"));
            let hit = pred(&e.json());
            seen.push(e);
            if hit {
                return seen;
            }
        }
    }
}

/// Long enough for anything in-process; only reached when a test fails.
pub const WAIT: Duration = Duration::from_secs(20);
