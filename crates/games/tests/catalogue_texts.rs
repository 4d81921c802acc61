//! The games' texts as their English catalogues give them are byte for byte
//! the texts the games carried before, for every game in the registry.

use tabula_i18n::{Lang, fixed_text};

#[test]
fn english_catalogues_say_what_the_games_said() {
    for kind in tabula_games::all() {
        let info = kind.info();
        for (part, before) in [
            ("title", info.title),
            ("summary", info.summary),
            ("rules", info.rules),
            ("move-help", info.move_help),
        ] {
            let id = format!("{}-{part}", info.kind);
            assert_eq!(fixed_text(Lang::En, &id), Some(before), "{id}");
            for lang in [Lang::Fi, Lang::Es] {
                let text = fixed_text(lang, &id).unwrap_or_else(|| panic!("{lang} lacks {id}"));
                assert!(!text.trim().is_empty(), "{lang} {id} is empty");
            }
        }
    }
}
