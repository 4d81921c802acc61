//! The page templates (minijinja), embedded in the binary and compiled once.
//! Every template ends in `.html`, so every value is HTML-escaped unless a
//! template marks it `safe` (only the board pictures, which the game crates
//! build with every text escaped).

use std::sync::LazyLock;

use axum::http::StatusCode;
use minijinja::{Environment, Value, context};
use serde::Serialize;

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
    env.add_filter("datetime", |ms: i64| format_time(ms));
    env.add_global("asset_version", Value::from(ASSET_VERSION.as_str()));
    env
});

/// Render template `name` with `ctx`.
///
/// # Errors
/// A template that fails to render (a bug): logged, and answered as an
/// internal error page.
pub fn render<S: Serialize>(name: &str, ctx: S) -> Result<String, crate::PageError> {
    ENV.get_template(name).and_then(|t| t.render(ctx)).map_err(|e| {
        tracing::error!(template = name, error = %e, "template failed");
        crate::PageError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error: the page could not be made")
    })
}

/// The error page; never fails (falls back to plain escaped text).
pub fn render_error(status: StatusCode, message: &str) -> String {
    let ctx = context! { status => status.as_u16(), reason => status.canonical_reason(), message };
    ENV.get_template("error.html").and_then(|t| t.render(ctx)).unwrap_or_else(|e| {
        tracing::error!(error = %e, "error template failed");
        format!("<!doctype html><title>Error</title><p>{}</p>", tabula_model::svg::escape(message))
    })
}

/// Milliseconds since the epoch as `2026-01-02 13:45 UTC`.
pub fn format_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map_or_else(|| format!("{ms} ms after 1970"), |t| t.format("%Y-%m-%d %H:%M UTC").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_civil_dates() {
        assert_eq!(format_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_time(1_700_000_000_000), "2023-11-14 22:13 UTC");
        assert_eq!(format_time(951_782_400_000), "2000-02-29 00:00 UTC");
        assert_eq!(format_time(-86_400_000), "1969-12-31 00:00 UTC");
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
        let html = super::ENV.get_template("account.html").and_then(|t| t.render(ctx)).unwrap();
        for setting in ["notify", "vacation", "policy", "limit", "emails", "password", "close"] {
            assert!(html.contains(&format!("name=\"setting\" value=\"{setting}\"")), "{setting}");
        }
        assert!(html.contains("id=\"error-limit\">no good<"), "the error at its own form");
        assert_eq!(html.matches("no good").count(), 1);
    }
}
