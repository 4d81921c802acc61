//! Live notices of the API's commands: one per change, sent by the service.

mod common;

use common::site;

#[tokio::test]
async fn accepting_a_challenge_through_the_api_sends_one_notice() {
    let api = site().await;
    api.ok("signup ned pw-ned").await;
    api.ok("signup ted pw-ted").await;
    api.ok("policy ted pw-ted ask").await;
    api.challenge("dna challenge ned ted").await;
    let mut updates = api.service.updates();
    let accepted = api.ok("dna accept 1 ted pw-ted").await;
    assert_eq!(accepted["game"]["status"], "active", "{accepted}");
    let mut notices = Vec::new();
    while let Ok(update) = updates.try_recv() {
        notices.push(update);
    }
    // The service tells listeners itself; the API sent it a second time.
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].board, 1);
}
