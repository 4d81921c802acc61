//! Rewrite through the real binary: the seed's five-player game as five
//! users type it, and the calculator.

mod common;

use common::Tabula;

const PLAYERS: [(&str, &str); 5] = [("h", "aag"), ("y", "acc"), ("i", "ctc"), ("g", "acg"), ("m", "tca")];
const ROUNDS: [[&str; 5]; 3] = [
    ["tcg=>ag", "t=>ac", "g=>tc", "at=>ta", "g=>at"],
    ["ac=>aa", "tac=>atc", "ta=>ct", "c=>ac", "t=>tc"],
    ["cg=>gg", "cg=>tctc", "g=>tc", "tac=>tac", "acg=>ca"],
];

#[test]
fn the_seed_game_played_by_five_users() {
    let t = Tabula::new();
    let names: Vec<&str> = PLAYERS.iter().map(|(u, _)| *u).collect();
    t.signup(&names);
    let out = t.ok("rewrite challenge h y i g m -alphabet=atcg");
    assert!(out.starts_with("Rewrite Board 1 h y i g m\n"), "{out}");
    for (user, goal) in PLAYERS {
        t.ok(&format!("rewrite move 1 {user} pw-{user} goal {goal}"));
    }
    // Goals stay secret: y sees its own, never another's.
    let y_view = t.ok("rewrite showas 1 y pw-y");
    assert!(y_view.contains("acc"), "{y_view}");
    for (_, goal) in PLAYERS.iter().filter(|(u, _)| *u != "y") {
        assert!(!t.ok("rewrite show 1").contains(&format!("goal {goal}")));
    }
    let tables = ["tacg", "tacg", "tacaccac"];
    for (round, rules) in ROUNDS.iter().enumerate() {
        for (k, ((user, _), rule)) in PLAYERS.iter().zip(rules).enumerate() {
            let out = t.ok(&format!("rewrite move 1 {user} pw-{user} {rule}"));
            if k < 4 {
                // Unrevealed rules are nobody else's business.
                let other = t.ok("rewrite show 1");
                assert!(
                    !other.contains(&format!("{user}: {rule}"))
                        || round > 0 && ROUNDS[round - 1].contains(rule),
                    "{other}"
                );
            } else {
                assert!(out.contains(tables[round]), "round {}: {out}", round + 1);
            }
        }
    }
    let out = t.ok("rewrite show 1");
    assert!(out.starts_with("Rewrite Board 1 over\n\nGame won by y"), "{out}");
    assert!(out.contains("tacACCac"), "{out}");
    for (_, goal) in PLAYERS {
        assert!(out.contains(goal), "after the end every goal is shown: {out}");
    }
}

#[test]
fn the_calculator_and_the_sed_gotcha() {
    let t = Tabula::new();
    let rules = t.path().join("rules.txt");
    std::fs::write(&rules, "pupu=>su\npupusu=>ssp\nsu=>puupuu\n").unwrap();
    let r = rules.to_str().unwrap();
    assert_eq!(t.ok(&format!("rewrite run --start pupupusu {r}")).trim_end(), "supupuupuu");
    assert_eq!(t.ok(&format!("rewrite run --start pupupusupupusu {r}")).trim_end(), "supupuupuussp");
    let json: serde_json::Value =
        serde_json::from_str(&t.ok(&format!("rewrite run --json --start pupupusu {r}"))).unwrap();
    assert_eq!(json["result"], "supupuupuu");
    assert_eq!(json["passes"][0]["set"], 1);
    assert_eq!(json["passes"][0]["applications"][0]["lhs"], "pupu");
    assert_eq!(json["passes"][0]["applications"][0]["pos"], 0);
    let start = t.path().join("start.txt");
    std::fs::write(&start, "uuspusu\n").unwrap();
    std::fs::write(&rules, "s=>pu\nsu=>ss\npu=>su\n").unwrap();
    assert_eq!(t.ok(&format!("rewrite run --start-file {} {r}", start.display())).trim_end(), "uupususs");
    t.fails("rewrite run --start x", 2);
    t.fails(&format!("rewrite run --start x {}", t.path().join("missing").display()), 1);
}
