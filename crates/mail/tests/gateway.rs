//! Incoming mail against a real service: commands run, replies threaded and
//! shaped as pbmserv's, comments passed on, refusals that change nothing,
//! passwords never echoed, loops never answered.

mod common;

use common::{World, config, corpus, mail};
use mail_parser::{HeaderValue, MessageParser};
use tabula_mail::{MailConfig, MailError, OutgoingMail, enqueue_reply, handle_message};

async fn reply(world: &World, raw: &[u8]) -> OutgoingMail {
    handle_message(&world.service, raw, &config()).await.expect("handled").expect("answered")
}

#[tokio::test]
async fn a_move_by_mail_gets_the_board_threaded_and_its_comment_goes_to_the_others() {
    let world = World::new().await;
    world.seed_game().await;
    let before = world.outbox().await.len();
    let r = reply(&world, &corpus("01-subject-command-plain.eml")).await;
    assert_eq!(r.to, "ned@example.org");
    assert_eq!(r.subject, "DNA Board 1 ted");
    assert!(r.body.starts_with("DNA Board 1 ted\n\nIt is ted's turn.\n"), "{}", r.body);
    assert!(
        r.body.contains(
            "ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG\n\
             ted (33): TCAGCGCGTTCCCGGAGTCGTCGTATTAGGGAT\n\
             jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG\n"
        ),
        "{}",
        r.body
    );
    assert!(
        r.body.ends_with("Your comment went to the other players of board 1 with the move.\n"),
        "{}",
        r.body
    );
    assert!(!r.body.contains("pw-ned"));
    assert_eq!(r.in_reply_to.as_deref(), Some("plain-01@mail.example.org"));
    // The board's thread root first, the message answered last.
    assert_eq!(r.references, ["tabula.board1@example.org", "plain-01@mail.example.org"]);
    assert_eq!(r.board, Some(1));
    // The id, and a digest of what the message asks (a reused id with new content is a new message).
    assert!(r.key.starts_with("reply:plain-01@mail.example.org "), "{}", r.key);
    assert!(r.message_id.ends_with("@example.org"));

    // The move's notifications with the comment at their end, to ted and
    // jed only, held back with the reply committed with the move until the
    // whole reply replaces it and releases them.
    let new: Vec<_> = world.outbox().await.into_iter().skip(before).collect();
    let held: Vec<_> = new.iter().filter(|row| row.message.key == r.key).collect();
    assert_eq!(held.len(), 1);
    assert_eq!((held[0].message.recipient.as_str(), held[0].sent_at), ("ned@example.org", None));
    let new: Vec<_> = new.iter().filter(|row| row.message.key != r.key).collect();
    let mut notified: Vec<(String, String)> =
        new.iter().map(|r| (r.message.recipient.clone(), r.message.subject.clone())).collect();
    notified.sort();
    assert_eq!(
        notified,
        vec![
            ("jed@example.org".to_string(), "DNA Board 1 ted".to_string()),
            ("ted@example.org".to_string(), "DNA Board 1 ted".to_string()),
        ]
    );
    for note in new {
        assert!(
            note.message.body.ends_with("\n\nComment from ned:\n\nTake that, neighbourinos!\n"),
            "{}",
            note.message.body
        );
    }
}

#[tokio::test]
async fn a_reply_with_quotes_and_signature_runs_its_commands_and_passes_only_the_new_text() {
    let world = World::new().await;
    world.seed_game().await;
    world.run("dna move 1 ned pw-ned AAG").await;
    let before = world.outbox().await.len();
    // Thunderbird, bottom-posted, format=flowed, with a signature.
    let r = reply(&world, &corpus("03-thunderbird-flowed-bottom-posted.eml")).await;
    assert_eq!(r.subject, "DNA Board 1 jed");
    assert!(r.body.contains("ted (30): TCAGCGCGCCGGAGTCGTCGTATTAGGGAT\n"), "{}", r.body);
    let notes: Vec<_> = world
        .outbox()
        .await
        .into_iter()
        .skip(before)
        .filter(|r| r.message.subject == "DNA Board 1 jed" && r.message.recipient != "ted@example.org")
        .collect();
    assert_eq!(notes.len(), 2);
    assert!(notes[0].message.body.ends_with(
        "I have been thinking about this move for a long time and I am quite sure that it is the best one on the board. Your turn, jed.\n"
    ));
    let comment =
        &notes[0].message.body[notes[0].message.body.find("Comment from ted:").expect("a comment")..];
    assert!(!comment.contains("-- "));
    assert!(!comment.contains("It is ned's turn"));
}

#[tokio::test]
async fn several_commands_get_one_reply_with_a_section_each() {
    let world = World::new().await;
    world.seed_game().await;
    let raw = mail(
        "Ned <ned@example.org>",
        "Re: DNA Board 1 ned",
        "dna show 1\ndna move 1 ned pw-ned TTG\ndna move 1 ned pw-ned AAG\n\nsorry, fat fingers\n",
    );
    let r = reply(&world, &raw).await;
    // A command went through: the reply is no error; every command has its section.
    assert_eq!(r.subject, "DNA Board 1 ted");
    let sections: Vec<&str> = r.body.split(&"=".repeat(60)).collect();
    assert_eq!(sections.len(), 3, "{}", r.body);
    assert!(sections[0].starts_with("> dna show 1\n\nDNA Board 1 ned\n"), "{}", sections[0]);
    assert!(sections[1].contains("> dna move 1 ned ******** TTG"), "{}", sections[1]);
    assert!(sections[1].contains("was refused: TTG would remove 2 chunks from jed"), "{}", sections[1]);
    assert!(sections[2].contains("> dna move 1 ned ******** AAG\n\nDNA Board 1 ted\n"), "{}", sections[2]);
    assert!(r.body.contains("Your comment went to the other players of board 1 with the move."));
    assert!(!r.body.contains("pw-ned"));
    assert_eq!(world.version(1).await, 4);
}

#[tokio::test]
async fn a_wrong_password_or_a_stranger_changes_nothing_and_gets_an_error_reply() {
    let world = World::new().await;
    world.seed_game().await;
    let version = world.version(1).await;
    let outbox = world.outbox().await.len();

    let r = reply(&world, &mail("ned@example.org", "dna move 1 ned Wr0ngSecret AAG", "my comment")).await;
    assert_eq!(r.subject, "DNA error");
    assert_eq!(
        r.body,
        "Your command\n\n> dna move ******** ned ******** ********\n\nwas refused: wrong password for ned\nNothing was changed.\n\n\
         Your comment was not sent: a comment goes to the other players of a board with a move that succeeded.\n"
    );

    // The right password from an address that is not ned's.
    let r = reply(&world, &mail("Mallory <mallory@example.net>", "dna move 1 ned pw-ned AAG", "")).await;
    assert_eq!(r.to, "mallory@example.net");
    assert_eq!(r.subject, "DNA error");
    assert!(r.body.contains("> dna move ******** ned ******** ********"), "{}", r.body);
    assert!(
        r.body.contains("mallory@example.net, which is not one of ned's registered addresses"),
        "{}",
        r.body
    );
    assert!(!r.body.contains("pw-ned"));

    // A challenge only from one of its players.
    let r = reply(&world, &mail("mallory@example.net", "dna challenge ned ted", "")).await;
    assert_eq!(r.subject, "DNA error");
    assert!(r.body.contains("not one of the registered addresses of its players"), "{}", r.body);

    // An unknown user: the word in the user id's place may be a password
    // typed out of place, so it is masked as well.
    let r = reply(&world, &mail("bob@example.org", "dna move 1 bob pw-bob AAG", "")).await;
    assert!(r.body.contains("was refused: there is no user ********"), "{}", r.body);
    assert!(!r.body.contains("pw-bob"), "{}", r.body);

    assert_eq!(world.version(1).await, version);
    assert_eq!(world.outbox().await.len(), outbox, "no notification or chat was queued");
    assert_eq!(world.service.games(&Default::default()).await.unwrap().len(), 1);
}

#[tokio::test]
async fn loops_bounces_and_lists_are_never_answered_and_run_nothing() {
    let world = World::new().await;
    world.seed_game().await;
    let version = world.version(1).await;
    for file in [
        "18-auto-submitted-vacation.eml",
        "19-precedence-bulk.eml",
        "20-x-autoreply.eml",
        "21-outlook-out-of-office.eml",
        "22-bounce-dsn.eml",
        "23-postmaster.eml",
        "24-mailing-list.eml",
        "29-reply-to-error.eml",
        "36-from-gateway.eml",
    ] {
        let got = handle_message(&world.service, &corpus(file), &config()).await.expect(file);
        assert!(got.is_none(), "{file} was answered: {got:?}");
    }
    // Without a command but from a player's registered address: the player
    // is told how to write one, never left to think a move was made.
    let got = handle_message(&world.service, &corpus("28-no-command.eml"), &config()).await.unwrap();
    let got = got.expect("a player's mail without a command is answered");
    assert!(got.body.starts_with("No command was found in your message."), "{}", got.body);
    let stranger =
        String::from_utf8(corpus("28-no-command.eml")).unwrap().replace("ted@example.org", "zed@example.org");
    let got = handle_message(&world.service, stranger.as_bytes(), &config()).await.unwrap();
    assert!(got.is_none(), "a stranger's mail without a command was answered: {got:?}");
    assert_eq!(world.version(1).await, version, "the vacation mail's move was not made");
    assert_eq!(
        world.service.mailroom().outbox(10).await.unwrap().len(),
        9,
        "only the set-up's notifications"
    );
    // A message that answers the gateway's mail but holds no command gets a reply.
    let raw = mail("ted@example.org", "Re: DNA Board 1 ned", "Nice.\n").to_vec();
    let raw = String::from_utf8(raw).unwrap().replacen(
        "Message-ID:",
        "In-Reply-To: <tabula.0123456789abcdef0123456789abcdef@example.org>\r\nMessage-ID:",
        1,
    );
    assert_eq!(reply(&world, raw.as_bytes()).await.subject, "Tabula error");
}

#[tokio::test]
async fn messages_without_a_command_or_with_too_many_get_a_tabula_error() {
    let world = World::new().await;
    world.seed_game().await;
    // A reply to a board mail without a command is answered; mail that answers nothing is not (spam).
    let r = reply(&world, &corpus("40-empty-reply.eml")).await;
    assert_eq!(r.subject, "Tabula error");
    assert!(r.body.starts_with("No command was found in your message."), "{}", r.body);
    let r = reply(&world, &corpus("38-too-many-commands.eml")).await;
    assert_eq!(r.subject, "Tabula error");
    assert!(r.body.contains("25 command lines; at most 20 are run"), "{}", r.body);
    let small = MailConfig { max_message_bytes: 4096, ..config() };
    let e = handle_message(&world.service, &corpus("25-attachment-oversized.eml"), &small).await.unwrap_err();
    assert!(matches!(e, MailError::TooLarge { limit: 4096, .. }), "{e}");
}

#[tokio::test]
async fn signup_by_mail_and_answers_to_reply_to() {
    let world = World::new().await;
    world.seed_game().await;
    let r = reply(&world, &corpus("34-signup.eml")).await;
    assert_eq!(r.subject, "Welcome to Tabula");
    assert!(r.body.starts_with("Welcome to Tabula\n\nWelcome, amy."), "{}", r.body);
    assert!(!r.body.contains("pw-amy"));
    assert!(!r.body.contains("comment"), "a greeting with an account command is no comment: {}", r.body);
    assert!(world.service.user("amy").await.unwrap().is_some());
    let r = reply(&world, &corpus("30-reply-to-header.eml")).await;
    assert_eq!(r.to, "ned.home@example.net");
    assert_eq!(r.subject, "DNA Board 1 ned");
}

#[tokio::test]
async fn html_outlook_and_charsets_play_moves() {
    let world = World::new().await;
    world.seed_game().await;
    // HTML only, from a web mail: ned tries TTG (illegal in the first round).
    let r = reply(&world, &corpus("05-html-only.eml")).await;
    assert_eq!(r.subject, "DNA error");
    assert!(r.body.contains("TTG would remove 2 chunks from jed"), "{}", r.body);
    // ISO-8859-1, quoted-printable: CAT is legal for ned.
    let r = reply(&world, &corpus("10-iso-8859-1.eml")).await;
    assert_eq!(r.subject, "DNA Board 1 ted", "{}", r.body);
    let note =
        world.outbox().await.into_iter().rev().find(|r| r.message.body.contains("Comment from")).unwrap();
    assert!(note.message.body.contains("très bien joué, Jürgen grüßt!"), "{}", note.message.body);
}

#[tokio::test]
async fn a_redelivered_message_runs_its_commands_once_and_is_answered_once() {
    let world = World::new().await;
    world.seed_game().await;
    let raw = corpus("01-subject-command-plain.eml");
    let first = reply(&world, &raw).await;
    assert_eq!(first.subject, "DNA Board 1 ted");
    enqueue_reply(&world.service, &first).await.unwrap();
    let after_first = world.outbox().await.len();
    // The mail server delivers it again (a timeout, a restart): nothing runs,
    // no second reply, no second comment.
    assert_eq!(handle_message(&world.service, &raw, &config()).await.unwrap(), None);
    assert_eq!(world.outbox().await.len(), after_first);
    let shown = world.run("dna show 1").await;
    assert!(shown.contains("It is ted's turn."), "{shown}");
    let replies = world.outbox().await.into_iter().filter(|r| r.message.key == first.key).count();
    assert_eq!(replies, 1);
}

#[tokio::test]
async fn a_message_whose_handling_was_cut_short_is_handled_on_its_next_delivery() {
    let world = World::new().await;
    world.seed_game().await;
    let raw = corpus("30-reply-to-header.eml");
    // The message's key, as another database answering it shows.
    let probe = World::new().await;
    probe.seed_game().await;
    let probed = reply(&probe, &raw).await.key;
    let key = probed.trim_start_matches("reply:");
    assert!(key.starts_with("replyto-30@example.org "), "{key}");
    let now = world.service.now();
    // Claimed long ago by a process that died before answering.
    assert!(world.service.mailroom().claim_incoming(key, now - 3_600_000, 0).await.unwrap());
    let r = reply(&world, &raw).await;
    assert_eq!(r.key, format!("reply:{key}"));
    enqueue_reply(&world.service, &r).await.unwrap();
    // Being handled right now by another process: the second delivery waits its turn.
    let raw = mail("Ned <ned@example.org>", "dna show 1", "");
    let fresh = handle_message(&world.service, &raw, &config()).await.unwrap().expect("answered");
    assert!(
        !world
            .service
            .mailroom()
            .claim_incoming(fresh.key.trim_start_matches("reply:"), now, now - 1000)
            .await
            .unwrap()
    );
    // Finished messages are never claimed again, however old.
    assert!(!world.service.mailroom().claim_incoming(key, now + 86_400_000, now + 86_400_000).await.unwrap());
}

#[tokio::test]
async fn the_rendered_reply_is_a_proper_threaded_message() {
    let world = World::new().await;
    world.seed_game().await;
    let raw =
        mail("Søren <ned@example.org>", "Re: DNA Board 1 ned", "dna move 1 ned pw-ned AAG\n\nGrüße — ☺\n");
    let mut r = reply(&world, &raw).await;
    r.subject = "DNA Board 1 ted — Grüße".into();
    r.references.insert(0, "older@example.org".into());
    let bytes = r.to_rfc5322("Tabula <tabula@example.org>").unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(text.is_ascii(), "headers and body are encoded:\n{text}");
    for header in [
        "Date: ",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Auto-Submitted: auto-replied",
    ] {
        assert!(text.contains(header), "{header} missing:\n{text}");
    }
    let parsed = MessageParser::default().parse(&bytes[..]).expect("parses");
    assert_eq!(parsed.subject(), Some("DNA Board 1 ted — Grüße"));
    assert_eq!(parsed.message_id(), Some(r.message_id.as_str()));
    assert_eq!(parsed.in_reply_to().as_text(), r.in_reply_to.as_deref());
    let refs = match parsed.references() {
        HeaderValue::TextList(l) => l.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        HeaderValue::Text(t) => vec![t.to_string()],
        other => panic!("references: {other:?}"),
    };
    assert_eq!(refs, r.references);
    assert_eq!(parsed.to().and_then(|a| a.first()).and_then(|a| a.address()), Some("ned@example.org"));
    let from = parsed.from().and_then(|a| a.first()).unwrap();
    assert_eq!((from.name(), from.address()), (Some("Tabula"), Some("tabula@example.org")));
    assert_eq!(parsed.body_text(0).unwrap().replace("\r\n", "\n"), r.body);
    assert!(r.body.contains("Your comment went to the other players"));
    assert!(!text.contains("pw-ned"));
    assert!(matches!(r.to_rfc5322("not an address"), Err(MailError::Build(_))));
}

#[test]
fn control_characters_never_reach_a_mail_body() {
    let r = OutgoingMail {
        to: "ned@example.org".into(),
        subject: "DNA Board 1 chat from ted".into(),
        in_reply_to: None,
        references: Vec::new(),
        board: None,
        body: "ted writes:\n\nhi\0 there\u{1b}[2J\u{202e}olleh\ttab\n".into(),
        message_id: "nul-test@example.org".into(),
        key: "reply:nul-test@example.org".into(),
    };
    let bytes = r.to_rfc5322("Tabula <tabula@example.org>").unwrap();
    let parsed = MessageParser::default().parse(&bytes[..]).expect("parses");
    let body = parsed.body_text(0).unwrap().replace("\r\n", "\n");
    assert_eq!(body, "ted writes:\n\nhi there[2Jolleh\ttab\n");
    assert!(!bytes.contains(&0) && !bytes.contains(&0x1b), "raw control bytes in the message");
}
