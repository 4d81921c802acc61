//! Tabula's texts in its players' languages: English, Finnish and Spanish.
//!
//! Every text a person reads comes from a message catalogue in Project
//! Fluent's syntax (`locales/LANG/*.ftl`, and each game's own texts in
//! its folder, `crates/GAME/locales/LANG/GAME.ftl`; all embedded in the
//! binary), looked up by a message id with named arguments. Fluent carries each language's
//! plural rules, so a catalogue says "1 päivä" / "2 päivää" without code
//! knowing Finnish. Command words, JSON keys and error codes are the
//! protocol and never go through here: only what people read does.
//!
//! Where a language comes from, in order: the user's own setting; for a
//! visitor, the browser's `Accept-Language` ([`Lang::from_accept_language`]);
//! on the command line, `--lang` or the POSIX locale variables
//! ([`Lang::from_env`]). English is the default and the fallback.
//!
//! Arguments: quantities go in as numbers, so that plurals select and the
//! language's decimal mark and digit grouping apply; identifiers (board
//! numbers, user ids, cells) go in as text, so they are never grouped.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{LazyLock, OnceLock};

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast::{self, Expression, InlineExpression, Pattern, PatternElement};
use unic_langid::LanguageIdentifier;

mod format;
mod message;

pub use message::{Arg, Message};

pub use format::{
    format_datetime, format_datetime_seconds, format_decimal, format_integer, format_percent,
    localize_decimal,
};

/// A language Tabula speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English, the default and the fallback of every message.
    #[default]
    En,
    /// Finnish (suomi): the language of Rewrite's original community.
    Fi,
    /// Spanish (español): the language of Intervalo's original community.
    Es,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Fi, Lang::Es];

    /// The language's code, as settings, URLs and `--lang` spell it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fi => "fi",
            Lang::Es => "es",
        }
    }

    /// The language's name in itself, for language menus.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Fi => "suomi",
            Lang::Es => "español",
        }
    }

    /// The language a tag names: a BCP 47 tag (`fi`, `es-MX`, `en-GB`) or a
    /// POSIX locale (`fi_FI.UTF-8`, `es_ES@euro`); any case. `None` for a
    /// language Tabula does not speak, or for no language at all.
    pub fn parse(tag: &str) -> Option<Lang> {
        // The language subtag: before any region, encoding or modifier.
        let primary = tag.trim().split(['-', '_', '.', '@']).next()?;
        match primary.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "fi" => Some(Lang::Fi),
            "es" => Some(Lang::Es),
            _ => None,
        }
    }

    /// The language a browser prefers among those Tabula speaks, from an
    /// `Accept-Language` header (`fi-FI,fi;q=0.9,en;q=0.8`): highest weight
    /// first, the header's order among equal weights; English when none
    /// is spoken here or the header is malformed.
    pub fn from_accept_language(header: &str) -> Lang {
        let mut ranges: Vec<(u16, usize, &str)> = Vec::new();
        for (order, item) in header.split(',').take(MAX_ACCEPT_RANGES).enumerate() {
            let mut parts = item.split(';');
            let range = parts.next().unwrap_or("").trim();
            let weight = parts
                .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
                .next()
                .map_or(Some(1000), quality);
            if let Some(weight) = weight
                && weight > 0
                && !range.is_empty()
            {
                ranges.push((weight, order, range));
            }
        }
        ranges.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let requested: Vec<LanguageIdentifier> =
            ranges.iter().filter_map(|(_, _, range)| range.parse().ok()).collect();
        let available: Vec<LanguageIdentifier> = Lang::ALL.iter().map(|l| l.langid()).collect();
        let default = Lang::En.langid();
        fluent_langneg::negotiate_languages(
            &requested,
            &available,
            Some(&default),
            fluent_langneg::NegotiationStrategy::Lookup,
        )
        .first()
        .and_then(|id| Lang::parse(&id.to_string()))
        .unwrap_or_default()
    }

    /// The language of a command-line process from its environment, as
    /// POSIX programs choose their messages' language: `LC_ALL`, then
    /// `LC_MESSAGES`, then `LANG`, the first that is set and not empty.
    /// `C`, `POSIX` and languages Tabula does not speak give English.
    pub fn from_env() -> Lang {
        Lang::from_locale_vars(|name| std::env::var(name).ok())
    }

    /// [`Lang::from_env`] over any source of variables (testable).
    pub fn from_locale_vars(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(var)
            .find(|v| !v.is_empty())
            .and_then(|v| Lang::parse(&v))
            .unwrap_or_default()
    }

    fn langid(self) -> LanguageIdentifier {
        self.code().parse().expect("the language codes are valid tags")
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl std::str::FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        Lang::parse(s).ok_or_else(|| UnknownLang(s.chars().take(40).collect()))
    }
}

/// A language tag naming no language Tabula speaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl std::fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} is not a language Tabula speaks: use en, fi or es", self.0)
    }
}

impl std::error::Error for UnknownLang {}

/// Ranges of an `Accept-Language` header looked at: real browsers send a
/// handful; a hostile header of thousands costs no more than this.
const MAX_ACCEPT_RANGES: usize = 32;

/// An `Accept-Language` weight (`1`, `0.8`, `0.125`) in thousandths;
/// `None` when malformed (RFC 9110: at most three decimals, at most 1).
fn quality(text: &str) -> Option<u16> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{frac:0<3}").parse::<u16>().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// One catalogue file: its name (for messages about it) and its text.
type Source = (&'static str, &'static str);

/// One file `crates/FOLDER/locales/LANG/FILE.ftl` per `"FOLDER" / "FILE"`,
/// embedded for each language, named `LANG/FILE.ftl`.
macro_rules! catalogues {
    ($($folder:literal / $file:literal),* $(,)?) => {
        [
            (Lang::En, &[$(catalogues!(@file "en", $folder, $file)),*]),
            (Lang::Fi, &[$(catalogues!(@file "fi", $folder, $file)),*]),
            (Lang::Es, &[$(catalogues!(@file "es", $folder, $file)),*]),
        ]
    };
    (@file $lang:literal, $folder:literal, $file:literal) => {
        (
            concat!($lang, "/", $file, ".ftl"),
            include_str!(concat!("../../", $folder, "/locales/", $lang, "/", $file, ".ftl")),
        )
    };
}

/// The catalogues of each language: one file per area of the product,
/// and one per game in the game's own folder (`crates/GAME/locales/`).
/// Every language has the same files with the same message ids and the
/// same arguments (checked by this crate's tests).
const CATALOGUES: [(Lang, &[Source]); 3] = catalogues![
    "i18n" / "common",
    "i18n" / "web",
    "i18n" / "errors",
    "i18n" / "replies",
    "i18n" / "help",
    "i18n" / "cli",
    "i18n" / "cli-help",
    "i18n" / "mail",
    "i18n" / "game",
    "dna" / "dna",
    "rewrite" / "rewrite",
    "intervalo" / "intervalo",
    "conway" / "conway",
    "rtlife" / "rtlife",
];

/// The catalogue files of `lang`, as embedded (for checks and tools).
pub fn sources(lang: Lang) -> &'static [(&'static str, &'static str)] {
    CATALOGUES.iter().find(|(l, _)| *l == lang).map_or(&[], |(_, s)| s)
}

type Bundle = FluentBundle<FluentResource>;

/// Each language's bundle: its plural rules, number formatting and
/// functions. It holds no messages: each is parsed on its own (see
/// [`parsed`]) and formatted with its language's bundle.
static BUNDLES: [LazyLock<Bundle>; 3] = [
    LazyLock::new(|| bundle(Lang::En)),
    LazyLock::new(|| bundle(Lang::Fi)),
    LazyLock::new(|| bundle(Lang::Es)),
];

// `IDS`, `ID_ENDS`, `FILES`, `FILE_OF` and `MESSAGES`, written by the
// build script from the English catalogues: every language keeps each
// message in the same file.
include!(concat!(env!("OUT_DIR"), "/file_of.rs"));

/// The id of the message at `entry` of the index.
fn id_at(entry: usize) -> Option<&'static str> {
    let start = match entry.checked_sub(1) {
        Some(before) => *ID_ENDS.get(before)? as usize,
        None => 0,
    };
    IDS.get(start..*ID_ENDS.get(entry)? as usize)
}

/// The English path of the catalogue file that holds the message at
/// `entry` of the index.
fn file_at(entry: usize) -> Option<&'static str> {
    FILES.get(usize::from(*FILE_OF.get(entry)?)).copied()
}

/// The place of message `id` in the index, if there is such a message.
fn entry_of(id: &str) -> Option<usize> {
    let (mut low, mut high) = (0, MESSAGES);
    while low < high {
        let middle = low + (high - low) / 2;
        match id_at(middle)?.cmp(id) {
            std::cmp::Ordering::Less => low = middle + 1,
            std::cmp::Ordering::Greater => high = middle,
            std::cmp::Ordering::Equal => return Some(middle),
        }
    }
    None
}

/// A message id written in the code, which finds its message's place
/// among the catalogues' the first time and keeps it: [`t!`] makes one for
/// each id it is given as a literal, so that the texts written on every
/// reply (two boards a move, a dozen texts each) are not looked for again
/// among some 1,500 ids by comparing them.
pub struct MessageId {
    id: &'static str,
    /// The place in the index, or [`MessageId::UNKNOWN`] before it is
    /// looked for, or [`MessageId::MISSING`] if no catalogue has the id.
    entry: AtomicU32,
}

impl MessageId {
    const UNKNOWN: u32 = u32::MAX;
    const MISSING: u32 = u32::MAX - 1;

    /// The id `id`, not yet looked for.
    pub const fn new(id: &'static str) -> Self {
        MessageId { id, entry: AtomicU32::new(Self::UNKNOWN) }
    }

    fn entry(&self) -> Option<usize> {
        match self.entry.load(Ordering::Relaxed) {
            Self::UNKNOWN => {
                let found = entry_of(self.id);
                let kept = found.and_then(|e| u32::try_from(e).ok()).unwrap_or(Self::MISSING);
                self.entry.store(kept, Ordering::Relaxed);
                found
            }
            Self::MISSING => None,
            entry => Some(entry as usize),
        }
    }
}

/// One language's slots, one per entry of the index, each set the first
/// time it is asked for. Statics laid out by the compiler rather than
/// tables built at run time: a process that writes a few dozen texts
/// touches only the pages of the slots it uses, where building a table of
/// every message cost a command-line process dozens of page faults.
type Slots<T> = [OnceLock<T>; MESSAGES];

/// The messages parsed so far, per language.
static PARSED: [Slots<Option<FluentResource>>; 3] = [const { [const { OnceLock::new() }; MESSAGES] }; 3];

/// The message at `entry` of the index in `lang`'s catalogue, parsed the
/// first time it is asked for. Each message alone, not its whole file: a
/// command-line process uses a few dozen of some 1,200 messages, and
/// parsing the files that held them was most of the cost of its texts.
fn parsed(lang: Lang, entry: usize) -> Option<&'static ast::Message<&'static str>> {
    let resource = PARSED[index(lang)].get(entry)?.get_or_init(|| {
        let (id, file) = (id_at(entry)?, file_at(entry)?);
        // `en/web.ftl` in English is `fi/web.ftl` in Finnish.
        let (_, text) = sources(lang).iter().find(|(path, _)| file_name(path) == file_name(file))?;
        FluentResource::try_new(message_source(text, id)?.to_owned()).ok()
    });
    match resource.as_ref()?.get_entry(0)? {
        ast::Entry::Message(message) => Some(message),
        _ => None,
    }
}

/// A catalogue's file name without its language's folder.
fn file_name(path: &str) -> &str {
    path.split_once('/').map_or(path, |(_, name)| name)
}

/// The lines of message `id` in the catalogue `text`: from the line that
/// starts with its id to the next line that starts a message, a term or
/// a comment (a message's further lines are indented, blank, or close a
/// selection with `}`).
fn message_source<'a>(text: &'a str, id: &str) -> Option<&'a str> {
    let mut start = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        match start {
            None if line
                .strip_prefix(id)
                .is_some_and(|rest| rest.trim_start_matches(' ').starts_with('=')) =>
            {
                start = Some(offset);
            }
            Some(from) if line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '#' || c == '-') => {
                return Some(&text[from..offset]);
            }
            _ => {}
        }
        offset += line.len();
    }
    start.map(|from| &text[from..])
}

/// The bundle of `lang`: its number formatting, and no Unicode isolation
/// marks around arguments (mail and terminals show them as stray
/// characters; Tabula's texts are all left-to-right).
fn bundle(lang: Lang) -> Bundle {
    let mut bundle = FluentBundle::new_concurrent(vec![lang.langid()]);
    bundle.set_use_isolating(false);
    // NUMBER(): `useGrouping: "false"` where English has always written a
    // limit's digits ungrouped.
    bundle.add_builtins().expect("a new bundle has no functions yet");
    bundle.set_formatter(Some(format::formatter(lang)));
    bundle
}

/// Named arguments of a message, in the order given: most messages take
/// only text and are written without Fluent's argument list (see
/// [`resolve`]), which is made only for those that need it.
#[derive(Default)]
pub struct Args<'a>(Vec<(&'a str, FluentValue<'a>)>);

impl<'a> Args<'a> {
    /// No arguments.
    pub fn new() -> Self {
        Args(Vec::new())
    }

    /// No arguments yet, with room for `n`.
    pub fn with_capacity(n: usize) -> Self {
        Args(Vec::with_capacity(n))
    }

    /// Argument `name` set to `value` (text as it is, numbers as
    /// quantities: see [`ArgValue`]); a later value of the same name
    /// replaces an earlier one.
    pub fn with(mut self, name: &'a str, value: impl ArgValue<'a>) -> Self {
        let value = value.into_value();
        match self.0.iter_mut().find(|(other, _)| *other == name) {
            Some((_, old)) => *old = value,
            None => self.0.push((name, value)),
        }
        self
    }

    fn get(&self, name: &str) -> Option<&FluentValue<'a>> {
        self.0.iter().find(|(other, _)| *other == name).map(|(_, value)| value)
    }

    /// The arguments as Fluent takes them, their texts borrowed.
    fn fluent(&self) -> FluentArgs<'_> {
        let mut args = FluentArgs::with_capacity(self.0.len());
        for (name, value) in &self.0 {
            let value = match value {
                FluentValue::String(text) => FluentValue::String(Cow::Borrowed(text.as_ref())),
                other => other.clone(),
            };
            args.set(*name, value);
        }
        args
    }
}

/// The text of message `id` in `lang`, with `args`. A message missing in
/// `lang` falls back to English (the catalogue checks keep that from
/// happening in a release); a message missing everywhere gives its id, so a
/// mistake shows as a readable word rather than as nothing.
pub fn text(lang: Lang, id: &str, args: &Args<'_>) -> String {
    text_at(lang, id, entry_of(id), args)
}

/// [`text`] of an id written in the code (see [`MessageId`]).
pub fn text_of(lang: Lang, id: &MessageId, args: &Args<'_>) -> String {
    text_at(lang, id.id, id.entry(), args)
}

/// [`text`] of the message `id` at `entry` of the index.
fn text_at(lang: Lang, id: &str, entry: Option<usize>, args: &Args<'_>) -> String {
    let Some(entry) = entry else { return id.to_string() };
    // A message without arguments is formatted once per process (see
    // [`fixed_text`]): headings and labels are written on every reply.
    if args.0.is_empty()
        && let Some(fixed) = fixed_at(lang, entry).or_else(|| fixed_at(Lang::En, entry))
    {
        return fixed.to_owned();
    }
    format_in(lang, entry, args)
        .or_else(|| format_in(Lang::En, entry, args))
        .unwrap_or_else(|| id.to_string())
}

/// [`text`] of an attribute of a message (`id.attribute` in Fluent), for a
/// message that carries several related texts (a form field's label and
/// hint, a mail's subject and body).
pub fn attribute(lang: Lang, id: &str, attribute: &str, args: &Args<'_>) -> String {
    attribute_in(lang, id, attribute, args)
        .or_else(|| attribute_in(Lang::En, id, attribute, args))
        .unwrap_or_else(|| format!("{id}.{attribute}"))
}

/// The text of message `id` in `lang` when the message takes no arguments,
/// for texts that never vary within a language (a game's title, its
/// rules): formatted the first time it is asked for and kept for the life
/// of the process. Falls back to English like [`text`]; `None` when no
/// language has such a message, or the message takes arguments.
pub fn fixed_text(lang: Lang, id: &str) -> Option<&'static str> {
    fixed_in(lang, id).or_else(|| fixed_in(Lang::En, id))
}

/// The fixed texts formatted so far, per language (`None` inside for a
/// message that takes arguments): a board asks for several on every
/// reply, from every request thread at once, and a slot once set is read
/// without a lock or a comparison of ids.
static FIXED: [Slots<Option<&'static str>>; 3] = [const { [const { OnceLock::new() }; MESSAGES] }; 3];

fn fixed_in(lang: Lang, id: &str) -> Option<&'static str> {
    fixed_at(lang, entry_of(id)?)
}

/// [`fixed_in`] of the message at `entry` of the index.
fn fixed_at(lang: Lang, entry: usize) -> Option<&'static str> {
    *FIXED[index(lang)].get(entry)?.get_or_init(|| {
        let pattern = parsed(lang, entry)?.value.as_ref()?;
        let mut errors = Vec::new();
        let formatted = BUNDLES[index(lang)].format_pattern(pattern, None, &mut errors);
        // Leaked once per message and language: a process keeps these
        // texts for its whole life anyway, and handing out `&'static str`
        // spares every caller a copy.
        errors.is_empty().then(|| &*Box::leak(formatted.into_owned().into_boxed_str()))
    })
}

/// Whether message `id` exists in English, the reference catalogue.
pub fn has_message(id: &str) -> bool {
    entry_of(id).is_some()
}

fn index(lang: Lang) -> usize {
    Lang::ALL.iter().position(|l| *l == lang).unwrap_or(0)
}

fn format_in(lang: Lang, entry: usize, args: &Args<'_>) -> Option<String> {
    let pattern = parsed(lang, entry)?.value.as_ref()?;
    Some(resolve(&BUNDLES[index(lang)], pattern, args))
}

fn attribute_in(lang: Lang, id: &str, attribute: &str, args: &Args<'_>) -> Option<String> {
    let message = parsed(lang, entry_of(id)?)?;
    let pattern = &message.attributes.iter().find(|a| a.id.name == attribute)?.value;
    Some(resolve(&BUNDLES[index(lang)], pattern, args))
}

fn resolve(bundle: &Bundle, pattern: &Pattern<&str>, args: &Args<'_>) -> String {
    if let Some(text) = plain(pattern, args) {
        return text;
    }
    // A missing argument shows as `{$name}` in the text; the catalogue
    // tests check every call site's arguments against the English message.
    let mut errors = Vec::new();
    bundle.format_pattern(pattern, Some(&args.fluent()), &mut errors).into_owned()
}

/// A pattern of text and text arguments only, written as Fluent writes it
/// (Tabula's bundles add no isolation marks and transform no text): most
/// of a board's lines are such, and Fluent's argument list and resolver
/// cost a move's two boards more than the lines' own bytes. `None` for
/// anything else (a number, a choice by plural or value, a reference to
/// another message, a missing argument), which Fluent writes.
fn plain(pattern: &Pattern<&str>, args: &Args<'_>) -> Option<String> {
    // Looked over first, so that a pattern Fluent must write costs no
    // copy, and one written here is written into a string of its size.
    let mut len = 0;
    for element in &pattern.elements {
        len += match element {
            PatternElement::TextElement { value } => value.len(),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id }),
            } => match args.get(id.name)? {
                FluentValue::String(text) => text.len(),
                _ => return None,
            },
            PatternElement::Placeable { .. } => return None,
        };
    }
    let mut out = String::with_capacity(len);
    for element in &pattern.elements {
        match element {
            PatternElement::TextElement { value } => out.push_str(value),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id }),
            } => {
                if let Some(FluentValue::String(text)) = args.get(id.name) {
                    out.push_str(text);
                }
            }
            PatternElement::Placeable { .. } => {}
        }
    }
    Some(out)
}

/// `names` joined as `lang` lists them: `a`, `a and b`, `a, b and c`
/// (`ja` in Finnish, `y` in Spanish).
pub fn and_list<S: std::borrow::Borrow<str>>(lang: Lang, names: &[S]) -> String {
    match names {
        [] => String::new(),
        [one] => one.borrow().to_string(),
        [init @ .., last] => t!(lang, "list-and", init = init.join(", "), last = last.borrow()),
    }
}

/// A [`Message`] to render later: `msg!("id")` or
/// `msg!("id", user = "ned", count = 3)` (text as text, integers as
/// quantities). The catalogue tests check its id and arguments as they do
/// `t!`'s.
#[macro_export]
macro_rules! msg {
    ($id:expr $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::Message::new($id)
            $(.arg(stringify!($name), $value))*
    };
}

/// The text of a message: `t!(lang, "id")` or
/// `t!(lang, "id", user = "ned", count = 3)`. String and `&str` values go in
/// as text, integers and floats as numbers (see [`Args`]).
#[macro_export]
macro_rules! t {
    ($lang:expr, $id:literal $(, $name:ident = $value:expr)* $(,)?) => {{
        static ID: $crate::MessageId = $crate::MessageId::new($id);
        $crate::text_of(
            $lang,
            &ID,
            &$crate::Args::with_capacity(0 $(+ { let _ = stringify!($name); 1 })*)
                $(.with(stringify!($name), $value))*,
        )
    }};
    ($lang:expr, $id:expr $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::text(
            $lang,
            $id,
            &$crate::Args::with_capacity(0 $(+ { let _ = stringify!($name); 1 })*)
                $(.with(stringify!($name), $value))*,
        )
    };
}

/// A value a message's argument can take: text (`&str`, `String`) is shown
/// as it is; integers and floats are quantities.
pub trait ArgValue<'a> {
    /// The value as Fluent sees it.
    fn into_value(self) -> FluentValue<'a>;
}

macro_rules! numeric_arg {
    ($($t:ty),*) => {$(
        impl<'a> ArgValue<'a> for $t {
            fn into_value(self) -> FluentValue<'a> {
                // Every count Tabula shows is far below 2^53.
                FluentValue::from(self as f64)
            }
        }
    )*};
}
numeric_arg!(i32, i64, u32, u64, usize, f64);

impl<'a> ArgValue<'a> for &'a str {
    fn into_value(self) -> FluentValue<'a> {
        FluentValue::String(Cow::Borrowed(self))
    }
}

impl<'a> ArgValue<'a> for &'a String {
    fn into_value(self) -> FluentValue<'a> {
        FluentValue::String(Cow::Borrowed(self.as_str()))
    }
}

impl<'a> ArgValue<'a> for String {
    fn into_value(self) -> FluentValue<'a> {
        FluentValue::String(Cow::Owned(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_locales_name_their_language() {
        for (tag, lang) in [
            ("fi", Some(Lang::Fi)),
            ("FI-fi", Some(Lang::Fi)),
            ("fi_FI.UTF-8", Some(Lang::Fi)),
            ("es_ES@euro", Some(Lang::Es)),
            ("es-419", Some(Lang::Es)),
            ("en-GB", Some(Lang::En)),
            ("C.UTF-8", None),
            ("POSIX", None),
            ("sv-FI", None),
            ("", None),
        ] {
            assert_eq!(Lang::parse(tag), lang, "{tag:?}");
        }
        assert_eq!("es".parse::<Lang>(), Ok(Lang::Es));
        assert_eq!(
            "de".parse::<Lang>().unwrap_err().to_string(),
            "\"de\" is not a language Tabula speaks: use en, fi or es"
        );
    }

    #[test]
    fn a_browser_gets_its_best_spoken_language() {
        for (header, lang) in [
            ("fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7", Lang::Fi),
            ("es-MX,es;q=0.9", Lang::Es),
            ("de-DE,de;q=0.9,es;q=0.5,en;q=0.4", Lang::Es),
            ("en;q=0.2, fi;q=0.9", Lang::Fi),
            ("fi;q=0, es", Lang::Es),
            ("sv-SE,sv;q=0.9", Lang::En),
            ("*", Lang::En),
            ("", Lang::En),
            ("fi;q=2, es;q=0.5", Lang::Es),
            ("fi;q=0.12345, es;q=0.1", Lang::Es),
            (";;;,,,q=,", Lang::En),
        ] {
            assert_eq!(Lang::from_accept_language(header), lang, "{header:?}");
        }
    }

    #[test]
    fn a_huge_header_is_read_only_in_part() {
        let header = format!("{}fi", "xx;q=0.5,".repeat(10_000));
        assert_eq!(Lang::from_accept_language(&header), Lang::En);
    }

    #[test]
    fn posix_variables_choose_in_their_order() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert_eq!(Lang::from_locale_vars(env(&[("LANG", "fi_FI.UTF-8")])), Lang::Fi);
        assert_eq!(Lang::from_locale_vars(env(&[("LANG", "fi_FI.UTF-8"), ("LC_ALL", "es_ES")])), Lang::Es);
        assert_eq!(Lang::from_locale_vars(env(&[("LANG", "es_ES"), ("LC_MESSAGES", "")])), Lang::Es);
        assert_eq!(Lang::from_locale_vars(env(&[("LANG", "C.UTF-8")])), Lang::En);
        assert_eq!(Lang::from_locale_vars(env(&[])), Lang::En);
    }

    #[test]
    fn plurals_follow_each_language() {
        assert_eq!(t!(Lang::En, "duration-days", days = 1), "1 day");
        assert_eq!(t!(Lang::En, "duration-days", days = 3), "3 days");
        assert_eq!(t!(Lang::Fi, "duration-days", days = 1), "1 päivä");
        assert_eq!(t!(Lang::Fi, "duration-days", days = 3), "3 päivää");
        assert_eq!(t!(Lang::Es, "duration-days", days = 1), "1 día");
        assert_eq!(t!(Lang::Es, "duration-days", days = 3), "3 días");
    }

    #[test]
    fn quantities_are_grouped_and_identifiers_are_not() {
        assert_eq!(t!(Lang::En, "games-count", count = 12_345), "12,345 games");
        assert_eq!(t!(Lang::Fi, "games-count", count = 12_345), "12\u{a0}345 peliä");
        assert_eq!(t!(Lang::Es, "games-count", count = 12_345), "12.345 partidas");
        assert_eq!(t!(Lang::Es, "games-count", count = 1_234), "1234 partidas");
        assert_eq!(t!(Lang::Fi, "board-title", board = "12345"), "Lauta 12345");
    }

    #[test]
    fn every_message_parsed_alone_is_the_message_its_whole_file_holds() {
        // Each message is parsed alone, found from an index of the English
        // files' ids: the index must agree with the parser, every language
        // must keep each message in the same file, and a message's lines
        // cut out of its file must parse as they do in the whole file.
        let mut messages = 0;
        for lang in Lang::ALL {
            for (name, text) in sources(lang) {
                let resource = FluentResource::try_new(text.to_string()).expect("the catalogue parses");
                for entry in resource.entries() {
                    if let ast::Entry::Message(message) = entry {
                        let id = message.id.name;
                        let entry = entry_of(id).unwrap_or_else(|| panic!("{name}: {id} is not indexed"));
                        assert_eq!(
                            file_name(file_at(entry).expect("an indexed message has a file")),
                            file_name(name),
                            "{name}: {id} is in another file"
                        );
                        let alone =
                            parsed(lang, entry).unwrap_or_else(|| panic!("{name}: {id} is not found"));
                        assert_eq!(alone, message, "{name}: {id} parsed alone");
                        messages += 1;
                    }
                }
            }
        }
        assert_eq!(messages, 3 * MESSAGES, "every language has every message");
    }

    #[test]
    fn the_index_finds_each_id_at_its_own_place_and_nothing_else() {
        for entry in 0..MESSAGES {
            let id = id_at(entry).expect("every place has an id");
            assert!(!id.is_empty() && !id.contains([' ', '=']), "{id:?} at {entry}");
            assert_eq!(entry_of(id), Some(entry), "{id}");
            assert!(file_at(entry).is_some_and(|f| f.starts_with("en/") && f.ends_with(".ftl")));
            // The id with one more or one less letter is another id or none.
            assert_ne!(entry_of(&format!("{id}-")), Some(entry));
            assert_ne!(entry_of(&id[..id.len() - 1]), Some(entry));
        }
        assert_eq!(id_at(MESSAGES), None);
        assert_eq!(file_at(MESSAGES), None);
        for unknown in ["", "a", "zzz", "cli-help-verb-", "\u{10FFFF}"] {
            assert_eq!(entry_of(unknown), None, "{unknown:?}");
        }
    }

    #[test]
    fn a_message_is_cut_out_of_its_file_up_to_the_next_entry() {
        let text = "# a comment\none = One\ntwo =\n    { $n ->\n        [one] a\n       *[other] b\n}\n\n## Section\nthree = Three\n    .label = L\nthree-more = M\n";
        assert_eq!(message_source(text, "one"), Some("one = One\n"));
        assert_eq!(
            message_source(text, "two"),
            Some("two =\n    { $n ->\n        [one] a\n       *[other] b\n}\n\n")
        );
        assert_eq!(message_source(text, "three"), Some("three = Three\n    .label = L\n"));
        assert_eq!(message_source(text, "three-more"), Some("three-more = M\n"));
        assert_eq!(message_source(text, "thr"), None);
        assert_eq!(message_source(text, "four"), None);
    }

    #[test]
    fn fixed_texts_are_the_messages_without_arguments() {
        assert_eq!(fixed_text(Lang::Fi, "language-setting"), Some("Kieli"));
        assert_eq!(fixed_text(Lang::Es, "intervalo-title"), Some("Intervalo"));
        assert_eq!(fixed_text(Lang::Fi, "rewrite-title"), Some("Merkkikorvauspeli"));
        // A message that takes arguments has no fixed text; nor has a
        // message that does not exist.
        assert_eq!(fixed_text(Lang::En, "board-title"), None);
        assert_eq!(fixed_text(Lang::Es, "no-such-message"), None);
        // The same text each time, formatted once.
        assert!(std::ptr::eq(
            fixed_text(Lang::Es, "dna-rules").unwrap(),
            fixed_text(Lang::Es, "dna-rules").unwrap()
        ));
    }

    #[test]
    fn a_message_renders_in_any_language_later() {
        let m = msg!("games-count", count = 12_345);
        assert_eq!(m.render(Lang::En), "12,345 games");
        assert_eq!(m.render(Lang::Fi), "12\u{a0}345 peliä");
        assert_eq!(msg!("board-title", board = "7").render(Lang::Es), "Tablero 7");
        let names = vec!["ann".to_string(), "bob".to_string(), "cy".to_string()];
        assert_eq!(and_list(Lang::En, &names), "ann, bob and cy");
        assert_eq!(and_list(Lang::Fi, &names[1..]), "bob ja cy");
        assert_eq!(and_list(Lang::Es, &names[..1]), "ann");
        // A message's text as an argument, in the language rendered.
        assert_eq!(
            msg!("board-title", board = Arg::fixed("rewrite-title")).render(Lang::Fi),
            "Lauta Merkkikorvauspeli"
        );
        // Setting an argument again replaces it.
        assert_eq!(msg!("duration-days", days = 3).arg("days", 1).render(Lang::En), "1 day");
    }

    #[test]
    fn text_only_messages_are_written_as_fluent_writes_them() {
        // Every pattern of every catalogue (values and attributes), its
        // variables given as text: where the direct writer takes it, its
        // text is Fluent's to the byte.
        let mut direct = 0;
        for lang in Lang::ALL {
            for (name, text) in sources(lang) {
                let resource = FluentResource::try_new(text.to_string()).expect("the catalogue parses");
                for entry in resource.entries() {
                    let fluent_syntax::ast::Entry::Message(message) = entry else { continue };
                    let bundle = &BUNDLES[index(lang)];
                    let patterns = message.value.iter().chain(message.attributes.iter().map(|a| &a.value));
                    for pattern in patterns {
                        let mut args = Args::new();
                        for element in &pattern.elements {
                            if let PatternElement::Placeable {
                                expression: Expression::Inline(InlineExpression::VariableReference { id }),
                            } = element
                            {
                                args = args.with(id.name, id.name);
                            }
                        }
                        let Some(written) = plain(pattern, &args) else { continue };
                        let mut errors = Vec::new();
                        let fluent = bundle.format_pattern(pattern, Some(&args.fluent()), &mut errors);
                        assert_eq!(written, fluent, "{name}: {}", message.id.name);
                        assert!(errors.is_empty(), "{name}: {}: {errors:?}", message.id.name);
                        direct += 1;
                    }
                }
            }
        }
        assert!(direct > 1_000, "only {direct} patterns were written directly");
        // A number is Fluent's to write (its plural and its digits), and so
        // is a missing argument.
        assert_eq!(t!(Lang::Fi, "games-count", count = 2), "2 peliä");
        assert_eq!(t!(Lang::En, "board-title", other = "x"), "Board {$board}");
    }

    #[test]
    fn a_missing_message_falls_back_and_never_panics() {
        assert_eq!(t!(Lang::Fi, "no-such-message"), "no-such-message");
        assert_eq!(attribute(Lang::Es, "no-such-message", "label", &Args::new()), "no-such-message.label");
        // A missing argument shows its name rather than failing.
        assert_eq!(t!(Lang::En, "board-title"), "Board {$board}");
    }
}
