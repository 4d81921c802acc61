//! Real-Time Life on a big unbounded field: one clock event that runs a
//! generation (step, scores, eliminations) on about a million live cells,
//! a tick without a generation (movement points from the population), and
//! long and short moves' path searches across the field; and a restarted
//! server catching up on many missed ticks of a default-size game.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_life::Owner;
use tabula_model::coords::Point;
use tabula_model::{Ctx, Event, EventAction, Game, Options, Rules, Setup, rng_for};
use tabula_rtlife::{Area, INFO, KIND, MAX_SEARCH, RtLife, route};

/// A random soup of `side` x `side` points at `percent` density, owned by
/// `players` players (and neutral cells when `neutral`).
fn soup(side: i64, percent: u32, players: usize, neutral: bool, gen_ticks: &str) -> RtLife {
    let options = Options::parse(&INFO, &["-edges=unbounded", "-tick=1s", gen_ticks]).unwrap();
    let users: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let owners = players + usize::from(neutral);
    let mut cells = Vec::new();
    for y in 0..side {
        for x in 0..side {
            if rng.random_range(0..100) < percent {
                let k = rng.random_range(0..owners);
                let owner = if k == players { Owner::Neutral } else { Owner::Player(k as u8) };
                cells.push((Point { x: x - side / 2, y: y - side / 2 }, owner));
            }
        }
    }
    RtLife::with_cells(&Setup { options: &options, players: &users, start: 0 }, &cells).unwrap()
}

fn clock(game: &mut RtLife) {
    let now = game.next_clock().unwrap();
    game.clock(&mut Ctx { now, rng: &mut rng_for(1, 0), history: true });
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("unbounded");
    group.sample_size(10);
    for (name, players, neutral) in [("4 players", 4, false), ("26 players + neutral", 26, true)] {
        let game = soup(2000, 25, players, neutral, "-gen_ticks=1");
        let cells: u64 = (0..players).map(|s| game.cells(s)).sum::<u64>() + game.neutral_cells();
        eprintln!("{name}: {cells} live cells");
        group.bench_function(format!("generation, 1M cells, {name}"), |b| {
            b.iter_batched(|| game.clone(), |mut g| clock(&mut g), BatchSize::LargeInput)
        });
    }
    let game = soup(2000, 25, 4, false, "-gen_ticks=1000");
    group.bench_function("tick without generation, 1M cells, 4 players", |b| {
        b.iter_batched(|| game.clone(), |mut g| clock(&mut g), BatchSize::LargeInput)
    });
    // One tick gives player 0 a point per 10 of its 250000 cells.
    let mut game = soup(2000, 25, 4, false, "-gen_ticks=1000");
    clock(&mut game);
    let from = game.live_cells().into_iter().find(|c| c.1 == Owner::Player(0)).unwrap().0;
    let to = Point { x: from.x + 1500, y: from.y - 1500 };
    let to = if game.at(to).is_none() { to } else { Point { x: to.x + 1, y: to.y } };
    let window = Area::Window { x0: -1001, y0: -1001, x1: 1000, y1: 1000 };
    let mut allowance = MAX_SEARCH;
    let found = route(window, from, to, u64::MAX, &mut allowance, |q| game.at(q).is_none());
    eprintln!("move {from}-{to}: {found:?}, {} points visited", MAX_SEARCH - allowance);
    group
        .bench_function("long move across the 1M-cell soup", |b| b.iter(|| game.move_cost(0, &[(from, to)])));
    // A short move: about 20 points away, through the soup.
    let near = (0..40)
        .map(|d| Point { x: from.x + 20 + d, y: from.y - 20 })
        .find(|&q| game.at(q).is_none())
        .unwrap();
    let mut allowance = MAX_SEARCH;
    let found = route(window, from, near, u64::MAX, &mut allowance, |q| game.at(q).is_none());
    eprintln!("move {from}-{near}: {found:?}, {} points visited", MAX_SEARCH - allowance);
    group.bench_function("short move in the 1M-cell soup", |b| b.iter(|| game.move_cost(0, &[(from, near)])));
    group.finish();
}

/// A restarted server catching up: 12000 missed ticks (1000 generations) of
/// a default 72x36 game with 8 players who placed random connected cells.
fn catch_up(c: &mut Criterion) {
    let options = Options::parse(&INFO, &["-tick=1s"]).unwrap();
    let users: Vec<String> = (0..8).map(|i| format!("p{i}")).collect();
    let mut game = Game::create(&KIND, options, users, 3, 0).unwrap();
    let mut rng = rng_for(3, 99);
    for seat in 0..8 {
        let place = game.state().random_move(seat, &mut rng).unwrap();
        game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(place) }).unwrap();
    }
    let mut probe = game.clone();
    let done = probe.advance_clock(12_000 * 1000, 100_000);
    let state = probe.state().as_any().downcast_ref::<RtLife>().unwrap();
    eprintln!("catch-up: {done} clock events, generation {}, over: {}", state.generation(), probe.is_over());
    let mut group = c.benchmark_group("catch-up");
    group.sample_size(10);
    group.bench_function("12000 ticks, 1000 generations, 72x36, 8 players", |b| {
        b.iter_batched(
            || game.clone(),
            |mut g| {
                let done = g.advance_clock(12_000 * 1000, 100_000);
                assert!(done == 12_000 || g.is_over());
                g
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, generation, catch_up);
criterion_main!(benches);
