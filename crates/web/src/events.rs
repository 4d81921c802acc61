//! `GET /api/v1/games/{id}/events`: a game's changes as Server-Sent Events.
//!
//! The first event is the board as the listener sees it now; after every
//! change of the game another follows. Each `snapshot` event carries the
//! same JSON as `GET /api/v1/games/{id}` for that listener, with the event id
//! set to the game's version, and `state`: what the listener may do now
//! (`Service::board_state`), and for a known listener `waiting`: how many
//! games wait for them (their move, a challenge or an offer to answer),
//! as the pages' navigation counts them, and `status_lines`: the lines that
//! open the board's text as the game's page shows them to the listener
//! (the line saying whose turn it is says "It is your turn." to that
//! player). The texts are in the listener's language: their own setting,
//! else the request's (see [`crate::lang`]). The listener is the owner of the bearer token
//! (header, or `?token=` since browsers' `EventSource` cannot set headers),
//! else the logged-in browser's user, else an observer: a view is only ever
//! made for the identity the request proves, so nobody's stream carries
//! another player's secrets.
//!
//! Chat lines come as `chat` events, `{"n", "user", "at", "text"}` with `n`
//! the line's number on the board (from 0): first the lines from number
//! `?chat=N` on (default 0: all of them), then each new line as it is
//! written. A client that reconnects skips the numbers it has.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::hash::{Hash, Hasher};
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;
use tabula_i18n::t;
use tabula_model::Lang;
use tabula_service::GameUpdate;
use tokio::sync::broadcast::error::RecvError;

use crate::Web;
use crate::api::{board_id, snapshot_json};
use crate::auth::{api_user, token_user};
use crate::client::ClientAddress;
use crate::error::ApiError;

/// How often a comment is sent on a quiet stream, so proxies keep it open
/// and dead connections are noticed.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);
/// How often a stream looks at the stored game for changes made by other
/// processes (the command line, `tabula mail`, other servers on one
/// database), whose notices never reach this one.
pub const STORE_POLL: Duration = Duration::from_secs(2);

/// Query parameters of an event stream.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// A bearer token, for clients that cannot set headers.
    pub token: Option<String>,
    /// Chat lines the client has already: the stream sends those numbered
    /// from here on (default 0).
    #[param(minimum = 0)]
    pub chat: Option<usize>,
}

struct Listener {
    web: Web,
    board: i64,
    user: Option<String>,
    /// The language of the texts sent: the request's, kept for the events
    /// made after the handler returned.
    lang: Lang,
    updates: tokio::sync::broadcast::Receiver<GameUpdate>,
    /// Events ready to go, oldest first.
    pending: VecDeque<Event>,
    /// Chat lines sent (or that the client had).
    chat_sent: usize,
    /// A digest of the last data sent, so that a notice that changes
    /// nothing this listener sees sends nothing.
    last_sent: u64,
}

/// The event stream handler.
#[utoipa::path(
    get,
    path = "/api/v1/games/{id}/events",
    tag = "games",
    summary = "The game's changes as Server-Sent Events",
    description = "First the board as the listener sees it now, then again after every change: each `snapshot` event's data is the JSON of GET /api/v1/games/{id} for the listener, its id the game's version. Chat lines come as `chat` events with data `{\"n\", \"user\", \"at\", \"text\"}`, `n` the line's number on the board from 0: first those from `chat` on, then each new one. Comments keep a quiet stream alive. The listener is the bearer token's owner (header, or the `token` parameter for clients that cannot set headers), else the web login's user, else an observer.",
    security((), ("bearer" = []), ("session" = [])),
    params(("id" = i64, Path, description = "Board number.", minimum = 1), EventsQuery),
    responses(
        (status = 200, description = "The stream.", content_type = "text/event-stream", body = String,
            example = "event: snapshot\nid: 3\ndata: {\"ok\":true,\"subject\":\"DNA Board 1 ted\",...}\n\n"),
        (status = 400, description = "`usage`: a bad board number or query.", body = crate::openapi::ErrorBody),
        (status = 401, description = "`unauthorized`: an unknown or revoked token.", body = crate::openapi::ErrorBody),
        (status = 404, description = "`unknown_board`.", body = crate::openapi::ErrorBody),
        (status = 429, description = "`too_many_requests`: too many streams from one client.", body = crate::openapi::ErrorBody),
    )
)]
pub async fn game_events(
    State(web): State<Web>,
    client: ClientAddress,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: Result<Query<EventsQuery>, QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let board = board_id(&id)?;
    let Query(q) =
        q.map_err(|e| ApiError::bad_request(t!(crate::lang::current(), "bad-query", error = e.body_text())))?;
    let origin = client.origin();
    let user = match api_user(&web.service, &headers, &origin, true).await? {
        Some(u) => Some(u),
        None => match q.token.as_deref().filter(|t| !t.is_empty()) {
            Some(token) => Some(token_user(&web.service, token, &origin).await?),
            None => None,
        },
    };
    // Subscribe before reading the board, so no change falls between the two.
    let updates = web.service.updates();
    // The page's language: the listener's own setting (followed on finding
    // them), else the browser's.
    let lang = crate::lang::current();
    let (first, last_sent) = snapshot_event(&web, board, user.as_deref(), lang).await?;
    let mut listener = Listener {
        web,
        board,
        user,
        lang,
        updates,
        pending: VecDeque::from([first]),
        chat_sent: q.chat.unwrap_or(0),
        last_sent,
    };
    queue_chat(&mut listener).await?;
    let stream = futures_util::stream::unfold(listener, next_event);
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)))
}

/// The listener's snapshot as an event, and the digest of its data.
async fn snapshot_event(
    web: &Web,
    board: i64,
    user: Option<&str>,
    lang: Lang,
) -> Result<(Event, u64), ApiError> {
    let snapshot = web.service.snapshot(board, user, None, lang).await?;
    let version = snapshot.reply.game.as_ref().map_or(0, |g| g.version);
    let mut data = snapshot_json(&snapshot)?;
    // The status lines as the page shows them to the listener ("It is
    // your turn." to the player on move), for the page script.
    data["status_lines"] = crate::pages::status_lines(&snapshot.status, user, lang).into();
    // What the listener may do now, so that a page shows the controls
    // that fit without reloading.
    let state = web.service.board_state(board, user).await?;
    data["state"] = serde_json::to_value(&state).unwrap_or_default();
    // And how many games wait for the listener, for the page's title and
    // navigation: a move here changes it.
    if let Some(user) = user {
        data["waiting"] = web.service.waiting_for(user).await?.len().into();
    }
    let data = data.to_string();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut hasher);
    let event = Event::default().event("snapshot").id(version.to_string()).data(data);
    Ok((event, hasher.finish()))
}

/// Queue the chat lines the listener has not had yet.
async fn queue_chat(l: &mut Listener) -> Result<(), ApiError> {
    let lines = l.web.service.chats(l.board).await?;
    for (n, line) in lines.iter().enumerate().skip(l.chat_sent) {
        let data = serde_json::json!({ "n": n, "user": line.user, "at": line.at, "text": line.text });
        l.pending.push_back(Event::default().event("chat").data(data.to_string()));
    }
    l.chat_sent = l.chat_sent.max(lines.len());
    Ok(())
}

async fn next_event(mut l: Listener) -> Option<(Result<Event, Infallible>, Listener)> {
    let mut stopping = l.web.stopping.clone();
    loop {
        if let Some(event) = l.pending.pop_front() {
            return Some((Ok(event), l));
        }
        if *stopping.borrow() {
            return None;
        }
        let changed = tokio::select! {
            received = l.updates.recv() => received,
            _ = stopping.changed() => return None,
            // Unchanged data is not sent again (the digest below).
            _ = tokio::time::sleep(STORE_POLL) => Ok(GameUpdate { board: l.board, version: -1 }),
        };
        match changed {
            Ok(update) if update.board != l.board => continue,
            // Missed notices: the snapshot below is current anyway.
            Ok(_) | Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => return None,
        }
        match snapshot_event(&l.web, l.board, l.user.as_deref(), l.lang).await {
            Ok((event, digest)) => {
                if digest != l.last_sent {
                    l.last_sent = digest;
                    l.pending.push_back(event);
                }
            }
            Err(e) => {
                tracing::warn!(board = l.board, error = %e.message, "event stream ends");
                return None;
            }
        }
        if let Err(e) = queue_chat(&mut l).await {
            tracing::warn!(board = l.board, error = %e.message, "event stream ends");
            return None;
        }
    }
}
