//! The game: options, moves, validation, round resolution and scoring.

use std::sync::Arc;

use rand::Rng;
use tabula_model::{
    Applied, Ctx, Dynamics, GameInfo, GameRng, Lang, LogEntry, Message, MoveError, OptionError, OptionKind,
    OptionSpec, Outcome, Rules, Score, Seat, Setup, SetupError, Timestamp, Turn, Viewer, msg,
};

use crate::engine::{Rule, RuleSet};
use crate::goal::Goal;
use crate::view::{self, GoalResult, PassTrace, RewriteView, RoundTrace, TraceStep};

/// The longest left side a player may write.
pub const MAX_LHS: usize = 64;
/// Applications listed per pass in a round's trace (all are counted).
pub const MAX_TRACE_STEPS: usize = 200;
/// Reveal group of the goals: never revealed before the end (when the model
/// reveals everything).
const GOAL_KEY: u32 = 0;

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "alphabet",
        kind: OptionKind::Text { min_len: 2, max_len: 26, accepts: "distinct lowercase letters a-z" },
        default: Some("atcg"),
        help: "the letters of the game; the table string starts as each letter once, in order",
    },
    OptionSpec {
        name: "rounds",
        kind: OptionKind::Int { min: 1, max: 12 },
        default: Some("3"),
        help: "rounds of rule writing",
    },
    OptionSpec {
        name: "goal_length",
        kind: OptionKind::Int { min: 1, max: 16 },
        default: Some("3"),
        help: "letters in a goal (at least this many in a pattern goal)",
    },
    OptionSpec {
        name: "regex_goals",
        kind: OptionKind::Flag,
        default: None,
        help: "goals are regular expressions (letters, . [ ] ( ) | * + ? {m,n} ^ $)",
    },
    OptionSpec {
        name: "max_rhs",
        kind: OptionKind::Int { min: 0, max: 64 },
        default: Some("8"),
        help: "most letters on the right side of a rule",
    },
    OptionSpec {
        name: "max_length",
        kind: OptionKind::Int { min: 1, max: 16_777_216 },
        default: Some("16777216"),
        help: "the table string never grows past this: a longer pass is cut here",
    },
];

static INFO: GameInfo = GameInfo {
    kind: "rewrite",
    min_players: 2,
    max_players: 8,
    dynamics: Dynamics::Simultaneous,
    hidden_information: true,
    open_join: false,
    options: OPTIONS,
};

/// A move of Rewrite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RewriteMove {
    /// `goal aag`: choose (or replace) the secret goal.
    Goal(String),
    /// `lhs=>rhs`: this round's secret rule.
    Rule {
        /// What is replaced.
        lhs: String,
        /// What it is replaced with.
        rhs: String,
    },
}

/// The options of one game, validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The letters; the table string starts as these, in order.
    pub alphabet: String,
    /// Rounds of rule writing.
    pub rounds: usize,
    /// Letters of a goal (at least this many in a pattern goal).
    pub goal_length: usize,
    /// Goals are regular expressions.
    pub regex_goals: bool,
    /// Most letters of a right side.
    pub max_rhs: usize,
    /// The table string never grows past this.
    pub max_length: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Goals,
    Rules(usize),
    Over,
}

/// When a rule was applied: the pass number over the whole game, then the
/// order within the pass (so later passes and, within a pass, positions
/// further right compare greater).
type Stamp = (u64, u64);

/// The table string, with how it came about.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub(crate) text: Arc<str>,
    pub(crate) cut: bool,
}

/// A Rewrite game.
#[derive(Clone, Debug)]
pub struct Rewrite {
    players: Vec<String>,
    config: Config,
    phase: Phase,
    active: Vec<bool>,
    goals: Vec<Option<Goal>>,
    pending: Vec<Option<(String, String)>>,
    sets: Vec<Arc<RuleSet<Seat>>>,
    /// The start string, then the string after each round, as views show
    /// them: a string can grow to `-max_length` each round, so only the
    /// current one is kept whole (in `table`).
    tables: Vec<view::TableView>,
    /// The current table string.
    table: Table,
    last_round: Option<RoundTrace>,
    last_applied: Vec<Option<Stamp>>,
    passes_run: u64,
    results: Vec<Option<GoalResult>>,
    outcome: Option<Outcome>,
}

impl Rewrite {
    /// The validated options.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The goal `seat` has chosen, if any: a secret of that seat's.
    pub(crate) fn goal(&self, seat: Seat) -> Option<&Goal> {
        self.goals.get(seat)?.as_ref()
    }

    /// The current table string.
    pub fn table(&self) -> &str {
        &self.table.text
    }

    /// The table string after each round, the start string first, each
    /// abbreviated as views show it (only the current one is kept whole).
    pub fn tables(&self) -> Vec<&str> {
        self.tables.iter().map(|t| t.text.as_str()).collect()
    }

    /// The revealed rule sets, oldest first.
    pub fn rule_sets(&self) -> impl Iterator<Item = &RuleSet<Seat>> {
        self.sets.iter().map(|s| &**s)
    }

    /// Hits per seat once the game is over (`None` for a seat without a goal).
    pub fn hits(&self) -> Vec<Option<u64>> {
        self.results.iter().map(|r| r.as_ref().map(|r| r.hits)).collect()
    }

    /// The seat whose rule was applied last over the whole game, if any.
    pub fn last_applied(&self) -> Option<Seat> {
        (0..self.players.len())
            .filter(|&s| self.last_applied[s].is_some())
            .max_by_key(|&s| self.last_applied[s])
    }

    /// The trace of the last resolved round.
    pub fn last_round(&self) -> Option<&RoundTrace> {
        self.last_round.as_ref()
    }

    fn name(&self, seat: Seat) -> &str {
        &self.players[seat]
    }

    fn round(&self) -> usize {
        match self.phase {
            Phase::Goals => 0,
            Phase::Rules(k) => k,
            Phase::Over => self.sets.len(),
        }
    }

    fn waiting(&self) -> Vec<Seat> {
        (0..self.players.len())
            .filter(|&s| {
                self.active[s]
                    && match self.phase {
                        Phase::Goals => self.goals[s].is_none(),
                        Phase::Rules(_) => self.pending[s].is_none(),
                        Phase::Over => false,
                    }
            })
            .collect()
    }

    fn active_count(&self) -> usize {
        self.active.iter().filter(|&&a| a).count()
    }

    fn check_rule(&self, seat: Seat, lhs: &str, rhs: &str) -> Result<(), MoveError> {
        let alphabet = &self.config.alphabet;
        if lhs.is_empty() {
            return Err(MoveError::illegal(msg!("rewrite-error-lhs-empty")));
        }
        for side in [lhs, rhs] {
            if let Some(c) = side.chars().find(|c| !alphabet.contains(*c)) {
                return Err(MoveError::illegal(msg!(
                    "rewrite-error-letter",
                    letter = format!("{c:?}"),
                    alphabet = alphabet
                )));
            }
        }
        if lhs.len() > MAX_LHS {
            return Err(MoveError::illegal(msg!(
                "rewrite-error-lhs-long",
                max = MAX_LHS.to_string(),
                given = lhs.len().to_string()
            )));
        }
        if lhs == self.table() {
            return Err(MoveError::illegal(msg!("rewrite-error-lhs-table", lhs = lhs)));
        }
        if rhs.len() > self.config.max_rhs {
            return Err(MoveError::illegal(msg!(
                "rewrite-error-rhs-long",
                max = self.config.max_rhs.to_string(),
                given = rhs.len().to_string()
            )));
        }
        if let Some(goal) = &self.goals[seat]
            && goal.forbids(rhs)
        {
            let how = if goal.is_pattern() { "match" } else { "contain" };
            return Err(MoveError::illegal(msg!("rewrite-error-rhs-goal", how = how, goal = goal.text())));
        }
        Ok(())
    }

    fn parse_goal(&self, text: &str) -> Result<Goal, MoveError> {
        let c = &self.config;
        Goal::parse(text, &c.alphabet, c.goal_length, c.regex_goals).map_err(MoveError::illegal)
    }

    /// Once everyone still in has acted, move on: start the rounds or
    /// resolve the round.
    fn advance(&mut self, applied: &mut Applied) {
        if self.phase == Phase::Over || !self.waiting().is_empty() {
            return;
        }
        match self.phase {
            Phase::Goals => {
                self.phase = Phase::Rules(1);
                applied.push(LogEntry::public(None, msg!("rewrite-history-goals-in")));
            }
            Phase::Rules(round) => self.resolve_round(round, applied),
            Phase::Over => {}
        }
    }

    fn resolve_round(&mut self, round: usize, applied: &mut Applied) {
        let rules: Vec<Rule<Seat>> = (0..self.players.len())
            .filter_map(|s| self.pending[s].take().map(|(lhs, rhs)| Rule::new(s, lhs, rhs)))
            .collect();
        let listed: Vec<String> =
            rules.iter().map(|r| format!("{} {}=>{}", self.name(r.owner), r.lhs, r.rhs)).collect();
        // Validated rules (non-empty, at most 8 of at most 64 letters) always compile.
        let set = match RuleSet::new(rules) {
            Ok(set) => set,
            Err(_) => return,
        };
        self.sets.push(Arc::new(set));
        applied.reveals.push(round as u32);
        applied.push(LogEntry::public(
            None,
            msg!("rewrite-history-round-rules", round = round.to_string(), rules = listed.join(", ")),
        ));

        let start = self.table.text.clone();
        let mut input: Vec<u8> = Vec::new();
        let mut output: Vec<u8> = Vec::new();
        let mut passes = Vec::new();
        let mut cut_any = false;
        for set_index in (0..self.sets.len()).rev() {
            let set = self.sets[set_index].clone();
            self.passes_run += 1;
            let pass_no = self.passes_run;
            let source: &[u8] = if passes.is_empty() { start.as_bytes() } else { &input };
            let mut steps = Vec::new();
            let mut order = 0u64;
            let last_applied = &mut self.last_applied;
            let summary = set.run(source, self.config.max_length, &mut output, |app| {
                let rule = &set.rules()[app.rule];
                last_applied[rule.owner] = Some((pass_no, order));
                order += 1;
                if steps.len() < MAX_TRACE_STEPS {
                    steps.push(TraceStep {
                        owner: rule.owner,
                        lhs: rule.lhs.clone(),
                        rhs: rule.rhs.clone(),
                        pos: app.pos,
                    });
                }
            });
            passes.push(PassTrace {
                set: set_index + 1,
                input_length: source.len(),
                input: view::abbreviate_bytes(source),
                output_length: output.len(),
                output: view::abbreviate_bytes(&output),
                applications: summary.applications,
                steps,
                cut: summary.cut,
            });
            if summary.cut {
                cut_any = true;
                applied.push(LogEntry::public(
                    None,
                    msg!(
                        "rewrite-history-cut",
                        round = round.to_string(),
                        set = (set_index + 1).to_string(),
                        letters = self.config.max_length
                    ),
                ));
            }
            std::mem::swap(&mut input, &mut output);
        }
        // The last pass's input is not needed, and the output becomes the
        // table without another copy but the one into the shared string:
        // a round on a 16 MiB string holds the old table, the pass's input
        // and its output at most.
        drop(output);
        let text: Arc<str> = if passes.is_empty() {
            start
        } else {
            drop(start);
            let text = String::from_utf8(input)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            Arc::from(text)
        };
        let summary: Vec<Message> = passes
            .iter()
            .map(|p| {
                msg!(
                    "rewrite-history-pass",
                    set = p.set.to_string(),
                    input = view::shown(&p.input, p.input_length),
                    output = view::shown(&p.output, p.output_length)
                )
            })
            .collect();
        applied.push(LogEntry::public(
            None,
            msg!(
                "rewrite-history-round",
                round = round.to_string(),
                passes = joined("list-semicolon", summary)
            ),
        ));
        self.table = Table { text, cut: cut_any };
        self.tables.push(view::TableView::of(&self.table));
        self.last_round = Some(RoundTrace { round, passes });
        if round >= self.config.rounds {
            self.finish(applied, None);
        } else {
            self.phase = Phase::Rules(round + 1);
            applied.push(LogEntry::public(
                None,
                msg!("rewrite-history-next-round", round = (round + 1).to_string()),
            ));
        }
    }

    /// End the game: count hits, decide, and say so. `standing` is the last
    /// player left when everyone else resigned.
    fn finish(&mut self, applied: &mut Applied, standing: Option<Seat>) {
        self.phase = Phase::Over;
        let text = self.table().to_string();
        self.results =
            self.goals.iter().map(|g| g.as_ref().map(|g| view::score(g, text.as_bytes()))).collect();
        let hits: Vec<u64> = self.results.iter().map(|r| r.as_ref().map_or(0, |r| r.hits)).collect();
        let scores: Vec<Score> = hits.iter().map(|&h| Score::whole(h)).collect();
        let outcome = if let Some(seat) = standing {
            Outcome::win(seat, msg!("rewrite-outcome-others-resigned"))
        } else {
            let contenders: Vec<Seat> = (0..self.players.len()).filter(|&s| self.active[s]).collect();
            let best = contenders.iter().map(|&s| hits[s]).max().unwrap_or(0);
            let tied: Vec<Seat> = contenders.into_iter().filter(|&s| hits[s] == best).collect();
            if let [only] = tied.as_slice() {
                Outcome::win(*only, msg!("rewrite-outcome-most-hits", hits = best))
            } else {
                match tied
                    .iter()
                    .copied()
                    .filter(|&s| self.last_applied[s].is_some())
                    .max_by_key(|&s| self.last_applied[s])
                {
                    Some(seat) => Outcome::win(
                        seat,
                        msg!("rewrite-outcome-tie-applied-last", hits = best, user = &self.players[seat]),
                    ),
                    None => Outcome::draw(tied, msg!("rewrite-outcome-tie-never-applied", hits = best)),
                }
            }
        };
        let outcome = outcome.with_scores(scores);
        let goals: Vec<Message> = (0..self.players.len())
            .map(|s| match &self.results[s] {
                Some(r) => {
                    msg!("rewrite-history-goal", user = &self.players[s], goal = &r.goal, hits = r.hits)
                }
                None => msg!("rewrite-history-no-goal", user = &self.players[s]),
            })
            .collect();
        applied
            .push(LogEntry::public(None, msg!("rewrite-history-over", goals = joined("list-comma", goals))));
        let verdict = match outcome.sole_winner() {
            Some(w) => msg!("rewrite-history-wins", user = &self.players[w], reason = outcome.reason.clone()),
            None => msg!("rewrite-history-draw", reason = outcome.reason.clone()),
        };
        applied.push(LogEntry::public(None, verdict));
        self.outcome = Some(outcome);
    }

    /// A random rule `seat` may write now (always one: `x=>` with `x` not the table string).
    fn random_rule(&self, seat: Seat, rng: &mut GameRng) -> Option<(String, String)> {
        let letters: Vec<char> = self.config.alphabet.chars().collect();
        let table = self.table().as_bytes();
        let pick = |rng: &mut GameRng, n: usize| -> String {
            (0..n).map(|_| letters[rng.random_range(0..letters.len())]).collect()
        };
        for _ in 0..40 {
            let n = rng.random_range(1..=3usize);
            let lhs = if !table.is_empty() && rng.random_bool(0.7) {
                let at = rng.random_range(0..table.len());
                String::from_utf8_lossy(&table[at..(at + n).min(table.len())]).into_owned()
            } else {
                pick(rng, n)
            };
            let longest = self.config.max_rhs.min(lhs.len() + 1);
            let m = rng.random_range(0..=longest);
            let rhs = pick(rng, m);
            if self.check_rule(seat, &lhs, &rhs).is_ok() {
                return Some((lhs, rhs));
            }
        }
        let first = letters.first()?.to_string();
        let lhs = if first == self.table() { first.repeat(2) } else { first };
        self.check_rule(seat, &lhs, "").ok().map(|_| (lhs, String::new()))
    }

    fn random_goal(&self, rng: &mut GameRng) -> String {
        let letters: Vec<char> = self.config.alphabet.chars().collect();
        (0..self.config.goal_length).map(|_| letters[rng.random_range(0..letters.len())]).collect()
    }

    /// Whether `goal` could be `seat`'s, given the rules `seat` has written.
    fn goal_fits(&self, seat: Seat, goal: &Goal) -> bool {
        self.sets.iter().flat_map(|s| s.rules()).filter(|r| r.owner == seat).all(|r| !goal.forbids(&r.rhs))
    }
}

impl Rules for Rewrite {
    const EVALUATE: Option<tabula_model::Evaluation<Self>> = Some(crate::bot::evaluate);

    type Move = RewriteMove;
    type View = RewriteView;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn new(setup: &Setup<'_>, _rng: &mut GameRng) -> Result<Self, SetupError> {
        let o = setup.options;
        let int = |name: &str| o.int(name).map(|v| v.max(0) as usize).unwrap_or(0);
        let alphabet = o.text("alphabet").unwrap_or("atcg").to_string();
        let bad =
            |problem: Message| SetupError::Option(OptionError::BadValue { name: "alphabet".into(), problem });
        if let Some(c) = alphabet.chars().find(|c| !c.is_ascii_lowercase()) {
            return Err(bad(msg!("rewrite-error-alphabet-letter", letter = format!("{c:?}"))));
        }
        if let Some((i, c)) = alphabet.char_indices().find(|&(i, c)| alphabet[..i].contains(c)) {
            return Err(bad(msg!(
                "rewrite-error-alphabet-twice",
                letter = format!("{c:?}"),
                position = (i + 1).to_string()
            )));
        }
        let config = Config {
            rounds: int("rounds"),
            goal_length: int("goal_length"),
            regex_goals: o.flag("regex_goals"),
            max_rhs: int("max_rhs"),
            max_length: int("max_length"),
            alphabet,
        };
        if config.max_length < config.alphabet.len() {
            return Err(SetupError::contradiction(msg!(
                "rewrite-error-max-length",
                max = config.max_length.to_string(),
                alphabet = config.alphabet.as_str()
            )));
        }
        let n = setup.players.len();
        Ok(Rewrite {
            players: setup.players.to_vec(),
            phase: Phase::Goals,
            active: vec![true; n],
            goals: vec![None; n],
            pending: vec![None; n],
            sets: Vec::new(),
            tables: vec![view::TableView::of(&Table {
                text: Arc::from(config.alphabet.as_str()),
                cut: false,
            })],
            table: Table { text: Arc::from(config.alphabet.as_str()), cut: false },
            last_round: None,
            last_applied: vec![None; n],
            passes_run: 0,
            results: vec![None; n],
            outcome: None,
            config,
        })
    }

    fn to_move(&self) -> Turn {
        match self.phase {
            Phase::Over => Turn::Over,
            _ => Turn::Simultaneous(self.waiting().into_iter().collect()),
        }
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<RewriteMove, MoveError> {
        let text = text.trim().to_ascii_lowercase();
        if let Some(rest) = text.strip_prefix("goal")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            let goal = rest.trim();
            if goal.is_empty() {
                return Err(MoveError::malformed(msg!("rewrite-error-goal-word")));
            }
            return Ok(RewriteMove::Goal(goal.to_string()));
        }
        // `->` is read as `=>`, the arrow many type; neither arrow holds a
        // letter of any alphabet (letters are a to z).
        if let Some((lhs, rhs)) = text.split_once("=>").or_else(|| text.split_once("->")) {
            let (lhs, rhs) = (lhs.trim(), rhs.trim());
            if lhs.contains(char::is_whitespace) || rhs.contains(char::is_whitespace) {
                return Err(MoveError::malformed(msg!(
                    "rewrite-error-rule-spaces",
                    text = format!("{text:?}")
                )));
            }
            return Ok(RewriteMove::Rule { lhs: lhs.to_string(), rhs: rhs.to_string() });
        }
        Err(MoveError::malformed(msg!("rewrite-error-not-a-move", text = format!("{text:?}"))))
    }

    fn format_move(&self, mv: &RewriteMove) -> String {
        match mv {
            RewriteMove::Goal(g) => format!("goal {g}"),
            RewriteMove::Rule { lhs, rhs } => format!("{lhs}=>{rhs}"),
        }
    }

    fn check_move(&self, seat: Seat, mv: &RewriteMove) -> Result<(), MoveError> {
        if seat >= self.players.len() {
            return Err(MoveError::malformed(msg!("move-error-no-seat")));
        }
        if !self.active[seat] {
            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
        }
        match (self.phase, mv) {
            (Phase::Over, _) => Err(MoveError::GameOver),
            (Phase::Goals, RewriteMove::Goal(g)) => self.parse_goal(g).map(|_| ()),
            (Phase::Goals, RewriteMove::Rule { .. }) => {
                Err(MoveError::illegal(msg!("rewrite-error-goal-first")))
            }
            (Phase::Rules(_), RewriteMove::Goal(_)) => {
                Err(MoveError::illegal(msg!("rewrite-error-goals-fixed")))
            }
            (Phase::Rules(_), RewriteMove::Rule { lhs, rhs }) => self.check_rule(seat, lhs, rhs),
        }
    }

    fn apply_move(&mut self, seat: Seat, mv: RewriteMove, _ctx: &mut Ctx<'_>) -> Applied {
        let mut applied = Applied::default();
        let name = self.players[seat].clone();
        match mv {
            RewriteMove::Goal(text) => {
                let Ok(goal) = self.parse_goal(&text) else { return applied };
                let (full, public) = if self.goals[seat].is_some() {
                    (
                        msg!("rewrite-history-goal-changes", user = &name, goal = &text),
                        msg!("rewrite-history-goal-changed", user = &name),
                    )
                } else {
                    (
                        msg!("rewrite-history-goal-chooses", user = &name, goal = &text),
                        msg!("rewrite-history-goal-chose", user = &name),
                    )
                };
                self.goals[seat] = Some(goal);
                applied.push(LogEntry::secret(seat, full, GOAL_KEY, public));
            }
            RewriteMove::Rule { lhs, rhs } => {
                let round = self.round();
                let (full, public) = if self.pending[seat].is_some() {
                    (
                        msg!(
                            "rewrite-history-rule-replaces",
                            user = &name,
                            round = round.to_string(),
                            rule = format!("{lhs}=>{rhs}")
                        ),
                        msg!("rewrite-history-rule-replaced", user = &name, round = round.to_string()),
                    )
                } else {
                    (
                        msg!(
                            "rewrite-history-rule-writes",
                            user = &name,
                            round = round.to_string(),
                            rule = format!("{lhs}=>{rhs}")
                        ),
                        msg!("rewrite-history-rule-wrote", user = &name, round = round.to_string()),
                    )
                };
                self.pending[seat] = Some((lhs, rhs));
                applied.push(LogEntry::secret(seat, full, round as u32, public));
            }
        }
        self.advance(&mut applied);
        applied
    }

    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        let mut applied = Applied::line(Some(seat), msg!("history-resigns", user = &self.players[seat]));
        self.active[seat] = false;
        if self.active_count() <= 1 {
            let standing = (0..self.players.len()).find(|&s| self.active[s]);
            self.finish(&mut applied, standing);
        } else {
            self.advance(&mut applied);
        }
        applied
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<RewriteMove>> {
        if self.phase == Phase::Over || !self.active.get(seat).copied().unwrap_or(false) {
            return Some(Vec::new());
        }
        if self.phase != Phase::Goals || self.config.regex_goals {
            return None;
        }
        let letters: Vec<char> = self.config.alphabet.chars().collect();
        let count = letters.len().checked_pow(self.config.goal_length as u32)?;
        if count > 1000 {
            return None;
        }
        let mut goals: Vec<RewriteMove> = (0..count)
            .map(|mut i| {
                let mut g: Vec<char> = (0..self.config.goal_length)
                    .map(|_| {
                        let c = letters[i % letters.len()];
                        i /= letters.len();
                        c
                    })
                    .collect();
                g.reverse();
                RewriteMove::Goal(g.into_iter().collect())
            })
            .collect();
        goals.sort_by_key(|m| self.format_move(m));
        Some(goals)
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<RewriteMove> {
        if !self.active.get(seat).copied().unwrap_or(false) {
            return None;
        }
        match self.phase {
            Phase::Over => None,
            Phase::Goals => Some(RewriteMove::Goal(self.random_goal(rng))),
            Phase::Rules(_) => self.random_rule(seat, rng).map(|(lhs, rhs)| RewriteMove::Rule { lhs, rhs }),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn memory(&self) -> usize {
        use std::mem::size_of;
        let strings = |v: &[String]| v.iter().map(|s| size_of::<String>() + s.len()).sum::<usize>();
        let tables: usize =
            self.tables.iter().map(|t| size_of::<view::TableView>() + t.text.len()).sum::<usize>();
        let trace = self.last_round.as_ref().map_or(0, |r| {
            r.passes
                .iter()
                .map(|p| {
                    size_of::<PassTrace>()
                        + p.input.len()
                        + p.output.len()
                        + p.steps
                            .iter()
                            .map(|s| size_of::<TraceStep>() + s.lhs.len() + s.rhs.len())
                            .sum::<usize>()
                })
                .sum()
        });
        let pending: usize = self.pending.iter().flatten().map(|(l, r)| l.len() + r.len()).sum();
        // A goal is a short text and its compiled matcher (a few KiB at most).
        let goals = self.goals.iter().flatten().count() * 4096;
        size_of::<Self>()
            + strings(&self.players)
            + self.table.text.len()
            + tables
            + self.sets.iter().map(|s| s.memory()).sum::<usize>()
            + trace
            + pending
            + goals
    }

    fn view(&self, viewer: Viewer, _now: Timestamp) -> RewriteView {
        let over = self.phase == Phase::Over;
        let me = viewer.seat().filter(|&s| s < self.players.len());
        RewriteView {
            viewer: me,
            players: self.players.clone(),
            alphabet: self.config.alphabet.clone(),
            rounds: self.config.rounds,
            goal_length: self.config.goal_length,
            regex_goals: self.config.regex_goals,
            max_rhs: self.config.max_rhs,
            max_length: self.config.max_length,
            phase: match self.phase {
                Phase::Goals => "goals",
                Phase::Rules(_) => "rules",
                Phase::Over => "over",
            },
            round: self.round(),
            active: self.active.clone(),
            waiting: self.waiting(),
            table: self.table.text.clone(),
            tables: self.tables.clone(),
            sets: self
                .sets
                .iter()
                .map(|s| {
                    s.rules()
                        .iter()
                        .map(|r| view::RuleView { owner: r.owner, lhs: r.lhs.clone(), rhs: r.rhs.clone() })
                        .collect()
                })
                .collect(),
            last_round: self.last_round.clone(),
            own_goal: me.and_then(|s| self.goals[s].as_ref().map(|g| g.text().to_string())),
            own_rule: me.and_then(|s| self.pending[s].as_ref().map(|(l, r)| format!("{l}=>{r}"))),
            results: if over { self.results.clone() } else { vec![None; self.players.len()] },
            outcome: if over { self.outcome.clone() } else { None },
        }
    }

    fn render_text(view: &RewriteView, lang: Lang) -> String {
        crate::render::text(view, lang)
    }

    fn render_svg(view: &RewriteView, lang: Lang) -> String {
        crate::render::svg(view, lang)
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.active.get(seat).copied().unwrap_or(false)
    }

    fn may_replace(&self, seat: Seat) -> bool {
        // A goal or rule stays replaceable until every player's is in.
        self.active.get(seat).copied().unwrap_or(false)
            && !self.waiting().contains(&seat)
            && self.phase != Phase::Over
    }

    fn without_others_pending(&self, seat: Seat) -> Self {
        let mut mine = self.clone();
        for other in (0..self.players.len()).filter(|&s| s != seat) {
            match self.phase {
                Phase::Goals => mine.goals[other] = None,
                Phase::Rules(_) => mine.pending[other] = None,
                Phase::Over => {}
            }
        }
        mine
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut guess = self.clone();
        if self.phase == Phase::Over {
            return guess;
        }
        for other in (0..self.players.len()).filter(|&s| s != seat) {
            if self.goals[other].is_some() {
                let mut chosen = None;
                for _ in 0..100 {
                    if let Ok(g) = guess.parse_goal(&guess.random_goal(rng))
                        && guess.goal_fits(other, &g)
                    {
                        chosen = Some(g);
                        break;
                    }
                }
                // With every short goal ruled out by the rules written, keep
                // a random one: the guess is then merely inconsistent.
                if chosen.is_none() {
                    chosen = guess.parse_goal(&guess.random_goal(rng)).ok();
                }
                guess.goals[other] = chosen;
            }
            if self.pending[other].is_some()
                && let Some(rule) = guess.random_rule(other, rng)
            {
                guess.pending[other] = Some(rule);
            }
        }
        guess
    }
}

/// `items` joined by the message `separator` (`list-comma`: `a, b, c`),
/// still messages: each reader's language puts them into words.
fn joined(separator: &'static str, items: Vec<Message>) -> Message {
    let mut items = items.into_iter().rev();
    let Some(mut out) = items.next() else { return Message::from("") };
    for item in items {
        out = Message::new(separator).arg("first", item).arg("rest", out);
    }
    out
}
