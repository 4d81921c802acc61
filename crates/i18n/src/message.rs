//! [`Message`]: a text to put into words later, in its reader's language.
//!
//! A message keeps its arguments encoded one after another in one block of
//! bytes, not as a list of values each with its own allocations: a game
//! kept between moves holds a few messages for every line of its history
//! (a line of Intervalo names both players, their cells and their scores,
//! one message inside another), and a list of named values cost about 400
//! bytes a line where the bytes cost about a hundred. A message is read
//! back only when it is put into words, once per language and reader of a
//! kept line.
//!
//! The encoding: each argument is its name, a tag, then its value; names,
//! texts and lists are preceded by their length, integers are zigzag
//! varints, and a message inside another is its id then its own block.

use std::fmt;

use crate::{Args, Lang, and_list, fixed_text, localize_decimal, text};

/// A message to be put into words later, in the language of whoever
/// reads it: its id and its arguments, owned. What code that does not
/// know its reader (a parser's error, a reply made before the account is
/// read) returns; the front end renders it with [`Message::render`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Message {
    id: &'static str,
    /// The arguments, encoded (see the module's documentation).
    args: Box<[u8]>,
}

/// An argument of a [`Message`]: text as it is, or an integer quantity.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// Shown as it is (identifiers, names, already formatted values).
    Text(String),
    /// A quantity: plurals select on it, and it is grouped per language.
    Int(i64),
    /// The text of another message without arguments (a game's title,
    /// `rewrite-title`), in the language the message is rendered in.
    Fixed(String),
    /// Names joined as the language lists them: `a, b and c`, `a, b ja c`.
    List(Vec<String>),
    /// Another message, rendered in the same language (an option error's
    /// problem inside the line that names the option).
    Message(Box<Message>),
    /// A number as English writes it without grouping (`10.25`, `-3.5`),
    /// shown with the language's decimal mark and minus sign, digits as
    /// they are (see [`localize_decimal`]). For numbers kept exactly as
    /// text, beyond what a float holds (a score with its two decimals).
    Decimal(String),
}

impl Arg {
    /// The text of the message `id` (see [`Arg::Fixed`]).
    pub fn fixed(id: impl Into<String>) -> Arg {
        Arg::Fixed(id.into())
    }

    /// The number written `text` (see [`Arg::Decimal`]).
    pub fn decimal(text: impl Into<String>) -> Arg {
        Arg::Decimal(text.into())
    }
}

// The tag written before each kind of argument's value.
const TEXT: u8 = 0;
const INT: u8 = 1;
const FIXED: u8 = 2;
const LIST: u8 = 3;
const MESSAGE: u8 = 4;
const DECIMAL: u8 = 5;

/// An argument as read back from a message's bytes.
#[derive(Debug)]
enum Value<'a> {
    Text(&'a str),
    Int(i64),
    Fixed(&'a str),
    List(Vec<&'a str>),
    Message(&'a str, &'a [u8]),
    Decimal(&'a str),
}

/// Append `n` as a varint: seven bits a byte, the high bit set on all but the last.
fn put_len(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push(n as u8 | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Append `s` after its length.
fn put_str(out: &mut Vec<u8>, s: &str) {
    put_len(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Append `value` as argument `name`.
fn put(out: &mut Vec<u8>, name: &str, value: &Value<'_>) {
    put_str(out, name);
    match value {
        Value::Text(t) => {
            out.push(TEXT);
            put_str(out, t);
        }
        Value::Int(n) => {
            out.push(INT);
            put_len(out, ((n << 1) ^ (n >> 63)) as u64);
        }
        Value::Fixed(id) => {
            out.push(FIXED);
            put_str(out, id);
        }
        Value::List(names) => {
            out.push(LIST);
            put_len(out, names.len() as u64);
            names.iter().for_each(|n| put_str(out, n));
        }
        Value::Message(id, args) => {
            out.push(MESSAGE);
            put_str(out, id);
            put_len(out, args.len() as u64);
            out.extend_from_slice(args);
        }
        Value::Decimal(d) => {
            out.push(DECIMAL);
            put_str(out, d);
        }
    }
}

impl Arg {
    /// The argument as it is written into a message's bytes.
    fn value(&self) -> Value<'_> {
        match self {
            Arg::Text(t) => Value::Text(t),
            Arg::Int(n) => Value::Int(*n),
            Arg::Fixed(id) => Value::Fixed(id),
            Arg::List(names) => Value::List(names.iter().map(String::as_str).collect()),
            Arg::Message(m) => Value::Message(m.id, &m.args),
            Arg::Decimal(d) => Value::Decimal(d),
        }
    }
}

/// Reads the arguments of a message's bytes, in order. The bytes are only
/// ever made by [`put`]: a block that does not read stops the arguments there.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn len(&mut self) -> Option<u64> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = self.0.split_first()?;
            self.0 = rest;
            n |= u64::from(byte & 0x7f) << shift;
            if byte < 0x80 {
                return Some(n);
            }
        }
        None
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.len()?).ok()?;
        let (bytes, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        Some(bytes)
    }

    fn str(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bytes()?).ok()
    }

    fn arg(&mut self) -> Option<(&'a str, Value<'a>)> {
        let name = self.str()?;
        let (&tag, rest) = self.0.split_first()?;
        self.0 = rest;
        let value = match tag {
            TEXT => Value::Text(self.str()?),
            INT => {
                let n = self.len()?;
                Value::Int((n >> 1) as i64 ^ -((n & 1) as i64))
            }
            FIXED => Value::Fixed(self.str()?),
            LIST => {
                let count = self.len()?;
                (0..count).map(|_| self.str()).collect::<Option<_>>().map(Value::List)?
            }
            MESSAGE => Value::Message(self.str()?, self.bytes()?),
            DECIMAL => Value::Decimal(self.str()?),
            _ => return None,
        };
        Some((name, value))
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = (&'a str, Value<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.arg()
    }
}

/// The message `id` with the arguments `args` in `lang`.
fn render(lang: Lang, id: &str, args: &[u8]) -> String {
    let mut values = Args::with_capacity(Reader(args).count());
    for (name, value) in Reader(args) {
        values = match value {
            Value::Text(t) => values.with(name, t),
            Value::Int(n) => values.with(name, n),
            Value::Fixed(id) => values.with(name, fixed_text(lang, id).unwrap_or(id)),
            Value::List(names) => values.with(name, and_list(lang, &names)),
            Value::Message(id, args) => values.with(name, render(lang, id, args)),
            Value::Decimal(number) => values.with(name, localize_decimal(lang, number)),
        };
    }
    text(lang, id, &values)
}

impl Message {
    /// Message `id` without arguments (add them with [`Message::arg`]).
    pub fn new(id: &'static str) -> Self {
        Message { id, args: Box::default() }
    }

    /// The same message with argument `name` set to `value`.
    pub fn arg(self, name: &'static str, value: impl Into<Arg>) -> Self {
        let mut args = Vec::new();
        if Reader(&self.args).any(|(n, _)| n == name) {
            // Set again: the others kept in order, this one last.
            for (n, v) in Reader(&self.args).filter(|(n, _)| *n != name) {
                put(&mut args, n, &v);
            }
        } else {
            args.extend_from_slice(&self.args);
        }
        put(&mut args, name, &value.into().value());
        Message { id: self.id, args: args.into_boxed_slice() }
    }

    /// The message's id.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// About how many bytes the message holds besides itself: its
    /// arguments (what a cache of replayed games counts).
    pub fn heap_size(&self) -> usize {
        self.args.len()
    }

    /// The same message with `change` applied to every text it quotes
    /// ([`Arg::Text`] and the names of an [`Arg::List`]), not to the
    /// catalogue's own words: how a reply masks what the reader typed.
    pub fn map_text(&self, change: impl Fn(&str) -> String) -> Message {
        let mut args = Vec::new();
        for (name, value) in Reader(&self.args) {
            match value {
                Value::Text(t) => put(&mut args, name, &Value::Text(&change(t))),
                Value::List(names) => {
                    let changed: Vec<String> = names.into_iter().map(&change).collect();
                    put(&mut args, name, &Value::List(changed.iter().map(String::as_str).collect()))
                }
                other => put(&mut args, name, &other),
            }
        }
        Message { id: self.id, args: args.into_boxed_slice() }
    }

    /// The message in `lang`, with the fallbacks of [`text`].
    pub fn render(&self, lang: Lang) -> String {
        render(lang, self.id, &self.args)
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Message")
            .field("id", &self.id)
            .field("args", &Reader(&self.args).collect::<Vec<_>>())
            .finish()
    }
}
/// A text already in words (a test game's own refusal), shown as it is in
/// every language: message `as-is`.
impl From<&str> for Message {
    fn from(text: &str) -> Self {
        crate::msg!("as-is", text = text)
    }
}

/// See `From<&str>`.
impl From<String> for Message {
    fn from(text: String) -> Self {
        crate::msg!("as-is", text = text)
    }
}

/// The message in English, for logs and for code that has no reader.
impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// A message in data for machines (a game's view in JSON) is its English
/// text, as such data always had it; people read it rendered in their own
/// language elsewhere.
impl serde::Serialize for Message {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// A message equals a text when it reads so in English: how tests and
/// English-only code compare a game's words with what they expect.
impl PartialEq<str> for Message {
    fn eq(&self, other: &str) -> bool {
        self.render(Lang::En) == other
    }
}

/// See `PartialEq<str>`.
impl PartialEq<&str> for Message {
    fn eq(&self, other: &&str) -> bool {
        self.render(Lang::En) == *other
    }
}

impl From<Message> for Arg {
    fn from(v: Message) -> Self {
        Arg::Message(Box::new(v))
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Text(v.to_string())
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Text(v)
    }
}

impl From<&String> for Arg {
    fn from(v: &String) -> Self {
        Arg::Text(v.clone())
    }
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(v: $t) -> Self {
                Arg::Int(i64::try_from(v).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_arg!(i32, i64, u32, u64, usize);

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn arg() -> impl Strategy<Value = Arg> {
        let leaf = prop_oneof![
            ".*".prop_map(Arg::Text),
            any::<i64>().prop_map(Arg::Int),
            "[a-z-]{0,12}".prop_map(Arg::Fixed),
            prop::collection::vec(".*", 0..4).prop_map(Arg::List),
            "-?[0-9]{1,4}\\.[0-9]{2}".prop_map(Arg::Decimal),
        ];
        leaf.prop_recursive(3, 12, 4, |inner| {
            prop::collection::vec(("[a-z][a-z0-9]{0,5}", inner), 0..4).prop_map(|args| {
                let m = args.into_iter().fold(Message::new("board-title"), |m, (name, value)| {
                    m.arg(Box::leak(name.into_boxed_str()), value)
                });
                Arg::Message(Box::new(m))
            })
        })
    }

    /// What `put` wrote, read back as owned arguments.
    fn read(message: &Message) -> Vec<(String, String)> {
        Reader(&message.args).map(|(n, v)| (n.to_string(), format!("{v:?}"))).collect()
    }

    proptest! {
        #[test]
        fn arguments_read_back_as_they_were_given(
            args in prop::collection::vec(("[a-z][a-z0-9]{0,5}", arg()), 0..6),
        ) {
            let mut expected: Vec<(String, Arg)> = Vec::new();
            let mut message = Message::new("board-title");
            for (name, value) in args {
                expected.retain(|(n, _)| *n != name);
                expected.push((name.clone(), value.clone()));
                message = message.arg(Box::leak(name.into_boxed_str()), value);
            }
            let expected: Vec<(String, String)> =
                expected.iter().map(|(n, v)| (n.clone(), format!("{:?}", v.value()))).collect();
            prop_assert_eq!(read(&message), expected);
            // Every byte is an argument's: nothing is left unread.
            let mut reader = Reader(&message.args);
            while reader.arg().is_some() {}
            prop_assert!(reader.0.is_empty());
            prop_assert_eq!(message.heap_size(), message.args.len());
        }
    }

    #[test]
    fn each_kind_of_argument_renders_as_the_catalogue_writes_it() {
        let inner = crate::msg!("board-title", board = "7");
        let m = crate::msg!("as-is", text = Arg::Message(Box::new(inner.clone())));
        assert_eq!(m.render(Lang::Es), "Tablero 7");
        assert_eq!(crate::msg!("games-count", count = 12_345).render(Lang::En), "12,345 games");
        assert_eq!(
            crate::msg!("as-is", text = Arg::List(vec!["a".into(), "b".into()])).render(Lang::Fi),
            "a ja b"
        );
        assert_eq!(crate::msg!("as-is", text = Arg::decimal("-3.50")).render(Lang::Es), "-3,50");
        assert_eq!(crate::msg!("as-is", text = Arg::fixed("rewrite-title")).render(Lang::En), "Rewrite");
        assert_eq!(inner.map_text(|t| format!("<{t}>")).render(Lang::En), "Board <7>");
        assert_eq!(format!("{inner:?}"), r#"Message { id: "board-title", args: [("board", Text("7"))] }"#);
    }

    #[test]
    fn a_line_of_intervalo_takes_about_a_hundred_bytes() {
        let line = crate::msg!(
            "intervalo-history-turn",
            turn = "12",
            what = crate::msg!(
                "intervalo-history-scores",
                p0 = "ann",
                c0 = "31",
                p1 = "bob",
                c1 = "47",
                user = "bob"
            ),
            p0 = "ann",
            s0 = "5",
            p1 = "bob",
            s1 = "6"
        );
        // As a list of named values it held 576 bytes of them, and a
        // string for each of its eleven texts.
        assert!(line.heap_size() <= 128, "{} bytes", line.heap_size());
    }
}
