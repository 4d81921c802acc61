//! Size limits of Real-Time Life: the field's sides and the unbounded
//! plane's coordinates, each refused with a message naming the limit.

use tabula_model::{Game, Options, Rules, Setup, rng_for};
use tabula_rtlife::{INFO, KIND, MAX_SIDE, PLANE_LIMIT, RtLife};

fn fresh(words: &[&str]) -> RtLife {
    let options = Options::parse(&INFO, words).unwrap();
    let players = vec!["ann".to_string()];
    RtLife::new(&Setup { options: &options, players: &players, start: 0 }, &mut rng_for(1, 0)).unwrap()
}

#[test]
fn a_field_has_at_most_702_columns_and_rows() {
    assert_eq!(MAX_SIDE, 702);
    for side in ["width", "height"] {
        let error = Options::parse(&INFO, &[format!("-{side}=703")]).unwrap_err().to_string();
        assert!(error.contains("702"), "{side}: {error}");
        assert!(Options::parse(&INFO, &[format!("-{side}=0")]).is_err());
    }
    let options = Options::parse(&INFO, &["-width=702", "-height=702"]).unwrap();
    let game = Game::create(&KIND, options, vec!["ann".into(), "bob".into()], 1, 0).unwrap();
    assert!(
        game.render_text(tabula_model::Viewer::Observer, 0, tabula_model::Lang::En).lines().count() >= 702
    );
}

#[test]
fn the_unbounded_plane_ends_at_the_plane_limit() {
    let game = fresh(&["-edges=unbounded", "-start_cells=1"]);
    let verdict = |text: &str| -> Result<(), String> {
        let mv = game.parse_move(0, text).map_err(|e| e.to_string())?;
        game.check_move(0, &mv).map_err(|e| e.to_string())
    };
    let inside = format!("place ({PLANE_LIMIT},0)");
    assert_eq!(verdict(&inside), Ok(()), "{inside}");
    let outside = format!("place ({},0)", PLANE_LIMIT + 1);
    let error = verdict(&outside).unwrap_err();
    assert!(error.contains("too far out"), "{error}");
    // Numbers beyond any integer are an error too, not a crash.
    assert!(verdict("place (99999999999999999999999,0)").is_err());
}

#[test]
fn the_largest_field_is_counted_for_the_replay_cache() {
    // The service's cache bounds the bytes of the games it keeps: the
    // largest field holds at least a bit per cell.
    let side = MAX_SIDE.to_string();
    let state = fresh(&[&format!("-width={side}"), &format!("-height={side}")]);
    let memory = state.memory();
    assert!(
        memory >= (MAX_SIDE * MAX_SIDE / 8) as usize,
        "a {side} x {side} field counted as {memory} bytes"
    );
}
