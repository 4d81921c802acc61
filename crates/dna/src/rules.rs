//! The game state and its rules.

use std::fmt;
use std::sync::Arc;

use rand::Rng;
use rand::seq::IndexedRandom;
use serde::Serialize;
use tabula_model::{
    Applied, Arg, Ctx, GameInfo, GameRng, Lang, LogEntry, Message, MoveError, Options, Outcome, Rules, Score,
    Seat, Setup, SetupError, Timestamp, Turn, Viewer, msg,
};

use crate::engine::Remover;
use crate::info::INFO;
use crate::view::{DnaView, LastNomination, PlayerView};

/// The nucleotides, in the order `-base` takes them.
pub const NUCLEOTIDES: [u8; 4] = *b"ACGT";

/// Most players in a game.
pub const MAX_PLAYERS: usize = 8;

/// Longest move text looked at; longer is refused before parsing.
const MAX_MOVE_CHARS: usize = 1000;

/// The reveal group of the secret set-up lines.
const SETUP_REVEAL: u32 = 1;

/// The resolved options of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DnaConfig {
    /// Sequence length at the start.
    pub length: usize,
    /// Smallest chunk size; a sequence shorter than this is out.
    pub min_chunk: usize,
    /// Largest chunk size.
    pub max_chunk: usize,
    /// Number of letters in use (the first `base` of A, C, G, T).
    pub base: usize,
    /// Players set their own sequences.
    pub manual: bool,
    /// No first-round limit.
    pub non_incremental: bool,
    /// A chunk need not occur in the mover's sequence.
    pub need_not_own: bool,
    /// The mover's own sequence is not reduced.
    pub no_reduce_self: bool,
    /// Only the next opponent is reduced.
    pub reduce_next: bool,
}

impl DnaConfig {
    /// Resolve and cross-check the options.
    ///
    /// # Errors
    ///
    /// Contradicting options, named in the message.
    pub fn from_options(options: &Options) -> Result<DnaConfig, SetupError> {
        let int = |name: &str| options.int(name).and_then(|n| usize::try_from(n).ok());
        let length = int("length").unwrap_or(36);
        let contradiction = |message: Message| Err(SetupError::Contradiction(message));
        let (min_chunk, max_chunk) = match (int("chunk"), int("min_chunk"), int("max_chunk")) {
            (Some(chunk), min, max) => {
                for (name, value) in [("min_chunk", min), ("max_chunk", max)] {
                    if let Some(v) = value
                        && v != chunk
                    {
                        return contradiction(msg!(
                            "dna-error-chunk-contradicts",
                            chunk = chunk.to_string(),
                            name = name,
                            value = v.to_string()
                        ));
                    }
                }
                if chunk > length {
                    return contradiction(msg!(
                        "dna-error-chunk-too-long",
                        culprit = format!("-chunk={chunk}"),
                        length = length.to_string()
                    ));
                }
                (chunk, chunk)
            }
            (None, Some(min), Some(max)) if min > max => {
                return contradiction(msg!(
                    "dna-error-min-over-max",
                    min = min.to_string(),
                    max = max.to_string()
                ));
            }
            (None, Some(min), Some(max)) => (min, max),
            (None, Some(min), None) => (min, min.max(3.min(length))),
            (None, None, Some(max)) => (max.min(3), max),
            (None, None, None) => (3, 3),
        };
        if max_chunk > length {
            let culprit: Arg = if options.int("max_chunk").is_some() {
                format!("-max_chunk={max_chunk}").into()
            } else if options.int("min_chunk").is_some() {
                format!("-min_chunk={min_chunk}").into()
            } else {
                msg!("dna-error-default-chunk", size = max_chunk.to_string()).into()
            };
            return contradiction(msg!(
                "dna-error-chunk-too-long",
                culprit = culprit,
                length = length.to_string()
            ));
        }
        Ok(DnaConfig {
            length,
            min_chunk,
            max_chunk,
            base: int("base").unwrap_or(4).clamp(2, 4),
            manual: options.flag("manual"),
            non_incremental: options.flag("non_incremental"),
            need_not_own: options.flag("need_not_own"),
            no_reduce_self: options.flag("no_reduce_self"),
            reduce_next: options.flag("reduce_next"),
        })
    }

    /// The letters in use.
    pub fn alphabet(&self) -> &'static [u8] {
        &NUCLEOTIDES[..self.base]
    }

    /// The letters in use, for messages (`A, C, G, T`, or `A, C (-base=2)`).
    fn alphabet_text(&self) -> String {
        let letters: Vec<String> = self.alphabet().iter().map(|&c| char::from(c).to_string()).collect();
        let letters = letters.join(", ");
        if self.base < 4 { format!("{letters} (-base={})", self.base) } else { letters }
    }

    /// The chunk-size rule, for messages.
    fn chunk_rule(&self) -> Message {
        if self.min_chunk == self.max_chunk {
            msg!("dna-error-chunk-rule", size = self.min_chunk.to_string())
        } else {
            msg!(
                "dna-error-chunk-rule-range",
                min = self.min_chunk.to_string(),
                max = self.max_chunk.to_string()
            )
        }
    }
}

/// Whether a player is still in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Standing {
    /// Still playing.
    In,
    /// Eliminated: the sequence became shorter than the smallest chunk.
    Out,
    /// Resigned; the sequence is frozen.
    Resigned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// `-manual`: waiting for sequences.
    SetUp,
    Play,
    Over,
}

/// A move of DNA.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DnaMove {
    /// Nominate a chunk (upper-case letters).
    Nominate(Vec<u8>),
    /// Set one's own sequence during a `-manual` set-up.
    Sequence(Vec<u8>),
    /// Have a random sequence drawn during a `-manual` set-up.
    Random,
}

impl fmt::Display for DnaMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DnaMove::Nominate(letters) | DnaMove::Sequence(letters) => {
                f.write_str(&String::from_utf8_lossy(letters))
            }
            DnaMove::Random => f.write_str("random"),
        }
    }
}

/// A legal nomination and what it would remove.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Nomination {
    /// The chunk.
    pub chunk: String,
    /// Chunks it would remove from each seat's sequence; `None` for the
    /// sequences it does not reduce (out, resigned, or spared by the options).
    pub removed: Vec<Option<usize>>,
}

/// Why a well-formed chunk may not be nominated.
#[derive(Clone, Copy, Debug)]
enum Refusal {
    NotOwned,
    FirstRound { target: Seat, removed: usize, limit: usize },
    NoOp,
}

/// Per-seat removal counts; `None` where the nomination does not reduce.
type Counts = [Option<usize>; MAX_PLAYERS];

/// A game of DNA.
#[derive(Clone, Debug)]
pub struct Dna {
    config: DnaConfig,
    /// Shared, since search bots clone states by the thousand.
    names: Arc<[String]>,
    /// `None` only while a `-manual` player has not set a sequence (and for
    /// a player who resigned before setting one).
    sequences: Vec<Option<Vec<u8>>>,
    standing: Vec<Standing>,
    phase: Phase,
    /// Whose turn it is during play.
    next: Seat,
    first_round: bool,
    /// Automatic passes since the last nomination (reset when the first
    /// round ends and on resignations, see [`Dna::settle_turn`]).
    passes_in_a_row: usize,
    /// Automatic passes made while the game was set up, which no history
    /// line can carry; the board mentions them until the first nomination.
    opening_passes: Vec<Seat>,
    nominations_made: usize,
    last: Option<Arc<LastNomination>>,
    outcome: Option<Outcome>,
}

fn text(letters: &[u8]) -> String {
    String::from_utf8_lossy(letters).into_owned()
}

/// Whether `chunk` occurs in `sequence`.
fn occurs(sequence: &[u8], chunk: &[u8]) -> bool {
    !chunk.is_empty() && sequence.windows(chunk.len()).any(|w| w == chunk)
}

/// A random sequence of `length` letters from `alphabet`.
fn random_sequence(length: usize, alphabet: &[u8], rng: &mut GameRng) -> Vec<u8> {
    (0..length).map(|_| alphabet[rng.random_range(0..alphabet.len())]).collect()
}

impl Dna {
    /// The resolved options.
    pub fn config(&self) -> &DnaConfig {
        &self.config
    }

    /// The players' user ids in turn order.
    pub fn players(&self) -> &[String] {
        &self.names
    }

    /// The current sequence of `seat`, hidden or not (`None` if never set).
    /// This is the raw state: bots see others' unrevealed sequences only
    /// through [`Rules::determinize`].
    pub fn sequence(&self, seat: Seat) -> Option<&[u8]> {
        self.sequences.get(seat).and_then(|s| s.as_deref())
    }

    /// Whether `seat` is in, out or resigned.
    pub fn standing(&self, seat: Seat) -> Standing {
        self.standing.get(seat).copied().unwrap_or(Standing::Out)
    }

    /// Whether the first-round limits are in force.
    pub fn is_first_round(&self) -> bool {
        self.first_round && !self.config.non_incremental && self.phase == Phase::Play
    }

    /// Whether the `-manual` set-up is still going on.
    pub fn is_setting_up(&self) -> bool {
        self.phase == Phase::SetUp
    }

    /// The last nomination and what it removed where.
    pub fn last_nomination(&self) -> Option<&LastNomination> {
        self.last.as_deref()
    }

    /// Every legal nomination of `seat` now, sorted by chunk, with what each
    /// would remove from every sequence. Empty when `seat` is not to nominate.
    pub fn nominations(&self, seat: Seat) -> Vec<Nomination> {
        let mut remover = Remover::new();
        let mut out = Vec::new();
        self.for_each_legal(seat, &mut remover, |chunk, counts| {
            out.push(Nomination { chunk: text(chunk), removed: counts[..self.names.len()].to_vec() });
            true
        });
        out
    }

    /// What nominating `chunk` would do for `seat` now, or why it is illegal.
    ///
    /// # Errors
    ///
    /// The rule the nomination breaks, as [`Rules::check_move`] reports it.
    pub fn preview(&self, seat: Seat, chunk: &str) -> Result<Nomination, MoveError> {
        let mv = self.parse_move(seat, chunk)?;
        self.check_move(seat, &mv)?;
        let DnaMove::Nominate(letters) = mv else {
            return Err(MoveError::illegal(msg!("dna-error-preview-setup")));
        };
        let counts = self.evaluate(seat, &letters, &mut Remover::new())?;
        Ok(Nomination { chunk: text(&letters), removed: counts[..self.names.len()].to_vec() })
    }

    fn count_in(&self) -> usize {
        self.standing.iter().filter(|&&s| s == Standing::In).count()
    }

    fn seats_in(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.names.len()).filter(|&s| self.standing[s] == Standing::In)
    }

    /// The next seat still in after `seat` in turn order, if any other.
    fn next_in_after(&self, seat: Seat) -> Option<Seat> {
        let n = self.names.len();
        (1..n).map(|d| (seat + d) % n).find(|&s| self.standing[s] == Standing::In)
    }

    /// The seats a nomination by `seat` reduces, as a bit mask.
    fn targets(&self, seat: Seat) -> u32 {
        let mut mask = 0;
        if !self.config.no_reduce_self {
            mask |= 1 << seat;
        }
        if self.config.reduce_next {
            if let Some(next) = self.next_in_after(seat) {
                mask |= 1 << next;
            }
        } else {
            for s in self.seats_in().filter(|&s| s != seat) {
                mask |= 1 << s;
            }
        }
        mask
    }

    /// The most chunks `seat` may remove from one opponent now, if limited.
    fn first_round_limit(&self, seat: Seat) -> Option<usize> {
        self.is_first_round().then_some(seat + 1)
    }

    /// Check a nomination of a well-formed chunk by the seat to move, and
    /// count what it removes.
    fn evaluate(&self, seat: Seat, chunk: &[u8], remover: &mut Remover) -> Result<Counts, MoveError> {
        self.try_nomination(seat, chunk, remover).map_err(|refusal| self.explain(seat, chunk, refusal))
    }

    /// [`Dna::evaluate`] without the message: legal-move generation refuses
    /// most candidates, and words cost more than the counting.
    fn try_nomination(&self, seat: Seat, chunk: &[u8], remover: &mut Remover) -> Result<Counts, Refusal> {
        let own = self.sequence(seat).unwrap_or_default();
        if !self.config.need_not_own && !occurs(own, chunk) {
            return Err(Refusal::NotOwned);
        }
        let mut counts = [None; MAX_PLAYERS];
        let mut total = 0;
        let limit = self.first_round_limit(seat);
        let targets = self.targets(seat);
        for (target, count) in counts.iter_mut().enumerate().take(self.names.len()) {
            if targets & (1 << target) == 0 {
                continue;
            }
            let removed = remover.run(self.sequence(target).unwrap_or_default(), chunk);
            if let Some(limit) = limit
                && target != seat
                && removed > limit
            {
                return Err(Refusal::FirstRound { target, removed, limit });
            }
            *count = Some(removed);
            total += removed;
        }
        if total == 0 {
            return Err(Refusal::NoOp);
        }
        Ok(counts)
    }

    fn explain(&self, seat: Seat, chunk: &[u8], refusal: Refusal) -> MoveError {
        let chunk = text(chunk);
        MoveError::illegal(match refusal {
            Refusal::NotOwned => msg!("dna-error-not-owned", chunk = chunk),
            Refusal::FirstRound { target, removed, limit } => msg!(
                "dna-error-first-round",
                chunk = chunk,
                removed = removed,
                opponent = &self.names[target],
                position = seat + 1,
                limit = limit
            ),
            Refusal::NoOp => msg!("dna-error-no-op", chunk = chunk),
        })
    }

    /// Call `visit` with every legal nomination of `seat` in sorted order
    /// until it returns false. Nothing when `seat` is not to move.
    fn for_each_legal(&self, seat: Seat, remover: &mut Remover, visit: impl FnMut(&[u8], &Counts) -> bool) {
        if self.phase == Phase::Play && self.next == seat {
            self.for_each_nomination(seat, remover, visit);
        }
    }

    /// Call `visit` with every nomination that would be legal for `seat` if
    /// it were `seat`'s turn, in sorted order, until it returns false.
    fn for_each_nomination(
        &self,
        seat: Seat,
        remover: &mut Remover,
        mut visit: impl FnMut(&[u8], &Counts) -> bool,
    ) {
        if self.standing(seat) != Standing::In {
            return;
        }
        // Without -need_not_own a chunk comes from the mover's sequence. With
        // it, a chunk occurring in no reduced sequence removes nothing, so
        // the chunks of the reduced sequences are all the candidates.
        let sources: Vec<&[u8]> = if self.config.need_not_own {
            let targets = self.targets(seat);
            (0..self.names.len())
                .filter(|t| targets & (1 << t) != 0)
                .filter_map(|t| self.sequence(t))
                .collect()
        } else {
            self.sequence(seat).into_iter().collect()
        };
        let mut candidates: Vec<&[u8]> = Vec::new();
        for size in self.config.min_chunk..=self.config.max_chunk {
            for source in &sources {
                if source.len() >= size {
                    candidates.extend(source.windows(size));
                }
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        for chunk in candidates {
            if let Ok(counts) = self.try_nomination(seat, chunk, remover)
                && !visit(chunk, &counts)
            {
                return;
            }
        }
    }

    fn has_legal_nomination(&self, seat: Seat, remover: &mut Remover) -> bool {
        let mut found = false;
        self.for_each_nomination(seat, remover, |_, _| {
            found = true;
            false
        });
        found
    }

    /// One step in turn order; crossing back to the first seat ends the
    /// first round.
    fn step(&mut self, seat: Seat) -> Seat {
        let next = (seat + 1) % self.names.len();
        if next == 0 && self.first_round {
            self.first_round = false;
            if !self.config.non_incremental {
                // The limits just lifted, so passes they forced say nothing
                // about whether anyone can still move.
                self.passes_in_a_row = 0;
            }
        }
        next
    }

    /// Give the turn to the first player still in from `seat` on (`seat`
    /// included) who has a legal nomination; the others pass automatically.
    /// Ends the game once every player still in has passed in a row.
    /// Returns who passed.
    fn settle_turn(
        &mut self,
        mut seat: Seat,
        entries: &mut Vec<LogEntry>,
        remover: &mut Remover,
    ) -> Vec<Seat> {
        let mut passed = Vec::new();
        // Within two rounds either someone can move or everyone has passed.
        for _ in 0..3 * self.names.len() + 3 {
            if self.standing[seat] == Standing::In {
                if self.has_legal_nomination(seat, remover) {
                    self.next = seat;
                    return passed;
                }
                passed.push(seat);
                entries.push(LogEntry::public(None, msg!("dna-history-passes", user = &self.names[seat])));
                self.passes_in_a_row += 1;
                if !self.is_first_round() && self.passes_in_a_row >= self.count_in() {
                    break;
                }
            }
            seat = self.step(seat);
        }
        let seats: Vec<Seat> = self.seats_in().collect();
        self.finish_by_length(&seats, "dna-outcome-no-nomination", entries);
        passed
    }

    /// End the game: the longest sequence among `seats` wins, equal longest tie.
    /// `why` is the id of the message saying why the game ended.
    fn finish_by_length(&mut self, seats: &[Seat], why: &'static str, entries: &mut Vec<LogEntry>) {
        let len = |s: Seat| self.sequence(s).map_or(0, <[u8]>::len);
        let longest = seats.iter().map(|&s| len(s)).max().unwrap_or(0);
        let winners: Vec<Seat> = seats.iter().copied().filter(|&s| len(s) == longest).collect();
        let scores = (0..self.names.len()).map(|s| Score::from(len(s))).collect();
        let outcome = if let [winner] = winners.as_slice() {
            let reason = msg!("dna-outcome-longest-wins", why = Message::new(why));
            let why = Message::new(why);
            entries.push(LogEntry::public(
                None,
                msg!("dna-history-longest-wins", user = &self.names[*winner], letters = longest, why = why),
            ));
            Outcome::win(*winner, reason)
        } else {
            let names: Vec<&str> = winners.iter().map(|&s| self.names[s].as_str()).collect();
            let reason = msg!("dna-outcome-longest-tie", why = Message::new(why));
            let why = Message::new(why);
            entries.push(LogEntry::public(
                None,
                msg!("dna-history-longest-tie", users = names.join(", "), letters = longest, why = why),
            ));
            Outcome::draw(winners, reason)
        };
        self.outcome = Some(outcome.with_scores(scores));
        self.phase = Phase::Over;
    }

    fn finish_last_standing(&mut self, winner: Seat, entries: &mut Vec<LogEntry>) {
        entries.push(LogEntry::public(None, msg!("history-last-standing", user = &self.names[winner])));
        let scores =
            (0..self.names.len()).map(|s| Score::from(self.sequence(s).map_or(0, <[u8]>::len))).collect();
        self.outcome = Some(Outcome::win(winner, msg!("outcome-last-standing")).with_scores(scores));
        self.phase = Phase::Over;
    }

    /// Start play once every sequence is set.
    fn start_play(&mut self, entries: &mut Vec<LogEntry>, remover: &mut Remover) {
        self.phase = Phase::Play;
        self.settle_turn(0, entries, remover);
    }

    fn nominate(&mut self, seat: Seat, chunk: Vec<u8>) -> Applied {
        let mut remover = Remover::new();
        let mut entries = Vec::new();
        let targets = self.targets(seat);
        let n = self.names.len();
        let mut removed = vec![None; n];
        let mut before = vec![None; n];
        let mut positions = vec![Vec::new(); n];
        for target in (0..n).filter(|t| targets & (1 << t) != 0) {
            let Some(sequence) = self.sequences[target].take() else { continue };
            let count = remover.run(&sequence, &chunk);
            let mut after = Vec::with_capacity(sequence.len());
            remover.write_result(&sequence, &mut after);
            removed[target] = Some(count);
            positions[target] = remover.removed_positions();
            before[target] = Some(text(&sequence));
            self.sequences[target] = Some(after);
        }
        let effects: Vec<String> =
            (0..n).filter_map(|t| removed[t].map(|c| format!("{} {c}", self.names[t]))).collect();
        entries.push(LogEntry::public(
            Some(seat),
            msg!(
                "dna-history-nomination",
                user = &self.names[seat],
                chunk = text(&chunk),
                effects = effects.join(", ")
            ),
        ));
        self.last = Some(Arc::new(LastNomination { seat, chunk: text(&chunk), removed, before, positions }));
        self.nominations_made += 1;

        let mut eliminated = Vec::new();
        for s in 0..n {
            let len = self.sequence(s).map_or(0, <[u8]>::len);
            if self.standing[s] == Standing::In && len < self.config.min_chunk {
                self.standing[s] = Standing::Out;
                eliminated.push(s);
                entries.push(LogEntry::public(
                    None,
                    msg!(
                        "dna-history-out",
                        user = &self.names[s],
                        letters = len,
                        min = self.config.min_chunk
                    ),
                ));
            }
        }
        match self.count_in() {
            0 => self.finish_by_length(&eliminated, "dna-outcome-all-eliminated", &mut entries),
            1 => {
                let winner = self.seats_in().next().unwrap_or(seat);
                self.finish_last_standing(winner, &mut entries);
            }
            _ => {
                self.passes_in_a_row = 0;
                let from = self.step(seat);
                self.settle_turn(from, &mut entries, &mut remover);
            }
        }
        Applied { entries, reveals: Vec::new() }
    }

    fn set_sequence(&mut self, seat: Seat, mv: DnaMove, ctx: &mut Ctx<'_>) -> Applied {
        let name = &self.names[seat];
        let (sequence, line) = match mv {
            DnaMove::Random => {
                let s = random_sequence(self.config.length, self.config.alphabet(), ctx.rng);
                let line = msg!("dna-history-random-sequence", user = name, sequence = text(&s));
                (s, line)
            }
            DnaMove::Sequence(s) | DnaMove::Nominate(s) => {
                let line = msg!("dna-history-sequence", user = name, sequence = text(&s));
                (s, line)
            }
        };
        let mut applied = Applied::default();
        applied.push(LogEntry::secret(
            seat,
            line,
            SETUP_REVEAL,
            msg!("dna-history-sets-sequence", user = name),
        ));
        self.sequences[seat] = Some(sequence);
        self.finish_setup_if_done(&mut applied);
        applied
    }

    fn waiting_for_sequences(&self) -> Vec<Seat> {
        self.seats_in().filter(|&s| self.sequences[s].is_none()).collect()
    }

    fn finish_setup_if_done(&mut self, applied: &mut Applied) {
        if self.phase == Phase::SetUp && self.waiting_for_sequences().is_empty() {
            applied.reveals.push(SETUP_REVEAL);
            applied.push(LogEntry::public(None, msg!("dna-history-all-set")));
            self.start_play(&mut applied.entries, &mut Remover::new());
        }
    }

    /// Check the letters of a move: only the game's letters, upper-cased.
    fn letters(&self, raw: &str, what: &'static str) -> Result<Vec<u8>, MoveError> {
        let alphabet = self.config.alphabet();
        let upper = raw.to_ascii_uppercase();
        if upper.bytes().all(|b| alphabet.contains(&b)) {
            Ok(upper.into_bytes())
        } else {
            Err(MoveError::malformed(msg!(
                "dna-error-letters",
                text = format!("{raw:?}"),
                what = what,
                letters = self.config.alphabet_text()
            )))
        }
    }

    fn check_chunk_size(&self, chunk: &[u8]) -> Result<(), MoveError> {
        let size = chunk.len();
        if size < self.config.min_chunk || size > self.config.max_chunk {
            return Err(MoveError::illegal(msg!(
                "dna-error-chunk-size",
                chunk = text(chunk),
                size = size,
                rule = self.config.chunk_rule()
            )));
        }
        Ok(())
    }

    fn check_sequence_length(&self, sequence: &[u8]) -> Result<(), MoveError> {
        let length = self.config.length;
        if sequence.len() != length {
            return Err(MoveError::illegal(msg!(
                "dna-error-sequence-length",
                length = length.to_string(),
                given = sequence.len().to_string()
            )));
        }
        Ok(())
    }
}

impl Rules for Dna {
    type Move = DnaMove;

    const EVALUATE: Option<tabula_model::Evaluation<Self>> = Some(crate::bot::evaluate);
    const PLAYOUT: Option<tabula_model::Playout<Self>> = Some(crate::bot::playout);
    type View = DnaView;

    fn info() -> &'static GameInfo {
        &INFO
    }

    /// Only a `-manual` set-up hides anything: otherwise every sequence is
    /// dealt face up.
    fn hides_information(options: &Options) -> bool {
        options.flag("manual")
    }

    fn new(setup: &Setup<'_>, rng: &mut GameRng) -> Result<Self, SetupError> {
        let config = DnaConfig::from_options(setup.options)?;
        let n = setup.players.len();
        if !(INFO.min_players..=INFO.max_players).contains(&n) {
            return Err(SetupError::PlayerCount {
                game: INFO.kind,
                min: INFO.min_players,
                max: INFO.max_players,
                given: n,
            });
        }
        let sequences = if config.manual {
            vec![None; n]
        } else {
            (0..n).map(|_| Some(random_sequence(config.length, config.alphabet(), rng))).collect()
        };
        let mut game = Dna {
            phase: if config.manual { Phase::SetUp } else { Phase::Play },
            config,
            names: setup.players.into(),
            sequences,
            standing: vec![Standing::In; n],
            next: 0,
            first_round: true,
            passes_in_a_row: 0,
            opening_passes: Vec::new(),
            nominations_made: 0,
            last: None,
            outcome: None,
        };
        if game.phase == Phase::Play {
            // Passes made here have no history line to go to; the board shows them.
            game.opening_passes = game.settle_turn(0, &mut Vec::new(), &mut Remover::new());
        }
        Ok(game)
    }

    fn to_move(&self) -> Turn {
        match self.phase {
            Phase::SetUp => Turn::Simultaneous(self.waiting_for_sequences().into_iter().collect()),
            Phase::Play => Turn::Player(self.next),
            Phase::Over => Turn::Over,
        }
    }

    fn parse_move(&self, _seat: Seat, text: &str) -> Result<DnaMove, MoveError> {
        let raw = text.trim();
        if raw.is_empty() {
            return Err(MoveError::malformed(match self.phase {
                Phase::SetUp => msg!("dna-error-empty-setup"),
                _ => msg!("dna-error-empty"),
            }));
        }
        if raw.len() > MAX_MOVE_CHARS {
            return Err(MoveError::malformed(msg!(
                "dna-error-too-long",
                given = raw.len().to_string(),
                length = self.config.length.to_string()
            )));
        }
        match self.phase {
            Phase::Over => Err(MoveError::GameOver),
            Phase::SetUp => {
                if raw.eq_ignore_ascii_case("random") {
                    return Ok(DnaMove::Random);
                }
                let letters = self.letters(raw, "sequence")?;
                self.check_sequence_length(&letters)?;
                Ok(DnaMove::Sequence(letters))
            }
            Phase::Play => {
                if raw.eq_ignore_ascii_case("random") {
                    return Err(MoveError::malformed(msg!("dna-error-random-late")));
                }
                let letters = self.letters(raw, "chunk")?;
                self.check_chunk_size(&letters)?;
                Ok(DnaMove::Nominate(letters))
            }
        }
    }

    fn format_move(&self, mv: &DnaMove) -> String {
        mv.to_string()
    }

    fn check_move(&self, seat: Seat, mv: &DnaMove) -> Result<(), MoveError> {
        if seat >= self.names.len() {
            return Err(MoveError::malformed(msg!("move-error-no-player-seat")));
        }
        if self.phase == Phase::Over {
            return Err(MoveError::GameOver);
        }
        if self.standing[seat] != Standing::In {
            return Err(MoveError::illegal(msg!("move-error-not-in-game")));
        }
        match (self.phase, mv) {
            (Phase::SetUp, DnaMove::Nominate(_)) => Err(MoveError::illegal(msg!("dna-error-setup-first"))),
            (Phase::SetUp, _) if self.sequences[seat].is_some() => {
                Err(MoveError::illegal(msg!("dna-error-already-set")))
            }
            (Phase::SetUp, DnaMove::Random) => Ok(()),
            (Phase::SetUp, DnaMove::Sequence(s)) => {
                self.letters(&text(s), "sequence")?;
                self.check_sequence_length(s)
            }
            (_, DnaMove::Sequence(_) | DnaMove::Random) => Err(MoveError::illegal(msg!("dna-error-all-set"))),
            (_, DnaMove::Nominate(chunk)) => {
                if self.next != seat {
                    return Err(MoveError::not_your_turn(&self.names[self.next]));
                }
                self.letters(&text(chunk), "chunk")?;
                self.check_chunk_size(chunk)?;
                self.evaluate(seat, chunk, &mut Remover::new()).map(|_| ())
            }
        }
    }

    fn apply_move(&mut self, seat: Seat, mv: DnaMove, ctx: &mut Ctx<'_>) -> Applied {
        match (self.phase, mv) {
            (Phase::SetUp, mv) => self.set_sequence(seat, mv, ctx),
            (_, DnaMove::Nominate(chunk)) => self.nominate(seat, chunk),
            // check_move refuses everything else.
            _ => Applied::default(),
        }
    }

    fn resign(&mut self, seat: Seat, _ctx: &mut Ctx<'_>) -> Applied {
        let mut applied = Applied::default();
        if seat >= self.names.len() || self.standing[seat] != Standing::In || self.phase == Phase::Over {
            return applied;
        }
        self.standing[seat] = Standing::Resigned;
        let name = &self.names[seat];
        let line = if self.sequences[seat].is_some() {
            msg!("dna-history-resigns-frozen", user = name)
        } else {
            msg!("dna-history-resigns-unset", user = name)
        };
        applied.push(LogEntry::public(Some(seat), line));
        let remaining: Vec<Seat> = self.seats_in().collect();
        match remaining.as_slice() {
            [] => {
                self.outcome =
                    Some(Outcome::draw((0..self.names.len()).collect(), msg!("dna-outcome-all-resigned")));
                self.phase = Phase::Over;
            }
            [winner] => self.finish_last_standing(*winner, &mut applied.entries),
            _ => match self.phase {
                Phase::SetUp => self.finish_setup_if_done(&mut applied),
                _ => {
                    // With -reduce_next a resignation changes who is reduced,
                    // so the player to move is checked again.
                    self.passes_in_a_row = 0;
                    let from = if self.next == seat { self.step(seat) } else { self.next };
                    self.settle_turn(from, &mut applied.entries, &mut Remover::new());
                }
            },
        }
        applied
    }

    fn legal_moves(&self, seat: Seat) -> Option<Vec<DnaMove>> {
        if self.phase == Phase::SetUp {
            // Every sequence of the right length: far too many to list.
            return if self.waiting_for_sequences().contains(&seat) { None } else { Some(Vec::new()) };
        }
        let mut moves = Vec::new();
        self.for_each_legal(seat, &mut Remover::new(), |chunk, _| {
            moves.push(DnaMove::Nominate(chunk.to_vec()));
            true
        });
        Some(moves)
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<DnaMove> {
        if self.phase == Phase::SetUp {
            // Uniform over all sequences, which is uniform over the legal moves
            // but for the one word `random` (which draws such a sequence anyway).
            return self.waiting_for_sequences().contains(&seat).then(|| {
                DnaMove::Sequence(random_sequence(self.config.length, self.config.alphabet(), rng))
            });
        }
        self.legal_moves(seat)?.choose(rng).cloned()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// The sequences and standings (the names and the last nomination are
    /// shared between copies of a state): a state counts its own data, as
    /// a cache holding thousands of games must know.
    fn memory(&self) -> usize {
        use std::mem::size_of;
        let sequences = self.sequences.iter().map(|s| s.as_ref().map_or(0, Vec::capacity)).sum::<usize>();
        size_of::<Self>()
            + self.sequences.capacity() * size_of::<Option<Vec<u8>>>()
            + sequences
            + self.standing.capacity() * size_of::<Standing>()
            + self.opening_passes.capacity() * size_of::<Seat>()
    }

    fn view(&self, viewer: Viewer, _now: Timestamp) -> DnaView {
        let setting_up = self.phase == Phase::SetUp;
        let players = (0..self.names.len())
            .map(|s| {
                let visible = !setting_up || viewer.seat() == Some(s);
                let sequence = self.sequence(s);
                PlayerView {
                    name: self.names[s].clone(),
                    standing: self.standing[s],
                    length: sequence.map(<[u8]>::len),
                    sequence: sequence.filter(|_| visible).map(text),
                    to_move: match self.phase {
                        Phase::SetUp => self.standing[s] == Standing::In && sequence.is_none(),
                        Phase::Play => self.next == s,
                        Phase::Over => false,
                    },
                }
            })
            .collect();
        DnaView {
            players,
            setting_up,
            over: self.phase == Phase::Over,
            first_round: self.is_first_round(),
            alphabet: text(self.config.alphabet()),
            min_chunk: self.config.min_chunk,
            max_chunk: self.config.max_chunk,
            last: self.last.as_deref().cloned(),
            opening_passes: if self.last.is_none() {
                self.opening_passes.iter().map(|&s| self.names[s].clone()).collect()
            } else {
                Vec::new()
            },
        }
    }

    fn render_text(view: &DnaView, lang: Lang) -> String {
        crate::render::text(view, lang)
    }

    fn render_svg(view: &DnaView, lang: Lang) -> String {
        crate::render::svg(view, lang)
    }

    fn is_active(&self, seat: Seat) -> bool {
        self.standing(seat) == Standing::In
    }

    fn without_others_pending(&self, seat: Seat) -> Self {
        let mut mine = self.clone();
        if self.phase == Phase::SetUp {
            for (other, sequence) in mine.sequences.iter_mut().enumerate() {
                if other != seat {
                    *sequence = None;
                }
            }
        }
        mine
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut guess = self.clone();
        if self.phase == Phase::SetUp {
            for other in (0..self.names.len()).filter(|&s| s != seat) {
                if guess.sequences[other].is_some() {
                    guess.sequences[other] =
                        Some(random_sequence(self.config.length, self.config.alphabet(), rng));
                }
            }
        }
        guess
    }
}
