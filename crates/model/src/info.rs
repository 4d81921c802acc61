use serde::Serialize;

use crate::Lang;

/// How a game's turns are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dynamics {
    /// One player at a time.
    Sequential,
    /// All players choose secretly, then everything is revealed.
    Simultaneous,
    /// Driven by the wall clock; players act at any time.
    RealTime,
}

/// Static facts about a game: what `help` and `list` print, what challenge
/// forms are generated from, and what options are accepted. Its texts
/// (title, summary, rules, move help) are in the game's catalogues,
/// `crates/GAME/locales/LANG/GAME.ftl`, one per language.
#[derive(Debug)]
pub struct GameInfo {
    /// The command word (`dna`): the same in every language.
    pub kind: &'static str,
    /// Fewest players at the start.
    pub min_players: usize,
    /// Most players.
    pub max_players: usize,
    /// Turn structure.
    pub dynamics: Dynamics,
    /// Whether players hold secrets others must not see.
    pub hidden_information: bool,
    /// Whether users not in the game may join while it runs.
    pub open_join: bool,
    /// The game's own options (the common ones are in [`COMMON_OPTIONS`]).
    pub options: &'static [OptionSpec],
}

impl GameInfo {
    /// Every option this game accepts: its own, then the common ones.
    pub fn all_options(&self) -> impl Iterator<Item = &'static OptionSpec> {
        self.options.iter().chain(COMMON_OPTIONS.iter())
    }

    /// The option spec named `name`.
    pub fn option(&self, name: &str) -> Option<&'static OptionSpec> {
        self.all_options().find(|o| o.name == name)
    }

    /// The display name in `lang` (`DNA`; `Merkkikorvauspeli` in Finnish):
    /// message `KIND-title`, or the command word for a game without a
    /// catalogue.
    pub fn title(&self, lang: Lang) -> &'static str {
        self.text(lang, "title").unwrap_or(self.kind)
    }

    /// One line for `list` in `lang`: message `KIND-summary`.
    pub fn summary(&self, lang: Lang) -> &'static str {
        self.text(lang, "summary").unwrap_or_default()
    }

    /// The rules in `lang`, as `help KIND` prints them: message `KIND-rules`.
    pub fn rules(&self, lang: Lang) -> &'static str {
        self.text(lang, "rules").unwrap_or_default()
    }

    /// Move syntax with examples in `lang`, as `help KIND` prints it:
    /// message `KIND-move-help`.
    pub fn move_help(&self, lang: Lang) -> &'static str {
        self.text(lang, "move-help").unwrap_or_default()
    }

    /// What option `o` does, in `lang`: message `KIND-option-NAME` of the
    /// game's catalogue, or `option-NAME` for the options every game has
    /// (the English text of [`OptionSpec::help`] for one without).
    pub fn option_help(&self, o: &OptionSpec, lang: Lang) -> &'static str {
        tabula_i18n::fixed_text(lang, &format!("{}-option-{}", self.kind, o.name))
            .or_else(|| tabula_i18n::fixed_text(lang, &format!("option-{}", o.name)))
            .unwrap_or(o.help)
    }

    /// What a text option accepts, in `lang`: message
    /// `KIND-option-NAME-accepts` (the English of [`OptionKind::Text`]'s
    /// `accepts` for one without). `None` for an option that is not text.
    pub fn option_accepts(&self, o: &OptionSpec, lang: Lang) -> Option<&'static str> {
        let OptionKind::Text { accepts, .. } = o.kind else { return None };
        Some(
            tabula_i18n::fixed_text(lang, &format!("{}-option-{}-accepts", self.kind, o.name))
                .unwrap_or(accepts),
        )
    }

    /// Message `KIND-PART` of the game's catalogue. A game's texts take no
    /// arguments, so each is formatted once and kept.
    fn text(&self, lang: Lang, part: &str) -> Option<&'static str> {
        tabula_i18n::fixed_text(lang, &format!("{}-{part}", self.kind))
    }
}

/// The type and range of one option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum OptionKind {
    /// `-name` alone turns it on.
    Flag,
    /// `-name=N` with `min <= N <= max`.
    Int {
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// `-name=TEXT`: letters from `charset` (any printable if empty), length within bounds.
    Text {
        /// Shortest accepted length.
        min_len: usize,
        /// Longest accepted length.
        max_len: usize,
        /// A description of what is accepted, for help and errors.
        accepts: &'static str,
    },
    /// `-name=DURATION` (`30s`, `15m`, `1h`, `7d`, `2w`; a bare number is in `unit`).
    Duration {
        /// Shortest accepted duration in seconds.
        min_secs: i64,
        /// Longest accepted duration in seconds.
        max_secs: i64,
        /// Unit of a bare number: one of `s m h d w`.
        unit: char,
    },
    /// `-name=WORD` from a fixed list.
    Choice {
        /// The accepted words.
        choices: &'static [&'static str],
    },
}

/// One option of a game: the single place its name, type, default, range
/// and help live, so that validation, help and web forms agree.
#[derive(Debug, Serialize)]
pub struct OptionSpec {
    /// Name without the dash (`length`).
    pub name: &'static str,
    /// Type and range.
    pub kind: OptionKind,
    /// The default as it would be typed (`"36"`), or `None` for "unset".
    pub default: Option<&'static str>,
    /// One line of help.
    pub help: &'static str,
}

/// Options every game accepts: pbmserv's move time limits, and a fixed seed.
pub const COMMON_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "nag",
        kind: OptionKind::Duration { min_secs: 3600, max_secs: 365 * 86400, unit: 'd' },
        default: Some("7d"),
        help: "send a reminder to a player who has not moved for this long",
    },
    OptionSpec {
        name: "forfeit",
        kind: OptionKind::Duration { min_secs: 3600, max_secs: 365 * 86400, unit: 'd' },
        default: Some("21d"),
        help: "resign a player who has not moved for this long; when every player still in the game \
               has not, the game is drawn among them",
    },
    OptionSpec {
        name: "seed",
        kind: OptionKind::Int { min: 0, max: i64::MAX },
        default: None,
        help: "deal the game from this seed instead of a random one: the same seed deals the same game, \
               for demos and tests; refused in a game that hides moves from its players, since anyone \
               who knows the seed could work out its random draws",
    },
];
