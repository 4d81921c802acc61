//! The syntax of every command, as `help` prints it and usage errors quote
//! it: one table, so that the two never disagree.

use tabula_i18n::msg;

use crate::error::{CommandError, ErrorCode};

/// The syntax of every command, as `help` shows it: (name, syntax, the
/// catalogue id of its meaning, see [`meaning`]).
pub const SYNTAX: &[(&str, &str, &str)] = &[
    ("signup", "signup USERID PASSWORD [EMAIL ..]", "syntax-signup"),
    ("change password", "change password USERID PASSWORD NEWPASSWORD", "syntax-change-password"),
    ("change address", "change address USERID PASSWORD EMAIL [EMAIL ..]", "syntax-change-address"),
    ("signoff", "signoff USERID PASSWORD", "syntax-signoff"),
    ("notify", "notify USERID PASSWORD on|off", "syntax-notify"),
    ("vacation", "vacation USERID PASSWORD DAYS|off", "syntax-vacation"),
    ("limit", "limit USERID PASSWORD N|off", "syntax-limit"),
    ("policy", "policy USERID PASSWORD open|ask", "syntax-policy"),
    ("language", "language USERID PASSWORD fi|es|en", "syntax-language"),
    ("bot", "bot on|off USERID PASSWORD", "syntax-bot"),
    ("help", "help [GAME]", "syntax-help"),
    ("list", "list", "syntax-list"),
    ("challenge", "GAME challenge USERID USERID .. [-OPTION[=VALUE] ..]", "syntax-challenge"),
    ("accept", "GAME accept BOARD USERID PASSWORD", "syntax-accept"),
    ("reject", "GAME reject BOARD USERID PASSWORD", "syntax-reject"),
    ("move", "GAME move BOARD USERID PASSWORD MOVE[#MOVENO]", "syntax-move"),
    ("move resign", "GAME move BOARD USERID PASSWORD resign", "syntax-move-resign"),
    ("move propose", "GAME move BOARD USERID PASSWORD propose", "syntax-move-propose"),
    ("move undo", "GAME move BOARD USERID PASSWORD undo", "syntax-move-undo"),
    ("move accept", "GAME move BOARD USERID PASSWORD accept", "syntax-move-accept"),
    ("move reject", "GAME move BOARD USERID PASSWORD reject", "syntax-move-reject"),
    ("queue", "GAME queue BOARD USERID PASSWORD MOVE", "syntax-queue"),
    ("submit", "GAME submit BOARD USERID PASSWORD MOVE", "syntax-submit"),
    ("confirm", "GAME confirm BOARD USERID PASSWORD", "syntax-confirm"),
    ("preview", "GAME preview BOARD [USERID PASSWORD] MOVE", "syntax-preview"),
    ("show", "GAME show BOARD[#MOVENO]", "syntax-show"),
    ("showas", "GAME showas BOARD USERID PASSWORD", "syntax-showas"),
    ("history", "GAME history BOARD", "syntax-history"),
    ("games", "GAME games USERID [active|inactive|next|all]", "syntax-games"),
    ("standings", "GAME standings", "syntax-standings"),
    ("ratings", "GAME ratings", "syntax-ratings"),
    ("chat", "GAME chat BOARD USERID PASSWORD TEXT", "syntax-chat"),
    ("subscribe", "GAME subscribe BOARD USERID PASSWORD", "syntax-subscribe"),
    ("unsubscribe", "GAME unsubscribe BOARD USERID PASSWORD", "syntax-unsubscribe"),
];

/// What the command of the [`SYNTAX`] row with meaning `id` does, in `lang`.
pub fn meaning(id: &str, lang: tabula_model::Lang) -> String {
    tabula_i18n::text(lang, id, &tabula_i18n::Args::new())
}

/// The syntax of command `name`.
pub fn syntax(name: &str) -> &'static str {
    SYNTAX.iter().find(|(n, _, _)| *n == name).map(|(_, s, _)| *s).unwrap_or("")
}

/// The usage error of command `name`.
pub(super) fn usage(name: &str) -> CommandError {
    CommandError::says(ErrorCode::Usage, msg!("error-usage", syntax = syntax(name)))
}
