//! Bearer tokens for the API and bots, and login sessions for the web.
//! Secrets are random, shown once, and stored only as SHA-256 hashes.

use base64::Engine;
use sha2::{Digest, Sha256};
use tabula_i18n::msg;

use crate::command::Credentials;
use crate::error::{CommandError, ErrorCode};
use crate::service::{Caller, Service};
use crate::store::TokenRow;
use crate::throttle::{Context, Origin};
use crate::users;

/// How long a web login lasts.
pub const SESSION_LIFETIME_MS: i64 = 7 * 86_400_000;
/// Most live tokens per user.
const MAX_TOKENS: usize = 50;

/// A new random secret with a readable prefix (`tbl_...`).
fn secret(prefix: &str) -> String {
    let bytes: [u8; 32] = rand::random();
    format!("{prefix}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// The stored form of a secret.
pub fn secret_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A web login: the session secret for the cookie and the CSRF token for forms.
#[derive(Clone, Debug)]
pub struct Login {
    /// The user logged in.
    pub user: String,
    /// The session secret (the cookie value).
    pub session: String,
    /// The CSRF token the session's forms must carry.
    pub csrf: String,
    /// When the session ends.
    pub expires: i64,
}

impl Service {
    /// Make a bearer token for `user` after checking the password (the
    /// password itself: a token never makes another), asked from
    /// `origin`. The secret is returned once and never again.
    pub async fn create_token(
        &self,
        user: &str,
        password: &str,
        name: &str,
        origin: &Origin,
    ) -> Result<(String, TokenRow), CommandError> {
        let credentials = Credentials { user: user.into(), password: password.into() };
        let context = Context::new(Caller::Anonymous, origin.clone());
        let u = self.authenticate_password(&credentials, &context).await?;
        if name.chars().count() > 100 || name.chars().any(|c| c.is_control() || !crate::text::is_kept(c)) {
            return Err(CommandError::says(ErrorCode::BadValue, msg!("error-token-name")));
        }
        let live = self.store().tokens(&u.id).await?.iter().filter(|t| t.revoked.is_none()).count();
        if live >= MAX_TOKENS {
            return Err(CommandError::says(
                ErrorCode::Refused,
                msg!("error-too-many-tokens", max = MAX_TOKENS),
            ));
        }
        let token = secret("tbl_");
        let id = self.store().create_token(&u.id, name, &secret_hash(&token), self.now()).await?;
        let row = self
            .store()
            .tokens(&u.id)
            .await?
            .into_iter()
            .find(|t| t.id == id)
            .ok_or_else(|| CommandError::says(ErrorCode::Internal, msg!("error-token-not-stored")))?;
        Ok((token, row))
    }

    /// The caller a bearer token stands for, the token shown from
    /// `origin` (where a bad one is counted as a failed login).
    pub async fn token_caller(&self, token: &str, origin: &Origin) -> Result<Caller, CommandError> {
        // Read on every request, never kept: a revoked token is refused as
        // soon as the revocation is committed, whichever server made it.
        let found = match token.len() {
            0..=200 => self.store().token_account(&secret_hash(token), self.now()).await?,
            _ => None,
        };
        match found {
            Some((_, Some(account))) if !account.signed_off => Ok(Caller::Account(Box::new(account))),
            Some((user, None)) => Ok(Caller::User(user)),
            _ => {
                self.login_failed(None, origin).await?;
                // An address that keeps trying bad tokens is told to wait.
                self.check_origin(origin).await?;
                Err(CommandError::says(ErrorCode::WrongPassword, msg!("error-bad-token")))
            }
        }
    }

    /// Revoke one of `user`'s tokens.
    pub async fn revoke_token(&self, user: &str, id: i64) -> Result<(), CommandError> {
        if self.store().revoke_token(user, id, self.now()).await? {
            Ok(())
        } else {
            Err(CommandError::says(
                ErrorCode::BadValue,
                msg!("error-no-live-token", user = user, id = id.to_string()),
            ))
        }
    }

    /// Log in with a password from `origin` (rate-limited like every
    /// password check).
    pub async fn login(&self, user: &str, password: &str, origin: &Origin) -> Result<Login, CommandError> {
        let credentials = Credentials { user: user.into(), password: password.into() };
        let u = self
            .authenticate_password(&credentials, &Context::new(Caller::Anonymous, origin.clone()))
            .await?;
        let session = secret("s_");
        let csrf = secret("c_");
        let now = self.now();
        let expires = now + SESSION_LIFETIME_MS;
        self.store().create_session(&secret_hash(&session), &u.id, &csrf, now, expires).await?;
        Ok(Login { user: u.id, session, csrf, expires })
    }

    /// The login a session secret belongs to, if it is still valid.
    pub async fn session(&self, session: &str) -> Result<Option<Login>, CommandError> {
        if session.len() > 200 {
            return Ok(None);
        }
        Ok(self.store().session(&secret_hash(session), self.now()).await?.map(|s| Login {
            user: s.user,
            session: session.to_string(),
            csrf: s.csrf,
            expires: s.expires,
        }))
    }

    /// End a session.
    pub async fn logout(&self, session: &str) -> Result<(), CommandError> {
        self.store().delete_session(&secret_hash(session)).await?;
        Ok(())
    }

    /// Sign up from a front end that is not the command line (web form, API).
    pub async fn signup_user(
        &self,
        user: &str,
        password: &str,
        email: Option<&str>,
    ) -> Result<String, CommandError> {
        let id = users::check_new_user_id(user).map_err(|m| CommandError::says(ErrorCode::BadValue, m))?;
        let emails: Vec<String> =
            email.filter(|e| !e.is_empty()).map(|e| vec![e.to_string()]).unwrap_or_default();
        self.run(
            crate::command::Command::Signup { user: id.clone(), password: password.into(), emails },
            &Caller::Anonymous,
        )
        .await?;
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn hashes_are_stable_and_hide_the_secret() {
        let h = super::secret_hash("tbl_abc");
        assert_eq!(h.len(), 64);
        assert_eq!(h, super::secret_hash("tbl_abc"));
        assert!(!h.contains("abc"));
        assert_ne!(super::secret("x"), super::secret("x"));
    }
}
