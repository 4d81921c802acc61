//! What one viewer may see of a Rewrite game.
//!
//! A view holds only public data plus the viewer's own secrets: their goal
//! and their pending rule. Others' goals appear only after the end (in
//! `results`), others' rules only once their round is resolved (in
//! `sets`). Long strings are abbreviated everywhere except `table`, the
//! current table string, which bots need in full.

use std::sync::Arc;

use serde::Serialize;
use tabula_model::{Message, Outcome, Seat, msg};

use crate::goal::Goal;
use crate::rules::Table;

/// Letters shown at each end of a long string.
pub const SHOW: usize = 60;

/// What one viewer sees.
#[derive(Clone, Debug, Serialize)]
pub struct RewriteView {
    /// The viewer's seat, if a player.
    pub viewer: Option<Seat>,
    /// User ids by seat.
    pub players: Vec<String>,
    /// The letters of the game.
    pub alphabet: String,
    /// Rounds in all.
    pub rounds: usize,
    /// Letters of a goal (at least this many in a pattern goal).
    pub goal_length: usize,
    /// Goals are regular expressions.
    pub regex_goals: bool,
    /// Most letters of a right side.
    pub max_rhs: usize,
    /// The table string never grows past this.
    pub max_length: usize,
    /// `goals`, `rules` or `over`.
    pub phase: &'static str,
    /// The round being written (0 while goals are chosen; the last round once over).
    pub round: usize,
    /// Who is still in the game, by seat.
    pub active: Vec<bool>,
    /// Who has not yet submitted a goal or this round's rule.
    pub waiting: Vec<Seat>,
    /// The current table string, in full.
    pub table: Arc<str>,
    /// The start string, then the string after each round (abbreviated).
    pub tables: Vec<TableView>,
    /// The revealed rule sets, oldest first.
    pub sets: Vec<Vec<RuleView>>,
    /// The trace of the last resolved round.
    pub last_round: Option<RoundTrace>,
    /// The viewer's own goal.
    pub own_goal: Option<String>,
    /// The viewer's rule for the current round, while not yet revealed.
    pub own_rule: Option<String>,
    /// After the end: every goal with its hits, by seat.
    pub results: Vec<Option<GoalResult>>,
    /// After the end: who won and why.
    pub outcome: Option<Outcome>,
}

/// One table string.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TableView {
    /// Its length in letters.
    pub length: usize,
    /// The string, abbreviated when long.
    pub text: String,
    /// Whether a pass of its round was cut at `-max_length`.
    pub cut: bool,
}

impl TableView {
    pub(crate) fn of(table: &Table) -> Self {
        TableView { length: table.text.len(), text: abbreviate_bytes(table.text.as_bytes()), cut: table.cut }
    }
}

/// A revealed rule.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RuleView {
    /// Who wrote it.
    pub owner: Seat,
    /// What is replaced.
    pub lhs: String,
    /// What it is replaced with.
    pub rhs: String,
}

/// The passes of one round.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RoundTrace {
    /// The round.
    pub round: usize,
    /// Its passes in order (rule set `round` first, set 1 last).
    pub passes: Vec<PassTrace>,
}

/// One pass of a round.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PassTrace {
    /// The rule set applied (its round).
    pub set: usize,
    /// The input's length.
    pub input_length: usize,
    /// The input, abbreviated when long.
    pub input: String,
    /// The output's length.
    pub output_length: usize,
    /// The output, abbreviated when long.
    pub output: String,
    /// How many rules were applied.
    pub applications: u64,
    /// The first applications in scan order (at most
    /// [`crate::rules::MAX_TRACE_STEPS`]).
    pub steps: Vec<TraceStep>,
    /// Whether the output was cut at `-max_length`.
    pub cut: bool,
}

/// One application in a trace.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TraceStep {
    /// Whose rule.
    pub owner: Seat,
    /// Its left side.
    pub lhs: String,
    /// Its right side.
    pub rhs: String,
    /// Where it matched in the pass's input (0-based).
    pub pos: usize,
}

/// A goal and how it did in the final string.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GoalResult {
    /// The goal.
    pub goal: String,
    /// Positions of the final string where it matches (overlaps count).
    pub hits: u64,
    /// The final string (abbreviated when long) with the letters of every
    /// hit in upper case.
    pub marked: String,
}

/// A string as shown: in full when short, else its first and last
/// [`SHOW`] letters around `...`.
pub fn abbreviate_bytes(text: &[u8]) -> String {
    if text.len() <= 2 * SHOW {
        String::from_utf8_lossy(text).into_owned()
    } else {
        format!(
            "{}...{}",
            String::from_utf8_lossy(&text[..SHOW]),
            String::from_utf8_lossy(&text[text.len() - SHOW..])
        )
    }
}

/// An abbreviated string followed by its length when it was abbreviated,
/// to be put into words in the reader's language.
pub fn shown(text: &str, length: usize) -> Message {
    if length > 2 * SHOW {
        msg!("rewrite-board-shown-long", text = text, length = length.to_string())
    } else {
        Message::from(text)
    }
}

/// Count `goal`'s hits in the final string and mark them.
pub(crate) fn score(goal: &Goal, text: &[u8]) -> GoalResult {
    let n = text.len();
    let long = n > 2 * SHOW;
    let (hits, starts) = goal.hits(text, |s| !long || s < SHOW || s >= n - SHOW);
    let mark = |range: std::ops::Range<usize>| -> String {
        let covered = goal.cover(text, range.clone(), &starts);
        text[range]
            .iter()
            .zip(covered)
            .map(|(&b, c)| if c { b.to_ascii_uppercase() as char } else { b as char })
            .collect()
    };
    let marked = if long { format!("{}...{}", mark(0..SHOW), mark(n - SHOW..n)) } else { mark(0..n) };
    GoalResult { goal: goal.text().to_string(), hits, marked }
}
