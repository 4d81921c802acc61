//! Every built-in bot plays every turn-based game to the end with legal
//! moves, and the look-ahead heuristics prefer what they claim to.

use tabula_bots::{BotSpec, BuiltinBot, MemoryStore, TournamentConfig, builtin_move, run_tournament};
use tabula_dna::{Dna, Standing};
use tabula_model::{Event, EventAction, Game, GameKind, GameRng, Options, rng_for};

fn kinds() -> [(&'static dyn GameKind, Vec<String>); 3] {
    [
        (&tabula_dna::KIND, vec!["-length=16".to_string()]),
        (&tabula_conway::KIND, vec!["-size=6".to_string()]),
        (&tabula_rewrite::KIND, vec!["-rounds=2".to_string()]),
    ]
}

#[test]
fn every_builtin_finishes_every_game_without_a_failure() {
    for (kind, options) in kinds() {
        let bots = ["random", "greedy", "mcts:20"].iter().map(|b| BotSpec::parse(b).unwrap()).collect();
        let mut config = TournamentConfig::new(kind.info().kind, bots);
        config.options = options;
        config.games_per_pair = 2;
        config.seed = 4;
        let report = run_tournament(&config, kind, &mut MemoryStore::default(), &|_| {}).unwrap();
        assert_eq!(report.games.len(), 6);
        for game in &report.games {
            assert!(game.failures.is_empty(), "{}: {game:?}", kind.info().kind);
            assert!(game.moves > 0);
        }
    }
}

#[test]
fn builtin_move_serves_the_server() {
    for (kind, options) in kinds() {
        let options = Options::parse(kind.info(), &options).unwrap();
        let game = Game::create(kind, options, vec!["ned".into(), "bot".into()], 9, 0).unwrap();
        let mut rng: GameRng = rng_for(1, 1);
        let seat = match game.to_move() {
            tabula_model::Turn::Player(p) => p,
            tabula_model::Turn::Simultaneous(set) => set.first().unwrap(),
            other => panic!("{other:?}"),
        };
        for bot in ["random", "greedy", "mcts:10"] {
            let mv = builtin_move(bot, &game, seat, &mut rng).unwrap().unwrap();
            assert!(game.state().check(seat, &mv).is_ok(), "{bot} in {}: {mv}", kind.info().kind);
        }
        assert!(builtin_move("nosuchbot", &game, seat, &mut rng).is_err());
    }
    let options = Options::parse::<&str>(tabula_intervalo::KIND.info(), &[]).unwrap();
    let game = Game::create(&tabula_intervalo::KIND, options, vec!["a".into(), "b".into()], 1, 0).unwrap();
    let centre = builtin_move("center", &game, 0, &mut rng_for(1, 1)).unwrap().unwrap();
    assert!(centre == "32" || centre == "33", "{centre}");
}

#[test]
fn dna_greedy_hurts_opponents_most_and_itself_least() {
    let options = Options::parse(tabula_dna::KIND.info(), &["-non_incremental"]).unwrap();
    let mut game =
        Game::create(&tabula_dna::KIND, options, vec!["a".into(), "b".into(), "c".into()], 3, 0).unwrap();
    let greedy = BuiltinBot::named("greedy").unwrap();
    let mut rng = rng_for(5, 5);
    for _ in 0..6 {
        let tabula_model::Turn::Player(seat) = game.to_move() else { break };
        let dna = game.state().as_any().downcast_ref::<Dna>().unwrap();
        let others: Vec<usize> = (0..3).filter(|&s| s != seat && dna.standing(s) == Standing::In).collect();
        let length = |d: &Dna, s: usize| d.sequence(s).map_or(0, <[u8]>::len) as i64;
        // The best value any nomination reaches, computed here from scratch.
        let value = |text: &str| {
            let mut copy = game.clone();
            copy.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(text.into()) }).unwrap();
            let d = copy.state().as_any().downcast_ref::<Dna>().unwrap();
            let longest =
                others.iter().filter(|&&s| d.standing(s) == Standing::In).map(|&s| length(d, s)).max();
            let out = others.iter().filter(|&&s| d.standing(s) == Standing::Out).count() as i64;
            length(d, seat) - longest.unwrap_or(0) + 20 * out
        };
        let nominations = dna.nominations(seat);
        if nominations.is_empty() {
            break;
        }
        let best = nominations.iter().map(|n| value(&n.chunk)).max().unwrap();
        let chosen = greedy.choose(&game, seat, &mut rng).unwrap();
        if nominations.len() <= 48 {
            assert_eq!(value(&chosen), best, "greedy chose {chosen}");
        }
        game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(chosen) }).unwrap();
        if game.is_over() {
            break;
        }
    }
}

#[test]
fn multiplayer_tournaments_seat_every_combination_in_rotation() {
    let bots = ["random", "greedy", "mcts:10", "random"].iter().map(|b| BotSpec::parse(b).unwrap()).collect();
    let mut config = TournamentConfig::new("dna", bots);
    config.options = vec!["-length=12".into()];
    config.players = 3;
    config.games_per_pair = 3;
    config.seed = 8;
    let report = run_tournament(&config, &tabula_dna::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    // 4 combinations of 3 bots out of 4, 3 games each, seats rotated.
    assert_eq!(report.games.len(), 12);
    assert_eq!(report.names, ["random", "greedy", "mcts:10", "random#2"]);
    assert_eq!(report.games[0].bots, [0, 1, 2]);
    assert_eq!(report.games[1].bots, [1, 2, 0]);
    assert_eq!(report.games[2].bots, [2, 0, 1]);
    for game in &report.games {
        assert_eq!(game.results.len(), 3);
        let winners = game.results.iter().filter(|r| **r == tabula_model::SeatResult::Win).count();
        assert!(winners <= 1);
        assert_eq!(game.winner.is_some(), winners == 1);
    }
    for b in &report.bots {
        assert_eq!(b.games, 9, "each bot is in 3 of the 4 combinations");
    }
}

/// Games between built-in bots are played on the bare state unless a full
/// record is asked for; both ways give the same games.
#[test]
fn bare_and_recorded_games_come_out_the_same() {
    use tabula_bots::referee::{Player, RefereeSettings, play_game};
    let cases: [(&'static dyn GameKind, &[&str], [&str; 2]); 4] = [
        (&tabula_intervalo::KIND, &["-cells=24"], ["random", "center"]),
        (&tabula_dna::KIND, &["-length=16"], ["random", "greedy"]),
        (&tabula_rewrite::KIND, &["-rounds=2"], ["random", "mcts:10"]),
        (&tabula_rtlife::KIND, RTLIFE_SMALL, ["greedy", "random"]),
    ];
    let names = ["a".to_string(), "b".to_string()];
    for (kind, options, bots) in cases {
        let options = Options::parse(kind.info(), options).unwrap();
        for seed in 0..4 {
            let results: Vec<_> = [false, true]
                .into_iter()
                .map(|full_record| {
                    let settings = RefereeSettings { full_record, ..RefereeSettings::default() };
                    let mut players = bots.map(|b| Player::Builtin(BuiltinBot::named(b).unwrap()));
                    play_game(kind, &options, &mut players, &names, seed, &settings).unwrap()
                })
                .collect();
            assert_eq!(results[0], results[1], "{} seed {seed}", kind.info().kind);
            assert!(results[0].moves > 0);
        }
    }
}

/// A small Real-Time Life field for quick games on the simulated clock.
const RTLIFE_SMALL: &[&str] = &["-width=20", "-height=14", "-gen_ticks=2", "-generations=6"];

/// Real-Time Life runs on the clock: the referee drives the clock in
/// simulated time, built-in and external bots move or pass at every tick,
/// and the same seed gives the same games.
#[test]
fn real_time_life_tournaments_run_on_a_simulated_clock() {
    let row_bot = format!("python3 {}/../../examples/bots/life_row.py", env!("CARGO_MANIFEST_DIR"));
    let bots: Vec<BotSpec> = ["random", "greedy", "mcts:20", row_bot.as_str()]
        .iter()
        .map(|b| BotSpec::parse(b).unwrap())
        .collect();
    let mut config = TournamentConfig::new("rtlife", bots);
    config.options = RTLIFE_SMALL.iter().map(|o| o.to_string()).collect();
    config.games_per_pair = 2;
    config.seed = 3;
    let report = run_tournament(&config, &tabula_rtlife::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    assert_eq!(report.games.len(), 12);
    for game in &report.games {
        assert!(game.failures.is_empty(), "{game:?}");
        assert!(
            game.reason.contains("generation")
                || game.reason.contains("standing")
                || game.reason.contains("vanish"),
            "{game:?}"
        );
        assert_eq!(game.scores.len(), 2, "{game:?}");
    }
    // Placing beats wandering about: the heuristic and the row-placing
    // example bot win most of their games against random.
    let random = report.bots.iter().find(|b| b.name == "random").unwrap();
    assert!(random.wins < random.losses, "{random:?}");
    let again = run_tournament(&config, &tabula_rtlife::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    assert_eq!(report.games, again.games);
}

/// Without a last generation a tournament game on the clock gets one.
#[test]
fn clock_games_get_a_last_generation() {
    let bots = vec![BotSpec::parse("random").unwrap(), BotSpec::parse("greedy").unwrap()];
    let mut config = TournamentConfig::new("rtlife", bots);
    config.options = vec!["-width=12".into(), "-height=10".into(), "-gen_ticks=1".into()];
    let effective = tabula_bots::tournament::effective_config(&config, &tabula_rtlife::KIND);
    assert_eq!(effective.options.last().unwrap(), "-generations=20");
    config.options.push("-generations=3".into());
    let effective = tabula_bots::tournament::effective_config(&config, &tabula_rtlife::KIND);
    assert_eq!(effective.options, config.options);
    config.games_per_pair = 1;
    let report = run_tournament(&config, &tabula_rtlife::KIND, &mut MemoryStore::default(), &|_| {}).unwrap();
    assert_eq!(report.games.len(), 1);
    assert!(report.games[0].failures.is_empty());
}

/// A Real-Time Life game of ned and ted on a small field, both patterns
/// placed, eleven ticks on: the default twelfth brings the first generation.
fn placed_before_a_generation(seed: u64) -> Game {
    let kind = &tabula_rtlife::KIND;
    let options = Options::parse(kind.info(), &["-width=32", "-height=20", "-generations=10"]).unwrap();
    let mut game = Game::create(kind, options, vec!["ned".into(), "ted".into()], seed, 0).unwrap();
    for (seat, place) in
        [(0, "place c10,d10,e10,d11,e12,f12,g12,g11,h10,i10"), (1, "place p5,q5,r5,s5,q6,r6,s4,t4,u4,u3")]
    {
        game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(place.into()) }).unwrap();
    }
    game.advance_clock(11 * 3_600_000, 100);
    game
}

/// Points come every tick, and the search bot spends those saved up
/// between generations in chains of one-cell moves: each chain is one
/// legal move its owner can pay for, and some take several steps.
#[test]
fn real_time_life_chains_spend_saved_points_in_one_legal_move() {
    use tabula_rtlife::RtMove;
    let mut longest = 0;
    for seed in 0..6 {
        let game = placed_before_a_generation(seed);
        let life = tabula_bots::rtlife::game_of(game.state()).unwrap();
        assert_eq!(life.generation(), 0);
        let points = life.points(0);
        assert!(points >= 11, "{points}");
        let mut rng: GameRng = rng_for(seed, 7);
        let Some(chain) = tabula_bots::rtlife::chain_move(life, 0, &mut rng) else { continue };
        let RtMove::Move(steps) = &chain else { panic!("a chain is a move: {chain:?}") };
        assert!(life.move_cost(0, steps).unwrap() <= points);
        let text = tabula_model::Rules::format_move(life, &chain);
        game.check(&Event { at: 11 * 3_600_000, seat: Some(0), action: EventAction::Move(text) }).unwrap();
        longest = longest.max(steps.len());
    }
    assert!(longest >= 2, "no chain of several steps: {longest}");
}

/// The search bot's chains also take its cells to the other player's
/// pattern, farther than a short step goes: crowding a pattern can kill
/// it, and a player left without cells is out.
#[test]
fn real_time_life_chains_go_for_the_other_players_cells() {
    use tabula_model::coords::Point;
    use tabula_rtlife::RtMove;
    let mut attacks = 0;
    for seed in 0..6 {
        let game = placed_before_a_generation(seed);
        let life = tabula_bots::rtlife::game_of(game.state()).unwrap();
        let mine = tabula_life::Owner::player(0);
        let theirs: Vec<Point> =
            life.live_cells().into_iter().filter(|c| Some(c.1) != mine).map(|c| c.0).collect();
        let king = |a: Point, b: Point| (a.x - b.x).abs().max((a.y - b.y).abs());
        let mut rng: GameRng = rng_for(seed, 7);
        let Some(RtMove::Move(steps)) = tabula_bots::rtlife::chain_move(life, 0, &mut rng) else { continue };
        attacks += steps
            .iter()
            .filter(|&&(from, to)| king(from, to) > 2 && theirs.iter().any(|&c| king(c, to) <= 2))
            .count();
    }
    assert!(attacks > 0, "no chain went for the other's cells");
}
