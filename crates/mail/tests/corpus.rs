//! Every message of the corpus (`tests/corpus/*.eml`, in the shapes real
//! mail programs send) read as the gateway reads it: the commands it runs,
//! the comment it passes on, or why it is not answered at all.

use std::path::PathBuf;

use tabula_mail::{Ignored, MailConfig, MailError, read_message};

const NED: &str = "TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG";

enum Expect {
    /// Commands in order and the comment.
    Read(&'static [&'static str], &'static str),
    /// The comment and the number of commands (all `dna show 1`).
    Many(usize),
    /// Not answered.
    Skip(Ignored),
    /// Refused under a limit of this many bytes (read normally under the default).
    TooLarge(usize),
}

struct Case {
    file: &'static str,
    expect: Expect,
    reply_to: &'static str,
}

fn case(file: &'static str, reply_to: &'static str, expect: Expect) -> Case {
    Case { file, expect, reply_to }
}

fn cases() -> Vec<Case> {
    use Expect::*;
    let ned = "ned@example.org";
    let ted = "ted@example.org";
    let jed = "jed@example.org";
    let seq: &'static str = Box::leak(format!("dna move 1 ned pw-ned {NED}").into_boxed_str());
    let seq: &'static [&'static str] = Box::leak(vec![seq].into_boxed_slice());
    vec![
        case(
            "01-subject-command-plain.eml",
            ned,
            Read(&["dna move 1 ned pw-ned AAG"], "Take that, neighbourinos!"),
        ),
        case(
            "02-thunderbird-top-posted.eml",
            ned,
            Read(&["dna move 1 ned pw-ned AAG"], "That one hurts, I know."),
        ),
        case(
            "03-thunderbird-flowed-bottom-posted.eml",
            ted,
            Read(
                &["dna move 1 ted pw-ted TTC"],
                "I have been thinking about this move for a long time and I am quite sure that it is the best one on the board. Your turn, jed.",
            ),
        ),
        case("04-gmail-alternative.eml", jed, Read(&["dna move 1 jed pw-jed GCC"], "Sorry for the wait!")),
        case("05-html-only.eml", ned, Read(&["dna move 1 ned pw-ned TTG"], "Let us see.\n\nNed")),
        case(
            "06-outlook-html-windows-1252.eml",
            ted,
            Read(&["dna move 1 ted pw-ted CGC"], "Good game so far \u{2013} thanks all."),
        ),
        case("07-outlook-original-message.eml", jed, Read(&["dna move 1 jed pw-jed ATT"], "")),
        case(
            "08-quoted-printable-soft-breaks.eml",
            ned,
            Read(seq, "My sequence, finally \u{2014} took me a while."),
        ),
        case("09-base64-body.eml", ted, Read(&["dna show 1", "dna history 1"], "Just looking.")),
        case(
            "10-iso-8859-1.eml",
            ned,
            Read(
                &["dna move 1 ned pw-ned CAT"],
                "Très bien joué - non, pardon: très bien joué, Jürgen grüßt!",
            ),
        ),
        case(
            "11-utf8-encoded-words-8bit.eml",
            ted,
            Read(&["dna move 1 ted pw-ted TCA"], "Καλή τύχη! 幸運を祈ります。\nSøren"),
        ),
        case(
            "12-windows-1252-quotes.eml",
            jed,
            Read(&["dna move 1 jed pw-jed GAT"], "\u{201c}Nice\u{201d} move \u{2013} isn\u{2019}t it?"),
        ),
        case("13-signature.eml", ned, Read(&["dna move 1 ned pw-ned GTA"], "Okily dokily.")),
        case("14-apple-mail-iphone.eml", ted, Read(&["dna move 1 ted pw-ted AGA"], "Cheers")),
        case(
            "15-several-commands.eml",
            jed,
            Read(
                &["dna show 1", "dna move 1 jed pw-jed TAT", "dna history 1"],
                "Three at once.\nSecond line of the comment.",
            ),
        ),
        case("16-subject-and-body-same.eml", ned, Read(&["dna move 1 ned pw-ned AAG"], "Once, please.")),
        case("17-unquoted-previous-board.eml", ted, Read(&["dna move 1 ted pw-ted GCG"], "Here goes.")),
        case("18-auto-submitted-vacation.eml", ned, Skip(Ignored::AutoSubmitted("auto-replied".into()))),
        case("19-precedence-bulk.eml", "news@example.com", Skip(Ignored::Precedence("bulk".into()))),
        case("20-x-autoreply.eml", ted, Skip(Ignored::AutoReplyHeader("X-Autoreply".into()))),
        case(
            "21-outlook-out-of-office.eml",
            jed,
            Skip(Ignored::AutoReplyHeader("X-Auto-Response-Suppress".into())),
        ),
        case("22-bounce-dsn.eml", "", Skip(Ignored::Bounce("empty return path".into()))),
        case("23-postmaster.eml", "", Skip(Ignored::Bounce("sent by postmaster".into()))),
        case("24-mailing-list.eml", "amy@example.org", Skip(Ignored::MailingList)),
        case("25-attachment-oversized.eml", ned, TooLarge(4096)),
        case("26-german-outlook.eml", jed, Read(&["dna show 1"], "Schöne Grüße")),
        case("27-french-attribution.eml", ned, Read(&["dna history 1"], "Merci !")),
        case("28-no-command.eml", ted, Skip(Ignored::NoCommand)),
        case("29-reply-to-error.eml", ted, Skip(Ignored::ErrorReplyWithoutCommand)),
        case("30-reply-to-header.eml", "ned.home@example.net", Read(&["dna show 1"], "")),
        case(
            "31-interleaved-reply.eml",
            jed,
            Read(&["dna move 1 jed pw-jed TCG"], "This one removes two of mine, but it is worth it."),
        ),
        case("32-forwarded.eml", ned, Read(&["dna show 1"], "What do you make of this?")),
        case("33-whitespace-oddities.eml", ted, Read(&["dna move 1 ted pw-ted GGA"], "ok")),
        case(
            "34-signup.eml",
            "amy@example.org",
            Read(&["signup amy pw-amy amy@example.org"], "Hello! New here."),
        ),
        case("35-mixed-with-attachment.eml", jed, Read(&["dna show 1"], "See the attached notes.")),
        case("36-from-gateway.eml", "tabula@example.org", Skip(Ignored::FromGateway)),
        case("37-iso-2022-jp.eml", ned, Read(&["dna show 1"], "よろしくお願いします")),
        case("38-too-many-commands.eml", ned, Many(25)),
        case(
            "39-yahoo-html-base64.eml",
            ted,
            Read(&["dna move 1 ted pw-ted CTT"], "Good luck to all of us."),
        ),
        case("40-empty-reply.eml", ned, Read(&[], "")),
    ]
}

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn config() -> MailConfig {
    MailConfig { address: "tabula@example.org".into(), ..MailConfig::default() }
}

#[test]
fn every_corpus_message_is_read_as_expected() {
    let cases = cases();
    let mut failures = Vec::new();
    for c in &cases {
        let raw = std::fs::read(corpus_dir().join(c.file)).unwrap_or_else(|e| panic!("{}: {e}", c.file));
        let got = read_message(&raw, &config());
        let problem = match (&c.expect, got) {
            (Expect::Read(commands, comment), Ok(m)) => {
                let want: Vec<String> = commands.iter().map(|s| s.to_string()).collect();
                if m.ignored.is_some() {
                    Some(format!("ignored: {:?}", m.ignored))
                } else if m.commands != want || m.comment != *comment {
                    Some(format!("commands {:?}\n  comment {:?}", m.commands, m.comment))
                } else if m.reply_to.as_deref() != Some(c.reply_to) {
                    Some(format!("reply to {:?}", m.reply_to))
                } else {
                    None
                }
            }
            (Expect::Many(n), Ok(m)) => (m.commands.len() != *n
                || m.commands.iter().any(|c| c != "dna show 1")
                || m.ignored.is_some())
            .then(|| format!("commands {:?}", m.commands)),
            (Expect::Skip(reason), Ok(m)) => {
                (m.ignored.as_ref() != Some(reason)).then(|| format!("ignored {:?}", m.ignored))
            }
            (Expect::Read(..) | Expect::Many(_) | Expect::Skip(_), Err(e)) => Some(format!("failed: {e}")),
            (Expect::TooLarge(limit), got) => {
                let small = MailConfig { max_message_bytes: *limit, ..config() };
                match (read_message(&raw, &small), got) {
                    (Err(MailError::TooLarge { size, limit: l }), Ok(m))
                        if size == raw.len() && l == *limit && m.commands == ["dna show 1"] =>
                    {
                        None
                    }
                    (small, full) => Some(format!("under {limit}: {small:?}; under the default: {full:?}")),
                }
            }
        };
        if let Some(p) = problem {
            failures.push(format!("{}: {p}", c.file));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} corpus messages wrong:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn the_corpus_is_large_and_every_file_has_an_expectation() {
    let mut files: Vec<String> = std::fs::read_dir(corpus_dir())
        .expect("corpus directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".eml"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = cases().iter().map(|c| c.file.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
    assert!(files.len() >= 30, "only {} corpus messages", files.len());
}

#[test]
fn garbage_and_empty_input_are_errors_not_panics() {
    assert!(matches!(read_message(b"", &config()), Err(MailError::Unreadable)));
    assert!(matches!(read_message(b"\x00\x01\x02 not a message", &config()), Err(MailError::Unreadable)));
    let big = vec![b'a'; config().max_message_bytes + 1];
    assert!(matches!(read_message(&big, &config()), Err(MailError::TooLarge { .. })));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000)) {
        let _ = read_message(&raw, &config());
    }

    #[test]
    fn damaged_corpus_messages_never_panic(
        file in 0usize..40,
        cuts in proptest::collection::vec((0usize..10_000, proptest::prelude::any::<u8>()), 1..20),
        truncate in 0usize..10_000,
    ) {
        let mut names: Vec<_> = std::fs::read_dir(corpus_dir()).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        let mut raw = std::fs::read(&names[file % names.len()]).unwrap();
        for (at, byte) in cuts {
            if !raw.is_empty() {
                let i = at % raw.len();
                raw[i] = byte;
            }
        }
        raw.truncate(truncate.max(1));
        if let Ok(m) = read_message(&raw, &config()) {
            // Commands, or one line meant as a command and mistyped (answered with what was not understood).
            let games = tabula_service::Service::game_words();
            proptest::prop_assert!(
                m.commands.len() <= 1 || m.commands.iter().all(|c| tabula_mail::looks_like_command(c, &games))
            );
        }
    }
}
