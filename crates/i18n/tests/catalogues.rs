//! The catalogues agree with each other and with the code: every language
//! has the same files, the same messages, the same attributes and the same
//! arguments in each; and every `t!` in the workspace names a message that
//! exists, with exactly the arguments the message uses.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fluent_syntax::ast;
use tabula_i18n::{Lang, sources};

/// A message's (or term's) shape: its attributes, and the variables each
/// part uses (`""` is the value).
type Shape = BTreeMap<String, BTreeSet<String>>;

/// Every entry of one language: `id` for messages, `-id` for terms.
fn entries(lang: Lang) -> BTreeMap<String, Shape> {
    let mut out = BTreeMap::new();
    for (name, text) in sources(lang) {
        let resource = fluent_syntax::parser::parse(*text)
            .unwrap_or_else(|(_, errors)| panic!("{name} does not parse: {errors:?}"));
        for entry in resource.body {
            let (id, value, attributes) = match entry {
                ast::Entry::Message(m) => (m.id.name.to_string(), m.value, m.attributes),
                ast::Entry::Term(t) => (format!("-{}", t.id.name), Some(t.value), t.attributes),
                ast::Entry::Junk { content } => panic!("{name}: cannot read {content:?}"),
                _ => continue,
            };
            let mut shape = Shape::new();
            if let Some(value) = &value {
                shape.insert(String::new(), variables(value));
            }
            for a in &attributes {
                shape.insert(a.id.name.to_string(), variables(&a.value));
            }
            assert!(out.insert(id.clone(), shape).is_none(), "{name}: {id} appears twice");
        }
    }
    out
}

fn variables(pattern: &ast::Pattern<&str>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, &mut out);
        }
    }
    out
}

fn expression_variables(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for v in variants {
                out.extend(variables(&v.value));
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, out),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_variables(a, out);
            }
            for a in &arguments.named {
                inline_variables(&a.value, out);
            }
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

#[test]
fn every_language_has_the_same_files() {
    let files = |lang: Lang| -> Vec<String> {
        sources(lang).iter().map(|(name, _)| name.split_once('/').unwrap().1.to_string()).collect()
    };
    for lang in Lang::ALL {
        assert_eq!(files(lang), files(Lang::En), "{lang}");
        for (name, _) in sources(lang) {
            assert!(name.starts_with(&format!("{lang}/")), "{name} is filed under {lang}");
        }
    }
}

#[test]
fn every_language_has_every_message_with_the_same_arguments() {
    let english = entries(Lang::En);
    assert!(!english.is_empty());
    for lang in [Lang::Fi, Lang::Es] {
        let other = entries(lang);
        let missing: Vec<_> = english.keys().filter(|id| !other.contains_key(*id)).collect();
        let extra: Vec<_> = other.keys().filter(|id| !english.contains_key(*id)).collect();
        assert!(missing.is_empty(), "{lang} lacks {missing:?}");
        assert!(extra.is_empty(), "{lang} has messages English lacks: {extra:?}");
        for (id, shape) in &english {
            // Terms are the language's own words and take their own arguments.
            if !id.starts_with('-') {
                assert_eq!(&other[id], shape, "{lang} {id}: attributes and arguments differ from English");
            }
        }
    }
}

/// The workspace's source files, this crate's own excepted (its tests
/// call messages that do not exist, to see the fallback).
fn workspace_sources() -> Vec<PathBuf> {
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).canonicalize().unwrap();
    let root = own.join("../..").canonicalize().unwrap();
    let mut out = Vec::new();
    let mut dirs = vec![root.join("crates")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                if !path.ends_with("target") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs") && !path.starts_with(&own) {
                out.push(path);
            }
        }
    }
    out
}

/// The calls `t!(LANG, "id", name = value, ...)` and
/// `msg!("id", name = value, ...)` of `source`: each id with its argument
/// names. Calls whose id is not a literal are skipped.
fn calls(source: &str) -> Vec<(String, BTreeSet<String>)> {
    let mut out = macro_calls(source, "t!(", 1);
    out.extend(macro_calls(source, "msg!(", 0));
    out
}

/// The calls of the macro `opening` (`t!(`) in `source`, whose message id
/// is argument number `id_at`.
fn macro_calls(source: &str, opening: &str, id_at: usize) -> Vec<(String, BTreeSet<String>)> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find(opening) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + opening.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        // The arguments up to the closing parenthesis, split at top-level commas.
        let (mut depth, mut end, mut in_string) = (0i32, None, false);
        let mut parts = vec![String::new()];
        for (i, c) in rest.char_indices() {
            match c {
                '"' if !rest[..i].ends_with('\\') => in_string = !in_string,
                '(' | '[' | '{' if !in_string => depth += 1,
                ')' | ']' | '}' if !in_string && depth == 0 => {
                    end = Some(i);
                    break;
                }
                ')' | ']' | '}' if !in_string => depth -= 1,
                ',' if !in_string && depth == 0 => {
                    parts.push(String::new());
                    continue;
                }
                _ => {}
            }
            parts.last_mut().unwrap().push(c);
        }
        if end.is_none() || parts.len() < id_at + 1 {
            continue;
        }
        let id = parts[id_at].trim();
        let Some(id) = id.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else { continue };
        let names = parts[id_at + 1..]
            .iter()
            .filter_map(|p| p.split_once('=').map(|(n, _)| n.trim().to_string()))
            .filter(|n| !n.is_empty())
            .collect();
        out.push((id.to_string(), names));
    }
    out
}

#[test]
fn every_call_names_a_message_with_its_arguments() {
    let english = entries(Lang::En);
    for path in workspace_sources() {
        let source = std::fs::read_to_string(&path).unwrap();
        for (id, names) in calls(&source) {
            let shape = english.get(&id).unwrap_or_else(|| panic!("{}: no message {id:?}", path.display()));
            let wanted = shape.get("").cloned().unwrap_or_default();
            assert_eq!(names, wanted, "{}: {id} takes {wanted:?}", path.display());
        }
    }
}

#[test]
fn the_scan_reads_calls_as_written() {
    let source = r#"let a = t!(lang, "board-title", board = &id.to_string()); x.t!(no); t!(Lang::Fi, "x");
        msg!("games-count", count = n); msg!("y")"#;
    assert_eq!(
        calls(source),
        vec![
            ("board-title".to_string(), BTreeSet::from(["board".to_string()])),
            ("x".to_string(), BTreeSet::new()),
            ("games-count".to_string(), BTreeSet::from(["count".to_string()])),
            ("y".to_string(), BTreeSet::new()),
        ]
    );
}
