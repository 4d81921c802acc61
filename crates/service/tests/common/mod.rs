//! What the service's tests share.

use std::sync::Arc;

use tabula_service::store::{Clients, SqliteStore};
use tabula_service::{Caller, Clock, Service};

/// A service over a new SQLite database in `dir`, on a fixed clock, with
/// aino and ned signed up (passwords `pw-aino`, `pw-ned`).
pub async fn aino_and_ned(dir: &tempfile::TempDir) -> Service {
    let store = SqliteStore::open(&dir.path().join("tabula.db"), Clients::Many).await.expect("store opens");
    let service = Service::new(Arc::new(store), Clock::Fixed(1_700_000_000_000));
    for user in ["aino", "ned"] {
        service
            .execute(&format!("signup {user} pw-{user} {user}@example.org"), &Caller::Anonymous)
            .await
            .unwrap();
    }
    service
}
