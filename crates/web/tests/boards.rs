//! The click layouts of `boards.rs` against the pictures the game crates
//! really draw: every drawn cell's centre must map back to its own name,
//! for every cell size the renderers use.

use tabula_model::{Event, EventAction, Game, GameKind, Options, Viewer};
use tabula_web::boards::{ClickMap, click_map};

/// Every `<rect x=.. y=.. width=.. height=..><title>NAME</title>` of `svg`:
/// (centre x, centre y, name).
fn titled_rects(svg: &str) -> Vec<(f64, f64, String)> {
    let mut out = Vec::new();
    for part in svg.split("<rect ").skip(1) {
        let Some((attrs, rest)) = part.split_once('>') else { continue };
        let Some(title) = rest.strip_prefix("<title>").and_then(|t| t.split_once("</title>")).map(|t| t.0)
        else {
            continue;
        };
        let attr = |name: &str| -> f64 {
            let start =
                attrs.find(&format!(" {name}=\"")).or_else(|| attrs.find(&format!("{name}=\""))).unwrap();
            let from = attrs[start..].find('"').unwrap() + start + 1;
            let to = attrs[from..].find('"').unwrap() + from;
            attrs[from..to].parse().unwrap()
        };
        let (x, y, w, h) = (attr("x"), attr("y"), attr("width"), attr("height"));
        out.push((x + w / 2.0, y + h / 2.0, title.to_string()));
    }
    out
}

fn game(kind: &'static dyn GameKind, options: &[&str], players: &[&str]) -> Game {
    let options = Options::parse(kind.info(), options).unwrap();
    Game::create(kind, options, players.iter().map(|p| p.to_string()).collect(), 7, 0).unwrap()
}

fn play(game: &mut Game, seat: usize, text: &str) {
    game.submit(Event { at: 0, seat: Some(seat), action: EventAction::Move(text.into()) }).unwrap();
}

fn check(game: &Game, expect_at_least: usize) -> ClickMap {
    let kind = game.kind().info().kind;
    let view = game.view_json(Viewer::Player(0), 0);
    let map = click_map(kind, &view).expect("a click map");
    let svg = game.render_svg(Viewer::Player(0), 0);
    let cells = titled_rects(&svg);
    assert!(cells.len() >= expect_at_least, "{kind}: only {} titled cells", cells.len());
    for (x, y, name) in &cells {
        assert_eq!(map.label_at(*x, *y).as_deref(), Some(name.as_str()), "{kind}: cell {name} at ({x}, {y})");
    }
    map
}

#[test]
fn intervalo_cells_map_to_their_numbers() {
    let kind = tabula_games::find("intervalo").unwrap();
    for cells in ["-cells=64", "-cells=100", "-cells=5"] {
        let g = game(kind, &[cells], &["ann", "bob"]);
        let n: usize = cells[7..].parse().unwrap();
        let map = check(&g, n);
        // Between the rows lies the ruler, not a cell.
        if let ClickMap::Strip { x0, y0, cell, row_height, .. } = map {
            assert_eq!(map.label_at(x0 + 1.0, y0 + row_height - 4.0), None);
            assert_eq!(map.label_at(x0 - 1.0, y0 + 1.0), None);
            assert_eq!(map.label_at(x0 + cell / 2.0, y0 + cell / 2.0).as_deref(), Some("1"));
        }
    }
}

#[test]
fn conway_points_map_to_their_names() {
    let kind: &'static dyn GameKind = &tabula_conway::KIND;
    for size in ["-size=10", "-size=41", "-size=60"] {
        let mut g = game(kind, &[size, "-place=5"], &["ann", "bob"]);
        let n: usize = size[6..].parse().unwrap();
        let last = tabula_model::coords::column_name(n as u64 - 1);
        // Placements ramp up (1, 2, 3 pieces) before the first generation,
        // so corners and edges are all on the board when it is drawn.
        play(&mut g, 0, "a1");
        play(&mut g, 1, &format!("{last}1,{last}{n}"));
        play(&mut g, 0, &format!("a{n},e5,c{}", n - 1));
        let map = check(&g, 6);
        let ClickMap::Grid { columns, rows, .. } = map else { panic!("conway is a grid") };
        assert_eq!((columns, rows), (n, n));
    }
}

#[test]
fn games_without_points_have_no_map() {
    let kind = tabula_games::find("dna").unwrap();
    let g = game(kind, &["-length=6"], &["ann", "bob"]);
    assert_eq!(click_map("dna", &g.view_json(Viewer::Observer, 0)), None);
}
