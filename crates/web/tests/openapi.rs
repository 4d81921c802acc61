//! The served OpenAPI document against the real router and the real
//! answers: every documented path and method is served (and no other
//! method on those paths), no `/api` route is registered outside the
//! documented router, and the answers keep their keys and fit their
//! documented schemas.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use axum::body::Body;
use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use common::{Site, site};
use serde_json::{Value, json};
use tower::ServiceExt;

const MATCHED: &str = "x-test-matched-path";

/// Tells in a response header which route the router matched.
async fn record(request: Request, next: Next) -> Response {
    let matched = request.extensions().get::<MatchedPath>().map(|m| m.as_str().to_owned());
    let mut response = next.run(request).await;
    if let Some(m) = matched.and_then(|m| HeaderValue::from_str(&m).ok()) {
        response.headers_mut().insert(MATCHED, m);
    }
    response
}

/// The status of `method path` on the real router, and the route it
/// matched; the body (an event stream, maybe) is not read.
async fn probe(s: &Site, method: &Method, path: &str) -> (StatusCode, Option<String>) {
    let app = s.app.clone().layer(middleware::from_fn(record));
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(Body::from(if method == Method::POST { "{}" } else { "" }))
        .unwrap();
    let response = app.oneshot(request).await.unwrap();
    let matched = response.headers().get(MATCHED).map(|v| v.to_str().unwrap().to_owned());
    (response.status(), matched)
}

#[tokio::test]
async fn every_documented_route_is_served_and_no_other_method() {
    let s = site().await;
    let doc = s.get("/api/openapi.json", &[]).await.json();
    assert_eq!(doc["openapi"], "3.1.0");
    let paths = doc["paths"].as_object().unwrap();
    assert!(paths.len() >= 17, "{} paths", paths.len());
    for (path, item) in paths {
        assert!(path.starts_with("/api/"), "{path}");
        let concrete = path.replace("{id}", "1").replace("{kind}", "dna");
        for method in [Method::GET, Method::POST, Method::PUT, Method::PATCH, Method::DELETE] {
            let documented = item.get(method.as_str().to_ascii_lowercase()).is_some();
            let (status, matched) = probe(&s, &method, &concrete).await;
            assert_eq!(
                matched.as_deref(),
                Some(path.as_str()),
                "{method} {concrete} is not routed to {path}"
            );
            if documented {
                assert_ne!(
                    status,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "{method} {path} is documented, not served"
                );
            } else {
                assert_eq!(
                    status,
                    StatusCode::METHOD_NOT_ALLOWED,
                    "{method} {path} is served, not documented"
                );
            }
        }
    }
    // The probe tells an unrouted path from a routed one.
    assert_eq!(probe(&s, &Method::GET, "/api/v1/nothing").await, (StatusCode::NOT_FOUND, None));
}

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn every_api_route_goes_through_the_documented_router() {
    // `api::routes` registers each route with `routes!(handler)`, which
    // takes the method and path from the handler's `#[utoipa::path]`: a
    // route cannot be served from there without being documented. Only a
    // plain registration could go around it, so none may name `/api`.
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.iter().any(|(_, text)| text.contains(".routes(routes!(command))")));
    for (file, text) in &files {
        let flat: String = text.split_whitespace().collect();
        for plain in [".route(\"/api", ".nest(\"/api", ".route_service(\"/api", ".nest_service(\"/api"] {
            assert!(!flat.contains(plain), "{file} registers an /api route without its documentation");
        }
    }
}

/// The schema `schema` points to, `$ref`s followed.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.strip_prefix("#/components/schemas/").unwrap();
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// The properties and required keys of an object schema, `allOf`s merged.
fn object_schema(
    doc: &Value,
    schema: &Value,
    props: &mut serde_json::Map<String, Value>,
    required: &mut BTreeSet<String>,
) {
    let schema = resolve(doc, schema);
    if let Some(all) = schema["allOf"].as_array() {
        for s in all {
            object_schema(doc, s, props, required);
        }
    }
    if let Some(p) = schema["properties"].as_object() {
        props.extend(p.clone());
    }
    for r in schema["required"].as_array().into_iter().flatten() {
        required.insert(r.as_str().unwrap().to_string());
    }
}

/// Checks that `value` fits `schema`: no key the schema does not name,
/// every required key, all the way down.
fn fits(doc: &Value, schema: &Value, value: &Value, at: &str) {
    let schema = resolve(doc, schema);
    if let Some(one) = schema["oneOf"].as_array() {
        let other = one.iter().find(|s| s["type"] != "null").unwrap();
        if !value.is_null() {
            fits(doc, other, value, at);
        }
        return;
    }
    match value {
        Value::Object(map) => {
            let (mut props, mut required) = (serde_json::Map::new(), BTreeSet::new());
            object_schema(doc, schema, &mut props, &mut required);
            if props.is_empty() {
                return; // A free-form object (a view, an option table).
            }
            for key in &required {
                assert!(map.contains_key(key), "{at}: required {key:?} missing");
            }
            for (key, v) in map {
                let s = props.get(key).unwrap_or_else(|| panic!("{at}: {key:?} is not documented"));
                fits(doc, s, v, &format!("{at}.{key}"));
            }
        }
        Value::Array(items) => {
            if let Some(s) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    fits(doc, s, v, &format!("{at}[{i}]"));
                }
            }
        }
        Value::Bool(true) if schema["enum"] == json!([true]) => {}
        _ if schema["enum"].is_array() => {
            assert!(
                schema["enum"].as_array().unwrap().contains(value),
                "{at}: {value} is not one of {}",
                schema["enum"]
            );
        }
        _ => {}
    }
}

/// The documented schema of `method path`'s answer with `status`.
fn answer_schema<'a>(doc: &'a Value, method: &str, path: &str, status: &str) -> &'a Value {
    let s = &doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"];
    assert!(!s.is_null(), "{method} {path} {status} is not documented");
    s
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

#[tokio::test]
async fn answers_keep_their_keys_and_fit_the_document() {
    let s = site().await;
    let doc = s.get("/api/openapi.json", &[]).await.json();
    let check = |method: &str, path: &str, status: &str, answer: &Value| {
        fits(&doc, answer_schema(&doc, method, path, status), answer, &format!("{method} {path}"));
    };
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    s.challenge("dna challenge -manual -length=6 ned ted").await;
    s.ok("dna move 1 ned pw-ned AAACCC").await;
    s.ok("dna chat 1 ned pw-ned hello").await;
    s.challenge("dna challenge -manual -length=6 ned ted").await;
    s.ok("dna move 2 ted pw-ted resign").await;

    // The keys each answer had when it was written with `json!`.
    let command = s.command("dna show 1", None).await;
    assert_eq!(command.status, StatusCode::OK);
    let command = command.json();
    assert_eq!(keys(&command), ["game", "ok", "subject", "text"]);
    check("post", "/api/v1/commands", "200", &command);

    let kinds = s.get("/api/v1/kinds", &[]).await.json();
    assert_eq!(keys(&kinds), ["kinds", "ok"]);
    let kind_keys = [
        "dynamics",
        "hidden_information",
        "kind",
        "max_players",
        "min_players",
        "move_help",
        "open_join",
        "options",
        "rules",
        "summary",
        "title",
    ];
    for k in kinds["kinds"].as_array().unwrap() {
        assert_eq!(keys(k), kind_keys);
    }
    check("get", "/api/v1/kinds", "200", &kinds);
    let kind = s.get("/api/v1/kinds/dna", &[]).await.json();
    assert_eq!(
        kind["kind"],
        kinds["kinds"].as_array().unwrap().iter().find(|k| k["kind"] == "dna").unwrap().clone()
    );
    check("get", "/api/v1/kinds/{kind}", "200", &kind);

    let ladder = s.get("/api/v1/kinds/dna/ladder", &[]).await.json();
    assert_eq!(keys(&ladder), ["kind", "ladder", "ok", "total"]);
    assert_eq!(ladder["total"], 2);
    assert_eq!(
        keys(&ladder["ladder"][0]),
        ["bot", "deviation", "drawn", "games", "lost", "rating", "user", "volatility", "won"]
    );
    check("get", "/api/v1/kinds/{kind}/ladder", "200", &ladder);

    let games = s.get("/api/v1/games", &[]).await.json();
    assert_eq!(keys(&games), ["games", "next", "ok"]);
    assert_eq!(
        keys(&games["games"][0]),
        ["id", "kind", "moves", "next_clock", "players", "result", "status", "to_move", "updated", "version"]
    );
    check("get", "/api/v1/games", "200", &games);

    let board = s.get("/api/v1/games/1", &[]).await.json();
    assert_eq!(keys(&board), ["click", "game", "ok", "subject", "svg", "text"]);
    check("get", "/api/v1/games/{id}", "200", &board);

    let history = s.get("/api/v1/games/1/history", &[]).await.json();
    assert_eq!(keys(&history), ["board", "chat", "history", "ok"]);
    assert_eq!(keys(&history["chat"][0]), ["at", "text", "user"]);
    check("get", "/api/v1/games/{id}/history", "200", &history);

    let user = s.get("/api/v1/users/ned", &[]).await.json();
    assert_eq!(keys(&user), ["games", "ok", "user"]);
    assert_eq!(keys(&user["user"]), ["bot", "created", "hosted", "id", "signed_off"]);
    check("get", "/api/v1/users/{id}", "200", &user);
    let bot = s.get("/api/v1/users/bot:random", &[]).await.json();
    assert_eq!(bot["user"], json!({"id": "bot:random", "bot": true}));
    check("get", "/api/v1/users/{id}", "200", &bot);

    let made =
        s.post_json("/api/v1/tokens", &[], &json!({"user": "ned", "password": "pw-ned", "name": "t"})).await;
    assert_eq!(made.status, StatusCode::CREATED);
    let made = made.json();
    assert_eq!(keys(&made), ["created", "id", "name", "ok", "token", "user"]);
    check("post", "/api/v1/tokens", "201", &made);
    let auth = format!("Bearer {}", made["token"].as_str().unwrap());
    let me = s.get("/api/v1/me", &[("authorization", &auth)]).await.json();
    assert_eq!(me, json!({"ok": true, "user": "ned"}));
    check("get", "/api/v1/me", "200", &me);
    let tokens = s.get("/api/v1/tokens", &[("authorization", &auth)]).await.json();
    assert_eq!(keys(&tokens), ["ok", "tokens"]);
    assert_eq!(keys(&tokens["tokens"][0]), ["created", "id", "last_used", "name", "revoked", "user"]);
    check("get", "/api/v1/tokens", "200", &tokens);
    let id = made["id"].as_i64().unwrap();
    let revoked = s
        .request(Method::DELETE, &format!("/api/v1/tokens/{id}"), &[("authorization", &auth)], String::new())
        .await;
    assert_eq!(revoked.json(), json!({"ok": true, "revoked": id}));
    check("delete", "/api/v1/tokens/{id}", "200", &revoked.json());

    let tournaments = s.get("/api/v1/tournaments", &[]).await.json();
    assert_eq!(tournaments, json!({"ok": true, "tournaments": []}));
    check("get", "/api/v1/tournaments", "200", &tournaments);

    // Refusals keep their shape and codes.
    let missing = s.get("/api/v1/games/99", &[]).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(keys(&missing.json()), ["error", "ok"]);
    assert_eq!(missing.json()["error"]["code"], "unknown_board");
    check("get", "/api/v1/games/{id}", "404", &missing.json());
    let no_game = s.get("/api/v1/kinds/chess", &[]).await;
    assert_eq!(no_game.json()["error"]["code"], "not_found");
    check("get", "/api/v1/kinds/{kind}", "404", &no_game.json());
}
