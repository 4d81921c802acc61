//! Accounts: user ids, password hashing and checking.
//!
//! User ids are case-insensitive and stored lower-case, so `Ned` and `ned`
//! are one account and can never be confused. Passwords are stored only as
//! argon2id hashes and never logged, stored elsewhere or echoed.

use tabula_i18n::{Message, msg};

/// Longest user id.
pub const MAX_USER_ID: usize = 32;
/// Shortest and longest password.
pub const PASSWORD_LEN: std::ops::RangeInclusive<usize> = 3..=128;
/// Most email addresses per account.
pub const MAX_EMAILS: usize = 4;
/// Ids that would be confusing or are used by the system.
const RESERVED: &[&str] = &["bot", "admin", "root", "tabula", "postmaster", "mailer-daemon", "nobody", "all"];

/// Check and canonicalise a user id: lower-case letters, digits, `_`, `-`
/// and `.`, starting with a letter. Bots are named `bot:NAME`.
pub fn canonical_user_id(id: &str) -> Result<String, Message> {
    let lc = id.to_ascii_lowercase();
    if let Some(bot) = lc.strip_prefix("bot:") {
        if !bot.is_empty()
            && bot.len() <= MAX_USER_ID
            && bot.bytes().all(|b| b.is_ascii_alphanumeric() || b == b':' || b == b'_')
        {
            return Ok(lc);
        }
        return Err(msg!("error-not-a-bot-name", quoted = format!("{id:?}")));
    }
    if lc.is_empty() || lc.len() > MAX_USER_ID {
        return Err(msg!("error-user-id-length", max = MAX_USER_ID));
    }
    if !lc.as_bytes()[0].is_ascii_lowercase() {
        return Err(msg!("error-user-id-start", quoted = format!("{id:?}")));
    }
    if !lc.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.')) {
        return Err(msg!("error-user-id-letters", quoted = format!("{id:?}")));
    }
    Ok(lc)
}

/// Whether `id` may be registered (not reserved, not a bot name).
pub fn check_new_user_id(id: &str) -> Result<String, Message> {
    let lc = canonical_user_id(id)?;
    if lc.starts_with("bot:") || RESERVED.contains(&lc.as_str()) {
        return Err(msg!("error-user-id-reserved", quoted = format!("{lc:?}")));
    }
    Ok(lc)
}

/// Check a new password's shape.
pub fn check_password(pw: &str) -> Result<(), Message> {
    let n = pw.chars().count();
    if !PASSWORD_LEN.contains(&n) {
        return Err(msg!("error-password-length", min = *PASSWORD_LEN.start(), max = *PASSWORD_LEN.end()));
    }
    if pw.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(msg!("error-password-characters"));
    }
    Ok(())
}

/// Check an email address's shape (the mail system decides the rest).
pub fn check_email(addr: &str) -> Result<String, Message> {
    let ok = addr.len() <= 254
        && addr.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && domain.contains('.') && !domain.starts_with('.') && !domain.ends_with('.')
        })
        && !addr
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | ',' | ';' | '"'))
        && addr.matches('@').count() == 1;
    if ok { Ok(addr.to_string()) } else { Err(msg!("error-not-an-address", quoted = format!("{addr:?}"))) }
}

/// Hash a password with argon2id and a random salt (PHC string).
pub fn hash_password(pw: &str) -> String {
    crate::password::hash(pw)
}

/// Whether `pw` matches the stored hash.
pub fn verify_password(pw: &str, hash: &str) -> bool {
    crate::password::verify(pw, hash)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_case_insensitive() {
        assert_eq!(canonical_user_id("Ned").unwrap(), "ned");
        assert_eq!(canonical_user_id("bot:MCTS").unwrap(), "bot:mcts");
        assert!(canonical_user_id("1ned").is_err());
        assert!(canonical_user_id("ne d").is_err());
        assert!(canonical_user_id("").is_err());
        assert!(check_new_user_id("bot:x").is_err());
        assert!(check_new_user_id("Admin").is_err());
    }

    #[test]
    fn hashes_verify_and_hide_the_password() {
        let h = hash_password("secret1");
        assert!(h.starts_with("$argon2id$"));
        assert!(!h.contains("secret1"));
        assert!(verify_password("secret1", &h));
        assert!(!verify_password("secret2", &h));
        assert!(!verify_password("secret1", "garbage"));
    }

    #[test]
    fn emails() {
        assert!(check_email("ned@example.org").is_ok());
        assert!(check_email("ned").is_err());
        assert!(check_email("a@b@c.d").is_err());
        assert!(check_email("ned@example").is_err());
    }
}
