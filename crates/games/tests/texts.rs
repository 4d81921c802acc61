//! Every game's texts (title, summary, rules, move help) in every language,
//! as callers reach them through `GameInfo`: present, translated rather
//! than copied, and naming the same options as the English.

use std::collections::BTreeSet;

use tabula_model::{GameInfo, Lang};

fn texts(info: &GameInfo, lang: Lang) -> [(&'static str, &'static str); 4] {
    [
        ("title", info.title(lang)),
        ("summary", info.summary(lang)),
        ("rules", info.rules(lang)),
        ("move help", info.move_help(lang)),
    ]
}

/// The option words of a text (`-length`, `-base=2` gives `-base`,
/// `--trace`): the protocol, the same in every language. A Finnish
/// compound such as `-min_chunk-asetus` still names `-min_chunk`.
fn option_words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in text.match_indices('-') {
        if text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_') {
            continue;
        }
        let dashes = if text[at..].starts_with("--") { 2 } else { 1 };
        let name: String =
            text[at + dashes..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
        if !name.is_empty() {
            out.insert(format!("{}{name}", "-".repeat(dashes)));
        }
    }
    out
}

#[test]
fn every_game_has_its_texts_in_every_language() {
    for kind in tabula_games::all() {
        let info = kind.info();
        for lang in Lang::ALL {
            for (part, text) in texts(info, lang) {
                assert!(!text.trim().is_empty(), "{} {lang}: no {part}", info.kind);
            }
        }
        for lang in [Lang::Fi, Lang::Es] {
            for ((part, english), (_, translated)) in texts(info, Lang::En).into_iter().zip(texts(info, lang))
            {
                if part != "title" {
                    assert_ne!(english, translated, "{} {lang}: the {part} is the English one", info.kind);
                }
                assert_eq!(
                    option_words(translated),
                    option_words(english),
                    "{} {lang}: the {part} names other options than the English",
                    info.kind
                );
            }
        }
    }
}

#[test]
fn the_option_words_are_read_as_written() {
    let words =
        option_words("-chunk ja eri -min_chunk- tai -max_chunk-asetus, --trace; t->ac - x -3,12 -base=2");
    let expected = ["--trace", "-base", "-chunk", "-max_chunk", "-min_chunk"];
    assert_eq!(words, expected.iter().map(|s| s.to_string()).collect());
}

#[test]
fn rewrite_reaches_a_finnish_reader_in_the_words_of_its_community() {
    let info = tabula_games::find("rewrite").unwrap().info();
    assert_eq!(info.title(Lang::Fi), "Merkkikorvauspeli");
    let rules = info.rules(Lang::Fi);
    for word in ["merkkijono", "sääntö", "tavoite", "laajenne", "kierros", "osuma"] {
        assert!(rules.to_lowercase().contains(word), "{word}:\n{rules}");
    }
    assert!(rules.contains("H tcg=>ag, Y t=>ac, I g=>tc, G at=>ta, M g=>at"), "{rules}");
    assert!(info.move_help(Lang::Fi).contains("'tcg=>ag'"));
}

#[test]
fn intervalo_reaches_a_spanish_reader_in_the_words_of_its_community() {
    let info = tabula_games::find("intervalo").unwrap().info();
    let rules = info.rules(Lang::Es);
    for word in ["tira", "casilla", "ficha", "ficha neutral", "turno", "punto"] {
        assert!(rules.contains(word), "{word}:\n{rules}");
    }
    assert!(info.move_help(Lang::Es).contains("`intervalo move B "));
    assert_eq!(
        info.summary(Lang::Es),
        "dos jugadores eligen a la vez casillas de una tira; los intervalos puntúan"
    );
}

#[test]
fn english_is_what_every_caller_gets_today() {
    let info = tabula_games::find("dna").unwrap().info();
    assert_eq!(info.title(Lang::En), "DNA");
    assert_eq!(info.title(Lang::Es), "ADN");
    assert!(info.rules(Lang::En).starts_with("DNA is a game of accelerated evolution for 2 to 8 players"));
    assert!(
        info.rules(Lang::En).ends_with("During a -manual set-up the sequences of others show as hidden.")
    );
}

#[test]
fn every_option_is_described_in_every_language() {
    for kind in tabula_games::all() {
        let info = kind.info();
        for o in info.all_options() {
            // The English is the description the option has always had.
            assert_eq!(info.option_help(o, Lang::En), o.help, "{} -{}", info.kind, o.name);
            for lang in [Lang::Fi, Lang::Es] {
                let text = info.option_help(o, lang);
                assert_ne!(text, o.help, "{} {lang}: -{} is described in English", info.kind, o.name);
                assert_eq!(option_words(text), option_words(o.help), "{} {lang}: -{}", info.kind, o.name);
            }
            if let tabula_model::OptionKind::Text { accepts, .. } = o.kind {
                assert_eq!(info.option_accepts(o, Lang::En), Some(accepts));
                assert_ne!(info.option_accepts(o, Lang::Fi), Some(accepts));
            }
        }
    }
    let rewrite = tabula_games::find("rewrite").unwrap().info();
    let rounds = rewrite.option("rounds").unwrap();
    assert_eq!(rewrite.option_help(rounds, Lang::Fi), "sääntöjen kirjoittamisen kierrokset");
    let intervalo = tabula_games::find("intervalo").unwrap().info();
    let cells = intervalo.option("cells").unwrap();
    assert_eq!(intervalo.option_help(cells, Lang::Es), "número de casillas de la tira");
}
