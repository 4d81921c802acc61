//! The HTTP front end: the JSON API and the web pages, over the service.
//! Handlers only turn requests into service calls and map the results.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tabula_service::{Caller, CommandError, ErrorCode, Service};

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// Shared state of the handlers.
pub type AppState = Arc<Service>;

/// The application: every route, ready to serve or to test in-process.
pub fn app(service: Arc<Service>) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/v1/commands", post(command))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(service)
}

/// Serve `app` on `listen` until `shutdown` completes, then finish the
/// requests in flight.
pub async fn serve(
    service: Arc<Service>,
    listen: SocketAddr,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(listen).await?;
    tracing::info!(address = %listener.local_addr()?, "serving");
    axum::serve(listener, app(service)).with_graceful_shutdown(shutdown).await
}

/// An error as the API returns it: a stable code and a message.
pub struct ApiError(pub CommandError);

impl ApiError {
    fn status(&self) -> StatusCode {
        match self.0.code {
            ErrorCode::Usage | ErrorCode::MalformedMove | ErrorCode::BadOption | ErrorCode::BadValue => {
                StatusCode::BAD_REQUEST
            }
            ErrorCode::UnknownCommand | ErrorCode::UnknownUser | ErrorCode::UnknownBoard => {
                StatusCode::NOT_FOUND
            }
            ErrorCode::WrongPassword => StatusCode::UNAUTHORIZED,
            ErrorCode::NotAPlayer => StatusCode::FORBIDDEN,
            ErrorCode::NotYourTurn
            | ErrorCode::IllegalMove
            | ErrorCode::GameOver
            | ErrorCode::StaleMove
            | ErrorCode::UserExists
            | ErrorCode::Refused
            | ErrorCode::Conflict => StatusCode::CONFLICT,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = json!({"ok": false, "error": {"code": self.0.code.as_str(), "message": self.0.message}});
        (status, Json(body)).into_response()
    }
}

impl From<CommandError> for ApiError {
    fn from(e: CommandError) -> Self {
        ApiError(e)
    }
}

/// The caller named by an `Authorization: Bearer` header, if any.
pub async fn bearer_caller(service: &Service, headers: &HeaderMap) -> Result<Caller, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Ok(Caller::Anonymous) };
    let token = value.to_str().ok().and_then(|v| v.strip_prefix("Bearer ")).ok_or_else(|| {
        ApiError(CommandError::new(
            ErrorCode::WrongPassword,
            "the Authorization header must be `Bearer TOKEN`",
        ))
    })?;
    Ok(service.token_caller(token.trim()).await?)
}

#[derive(Deserialize)]
struct CommandBody {
    line: String,
}

/// `POST /api/v1/commands {"line": "..."}`: any command of the language,
/// answered as the CLI's `--json` answers it.
async fn command(
    State(service): State<AppState>,
    headers: HeaderMap,
    body: Result<Json<CommandBody>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, ApiError> {
    let Json(body) = body.map_err(|e| {
        ApiError(CommandError::new(
            ErrorCode::Usage,
            format!("the body must be JSON {{\"line\": \"COMMAND\"}}: {e}"),
        ))
    })?;
    let caller = bearer_caller(&service, &headers).await?;
    let reply = service.execute(&body.line, &caller).await?;
    let mut v = serde_json::to_value(&reply)
        .map_err(|e| ApiError(CommandError::new(ErrorCode::Internal, e.to_string())))?;
    v["ok"] = serde_json::Value::Bool(true);
    Ok(Json(v).into_response())
}
