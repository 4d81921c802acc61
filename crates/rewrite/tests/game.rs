//! Rewrite through the shared game model: the seed's worked example, hidden
//! information, validation, resignation, cuts and random playouts.

use tabula_model::testing::{SimConfig, random_sim};
use tabula_model::{Event, EventAction, Game, GameKind, Lang, MoveError, Options, Seat, Turn, Viewer};
use tabula_rewrite::{KIND, Rewrite};

fn game(options: &[&str], players: &[&str]) -> Game {
    let options = Options::parse(KIND.info(), options).unwrap();
    Game::create(&KIND, options, players.iter().map(|p| p.to_string()).collect(), 1, 0).unwrap()
}

fn play(g: &mut Game, seat: Seat, text: &str) -> Result<(), MoveError> {
    g.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(text.into()) }).map(|_| ())
}

fn resign(g: &mut Game, seat: Seat) {
    g.submit(Event { at: 0, seat: Some(seat), action: EventAction::Resign { reason: None } }).unwrap();
}

fn state(g: &Game) -> &Rewrite {
    g.state().as_any().downcast_ref::<Rewrite>().unwrap()
}

fn history(g: &Game, viewer: Viewer) -> Vec<String> {
    g.history_for(viewer).into_iter().map(|h| h.entry.text).collect()
}

const H: Seat = 0;
const Y: Seat = 1;
const I: Seat = 2;
const G: Seat = 3;
const M: Seat = 4;

fn pass_summary(g: &Game) -> Vec<(usize, String, String)> {
    state(g).last_round().unwrap().passes.iter().map(|p| (p.set, p.input.clone(), p.output.clone())).collect()
}

#[test]
fn the_seed_worked_example_round_by_round() {
    let mut g = game(&["-alphabet=atcg"], &["H", "Y", "I", "G", "M"]);
    assert_eq!(state(&g).table(), "atcg");
    for (seat, goal) in [(H, "aag"), (Y, "acc"), (I, "ctc"), (G, "acg"), (M, "tca")] {
        play(&mut g, seat, &format!("goal {goal}")).unwrap();
    }

    // Round 1.
    for (seat, rule) in [(H, "tcg=>ag"), (Y, "t=>ac"), (I, "g=>tc"), (G, "at=>ta"), (M, "g=>at")] {
        assert!(g.to_move().includes(seat));
        play(&mut g, seat, rule).unwrap();
    }
    assert_eq!(state(&g).table(), "tacg");
    assert_eq!(pass_summary(&g), [(1, "atcg".into(), "tacg".into())]);
    // I's g=>tc and M's g=>at tie (same lhs, same rhs length), so g is
    // copied: G's at=>ta is the only application.
    let steps = &state(&g).last_round().unwrap().passes[0].steps;
    assert_eq!(steps.len(), 1);
    assert_eq!(
        (steps[0].owner, steps[0].lhs.as_str(), steps[0].rhs.as_str(), steps[0].pos),
        (G, "at", "ta", 0)
    );

    // Round 2.
    for (seat, rule) in [(H, "ac=>aa"), (Y, "tac=>atc"), (I, "ta=>ct"), (G, "c=>ac"), (M, "t=>tc")] {
        play(&mut g, seat, rule).unwrap();
    }
    assert_eq!(state(&g).table(), "tacg");
    assert_eq!(pass_summary(&g), [(2, "tacg".into(), "atcg".into()), (1, "atcg".into(), "tacg".into())]);

    // Round 3.
    for (seat, rule) in [(H, "cg=>gg"), (Y, "cg=>tctc"), (I, "g=>tc"), (G, "tac=>tac"), (M, "acg=>ca")] {
        play(&mut g, seat, rule).unwrap();
    }
    assert_eq!(state(&g).tables(), ["atcg", "tacg", "tacg", "tacaccac"]);
    assert_eq!(
        pass_summary(&g),
        [
            (3, "tacg".into(), "tactc".into()),
            (2, "tactc".into(), "atctcac".into()),
            (1, "atctcac".into(), "tacaccac".into())
        ]
    );

    assert!(g.is_over());
    assert_eq!(state(&g).hits(), [Some(0), Some(1), Some(0), Some(0), Some(0)]);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.sole_winner(), Some(Y));
    assert_eq!(outcome.reason, "most hits (1 hit)");
    assert_eq!(
        outcome.scores,
        [
            tabula_model::Score::whole(0),
            tabula_model::Score::whole(1),
            tabula_model::Score::whole(0),
            tabula_model::Score::whole(0),
            tabula_model::Score::whole(0)
        ]
    );
    // The last rule applied in the game was Y's t=>ac, so Y also holds the tie-break.
    assert_eq!(state(&g).last_applied(), Some(Y));
    let last_pass = state(&g).last_round().unwrap().passes.last().unwrap();
    let last = last_pass.steps.last().unwrap();
    assert_eq!((last.owner, last.lhs.as_str(), last.rhs.as_str()), (Y, "t", "ac"));

    let text = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(text.contains("Y acc 1 hit: tacACCac"), "{text}");
    assert!(text.contains("H aag 0 hits: tacaccac"), "{text}");
    assert!(text.contains("round 1: H tcg=>ag, Y t=>ac, I g=>tc, G at=>ta, M g=>at"), "{text}");
    let lines = history(&g, Viewer::Observer);
    assert!(lines.contains(&"Round 1: set 1: atcg -> tacg.".to_string()), "{lines:#?}");
    assert!(lines.contains(
        &"Round 3: set 3: tacg -> tactc; set 2: tactc -> atctcac; set 1: atctcac -> tacaccac.".to_string()
    ));
    assert!(lines.contains(&"Y wins: most hits (1 hit).".to_string()));
    let svg = g.render_svg(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    assert!(svg.contains("font-weight=\"bold\" text-decoration=\"underline\">ACC</tspan>"), "{svg}");
}

#[test]
fn a_tie_goes_to_the_most_recent_application() {
    // Nobody hits; only r's rule is ever applied.
    let mut g = game(&["-alphabet=abc", "-rounds=1", "-goal_length=2"], &["p", "q", "r"]);
    for (seat, goal) in [(0, "aa"), (1, "bb"), (2, "ba")] {
        play(&mut g, seat, &format!("goal {goal}")).unwrap();
    }
    for (seat, rule) in [(0, "a=>b"), (1, "b=>a"), (2, "ab=>ab")] {
        play(&mut g, seat, rule).unwrap();
    }
    // "abc": r's ab=>ab is the longest match at 0; c is copied.
    assert_eq!(state(&g).table(), "abc");
    assert_eq!(state(&g).hits(), [Some(0), Some(0), Some(0)]);
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.sole_winner(), Some(2));
    assert_eq!(outcome.reason, "tied on 0 hits; r's rule was applied last");
}

#[test]
fn a_tie_without_applications_is_a_draw() {
    let mut g = game(&["-alphabet=ab", "-rounds=1", "-goal_length=2"], &["p", "q"]);
    play(&mut g, 0, "goal aa").unwrap();
    play(&mut g, 1, "goal bb").unwrap();
    play(&mut g, 0, "bb=>a").unwrap();
    play(&mut g, 1, "aa=>b").unwrap();
    assert_eq!(state(&g).table(), "ab");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.winners, [0, 1]);
    assert_eq!(outcome.reason, "tied on 0 hits; no tied player's rule was ever applied");
}

#[test]
fn the_latest_pass_beats_the_rightmost_of_an_earlier_pass() {
    // Round 2 runs set 2 then set 1; p's rule applies only in set 2 (the
    // earlier pass), q's in set 1 at the very start: q was applied last.
    let mut g = game(&["-alphabet=abc", "-rounds=2", "-goal_length=3"], &["p", "q"]);
    play(&mut g, 0, "goal ccc").unwrap();
    play(&mut g, 1, "goal ccb").unwrap();
    play(&mut g, 0, "ab=>ab").unwrap();
    play(&mut g, 1, "ba=>ba").unwrap();
    // Round 1 (set 1: ab=>ab by p, ba=>ba by q): abc -> abc, p applied at 0.
    assert_eq!(state(&g).table(), "abc");
    play(&mut g, 0, "c=>ba").unwrap();
    play(&mut g, 1, "bb=>b").unwrap();
    // Set 2: abc -> abba (p's c=>ba at 2); set 1: abba -> abba (p's ab=>ab
    // at 0, then q's ba=>ba at 2, the last application of the game).
    assert_eq!(state(&g).table(), "abba");
    let last = state(&g).last_round().unwrap().passes.last().unwrap().steps.last().unwrap().clone();
    assert_eq!((last.owner, last.lhs.as_str(), last.pos), (1, "ba", 2));
    assert_eq!(g.outcome().unwrap().sole_winner(), Some(1));
}

#[test]
fn secrets_stay_hidden_until_revealed() {
    let mut g = game(&[], &["ann", "bob", "cat"]);
    play(&mut g, 0, "goal aag").unwrap();
    play(&mut g, 0, "goal acc").unwrap();
    assert_eq!(history(&g, Viewer::Player(1)), ["ann chose a goal", "ann changed their goal"]);
    assert_eq!(history(&g, Viewer::Player(0)), ["ann chooses the goal aag", "ann changes their goal to acc"]);
    play(&mut g, 1, "goal ctc").unwrap();
    play(&mut g, 2, "goal tca").unwrap();
    play(&mut g, 0, "t=>ac").unwrap();
    assert!(!g.render_text(Viewer::Player(1), 0, tabula_model::Lang::En).contains("t=>ac"));
    assert!(
        g.render_text(Viewer::Player(0), 0, tabula_model::Lang::En).contains("Your rule for round 1: t=>ac")
    );
    assert!(g.render_text(Viewer::Player(0), 0, tabula_model::Lang::En).contains("Your goal: acc"));
    assert!(!g.render_text(Viewer::Player(1), 0, tabula_model::Lang::En).contains("acc"));
    // Replace before the others are in: allowed while the round is open.
    assert_eq!(g.to_move(), Turn::Simultaneous([1, 2].into()));
    play(&mut g, 0, "g=>ac").unwrap();
    play(&mut g, 1, "at=>ta").unwrap();
    assert!(!history(&g, Viewer::Player(2)).iter().any(|l| l.contains("g=>ac") || l.contains("at=>ta")));
    play(&mut g, 2, "c=>").unwrap();
    // The round is resolved: its rules are public, the goals still are not.
    let observer = history(&g, Viewer::Observer);
    // The rule ann replaced was never played: it stays secret.
    assert!(!observer.iter().any(|l| l.contains("t=>ac")), "{observer:#?}");
    assert!(observer.contains(&"ann replaces their round 1 rule with g=>ac".to_string()), "{observer:#?}");
    assert!(observer.contains(&"Round 1 rules: ann g=>ac, bob at=>ta, cat c=>.".to_string()));
    assert!(!observer.iter().any(|l| l.contains("aag") || l.contains("acc") || l.contains("ctc")));
    assert!(!g.render_text(Viewer::Observer, 0, tabula_model::Lang::En).contains("Your goal"));
}

/// Two games whose public events are the same but whose secrets differ.
fn twin_games(secrets: [&str; 6]) -> Game {
    let mut g = game(&["-rounds=2"], &["ann", "bob", "cat"]);
    play(&mut g, 0, &format!("goal {}", secrets[0])).unwrap();
    play(&mut g, 1, &format!("goal {}", secrets[1])).unwrap();
    play(&mut g, 2, "goal ggg").unwrap();
    play(&mut g, 0, secrets[2]).unwrap();
    play(&mut g, 2, "a=>t").unwrap();
    play(&mut g, 1, secrets[3]).unwrap();
    // Round 1 is resolved; round 2 is pending for ann and bob.
    play(&mut g, 0, secrets[4]).unwrap();
    play(&mut g, 1, secrets[5]).unwrap();
    g
}

#[test]
fn states_differing_only_in_hidden_data_look_the_same_to_others() {
    let one = twin_games(["aag", "ctc", "t=>ac", "c=>g", "g=>tt", "tt=>a"]);
    let two = twin_games(["tca", "acg", "t=>ac", "c=>g", "ca=>", "a=>ccc"]);
    // Round 1's rules are the same in both, so the table strings agree;
    // only the goals and the pending round 2 rules differ. cat sees neither.
    for viewer in [Viewer::Player(2), Viewer::Observer] {
        tabula_model::testing::assert_seen_alike(&one, &two, viewer, 0);
        assert_eq!(history(&one, viewer), history(&two, viewer));
    }
    // The owners see their own secrets, so those views differ.
    assert_ne!(
        one.render_text(Viewer::Player(0), 0, tabula_model::Lang::En),
        two.render_text(Viewer::Player(0), 0, tabula_model::Lang::En)
    );
    // A determinized state looks the same to the seat it is made for.
    let mut rng = tabula_model::rng_for(9, 0);
    let guess = one.state().determinize(2, &mut rng);
    assert_eq!(guess.view_json(Viewer::Player(2), 0), one.view_json(Viewer::Player(2), 0));
    let guessed = guess.as_any().downcast_ref::<Rewrite>().unwrap();
    assert_eq!(guessed.table(), state(&one).table());
}

#[test]
fn every_rejection_names_the_rule() {
    let mut g = game(&["-max_rhs=4"], &["ann", "bob"]);
    let err = |g: &mut Game, seat, text: &str| play(g, seat, text).unwrap_err().to_string();
    assert_eq!(
        err(&mut g, 0, "t=>ac"),
        "rule 1: first choose your secret goal (goal aag); rules are written once every goal is in"
    );
    assert_eq!(err(&mut g, 0, "goal aagg"), "rule 1: a goal has exactly 3 letters (-goal_length), not 4");
    assert_eq!(err(&mut g, 0, "goal axg"), "-alphabet: 'x' is not one of the letters atcg");
    assert_eq!(
        err(&mut g, 0, "hello"),
        "\"hello\" is not a move: write goal aag to choose your goal, or a rule like tcg=>ag"
    );
    play(&mut g, 0, "goal acc").unwrap();
    play(&mut g, 1, "GOAL TCA").unwrap();
    assert_eq!(err(&mut g, 0, "goal aag"), "rule 1: the goals are fixed once every goal is in");
    assert_eq!(err(&mut g, 0, "=>a"), "rule 3: the left side must not be empty");
    assert_eq!(err(&mut g, 0, "atcg=>a"), "rule 3: the left side must not be the table string itself (atcg)");
    assert_eq!(err(&mut g, 0, "t=>aacc"), "rule 3: the right side must not contain your own goal (acc)");
    assert_eq!(err(&mut g, 0, "t=>aaaaa"), "-max_rhs: the right side may have at most 4 letters, not 5");
    assert_eq!(err(&mut g, 0, "x=>a"), "-alphabet: 'x' is not one of the letters atcg");
    assert_eq!(err(&mut g, 0, "t=>ax"), "-alphabet: 'x' is not one of the letters atcg");
    assert_eq!(
        err(&mut g, 0, &format!("{}=>a", "a".repeat(65))),
        "the left side may have at most 64 letters, not 65"
    );
    assert_eq!(err(&mut g, 0, "a t=>a"), "\"a t=>a\": a rule has no spaces inside its sides");
    assert_eq!(g.moves(), 2, "refused moves change nothing");
    // Spaces around => and upper case are accepted and canonicalised.
    assert_eq!(g.state().check(0, " TCG => ag "), Ok("tcg=>ag".to_string()));
    assert_eq!(g.state().check(0, "tcg=>"), Ok("tcg=>".to_string()));
}

#[test]
fn regex_goals() {
    let mut g = game(&["-regex_goals", "-alphabet=ab", "-rounds=1"], &["ann", "bob"]);
    let err = |g: &mut Game, seat, text: &str| play(g, seat, text).unwrap_err().to_string();
    assert!(err(&mut g, 0, "goal a.b").contains("at least 3 letters"));
    assert_eq!(err(&mut g, 0, "goal (?:aab)?"), "rule 1: a goal must not match the empty string");
    play(&mut g, 0, "goal ab+a").unwrap();
    play(&mut g, 1, "goal bab").unwrap();
    assert_eq!(err(&mut g, 0, "a=>babba"), "rule 3: the right side must not match your own goal (ab+a)");
    play(&mut g, 0, "b=>bba").unwrap();
    play(&mut g, 1, "a=>aba").unwrap();
    // "ab": a=>aba, b=>bba gives "ababba": ab+a hits at 0 and 2.
    assert_eq!(state(&g).table(), "ababba");
    assert_eq!(state(&g).hits(), [Some(2), Some(1)]);
    assert!(g.render_text(Viewer::Observer, 0, tabula_model::Lang::En).contains("ann ab+a 2 hits: ABABBA"));
}

#[test]
fn resigned_players_submit_nothing_and_the_round_goes_on() {
    let mut g = game(&["-rounds=2"], &["ann", "bob", "cat"]);
    for (seat, goal) in [(0, "aag"), (1, "acc")] {
        play(&mut g, seat, &format!("goal {goal}")).unwrap();
    }
    // cat resigns before choosing a goal: the rounds start without her.
    resign(&mut g, 2);
    assert_eq!(g.to_move(), Turn::Simultaneous([0, 1].into()));
    play(&mut g, 0, "t=>ac").unwrap();
    assert_eq!(play(&mut g, 2, "g=>a").unwrap_err().to_string(), "you are no longer in this game");
    // bob resigns with the round open: ann is the last player standing.
    resign(&mut g, 1);
    assert!(g.is_over());
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.sole_winner(), Some(0));
    assert_eq!(outcome.reason, "every other player resigned");
    assert!(history(&g, Viewer::Player(1)).contains(&"ann chooses the goal aag".to_string()));
}

#[test]
fn a_resignation_can_complete_a_round() {
    let mut g = game(&["-rounds=1"], &["ann", "bob", "cat"]);
    for (seat, goal) in [(0, "aag"), (1, "acc"), (2, "gtt")] {
        play(&mut g, seat, &format!("goal {goal}")).unwrap();
    }
    play(&mut g, 0, "t=>ac").unwrap();
    play(&mut g, 1, "cg=>c").unwrap();
    resign(&mut g, 2);
    assert_eq!(state(&g).table(), "aacc");
    let outcome = g.outcome().unwrap();
    assert_eq!(outcome.sole_winner(), Some(1));
}

#[test]
fn growth_past_max_length_is_cut_and_recorded() {
    // Every round quadruples each letter in several passes; the string is
    // held at 1000 letters and the history says where it was cut.
    let mut g = game(&["-alphabet=ab", "-rounds=4", "-max_length=1000", "-goal_length=2"], &["ann", "bob"]);
    play(&mut g, 0, "goal ab").unwrap();
    play(&mut g, 1, "goal ba").unwrap();
    for _ in 0..4 {
        play(&mut g, 0, "a=>bbbb").unwrap();
        play(&mut g, 1, "b=>aaaa").unwrap();
    }
    let s = state(&g);
    assert!(s.tables().iter().all(|t| t.len() <= 1000));
    assert_eq!(s.table().len(), 1000);
    let cuts: Vec<String> = history(&g, Viewer::Observer).into_iter().filter(|l| l.contains("cut")).collect();
    assert!(!cuts.is_empty());
    assert!(cuts[0].ends_with("the string was cut at 1000 letters (-max_length)."), "{cuts:?}");
    let text = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(text.contains("(1000 letters)"), "{text}");
    assert!(text.contains("cut at 1000 letters, -max_length"), "{text}");
    assert!(text.lines().all(|l| l.len() < 2000), "long strings are abbreviated");
}

#[test]
fn a_full_size_cut_keeps_memory_bounded() {
    // Doubling rules with the default -max_length (16 MiB): the string
    // reaches the limit, stays there, and every buffer is bounded by it.
    let mut g = game(&["-alphabet=ab", "-rounds=3", "-max_rhs=16", "-goal_length=2"], &["ann", "bob"]);
    play(&mut g, 0, "goal ab").unwrap();
    play(&mut g, 1, "goal ba").unwrap();
    for _ in 0..3 {
        play(&mut g, 0, "a=>bbbbbbbbbbbbbbbb").unwrap();
        play(&mut g, 1, "b=>aaaaaaaaaaaaaaaa").unwrap();
    }
    let s = state(&g);
    assert_eq!(s.table().len(), 16_777_216);
    assert!(g.is_over());
    let text = g.render_text(Viewer::Observer, 0, tabula_model::Lang::En);
    assert!(text.len() < 20_000, "the text board abbreviates: {} bytes", text.len());
    assert!(g.render_svg(Viewer::Observer, 0, tabula_model::Lang::En).len() < 40_000);
    assert!(history(&g, Viewer::Observer).iter().any(|l| l.contains("cut at 16777216 letters")));
}

#[test]
fn options_are_validated_with_their_names() {
    let setup = |opts: &[&str]| {
        let options = Options::parse(KIND.info(), opts).map_err(|e| e.to_string())?;
        Game::create(&KIND, options, vec!["a".into(), "b".into()], 1, 0)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    assert_eq!(setup(&["-alphabet=aab"]).unwrap_err(), "-alphabet: 'a' is given twice (at position 2)");
    assert_eq!(setup(&["-alphabet=aB"]).unwrap_err(), "-alphabet: 'B' is not a lowercase letter a-z");
    assert_eq!(setup(&["-rounds=0"]).unwrap_err(), "-rounds: must be between 1 and 12, not 0");
    assert_eq!(setup(&["-goal_length=17"]).unwrap_err(), "-goal_length: must be between 1 and 16, not 17");
    assert_eq!(setup(&["-max_rhs=65"]).unwrap_err(), "-max_rhs: must be between 0 and 64, not 65");
    assert_eq!(
        setup(&["-max_length=16777217"]).unwrap_err(),
        "-max_length: must be between 1 and 16777216, not 16777217"
    );
    assert_eq!(
        setup(&["-max_length=3"]).unwrap_err(),
        "-max_length=3 is shorter than the starting string atcg (-alphabet)"
    );
    assert!(setup(&["-regex_goals", "-alphabet=xyz", "-max_length=3"]).is_ok());
    let one = Options::parse(KIND.info(), &["-rounds=2"]).unwrap();
    assert!(Game::create(&KIND, one, vec!["solo".into()], 1, 0).is_err());
}

#[test]
fn random_playouts() {
    let sets: [(&[&str], usize, u64); 5] = [
        (&[], 2, 6),
        (&["-rounds=4", "-max_length=300"], 5, 4),
        (&["-regex_goals", "-alphabet=ab", "-rounds=2"], 3, 5),
        (&["-alphabet=abcdefghij", "-goal_length=2", "-max_rhs=2", "-rounds=5", "-max_length=2000"], 8, 2),
        (&["-rounds=1", "-max_rhs=0", "-goal_length=1", "-max_length=4"], 2, 8),
    ];
    for (options, players, games) in sets {
        random_sim(
            &KIND,
            &SimConfig {
                options: options.iter().map(|o| o.to_string()).collect(),
                players,
                games,
                resign_per_mille: 20,
                ..SimConfig::default()
            },
        );
    }
}

#[test]
fn an_arrow_written_with_a_hyphen_is_the_same_rule() {
    let mut g = game(&[], &["ann", "bob"]);
    play(&mut g, 0, "goal aag").unwrap();
    play(&mut g, 1, "goal ccc").unwrap();
    let with_hyphen = g.state().check(0, "t->ac").unwrap();
    assert_eq!(with_hyphen, "t=>ac", "canonical form");
    assert_eq!(g.state().check(0, "tcg->").unwrap(), "tcg=>");
}

#[test]
fn the_help_tells_the_finnish_name_the_worked_example_and_the_quoting() {
    let info = game(&[], &["ann", "bob"]).kind().info();
    assert!(info.rules(Lang::En).contains("Merkkikorvauspeli"), "{}", info.rules(Lang::En));
    // The example's strings, as the game computes them above.
    for s in ["atcg", "tacg", "tactc", "atctcac", "tacaccac", "tacACCac"] {
        assert!(info.rules(Lang::En).contains(s), "{s}");
    }
    assert!(info.move_help(Lang::En).contains("'tcg=>ag'"), "{}", info.move_help(Lang::En));
}
