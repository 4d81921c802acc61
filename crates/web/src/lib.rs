//! The HTTP front end: the JSON API, the web pages and the live event
//! streams, over the service. Handlers only turn requests into service
//! calls and map the results; every rule lives in the service and the games.
//!
//! - [`api`]: `/api/v1/...`, JSON in and out, errors as
//!   `{"ok": false, "error": {"code", "message"}}` with the service's stable
//!   codes (plus `not_found`, `method_not_allowed`, `payload_too_large` and
//!   `unauthorized` for what only HTTP can get wrong).
//! - [`events`]: `GET /api/v1/games/{id}/events`, Server-Sent Events with the
//!   listener's own view after every change.
//! - [`bot_events`]: `GET /api/v1/bot/events`, a bot account's events
//!   (challenges, its turns as bot protocol messages, game ends).
//! - [`pages`]: the server-rendered pages (templates embedded in the binary,
//!   auto-escaped), with login sessions and CSRF-checked forms.
//! - [`tournaments`]: tournament pages and resources.
//!
//! Hidden information: every view is asked of the service for the identity
//! the request proves (bearer token, session cookie, or `?token=` on event
//! streams); anyone else is an observer.

pub mod api;
pub mod auth;
pub mod bot_events;
pub mod client;
pub mod connections;
mod error;
pub mod events;
pub mod lang;
mod openapi;
pub mod pages;
mod templates;
pub mod tournaments;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tabula_i18n::t;
use tabula_service::Service;
use tokio::sync::watch;

use crate::client::ClientAddress;

pub use error::{ApiError, PageError};

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// What every handler shares: the service, and the signal that ends the
/// event streams when the server shuts down. One shared allocation, so
/// that the copy each request's handlers and middleware take costs one
/// count, not one per field.
#[derive(Clone)]
pub struct Web(Arc<Shared>);

/// The fields of [`Web`].
pub struct Shared {
    /// The service every request is answered by.
    pub service: Arc<Service>,
    /// The proxies whose word on a client's address is taken.
    pub proxies: Arc<client::TrustedProxies>,
    /// Replays being prepared per client (see [`client::HeavyReads`]).
    pub heavy: Arc<client::HeavyReads>,
    stopping: watch::Receiver<bool>,
    // Kept so that `stopping` stays open while the application lives.
    _stop: Arc<watch::Sender<bool>>,
}

impl std::ops::Deref for Web {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// The application: every route, ready to serve or to test in-process.
pub fn app(service: Arc<Service>) -> Router {
    let (stop, stopping) = watch::channel(false);
    let web = Web(Arc::new(Shared {
        service,
        proxies: Arc::default(),
        heavy: Arc::default(),
        stopping,
        _stop: Arc::new(stop),
    }));
    router(web, &connections::Limits::default())
}

fn router(web: Web, limits: &connections::Limits) -> Router {
    // The figures `/metrics` shows are kept from the start.
    tabula_service::metrics::keep();
    let every = EveryRequest { web: web.clone(), read_timeout: limits.read_timeout };
    Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(api::router())
        .merge(pages::routes())
        .merge(tournaments::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(every, every_request))
        .with_state(web)
}

/// What [`every_request`] needs besides the request.
#[derive(Clone)]
struct EveryRequest {
    web: Web,
    read_timeout: std::time::Duration,
}

/// The one middleware every request goes through, each step in turn: the
/// client's address found, the language chosen, the body read within the
/// read timeout, then the handler; the security headers added to the
/// answer, and the request counted and logged. One layer rather than one
/// per step: each layer of its own boxed the rest of the request's work
/// and cloned the routes' service again, on every request.
async fn every_request(State(every): State<EveryRequest>, mut request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    // The route's pattern (`/api/v1/games/{id}`), never the raw path: the
    // figures' labels stay few whatever is asked for.
    let route = request.extensions().get::<MatchedPath>().map_or("unmatched", |m| m.as_str()).to_string();
    client::mark_client_address(&every.web, &mut request);
    let read_timeout = every.read_timeout;
    let mut response =
        lang::answer_in_language(request, |request| connections::read_body(read_timeout, request, next))
            .await;
    add_security_headers(response.headers_mut());
    log_request(&method, &path, &route, response.status(), started);
    response
}

/// How the server takes connections.
#[derive(Clone, Debug, Default)]
pub struct ServeOptions {
    /// Proxies whose `Forwarded` or `X-Forwarded-For` names the client.
    pub trust_proxy: Vec<client::Cidr>,
    /// Connections taken, and how long they may take.
    pub limits: connections::Limits,
}

/// Serve `app` on `listen` until `shutdown` completes, then end the event
/// streams and finish the requests in flight.
pub async fn serve(
    service: Arc<Service>,
    listen: SocketAddr,
    options: ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_on(service, tokio::net::TcpListener::bind(listen).await?, options, shutdown).await
}

/// [`serve`] on a bound `listener`, for a caller that tells the address
/// before serving (`tabula serve --listen 127.0.0.1:0`).
pub async fn serve_on(
    service: Arc<Service>,
    listener: tokio::net::TcpListener,
    options: ServeOptions,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    tracing::info!(address = %listener.local_addr()?, "serving");
    let (stop, stopping) = watch::channel(false);
    let stop = Arc::new(stop);
    let proxies = Arc::new(client::TrustedProxies(options.trust_proxy));
    let web = Web(Arc::new(Shared {
        service,
        proxies: proxies.clone(),
        heavy: Arc::default(),
        stopping,
        _stop: stop.clone(),
    }));
    let app = router(web, &options.limits);
    let signal = async move {
        shutdown.await;
        // Event streams never end by themselves: tell them to, or the
        // graceful shutdown would wait for them forever.
        let _ = stop.send(true);
    };
    connections::serve(listener, app, options.limits, proxies, signal).await
}

/// How long `/healthz` waits for the database before saying it is down.
const HEALTH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// `GET /healthz`: 200 `ok` when the database answers a query in time, 503
/// otherwise, for load balancers and service managers.
async fn healthz(State(web): State<Web>) -> Response {
    match tokio::time::timeout(HEALTH_TIMEOUT, web.service.check_database()).await {
        Ok(Ok(())) => "ok".into_response(),
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "health check: the database failed");
            (StatusCode::SERVICE_UNAVAILABLE, "the database failed").into_response()
        }
        Err(_) => {
            tracing::warn!("health check: the database did not answer in time");
            (StatusCode::SERVICE_UNAVAILABLE, "the database did not answer in time").into_response()
        }
    }
}

/// `GET /metrics`: this process's figures in the Prometheus text format.
async fn metrics(State(web): State<Web>) -> Response {
    match web.service.render_metrics(tabula_bots::process::running()).await {
        Ok(text) => ([(header::CONTENT_TYPE, tabula_service::metrics::CONTENT_TYPE)], text).into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: the database failed");
            (StatusCode::SERVICE_UNAVAILABLE, "the database failed").into_response()
        }
    }
}

async fn not_found(State(web): State<Web>, client: ClientAddress, headers: HeaderMap, uri: Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return ApiError::not_found(t!(lang::current(), "api-no-resource", path = uri.path()))
            .into_response();
    }
    // A signed-in reader's page speaks their setting, this one too.
    if let Err(e) = pages::visitor(&web, client, &headers).await {
        return e.into_response();
    }
    PageError::not_found(t!(lang::current(), "error-no-page")).into_response()
}

async fn method_not_allowed(
    State(web): State<Web>,
    client: ClientAddress,
    headers: HeaderMap,
    uri: Uri,
    method: Method,
) -> Response {
    let api = uri.path().starts_with("/api/");
    if !api && let Err(e) = pages::visitor(&web, client, &headers).await {
        return e.into_response();
    }
    let message = t!(lang::current(), "error-method", path = uri.path(), method = method.as_str());
    if api {
        ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed", message).into_response()
    } else {
        PageError::new(StatusCode::METHOD_NOT_ALLOWED, message).into_response()
    }
}

/// Headers that make the pages harder to abuse: no inline scripts (a board
/// picture can never run code), no framing, no sniffing, and no referrer
/// leaving the site (event stream URLs may carry a token). A handler's own
/// value of one of them stands.
fn add_security_headers(headers: &mut HeaderMap) {
    let mut set = |name: HeaderName, value: &'static str| {
        headers.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::X_FRAME_OPTIONS, "DENY");
    set(header::REFERRER_POLICY, "same-origin");
}

/// One log line per request: method, path (never the query string, which
/// may hold a token), status and time taken. Bodies are never logged, so
/// passwords never are.
fn log_request(method: &Method, path: &str, route: &str, status: StatusCode, started: Instant) {
    let metrics = tabula_service::metrics::keep();
    metrics.requests.with_label_values(&[route, method.as_str(), status.as_str()]).inc();
    metrics.request_seconds.with_label_values(&[route]).observe(started.elapsed().as_secs_f64());
    tracing::info!(
        %method,
        path = %path,
        status = status.as_u16(),
        ms = started.elapsed().as_millis() as u64,
        "request"
    );
}
