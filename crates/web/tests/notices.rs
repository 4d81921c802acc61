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

#[tokio::test]
async fn accepting_a_challenge_from_its_page_sends_one_notice() {
    let s = site().await;
    s.ok("signup ned pw-ned").await;
    s.ok("signup ted pw-ted").await;
    s.ok("policy ted pw-ted ask").await;
    s.challenge("dna challenge ned ted").await;
    let ted = s.browser("ted", "pw-ted").await;
    let mut updates = s.service.updates();
    let page =
        s.post_form("/games/1/answer", &ted.cookie, &[("csrf", &ted.csrf), ("answer", "accept")]).await;
    assert!(page.status.is_redirection() || page.status.is_success(), "{}: {}", page.status, page.body);
    let mut notices = Vec::new();
    while let Ok(update) = updates.try_recv() {
        notices.push(update);
    }
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].board, 1);
}
