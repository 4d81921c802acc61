//! A game of Rewrite by mail between a Finnish and an English player,
//! through real SMTP both ways: each reads the replies, the notifications
//! and the errors in their own language, and the English player's mail is
//! what it always was.

mod common;

use common::{Gateway, Got, mail_with};

/// `who` mails Tabula; what the relay then delivers.
async fn send(g: &mut Gateway, who: &str, subject: &str) -> Vec<Got> {
    let raw = mail_with("", &format!("{who} <{who}@example.org>"), subject, None, "");
    g.send_raw(&format!("{who}@example.org"), raw).await;
    g.deliver().await
}

/// The one mail in `got` to `who`.
fn to<'a>(got: &'a [Got], who: &str) -> &'a Got {
    let mine: Vec<&Got> = got.iter().filter(|m| m.to == format!("{who}@example.org")).collect();
    assert_eq!(mine.len(), 1, "one mail to {who}: {got:#?}");
    mine[0]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finnish_and_an_english_player_each_read_their_own_language() {
    let mut g = Gateway::start().await;
    g.world.signup(&["aino", "ned"]).await;
    g.deliver().await;
    let mut all = Vec::new();

    // Aino chooses Finnish; the reply says so in Finnish.
    let got = send(&mut g, "aino", "language aino pw-aino fi").await;
    assert_eq!(to(&got, "aino").subject, "Kieli");
    assert!(to(&got, "aino").body.contains("Käyttäjän aino vastaukset ja sähköpostit ovat nyt suomeksi."));

    // The rules in Finnish, in the words of the game's own community.
    let got = send(&mut g, "aino", "help rewrite").await;
    let help = to(&got, "aino");
    assert_eq!(help.subject, "Ohje: Merkkikorvauspeli");
    for word in ["merkkijono", "sääntö", "tavoite", "Säännöt", "Valinnat"] {
        assert!(help.body.contains(word), "{word}: {}", help.body);
    }

    // Ned challenges: his reply in English, Aino's invitation in Finnish.
    let got = send(&mut g, "ned", "rewrite challenge ned aino -rounds=1").await;
    assert!(to(&got, "ned").subject.starts_with("Rewrite Board 1"), "{got:#?}");
    let invitation = to(&got, "aino");
    assert!(invitation.subject.starts_with("Merkkikorvauspeli lauta 1"), "{got:#?}");
    assert!(
        invitation.body.contains("Sinut on haastettu peliin Merkkikorvauspeli, lauta 1."),
        "{}",
        invitation.body
    );
    all.extend(got);

    // A wrong password: refused in Finnish for Aino, nothing changed.
    let got = send(&mut g, "aino", "rewrite move 1 aino nope goal aag").await;
    let refused = to(&got, "aino");
    assert_eq!(refused.subject, "Merkkikorvauspeli: virhe");
    assert!(refused.body.contains("ei hyväksytty: väärä salasana käyttäjälle aino"), "{}", refused.body);
    assert!(refused.body.contains("Mitään ei muutettu."), "{}", refused.body);
    // The same mistake of Ned's, in English as ever.
    let got = send(&mut g, "ned", "rewrite move 1 ned nope goal acc").await;
    let refused = to(&got, "ned");
    assert_eq!(refused.subject, "Rewrite error");
    assert!(refused.body.contains("was refused: wrong password for ned"), "{}", refused.body);
    assert!(refused.body.contains("Nothing was changed."), "{}", refused.body);

    // The goals, then the one round of rules: aino's tcg=>ag makes atcg aag.
    let got = send(&mut g, "aino", "rewrite move 1 aino pw-aino goal aag").await;
    assert!(to(&got, "aino").body.contains("Odotetaan siirtoja: ned"), "{got:#?}");
    // The board under it in Finnish too, her own goal in the seed's words.
    let board = &to(&got, "aino").body;
    for words in ["Pöydän merkkijono:", "tavoitteiden valinta", "Tavoitteesi: aag"] {
        assert!(board.contains(words), "{words}: {board}");
    }
    for words in ["Table string", "choosing goals", "Your goal"] {
        assert!(!board.contains(words), "{words}: {board}");
    }
    all.extend(got);
    all.extend(send(&mut g, "ned", "rewrite move 1 ned pw-ned goal acc").await);
    all.extend(send(&mut g, "aino", "rewrite move 1 aino pw-aino tcg=>ag").await);
    let got = send(&mut g, "ned", "rewrite move 1 ned pw-ned c=>t").await;
    // The end: Ned's reply and Aino's notification, each in its language.
    let ned = to(&got, "ned");
    assert!(ned.subject.starts_with("Rewrite Board 1 over"), "{}", ned.subject);
    assert!(ned.body.contains("Game won by aino"), "{}", ned.body);
    let aino = to(&got, "aino");
    assert!(aino.subject.starts_with("Merkkikorvauspeli lauta 1 päättynyt"), "{}", aino.subject);
    assert!(aino.body.contains("Pelin voitti aino"), "{}", aino.body);
    assert!(aino.body.contains("Siirrot:"), "{}", aino.body);
    // The final board: Aino's in Finnish, Ned's as it always was.
    assert!(aino.body.contains("Tavoitteet ja osumat lopullisessa merkkijonossa:"), "{}", aino.body);
    assert!(!aino.body.contains("Goals and hits"), "{}", aino.body);
    assert!(ned.body.contains("Goals and hits in the final string:"), "{}", ned.body);
    all.extend(got);

    // Every mail of the game went out in its reader's language.
    for mail in &all {
        match mail.to.as_str() {
            "aino@example.org" => assert!(mail.subject.starts_with("Merkkikorvauspeli"), "{mail:#?}"),
            _ => assert!(mail.subject.starts_with("Rewrite"), "{mail:#?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_language_by_mail_is_refused_in_the_readers_language() {
    let mut g = Gateway::start().await;
    g.world.signup(&["aino"]).await;
    g.deliver().await;
    let got = send(&mut g, "aino", "language aino pw-aino sv").await;
    let refused = to(&got, "aino");
    assert_eq!(refused.subject, "Tabula error");
    assert!(
        // The line did not read as a command: its words are masked, the value too.
        refused
            .body
            .contains("is not a language Tabula speaks: choose fi (suomi), es (español) or en (English)"),
        "{}",
        refused.body
    );
    send(&mut g, "aino", "language aino pw-aino es").await;
    let got = send(&mut g, "aino", "language aino pw-aino xx").await;
    let refused = to(&got, "aino");
    assert_eq!(refused.subject, "Tabula: error");
    assert!(
        refused.body.contains("no es un idioma de Tabula: elige fi (suomi), es (español) o en (English)")
    );
    assert_eq!(g.world.service.language("aino").await.unwrap(), Some(tabula_model::Lang::Es));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_from_a_registered_address_comes_in_its_account_s_language() {
    let mut g = Gateway::start().await;
    // The address's local part is not the account's id.
    g.world.run("signup kim pw-kim k.smith@example.org").await;
    g.world.run("language kim pw-kim fi").await;
    g.world.run("signup lola pw-lola lola.garcia@example.org other@example.org").await;
    g.world.run("language lola pw-lola es").await;
    g.deliver().await;
    let ask = async |g: &mut Gateway, from: &str, subject: &str| {
        let raw = mail_with("", &format!("Someone <{from}>"), subject, None, "");
        g.send_raw(from, raw).await;
        let got = g.deliver().await;
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(got[0].to.eq_ignore_ascii_case(from), "{got:#?}");
        got[0].subject.clone()
    };

    // `help`, `list` and `show` act for nobody: the sender's account says.
    let subject = ask(&mut g, "k.smith@example.org", "help").await;
    assert_eq!(subject, "Tabulan ohje");
    // The address in any case, and any of the account's addresses.
    let subject = ask(&mut g, "K.Smith@Example.ORG", "list").await;
    assert_eq!(subject, "Tabulan pelit");
    let subject = ask(&mut g, "other@example.org", "help").await;
    assert_eq!(subject, "Ayuda de Tabula");
    // An address nobody registered: English.
    let subject = ask(&mut g, "kim@example.org", "help").await;
    assert_eq!(subject, "Tabula help");
    // A closed account speaks for nobody.
    g.world.run("signoff kim pw-kim").await;
    g.deliver().await;
    let subject = ask(&mut g, "k.smith@example.org", "help").await;
    assert_eq!(subject, "Tabula help");
}
