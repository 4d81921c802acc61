//! `GET /api/openapi.json`: the API's description (OpenAPI 3.1), generated
//! from each handler's `#[utoipa::path]` annotation and the types it takes
//! and answers with. The API's router is built from the same annotations
//! (see [`crate::api::routes`]), so a route is served exactly when it is
//! documented; the tests below check that both ways against the real
//! router.

use std::borrow::Cow;
use std::sync::OnceLock;

use axum::http::header;
use axum::response::IntoResponse;
use serde::Serialize;
use tabula_service::ErrorCode;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr, Type, schema};
use utoipa::{Modify, OpenApi, PartialSchema, ToSchema};

/// What the document says before its paths: title, description, server
/// and the two ways a caller proves who they are.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tabula API",
        version = "1",
        description = "JSON over HTTP for every command of Tabula's command language, each game as the caller may see it, histories, users, bearer tokens, and a live stream of a game's changes.\n\nIdentity: a bearer token (`Authorization: Bearer TOKEN`, made with `POST /api/v1/tokens`) stands for its owner; with it the password word of a command may be `-`. Reading requests also accept the web login's session cookie. Anyone else is an observer: views never carry another player's hidden information (unrevealed sequences, secret goals, simultaneous moves not yet revealed).\n\nErrors are `{\"ok\": false, \"error\": {\"code\": CODE, \"message\": TEXT}}` with a stable code.",
    ),
    servers((url = "/")),
    components(schemas(ErrorBody)),
    modifiers(&Identities)
)]
struct Base;

/// The security schemes `bearer` and `session` that the paths name.
struct Identities;

impl Modify for Identities {
    fn modify(&self, openapi: &mut Document) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("A token from POST /api/v1/tokens."))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                crate::auth::SESSION_COOKIE,
                "The web login (reading requests only).",
            ))),
        );
    }
}

/// The document without paths, which [`crate::api::routes`] adds.
pub fn base() -> Document {
    Base::openapi()
}

/// The whole document as JSON, made once.
pub fn text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let (_, document) = crate::api::routes().split_for_parts();
        document.to_json().expect("the OpenAPI document serialises")
    })
}

/// `GET /api/openapi.json`.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "api",
    summary = "This document",
    responses((status = 200, description = "OpenAPI 3.1.", content_type = "application/json", body = Object))
)]
pub async fn document() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], text())
}

/// The `"ok": true` of every successful answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct True;

impl Serialize for True {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl PartialSchema for True {
    fn schema() -> RefOr<schema::Schema> {
        schema::ObjectBuilder::new()
            .schema_type(Type::Boolean)
            .enum_values(Some([true]))
            .description(Some("Always true: the request was done."))
            .into()
    }
}

impl ToSchema for True {}

/// The body of every refusal (see [`crate::error::ApiError`]); nothing
/// changed.
#[derive(Serialize, ToSchema)]
pub struct ErrorBody {
    /// Always false.
    #[schema(value_type = bool)]
    pub ok: bool,
    /// What went wrong.
    pub error: ErrorDetail,
}

/// A refusal's code and message.
#[derive(Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable. The command layer's codes (the same as the command line's
    /// `--json`), then HTTP's own.
    #[schema(value_type = Codes)]
    pub code: &'static str,
    /// For people; never contains a password.
    pub message: String,
}

/// The codes of the HTTP layer's own refusals, beside the service's.
const HTTP_CODES: [&str; 7] = [
    "not_found",
    "method_not_allowed",
    "payload_too_large",
    "request_timeout",
    "unavailable",
    "not_a_bot",
    "hosted_bot",
];

/// Every code a refusal may carry: the service's [`ErrorCode`] as it
/// serialises, then [`HTTP_CODES`].
#[allow(dead_code)] // Only its schema is used: codes are written as strings.
struct Codes;

impl PartialSchema for Codes {
    fn schema() -> RefOr<schema::Schema> {
        let service = match ErrorCode::schema() {
            RefOr::T(schema::Schema::Object(object)) => object.enum_values.unwrap_or_default(),
            _ => unreachable!("a unit enum's schema is a string enum"),
        };
        schema::ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(service.into_iter().chain(HTTP_CODES.map(Into::into))))
            .description(Some("A refusal's stable code: the service's, then the HTTP layer's own."))
            .into()
    }
}

impl ToSchema for Codes {
    fn name() -> Cow<'static, str> {
        "ErrorCode".into()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    fn document() -> Value {
        serde_json::from_str(super::text()).expect("valid JSON")
    }

    #[test]
    fn the_document_is_openapi_3_1_with_identities_and_every_reference_resolves() {
        let doc = document();
        assert_eq!(doc["openapi"], "3.1.0");
        assert_eq!(doc["info"]["title"], "Tabula API");
        assert_eq!(doc["servers"][0]["url"], "/");
        assert_eq!(doc["components"]["securitySchemes"]["bearer"]["scheme"], "bearer");
        assert_eq!(doc["components"]["securitySchemes"]["session"]["in"], "cookie");
        let text = super::text();
        let mut refs = 0;
        for (i, _) in text.match_indices("\"#/components/schemas/") {
            let name: String = text[i + 22..].chars().take_while(|c| *c != '"').collect();
            assert!(doc["components"]["schemas"].get(&name).is_some(), "schema {name}");
            refs += 1;
        }
        assert!(refs > 10, "the answers are described by their types");
        // Every operation names its answers, refusals included.
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let responses = op["responses"].as_object().unwrap();
                assert!(responses.keys().any(|s| s.starts_with('2')), "{method} {path}: no success");
                if path != "/api/openapi.json" && path != "/api/v1/kinds" {
                    assert!(responses.keys().any(|s| s.starts_with('4')), "{method} {path}: no refusal");
                }
            }
        }
    }

    #[test]
    fn every_service_error_code_is_documented() {
        use tabula_service::ErrorCode as E;
        let doc = document();
        let codes = doc["components"]["schemas"]["ErrorCode"]["enum"].as_array().unwrap().clone();
        let all = [
            E::Usage,
            E::UnknownCommand,
            E::UnknownUser,
            E::WrongPassword,
            E::UnknownBoard,
            E::NotAPlayer,
            E::NotYourTurn,
            E::MalformedMove,
            E::IllegalMove,
            E::GameOver,
            E::StaleMove,
            E::BadOption,
            E::UserExists,
            E::BadValue,
            E::Refused,
            E::Unauthorized,
            E::TooManyRequests,
            E::Conflict,
            E::Internal,
        ];
        for code in all {
            // Exhaustive: a new code stops this compiling until it is listed.
            match code {
                E::Usage
                | E::UnknownCommand
                | E::UnknownUser
                | E::WrongPassword
                | E::UnknownBoard
                | E::NotAPlayer
                | E::NotYourTurn
                | E::MalformedMove
                | E::IllegalMove
                | E::GameOver
                | E::StaleMove
                | E::BadOption
                | E::UserExists
                | E::BadValue
                | E::Refused
                | E::Unauthorized
                | E::TooManyRequests
                | E::Conflict
                | E::Internal => {}
            }
            // Documented as served.
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str());
            assert!(codes.iter().any(|c| c == code.as_str()), "{code:?}");
        }
    }
}
