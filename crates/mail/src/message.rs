//! Reading an incoming message: who sent it, where the answer goes, what it
//! asks for, and whether it must not be answered at all.

use mail_parser::{HeaderValue, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};
use tabula_model::Lang;
use tabula_service::{Service, command};

use crate::text::{self, Split};
use crate::{MailConfig, MailError};

/// Why a message gets no answer (mail loops, bounces and list mail).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// `Auto-Submitted` other than `no` (RFC 3834): an auto-reply or a
    /// machine's message.
    AutoSubmitted(String),
    /// `Precedence: bulk`, `junk` or `list`.
    Precedence(String),
    /// An auto-reply marker of a mail program (`X-Auto-Response-Suppress`,
    /// `X-Autoreply`, `X-Autorespond`, `X-Auto-Reply`, Exchange's
    /// `X-MS-Exchange-Generated-Message-Source`); the header's name.
    AutoReplyHeader(String),
    /// The subject of an out-of-office or other automatic answer
    /// (`Out of Office: …`, `Automatic reply: …`); the phrase found.
    AutoReplySubject(String),
    /// A bounce or delivery report (empty return path, mailer daemon or
    /// postmaster sender, `multipart/report`); why it is one.
    Bounce(String),
    /// Mail from a mailing list (`List-Id`).
    MailingList,
    /// Mail from the gateway's own address.
    FromGateway,
    /// No `From` or `Reply-To` address an answer could go to.
    NoReplyAddress,
    /// An answer to one of the gateway's error replies that holds no
    /// command: answering it could start a loop with a program that answers
    /// everything.
    ErrorReplyWithoutCommand,
    /// No command, and not an answer to the gateway's mail: most likely
    /// spam, whose forged sender must not receive an error reply.
    NoCommand,
}

impl std::fmt::Display for Ignored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ignored::AutoSubmitted(v) => write!(f, "Auto-Submitted: {v}"),
            Ignored::Precedence(v) => write!(f, "Precedence: {v}"),
            Ignored::AutoReplyHeader(h) => write!(f, "auto-reply header {h}"),
            Ignored::AutoReplySubject(p) => write!(f, "auto-reply subject ({p})"),
            Ignored::Bounce(why) => write!(f, "bounce ({why})"),
            Ignored::MailingList => f.write_str("mailing list mail"),
            Ignored::FromGateway => f.write_str("mail from the gateway itself"),
            Ignored::NoReplyAddress => f.write_str("no address to reply to"),
            Ignored::ErrorReplyWithoutCommand => f.write_str("a reply to an error reply without a command"),
            Ignored::NoCommand => f.write_str("no command and not an answer to the gateway's mail"),
        }
    }
}

/// An incoming message as the gateway reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// The `From` address.
    pub from: Option<String>,
    /// Where the answer goes: `Reply-To`, else `From` (a checked address).
    pub reply_to: Option<String>,
    /// The decoded subject.
    pub subject: String,
    /// The `Message-ID`, without angle brackets.
    pub message_id: Option<String>,
    /// The `References`, without angle brackets, oldest first.
    pub references: Vec<String>,
    /// The commands to run in order: the subject's first (if it is one),
    /// then the command lines at the top of the body.
    pub commands: Vec<String>,
    /// The new text after the commands: the comment for the other players.
    pub comment: String,
    /// Set when the message must not be answered.
    pub ignored: Option<Ignored>,
    /// SHA-256 of the raw message in hex (names a message without `Message-ID`).
    pub digest: String,
}

/// Read `raw` as the gateway does, without running anything.
///
/// # Errors
///
/// [`MailError::TooLarge`] over [`MailConfig::max_message_bytes`],
/// [`MailError::Unreadable`] if the bytes are not a message.
pub fn read_message(raw: &[u8], config: &MailConfig) -> Result<Incoming, MailError> {
    if raw.len() > config.max_message_bytes {
        return Err(MailError::TooLarge { size: raw.len(), limit: config.max_message_bytes });
    }
    let message = MessageParser::default().parse(raw).ok_or(MailError::Unreadable)?;
    // The parser takes anything; a message has at least one well-formed header field.
    let field_name = |n: &str| !n.is_empty() && n.bytes().all(|b| (33..=126).contains(&b) && b != b':');
    if !message.headers().iter().any(|h| field_name(h.name())) {
        return Err(MailError::Unreadable);
    }
    let digest = hex::encode(Sha256::digest(raw));
    let from = message.from().and_then(|a| a.first()).and_then(|a| a.address()).map(str::to_string);
    let reply_to = message
        .reply_to()
        .and_then(|a| a.first())
        .and_then(|a| a.address())
        .or(from.as_deref())
        .and_then(|a| tabula_service::users::check_email(a.trim()).ok())
        // A reply can only be sent to an ASCII address (no SMTPUTF8 relay is
        // assumed) that the mail builder accepts (domain labels of at most 63
        // characters, among others).
        .filter(|a| a.is_ascii() && a.parse::<lettre::Address>().is_ok());
    let subject = message.subject().unwrap_or("").trim().to_string();
    let message_id = message.message_id().map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let ids = |value: &HeaderValue<'_>| match value {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(list) => list.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    };
    let references = ids(message.references());
    // Whether the message answers mail of the gateway (whose ids are
    // `tabula.…@domain`), and whether one of its error replies (`tabula.error.…`).
    let gateway_ids: Vec<String> = ids(message.in_reply_to())
        .into_iter()
        .chain(references.iter().cloned())
        .filter(|id| id.starts_with("tabula.") && id.ends_with(&format!("@{}", config.domain())))
        .collect();
    let answers_gateway = !gateway_ids.is_empty();
    let answers_error = gateway_ids.iter().any(|id| id.starts_with(crate::relay::ERROR_ID_PREFIX));

    let mut incoming = Incoming {
        from: from.clone(),
        reply_to,
        subject,
        message_id,
        references,
        commands: Vec::new(),
        comment: String::new(),
        ignored: None,
        digest,
    };
    incoming.ignored = loop_marker(&message, from.as_deref(), config);
    if incoming.ignored.is_none() && incoming.reply_to.is_none() {
        incoming.ignored = Some(Ignored::NoReplyAddress);
    }
    if incoming.ignored.is_some() {
        return Ok(incoming);
    }

    let games = Service::game_words();
    // Every language's titles: a reply may quote a mail in any of them.
    let titles = || -> Vec<&'static str> {
        tabula_games::all().iter().flat_map(|k| Lang::ALL.map(|lang| k.info().title(lang))).collect()
    };
    let body = body_text(&message);
    let mut lines = text::new_text(&body, &titles);
    // "Hi Tabula," on the first line: the commands may follow it.
    if let Some(first) = lines.iter().position(|l| !l.trim().is_empty())
        && is_greeting(&lines[first])
        && !text::split_commands(&lines[first + 1..], &games).commands.is_empty()
    {
        lines.drain(..=first);
    }
    let Split { commands: body_commands, comment } = text::split_commands(&lines, &games);
    let subject = text::strip_subject_prefixes(&incoming.subject);
    let mut commands = Vec::new();
    if text::looks_like_command(subject, &games) {
        commands.push(subject.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    let mut body_commands = body_commands.into_iter().peekable();
    // The same command in the subject and on the first line is meant once.
    if let (Some(from_subject), Some(first)) = (commands.first(), body_commands.peek())
        && from_subject.eq_ignore_ascii_case(first)
    {
        body_commands.next();
    }
    commands.extend(body_commands);
    if commands.is_empty() {
        // A command mistyped (`dna mvoe ...`, `chess move ...`, `resign ...`)
        // is run as written, so that the reply names the word not understood.
        let first_line = lines.iter().map(|l| l.trim()).find(|l| !l.is_empty() && !is_greeting(l));
        if let Some(attempt) =
            [Some(subject), first_line].into_iter().flatten().find(|l| is_attempt(l, &games))
        {
            commands.push(attempt.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    incoming.commands = commands;
    incoming.comment = comment;
    if incoming.commands.is_empty() {
        if answers_error || is_error_subject(subject, &titles()) {
            incoming.ignored = Some(Ignored::ErrorReplyWithoutCommand);
        } else if !answers_gateway {
            incoming.ignored = Some(Ignored::NoCommand);
        }
    }
    Ok(incoming)
}

/// Whether `line` is meant as a command although it is not one: it starts
/// with a game word or a command word (the grammar's, mistyped or not), or
/// its second word is a command word (`chess move 3 ...`).
fn is_attempt(line: &str, games: &[&str]) -> bool {
    let words: Vec<String> = line.split_whitespace().take(2).map(|w| w.to_ascii_lowercase()).collect();
    let Some(first) = words.first() else { return false };
    // The subjects of Tabula's own mails (`DNA Board 1 ned`, `DNA error`) answered.
    if words.get(1).is_some_and(|w| {
        w == "error" || w == "games" || text::board_words().iter().any(|b| b.to_lowercase() == *w)
    }) {
        return false;
    }
    games.contains(&first.as_str())
        || command::is_command_word(first)
        || words.get(1).is_some_and(|w| {
            command::is_command_word(w) && !w.is_empty() && first.chars().all(|c| c.is_ascii_alphanumeric())
        })
}

/// A greeting line: `Hi Tabula,`, `Hello!`, `Dear Tabula,`.
fn is_greeting(line: &str) -> bool {
    let line = line.trim();
    let first = line.split([' ', ',', '!']).next().unwrap_or("").to_ascii_lowercase();
    line.split_whitespace().count() <= 4
        && (line.ends_with(',') || line.ends_with('!') || line.split_whitespace().count() <= 2)
        && ["hi", "hello", "hey", "dear", "hallo", "bonjour", "moin", "greetings", "salut", "hola"]
            .contains(&first.as_str())
}

/// `DNA error` or `Tabula error` (`DNA: virhe` ...): the subject of the
/// gateway's own error replies, in any language.
fn is_error_subject(subject: &str, titles: &[&str]) -> bool {
    crate::relay::error_suffixes().iter().any(|suffix| {
        subject.strip_suffix(suffix.as_str()).is_some_and(|head| {
            head.eq_ignore_ascii_case("Tabula") || titles.iter().any(|t| t.eq_ignore_ascii_case(head))
        })
    })
}

/// Local parts of addresses that belong to machines, never to players.
const MACHINE_SENDERS: &[&str] = &[
    "mailer-daemon",
    "postmaster",
    "noreply",
    "no-reply",
    "donotreply",
    "do-not-reply",
    "bounce",
    "bounces",
];

fn loop_marker(
    message: &mail_parser::Message<'_>,
    from: Option<&str>,
    config: &MailConfig,
) -> Option<Ignored> {
    let raw = |name: &str| message.header_raw(name).map(|v| v.trim().to_string());
    if let Some(v) = raw("Return-Path")
        && v.trim_matches(|c: char| c == '<' || c == '>' || c.is_whitespace()).is_empty()
    {
        return Some(Ignored::Bounce("empty return path".into()));
    }
    if let Some(addr) = from {
        let local = addr.split('@').next().unwrap_or("").to_ascii_lowercase();
        if MACHINE_SENDERS.contains(&local.as_str()) || local.starts_with("mailer-daemon") {
            return Some(Ignored::Bounce(format!("sent by {local}")));
        }
        if addr.eq_ignore_ascii_case(&config.address) {
            return Some(Ignored::FromGateway);
        }
    }
    for part in &message.parts {
        if let Some(ct) = part.content_type() {
            let ctype = ct.ctype().to_ascii_lowercase();
            let sub = ct.subtype().unwrap_or("").to_ascii_lowercase();
            if ctype == "multipart" && sub == "report" {
                return Some(Ignored::Bounce("multipart/report".into()));
            }
            if ctype == "message" && (sub == "delivery-status" || sub == "disposition-notification") {
                return Some(Ignored::Bounce(format!("message/{sub}")));
            }
        }
    }
    if let Some(v) = raw("Auto-Submitted") {
        let value = v.split([';', '(']).next().unwrap_or("").trim().to_ascii_lowercase();
        if value != "no" {
            return Some(Ignored::AutoSubmitted(value));
        }
    }
    if let Some(v) = raw("Precedence") {
        let value = v.to_ascii_lowercase();
        if matches!(value.as_str(), "bulk" | "junk" | "list" | "auto_reply") {
            return Some(Ignored::Precedence(value));
        }
    }
    for name in [
        "X-Auto-Response-Suppress",
        "X-Autoreply",
        "X-Autorespond",
        "X-Auto-Reply",
        "X-Autoreply-From",
        "X-Mail-Autoreply",
        "X-MS-Exchange-Generated-Message-Source",
        "X-MS-Exchange-Inbox-Rules-Loop",
    ] {
        if message.header_raw(name).is_some() {
            return Some(Ignored::AutoReplyHeader(name.to_string()));
        }
    }
    if message.header_raw("List-Id").is_some() {
        return Some(Ignored::MailingList);
    }
    auto_reply_subject(message.subject().unwrap_or("")).map(|p| Ignored::AutoReplySubject(p.to_string()))
}

/// Subjects that out-of-office and other answering programs start theirs
/// with, in the languages of the common mail programs (lower case).
const AUTO_REPLY_PHRASES: &[&str] = &[
    "out of office",
    "out of the office",
    "automatic reply",
    "auto reply",
    "auto-reply",
    "autoreply",
    "auto response",
    "auto-response",
    "autoresponse",
    "auto",
    "away",
    "on vacation",
    "vacation",
    "on leave",
    "absence",
    "abwesenheit",
    "abwesenheitsnotiz",
    "abwesend",
    "automatische antwort",
    "réponse automatique",
    "reponse automatique",
    "absent",
    "respuesta automática",
    "respuesta automatica",
    "fuera de la oficina",
    "risposta automatica",
    "fuori ufficio",
    "resposta automática",
    "resposta automatica",
    "ausente",
    "automatisch antwoord",
    "afwezig",
    "autosvar",
    "automaattinen vastaus",
    "automatyczna odpowiedź",
    "nieobecność",
];

/// The phrase of an auto-reply subject: one of [`AUTO_REPLY_PHRASES`],
/// after any reply prefixes (`AW: Abwesend: …`), followed by a colon or
/// making up the whole subject. The colon keeps commands (`vacation ned PASSWORD 7`) and
/// sentences that merely start with such a word apart.
fn auto_reply_subject(subject: &str) -> Option<&'static str> {
    let lower = text::strip_subject_prefixes(subject).to_lowercase();
    AUTO_REPLY_PHRASES.iter().copied().find(|p| {
        lower.strip_prefix(*p).is_some_and(|after| {
            let after = after.trim_start();
            after.is_empty() || after.starts_with(':')
        })
    })
}

/// The body as plain text: the text/plain parts, or the HTML converted
/// when a message has no plain text.
fn body_text(message: &mail_parser::Message<'_>) -> String {
    let mut out = String::new();
    let ids: Vec<u32> =
        if message.text_body.is_empty() { message.html_body.clone() } else { message.text_body.clone() };
    for id in ids {
        let Some(part) = message.parts.get(id as usize) else { continue };
        let text = match &part.body {
            PartType::Text(t) => {
                let ct = part.content_type();
                let flowed =
                    ct.and_then(|c| c.attribute("format")).is_some_and(|f| f.eq_ignore_ascii_case("flowed"));
                if flowed {
                    let delsp =
                        ct.and_then(|c| c.attribute("delsp")).is_some_and(|d| d.eq_ignore_ascii_case("yes"));
                    text::unflow(t, delsp)
                } else {
                    t.replace("\r\n", "\n")
                }
            }
            PartType::Html(h) => crate::html::html_to_text(h),
            _ => continue,
        };
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&text);
    }
    out
}
