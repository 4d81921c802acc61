//! Real-Time Life through the `tabula` binary over two simulated days.
//!
//! Every command is a new process that replays the stored record, and
//! `--now` sets the clock. One database gets the commands only, with a gap
//! of 28 hours in the middle (a server that was down): the first command
//! after the gap must apply every missed tick and generation. A second
//! database gets the same commands plus a `show` one minute after every
//! tick (a server that ran throughout). Both must end in the same state,
//! with as many ticks and generations as the elapsed time gives.

mod common;

use common::Tabula;
use serde_json::Value;

/// 2026-01-01T00:00:00Z in milliseconds.
const START_MS: i64 = 1_767_225_600_000;
const MINUTE_MS: i64 = 60_000;
const HOUR_MS: i64 = 60 * MINUTE_MS;

/// The time `minutes` after the start, as `--now` takes it.
fn rfc3339(minutes: u32) -> String {
    format!("2026-01-{:02}T{:02}:{:02}:00Z", 1 + minutes / 1440, minutes / 60 % 24, minutes % 60)
}

/// Minutes after the start.
const RESTART: u32 = 1440 + 10 * 60; // day 2, 10:00
const END: u32 = 1440 + 23 * 60 + 30; // day 2, 23:30

/// The commands of the game, at minutes after the start. `Err` marks a
/// command that must be refused (exit status 1) and change nothing.
const SCRIPT: &[(u32, Result<&str, &str>)] = &[
    (0, Ok("rtlife challenge -tick=1h -gen_ticks=12 ann bob cy")),
    (10, Ok("rtlife move 1 ann pw-ann place c3,d3,e3,c4,e4,c5,d5,e5,d6,d7")),
    // A still life (the long long ship), far from everyone else.
    (20, Ok("rtlife move 1 bob pw-bob place ao25,ap25,ao24,aq24,ap23,ar23,aq22,as22,ar21,as21")),
    (25, Ok("rtlife move 1 cy pw-cy place u18,v18,w18,x18,y18,z18,aa18,ab18,ac18,ad18")),
    // Two ticks have given cy two points; the move costs two.
    (150, Ok("rtlife move 1 cy pw-cy move u18-u20")),
    // bob has three points, the move would cost ten.
    (195, Err("rtlife move 1 bob pw-bob move ao25-ao35")),
    (345, Ok("rtlife move 1 ann pw-ann move d7-d9,c3-b2")),
    // Nothing from 05:45 on day 1 until 10:00 on day 2.
    (RESTART + 5, Ok("rtlife move 1 bob pw-bob move as21-as19")),
];

fn game(t: &mut Tabula, minutes: u32, line: &str) -> String {
    t.now = Some(rfc3339(minutes));
    t.ok(line)
}

fn show_json(t: &mut Tabula, minutes: u32) -> Value {
    t.now = Some(rfc3339(minutes));
    t.json("rtlife show 1")
}

/// Play the script from after minute `after` to minute `until`; with `live`,
/// also show the board one minute after every tick, as a server that never
/// stopped would apply them.
fn play(t: &mut Tabula, live: bool, after: Option<u32>, until: u32) {
    let due = |m: u32| after.is_none_or(|a| m > a) && m <= until;
    let mut steps: Vec<(u32, Result<&str, &str>)> = SCRIPT.iter().copied().filter(|s| due(s.0)).collect();
    if live {
        steps.extend((1..=until / 60).map(|h| (h * 60 + 1, Ok("rtlife show 1"))).filter(|s| due(s.0)));
    }
    steps.sort_by_key(|s| s.0);
    for (minutes, step) in steps {
        match step {
            Ok(line) => {
                game(t, minutes, line);
            }
            Err(line) => {
                t.now = Some(rfc3339(minutes));
                let before = t.json("rtlife show 1")["game"]["view"].clone();
                let err = t.fails(line, 1);
                assert!(err.contains("ao25-ao35 costs at least 10 points; you have 3"), "{err}");
                assert_eq!(
                    t.json("rtlife show 1")["game"]["view"],
                    before,
                    "a refused move changed the game"
                );
            }
        }
    }
}

fn player<'a>(view: &'a Value, user: &str) -> &'a Value {
    view["players"].as_array().unwrap().iter().find(|p| p["user"] == user).unwrap()
}

#[test]
fn two_days_with_a_restart_end_as_a_live_server_would() {
    let mut down = Tabula::new();
    let mut live = Tabula::new();
    for t in [&down, &live] {
        t.signup(&["ann", "bob", "cy"]);
    }

    // Day 1 until 05:45, then the first server stops.
    play(&mut down, false, None, RESTART - 1);
    let before = show_json(&mut down, 6 * 60);
    assert_eq!(
        (before["game"]["view"]["tick"].as_u64(), before["game"]["view"]["generation"].as_u64()),
        (Some(6), Some(0))
    );

    // Day 2, 10:00: 34 ticks have passed since the start, generations at
    // ticks 12 and 24. bob's still life has earned a point every tick and
    // scores 10/1 + 10/2; his refused move cost nothing.
    let back = show_json(&mut down, RESTART);
    let view = &back["game"]["view"];
    assert_eq!(view["tick"], 34);
    assert_eq!(view["generation"], 2);
    let bob = player(view, "bob");
    assert_eq!((bob["cells"].as_u64(), bob["points"].as_u64()), (Some(10), Some(34)));
    assert_eq!(bob["score"], "15.00");
    assert_eq!(view["next_tick"], START_MS + 35 * HOUR_MS);
    assert_eq!(view["next_generation"], START_MS + 36 * HOUR_MS);

    // The rest of day 2 on the restarted server, and the whole game on the
    // one that kept running.
    play(&mut down, false, Some(RESTART - 1), END);
    let first = show_json(&mut down, END);
    play(&mut live, true, None, END);
    let live_view = show_json(&mut live, END);
    assert_eq!(first, live_view, "the restarted server differs from the live one");

    // A second process replays the stored record to the same state.
    let again = show_json(&mut down, END);
    assert_eq!(again, first);
    down.now = Some(rfc3339(END));
    assert_eq!(down.ok("rtlife show 1"), down.ok("rtlife show 1"));

    // 47 ticks in 47.5 hours, a generation every 12 of them; the record
    // holds every tick once, beside the 6 accepted moves.
    let view = &first["game"]["view"];
    assert_eq!(view["tick"], 47);
    assert_eq!(view["generation"], 3);
    assert_eq!(view["next_tick"], START_MS + 48 * HOUR_MS);
    assert_eq!(view["next_generation"], START_MS + 48 * HOUR_MS);
    assert_eq!(first["game"]["version"], 6 + 47);
    let generations: Vec<(i64, String)> = first["game"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["entry"]["seat"].is_null())
        .map(|h| (h["at"].as_i64().unwrap(), h["entry"]["text"].as_str().unwrap().to_string()))
        .filter(|(_, text)| text.starts_with("Generation "))
        .collect();
    let times: Vec<i64> = generations.iter().map(|g| g.0).collect();
    assert_eq!(times, [12, 24, 36].map(|h| START_MS + h * HOUR_MS));
    for (i, (_, text)) in generations.iter().enumerate() {
        assert!(text.starts_with(&format!("Generation {}: ", i + 1)), "{text}");
    }
    let text = first["text"].as_str().unwrap();
    assert!(text.contains("Generation 3, tick 47\n"), "{text}");
    assert!(text.contains("Next tick at 2026-01-03 00:00:00 UTC (in 30m)\n"), "{text}");
    assert!(text.contains("bob moves as21-as19 (2 points)"), "{text}");
    assert!(text.contains("ann moves d7-d9,c3-b2 (3 points)"), "{text}");
}

/// A user who was not challenged joins a running game with a first move.
#[test]
fn an_unlisted_user_joins_a_running_game() {
    let mut t = Tabula::new();
    t.now = Some("2026-03-01T00:00:00Z".into());
    t.signup(&["ann", "dee"]);
    t.ok("rtlife challenge -tick=1h -gen_ticks=12 ann");
    t.ok("rtlife move 1 ann pw-ann place c3,d3,e3,c4,e4,c5,d5,e5,d6,d7");
    let err = t.fails("rtlife move 1 dee pw-dee join a1,a2", 1);
    assert!(err.contains("10"), "a join places the start cells: {err}");
    let out = t.ok("rtlife move 1 dee pw-dee join p10,q10,r10,s10,t10,p11,q11,r11,s11,t11");
    assert!(out.contains("dee"), "{out}");
    let v = t.json("rtlife show 1");
    assert_eq!(v["game"]["players"], serde_json::json!(["ann", "dee"]));
    // The stored record (initial players plus a join event) replays in a new process.
    t.now = Some("2026-03-01T05:00:00Z".into());
    let later = t.json("rtlife show 1");
    assert_eq!(later["game"]["players"], serde_json::json!(["ann", "dee"]));
    let err = t.fails("rtlife move 1 dee pw-dee join u20,u21,u22,u23,u24,u25,u26,u27,u28,u29", 1);
    assert!(!err.is_empty());
}

/// Players of a real-time game get one digest a day, not a mail per move.
#[test]
fn moves_are_mailed_as_a_daily_digest() {
    let mut t = Tabula::new();
    t.signup(&["ann", "bob", "cy"]);
    game(&mut t, 0, "rtlife challenge -tick=1h -gen_ticks=12 ann bob cy");
    let mails = |t: &mut Tabula| -> Vec<(String, String, String)> {
        t.json("outbox --limit 1000")
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let m = &r["message"];
                let s = |k: &str| m[k].as_str().unwrap().to_string();
                (s("key"), s("recipient"), s("body"))
            })
            .collect()
    };
    let before = mails(&mut t).len();
    for (minutes, line) in &SCRIPT[1..5] {
        game(&mut t, *minutes, line.unwrap());
    }
    assert_eq!(mails(&mut t).len(), before, "no mail per move in a real-time game");

    // The next day's first scheduler run queues the digests of day 1, once.
    t.now = Some(rfc3339(1440 + 5));
    let out = t.ok("cron");
    assert!(out.contains(", 3 digests"), "{out}");
    let out = t.ok("cron");
    assert!(out.contains(", 0 digests"), "{out}");
    let digests: Vec<_> = mails(&mut t).into_iter().filter(|m| m.0.starts_with("digest:1:")).collect();
    assert_eq!(digests.len(), 3, "{digests:#?}");
    for (key, _, body) in &digests {
        assert!(key.ends_with(&format!(":{}", START_MS / 86_400_000)), "{key}");
        assert!(body.starts_with("The day on "), "{body}");
        assert!(body.contains("(2026-01-01): moves by ann 1, bob 1, cy 2."), "{body}");
    }
    // A day without moves sends none.
    t.now = Some(rfc3339(2 * 1440 + 5));
    assert!(t.ok("cron").contains(", 0 digests"));
}
