//! Reading the text of a message as pbmserv's players wrote it: the command
//! in the subject or on the first lines, then a comment; everything quoted
//! from earlier mail, attributions, signatures and copies of earlier boards
//! left out.

use tabula_i18n::t;
use tabula_model::Lang;
use tabula_service::command::GAME_VERBS;

/// Reply and forward prefixes of mail programs in many languages.
const SUBJECT_PREFIXES: &[&str] = &[
    "re", "fw", "fwd", "aw", "wg", "sv", "vs", "antw", "antwort", "r", "rif", "i", "tr", "ref", "réf", "odp",
    "res", "enc", "vá", "ynt", "atb", "rv", "fs", "doorst", "trs", "vb", "bls",
];

/// Whether `line` reads as a command of the command language (rather than
/// as the first line of a comment). `games` are the game words.
pub fn looks_like_command(line: &str, games: &[&str]) -> bool {
    let words: Vec<&str> = line.split_whitespace().take(4).collect();
    let Some(first) = words.first() else { return false };
    let first = first.to_ascii_lowercase();
    let second = words.get(1).map(|w| w.to_ascii_lowercase());
    let n = line.split_whitespace().count();
    match first.as_str() {
        "help" => n <= 2,
        "list" => n == 1,
        "signup" | "register" => n >= 3,
        "change" => n >= 4 && matches!(second.as_deref(), Some("password" | "address")),
        "signoff" => n == 3,
        "notify" | "vacation" | "limit" | "policy" | "language" => n == 4,
        game if games.contains(&game) => {
            let Some(verb) = second else { return false };
            if !GAME_VERBS.contains(&verb.as_str()) {
                return false;
            }
            // `DNA games of ned (active)` is the subject of a reply, not a command.
            !(verb == "games" && words.get(2).is_some_and(|w| w.eq_ignore_ascii_case("of")))
        }
        _ => false,
    }
}

/// The subject without reply and forward prefixes (`Re: AW: Fwd[2]: x` → `x`).
pub fn strip_subject_prefixes(subject: &str) -> &str {
    let mut s = subject.trim();
    loop {
        let Some(colon) = s.find(':') else { return s };
        if colon > 12 {
            return s;
        }
        let prefix = s[..colon].trim();
        // Counters such as `Re[2]` or `Re(3)`.
        let prefix = prefix.split(['[', '(']).next().unwrap_or(prefix).trim();
        if !SUBJECT_PREFIXES.iter().any(|p| p.eq_ignore_ascii_case(prefix) || *p == prefix.to_lowercase()) {
            return s;
        }
        s = s[colon + 1..].trim_start();
    }
}

/// Undo `format=flowed` (RFC 3676): soft-broken lines are joined again.
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let depth = raw.bytes().take_while(|&b| b == b'>').count();
        let mut content = &raw[depth..];
        content = content.strip_prefix(' ').unwrap_or(content);
        let flowed = content.ends_with(' ') && content != "-- ";
        let piece = if flowed && delsp { &content[..content.len() - 1] } else { content };
        match &mut open {
            Some((d, acc)) if *d == depth => acc.push_str(piece),
            _ => {
                if let Some((d, acc)) = open.take() {
                    out.push(quoted(d, &acc));
                }
                open = Some((depth, piece.to_string()));
            }
        }
        if !flowed && let Some((d, acc)) = open.take() {
            out.push(quoted(d, &acc));
        }
    }
    if let Some((d, acc)) = open.take() {
        out.push(quoted(d, &acc));
    }
    out.join("\n")
}

fn quoted(depth: usize, content: &str) -> String {
    if depth == 0 { content.to_string() } else { format!("{} {content}", ">".repeat(depth)) }
}

/// Characters that mail programs put in text but that mean nothing here.
fn clean_line(line: &str) -> String {
    line.chars()
        .filter(|c| !matches!(c, '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}' | '\r'))
        .map(|c| if matches!(c, '\u{a0}' | '\u{202f}' | '\u{2007}' | '\t') { ' ' } else { c })
        .collect::<String>()
        .trim_end()
        .to_string()
}

fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// Endings of attribution lines (`On ... wrote:`) in the languages mail programs use.
const ATTRIBUTION_ENDINGS: &[&str] = &[
    "wrote:",
    "writes:",
    "schrieb:",
    "a écrit :",
    "a écrit:",
    "escribió:",
    "ha scritto:",
    "skrev:",
    "kirjoitti:",
    "napisał:",
    "schreef:",
    "escreveu:",
    "írta:",
    "wrote :",
];

/// Starts of the first line of an attribution a mail program wrapped in two.
const ATTRIBUTION_STARTS: &[&str] = &["On ", "Am ", "Le ", "El ", "Il ", "Den ", "Op ", "Em ", "W dniu "];

fn is_attribution(line: &str) -> bool {
    let l = line.trim().to_lowercase();
    ATTRIBUTION_ENDINGS.iter().any(|e| l.ends_with(e)) && l.len() < 400
}

/// A line after which everything is an earlier message, a signature or a
/// forwarded copy, never new text.
fn is_cut_line(lines: &[String], i: usize, titles: Titles<'_>) -> bool {
    let line = lines[i].trim();
    if line == "--" || lines[i] == "-- " {
        return true;
    }
    let lower = line.to_lowercase();
    // `-----Original Message-----`, `---------- Forwarded message ---------` and their translations.
    if line.len() >= 8 && line.starts_with("--") && line.ends_with("--") {
        let inner = line.trim_matches('-').trim();
        if !inner.is_empty() && inner.chars().any(char::is_alphabetic) {
            return true;
        }
    }
    if lower.starts_with("begin forwarded message") {
        return true;
    }
    // Outlook's separator before the copied headers.
    if line.len() >= 10 && line.chars().all(|c| c == '_') {
        return true;
    }
    // Outlook's copied headers: `From: ...` then `Sent:`/`Date:`/`To:` right below.
    const FROM: &[&str] = &["from:", "von:", "de :", "de:", "da:", "van:", "från:", "fra:", "od:"];
    const NEXT: &[&str] = &[
        "sent:",
        "date:",
        "to:",
        "gesendet:",
        "datum:",
        "an:",
        "envoyé :",
        "envoyé:",
        "à :",
        "enviado:",
        "para:",
        "inviato:",
        "verzonden:",
        "skickat:",
        "sendt:",
        "wysłano:",
    ];
    if FROM.iter().any(|f| lower.starts_with(f))
        && lines[i + 1..].iter().take(2).any(|n| {
            let n = n.trim().to_lowercase();
            NEXT.iter().any(|p| n.starts_with(p))
        })
    {
        return true;
    }
    // An earlier board reply copied without quoting: its heading or status
    // lines, in any language.
    if Lang::ALL.iter().any(|&lang| {
        let (before, after) = around(lang, "status-turn", "user");
        line == t!(lang, "moves-heading")
            || (line.len() > before.len() + after.len()
                && line.starts_with(&before)
                && line.ends_with(&after))
    }) {
        return true;
    }
    is_board_heading(line, titles)
}

/// The text of the catalogue's message `id` before and after its argument
/// `name` in `lang` (`It is ` and `'s turn.`).
fn around(lang: Lang, id: &str, name: &'static str) -> (String, String) {
    const MARK: &str = "\u{1}";
    let text = tabula_i18n::text(lang, id, &tabula_i18n::Args::new().with(name, MARK));
    match text.split_once(MARK) {
        Some((before, after)) => (before.to_string(), after.to_string()),
        None => (text, String::new()),
    }
}

/// The word each language's board headings put before the board's
/// number (`Board`, `lauta`, `tablero`).
pub(crate) fn board_words() -> Vec<String> {
    Lang::ALL
        .iter()
        .map(|&lang| {
            let text = t!(lang, "heading", game = "\u{1}", board = "\u{2}");
            let inner = text.split('\u{1}').nth(1).unwrap_or("").split('\u{2}').next().unwrap_or("");
            inner.trim().to_string()
        })
        .collect()
}

/// `DNA Board 4 ted` (`DNA lauta 4 ted`): the heading of a board reply.
fn is_board_heading(line: &str, titles: Titles<'_>) -> bool {
    let words = board_words();
    // The shape first, a board word then a number: the games' titles in
    // every language are read (their catalogues parsed) only for a line
    // that may be a heading.
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let numbered = |pair: &[&str]| {
        words.iter().any(|b| b == pair[0])
            && !pair[1].is_empty()
            && pair[1].bytes().all(|b| b.is_ascii_digit())
    };
    if !tokens.windows(2).any(numbered) {
        return false;
    }
    titles().iter().any(|t| {
        line.len() > t.len()
            && line.is_char_boundary(t.len())
            && line[..t.len()].eq_ignore_ascii_case(t)
            && line[t.len()..].strip_prefix(' ').is_some_and(|rest| {
                let mut rest = rest.split_whitespace();
                rest.next().is_some_and(|w| words.iter().any(|b| b == w))
                    && rest.next().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
            })
    })
}

/// Trailers that phones and web mail append without a `-- ` line.
fn is_device_trailer(line: &str) -> bool {
    let l = line.trim();
    l.starts_with("Sent from my ")
        || l.starts_with("Sent from Mail for ")
        || l.starts_with("Get Outlook for ")
        || l.starts_with("Von meinem ")
        || l.starts_with("Envoyé de mon ")
}

/// The games' titles a board's heading may start with, made when first
/// needed.
pub type Titles<'a> = &'a dyn Fn() -> Vec<&'static str>;

/// The new text of a message body: its lines without quoted earlier mail,
/// attributions, signature, forwarded or copied earlier messages.
pub fn new_text(body: &str, titles: Titles<'_>) -> Vec<String> {
    let lines: Vec<String> = body.split('\n').map(clean_line).collect();
    let cut = (0..lines.len()).find(|&i| !is_quoted(&lines[i]) && is_cut_line(&lines, i, titles));
    let lines = &lines[..cut.unwrap_or(lines.len())];
    let mut keep = vec![true; lines.len()];
    for i in 0..lines.len() {
        if is_quoted(&lines[i]) {
            keep[i] = false;
            continue;
        }
        if is_attribution(&lines[i]) {
            let next = lines[i + 1..].iter().find(|l| !l.trim().is_empty());
            if next.is_none_or(|l| is_quoted(l)) {
                keep[i] = false;
                // `On Mon, 1 Jan 2024 at 10:00, Ned <ned@example.org>` / `wrote:`
                if i > 0
                    && keep[i - 1]
                    && !lines[i - 1].trim().is_empty()
                    && ATTRIBUTION_STARTS.iter().any(|s| lines[i - 1].trim_start().starts_with(s))
                    && !ATTRIBUTION_STARTS.iter().any(|s| lines[i].trim_start().starts_with(s))
                {
                    keep[i - 1] = false;
                }
            }
        }
    }
    let mut out: Vec<String> = lines.iter().zip(&keep).filter(|(_, k)| **k).map(|(l, _)| l.clone()).collect();
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    if out.last().is_some_and(|l| is_device_trailer(l)) {
        out.pop();
    }
    out
}

/// The command lines at the top of the new text and the comment after them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Split {
    /// Command lines, trimmed, in order.
    pub commands: Vec<String>,
    /// The rest of the new text (empty if none).
    pub comment: String,
}

/// Split new text into its leading command lines and the comment.
pub fn split_commands(lines: &[String], games: &[&str]) -> Split {
    let mut commands = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.is_empty() {
            i += 1;
            continue;
        }
        if !looks_like_command(line, games) {
            break;
        }
        commands.push(line.split_whitespace().collect::<Vec<_>>().join(" "));
        i += 1;
    }
    Split { commands, comment: tidy_comment(&lines[i..]) }
}

/// Comment lines without leading and trailing blank lines or runs of blank lines.
fn tidy_comment(lines: &[String]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in lines {
        let line = line.trim_end();
        if line.trim().is_empty() {
            if out.last().is_some_and(|l| !l.is_empty()) {
                out.push("");
            }
        } else {
            out.push(line);
        }
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &[&str] = &["dna", "rewrite", "conway"];
    const TITLES: &[&str] = &["DNA", "Rewrite", "Conway"];

    fn lines(s: &str) -> Vec<String> {
        new_text(s, &|| TITLES.to_vec())
    }

    #[test]
    fn commands_and_replies_are_told_apart() {
        for line in [
            "dna move 1 ned pw AAG",
            "DNA move 1 ned pw AAG",
            "Dna show 3",
            "help",
            "help dna",
            "list",
            "signup ned pw ned@example.org",
            "change password ned old new",
            "notify ned pw off",
            "dna games ned",
        ] {
            assert!(looks_like_command(line, GAMES), "{line}");
        }
        for line in [
            "DNA Board 4 ted",
            "DNA error",
            "Tabula error",
            "DNA games of ned (active)",
            "Vacation",
            "Help me, I do not understand the rules",
            "Thanks!",
            "dna",
            "list of moves please",
            "",
        ] {
            assert!(!looks_like_command(line, GAMES), "{line}");
        }
    }

    #[test]
    fn subject_prefixes() {
        assert_eq!(strip_subject_prefixes("Re: AW: Fwd[2]: dna show 1"), "dna show 1");
        assert_eq!(strip_subject_prefixes("RE : Re(3): DNA Board 4 ted"), "DNA Board 4 ted");
        assert_eq!(strip_subject_prefixes("SV: VS: dna move 1 ned pw AAG"), "dna move 1 ned pw AAG");
        assert_eq!(strip_subject_prefixes("Note: this"), "Note: this");
        assert_eq!(strip_subject_prefixes("  "), "");
    }

    #[test]
    fn flowed_text_is_joined() {
        assert_eq!(unflow("one \r\ntwo\r\n> a \r\n> b\r\n-- \r\nsig", false), "one two\n> a b\n-- \nsig");
        assert_eq!(unflow("ab \ncd", true), "abcd");
        assert_eq!(unflow(" From me", false), "From me");
    }

    #[test]
    fn top_posted_reply_with_signature() {
        let body = "dna move 1 ned pw AAG\n\nTake that!\n\n-- \nNed\nned@example.org\n\nOn Mon, 1 Jan 2024, Tabula <tabula@example.org> wrote:\n> DNA Board 1 ned\n> It is ned's turn.\n";
        let split = split_commands(&lines(body), GAMES);
        assert_eq!(split.commands, vec!["dna move 1 ned pw AAG"]);
        assert_eq!(split.comment, "Take that!");
    }

    #[test]
    fn bottom_posted_reply_with_wrapped_attribution() {
        let body = "On Mon, 1 Jan 2024 at 10:00, Tabula <tabula@example.org>\nwrote:\n> DNA Board 1 ned\n>\n> It is ned's turn.\n\n  dna   move 1 ned pw AAG  \ndna show 1\n\nNice game.\nSent from my phone\n";
        let split = split_commands(&lines(body), GAMES);
        assert_eq!(split.commands, vec!["dna move 1 ned pw AAG", "dna show 1"]);
        assert_eq!(split.comment, "Nice game.");
    }

    #[test]
    fn outlook_original_message_and_unquoted_board() {
        let body = "dna move 1 ted pw TTC\r\n\r\n-----Original Message-----\r\nFrom: Tabula\r\nSent: Monday\r\nSubject: DNA Board 1 ted\r\n\r\ndna move 1 ted pw GGG\r\n";
        let split = split_commands(&lines(body), GAMES);
        assert_eq!(split.commands, vec!["dna move 1 ted pw TTC"]);
        assert_eq!(split.comment, "");
        let body = "Well played.\n\nDNA Board 1 ted\n\nIt is ted's turn.\n";
        assert_eq!(split_commands(&lines(body), GAMES).comment, "Well played.");
        let body = "ok\n\nFrom: Tabula <t@example.org>\nSent: Monday\nTo: ned\n\nold text";
        assert_eq!(split_commands(&lines(body), GAMES).comment, "ok");
    }

    #[test]
    fn comment_keeps_its_lines_and_one_blank_between_paragraphs() {
        let body = "\n\ndna move 1 ned pw AAG\nfirst line\nsecond line\n\n\n\nthird\u{a0}para\u{200b}\n\n";
        let split = split_commands(&lines(body), GAMES);
        assert_eq!(split.comment, "first line\nsecond line\n\nthird para");
    }

    #[test]
    fn a_greeting_first_means_no_body_commands() {
        let split = split_commands(&lines("Hi all,\ndna move 1 ned pw AAG\n"), GAMES);
        assert!(split.commands.is_empty());
        assert_eq!(split.comment, "Hi all,\ndna move 1 ned pw AAG");
    }

    proptest::proptest! {
        #[test]
        fn body_analysis_never_panics(s in "\\PC{0,300}") {
            let l = new_text(&s, &|| TITLES.to_vec());
            let split = split_commands(&l, GAMES);
            for c in &split.commands {
                proptest::prop_assert!(looks_like_command(c, GAMES));
            }
            let _ = unflow(&s, true);
            let _ = strip_subject_prefixes(&s);
        }
    }
}
