//! HTTP request bodies and query strings of the web front end and the API,
//! sent in-process to the application over a throwaway service (SQLite in a
//! temporary directory, two users and a DNA game). The first byte picks the
//! endpoint; the rest is the body (or the query string). Bad input is a 4xx
//! answer, never a crash or a 500, and every API answer is JSON.
#![no_main]

use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, header};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use tabula_service::store::{Clients, SqliteStore};
use tabula_service::{Caller, Clock, Service};
use tower::ServiceExt;

struct World {
    runtime: tokio::runtime::Runtime,
    app: Router,
    _dir: tempfile::TempDir,
}

fn world() -> &'static World {
    static WORLD: OnceLock<World> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        let dir = tempfile::tempdir().expect("temporary directory");
        let app = runtime.block_on(async {
            let store = SqliteStore::open(&dir.path().join("fuzz.db"), Clients::Many).await.expect("store");
            let service = Arc::new(Service::new(Arc::new(store), Clock::Fixed(1_700_000_000_000)));
            for line in ["signup ted pw-ted ted@example.org", "signup ned pw-ned ned@example.org"] {
                service.execute(line, &Caller::Anonymous).await.expect("signup");
            }
            service.execute("dna challenge ted ned", &Caller::User("ted".into())).await.expect("challenge");
            tabula_web::app(service)
        });
        World { runtime, app, _dir: dir }
    })
}

const JSON: &str = "application/json";
const FORM: &str = "application/x-www-form-urlencoded";

/// (method, path, content type of the body; `None`: the input is the query).
const ENDPOINTS: &[(Method, &str, Option<&str>)] = &[
    (Method::POST, "/api/v1/commands", Some(JSON)),
    (Method::POST, "/api/v1/tokens", Some(JSON)),
    (Method::POST, "/login", Some(FORM)),
    (Method::POST, "/signup", Some(FORM)),
    (Method::POST, "/games/1/move", Some(FORM)),
    (Method::POST, "/games/1/answer", Some(FORM)),
    (Method::POST, "/challenge/dna", Some(FORM)),
    (Method::POST, "/account/tokens", Some(FORM)),
    (Method::GET, "/api/v1/games", None),
    (Method::GET, "/api/v1/games/1", None),
    (Method::GET, "/api/v1/games/1/history", None),
    (Method::GET, "/", None),
    (Method::GET, "/games/1", None),
    (Method::GET, "/challenge/dna", None),
];

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else { return };
    let (method, path, content) = &ENDPOINTS[usize::from(control & 0x7f) % ENDPOINTS.len()];
    let mut request = Request::builder().method(method.clone());
    let body = match content {
        Some(kind) => {
            request = request.uri(*path).header(header::CONTENT_TYPE, *kind);
            Body::from(rest.to_vec())
        }
        None => {
            let Ok(query) = std::str::from_utf8(rest) else { return };
            request = request.uri(format!("{path}?{query}"));
            Body::empty()
        }
    };
    if control & 0x80 != 0 {
        request = request.header(header::AUTHORIZATION, "Bearer not-a-token");
    }
    let Ok(request) = request.body(body) else { return };
    let world = world();
    let (status, bytes) = world.runtime.block_on(async {
        let response = world.app.clone().oneshot(request).await.expect("the router answers");
        let status = response.status();
        let bytes = response.into_body().collect().await.expect("the body is read").to_bytes();
        (status, bytes)
    });
    assert!(!status.is_server_error(), "{method} {path}: {status} for {:?}", String::from_utf8_lossy(rest));
    if path.starts_with("/api/") {
        let _: serde_json::Value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{method} {path}: the answer is not JSON ({e})"));
    }
});
