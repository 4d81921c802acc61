//! The click layouts the games give with their pictures against what they
//! really draw: every drawn cell's centre must map back to its own name,
//! for every cell size the renderers use. The web serves both as they come.

use tabula_model::{ClickMap, Event, EventAction, Game, GameKind, Options, Viewer};

/// Every `<rect x=.. y=.. width=.. height=..><title>NAME</title>` of `svg`:
/// (centre x, centre y, name). A title `cell 5: empty` names cell `5`.
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
        let name = title.strip_prefix("cell ").and_then(|t| t.split(':').next()).unwrap_or(title);
        out.push((x + w / 2.0, y + h / 2.0, name.to_string()));
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
    let picture = game.picture(Viewer::Player(0), 0, tabula_model::Lang::En);
    let (map, svg) = (picture.click.expect("a click map"), picture.svg);
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
    assert_eq!(g.picture(Viewer::Observer, 0, tabula_model::Lang::En).click, None);
}

/// The centres of the cells drawn in `colour` (runs of a row are one rect).
fn coloured_cells(svg: &str, colour: &str, cell: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for part in svg.split("<rect ").skip(1) {
        let attrs = part.split('>').next().unwrap();
        if !attrs.contains(&format!("fill=\"{colour}\"")) || attrs.contains("rx=") {
            continue;
        }
        let attr = |name: &str| -> f64 {
            let start = attrs.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
            attrs[start..start + attrs[start..].find('"').unwrap()].parse().unwrap()
        };
        let (x, y, w) = (attr("x"), attr("y"), attr("width"));
        let n = (w / cell).round() as usize;
        out.extend((0..n).map(|i| (x + cell * (i as f64 + 0.5), y + cell / 2.0)));
    }
    out
}

#[test]
fn real_time_life_points_map_to_their_names() {
    let kind = tabula_games::find("rtlife").unwrap();
    for (options, placed) in [
        (vec!["-width=12", "-height=8", "-start_cells=3"], vec!["c3", "d3", "e3"]),
        (vec!["-width=100", "-height=90", "-start_cells=3"], vec!["a1", "a2", "b2"]),
        (vec!["-edges=unbounded", "-start_cells=3"], vec!["(-1,5)", "(0,5)", "(1,5)"]),
    ] {
        let mut g = game(kind, &options, &["ann", "bob"]);
        play(&mut g, 0, &format!("place {}", placed.join(",")));
        let picture = g.picture(Viewer::Player(1), 0, tabula_model::Lang::En);
        let (map, svg) = (picture.click.expect("a click map"), picture.svg);
        let ClickMap::Field { cell, ref placing, .. } = map else { panic!("rtlife is a field") };
        assert_eq!(placing, &vec!["bob".to_string()], "{options:?}");
        let cells = coloured_cells(&svg, tabula_model::svg::player_colour(0), cell);
        let mut names: Vec<String> = cells.iter().map(|(x, y)| map.label_at(*x, *y).unwrap()).collect();
        names.sort();
        let mut want: Vec<String> = placed.iter().map(|p| p.to_string()).collect();
        want.sort();
        assert_eq!(names, want, "{options:?}");
    }
}
