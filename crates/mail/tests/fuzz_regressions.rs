//! Inputs found by fuzzing (`fuzz/fuzz_targets/mail.rs`), kept as tests.

use tabula_mail::{Ignored, MailConfig, read_message};

/// A `From` whose local part is not ASCII (here a stray 0xFF byte) was
/// answered, and the answer could then not be built for sending.
#[test]
fn a_sender_address_that_is_not_ascii_is_not_answered() {
    let raw = b"From: postma\xffter@example.net\r\nTo: tabula@example.org\r\nSubject: dna show 1\r\n\
Date: Tue, 2 Jan 2024 10:00:00 +0000\r\nMessage-ID: <pm-23@example.net>\r\n\
Content-Type: text/plain; charset=us-ascii\r\n\r\nYour message was delayed.\r\n";
    let config = MailConfig { address: "tabula@example.org".into(), ..MailConfig::default() };
    let incoming = read_message(raw, &config).unwrap();
    assert_eq!(incoming.reply_to, None);
    assert_eq!(incoming.ignored, Some(Ignored::NoReplyAddress));
}

/// A domain label longer than 63 characters passed the address check, and
/// the answer could then not be built for sending.
#[test]
fn a_sender_address_with_an_overlong_domain_label_is_not_answered() {
    let raw = format!(
        "From: Amy <amy@exa{}mple.org>\r\nTo: tabula@example.org\r\nSubject: dna show 1\r\n\
Date: Tue, 2 Jan 2024 10:00:00 +0000\r\nMessage-ID: <long-1@example.net>\r\n\
Content-Type: text/plain; charset=us-ascii\r\n\r\nshow me\r\n",
        "h".repeat(120)
    );
    let config = MailConfig { address: "tabula@example.org".into(), ..MailConfig::default() };
    let incoming = read_message(raw.as_bytes(), &config).unwrap();
    assert_eq!(incoming.reply_to, None);
    assert_eq!(incoming.ignored, Some(Ignored::NoReplyAddress));
}
