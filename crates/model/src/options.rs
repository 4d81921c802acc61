use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use tabula_i18n::{Arg, Message, msg};

use crate::error::game_title;
use crate::info::{GameInfo, OptionKind, OptionSpec};

/// The value of one option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// A flag or an on/off option.
    Flag(bool),
    /// A number; durations are stored in seconds.
    Int(i64),
    /// Text or a choice.
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Flag(b) => write!(f, "{b}"),
            OptionValue::Int(n) => write!(f, "{n}"),
            OptionValue::Text(s) => f.write_str(s),
        }
    }
}

/// A bad option word. Every message names the option.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// No such option for this game.
    #[error("{}", self.message())]
    Unknown {
        /// The option as written.
        name: String,
        /// The game's command word (its title is the catalogue's `KIND-title`).
        game: &'static str,
        /// The accepted options, for the message.
        known: String,
    },
    /// A value that does not parse or is out of range.
    #[error("{}", self.message())]
    BadValue {
        /// The option.
        name: String,
        /// What is wrong.
        problem: Message,
    },
    /// The same option given twice.
    #[error("{}", self.message())]
    Repeated(String),
}

impl OptionError {
    /// What the error says, to put into its reader's language.
    pub fn message(&self) -> Message {
        match self {
            OptionError::Unknown { name, game, known } => {
                msg!("option-error-unknown", name = name, game = game_title(game), known = known)
            }
            OptionError::BadValue { name, problem } => {
                msg!("option-error-bad-value", name = name, problem = problem.clone())
            }
            OptionError::Repeated(name) => msg!("option-error-repeated", name = name),
        }
    }
}

/// Resolved options of one game: every option of the game with a value (its
/// default where not given), or absent where the default is "unset". Stored
/// in the record fully resolved, so a replay never depends on defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    values: BTreeMap<String, OptionValue>,
    /// Options the creator typed, in canonical `-name=value` form (for display).
    #[serde(default)]
    given: Vec<String>,
}

impl Options {
    /// Parse option words (`-length=30`, `-manual`) for `info`'s game, filling
    /// in defaults.
    pub fn parse<S: AsRef<str>>(info: &GameInfo, words: &[S]) -> Result<Options, OptionError> {
        let mut values = BTreeMap::new();
        let mut given = Vec::new();
        for word in words {
            let word = word.as_ref();
            let body = word.strip_prefix('-').unwrap_or(word);
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let name_lc = name.to_ascii_lowercase();
            let spec = info.option(&name_lc).ok_or_else(|| OptionError::Unknown {
                name: name.to_string(),
                game: info.kind,
                known: info.all_options().map(|o| format!("-{}", o.name)).collect::<Vec<_>>().join(" "),
            })?;
            if values.contains_key(spec.name) {
                return Err(OptionError::Repeated(spec.name.to_string()));
            }
            let parsed = parse_value(info.kind, spec, value)?;
            given.push(canonical(spec, &parsed));
            values.insert(spec.name.to_string(), parsed);
        }
        for spec in info.all_options() {
            if values.contains_key(spec.name) {
                continue;
            }
            match (spec.kind, spec.default) {
                (OptionKind::Flag, _) => {
                    values.insert(spec.name.to_string(), OptionValue::Flag(false));
                }
                (_, Some(default)) => {
                    let v = parse_value(info.kind, spec, Some(default)).expect("option defaults are valid");
                    values.insert(spec.name.to_string(), v);
                }
                (_, None) => {}
            }
        }
        Ok(Options { values, given })
    }

    /// Options built directly from values (tests and bots).
    pub fn from_values(info: &GameInfo, pairs: &[(&str, &str)]) -> Result<Options, OptionError> {
        let words: Vec<String> = pairs
            .iter()
            .map(|(n, v)| if v.is_empty() { format!("-{n}") } else { format!("-{n}={v}") })
            .collect();
        Options::parse(info, &words)
    }

    /// Whether a flag is on. Unknown names are off.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.values.get(name), Some(OptionValue::Flag(true)))
    }

    /// An integer or duration (seconds) option, if set.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.values.get(name) {
            Some(OptionValue::Int(n)) => Some(*n),
            _ => None,
        }
    }

    /// A text or choice option, if set.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.values.get(name) {
            Some(OptionValue::Text(s)) => Some(s),
            _ => None,
        }
    }

    /// Whether the creator typed this option (as opposed to its default).
    pub fn was_given(&self, name: &str) -> bool {
        let prefix = format!("-{name}");
        self.given.iter().any(|g| g == &prefix || g.starts_with(&format!("{prefix}=")))
    }

    /// The options as typed by the creator, canonicalised (`-length=30 -manual`).
    pub fn given(&self) -> &[String] {
        &self.given
    }

    /// Every resolved value, by name.
    pub fn values(&self) -> &BTreeMap<String, OptionValue> {
        &self.values
    }

    /// The resolved values as a JSON object (for bots and the API).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(&self.values).unwrap_or(serde_json::Value::Null)
    }
}

fn canonical(spec: &OptionSpec, value: &OptionValue) -> String {
    match (spec.kind, value) {
        (OptionKind::Flag, _) => format!("-{}", spec.name),
        (OptionKind::Duration { .. }, OptionValue::Int(secs)) => {
            format!("-{}={}", spec.name, format_duration(*secs))
        }
        _ => format!("-{}={}", spec.name, value),
    }
}

/// A duration in seconds in the shortest exact unit (`90s`, `15m`, `1h`, `7d`).
pub fn format_duration(secs: i64) -> String {
    for (unit, len) in [('w', 604_800), ('d', 86_400), ('h', 3_600), ('m', 60)] {
        if secs != 0 && secs % len == 0 {
            return format!("{}{unit}", secs / len);
        }
    }
    format!("{secs}s")
}

fn bad(spec: &OptionSpec, problem: Message) -> OptionError {
    OptionError::BadValue { name: spec.name.to_string(), problem }
}

/// What a text option accepts, in the language its message is put into
/// (see [`GameInfo::option_accepts`]).
fn accepts_arg(kind: &str, spec: &OptionSpec, english: &str) -> Arg {
    let id = format!("{kind}-option-{}-accepts", spec.name);
    if tabula_i18n::has_message(&id) { Arg::fixed(id) } else { Arg::Text(english.to_string()) }
}

fn parse_value(kind: &str, spec: &OptionSpec, value: Option<&str>) -> Result<OptionValue, OptionError> {
    match spec.kind {
        OptionKind::Flag => match value {
            None => Ok(OptionValue::Flag(true)),
            Some(v) => match v.to_ascii_lowercase().as_str() {
                "1" | "yes" | "true" | "on" => Ok(OptionValue::Flag(true)),
                "0" | "no" | "false" | "off" => Ok(OptionValue::Flag(false)),
                _ => Err(bad(spec, msg!("option-error-flag", name = spec.name))),
            },
        },
        OptionKind::Int { min, max } => {
            let v = value.ok_or_else(|| bad(spec, msg!("option-error-needs-number", name = spec.name)))?;
            let n: i64 = v
                .trim()
                .parse()
                .map_err(|_| bad(spec, msg!("option-error-not-number", value = format!("{v:?}"))))?;
            if n < min || n > max {
                return Err(bad(
                    spec,
                    msg!(
                        "option-error-range",
                        min = min.to_string(),
                        max = max.to_string(),
                        value = n.to_string()
                    ),
                ));
            }
            Ok(OptionValue::Int(n))
        }
        OptionKind::Text { min_len, max_len, accepts } => {
            let v = value.ok_or_else(|| bad(spec, msg!("option-error-needs-text", name = spec.name)))?;
            let len = v.chars().count();
            if len < min_len || len > max_len {
                return Err(bad(
                    spec,
                    msg!(
                        "option-error-text-length",
                        min = min_len,
                        max = max_len,
                        accepts = accepts_arg(kind, spec, accepts),
                        length = len
                    ),
                ));
            }
            if v.chars().any(|c| c.is_control() || c.is_whitespace()) {
                return Err(bad(
                    spec,
                    msg!("option-error-text-letters", accepts = accepts_arg(kind, spec, accepts)),
                ));
            }
            Ok(OptionValue::Text(v.to_string()))
        }
        OptionKind::Duration { min_secs, max_secs, unit } => {
            let v = value.ok_or_else(|| bad(spec, msg!("option-error-needs-duration", name = spec.name)))?;
            let secs = parse_duration(v, unit)
                .ok_or_else(|| bad(spec, msg!("option-error-not-duration", value = format!("{v:?}"))))?;
            if secs < min_secs || secs > max_secs {
                return Err(bad(
                    spec,
                    msg!(
                        "option-error-range",
                        min = format_duration(min_secs),
                        max = format_duration(max_secs),
                        value = format_duration(secs)
                    ),
                ));
            }
            Ok(OptionValue::Int(secs))
        }
        OptionKind::Choice { choices } => {
            let v = value
                .ok_or_else(|| bad(spec, msg!("option-error-needs-choice", choices = choices.join(", "))))?;
            let lc = v.to_ascii_lowercase();
            if !choices.contains(&lc.as_str()) {
                return Err(bad(
                    spec,
                    msg!("option-error-choice", choices = choices.join(", "), value = format!("{v:?}")),
                ));
            }
            Ok(OptionValue::Text(lc))
        }
    }
}

/// Parse `30s`, `15m`, `1h`, `7d`, `2w`, or a bare number in `default_unit`.
pub fn parse_duration(text: &str, default_unit: char) -> Option<i64> {
    let text = text.trim();
    let (digits, unit) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&text[..i], c.to_ascii_lowercase()),
        _ => (text, default_unit),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 12 {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    let mult = match unit {
        's' => 1,
        'm' => 60,
        'h' => 3_600,
        'd' => 86_400,
        'w' => 604_800,
        _ => return None,
    };
    n.checked_mul(mult)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::Dynamics;

    const OPTS: &[OptionSpec] = &[
        OptionSpec {
            name: "length",
            kind: OptionKind::Int { min: 3, max: 100 },
            default: Some("36"),
            help: "",
        },
        OptionSpec { name: "manual", kind: OptionKind::Flag, default: None, help: "" },
        OptionSpec {
            name: "edges",
            kind: OptionKind::Choice { choices: &["dead", "torus"] },
            default: Some("dead"),
            help: "",
        },
        OptionSpec {
            name: "tick",
            kind: OptionKind::Duration { min_secs: 1, max_secs: 86400, unit: 's' },
            default: Some("1h"),
            help: "",
        },
        OptionSpec { name: "limit", kind: OptionKind::Int { min: 1, max: 9 }, default: None, help: "" },
    ];
    const INFO: GameInfo = GameInfo {
        kind: "t",
        min_players: 2,
        max_players: 2,
        dynamics: Dynamics::Sequential,
        hidden_information: false,
        open_join: false,
        options: OPTS,
    };

    #[test]
    fn defaults_fill_in() {
        let o = Options::parse::<&str>(&INFO, &[]).unwrap();
        assert_eq!(o.int("length"), Some(36));
        assert!(!o.flag("manual"));
        assert_eq!(o.text("edges"), Some("dead"));
        assert_eq!(o.int("tick"), Some(3600));
        assert_eq!(o.int("limit"), None);
        assert_eq!(o.int("forfeit"), Some(21 * 86400));
    }

    #[test]
    fn values_parse_and_canonicalise() {
        let o = Options::parse(&INFO, &["-LENGTH=40", "-manual", "-edges=Torus", "-tick=90"]).unwrap();
        assert_eq!(o.int("length"), Some(40));
        assert!(o.flag("manual"));
        assert_eq!(o.text("edges"), Some("torus"));
        assert_eq!(o.int("tick"), Some(90));
        assert_eq!(o.given(), ["-length=40", "-manual", "-edges=torus", "-tick=90s"]);
        assert!(o.was_given("manual") && !o.was_given("limit"));
    }

    #[test]
    fn errors_name_the_option() {
        let e = Options::parse(&INFO, &["-length=2"]).unwrap_err().to_string();
        assert_eq!(e, "-length: must be between 3 and 100, not 2");
        let e = Options::parse(&INFO, &["-lenght=20"]).unwrap_err().to_string();
        // A game without a catalogue is named by its command word.
        assert!(e.starts_with("unknown option -lenght for t "), "{e}");
        let e = Options::parse(&INFO, &["-length=x"]).unwrap_err().to_string();
        assert_eq!(e, "-length: \"x\" is not a whole number");
        let e = Options::parse(&INFO, &["-edges=round"]).unwrap_err().to_string();
        assert_eq!(e, "-edges: must be one of dead, torus, not \"round\"");
        let e = Options::parse(&INFO, &["-manual", "-manual"]).unwrap_err().to_string();
        assert_eq!(e, "-manual is given twice");
        let e = Options::parse(&INFO, &["-tick=0"]).unwrap_err().to_string();
        assert_eq!(e, "-tick: must be between 1s and 1d, not 0s");
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("7d", 's'), Some(604_800));
        assert_eq!(parse_duration("15", 'm'), Some(900));
        assert_eq!(parse_duration("1x", 's'), None);
        assert_eq!(parse_duration("", 's'), None);
        assert_eq!(parse_duration("99999999999999999", 's'), None);
        assert_eq!(format_duration(3600), "1h");
        assert_eq!(format_duration(90), "90s");
    }

    proptest::proptest! {
        #[test]
        fn option_parsing_never_panics(words in proptest::collection::vec("-?[a-z=0-9dh]{0,12}", 0..5)) {
            let _ = Options::parse(&INFO, &words);
        }
    }
}
