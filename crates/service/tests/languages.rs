//! The language an account reads Tabula in: chosen with `language USERID
//! PASSWORD fi|es|en`, kept with the account, and the language of what the
//! service says to its reader.

mod common;

use tabula_model::Lang;
use tabula_service::{Caller, Context, Credentials, ErrorCode, Origin, Service};

#[tokio::test]
async fn the_language_command_sets_the_accounts_language() {
    let dir = tempfile::tempdir().unwrap();
    let s = common::aino_and_ned(&dir).await;
    assert_eq!(s.language("aino").await.unwrap(), None, "no language until one is chosen");

    let reply = s.execute("language aino pw-aino fi", &Caller::Anonymous).await.unwrap();
    // Said in the language chosen.
    assert_eq!(reply.subject, "Kieli");
    assert_eq!(reply.text, "Käyttäjän aino vastaukset ja sähköpostit ovat nyt suomeksi.\n");
    assert_eq!(s.language("aino").await.unwrap(), Some(Lang::Fi));

    // Any case; the password word `-` for the caller's own account (the web's form).
    let reply = s.set_language(Credentials::authenticated("ned"), Lang::Es, Caller::User("ned".into())).await;
    assert_eq!(reply.unwrap().text, "Las respuestas y el correo de ned están ahora en español.\n");
    s.execute("LANGUAGE ned pw-ned EN", &Caller::Anonymous).await.unwrap();
    assert_eq!(s.language("ned").await.unwrap(), Some(Lang::En));
}

#[tokio::test]
async fn a_language_tabula_does_not_speak_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let s = common::aino_and_ned(&dir).await;
    s.execute("language aino pw-aino fi", &Caller::Anonymous).await.unwrap();
    for bad in ["de", "fi_FI.UTF-8", "suomi", "e"] {
        let e = s.execute(&format!("language aino pw-aino {bad}"), &Caller::Anonymous).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::BadValue, "{bad}");
        assert_eq!(
            e.message,
            format!(
                "\"{}\" is not a language Tabula speaks: choose fi (suomi), es (español) or en (English)",
                bad.to_ascii_lowercase()
            )
        );
        assert_eq!(s.language("aino").await.unwrap(), Some(Lang::Fi), "{bad} changed the language");
    }
    // The error in the reader's language; the code stays the protocol's.
    let finnish = Context::new(Caller::Anonymous, Origin::Local).in_lang(Lang::Fi);
    let e = s.execute("language aino pw-aino de", finnish).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::BadValue);
    assert_eq!(e.message, "\"de\" ei ole Tabulan kieli: valitse fi (suomi), es (español) tai en (English)");
    // Too few words: the syntax, which names the three.
    let e = s.execute("language aino pw-aino", &Caller::Anonymous).await.unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::Usage, "usage: language USERID PASSWORD fi|es|en"));
    // A wrong password changes nothing either.
    let e = s.execute("language aino wrong es", &Caller::Anonymous).await.unwrap_err();
    assert_eq!(e.code, ErrorCode::WrongPassword);
    assert_eq!(s.language("aino").await.unwrap(), Some(Lang::Fi));
}

#[tokio::test]
async fn help_lists_the_language_command() {
    let dir = tempfile::tempdir().unwrap();
    let s = common::aino_and_ned(&dir).await;
    let help = s.execute("help", &Caller::Anonymous).await.unwrap();
    assert!(help.text.contains("language USERID PASSWORD fi|es|en"), "{}", help.text);
    let one = s.execute("help language", &Caller::Anonymous).await.unwrap();
    assert!(one.text.starts_with("language USERID PASSWORD fi|es|en\n"), "{}", one.text);
}

/// Run `line` locally for a reader of `lang`: the error's code and message.
async fn refusal(s: &Service, lang: Lang, line: &str) -> (ErrorCode, String) {
    let context = Context::new(Caller::Anonymous, Origin::Local).in_lang(lang);
    let e = s.execute(line, context).await.expect_err(line);
    (e.code, e.message)
}

#[tokio::test]
async fn every_game_refuses_a_bad_move_in_its_readers_language() {
    use ErrorCode::{BadOption, IllegalMove, MalformedMove, NotYourTurn};
    let dir = tempfile::tempdir().unwrap();
    let s = common::aino_and_ned(&dir).await;
    for game in ["dna", "rewrite", "intervalo", "conway", "rtlife"] {
        s.execute(&format!("{game} challenge aino ned"), Context::new(Caller::Anonymous, Origin::Local))
            .await
            .unwrap();
    }
    // Each game's refusal in Finnish and in Spanish, under the protocol's
    // own code: boards 1 to 5 in the order above.
    let cases: [(&str, ErrorCode, &str, &str); 7] = [
        (
            "dna move 1 aino pw-aino QQQ",
            MalformedMove,
            "\"QQQ\" ei ole pätkä: käytä vain kirjaimia A, C, G, T",
            "\"QQQ\" no es un fragmento: usa solo las letras A, C, G, T",
        ),
        (
            "dna move 1 ned pw-ned AAG",
            NotYourTurn,
            "nyt ei ole sinun vuorosi; vuorossa on aino",
            "no es tu turno; es el turno de aino",
        ),
        (
            "rewrite move 2 aino pw-aino tcg=>ag",
            IllegalMove,
            "sääntö 1: valitse ensin salainen tavoitteesi (goal aag); sääntöjä kirjoitetaan, kun kaikki \
             tavoitteet on valittu",
            "regla 1: elige primero tu objetivo secreto (goal aag); las reglas se escriben cuando todos los \
             objetivos están elegidos",
        ),
        (
            "rewrite move 2 aino pw-aino goal aag=>t",
            IllegalMove,
            "-alphabet: '=' ei ole mikään kirjaimista atcg",
            "-alphabet: '=' no es ninguna de las letras atcg",
        ),
        (
            "intervalo move 3 aino pw-aino 99",
            IllegalMove,
            "ruutua 99 ei ole: ruudut on numeroitu 1–64",
            "no hay casilla 99: las casillas de la tira están numeradas del 1 al 64",
        ),
        (
            "conway move 4 aino pw-aino a1,b1",
            IllegalMove,
            "siirrossa 1 saa asettaa enintään 1 nappulan, ei 2",
            "la jugada 1 puede colocar como mucho 1 ficha, no 2",
        ),
        (
            "rtlife move 5 aino pw-aino jump c5",
            MalformedMove,
            "\"jump\" ei ole siirto: kirjoita place c5,d5,... tai move c5-f8",
            "\"jump\" no es una jugada: escribe place c5,d5,... o move c5-f8",
        ),
    ];
    for (line, code, finnish, spanish) in cases {
        assert_eq!(refusal(&s, Lang::Fi, line).await, (code, finnish.to_string()), "{line}");
        assert_eq!(refusal(&s, Lang::Es, line).await, (code, spanish.to_string()), "{line}");
        // English as it always was: the catalogue's English is the text the games wrote.
        let (_, english) = refusal(&s, Lang::En, line).await;
        assert!(english.is_ascii() && english != finnish, "{line}: {english}");
    }
    let english = refusal(&s, Lang::En, "intervalo move 3 aino pw-aino 99").await;
    assert_eq!(english, (IllegalMove, "there is no cell 99: the cells are numbered 1 to 64".to_string()));

    // A bad option and a contradiction of options, in the reader's language.
    let line = "dna challenge aino ned -length=1";
    let (code, finnish) = refusal(&s, Lang::Fi, line).await;
    assert_eq!(code, BadOption);
    assert!(finnish.starts_with("-length: pitää olla välillä "), "{finnish}");
    let (_, spanish) = refusal(&s, Lang::Es, "dna challenge aino ned -min_chunk=5 -max_chunk=4").await;
    assert_eq!(spanish, "-min_chunk=5 es mayor que -max_chunk=4");
    let (_, finnish) = refusal(&s, Lang::Fi, "rewrite challenge aino ned -alphabet=aa").await;
    assert_eq!(finnish, "-alphabet: 'a' on annettu kahdesti (kohdassa 2)");
    let (_, spanish) = refusal(&s, Lang::Es, "intervalo challenge aino").await;
    assert_eq!(spanish, "Intervalo necesita de 2 a 2 jugadores, no 1");
}
