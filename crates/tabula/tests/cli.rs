//! The `tabula` command line as a user drives it: the DNA worked example,
//! every rejection path, usage errors, passwords, help.

mod common;

use common::Tabula;

const NED: &str = "TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG";
const TED: &str = "TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT";
const JED: &str = "GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG";

fn dna_game(t: &Tabula) {
    t.signup(&["ned", "ted", "jed"]);
    let out = t.ok("dna challenge -manual ned ted jed");
    assert!(out.starts_with("DNA Board 1 ned ted jed\n"), "{out}");
    t.ok(&format!("dna move 1 ned pw-ned {NED}"));
    t.ok(&format!("dna move 1 ted pw-ted {TED}"));
    let out = t.ok(&format!("dna move 1 jed pw-jed {JED}"));
    assert!(out.starts_with("DNA Board 1 ned\n\nIt is ned's turn.\n"), "{out}");
}

#[test]
fn dna_worked_example_through_the_cli() {
    let t = Tabula::new();
    dna_game(&t);
    let err = t.fails("dna move 1 ned pw-ned TTG", 1);
    assert!(err.contains("TTG would remove 2 chunks from jed"), "{err}");
    assert!(err.contains("first round"), "{err}");
    let out = t.ok("dna move 1 ned pw-ned AAG");
    assert!(out.starts_with("DNA Board 1 ted\n\nIt is ted's turn.\n"), "{out}");
    assert!(
        out.ends_with(
            "ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG\n\
         ted (33): TCAGCGCGTTCCCGGAGTCGTCGTATTAGGGAT\n\
         jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG\n"
        ),
        "{out}"
    );
    t.ok("dna move 1 ted pw-ted TTC");
    let out = t.ok("dna show 1");
    assert!(
        out.ends_with(
            "ned (27): TCGCATGTACATTAATCGCCTTGAGAG\n\
         ted (30): TCAGCGCGCCGGAGTCGTCGTATTAGGGAT\n\
         jed (33): GCCAATTATGGACTTGTTGTCAGATAGTCGGCG\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("   4. ned: AAG (ned 1, ted 1, jed 0)\n   5. ted: TTC (ned 2, ted 1, jed 1)\n"),
        "{out}"
    );
    // The board as it was after move 4.
    let past = t.ok("dna show 1#4");
    assert!(past.starts_with("DNA Board 1 at move 4\n"), "{past}");
    assert!(past.contains("ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG"), "{past}");
}

#[test]
fn secrets_stay_hidden_until_every_sequence_is_set() {
    let t = Tabula::new();
    t.signup(&["ned", "ted", "jed"]);
    t.ok("dna challenge -manual ned ted jed");
    t.ok(&format!("dna move 1 ned pw-ned {NED}"));
    for line in [
        "dna show 1",
        "dna showas 1 ted pw-ted",
        "dna history 1",
        "--json dna show 1",
        "--json dna showas 1 jed pw-jed",
    ] {
        let out = t.ok(line);
        assert!(!out.contains(NED), "`{line}` shows ned's secret:\n{out}");
    }
    assert!(t.ok("dna showas 1 ned pw-ned").contains(NED));
}

#[test]
fn rejections_are_clear_exit_1_and_change_nothing() {
    let t = Tabula::new();
    dna_game(&t);
    let before = t.json("dna show 1");
    let cases = [
        ("dna move 1 ned wrongpw AAG", "wrong password for ned"),
        ("dna move 1 ted pw-ted AAG", "it is not your turn; it is ned's turn"),
        ("dna move 9 ned pw-ned AAG", "there is no board 9"),
        ("dna move 1 ned pw-ned AXG", "letters"),
        ("dna move 1 ned pw-ned AAG#3", "meant as move 3"),
        ("dna move 1 bob pw-bob AAG", "there is no user bob"),
        ("dna challenge ned ted -lenght=3", "unknown option -lenght for DNA"),
        ("dna challenge ned ted -length=1", "-length: must be between"),
        ("dna challenge ned", "DNA needs 2 to 8 players"),
        ("dna challenge ned ted bob", "there is no user bob"),
        ("intervalo move 1 ned pw-ned 3", "board 1 is a dna game"),
    ];
    for (line, expected) in cases {
        let err = t.fails(line, 1);
        assert!(err.contains(expected), "`{line}`: expected {expected:?} in {err:?}");
    }
    t.signup(&["bob"]);
    let err = t.fails("dna move 1 bob pw-bob AAG", 1);
    assert!(err.contains("bob is not a player of board 1"), "{err}");
    let after = t.json("dna show 1");
    assert_eq!(before, after, "a rejected command changed the board");
}

#[test]
fn json_rejections_carry_a_stable_code() {
    let t = Tabula::new();
    dna_game(&t);
    let out = t.run("--json dna move 1 ted pw-ted AAG");
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["error"]["code"], "not_your_turn");
    let v = t.json("dna show 1");
    assert_eq!(v["ok"], true);
    assert_eq!(v["game"]["to_move"][0], "ned");
    assert!(v["game"]["view"].is_object());
}

#[test]
fn bad_usage_exits_2() {
    let t = Tabula::new();
    t.fails("", 2);
    t.fails("dna move 1 ned", 2);
    t.fails("--frobnicate list", 2);
    t.fails("--now yesterday list", 2);
    let err = t.fails("dna show x", 2);
    assert!(err.contains("not a board number"), "{err}");
}

#[test]
fn passwords_never_reach_the_database_or_replies() {
    let t = Tabula::new();
    t.ok("signup ned Sup3rSecretPw ned@example.org");
    t.ok("signup ted An0therSecret ted@example.org");
    t.ok("dna challenge ned ted");
    let replies = [
        t.ok("dna showas 1 ned Sup3rSecretPw"),
        t.ok("dna history 1"),
        t.ok("--json dna showas 1 ted An0therSecret"),
    ];
    t.fails("dna move 1 ned Sup3rSecretPwX AAA", 1);
    t.ok("change password ned Sup3rSecretPw N3wSecretPw");
    for r in &replies {
        assert!(!r.contains("Sup3rSecret") && !r.contains("An0therSecret"), "{r}");
    }
    for entry in std::fs::read_dir(t.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for secret in ["Sup3rSecretPw", "An0therSecret", "N3wSecretPw"] {
            assert!(!text.contains(secret), "the password {secret} is in the database files");
        }
    }
    t.fails("dna showas 1 ned Sup3rSecretPw", 1);
    t.ok("dna showas 1 ned N3wSecretPw");
}

#[test]
fn ids_are_case_insensitive_and_cannot_be_confused() {
    let t = Tabula::new();
    t.ok("signup Ned pw-ned");
    let err = t.fails("signup ned other", 1);
    assert!(err.contains("the user id ned is taken"), "{err}");
    t.ok("signup ted pw-ted");
    let out = t.ok("dna challenge NED Ted");
    assert!(out.contains("It is ned's turn."), "{out}");
    t.ok("dna showas 1 NeD pw-ned");
}

#[test]
fn help_teaches_the_system() {
    let t = Tabula::new();
    let help = t.ok("help");
    for needle in [
        "signup USERID PASSWORD",
        "GAME challenge",
        "GAME move BOARD USERID PASSWORD MOVE[#MOVENO]",
        "dna",
        "help GAME",
    ] {
        assert!(help.contains(needle), "help lacks {needle:?}");
    }
    let dna = t.ok("help dna");
    for needle in [
        "-length=N",
        "-chunk=N",
        "-min_chunk=N",
        "-max_chunk=N",
        "-base=N",
        "-manual",
        "-non_incremental",
        "-need_not_own",
        "-no_reduce_self",
        "-reduce_next",
        "dna move",
        "default 36",
    ] {
        assert!(dna.contains(needle), "help dna lacks {needle:?}:\n{dna}");
    }
    let list = t.ok("list");
    assert!(list.contains("dna") && list.contains("intervalo"), "{list}");
}

#[test]
fn proposals_undo_and_resignation() {
    let t = Tabula::new();
    dna_game(&t);
    t.ok("dna move 1 ned pw-ned AAG");
    t.ok("dna move 1 ted pw-ted undo");
    let out = t.ok("dna show 1");
    assert!(out.contains("ted proposes to take back the last move; waiting for ned and jed"), "{out}");
    t.ok("dna move 1 ned pw-ned accept");
    let out = t.ok("dna move 1 jed pw-jed accept");
    assert!(out.contains("It is ned's turn."), "{out}");
    assert!(out.contains(&format!("ned (36): {NED}")), "{out}");
    t.ok("dna move 1 ned pw-ned propose");
    t.ok("dna move 1 ted pw-ted reject");
    t.ok("dna move 1 ned pw-ned resign");
    t.ok("dna move 1 ted pw-ted resign");
    let out = t.ok("dna show 1");
    assert!(out.starts_with("DNA Board 1 over\n\nGame won by jed"), "{out}");
    let v = t.json("dna games jed inactive");
    assert_eq!(v["data"][0]["id"], 1);
    let standings = t.ok("dna standings");
    assert!(standings.contains("jed") && standings.contains("ned"), "{standings}");
    let ratings = t.ok("dna ratings");
    assert!(ratings.lines().nth(3).unwrap_or("").starts_with("jed"), "{ratings}");
}

#[test]
fn notifications_go_to_the_outbox_with_the_readers_view() {
    let t = Tabula::new();
    t.signup(&["ned", "ted", "jed"]);
    t.ok("dna challenge -manual ned ted jed");
    t.ok(&format!("dna move 1 ned pw-ned {NED}"));
    let outbox = t.ok("outbox --limit 100");
    assert!(outbox.contains("to ted@example.org"), "{outbox}");
    // ted's copy of ned's move must not contain ned's secret sequence.
    for block in
        outbox.split("\n#").filter(|b| b.contains("to ted@example.org") || b.contains("to jed@example.org"))
    {
        assert!(!block.contains(NED), "a notification leaks ned's sequence:\n{block}");
    }
    let rows: serde_json::Value = serde_json::from_str(&t.ok("outbox --json --limit 100")).unwrap();
    let keys: Vec<&str> =
        rows.as_array().unwrap().iter().map(|r| r["message"]["key"].as_str().unwrap()).collect();
    let mut dedup = keys.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(keys.len(), dedup.len(), "idempotency keys repeat");
}

#[test]
fn queue_submit_confirm_preview_chat_subscribe() {
    let t = Tabula::new();
    dna_game(&t);
    t.signup(&["amy"]);
    t.ok("dna queue 1 ted pw-ted TTC");
    let out = t.ok("dna preview 1 AAG");
    assert!(out.contains("Preview (nothing is played): AAG"), "{out}");
    assert!(out.contains("ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG"), "{out}");
    assert!(t.ok("dna show 1").contains(&format!("ned (36): {NED}")));
    let out = t.ok("dna submit 1 ned pw-ned AAG");
    assert!(out.contains("Submitted, not yet played: AAG"), "{out}");
    // Confirming plays AAG; ted's queued TTC is then played at once.
    let out = t.ok("dna confirm 1 ned pw-ned");
    assert!(out.contains("5. ted: TTC (ned 2, ted 1, jed 1)"), "{out}");
    assert!(out.contains("It is jed's turn."), "{out}");
    t.fails("dna confirm 1 ned pw-ned", 1);
    t.ok("dna subscribe 1 amy pw-amy");
    t.ok("dna chat 1 jed pw-jed good luck everyone");
    let outbox = t.ok("outbox --limit 200");
    assert!(outbox.contains("Subject: DNA Board 1 chat from jed"), "{outbox}");
    assert!(outbox.contains("to amy@example.org"), "{outbox}");
    assert!(t.ok("dna history 1").contains("[chat] jed: good luck everyone"));
}

#[test]
fn challenge_policy_ask_waits_for_acceptance() {
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    t.ok("policy ted pw-ted ask");
    let out = t.ok("dna challenge ned ted");
    assert!(out.contains("This challenge waits for ted to accept it."), "{out}");
    let err = t.fails("dna move 1 ned pw-ned AAA", 1);
    assert!(err.contains("waits for ted to accept"), "{err}");
    let out = t.ok("dna accept 1 ted pw-ted");
    assert!(out.contains("It is ned's turn."), "{out}");
    t.ok("dna challenge ned ted");
    let out = t.ok("dna reject 2 ted pw-ted");
    assert!(out.contains("cancelled"), "{out}");
    t.ok("limit ted pw-ted 1");
    let err = t.fails("dna challenge ned ted", 1);
    assert!(err.contains("accepts no more"), "{err}");
}

#[test]
fn dna_calculator() {
    let t = Tabula::new();
    assert_eq!(t.ok("dna remove TAAGAAGCGCCT AGC"), "TAT\nremoved 3\n");
    assert_eq!(t.ok("dna remove --json AACACACA ACA"), "{\"sequence\": \"AC\", \"removed\": 2}\n");
    let trace = t.ok("dna remove --trace TAAGAAGCGCCT AGC");
    assert!(trace.contains("pass 1: TAAGA[AGC]GCCT"), "{trace}");
    t.fails("dna remove ACGT", 2);
    let out = t.command(&["dna", "remove", "ACGT", ""]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn reminders_warnings_and_forfeits_by_the_clock() {
    let mut t = Tabula::new();
    t.now = Some("2026-01-01T00:00:00Z".into());
    t.signup(&["ned", "ted", "jed"]);
    t.ok("dna challenge ned ted -nag=2d -forfeit=5d");
    t.now = Some("2026-01-02T00:00:00Z".into());
    assert!(t.ok("cron").contains("0 reminders"));
    t.now = Some("2026-01-03T01:00:00Z".into());
    assert!(t.ok("cron").contains("1 reminders"));
    let again = t.ok("cron");
    assert!(again.contains("0 reminders"), "a reminder queued already is not counted again: {again}");
    let outbox = t.ok("outbox");
    assert_eq!(
        outbox.matches("Subject: DNA Board 1 ned: your move").count(),
        1,
        "one reminder, however often cron runs:\n{outbox}"
    );
    // jed is on vacation: its clock restarts when the vacation ends.
    t.ok("dna challenge jed ted -nag=2d -forfeit=5d");
    t.ok("vacation jed pw-jed 10");
    t.now = Some("2026-01-05T01:00:00Z".into());
    assert!(t.ok("cron").contains("1 forfeit warnings"));
    t.now = Some("2026-01-06T01:00:00Z".into());
    let report = t.ok("cron");
    assert!(report.contains("1 forfeits"), "{report}");
    let board = t.ok("dna show 1");
    assert!(board.contains("Game won by ted"), "{board}");
    assert!(board.contains("forfeited: no move in 5 days"), "{board}");
    let board2 = t.ok("dna show 2");
    assert!(board2.contains("It is jed's turn."), "jed on vacation keeps the game: {board2}");

    // Limits in hours read in hours, not "0 days".
    t.ok("dna challenge ted ned -forfeit=3h");
    t.now = Some("2026-01-06T03:00:00Z".into());
    assert!(t.ok("cron").contains("1 forfeit warnings"));
    let outbox = t.ok("outbox");
    assert!(outbox.contains("Subject: DNA Board 3 ted: forfeit in 1 hour"), "{outbox}");
    assert!(outbox.contains("You have not moved on DNA board 3 for 2 hours."), "{outbox}");
    // The warning went out half an hour late: its notice of an hour and a half still runs.
    t.now = Some("2026-01-06T04:00:00Z".into());
    assert!(t.ok("cron").contains("0 forfeits"));
    t.now = Some("2026-01-06T04:30:00Z".into());
    assert!(t.ok("cron").contains("1 forfeits"));
    let board3 = t.ok("dna show 3");
    assert!(board3.contains("forfeited: no move in 3 hours"), "{board3}");
}

#[test]
fn a_move_by_email_through_tabula_mail() {
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    let message = "From: Ned <ned@example.org>\r\nTo: tabula@localhost\r\nSubject: dna challenge ned ted\r\nMessage-ID: <m1@example.org>\r\n\r\nGood luck!\r\n";
    let mut child = t
        .command(&["mail", "--reply-to-stdout"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(message.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let reply = String::from_utf8(out.stdout).unwrap();
    assert!(reply.contains("Subject: DNA Board 1 ned"), "{reply}");
    assert!(reply.contains("In-Reply-To: <m1@example.org>"), "{reply}");
    // Without --reply-to-stdout the reply waits in the outbox; an auto-reply is never answered.
    let auto =
        "From: ted@example.org\r\nAuto-Submitted: auto-replied\r\nSubject: dna show 1\r\n\r\nI am away.\r\n";
    let mut child = t.command(&["mail"]).stdin(std::process::Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(auto.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    assert!(!t.ok("outbox").contains("I am away"));
}

/// What a mail server's pipe transport sees: a message that cannot be read
/// is bounced (65), one that could not be handled is kept and delivered
/// again later (75), never bounced with a player's move in it.
#[test]
fn mail_exit_status_tells_the_mail_server_to_bounce_or_to_retry() {
    use std::io::Write;
    let t = Tabula::new();
    let pipe = |db: &std::path::Path, message: &[u8]| {
        let mut child = std::process::Command::new(common::BIN)
            .arg("--db")
            .arg(db)
            .arg("mail")
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(message).unwrap();
        child.wait_with_output().unwrap()
    };
    let move_mail = b"From: ned@example.org\r\nSubject: dna move 1 ned pw-ned AAG\r\n\r\n";
    // The database's folder does not exist: a passing outage for the mail server.
    let out = pipe(&t.path().join("gone").join("tabula.db"), move_mail);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(75), "{stderr}");
    assert!(stderr.contains("delivered again later"), "{stderr}");
    assert!(!stderr.contains("pw-ned"), "{stderr}");
    // Too large: bounced, after reading it all (the write above never
    // meets a closed pipe) and telling its real size.
    let out = pipe(&t.db, &vec![b'x'; 300 * 1024]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(65), "{stderr}");
    assert!(stderr.contains("the message has 307200 bytes; at most 262144 are accepted"), "{stderr}");
}

/// `tabula` run in `dir` with no `--db`: what a user types.
fn bare(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(common::BIN).current_dir(dir).args(args).output().expect("tabula runs")
}

#[test]
fn global_options_go_before_or_after_the_command_with_either_spelling() {
    let mut t = Tabula::new();
    t.db = t.path().join("games.db");
    let db = t.db.to_str().unwrap();
    let run = |args: &[&str]| bare(t.path(), args);
    assert!(run(&["signup", "ned", "pw-ned", "--db", db]).status.success());
    assert!(run(&[&format!("--db={db}"), "signup", "ted", "pw-ted"]).status.success());
    assert!(
        run(&["dna", "challenge", "ned", "ted", &format!("--db={db}"), "--now", "2026-01-01T00:00:00Z"])
            .status
            .success()
    );
    let out = run(&["dna", "show", "1", "--db", db, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json after the words");
    assert_eq!(v["game"]["players"], serde_json::json!(["ned", "ted"]));
    // `--` ends the options: a word after it is a word, and here a move.
    let out = run(&["dna", "move", "1", "ned", "pw-ned", "--db", db, "--", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--json"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = t.fails("dna show 1 --now yesterday", 2);
    assert!(err.contains("RFC 3339"), "{err}");
    // The server's own commands take them after their word too.
    let out = run(&[
        "tournament",
        "--db",
        db,
        "--game",
        "intervalo",
        "--bot",
        "random",
        "--bot",
        "random",
        "--games-per-pair",
        "2",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = run(&["worker", "--db", db, "--exit-when-idle"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs the shared PostgreSQL database"));
    let out = run(&["outbox", "--db", db, "--json", "--limit=5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap().is_array());
    assert!(!t.path().join("tabula.db").exists(), "every command used the --db given");
}

#[test]
fn a_rewrite_move_that_looks_like_an_option_is_a_game_command() {
    let t = Tabula::new();
    let err = t.fails("rewrite move 1 ned pw --start=>x", 1);
    assert!(err.contains("there is no user ned"), "{err}");
    let err = t.fails("rewrite --start x rules.txt", 2);
    assert!(err.contains("tabula rewrite run --help"), "{err}");
}

#[test]
fn every_command_has_help_and_help_needs_no_database() {
    let dir = tempfile::tempdir().unwrap();
    let out = bare(dir.path(), &["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let commands: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    for expected in [
        "serve",
        "mail",
        "outbox",
        "cron",
        "backup",
        "tournament",
        "worker",
        "life",
        "signup",
        "help",
        "dna",
        "rtlife",
    ] {
        assert!(commands.iter().any(|c| c == expected), "`tabula --help` lists no {expected}:\n{help}");
    }
    let mut lines: Vec<Vec<String>> = commands.iter().map(|c| vec![c.clone(), "--help".into()]).collect();
    for extra in [
        &["life", "run", "--help"][..],
        &["dna", "remove", "--help"],
        &["rewrite", "run", "--help"],
        &["dna", "move", "--help"],
        &["-h"],
    ] {
        lines.push(extra.iter().map(|w| w.to_string()).collect());
    }
    for words in &lines {
        let out = bare(dir.path(), &words.iter().map(String::as_str).collect::<Vec<_>>());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "`tabula {}` failed: {}",
            words.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.lines().count() >= 3, "`tabula {}` says too little:\n{text}", words.join(" "));
    }
    let serve = String::from_utf8(bare(dir.path(), &["serve", "--help"]).stdout).unwrap();
    for option in [
        "--listen <ADDR>",
        "--smtp <ADDR>",
        "--relay <RELAY>",
        "--relay-ca <FILE>",
        "--relay-password-file <FILE>",
        "--log-format <FORMAT>",
        "--db <DB>",
    ] {
        assert!(serve.contains(option), "serve --help lacks {option}:\n{serve}");
    }
    // Commands that read nothing stored leave no database behind.
    for words in [
        &["help"][..],
        &["help", "dna"],
        &["list"],
        &["dna", "help"],
        &["--version"],
        &["dna", "remove", "TAAGAAGCGCCT", "AGC"],
        &["nonsense", "words"],
        &["dna", "show", "x"],
    ] {
        let out = bare(dir.path(), words);
        assert!(out.status.code().is_some(), "`tabula {}` did not exit", words.join(" "));
    }
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "commands without a database left {left:?}");
}

#[test]
fn serve_says_where_it_serves_and_logs_plain_text_off_a_terminal() {
    use std::io::{BufRead, Read};
    let t = Tabula::new();
    let db = t.db.to_str().unwrap().to_string();
    for listen in [vec!["--listen", "127.0.0.1:0"], vec!["--listen=127.0.0.1:0"]] {
        let mut child = std::process::Command::new(common::BIN)
            .arg("serve")
            .args(&listen)
            .args(["--db", &db])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let address = first
            .strip_prefix("Tabula is serving on http://")
            .and_then(|rest| rest.trim_end().strip_suffix('/'))
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        let addr: std::net::SocketAddr = address.parse().unwrap();
        assert_ne!(addr.port(), 0);
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        use std::io::Write;
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        terminate(&child);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "the server stops cleanly on SIGTERM");
        let logs = String::from_utf8(out.stderr).unwrap();
        assert!(logs.contains("serving"), "{logs}");
        assert!(!logs.contains('\u{1b}'), "colour codes in logs written to a pipe:\n{logs}");
    }
}

/// Ask a child to stop as a service manager would.
fn terminate(child: &std::process::Child) {
    let status =
        std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

#[test]
fn json_logs_for_collectors_and_the_smtp_address() {
    use std::io::{BufRead, Read};
    let t = Tabula::new();
    let mut child = t
        .command(&["serve", "--listen", "127.0.0.1:0", "--log-format", "json", "--smtp=127.0.0.1:0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let (mut first, mut second) = (String::new(), String::new());
    stdout.read_line(&mut first).unwrap();
    stdout.read_line(&mut second).unwrap();
    assert!(first.starts_with("Tabula is serving on http://127.0.0.1:"), "{first}");
    // The second line names the SMTP listener's real port, which greets.
    let smtp: std::net::SocketAddr = second
        .strip_prefix("Tabula receives mail over SMTP on ")
        .map(str::trim_end)
        .unwrap_or_else(|| panic!("no SMTP address in {second:?}"))
        .parse()
        .unwrap();
    assert_ne!(smtp.port(), 0);
    let mut greeting = [0u8; 3];
    std::net::TcpStream::connect(smtp).unwrap().read_exact(&mut greeting).unwrap();
    assert_eq!(&greeting, b"220");
    // SIGTERM right after the banner: the server has its handlers by then.
    terminate(&child);
    let out = child.wait_with_output().unwrap();
    let logs = String::from_utf8(out.stderr).unwrap();
    assert!(
        out.status.success(),
        "a SIGTERM right after the banner stops the server cleanly: {:?}\n{logs}",
        out.status
    );
    let lines: Vec<serde_json::Value> =
        logs.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect();
    assert!(lines.iter().any(|l| l["message"] == "serving" && l["level"] == "INFO"), "{logs}");
    // Mail taken in with nothing to send the answers is said at the start, not found out later.
    assert!(
        lines
            .iter()
            .any(|l| l["level"] == "WARN" && l["message"].as_str().is_some_and(|m| m.contains("no --relay"))),
        "{logs}"
    );
}

#[test]
fn a_seed_deals_the_same_game_and_is_kept_in_the_record() {
    let deal = || {
        let t = Tabula::new();
        t.signup(&["ned", "ted"]);
        t.ok("dna challenge ned ted -seed=42");
        let v = t.json("dna showas 1 ned pw-ned");
        (t, v)
    };
    let ((_a, first), (b, second)) = (deal(), deal());
    assert_eq!(first["game"]["view"], second["game"]["view"], "the same seed, the same sequences");
    assert!(first["game"]["options"].as_array().unwrap().iter().any(|o| o == "-seed=42"), "{first}");
    b.ok("dna challenge ned ted -seed=43");
    assert_ne!(b.json("dna showas 2 ned pw-ned")["game"]["view"], first["game"]["view"]);
    let err = b.fails("dna challenge ned ted -seed=-1", 1);
    assert!(err.contains("-seed"), "{err}");
}

#[test]
fn a_chosen_seed_is_refused_where_a_draw_would_be_hidden() {
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    // With a known seed, ted could work out the sequence ned has drawn with
    // `random` before it is shown, or a bot's secret choice.
    for line in [
        "dna challenge ned ted -manual -seed=5",
        "intervalo challenge ned ted -seed=5",
        "rewrite challenge ned ted -seed=5",
        "intervalo challenge ned bot:random -seed=5",
    ] {
        let err = t.fails(line, 1);
        assert!(
            err.contains("-seed cannot be used here") && err.contains("leave -seed out"),
            "{line}: {err}"
        );
    }
    // Games that deal everything face up keep their seed; the refused
    // challenges made no game.
    assert_eq!(t.json("dna challenge ned ted -seed=5")["game"]["id"], 1);
    t.ok("conway challenge ned ted -seed=5");
    t.ok("intervalo challenge ned ted");
    // The option's help says what it does and where it is refused.
    let help = t.ok("help dna");
    assert!(help.contains("-seed") && help.contains("refused in a game that hides moves"), "{help}");
}

/// A move on the command line and one by mail check their passwords in
/// 2 MiB pages where the system has them: a check fills 7 MiB of fresh
/// memory (argon2's blocks), about 1,800 page faults in 4 KiB pages
/// (docs/benchmarks/server.md, "Huge pages only for the password check").
/// Page faults counted by GNU time.
#[test]
fn moves_check_their_passwords_in_huge_pages() {
    let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
    if !setting.contains("[always]") && !setting.contains("[madvise]") {
        eprintln!("this system gives no process huge pages ({}); nothing to check", setting.trim());
        return;
    }
    let t = Tabula::new();
    t.signup(&["ned", "ted"]);
    t.ok("intervalo challenge ned ted");
    let message = "From: ted <ted@example.org>\r\nTo: tabula@example.org\r\n\
                   Subject: intervalo move 1 ted pw-ted 4\r\nMessage-ID: <faults@example.org>\r\n\r\n";
    for (words, input, printed) in [
        (&["intervalo", "move", "1", "ned", "pw-ned", "3"][..], "", "ned chooses cell 3"),
        (&["mail", "--reply-to-stdout"][..], message, "ted chooses cell 4"),
    ] {
        let report = t.path().join("faults.txt");
        let command = t.command(words);
        let mut timed = std::process::Command::new("/usr/bin/time");
        timed.args(["-f", "%R", "-o"]).arg(&report).arg(command.get_program()).args(command.get_args());
        for (key, value) in command.get_envs() {
            match value {
                Some(value) => timed.env(key, value),
                None => timed.env_remove(key),
            };
        }
        let mut child = timed
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("GNU time (Debian package `time`) runs");
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains(printed), "{words:?}: {text}");
        let faults: u64 =
            std::fs::read_to_string(&report).unwrap().trim().parse().expect("a count of page faults");
        assert!(faults < 1_500, "{words:?}: {faults} page faults for a move");
    }
}
