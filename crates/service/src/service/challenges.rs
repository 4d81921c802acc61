//! Challenges: starting a game, accepting or refusing it, joining an open game.

use std::sync::Arc;

use tabula_i18n::{Arg, msg, t};
use tabula_model::{Event, EventAction, Game, GameKind, Options, Viewer};

use crate::command::Credentials;
use crate::command::MAX_ACTIVE_GAMES;
use crate::error::{CommandError, ErrorCode};
use crate::reply;
use crate::store::{GameFilter, GameStatus, NewGame, NewGameEffects, OutboxMessage, SideEffect, StoreError};
use crate::throttle::{Context, Origin};
use crate::users;

use super::{
    CONFLICT_RETRIES, Caller, GameUpdate, Loaded, MAX_CHALLENGE_PLAYERS, Reply, Round, Service,
    answer_effects,
};

impl Service {
    pub(super) async fn challenge(
        &self,
        kind: &'static dyn GameKind,
        players: &[String],
        options: &[String],
        context: &Context,
    ) -> Result<Reply, CommandError> {
        let info = kind.info();
        if players.len() > MAX_CHALLENGE_PLAYERS {
            return Err(CommandError::says(
                ErrorCode::BadValue,
                msg!("error-too-many-players", max = MAX_CHALLENGE_PLAYERS),
            ));
        }
        // Over the network a challenge comes from one of its players, proven:
        // nobody starts games (and sends challenge mail) for others.
        let challenger = match (&context.caller, &context.origin) {
            (Caller::User(u), _) => Some(u.clone()),
            (Caller::Account(a), _) => Some(a.id.clone()),
            (Caller::Anonymous, Origin::Local) => None,
            (Caller::Anonymous, _) => {
                return Err(CommandError::says(
                    ErrorCode::Unauthorized,
                    msg!("error-challenge-unauthorized"),
                ));
            }
        };
        if let Some(me) = &challenger
            && !players.iter().any(|p| users::canonical_user_id(p).is_ok_and(|id| &id == me))
        {
            return Err(CommandError::says(
                ErrorCode::NotAPlayer,
                msg!("error-challenger-not-player", user = me.as_str()),
            ));
        }
        let mut ids = Vec::new();
        let mut accepted = Vec::new();
        for p in players {
            let id =
                users::canonical_user_id(p).map_err(|m| CommandError::says(ErrorCode::UnknownUser, m))?;
            if let Some(bot) = id.strip_prefix("bot:") {
                match &self.bots {
                    Some(b) if b.knows(bot, info.kind) => {}
                    Some(b) => {
                        let names: Vec<String> =
                            b.names(info.kind).iter().map(|n| format!("bot:{n}")).collect();
                        return Err(CommandError::says(
                            ErrorCode::UnknownUser,
                            msg!(
                                "error-no-such-bot",
                                bot = &id,
                                game = Arg::fixed(format!("{}-title", info.kind)),
                                bots = names.join(", ")
                            ),
                        ));
                    }
                    None => {
                        return Err(CommandError::says(
                            ErrorCode::UnknownUser,
                            msg!("error-no-bots", bot = &id),
                        ));
                    }
                }
                accepted.push(true);
            } else {
                let u = self.store.user(&id).await?.filter(|u| !u.signed_off).ok_or_else(|| {
                    CommandError::says(ErrorCode::UnknownUser, msg!("error-no-user", user = &id))
                })?;
                let running = self
                    .store
                    .count_games(&GameFilter {
                        player: Some(id.clone()),
                        statuses: vec![GameStatus::Active, GameStatus::Proposed],
                        limit: MAX_ACTIVE_GAMES as i64 + 1,
                        ..Default::default()
                    })
                    .await?;
                let limit =
                    u.game_limit.map(|l| l as usize).unwrap_or(MAX_ACTIVE_GAMES).min(MAX_ACTIVE_GAMES);
                if running >= limit {
                    return Err(CommandError::says(
                        ErrorCode::Refused,
                        msg!("error-game-limit", user = &id, running = running, limit = limit),
                    ));
                }
                accepted.push(u.challenge_policy != "ask");
            }
            ids.push(id);
        }
        let options = Options::parse(info, options)
            .map_err(|e| CommandError::says(ErrorCode::BadOption, e.message()))?;
        if let Some(me) = &challenger
            && ids.iter().any(|p| p != me && !p.starts_with("bot:"))
        {
            self.count_challenge(me, &context.origin).await?;
        }
        let now = self.now();
        // `-seed=N` deals a known game (demos, tests); it is in the record's
        // options as well as its seed.
        let seed: u64 = options.int("seed").map_or_else(rand::random, |n| n.unsigned_abs());
        let game = Game::create(kind, options.clone(), ids.clone(), seed, now)
            .map_err(|e| CommandError::says(ErrorCode::BadOption, e.message()))?;
        let status = if accepted.iter().all(|a| *a) { GameStatus::Active } else { GameStatus::Proposed };
        let new = NewGame {
            kind: info.kind.to_string(),
            options,
            players: ids.clone(),
            seed,
            created: now,
            status,
            to_move: reply::to_move_users(&game),
            accepted: accepted.clone(),
            next_clock: game.state().next_clock(),
        };
        // Tell every named human about the new board, but the challenger:
        // the reply to the challenge shows it to them. The mail is made for
        // the board's number and committed with the game, with the reply to
        // a challenge by mail and its message's handled mark.
        let mut told = Vec::new();
        for (seat, user) in ids.iter().enumerate() {
            if challenger.as_ref() != Some(user)
                && let Some(addr) = self.notify_address(user).await?
            {
                told.push((seat, user.clone(), addr));
            }
        }
        let waiting: Vec<String> =
            ids.iter().zip(&accepted).filter(|(_, a)| !**a).map(|(u, _)| u.clone()).collect();
        let (answer, accepted_by, reply_lang) = (context.answer.clone(), accepted.clone(), context.lang);
        let game = std::sync::Arc::new(game);
        let mail = game.clone();
        let effects: NewGameEffects = Box::new(move |id| {
            let text = |viewer, lang| reply::board_text(&mail, id, status, viewer, now, &waiting, lang);
            let mut effects = Vec::new();
            for (seat, user, (addr, lang)) in &told {
                // Each challenged player's mail in their own language.
                let lang = *lang;
                let t = text(Viewer::Player(*seat), lang);
                let (game, board) = (info.title(lang), id.to_string());
                let lead = if accepted_by[*seat] {
                    t!(lang, "challenged", game = game, board = board)
                } else {
                    t!(
                        lang,
                        "challenged-accept",
                        game = game,
                        board = board,
                        kind = info.kind,
                        user = user.as_str()
                    )
                };
                effects.push(SideEffect::Outbox(OutboxMessage {
                    key: format!("challenge:{id}:{user}"),
                    recipient: addr.clone(),
                    subject: t.heading,
                    body: format!("{lead}\n\n{}", t.body),
                    game_id: Some(id),
                }));
            }
            if let Some(answer) = &answer {
                let t = text(Viewer::Observer, reply_lang);
                effects.extend(answer_effects(answer, &Reply::plain(t.heading, t.body)));
            }
            effects
        });
        let id = self.store.create_game(&new, effects).await?;
        // Cached as made, at version 0 (no events yet): replaying it from the
        // store at its first move was a read of three statements per game.
        self.cache.lock().expect("cache lock").insert(id, 0, game);
        if status == GameStatus::Active {
            self.play_automatic_in(
                id,
                Round { answer: None, told: challenger.as_deref(), lang: context.lang },
            )
            .await;
        }
        let loaded = self.load(id).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, None, context.lang))
    }

    pub(super) async fn answer(
        &self,
        kind: &'static dyn GameKind,
        board: i64,
        auth: &Credentials,
        accept: bool,
        caller: &Context,
    ) -> Result<Reply, CommandError> {
        let user = self.authenticate(auth, caller).await?;
        let loaded = self.load_kind(kind, board).await?;
        let seat = self.seat(&loaded, &user.id)?;
        if loaded.stored.summary.status != GameStatus::Proposed {
            return Err(CommandError::says(
                ErrorCode::Refused,
                msg!("error-not-waiting", board = board.to_string()),
            ));
        }
        let mut acc = loaded.stored.accepted.clone();
        acc[seat] = accept;
        let status = if !accept {
            GameStatus::Cancelled
        } else if acc.iter().all(|a| *a) {
            GameStatus::Active
        } else {
            GameStatus::Proposed
        };
        // The board as the answer leaves it: the reply committed with it
        // (a bot's first move, if it is one's turn, replaces it).
        let mut after = loaded.stored.clone();
        after.accepted = acc;
        after.summary.status = status;
        let reply = self.board_reply(&loaded.game, &after, Some(&user.id), caller.lang);
        let effects = self.answered(caller, &reply);
        self.store.set_acceptance(board, seat, accept, status, &effects, self.now()).await?;
        self.forget(board);
        self.publish(GameUpdate { board, version: loaded.stored.summary.version });
        if status == GameStatus::Active {
            self.play_automatic_in(board, Round::of(caller, &user.id)).await;
        }
        let loaded = self.load(board).await?;
        Ok(self.board_reply(&loaded.game, &loaded.stored, Some(&user.id), caller.lang))
    }

    /// `user` joins the open game `board` with the first move `text`, as
    /// part of `round` (by mail, its reply is committed with the join).
    pub(super) async fn join(
        &self,
        board: i64,
        user: &str,
        text: &str,
        round: Round<'_>,
    ) -> Result<(), CommandError> {
        for _ in 0..CONFLICT_RETRIES {
            let Loaded { mut game, stored, mail } = self.load(board).await?;
            if stored.summary.status != GameStatus::Active || game.is_over() {
                return Err(CommandError::says(
                    ErrorCode::GameOver,
                    msg!("error-not-running", board = board.to_string()),
                ));
            }
            let version = stored.summary.version;
            let event = Event {
                at: self.now(),
                seat: None,
                action: EventAction::Join { user: user.to_string(), text: text.to_string() },
            };
            let added = Arc::make_mut(&mut game).submit(event.clone())?;
            match self
                .commit(game, &stored, &mail, version, vec![event], &added, Some(user), Vec::new(), round)
                .await
            {
                Ok(_) => return Ok(()),
                Err(StoreError::Conflict) => {
                    self.forget(board);
                    continue;
                }
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict.into())
    }
}
