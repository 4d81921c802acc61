//! Mail loops, played through real SMTP: Tabula's listener takes the
//! messages, its relay hands every answer to an outside mail server, and
//! an answering program replies to whatever arrives, as out-of-office
//! programs do. However the program writes, it gets at most one answer;
//! every address has a budget of error replies an hour; the common
//! auto-reply headers are never answered.

mod common;

use common::{Gateway, Got, mail_with};

/// ned moves on board 1: ted (who is away) gets the notification.
async fn table() -> (Gateway, Got) {
    let mut g = Gateway::start().await;
    g.world.seed_game().await;
    g.deliver().await;
    let (player, nomination) = common::next_move(&g.world, 1).await.expect("a move");
    assert_eq!(player, "ned");
    g.world.run(&format!("dna move 1 ned pw-ned {nomination}")).await;
    let got = g.deliver().await;
    let notice = got.into_iter().find(|m| m.to == "ted@example.org").expect("ted is told");
    (g, notice)
}

/// An answering program without any auto-reply header: each mail that
/// reaches ted is answered with `subject(original)`, threaded to it, for
/// up to ten rounds. Returns how many of Tabula's mails answered it.
async fn answering_program(subject: fn(&str) -> String) -> usize {
    let (mut g, notice) = table().await;
    let mut answers = 0;
    let mut last = notice;
    for _ in 0..10 {
        let raw = mail_with(
            "",
            "Ted <ted@example.org>",
            &subject(&last.subject),
            Some(&last.message_id),
            "I am away until Monday and will read your message when I am back.\n",
        );
        g.send_raw("ted@example.org", raw).await;
        let got = g.deliver().await;
        assert!(got.iter().all(|m| m.to == "ted@example.org"), "{got:#?}");
        let Some(answer) = got.into_iter().next() else { break };
        answers += 1;
        last = answer;
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_out_of_office_subject_is_never_answered() {
    for prefix in ["Out of Office", "Automatic reply", "Abwesend", "Réponse automatique", "AUTO"] {
        let answers = answering_program(match prefix {
            "Out of Office" => |s| format!("Out of Office: {s}"),
            "Automatic reply" => |s| format!("Automatic reply: {s}"),
            "Abwesend" => |s| format!("AW: Abwesend: {s}"),
            "Réponse automatique" => |s| format!("Réponse automatique : {s}"),
            _ => |s| format!("AUTO: {s}"),
        })
        .await;
        assert_eq!(answers, 0, "{prefix}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_program_that_answers_with_its_own_subject_gets_one_answer_at_most() {
    // Neither headers nor a known subject: the answer to the notification
    // gets one error reply, and the answer to that error reply none.
    let answers = answering_program(|s| format!("Thank you for your message ({s})")).await;
    assert_eq!(answers, 1);
    let answers = answering_program(|s| format!("Re: {s}")).await;
    assert_eq!(answers, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_reply_headers_are_never_answered() {
    let (mut g, notice) = table().await;
    for header in [
        "Auto-Submitted: auto-replied\r\n",
        "X-Autoreply: yes\r\n",
        "X-Autorespond: Ted is away\r\n",
        "X-MS-Exchange-Generated-Message-Source: Mailbox Rules Agent\r\n",
        "X-MS-Exchange-Inbox-Rules-Loop: ted@example.org\r\n",
        "Precedence: auto_reply\r\n",
    ] {
        let raw = mail_with(
            header,
            "ted@example.org",
            &format!("Re: {}", notice.subject),
            Some(&notice.message_id),
            "Away.\n",
        );
        g.send_raw("ted@example.org", raw).await;
        assert!(g.deliver().await.is_empty(), "answered despite {header}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_gets_a_limited_number_of_error_replies_an_hour() {
    let (mut g, notice) = table().await;
    let mut errors = 0;
    for i in 0..15 {
        // Each answers the notification (not an error reply) and holds no
        // command; the address's case changes nothing to its budget.
        let from = if i % 2 == 1 { "TED@Example.ORG" } else { "ted@example.org" };
        let raw = mail_with(
            "",
            from,
            &format!("Re: {}", notice.subject),
            Some(&notice.message_id),
            &format!("Nice move ({i})!\n"),
        );
        g.send_raw("ted@example.org", raw).await;
        let got = g.deliver().await;
        errors += got.iter().filter(|m| m.subject == "Tabula error").count();
        assert!(got.iter().all(|m| m.subject == "Tabula error"), "{got:#?}");
    }
    assert_eq!(errors, common::config().error_replies_per_hour as usize);
    // A command is still answered: only error replies are rationed.
    let raw = mail_with("", "ted@example.org", "dna show 1", None, "");
    g.send_raw("ted@example.org", raw).await;
    let got = g.deliver().await;
    assert_eq!(got.len(), 1, "{got:#?}");
    assert!(got[0].subject.starts_with("DNA Board 1"), "{}", got[0].subject);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mistyped_and_unknown_commands_are_answered_naming_the_word() {
    let (mut g, _) = table().await;
    for (from, subject, body, word) in [
        ("ted", "dna mvoe 1 ted pw-ted GTG", "", "unknown command \"mvoe\": did you mean \"move\"?"),
        ("ted", "sigunp ted pw-ted", "", "unknown command \"sigunp\": did you mean \"signup\"?"),
        ("ted", "chess move 3 ted pw-ted e4", "", "\"chess\""),
        // The reply's own words stay, although the line held them too.
        ("ted", "resign all my games", "", "unknown command \"resign\": the games are dna"),
        // The password where the user id goes comes back lower-cased in
        // the error ("there is no user ..."): masked all the same.
        ("ted", "dna move 1 PW-TED ted GTG", "", "there is no user ********"),
        // No command that Tabula can find: a player's registered address
        // is told so, in any case of its letters; a stranger is not
        // answered (spam-like).
        (
            "TED",
            "Hello",
            "Hi Tabula,\nplease dna mvoe 1 ted pw-ted GTG\n",
            "No command was found in your message",
        ),
        ("stranger", "Hello", "Hi Tabula,\nplease dna mvoe 1 ted pw-ted GTG\n", ""),
    ] {
        let from = format!("{from}@example.org");
        let raw = mail_with("", &from, subject, None, body);
        g.send_raw(&from, raw).await;
        let got = g.deliver().await;
        if word.is_empty() {
            assert!(got.is_empty(), "{got:#?}");
            continue;
        }
        assert_eq!(got.len(), 1, "{subject}: {got:#?}");
        assert!(got[0].body.contains(word), "{subject}: {}", got[0].body);
        assert!(!got[0].body.to_ascii_lowercase().contains("pw-ted"), "{}", got[0].body);
    }
    // A command on the line after a greeting is run.
    let version = g.world.version(1).await;
    let (player, nomination) = common::next_move(&g.world, 1).await.expect("a move");
    let raw = mail_with(
        "",
        &format!("{player}@example.org"),
        "My move",
        None,
        &format!("Hi Tabula,\ndna move 1 {player} pw-{player} {nomination}\n\nCheers\n"),
    );
    g.send_raw(&format!("{player}@example.org"), raw).await;
    g.deliver().await;
    assert_eq!(g.world.version(1).await, version + 1, "the move after the greeting was played");
}
