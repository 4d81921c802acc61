//! Long strings in views: a view over the API, the web pages, event
//! streams and `--json` shows each string of at most [`VIEW_WINDOW`] bytes
//! whole, and longer ones (a Rewrite table string can reach 16 MiB) cut to
//! their first [`VIEW_WINDOW`] bytes, with the cut stated beside the view
//! ([`CutText`]). The whole string is one request away (the service's
//! `view_text`, `GET /api/v1/games/{id}/text?pointer=...`).
//!
//! The cut is made while the view is written: a long string is never
//! copied whole into JSON text or a JSON tree (two more copies of a 16 MiB
//! table for every reader of such a game, each reply, at once).

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};
use serde_json::value::RawValue;

/// The longest string a view shows whole, in bytes.
pub const VIEW_WINDOW: usize = 64 * 1024;

/// A string of a view that was cut to its first [`CutText::shown`] bytes.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, utoipa::ToSchema)]
pub struct CutText {
    /// Where it is in the view, as a JSON pointer (RFC 6901): `/table`.
    pub pointer: String,
    /// Its whole length in bytes.
    pub length: usize,
    /// The bytes shown.
    pub shown: usize,
}

/// `view` written as JSON, every string longer than [`VIEW_WINDOW`] cut to
/// its first [`VIEW_WINDOW`] bytes (fewer where a character would be
/// split); what was cut. A view that cannot be written is `null`.
pub fn write_windowed<T: Serialize + ?Sized>(view: &T) -> (Box<RawValue>, Vec<CutText>) {
    let mut out = Vec::with_capacity(256);
    let mut writer = Windowed::default();
    let written = view.serialize(&mut serde_json::Serializer::with_formatter(&mut out, &mut writer));
    let text = written.ok().and_then(|()| String::from_utf8(out).ok());
    match text.map(RawValue::from_string) {
        Some(Ok(raw)) => (raw, writer.cut),
        _ => (RawValue::from_string("null".into()).expect("null is JSON"), Vec::new()),
    }
}

/// Where the writer is in the view: the path to the current value.
enum Step {
    /// In an array, at this index.
    Item(usize),
    /// In an object, under this key.
    Field(String),
}

/// The string being written, when it is a value (not a key).
struct StringSoFar {
    /// Bytes of the string so far.
    length: usize,
    /// Bytes of it written.
    shown: usize,
    /// Whether a byte was left out: nothing more of it is written.
    stopped: bool,
}

/// A compact JSON formatter that cuts long strings and notes where.
#[derive(Default)]
struct Windowed {
    path: Vec<Step>,
    in_key: bool,
    string: Option<StringSoFar>,
    cut: Vec<CutText>,
}

impl Windowed {
    fn key(&mut self) -> Option<&mut String> {
        match (self.in_key, self.path.last_mut()) {
            (true, Some(Step::Field(key))) => Some(key),
            _ => None,
        }
    }

    fn pointer(&self) -> String {
        let mut pointer = String::new();
        for step in &self.path {
            pointer.push('/');
            match step {
                Step::Item(i) => pointer.push_str(&i.to_string()),
                Step::Field(key) => pointer.push_str(&key.replace('~', "~0").replace('/', "~1")),
            }
        }
        pointer
    }
}

/// Integer and boolean map keys are written as strings of their digits:
/// they are noted as keys too.
macro_rules! key_or_value {
    ($($write:ident: $t:ty),*) => {$(
        fn $write<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: $t) -> io::Result<()> {
            if let Some(key) = self.key() {
                key.push_str(&value.to_string());
            }
            CompactFormatter.$write(writer, value)
        }
    )*};
}

impl Formatter for &mut Windowed {
    key_or_value!(
        write_bool: bool, write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64, write_i128: i128,
        write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64, write_u128: u128
    );

    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if !self.in_key {
            self.string = Some(StringSoFar { length: 0, shown: 0, stopped: false });
        }
        writer.write_all(b"\"")
    }

    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        if let Some(s) = self.string.take()
            && s.length > s.shown
        {
            let pointer = self.pointer();
            self.cut.push(CutText { pointer, length: s.length, shown: s.shown });
        }
        writer.write_all(b"\"")
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if let Some(key) = self.key() {
            key.push_str(fragment);
            return writer.write_all(fragment.as_bytes());
        }
        let Some(s) = self.string.as_mut() else { return writer.write_all(fragment.as_bytes()) };
        s.length += fragment.len();
        if s.stopped {
            return Ok(());
        }
        let mut room = (VIEW_WINDOW - s.shown).min(fragment.len());
        while !fragment.is_char_boundary(room) {
            room -= 1;
        }
        s.shown += room;
        s.stopped = room < fragment.len();
        writer.write_all(&fragment.as_bytes()[..room])
    }

    fn write_char_escape<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        if let Some(key) = self.key() {
            key.push(unescaped(&escape));
        } else if let Some(s) = self.string.as_mut() {
            // Every escaped character is one byte (a quote, a backslash, a control).
            s.length += 1;
            if s.stopped || s.shown == VIEW_WINDOW {
                s.stopped = true;
                return Ok(());
            }
            s.shown += 1;
        }
        CompactFormatter.write_char_escape(writer, escape)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.path.push(Step::Item(0));
        writer.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.path.pop();
        writer.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if !first && let Some(Step::Item(i)) = self.path.last_mut() {
            *i += 1;
        }
        CompactFormatter.begin_array_value(writer, first)
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.path.push(Step::Field(String::new()));
        writer.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.path.pop();
        writer.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.in_key = true;
        if let Some(key) = self.key() {
            key.clear();
        }
        CompactFormatter.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }
}

/// The character an escape in a key stands for.
fn unescaped(escape: &CharEscape) -> char {
    match escape {
        CharEscape::Quote => '"',
        CharEscape::ReverseSolidus => '\\',
        CharEscape::Solidus => '/',
        CharEscape::Backspace => '\u{8}',
        CharEscape::FormFeed => '\u{c}',
        CharEscape::LineFeed => '\n',
        CharEscape::CarriageReturn => '\r',
        CharEscape::Tab => '\t',
        CharEscape::AsciiControl(byte) => char::from(*byte),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    fn windowed(view: &Value) -> (Value, Vec<CutText>) {
        let (text, cut) = write_windowed(view);
        (serde_json::from_str(text.get()).expect("JSON"), cut)
    }

    /// `view` with the strings `cut` names cut as it says: what the view
    /// written with its cuts must equal.
    fn cut_as_told(view: &Value, cut: &[CutText]) -> Value {
        let mut view = view.clone();
        for c in cut {
            let Some(Value::String(s)) = view.pointer_mut(&c.pointer) else {
                panic!("no string at {}", c.pointer)
            };
            assert_eq!(s.len(), c.length, "{}", c.pointer);
            s.truncate(c.shown);
        }
        view
    }

    #[test]
    fn long_strings_are_cut_and_named_short_ones_kept() {
        let long = "a".repeat(VIEW_WINDOW + 10);
        // Two bytes a letter after the first: byte VIEW_WINDOW is inside a letter.
        let wide = format!("x{}", "é".repeat(VIEW_WINDOW / 2 + 10));
        let view = json!({"table": long, "tables": [{"text": "ab"}, {"a/b": wide}], "n": 3});
        let (shown, cut) = windowed(&view);
        assert_eq!(shown["table"].as_str().unwrap().len(), VIEW_WINDOW);
        assert_eq!(shown["tables"][0]["text"], "ab");
        assert_eq!(
            cut,
            [
                CutText { pointer: "/table".into(), length: VIEW_WINDOW + 10, shown: VIEW_WINDOW },
                CutText {
                    pointer: "/tables/1/a~1b".into(),
                    length: VIEW_WINDOW + 21,
                    shown: VIEW_WINDOW - 1
                },
            ]
        );
        let wide_shown = shown.pointer("/tables/1/a~1b").unwrap().as_str().unwrap();
        assert_eq!(wide_shown.len(), VIEW_WINDOW - 1, "cut on a character boundary");
        assert_eq!(shown, cut_as_told(&view, &cut));
    }

    #[test]
    fn escaped_characters_count_as_the_bytes_they_stand_for() {
        // A quote at the window's last byte is shown, a newline after it is not.
        let s = format!("{}\"\n{}", "a".repeat(VIEW_WINDOW - 1), "b".repeat(5));
        let view = json!({"k~\"ey\n": [1, s]});
        let (shown, cut) = windowed(&view);
        assert_eq!(
            cut,
            [CutText { pointer: "/k~0\"ey\n/1".into(), length: VIEW_WINDOW + 6, shown: VIEW_WINDOW }]
        );
        assert_eq!(shown, cut_as_told(&view, &cut));
        assert!(shown["k~\"ey\n"][1].as_str().unwrap().ends_with("a\""));
    }

    #[test]
    fn integer_keys_are_named_in_the_pointer() {
        let map: std::collections::BTreeMap<u32, String> = [(7, "z".repeat(VIEW_WINDOW + 1))].into();
        let (_, cut) = write_windowed(&std::collections::BTreeMap::from([("by_seat", map)]));
        assert_eq!(cut[0].pointer, "/by_seat/7");
    }

    #[test]
    fn views_without_long_strings_are_written_as_serde_json_writes_them() {
        // Longer than the window in all, but no string of it is.
        let many: Vec<String> = (0..VIEW_WINDOW / 8).map(|i| format!("s{i}")).collect();
        for view in [json!({"n": 1, "s": "short", "x": [true, null, 1.5, -3]}), json!({"many": many})] {
            let (text, cut) = write_windowed(&view);
            assert!(cut.is_empty());
            assert_eq!(text.get(), serde_json::to_string(&view).unwrap());
        }
    }

    fn long_strings(view: &Value) -> usize {
        match view {
            Value::String(s) => usize::from(s.len() > VIEW_WINDOW),
            Value::Array(items) => items.iter().map(long_strings).sum(),
            Value::Object(fields) => fields.values().map(long_strings).sum(),
            _ => 0,
        }
    }

    fn json_tree() -> impl Strategy<Value = Value> {
        let string = prop_oneof![
            "[a-z\"\\\\/\n\té]{0,6}".prop_map(Value::from),
            (1usize..3, "[a\"é\n]").prop_map(|(n, c)| Value::from(c.repeat(VIEW_WINDOW * n / c.len() + n))),
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            string
        ];
        leaf.prop_recursive(3, 12, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::btree_map("[a-z~/\"]{0,3}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_view_is_written_as_its_cuts_say(view in json_tree()) {
            let (shown, cut) = windowed(&view);
            prop_assert_eq!(&shown, &cut_as_told(&view, &cut));
            prop_assert_eq!(cut.len(), long_strings(&view));
            for c in &cut {
                prop_assert!(c.length > VIEW_WINDOW && c.shown <= VIEW_WINDOW && c.shown + 3 >= VIEW_WINDOW);
            }
        }
    }
}
