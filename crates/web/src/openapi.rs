//! `GET /api/openapi.json`: the API's description (OpenAPI 3.1), written by
//! hand next to the handlers; a test checks that it names every route.

use axum::http::header;
use axum::response::IntoResponse;

/// The OpenAPI document.
pub const DOCUMENT: &str = include_str!("openapi.json");

/// The handler.
pub async fn document() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], DOCUMENT)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_document_is_json_and_names_every_route() {
        let doc: serde_json::Value = serde_json::from_str(super::DOCUMENT).expect("valid JSON");
        assert_eq!(doc["openapi"], "3.1.0");
        let paths = doc["paths"].as_object().unwrap();
        for (path, method) in [
            ("/api/v1/commands", "post"),
            ("/api/v1/kinds", "get"),
            ("/api/v1/kinds/{kind}", "get"),
            ("/api/v1/games", "get"),
            ("/api/v1/games/{id}", "get"),
            ("/api/v1/games/{id}/history", "get"),
            ("/api/v1/games/{id}/events", "get"),
            ("/api/v1/users/{id}", "get"),
            ("/api/v1/bot/events", "get"),
            ("/api/v1/kinds/{kind}/ladder", "get"),
            ("/api/v1/tournaments", "get"),
            ("/api/v1/tournaments/{id}", "get"),
            ("/api/v1/tournaments/{id}/games", "get"),
            ("/api/v1/me", "get"),
            ("/api/v1/tokens", "post"),
            ("/api/v1/tokens", "get"),
            ("/api/v1/tokens/{id}", "delete"),
            ("/api/openapi.json", "get"),
        ] {
            assert!(paths.get(path).and_then(|p| p.get(method)).is_some(), "{method} {path}");
        }
        // Every reference resolves.
        let text = super::DOCUMENT;
        for (i, _) in text.match_indices("\"#/components/schemas/") {
            let name: String = text[i + 22..].chars().take_while(|c| *c != '"').collect();
            assert!(doc["components"]["schemas"].get(&name).is_some(), "schema {name}");
        }
        for (i, _) in text.match_indices("\"#/components/responses/") {
            let name: String = text[i + 24..].chars().take_while(|c| *c != '"').collect();
            assert!(doc["components"]["responses"].get(&name).is_some(), "response {name}");
        }
        for (i, _) in text.match_indices("\"#/components/parameters/") {
            let name: String = text[i + 25..].chars().take_while(|c| *c != '"').collect();
            assert!(doc["components"]["parameters"].get(&name).is_some(), "parameter {name}");
        }
    }
}
