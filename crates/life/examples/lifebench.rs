//! Benchmark driver for `scripts/bench-life`.
//!
//! ```text
//! lifebench soup WIDTH HEIGHT SEED DIR
//!     writes the same 50% soup three ways: DIR/soup1.rle (plain Life,
//!     B3/S23), DIR/soup2.rle (two players, Immigration2) and DIR/soup8.txt
//!     (a text board: eight players and neutral cells)
//! lifebench run FILE GENERATIONS [--threads auto|1] [--edges torus|dead|unbounded]
//!     reads an RLE (states 1..26 are players A..Z) or a text board, steps
//!     it and reports cell updates per second
//! ```

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_life::rle::Rle;
use tabula_life::text::Board;
use tabula_life::{Life, Owner, Threads, Topology, Universe};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("soup") => soup(&args[1..]),
        Some("run") => run(&args[1..]),
        _ => {
            Err("usage: lifebench soup W H SEED DIR | lifebench run FILE GENERATIONS [--threads auto|1]"
                .into())
        }
    };
    if let Err(e) = result {
        eprintln!("lifebench: {e}");
        std::process::exit(2);
    }
}

fn number<T: std::str::FromStr>(s: Option<&String>, what: &str) -> Result<T, String> {
    s.and_then(|s| s.parse().ok()).ok_or_else(|| format!("{what} must be a number"))
}

fn soup(args: &[String]) -> Result<(), String> {
    let width: u64 = number(args.first(), "WIDTH")?;
    let height: u64 = number(args.get(1), "HEIGHT")?;
    let seed: u64 = number(args.get(2), "SEED")?;
    let dir = std::path::Path::new(args.get(3).ok_or("DIR is missing")?);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut one = Rle { width, height, rule: format!("B3/S23:T{width},{height}"), ..Rle::default() };
    let mut two = Rle { width, height, rule: format!("Immigration2:T{width},{height}"), ..Rle::default() };
    let mut eight = Board::empty(width as usize, height as usize);
    for y in 0..height {
        for x in 0..width {
            if rng.random_bool(0.5) {
                one.cells.push((x, y, 1));
                two.cells.push((x, y, rng.random_range(1..=2)));
                let k = rng.random_range(0..9usize);
                eight.cells[(y * width + x) as usize] =
                    Some(if k == 8 { Owner::Neutral } else { Owner::Player(k as u8) });
            }
        }
    }
    let write =
        |name: &str, text: String| std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"));
    write("soup1.rle", one.to_text(false))?;
    write("soup2.rle", two.to_text(true))?;
    write("soup8.txt", eight.to_text(false))
}

fn run(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or("FILE is missing")?;
    let generations: u64 = number(args.get(1), "GENERATIONS")?;
    let mut threads = Threads::Auto;
    let mut edges = "torus".to_string();
    let mut rest = args[2..].iter();
    while let Some(flag) = rest.next() {
        match (flag.as_str(), rest.next().map(String::as_str)) {
            ("--threads", Some("1")) => threads = Threads::Single,
            ("--threads", Some("auto")) => threads = Threads::Auto,
            ("--edges", Some(e)) => edges = e.to_string(),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (width, height, cells): (u64, u64, Vec<(i64, i64, Owner)>) = if path.ends_with(".rle") {
        let rle = Rle::parse(&text).map_err(|e| e.to_string())?;
        let cells = rle
            .cells
            .iter()
            .map(|&(x, y, s)| Owner::player(usize::from(s) - 1).map(|o| (x as i64, y as i64, o)))
            .collect::<Option<Vec<_>>>()
            .ok_or("states above 26 are not players")?;
        (rle.width, rle.height, cells)
    } else {
        let board = Board::parse(&text).map_err(|e| e.to_string())?;
        let cells = board
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|o| ((i % board.width) as i64, (i / board.width) as i64, o)))
            .collect();
        (board.width as u64, board.height as u64, cells)
    };
    let topology = Topology::from_edges(&edges, width, height).map_err(|e| e.to_string())?;
    let mut life = Universe::new(topology).map_err(|e| e.to_string())?;
    life.set_threads(threads);
    for (x, y, o) in cells {
        life.set(x, y, Some(o)).map_err(|e| e.to_string())?;
    }
    let start = Instant::now();
    life.step(generations);
    let seconds = start.elapsed().as_secs_f64();
    let updates = (width * height * generations) as f64;
    println!(
        "{width}x{height} {generations} generations {seconds:.4} s {:.3e} cell-updates/s population {}",
        updates / seconds,
        life.population().total()
    );
    Ok(())
}
