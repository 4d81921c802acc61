//! The command line in its reader's language: `--lang`, else the POSIX
//! locale variables (`LC_ALL`, `LC_MESSAGES`, `LANG`); command words stay
//! English in every language.

mod common;

use common::Tabula;

/// Run `line` with the environment `vars`; exit status and standard error.
fn refused(t: &Tabula, line: &str, vars: &[(&str, &str)]) -> (Option<i32>, String) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut c = t.command(&words);
    for (name, value) in vars {
        c.env(name, value);
    }
    let out = c.output().expect("tabula runs");
    (out.status.code(), String::from_utf8(out.stderr).expect("utf-8"))
}

const FI: &str = "tabula: \"de\" ei ole Tabulan kieli: valitse fi (suomi), es (español) tai en (English)\n";
const ES: &str = "tabula: \"de\" no es un idioma de Tabula: elige fi (suomi), es (español) o en (English)\n";
const EN: &str =
    "tabula: \"de\" is not a language Tabula speaks: choose fi (suomi), es (español) or en (English)\n";

#[test]
fn lang_and_the_locale_choose_the_language_of_errors() {
    let t = Tabula::new();
    t.signup(&["aino"]);
    let line = "language aino pw-aino de";
    assert_eq!(refused(&t, line, &[]), (Some(1), EN.to_string()));
    assert_eq!(refused(&t, &format!("--lang fi {line}"), &[]), (Some(1), FI.to_string()));
    assert_eq!(refused(&t, &format!("{line} --lang=es"), &[]), (Some(1), ES.to_string()));
    assert_eq!(refused(&t, line, &[("LANG", "fi_FI.UTF-8")]), (Some(1), FI.to_string()));
    // LC_ALL before LC_MESSAGES before LANG; an empty one does not count.
    let vars = [("LANG", "fi_FI.UTF-8"), ("LC_MESSAGES", "es_ES.UTF-8"), ("LC_ALL", "")];
    assert_eq!(refused(&t, line, &vars), (Some(1), ES.to_string()));
    let vars = [("LANG", "fi_FI.UTF-8"), ("LC_ALL", "C")];
    assert_eq!(refused(&t, line, &vars), (Some(1), EN.to_string()));
    // --lang wins over the locale.
    assert_eq!(refused(&t, &format!("--lang en {line}"), &[("LC_ALL", "fi_FI")]), (Some(1), EN.to_string()));
    // A language Tabula does not speak, given to --lang, is bad usage.
    let (code, err) = refused(&t, &format!("--lang de {line}"), &[]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("use en, fi or es"), "{err}");
}

#[test]
fn the_language_command_sets_the_account_and_answers_in_its_language() {
    let t = Tabula::new();
    t.signup(&["aino"]);
    assert_eq!(
        t.ok("language aino pw-aino fi"),
        "Kieli\n\nKäyttäjän aino vastaukset ja sähköpostit ovat nyt suomeksi.\n"
    );
    let json = t.json("language aino pw-aino es");
    assert_eq!(json["ok"], true);
    assert_eq!(json["subject"], "Idioma");
    let help = t.ok("language --help");
    assert!(help.contains("language USERID PASSWORD fi|es|en"), "{help}");
}

/// Run `line` in the locale `lang` (a `LANG` value); exit status, standard
/// output and standard error.
fn run_in(t: &Tabula, lang: &str, line: &str) -> (Option<i32>, String, String) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let out = t.command(&words).env("LANG", lang).output().expect("tabula runs");
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_finnish_and_an_english_terminal_play_rewrite() {
    let t = Tabula::new();
    t.signup(&["aino", "ned"]);
    let fi = "fi_FI.UTF-8";
    // The English player's terminal: as it always was.
    let out = t.ok("rewrite challenge ned aino -rounds=1");
    assert!(out.starts_with("Rewrite Board 1 ned aino\n\n"), "{out}");
    let (code, out, _) = run_in(&t, fi, "rewrite move 1 aino pw-aino goal aag");
    assert_eq!(code, Some(0));
    assert!(out.starts_with("Merkkikorvauspeli lauta 1 ned\n\nOdotetaan siirtoja: ned"), "{out}");
    // Errors in the terminal's language, with the protocol's exit status.
    let (code, _, err) = run_in(&t, fi, "rewrite move 1 aino wrong tcg=>ag");
    assert_eq!((code, err.as_str()), (Some(1), "tabula: väärä salasana käyttäjälle aino\n"));
    let (code, _, err) = run_in(&t, fi, "rewrite mvoe 1 aino pw-aino tcg=>ag");
    assert_eq!(
        (code, err.as_str()),
        (Some(1), "tabula: tuntematon komento \"mvoe\": tarkoititko \"move\"? `help` luettelee komennot\n")
    );
    let (code, _, err) = run_in(&t, fi, "rewrite move 1 aino");
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "tabula: käyttö: GAME move BOARD USERID PASSWORD MOVE[#MOVENO]\n(`tabula help` luettelee komennot)\n"
    );
    assert_eq!(t.fails("rewrite move 1 ned wrong goal acc", 1), "tabula: wrong password for ned\n");
    t.ok("rewrite move 1 ned pw-ned goal acc");
    run_in(&t, fi, "rewrite move 1 aino pw-aino tcg=>ag");
    let out = t.ok("rewrite move 1 ned pw-ned c=>t");
    assert!(out.starts_with("Rewrite Board 1 over\n\nGame won by aino"), "{out}");
    let (_, out, _) = run_in(&t, fi, "rewrite show 1");
    assert!(out.starts_with("Merkkikorvauspeli lauta 1 päättynyt\n\nPelin voitti aino"), "{out}");
    assert!(out.contains("\nSiirrot:\n"), "{out}");
    // Help and the list of games, in Spanish: the words of Intervalo's community.
    let (_, out, _) = run_in(&t, "es_ES.UTF-8", "help intervalo");
    assert!(out.starts_with("Ayuda: Intervalo\n"), "{out}");
    for word in ["casilla", "ficha", "tira", "Reglas", "Opciones"] {
        assert!(out.contains(word), "{word}: {out}");
    }
    let (_, out, _) = run_in(&t, "es_ES.UTF-8", "list");
    assert!(out.starts_with("Juegos de Tabula\n\nJuegos disponibles:\n"), "{out}");
}

/// The one-line messages of a catalogue file of the command line's help
/// whose ids end in `-about`: the command words they describe (`serve`,
/// `bot connect`) and their text.
fn abouts(lang: &str) -> Vec<(String, String)> {
    let path = format!("{}/../i18n/locales/{lang}/cli-help.ftl", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once(" = "))
        .filter_map(|(id, text)| {
            let words = id.strip_prefix("cli-tabula-")?.strip_suffix("-about")?;
            Some((words.replace('-', " "), text.to_string()))
        })
        .collect()
}

#[test]
fn every_command_s_help_and_usage_errors_speak_the_reader_s_language() {
    let t = Tabula::new();
    let english = abouts("en");
    assert!(english.len() >= 15, "{english:?}");
    for (lang, locale, usage) in [("fi", "fi_FI.UTF-8", "Käyttö:"), ("es", "es_ES.UTF-8", "Uso:")] {
        let theirs = abouts(lang);
        assert_eq!(theirs.len(), english.len(), "{lang}");
        for ((words, en), (_, own)) in english.iter().zip(&theirs) {
            assert_ne!(en, own, "{lang}: `{words}` is not translated");
            let line = format!("{words} --help");
            let (code, out, _) = run_in(&t, locale, &line);
            assert_eq!(code, Some(0), "{lang}: {line}");
            // As wrapped to the terminal's width.
            let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat(&out).contains(&flat(own)), "{lang}: {line}:\n{out}");
            assert!(!flat(&out).contains(&flat(en)), "{lang}: {line}:\n{out}");
            assert!(out.contains(usage), "{lang}: {line}:\n{out}");
        }
    }
    // clap's own words too: headings, defaults, the help flag.
    let (_, out, _) = run_in(&t, "fi_FI.UTF-8", "serve --help");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in ["Valinnat:", "[oletus: 127.0.0.1:8080]", "-h, --help", "Näytä ohje", "Yleiset valinnat"] {
        assert!(flat.contains(said), "{said:?} not in\n{out}");
    }
    for unsaid in ["Usage:", "Options:", "[default:", "Print help", "Possible values:"] {
        assert!(!out.contains(unsaid), "{unsaid:?} in\n{out}");
    }
    // --lang before the locale; English is clap's own, as it always was.
    let (_, out, _) = run_in(&t, "fi_FI.UTF-8", "--lang es serve --help");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Uso: tabula serve [OPTIONS]") && flat.contains("[por defecto: 127.0.0.1:8080]"),
        "{out}"
    );
    let (_, out, _) = run_in(&t, "C.UTF-8", "serve --help");
    assert!(out.contains("Usage: tabula serve [OPTIONS]\n\nOptions:\n      --listen <ADDR>\n"), "{out}");
    assert!(out.contains("[default: 127.0.0.1:8080]") && out.contains("Print help"), "{out}");

    // A usage error: in the reader's language, with the same exit status.
    let (code, _, err) = run_in(&t, "fi_FI.UTF-8", "serve --bogus");
    assert_eq!(code, Some(2));
    assert!(err.starts_with("virhe: odottamaton argumentti '--bogus'\n"), "{err}");
    assert!(err.contains("Käyttö: tabula serve") && err.ends_with("Lisätietoja: '--help'.\n"), "{err}");
    let (code, _, err) = run_in(&t, "es_ES.UTF-8", "tournament --game dna");
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: faltan estos argumentos obligatorios: --bot <BOTS>\n"), "{err}");
    let (code, _, err) = run_in(&t, "C.UTF-8", "serve --bogus");
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: unexpected argument '--bogus' found\n"), "{err}");
}

#[test]
fn the_server_s_own_commands_report_in_the_reader_s_language() {
    let t = Tabula::new();
    t.signup(&["aino"]);
    let copy = t.path().join("copy.db");
    let backup = format!("backup {}", copy.display());
    let (code, out, err) = run_in(&t, "fi_FI.UTF-8", &backup);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains(&format!("varmuuskopioitu tiedostoon {}: 1 käyttäjä, 0 peliä,", copy.display())),
        "{out}"
    );
    assert!(out.ends_with("; eheystarkistus ok.\n"), "{out}");
    let (code, _, err) = run_in(&t, "es_ES.UTF-8", &backup);
    assert_eq!(code, Some(1));
    assert!(err.contains("ya existe: da un archivo nuevo, o usa --force para reemplazarlo"), "{err}");
    let (_, out, _) = run_in(&t, "es_ES.UTF-8", "cron");
    assert!(out.starts_with("relojes al día en 0 partidas; revisadas "), "{out}");
    let (code, _, err) = run_in(&t, "fi_FI.UTF-8", "worker");
    assert_eq!(code, Some(2));
    assert!(err.starts_with("tabula: työprosessi tarvitsee jaetun PostgreSQL-tietokannan"), "{err}");
    // The options' own checks too.
    let (code, _, err) = run_in(&t, "fi_FI.UTF-8", "mail --max-message-size 5");
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with(
            "virhe: virheellinen arvo '5' valinnalle '--max-message-size <BYTES>': 5 on sallitun"
        ),
        "{err}"
    );
    // A tournament's table.
    let (code, out, err) =
        run_in(&t, "fi_FI.UTF-8", "tournament --game intervalo --bot random --bot greedy --games-per-pair 1");
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("intervalo: 2 bottia, 2 pelaajaa pelissä, 1 peli paria kohden, siemen 0, 1 peli\n"),
        "{out}"
    );
    assert!(out.contains("\nsija  botti ") && out.contains("\nKeskinäiset ottelut ("), "{out}");
    // A bot's failure, and the shares, as the reader writes them.
    let (code, out, err) =
        run_in(&t, "fi_FI.UTF-8", "tournament --game intervalo --bot false --bot random --games-per-pair 1");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("\n  peli 1: false kaatui"), "{out}");
    assert!(out.contains(" 100,0\u{a0}% ") && out.contains("[0,0\u{a0}%, 79,3\u{a0}%]"), "{out}");
    // English as it was.
    let again = format!("backup {} --force", copy.display());
    let (_, out, _) = run_in(&t, "C.UTF-8", &again);
    assert!(out.starts_with("Backed up ") && out.contains(": 1 users, 0 games,"), "{out}");
    assert!(out.ends_with("; integrity check ok.\n"), "{out}");
}

#[test]
fn the_bot_commands_report_in_the_reader_s_language() {
    let t = Tabula::new();
    t.signup(&["aino"]);
    let (fi, es) = ("fi_FI.UTF-8", "es_ES.UTF-8");
    let (code, out, _) = run_in(&t, fi, "bot list");
    assert_eq!((code, out.as_str()), (Some(0), "Ei bottitilejä.\n"));
    t.ok("bot on aino pw-aino");
    let (code, out, err) = run_in(&t, fi, "bot add aino -- python3 center.py");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "Palvelin ajaa ohjelmaa `python3 center.py` käyttäjän aino peleissä.\n");
    let (_, out, _) = run_in(&t, es, "bot list");
    assert_eq!(
        out,
        format!("{:<20} en el servidor: python3 center.py (ningún servidor lo ejecuta ahora)\n", "aino")
    );
    let (code, _, err) = run_in(&t, es, "bot connect ftp://example.org --token x -- ./bot");
    assert_eq!((code, err.as_str()), (Some(1), "tabula: la URL debe empezar por http:// o https://\n"));
    let (code, _, err) = run_in(&t, fi, "bot connect http://127.0.0.1:9 -- ./bot");
    assert_eq!(code, Some(1));
    assert!(err.starts_with("tabula: botin tunniste puuttuu: --token-file TIEDOSTO, "), "{err}");
    // A server that cannot be reached is tried again, said in the terminal's language.
    let mut child = t
        .command(&["bot", "connect", "http://127.0.0.1:9", "--token", "x", "--", "./bot"])
        .env("LANG", es)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("tabula runs");
    let mut line = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stderr.take().unwrap()), &mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(line.starts_with("tabula: no se puede llegar al servidor ("), "{line}");
    assert!(line.ends_with("); nuevo intento dentro de 1 s\n"), "{line}");
    // English as it was.
    let (_, out, _) = run_in(&t, "C.UTF-8", "bot remove aino");
    assert_eq!(out, "The server no longer runs a program for aino; it is still a bot account.\n");
    let (_, out, _) = run_in(&t, "C.UTF-8", "bot list");
    assert_eq!(out, format!("{:<20} remote (tabula bot connect)\n", "aino"));
}
