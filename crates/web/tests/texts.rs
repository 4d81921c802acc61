//! No text people read is written into the web pages' code: every one
//! comes from the catalogues, in the reader's language. This test reads
//! the templates, the page code and the page script and fails on
//!
//! - a text node or a read attribute (`title`, `placeholder`, ...) of a
//!   template that holds words outside a `{{ t(...) }}` lookup;
//! - a string literal in a template's code that reads as words (a space
//!   between letters, or a capital), unless it is a message id;
//! - a `t("id", name=value)` whose message does not exist, or whose
//!   arguments differ from the English message's;
//! - a string literal of the page code (Rust, outside its tests, logs and
//!   API descriptions) that holds two words;
//! - a string literal of the page script that reads as a sentence.
//!
//! Symbols (`·`, `«`, `◀`, `#`, ...) and the protocol's own words (the
//! name Tabula, a command line shown as an example) are allowed by name,
//! below. The checks are heuristic: a single lowercase word in the script
//! is not seen, so the script takes every text from the page (`tr`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tabula_i18n::{Lang, sources};

/// Text that may stand in a template as it is: an example command line
/// (protocol words, the same in every language).
const ALLOWED_TEXT: &[&str] =
    &["tabula tournament --game intervalo --games-per-pair 20 --bot random --bot greedy --bot mcts"];

/// Words that may stand in a template as they are: the product's name.
const ALLOWED_WORDS: &[&str] = &["Tabula"];

/// Literals of the page code that hold words but are not shown: the
/// service's reply line the game page recognises to address the reader,
/// and what the log says of a damaged tournament.
///
/// Also allowed: what the server says before it has read a request (so
/// before it can know the reader's language): the reasons a connection is
/// refused and the I/O error of a client that stopped reading; the health
/// check's plain answers, for load balancers; and the errors of the
/// operator's `--trust-proxy` flag.
const RUST_ALLOWED: &[&str] = &[
    "It is {user}'s turn.",
    "the settings do not decode",
    "the server has as many connections open as it takes",
    "your address has as many connections open as the server takes from one address",
    "{{\\\"ok\\\":false,\\\"error\\\":{{\\\"code\\\":\\\"unavailable\\\",\\\"message\\\":\\\"{why}: try again later\\\"}}}}",
    "HTTP/1.1 503 Service Unavailable\\r\\ncontent-type: application/json\\r\\nretry-after: 5\\r\\n\\",
    "the client stopped reading the answer",
    "the database failed",
    "the database did not answer in time",
    "{text:?}: {address:?} is not an IP address",
    "{text:?}: the prefix length must be 0 to {most}",
];

/// Files of the web crate that are not read by people in their language:
/// the OpenAPI document, written for programmers in English as the
/// handlers' API descriptions are.
const NOT_FOR_READERS: &[&str] = &["openapi.rs"];

/// Characters that are not words: punctuation, arrows, the board tools' symbols.
fn is_symbol(c: char) -> bool {
    !c.is_alphabetic()
}

/// Attributes whose values people read (or hear).
const READ_ATTRIBUTES: &[&str] =
    &["title", "placeholder", "aria-label", "alt", "data-confirm", "data-join", "data-replace", "data-play"];

/// String literals of the page script that look like sentences but are not
/// read: class names, key names, the script's mode.
const SCRIPT_ALLOWED: &[&str] = &["swatch small", "empty muted", "ArrowLeft", "ArrowRight", "use strict"];

fn web_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    out
}

/// A template split into its code (`{{ }}`, `{% %}`; comments dropped) and
/// its markup, where each piece of code stands as `\u{1}`.
fn split_template(source: &str) -> (String, Vec<(usize, String)>) {
    let mut markup = String::new();
    let mut code = Vec::new();
    let mut rest = source;
    let mut line = 1;
    while let Some(at) = rest.find(['{']) {
        let (before, from) = rest.split_at(at);
        let close = match from.get(..2) {
            Some("{{") => "}}",
            Some("{%") => "%}",
            Some("{#") => "#}",
            _ => {
                markup.push_str(&rest[..at + 1]);
                line += rest[..at + 1].matches('\n').count();
                rest = &rest[at + 1..];
                continue;
            }
        };
        markup.push_str(before);
        line += before.matches('\n').count();
        let end = from.find(close).map_or(from.len(), |e| e + 2);
        if close != "#}" {
            code.push((line, from[2..end.saturating_sub(2).max(2)].to_string()));
        }
        markup.push('\u{1}');
        line += from[..end].matches('\n').count();
        rest = &from[end..];
    }
    markup.push_str(rest);
    (markup, code)
}

/// Words in a piece of markup text that no lookup made: `None` when it is
/// only code, symbols, entities and allowed text.
fn stray_words(text: &str) -> Option<String> {
    let mut plain = String::new();
    let mut rest = text;
    // Entities (`&amp;`) are symbols.
    while let Some(at) = rest.find('&') {
        plain.push_str(&rest[..at]);
        let after = &rest[at..];
        match after.find(';').filter(|&e| e < 10 && after[1..e].chars().all(char::is_alphanumeric)) {
            Some(e) => rest = &after[e + 1..],
            None => {
                plain.push('&');
                rest = &after[1..];
            }
        }
    }
    plain.push_str(rest);
    let pieces: Vec<&str> = plain.split('\u{1}').map(str::trim).filter(|p| !p.is_empty()).collect();
    let stray: Vec<&str> = pieces
        .into_iter()
        .filter(|p| !ALLOWED_TEXT.contains(p))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.chars().all(is_symbol) && !ALLOWED_WORDS.contains(&w.trim_matches(is_symbol)))
        .collect();
    (!stray.is_empty()).then(|| stray.join(" "))
}

/// The stray texts of a template's markup: text nodes and read attributes.
fn markup_problems(markup: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markup;
    let mut skip_until: Option<&str> = None;
    while !rest.is_empty() {
        let at = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..at];
        if skip_until.is_none()
            && let Some(words) = stray_words(text)
        {
            out.push(format!("text {words:?}"));
        }
        rest = &rest[at..];
        if rest.is_empty() {
            break;
        }
        // The tag, up to its `>` outside quotes.
        let mut quote = None;
        let mut end = rest.len();
        for (i, c) in rest.char_indices().skip(1) {
            match (quote, c) {
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), c) if c == q => quote = None,
                (None, '>') => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        let tag = &rest[..end];
        rest = &rest[end..];
        let name: String =
            tag[1..].chars().take_while(|c| c.is_alphanumeric() || *c == '/' || *c == '!').collect();
        if let Some(closing) = skip_until {
            if name == closing {
                skip_until = None;
            }
            continue;
        }
        match name.as_str() {
            "script" => skip_until = Some("/script"),
            "style" => skip_until = Some("/style"),
            _ => {}
        }
        for attribute in READ_ATTRIBUTES {
            for quote in ['"', '\''] {
                let key = format!(" {attribute}={quote}");
                let mut from = tag;
                while let Some(i) = from.find(&key) {
                    let value = &from[i + key.len()..];
                    let value = &value[..value.find(quote).unwrap_or(value.len())];
                    if let Some(words) = stray_words(value) {
                        out.push(format!("{attribute}={words:?}"));
                    }
                    from = &from[i + key.len()..];
                }
            }
        }
    }
    out
}

/// The string literals of a piece of template code, each with whether it
/// is the message id of a `t(...)` call and, if so, the call's argument
/// names.
fn template_literals(code: &str) -> Vec<(String, Option<BTreeSet<String>>)> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '"' && c != '\'' {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut j = start;
        while j < chars.len() && chars[j] != c {
            j += if chars[j] == '\\' { 2 } else { 1 };
        }
        let literal: String = chars[start..j.min(chars.len())].iter().collect();
        let before: String = chars[..i].iter().collect::<String>().trim_end().to_string();
        let is_id = before.ends_with("t(") && !before.ends_with("_t(") && {
            let prefix = &before[..before.len() - 2];
            !prefix.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.')
        };
        let names = is_id.then(|| call_argument_names(&chars[(j + 1).min(chars.len())..]));
        out.push((literal, names));
        i = j + 1;
    }
    out
}

/// The names of `name=value` arguments up to the call's closing parenthesis.
fn call_argument_names(after_id: &[char]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut depth = 0;
    let mut quote: Option<char> = None;
    let mut word = String::new();
    for (k, &c) in after_id.iter().enumerate() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '[' => depth += 1,
            ')' | ']' if depth == 0 => break,
            ')' | ']' => depth -= 1,
            '=' if depth == 0 && after_id.get(k + 1) != Some(&'=') && !word.is_empty() => {
                names.insert(word.clone());
            }
            _ => {}
        }
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else if !c.is_whitespace() {
            word.clear();
        }
    }
    names
}

/// Every English message and term with the variables it uses (in any part).
fn english_messages() -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for (_, text) in sources(Lang::En) {
        let mut current: Option<String> = None;
        for line in text.lines() {
            if line.starts_with('#') || line.trim().is_empty() && current.is_none() {
                continue;
            }
            // An entry starts at the line's start with its id; its other
            // lines are indented or close a selection (`}`).
            let id = line.split_once(" =").map(|(id, _)| id.trim()).filter(|id| {
                !id.is_empty() && id.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_')
            });
            if !line.starts_with([' ', '\t', '}']) && id.is_some() {
                current = id.map(str::to_string);
                if let Some(id) = &current {
                    out.insert(id.clone(), BTreeSet::new());
                }
            }
            if let Some(id) = &current {
                let vars = out.get_mut(id).unwrap();
                let mut rest = line;
                while let Some(at) = rest.find('$') {
                    let name: String = rest[at + 1..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                        .collect();
                    vars.insert(name);
                    rest = &rest[at + 1..];
                }
            }
        }
    }
    out
}

/// Whether a string literal of template code reads as words.
fn reads_as_words(literal: &str) -> bool {
    literal.chars().any(char::is_alphabetic)
        && (literal.contains(char::is_whitespace) || literal.chars().any(char::is_uppercase))
}

fn template_problems(source: &str, messages: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let (markup, code) = split_template(source);
    let mut out = markup_problems(&markup);
    for (line, piece) in code {
        for (literal, call) in template_literals(&piece) {
            match call {
                Some(names) => match messages.get(&literal) {
                    None => out.push(format!("line {line}: no message {literal:?}")),
                    Some(wanted) if *wanted != names => {
                        out.push(format!("line {line}: {literal} takes {wanted:?}, given {names:?}"));
                    }
                    Some(_) => {}
                },
                None if reads_as_words(&literal) => out.push(format!("line {line}: literal {literal:?}")),
                None => {}
            }
        }
    }
    out
}

/// The double-quoted string literals of Rust source outside its tests,
/// comments, log lines and API descriptions, with their lines.
fn rust_literals(source: &str) -> Vec<(usize, String)> {
    let source = source.split("#[cfg(test)]").next().unwrap_or(source);
    let mut out = Vec::new();
    let mut in_attribute = false;
    for (n, line) in source.lines().enumerate() {
        let trimmed = line.trim_start();
        // Examples in a schema are command lines, the protocol's own.
        if trimmed.starts_with("#[schema(") {
            continue;
        }
        if trimmed.starts_with("#[utoipa::path(") {
            in_attribute = true;
        }
        if in_attribute {
            if trimmed.starts_with(")]") {
                in_attribute = false;
            }
            continue;
        }
        // Logs and invariants' panics are for the operator, not the reader.
        if trimmed.starts_with("//") || line.contains("tracing::") || line.contains(".expect(") {
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '/' if chars.get(i + 1) == Some(&'/') => break,
                '\'' if chars.get(i + 1) == Some(&'\\') => {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                }
                '\'' if chars.get(i + 2) == Some(&'\'') => i += 3,
                '"' => {
                    let mut j = i + 1;
                    while j < chars.len() && chars[j] != '"' {
                        j += if chars[j] == '\\' { 2 } else { 1 };
                    }
                    out.push((n + 1, chars[i + 1..j.min(chars.len())].iter().collect()));
                    i = j + 1;
                }
                _ => i += 1,
            }
        }
    }
    out
}

/// Two words of two letters or more, a space apart: a phrase.
fn has_phrase(text: &str) -> bool {
    let words: Vec<&str> = text.split(' ').collect();
    words.windows(2).any(|w| {
        let tail = w[0].chars().rev().take_while(|c| c.is_alphabetic()).count();
        let head = w[1].chars().take_while(|c| c.is_alphabetic()).count();
        tail >= 2 && head >= 2
    })
}

fn rust_problems(source: &str) -> Vec<String> {
    rust_literals(source)
        .into_iter()
        // Markup the code builds (charts) carries its texts as arguments.
        .filter(|(_, l)| {
            !l.starts_with('<')
                && !l.contains("=\\\"")
                && has_phrase(l)
                && !RUST_ALLOWED.contains(&l.as_str())
        })
        .map(|(n, l)| format!("line {n}: {l:?}"))
        .collect()
}

/// String literals of the page script that read as sentences.
fn script_problems(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in source.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let chars: Vec<char> = code.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            }
            if c != '"' && c != '\'' {
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let literal: String = chars[i + 1..j.min(chars.len())].iter().collect();
            let mut letters = literal.trim_start().chars();
            let capitalised = letters.next().is_some_and(char::is_uppercase)
                && letters.next().is_some_and(char::is_lowercase);
            // Selectors (`#moves li[data-number]`) are code.
            let selector = literal.contains(['[', '#', '=']);
            if (capitalised || has_phrase(&literal))
                && !selector
                && !SCRIPT_ALLOWED.contains(&literal.as_str())
            {
                out.push(format!("line {}: {literal:?}", n + 1));
            }
            i = j + 1;
        }
    }
    out
}

#[test]
fn templates_take_every_text_from_the_catalogues() {
    let messages = english_messages();
    let mut problems = Vec::new();
    for path in files(&web_dir().join("templates"), "html") {
        let source = std::fs::read_to_string(&path).unwrap();
        for p in template_problems(&source, &messages) {
            problems.push(format!("{}: {p}", path.file_name().unwrap().to_string_lossy()));
        }
    }
    assert!(problems.is_empty(), "texts not from the catalogues:\n{}", problems.join("\n"));
}

#[test]
fn page_code_takes_every_text_from_the_catalogues() {
    // Every file of the crate: the API's own errors are read by people too.
    let src = web_dir().join("src");
    let mut paths = files(&src, "rs");
    paths.retain(|p| !NOT_FOR_READERS.iter().any(|f| p.ends_with(f)));
    paths.extend(files(&src.join("pages"), "rs"));
    let mut problems = Vec::new();
    for path in paths {
        let source = std::fs::read_to_string(&path).unwrap();
        for p in rust_problems(&source) {
            problems.push(format!("{}: {p}", path.file_name().unwrap().to_string_lossy()));
        }
    }
    let script = std::fs::read_to_string(web_dir().join("static/app.js")).unwrap();
    problems.extend(script_problems(&script).into_iter().map(|p| format!("app.js: {p}")));
    assert!(problems.is_empty(), "texts not from the catalogues:\n{}", problems.join("\n"));
}

#[test]
fn the_checks_see_a_text_written_in() {
    let messages = english_messages();
    let clean =
        r#"<p title="{{ t('game-zoom-in') }}">{{ t("game-board-no", board=b|string) }} · #{{ id }}</p>"#;
    assert_eq!(template_problems(clean, &messages), Vec::<String>::new());
    let cases = [
        (r#"<p>Your move</p>"#, "text \"Your move\""),
        (r#"<p>{{ x }} moves</p>"#, "text \"moves\""),
        (r#"<button title="Zoom in">+</button>"#, "title=\"Zoom in\""),
        (r#"<p>{{ name or "(no name)" }}</p>"#, "literal \"(no name)\""),
        (r#"<p>{{ t("no-such-message") }}</p>"#, "no message"),
        (r#"<p>{{ t("game-board-no") }}</p>"#, "game-board-no takes"),
        (r#"<p>{{ t("game-board-no", board=b, extra=1) }}</p>"#, "game-board-no takes"),
    ];
    for (source, wanted) in cases {
        let found = template_problems(source, &messages);
        assert!(found.iter().any(|p| p.contains(wanted)), "{source}: {found:?}");
    }
    assert_eq!(rust_problems("let m = t!(lang, \"game-write-move\");\nlet u = '\"';"), Vec::<String>::new());
    assert_eq!(rust_problems("let m = \"Write a move first.\";").len(), 1);
    assert_eq!(
        script_problems("el.textContent = tr(\"no-moves\"); el.className = \"swatch small\";").len(),
        0
    );
    assert_eq!(script_problems("el.textContent = \"No moves yet.\";").len(), 1);
    assert_eq!(script_problems("el.textContent = \" (taken back)\";").len(), 1);
}
