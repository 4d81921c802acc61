//! The language an account reads Tabula in: chosen with `language USERID
//! PASSWORD fi|es|en`, kept with the account, and the language of what the
//! service says to its reader.

use std::sync::Arc;

use tabula_model::Lang;
use tabula_service::store::SqliteStore;
use tabula_service::{Caller, Clock, Context, Credentials, ErrorCode, Origin, Service};

async fn service(dir: &tempfile::TempDir) -> Service {
    let store = SqliteStore::open(&dir.path().join("languages.db")).await.expect("store opens");
    let service = Service::new(Arc::new(store), Clock::Fixed(1_700_000_000_000));
    for user in ["aino", "ned"] {
        service
            .execute(&format!("signup {user} pw-{user} {user}@example.org"), &Caller::Anonymous)
            .await
            .unwrap();
    }
    service
}

#[tokio::test]
async fn the_language_command_sets_the_accounts_language() {
    let dir = tempfile::tempdir().unwrap();
    let s = service(&dir).await;
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
    let s = service(&dir).await;
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
    let s = service(&dir).await;
    let help = s.execute("help", &Caller::Anonymous).await.unwrap();
    assert!(help.text.contains("language USERID PASSWORD fi|es|en"), "{}", help.text);
    let one = s.execute("help language", &Caller::Anonymous).await.unwrap();
    assert!(one.text.starts_with("language USERID PASSWORD fi|es|en\n"), "{}", one.text);
}
