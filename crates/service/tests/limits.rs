//! Size limits of what users send through the service: each refused with
//! an error naming the limit, and nothing stored.

use std::sync::Arc;

use tabula_service::command::{MAX_ACTIVE_GAMES, MAX_LINE};
use tabula_service::store::{Clients, SqliteStore};
use tabula_service::{Caller, Clock, ErrorCode, Service};

async fn service(dir: &tempfile::TempDir) -> Service {
    let store = SqliteStore::open(&dir.path().join("limits.db"), Clients::Many).await.expect("store opens");
    let service = Service::new(Arc::new(store), Clock::Fixed(1_700_000_000_000));
    for user in ["ted", "ned"] {
        service
            .execute(&format!("signup {user} pw-{user} {user}@example.org"), &Caller::Anonymous)
            .await
            .unwrap();
    }
    service
}

fn ted() -> Caller {
    Caller::User("ted".into())
}

#[tokio::test]
async fn a_command_line_over_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let s = service(&dir).await;
    let line = format!("dna challenge ted ned -length={}", "9".repeat(MAX_LINE));
    let e = s.execute(&line, &ted()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::Usage);
    assert_eq!(e.message, format!("the command is longer than {MAX_LINE} bytes"));
    let games = s.execute("dna games ted", &ted()).await.unwrap();
    assert!(!games.text.contains("Board 1"), "{}", games.text);
}

#[tokio::test]
async fn a_chat_line_has_at_most_4000_characters() {
    let dir = tempfile::tempdir().unwrap();
    let s = service(&dir).await;
    s.execute("dna challenge ted ned", &ted()).await.unwrap();
    // Characters, not bytes: 4000 two-byte letters are allowed.
    let most = "é".repeat(4000);
    s.execute(&format!("dna chat 1 ted - {most}"), &ted()).await.unwrap();
    let e = s.execute(&format!("dna chat 1 ted - {most}x"), &ted()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::BadValue);
    assert_eq!(e.message, "a chat message has at most 4000 characters");
}

#[tokio::test]
async fn a_challenge_names_at_most_26_players() {
    let dir = tempfile::tempdir().unwrap();
    let s = service(&dir).await;
    let names: Vec<String> = (0..27).map(|i| format!("p{i}")).collect();
    let e = s.execute(&format!("conway challenge {}", names.join(" ")), &ted()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::BadValue);
    assert_eq!(e.message, "at most 26 players");
}

#[tokio::test]
async fn a_user_is_in_at_most_1000_running_games() {
    let dir = tempfile::tempdir().unwrap();
    let s = service(&dir).await;
    assert_eq!(MAX_ACTIVE_GAMES, 1000);
    for _ in 0..MAX_ACTIVE_GAMES {
        s.execute("intervalo challenge ted ned", &ted()).await.unwrap();
    }
    let e = s.execute("intervalo challenge ted ned", &ted()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::Refused);
    assert_eq!(e.message, "ted is in 1000 running games and accepts no more (limit 1000)");
    // Setting a higher limit cannot lift the ceiling.
    let e = s.execute("limit ted - 1001", &ted()).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::Usage);
    assert!(e.message.contains("at most 1000 running games"), "{}", e.message);
}
