//! Accounts: signing up and off, and checking credentials.

use tabula_i18n::{msg, t};
use tabula_model::EventAction;

use crate::command::Credentials;
use crate::error::{CommandError, ErrorCode};
use crate::store::{GameFilter, GameStatus, SideEffect, StoreError, UserRow};
use crate::throttle::Context;
use crate::users;

use super::{Caller, Reply, Service};

impl Service {
    pub(super) async fn signup(
        &self,
        user: &str,
        password: &str,
        emails: &[String],
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let id = users::check_new_user_id(user).map_err(|m| CommandError::says(ErrorCode::BadValue, m))?;
        users::check_password(password).map_err(|m| CommandError::says(ErrorCode::BadValue, m))?;
        let emails = check_emails(emails)?;
        let row = UserRow {
            id: id.clone(),
            password_hash: users::hash_password(password),
            emails,
            created: self.now(),
            notify: true,
            vacation_until: None,
            game_limit: None,
            challenge_policy: "open".into(),
            signed_off: false,
            language: None,
        };
        let lang = caller.lang;
        let reply = Reply::said(t!(lang, "signup-subject"), t!(lang, "signup-text", user = &id));
        match self.store.create_user(&row, &self.answered(caller, &reply), self.now()).await {
            Ok(()) => Ok(reply),
            Err(StoreError::Exists) => {
                Err(CommandError::says(ErrorCode::UserExists, msg!("error-user-taken", user = &id)))
            }
            Err(e) => Err(e.into()),
        }
    }

    pub(super) async fn signoff(&self, auth: &Credentials, caller: &Context) -> Result<Reply, CommandError> {
        let mut u = self.authenticate_password(auth, caller).await?;
        let running = self
            .store
            .games(&GameFilter {
                player: Some(u.id.clone()),
                statuses: vec![GameStatus::Active, GameStatus::Proposed],
                limit: 10_000,
                ..Default::default()
            })
            .await?;
        for g in &running {
            let _ = self
                .apply_event(g.id, &u.id, |_, seat| {
                    Ok(EventAction::Resign { reason: Some("signed off".into()) }).map(|a| (a, seat))
                })
                .await;
        }
        u.signed_off = true;
        u.password_hash = String::new();
        let lang = caller.lang;
        let reply = Reply::said(t!(lang, "signoff-subject"), t!(lang, "signoff-text", user = &u.id));
        let mut effects = self.answered(caller, &reply);
        effects.push(SideEffect::EndLogins { user: u.id.clone() });
        self.store.update_user(&u, &effects, self.now()).await?;
        Ok(reply)
    }

    /// Check credentials, or the front end's authentication: with a bearer
    /// token, a web session or a signed mail gateway, the password word
    /// may be `-` for the caller's own account.
    pub async fn authenticate(&self, auth: &Credentials, context: &Context) -> Result<UserRow, CommandError> {
        self.check_credentials(auth, context, true).await
    }

    /// Check credentials with the password itself, whoever the front end
    /// says the caller is: what account commands (a new password or
    /// address, signing off, a new token) take, so that a leaked token
    /// cannot take the account.
    pub async fn authenticate_password(
        &self,
        auth: &Credentials,
        context: &Context,
    ) -> Result<UserRow, CommandError> {
        self.check_credentials(auth, context, false).await
    }

    pub(super) async fn check_credentials(
        &self,
        auth: &Credentials,
        context: &Context,
        token_will_do: bool,
    ) -> Result<UserRow, CommandError> {
        let id = users::canonical_user_id(&auth.user)
            .map_err(|m| CommandError::says(ErrorCode::UnknownUser, m))?;
        let closed = || CommandError::says(ErrorCode::UnknownUser, msg!("error-no-user", user = &id));
        if auth.password == "-" {
            match &context.caller {
                Caller::Account(account) if account.id == id && token_will_do => {
                    if account.signed_off {
                        return Err(closed());
                    }
                    return Ok((**account).clone());
                }
                Caller::User(who) if who == &id && token_will_do => {
                    return self.store.user(&id).await?.filter(|u| !u.signed_off).ok_or_else(closed);
                }
                Caller::Account(account) if account.id == id => return Err(password_needed()),
                Caller::User(who) if who == &id => return Err(password_needed()),
                _ => {}
            }
        }
        // Before the account is even read: an address that failed too
        // often waits, whichever user it tries.
        self.check_login(&id, &context.origin).await?;
        let Some(user) = self.store.user(&id).await?.filter(|u| !u.signed_off) else {
            self.login_failed(None, &context.origin).await?;
            return Err(closed());
        };
        if !users::verify_password(&auth.password, &user.password_hash) {
            self.login_failed(Some(&id), &context.origin).await?;
            return Err(CommandError::says(
                ErrorCode::WrongPassword,
                msg!("error-wrong-password", user = &id),
            ));
        }
        self.login_succeeded(&id, &context.origin).await?;
        Ok(user)
    }
}

pub(super) fn check_emails(emails: &[String]) -> Result<Vec<String>, CommandError> {
    if emails.len() > users::MAX_EMAILS {
        return Err(CommandError::says(
            ErrorCode::BadValue,
            msg!("error-too-many-addresses", max = users::MAX_EMAILS),
        ));
    }
    emails
        .iter()
        .map(|e| users::check_email(e).map_err(|m| CommandError::says(ErrorCode::BadValue, m)))
        .collect()
}

pub(super) fn password_needed() -> CommandError {
    CommandError::says(ErrorCode::WrongPassword, msg!("error-password-needed"))
}
