//! The two error types of the HTTP layer: [`ApiError`] answers JSON,
//! [`PageError`] answers an HTML page. Both carry the service's stable code;
//! internal failures are logged by the service and shown only as "internal".

use axum::Json;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use serde_json::json;
use tabula_service::{CommandError, ErrorCode};

/// The HTTP status that fits a service error code.
pub fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::Usage | ErrorCode::MalformedMove | ErrorCode::BadOption | ErrorCode::BadValue => {
            StatusCode::BAD_REQUEST
        }
        ErrorCode::UnknownCommand | ErrorCode::UnknownUser | ErrorCode::UnknownBoard => StatusCode::NOT_FOUND,
        ErrorCode::WrongPassword | ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
        ErrorCode::TooManyRequests => StatusCode::TOO_MANY_REQUESTS,
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

/// An error as the API returns it: an HTTP status, a stable code and a
/// message, as `{"ok": false, "error": {"code": .., "message": ..}}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The stable code: one of the service's, or an HTTP-only one.
    pub code: &'static str,
    /// What went wrong, for people.
    pub message: String,
    /// Seconds to wait before trying again (`Retry-After`), for 429 and 503.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with an HTTP-only code.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, code, message: message.into(), retry_after: None }
    }

    /// No such resource (`not_found`).
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    /// The request needs an identity it did not prove (`unauthorized`).
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }

    /// A malformed request (`usage`, as the service calls malformed commands).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorCode::Usage.as_str(), message)
    }

    /// The JSON body of this error.
    pub fn body(&self) -> serde_json::Value {
        json!({"ok": false, "error": {"code": self.code, "message": self.message}})
    }
}

/// A service error as the request's reader reads it: in the request's
/// language (see [`crate::lang`]), whichever language the service wrote it in.
impl From<CommandError> for ApiError {
    fn from(e: CommandError) -> Self {
        let e = e.localized(crate::lang::current());
        ApiError {
            status: status_of(e.code),
            code: e.code.as_str(),
            message: e.message,
            retry_after: e.retry_after,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        retry_after(&mut response, self.retry_after);
        response
    }
}

/// Set `Retry-After` when there is a wait to tell.
fn retry_after(response: &mut Response, seconds: Option<u64>) {
    if let Some(v) = seconds.and_then(|s| axum::http::HeaderValue::from_str(&s.to_string()).ok()) {
        response.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
    }
}

/// An error answered with an HTML page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for people.
    pub message: String,
    /// Seconds to wait before trying again (`Retry-After`).
    pub retry_after: Option<u64>,
}

impl PageError {
    /// An error page with `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        PageError { status, message: message.into(), retry_after: None }
    }

    /// A page that does not exist.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
}

/// A service error in the request's language, as [`ApiError`]'s.
impl From<CommandError> for PageError {
    fn from(e: CommandError) -> Self {
        let e = e.localized(crate::lang::current());
        PageError { status: status_of(e.code), message: e.message, retry_after: e.retry_after }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let html = crate::templates::render_error(self.status, &self.message);
        let mut response = (self.status, Html(html)).into_response();
        retry_after(&mut response, self.retry_after);
        response
    }
}
