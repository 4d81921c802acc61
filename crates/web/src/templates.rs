//! The page templates (minijinja), embedded in the binary and compiled once.
//! Every template ends in `.html`, so every value is HTML-escaped unless a
//! template marks it `safe` (only the board pictures, which the game crates
//! build with every text escaped).

use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::LazyLock;

use axum::http::StatusCode;
use minijinja::value::{Kwargs, ValueKind};
use minijinja::{Environment, Value, context};
use serde::Serialize;
use tabula_i18n::{Args, Lang, t};
use tabula_model::svg::escape;

/// The script and style sheet, served from the binary.
pub const APP_JS: &str = include_str!("../static/app.js");
/// The style sheet.
pub const APP_CSS: &str = include_str!("../static/app.css");
/// The site's icon.
pub const ICON_SVG: &str = include_str!("../static/icon.svg");

const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../templates/base.html")),
    ("macros.html", include_str!("../templates/macros.html")),
    ("games.html", include_str!("../templates/games.html")),
    ("game.html", include_str!("../templates/game.html")),
    ("challenge_list.html", include_str!("../templates/challenge_list.html")),
    ("challenge.html", include_str!("../templates/challenge.html")),
    ("user.html", include_str!("../templates/user.html")),
    ("ladder.html", include_str!("../templates/ladder.html")),
    ("login.html", include_str!("../templates/login.html")),
    ("signup.html", include_str!("../templates/signup.html")),
    ("account.html", include_str!("../templates/account.html")),
    ("error.html", include_str!("../templates/error.html")),
    ("tournaments.html", include_str!("../templates/tournaments.html")),
    ("tournament.html", include_str!("../templates/tournament.html")),
];

/// A short digest of the script and style sheet, put in their URLs so a
/// browser never keeps an old copy after an upgrade.
pub static ASSET_VERSION: LazyLock<String> = LazyLock::new(|| {
    // FNV-1a: stable across builds and platforms.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in APP_JS.bytes().chain(APP_CSS.bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{:08x}", h >> 32)
});

static ENV: LazyLock<Environment<'static>> = LazyLock::new(|| {
    let mut env = Environment::new();
    for (name, source) in TEMPLATES {
        env.add_template(name, source).expect("embedded templates compile");
    }
    env.add_filter("colour", |seat: usize| tabula_model::svg::player_colour(seat).to_string());
    env.add_filter("datetime", |ms: i64| tabula_i18n::format_datetime(rendering(), ms));
    env.add_filter("number", |n: i64| tabula_i18n::format_integer(rendering(), n));
    env.add_function("t", translate);
    env.add_function("script_texts", script_texts);
    env.add_global("asset_version", Value::from(ASSET_VERSION.as_str()));
    // The language menu: each language by its own name.
    let languages: Vec<Value> =
        Lang::ALL.iter().map(|l| context! { code => l.code(), name => l.native_name() }).collect();
    env.add_global("languages", Value::from(languages));
    env
});

thread_local! {
    /// The language of the template being rendered on this thread: set
    /// around each (synchronous) rendering, so that macros imported from
    /// another template, which do not see the page's variables, speak it too.
    static RENDERING: Cell<Lang> = const { Cell::new(Lang::En) };
}

fn rendering() -> Lang {
    RENDERING.with(Cell::get)
}

/// `t(id, name=value, ...)`: message `id` in the page's language. Numbers
/// go in as quantities (plurals, the language's digits), everything else as
/// text. A message whose id ends in `-html` is markup: its arguments are
/// escaped (unless already safe) and the result is not escaped again.
fn translate(id: &str, kwargs: Kwargs) -> Result<Value, minijinja::Error> {
    let html = id.ends_with("-html");
    let mut args = Args::new();
    for name in kwargs.args() {
        let value: Value = kwargs.get(name)?;
        args = if value.kind() == ValueKind::Number {
            match i64::try_from(value.clone()) {
                Ok(n) => args.with(name, n),
                Err(_) => args.with(name, f64::try_from(value).unwrap_or(f64::NAN)),
            }
        } else if html && !value.is_safe() {
            args.with(name, escape(&value.to_string()))
        } else {
            args.with(name, value.to_string())
        };
    }
    let text = tabula_i18n::text(rendering(), id, &args);
    Ok(if html { Value::from_safe_string(text) } else { Value::from(text) })
}

/// The texts the page script shows, by the names it uses, in the page's
/// language; an argument stays as `{name}` for the script to fill in.
const SCRIPT_TEXTS: &[(&str, &str, &[&str])] = &[
    ("live", "js-live", &[]),
    ("reconnecting", "js-reconnecting", &[]),
    ("to-move", "js-to-move", &[]),
    ("your-turn", "game-your-turn", &[]),
    ("offer-draw", "js-offer-draw", &["user"]),
    ("offer-undo", "js-offer-undo", &["user"]),
    ("taken-back", "js-taken-back", &[]),
    ("no-moves", "js-no-moves", &[]),
    ("position-after", "js-position-after", &["position", "total"]),
    ("position-latest", "js-position-latest", &["total"]),
    ("tick-in", "js-tick-in", &["seconds"]),
    ("tick-now", "js-tick-now", &[]),
    ("refused", "js-refused", &[]),
    ("status", "js-status", &["status"]),
    ("not-sent", "js-not-sent", &[]),
];

/// [`script_text_map`] as JSON to stand in a `<script type="application/json">`:
/// `<`, `>` and `&` escaped, so no text can end the element.
fn script_texts() -> Value {
    let json = serde_json::to_string(&script_text_map()).unwrap_or_else(|_| "{}".into());
    Value::from_safe_string(json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026"))
}

fn script_text_map() -> BTreeMap<&'static str, String> {
    let lang = rendering();
    SCRIPT_TEXTS
        .iter()
        .map(|(name, id, params)| {
            let args = params.iter().fold(Args::new(), |a, p| a.with(p, format!("{{{p}}}")));
            (*name, tabula_i18n::text(lang, id, &args))
        })
        .collect()
}

/// Render template `name` with `ctx`, in the request's language.
///
/// # Errors
/// A template that fails to render (a bug): logged, and answered as an
/// internal error page.
pub fn render<S: Serialize>(name: &str, ctx: S) -> Result<String, crate::PageError> {
    render_in(crate::lang::current(), name, ctx).map_err(|e| {
        tracing::error!(template = name, error = %e, "template failed");
        crate::PageError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            t!(crate::lang::current(), "error-internal-page"),
        )
    })
}

/// Render template `name` with `ctx` in `lang` (which the pages see as
/// `lang`, its code).
fn render_in<S: Serialize>(lang: Lang, name: &str, ctx: S) -> Result<String, minijinja::Error> {
    let ctx = context! { lang => lang.code(), ..Value::from_serialize(ctx) };
    let previous = RENDERING.with(|r| r.replace(lang));
    let result = ENV.get_template(name).and_then(|t| t.render(ctx));
    RENDERING.with(|r| r.set(previous));
    result
}

/// The error page; never fails (falls back to plain escaped text).
pub fn render_error(status: StatusCode, message: &str) -> String {
    let lang = crate::lang::current();
    let ctx = context! { status => status.as_u16(), message };
    render_in(lang, "error.html", ctx).unwrap_or_else(|e| {
        tracing::error!(error = %e, "error template failed");
        let title = t!(lang, "error-title", status = i64::from(status.as_u16()));
        format!("<!doctype html><title>{}</title><p>{}</p>", escape(&title), escape(message))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_numbers_follow_the_page_language() {
        let page = |lang: Lang| {
            RENDERING.with(|r| r.set(lang));
            let text = ENV
                .render_str(
                    "{{ 1700000000000 | datetime }} {{ 12345 | number }} {{ t('games-count', count=2) }}",
                    (),
                )
                .unwrap();
            RENDERING.with(|r| r.set(Lang::En));
            text
        };
        assert_eq!(page(Lang::En), "2023-11-14 22:13 UTC 12,345 2 games");
        assert_eq!(page(Lang::Fi), "14.11.2023 klo 22.13 UTC 12\u{a0}345 2 peliä");
        assert_eq!(page(Lang::Es), "14/11/2023 22:13 UTC 12.345 2 partidas");
    }

    #[test]
    fn markup_messages_escape_their_arguments() {
        let html = ENV
            .render_str("{{ t('tournaments-won-by-html', leader='<b>') }} {{ t('table-board') }}", ())
            .unwrap();
        assert_eq!(html, "won by <strong>&lt;b&gt;</strong> Board");
        let plain = ENV.render_named_str("test.html", "{{ t('user-challenge', user='<b>') }}", ()).unwrap();
        assert_eq!(plain, "Challenge &lt;b&gt;");
    }

    #[test]
    fn the_script_s_texts_keep_their_arguments_for_the_script() {
        RENDERING.with(|r| r.set(Lang::Es));
        let texts = script_text_map();
        RENDERING.with(|r| r.set(Lang::En));
        assert!(
            texts["position-after"].contains("{position}") && texts["position-after"].contains("{total}")
        );
        assert_eq!(texts.len(), SCRIPT_TEXTS.len());
        // The page's copy is JSON that cannot end its script element.
        let json = script_texts().to_string();
        assert!(!json.contains('<') && !json.contains('&'), "{json}");
        let back: BTreeMap<String, String> = serde_json::from_str(&json).unwrap();
        assert_eq!(back["to-move"], "◀ to move");
    }

    #[test]
    fn every_template_compiles_and_escapes() {
        for (name, _) in TEMPLATES {
            assert!(ENV.get_template(name).is_ok(), "{name}");
        }
        let html = render_error(StatusCode::NOT_FOUND, "<script>x</script>");
        assert!(html.contains("&lt;script&gt;x"));
        assert!(!html.contains("<script>x"));
    }
}
#[cfg(test)]
mod account_page {
    #[test]
    fn every_setting_has_its_form() {
        let ctx = minijinja::context! {
            base => minijinja::context! { me => "ned", csrf => "c_x", waiting => 0, kinds => Vec::<i32>::new() },
            tokens => Vec::<i32>::new(), new_token => None::<String>,
            error => Some("no good"), error_form => Some("limit"), done => None::<String>,
            emails => "ned@example.org", notify => true, vacation_days => None::<i64>,
            vacation_until => None::<i64>, limit => Some(4), ask => false,
        };
        let html = super::render_in(super::Lang::En, "account.html", ctx).unwrap();
        for setting in ["notify", "vacation", "policy", "limit", "emails", "password", "close"] {
            assert!(html.contains(&format!("name=\"setting\" value=\"{setting}\"")), "{setting}");
        }
        assert!(html.contains("id=\"error-limit\">no good<"), "the error at its own form");
        assert_eq!(html.matches("no good").count(), 1);
    }
}
