//! The front ends' read queries: lists of games, what waits for a user,
//! what a user may do on a board now, chat lines and API tokens. The web
//! pages and the API ask these of the service rather than of the store, so
//! that a rule (who may answer an offer, whose turn a challenge is) is
//! written once, here.

use std::sync::Arc;

use serde::Serialize;
use tabula_model::{Game, ProposalKind, Turn};

use super::Service;
use crate::error::CommandError;
use crate::store::{
    ChatRow, GameFilter, GameHead, GameStatus, GameSummary, StoreError, TokenRow, TournamentRow, UserRow,
};

/// Most games looked at for offers waiting for a user.
const WAITING_LOOKED_AT: i64 = 200;

/// Why a game waits for a user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Waiting {
    /// It is their move.
    Move,
    /// A challenge they have not accepted yet.
    Challenge,
    /// A draw or undo offer they have not answered yet.
    Offer,
}

/// A game waiting for a user, and why.
#[derive(Clone, Debug)]
pub struct WaitingGame {
    /// The game.
    pub game: GameSummary,
    /// Why it waits for them.
    pub why: Waiting,
}

/// A pending draw or undo offer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Offer {
    /// What is offered.
    pub kind: ProposalKind,
    /// Who offered it.
    pub by: String,
    /// Who has still to accept or reject it.
    pub waiting: Vec<String>,
}

/// What one user may do on a board now; everything false for an observer.
/// The same rules as the commands': a front end shows a control exactly
/// when the command would be taken.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Actions {
    /// Send a move: their turn, their secret move of a simultaneous step
    /// (or its replacement), any time in a real-time game, or joining an
    /// open game.
    pub play: bool,
    /// Their secret move of this step is in and may still be replaced.
    pub replace: bool,
    /// Join the open game with a first move (they hold no seat yet).
    pub join: bool,
    /// Resign.
    pub resign: bool,
    /// Offer a draw.
    pub offer_draw: bool,
    /// Ask to take back the last move.
    pub offer_undo: bool,
    /// Accept or reject the pending offer.
    pub answer_offer: bool,
    /// Accept or reject the challenge.
    pub answer_challenge: bool,
    /// Write in the board's chat.
    pub chat: bool,
    /// Challenge the same players again (the game is over).
    pub rematch: bool,
}

/// A board's seats and offers as one user may act on them.
#[derive(Clone, Debug, Serialize)]
pub struct BoardState {
    /// The game's kind.
    pub kind: String,
    /// Per seat: whether its player accepted the challenge.
    pub accepted: Vec<bool>,
    /// The pending draw or undo offer.
    pub offer: Option<Offer>,
    /// What the user may do now.
    pub actions: Actions,
}

impl Service {
    /// Games of the store matching `filter`, newest first.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn games(&self, filter: &GameFilter) -> Result<Vec<GameSummary>, CommandError> {
        Ok(self.store.games(filter).await?)
    }

    /// The chat lines of `board`, oldest first.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn chats(&self, board: i64) -> Result<Vec<ChatRow>, CommandError> {
        Ok(self.store.chats(board).await?)
    }

    /// `user`'s API tokens (revoked ones included), without their secrets.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn tokens(&self, user: &str) -> Result<Vec<TokenRow>, CommandError> {
        Ok(self.store.tokens(user).await?)
    }

    /// `user`'s account and settings (never shown: the password's hash).
    ///
    /// # Errors
    /// `unknown_user` for no such open account, or storage failures.
    pub async fn account(&self, user: &str) -> Result<UserRow, CommandError> {
        self.store.user(user).await?.filter(|u| !u.signed_off).ok_or_else(|| {
            CommandError::says(crate::ErrorCode::UnknownUser, tabula_i18n::msg!("error-no-user", user = user))
        })
    }

    /// The language `user` chose to read Tabula in (`language USERID
    /// PASSWORD fi`, the account page), or `None` while they have chosen
    /// none or there is no such open account: then a front end uses its
    /// own (the browser's, the terminal's; English in mail).
    ///
    /// # Errors
    /// Storage failures.
    pub async fn language(&self, user: &str) -> Result<Option<tabula_model::Lang>, CommandError> {
        Ok(self.store.user(user).await?.filter(|u| !u.signed_off).and_then(|u| u.lang()))
    }

    /// The language of the open account whose registered mail address
    /// `address` is (in any case), for mail that names no account (`help`,
    /// `list`, `show`): `None` when no account registered it, when that
    /// account has chosen no language, or when the accounts sharing the
    /// address chose different ones.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn language_at_address(&self, address: &str) -> Result<Option<tabula_model::Lang>, StoreError> {
        let langs: Vec<Option<tabula_model::Lang>> =
            self.store.users_at_address(address).await?.iter().map(|u| u.lang()).collect();
        Ok(match langs.split_first() {
            Some((first, rest)) if rest.iter().all(|l| l == first) => *first,
            _ => None,
        })
    }

    /// Whether an open account registered the mail `address` (in any
    /// case): mail from it is a player's, answered even when it holds no
    /// command, so that a player never takes silence for a move made.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn address_registered(&self, address: &str) -> Result<bool, StoreError> {
        Ok(!self.store.users_at_address(address).await?.is_empty())
    }

    /// Set the language `auth`'s account reads Tabula in: the command
    /// `language USERID PASSWORD fi|es|en`, for front ends that build the
    /// command from a form (the password word may be `-` for the caller's
    /// own account, as for every setting). The reply is in `lang`.
    ///
    /// # Errors
    /// As the command's: `unknown_user`, `wrong_password`, storage failures.
    pub async fn set_language(
        &self,
        auth: crate::Credentials,
        lang: tabula_model::Lang,
        context: impl Into<crate::Context>,
    ) -> Result<super::Reply, CommandError> {
        self.run(crate::Command::Language { auth, lang }, context).await
    }

    /// The account `id` as stored, closed or not (`None` for no account).
    ///
    /// # Errors
    /// Storage failures.
    pub async fn user(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        self.store.user(id).await
    }

    /// Tournaments, newest first.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn tournaments(&self, limit: i64) -> Result<Vec<TournamentRow>, CommandError> {
        Ok(self.store.tournaments(limit).await?)
    }

    /// Tournament `id`, if there is one.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn tournament(&self, id: i64) -> Result<Option<TournamentRow>, CommandError> {
        Ok(self.store.tournament(id).await?)
    }

    /// The results of tournament `id`'s finished games, as stored (JSON).
    ///
    /// # Errors
    /// Storage failures.
    pub async fn tournament_games(&self, id: i64) -> Result<Vec<String>, CommandError> {
        Ok(self.store.tournament_games(id).await?)
    }

    /// The game kind of `board`, read from its summary only.
    ///
    /// # Errors
    /// `unknown_board`, or storage failures.
    pub async fn kind_of(&self, board: i64) -> Result<String, CommandError> {
        Ok(self.head(board).await?.summary.kind)
    }

    async fn head(&self, board: i64) -> Result<GameHead, CommandError> {
        self.store.game_head(board).await?.ok_or_else(|| {
            CommandError::says(
                crate::ErrorCode::UnknownBoard,
                tabula_i18n::msg!("error-no-board", board = board.to_string()),
            )
        })
    }

    /// The replayed game at its stored version: the cached replay when it
    /// is current (shared, not copied), else a fresh one.
    async fn current_game(&self, board: i64, head: &GameHead) -> Result<Arc<Game>, CommandError> {
        let cached = self.cache.lock().expect("cache lock").current(board, head.summary.version).cloned();
        match cached {
            Some(game) => Ok(game),
            None => Ok(self.load(board).await?.game),
        }
    }

    /// What `user` (an identity the front end has authenticated; `None` for
    /// an observer) may do on `board` now, with its seats' acceptances and
    /// the pending offer.
    ///
    /// # Errors
    /// `unknown_board`, or storage failures.
    pub async fn board_state(&self, board: i64, user: Option<&str>) -> Result<BoardState, CommandError> {
        let head = self.head(board).await?;
        let game = self.current_game(board, &head).await?;
        Ok(board_state(&game, &head, user))
    }

    /// The games waiting for `user`: their move, a challenge to accept, an
    /// offer to answer; newest first.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn waiting_for(&self, user: &str) -> Result<Vec<WaitingGame>, CommandError> {
        let mine = GameFilter {
            player: Some(user.to_string()),
            statuses: vec![GameStatus::Active, GameStatus::Proposed],
            limit: WAITING_LOOKED_AT,
            ..Default::default()
        };
        let mut out = Vec::new();
        for summary in self.store.games(&mine).await? {
            let why = match summary.status {
                GameStatus::Proposed => {
                    let Some(head) = self.store.game_head(summary.id).await? else { continue };
                    let unanswered = summary
                        .players
                        .iter()
                        .zip(&head.accepted)
                        .any(|(player, accepted)| player == user && !accepted);
                    unanswered.then_some(Waiting::Challenge)
                }
                _ if summary.to_move.iter().any(|u| u == user) => Some(Waiting::Move),
                _ => {
                    let Some(head) = self.store.game_head(summary.id).await? else { continue };
                    let game = self.current_game(summary.id, &head).await?;
                    offer_waits_for(&game, user).then_some(Waiting::Offer)
                }
            };
            if let Some(why) = why {
                out.push(WaitingGame { game: summary, why });
            }
        }
        Ok(out)
    }
}

/// Whether the pending offer of `game` waits for `user`'s answer.
fn offer_waits_for(game: &Game, user: &str) -> bool {
    let Some(seat) = game.seat_of(user) else { return false };
    game.proposal().is_some_and(|p| !p.accepted.contains(&seat) && game.state().is_active(seat))
}

fn board_state(game: &Game, head: &GameHead, user: Option<&str>) -> BoardState {
    let players = game.players();
    let offer = game.proposal().map(|p| Offer {
        kind: p.kind,
        by: players[p.by].clone(),
        waiting: (0..players.len())
            .filter(|&s| game.state().is_active(s) && !p.accepted.contains(&s))
            .map(|s| players[s].clone())
            .collect(),
    });
    let status = head.summary.status;
    let seat = user.and_then(|u| game.seat_of(u));
    let mut actions = Actions::default();
    match (status, seat) {
        (GameStatus::Proposed, Some(s)) => {
            actions.answer_challenge = !head.accepted.get(s).copied().unwrap_or(true);
            actions.chat = true;
        }
        (GameStatus::Active, Some(s)) if !game.is_over() && game.state().is_active(s) => {
            let (play, replace) = match game.to_move() {
                Turn::Player(p) => (p == s, false),
                Turn::Simultaneous(waiting) if waiting.contains(s) => (true, false),
                Turn::Simultaneous(_) => {
                    let replace = game.state().may_replace(s);
                    (replace, replace)
                }
                Turn::Clock => (true, false),
                Turn::Over => (false, false),
            };
            actions.play = play;
            actions.replace = replace;
            actions.resign = true;
            actions.offer_draw = game.proposal().is_none();
            actions.offer_undo = game.proposal().is_none() && game.can_undo();
            actions.answer_offer = game.proposal().is_some_and(|p| !p.accepted.contains(&s));
            actions.chat = true;
        }
        (GameStatus::Active, None) if user.is_some() && !game.is_over() => {
            // Anyone logged in may join an open game by making a first move.
            actions.join = game.kind().info().open_join;
            actions.play = actions.join;
        }
        (_, Some(_)) => {
            actions.chat = true;
            actions.rematch = status == GameStatus::Finished || game.is_over();
        }
        _ => {}
    }
    BoardState { kind: head.summary.kind.clone(), accepted: head.accepted.clone(), offer, actions }
}
