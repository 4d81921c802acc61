//! Long strings in views: a view over the API, the web pages, event
//! streams and `--json` shows each string of at most [`VIEW_WINDOW`] bytes
//! whole, and longer ones (a Rewrite table string can reach 16 MiB) cut to
//! their first [`VIEW_WINDOW`] bytes, with the cut stated in the report
//! ([`CutText`]). The whole string is one request away
//! (`Service::view_text`, `GET /api/v1/games/{id}/text?pointer=...`).

use serde::Serialize;
use serde_json::Value;
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

/// `view`, written as JSON, with every string longer than [`VIEW_WINDOW`]
/// cut; what was cut.
pub(crate) fn window(view: Box<RawValue>) -> (Box<RawValue>, Vec<CutText>) {
    // Every board reply comes through here and almost no view has a long
    // string: a view no longer than the window holds none, and a longer
    // one is looked through before a pointer is built for each value.
    if view.get().len() <= VIEW_WINDOW {
        return (view, Vec::new());
    }
    let Ok(mut tree) = serde_json::from_str::<Value>(view.get()) else { return (view, Vec::new()) };
    if !has_long_string(&tree) {
        return (view, Vec::new());
    }
    let mut cut = Vec::new();
    walk(&mut tree, &mut String::new(), &mut cut);
    match serde_json::value::to_raw_value(&tree) {
        Ok(shown) => (shown, cut),
        Err(_) => (view, Vec::new()),
    }
}

fn has_long_string(value: &Value) -> bool {
    match value {
        Value::String(s) => s.len() > VIEW_WINDOW,
        Value::Array(items) => items.iter().any(has_long_string),
        Value::Object(fields) => fields.values().any(has_long_string),
        _ => false,
    }
}

fn walk(value: &mut Value, pointer: &mut String, cut: &mut Vec<CutText>) {
    let at = pointer.len();
    match value {
        Value::String(s) if s.len() > VIEW_WINDOW => {
            let mut keep = VIEW_WINDOW;
            while !s.is_char_boundary(keep) {
                keep -= 1;
            }
            cut.push(CutText { pointer: pointer.clone(), length: s.len(), shown: keep });
            s.truncate(keep);
            s.shrink_to_fit();
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                pointer.push_str(&format!("/{i}"));
                walk(item, pointer, cut);
                pointer.truncate(at);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields.iter_mut() {
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                walk(item, pointer, cut);
                pointer.truncate(at);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_strings_are_cut_and_named_short_ones_kept() {
        let long = "a".repeat(VIEW_WINDOW + 10);
        // Two bytes a letter after the first: byte VIEW_WINDOW is inside a letter.
        let wide = format!("x{}", "é".repeat(VIEW_WINDOW / 2 + 10));
        let view = json!({"table": long, "tables": [{"text": "ab"}, {"a/b": wide}], "n": 3});
        let (shown, cut) = window(serde_json::value::to_raw_value(&view).unwrap());
        let view: Value = serde_json::from_str(shown.get()).unwrap();
        assert_eq!(view["table"].as_str().unwrap().len(), VIEW_WINDOW);
        assert_eq!(view["tables"][0]["text"], "ab");
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
        let shown = view.pointer("/tables/1/a~1b").unwrap().as_str().unwrap();
        assert_eq!(shown.len(), VIEW_WINDOW - 1, "cut on a character boundary");
    }

    #[test]
    fn views_without_long_strings_are_sent_as_written() {
        // Longer than the window in all, but no string of it is.
        let many: Vec<String> = (0..VIEW_WINDOW / 8).map(|i| format!("s{i}")).collect();
        for view in [json!({"n": 1, "s": "short"}), json!({"many": many})] {
            let written = serde_json::value::to_raw_value(&view).unwrap();
            let text = written.get().to_string();
            let (shown, cut) = window(written);
            assert!(cut.is_empty());
            assert_eq!(shown.get(), text);
        }
    }
}
