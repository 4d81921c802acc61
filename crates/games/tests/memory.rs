//! What a replayed game holds, counted by the allocator: the service's
//! replay cache is bounded by [`Game::memory`], so that estimate must be
//! near the bytes a game really holds, and a history line must stay small
//! (a cache of 64 MiB holds a few thousand games of a few dozen lines).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use tabula_model::{Event, EventAction, Game, GameKind, Lang, Options, Turn, Viewer, rng_for};

/// The system allocator, counting the bytes live at any moment.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        LIVE.fetch_add(size as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Up to `events` random moves of a new two-player game of `kind`, then
/// its history shown to each player and to an observer in English, as a
/// server's replies show it.
fn played(kind: &'static dyn GameKind, events: usize) -> Box<Game> {
    let options = Options::parse(kind.info(), &[] as &[&str]).unwrap();
    let players = vec!["ann".to_string(), "bob".to_string()];
    let mut game = Box::new(Game::create(kind, options, players, 7, 0).unwrap());
    let mut rng = rng_for(3, 0);
    for index in 0..events {
        let at = 1_000 * (index as i64 + 1);
        game.advance_clock(at, 100);
        let seat = match game.to_move() {
            Turn::Over => break,
            Turn::Player(p) => p,
            Turn::Simultaneous(set) => set.nth(index % set.len()).unwrap_or_default(),
            Turn::Clock => index % 2,
        };
        let Some(text) = game.state().random_move(seat, &mut rng) else { continue };
        let _ = game.submit(Event { at, seat: Some(seat), action: EventAction::Move(text) });
    }
    for viewer in [Viewer::Player(0), Viewer::Player(1), Viewer::Observer] {
        game.history_in(viewer, Lang::En);
    }
    game
}

/// The bytes `make` leaves allocated, and what it made.
fn counted<T>(make: impl FnOnce() -> T) -> (usize, T) {
    let before = LIVE.load(Ordering::Relaxed);
    let made = make();
    ((LIVE.load(Ordering::Relaxed) - before) as usize, made)
}

// One test: the count is of the whole process.
#[test]
fn a_game_counts_what_it_holds_and_a_history_line_is_small() {
    for &kind in tabula_games::all() {
        // The same game once before, so that what the process keeps for
        // good (catalogues, fixed texts) is made outside the count.
        drop(played(kind, 40));
        let (bytes, game) = counted(|| played(kind, 40));
        let estimate = game.memory();
        let name = kind.info().kind;
        assert!(
            estimate * 4 >= bytes * 3 && estimate * 4 <= bytes * 5,
            "{name}: Game::memory says {estimate} bytes; the game holds {bytes}"
        );
    }
    // An Intervalo line keeps its messages, and its words once shown. Room
    // kept in every line for every language and reader, and for arguments
    // never given, made it about 1,200 bytes; messages keeping their
    // arguments as a list of values, about 835.
    let intervalo = tabula_games::find("intervalo").unwrap();
    let (empty, _fresh) = counted(|| played(intervalo, 0));
    let (bytes, game) = counted(|| played(intervalo, 40));
    let per_line = (bytes - empty) / game.history_len();
    assert!(per_line < 650, "{per_line} bytes a line ({} lines)", game.history_len());
}
