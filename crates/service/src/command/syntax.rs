//! The syntax of every command, as `help` prints it and usage errors quote
//! it: one table, so that the two never disagree.

use tabula_i18n::msg;

use crate::error::{CommandError, ErrorCode};

/// The syntax of every command, as `help` shows it: (name, syntax, meaning).
pub const SYNTAX: &[(&str, &str, &str)] = &[
    ("signup", "signup USERID PASSWORD [EMAIL ..]", "create an account"),
    ("change password", "change password USERID PASSWORD NEWPASSWORD", "change your password"),
    ("change address", "change address USERID PASSWORD EMAIL [EMAIL ..]", "change your email addresses"),
    ("signoff", "signoff USERID PASSWORD", "close your account (you resign from your running games)"),
    ("notify", "notify USERID PASSWORD on|off", "turn email notifications on or off"),
    ("vacation", "vacation USERID PASSWORD DAYS|off", "suspend reminders and forfeits while away"),
    ("limit", "limit USERID PASSWORD N|off", "accept at most N running games"),
    ("policy", "policy USERID PASSWORD open|ask", "start challenges at once, or ask you to accept them"),
    ("language", "language USERID PASSWORD fi|es|en", "read replies and mail in Finnish, Spanish or English"),
    (
        "bot",
        "bot on|off USERID PASSWORD",
        "mark your account as a bot, played by a program (`tabula bot connect`), or as a person again",
    ),
    ("help", "help [GAME]", "this text, or a game's rules, options and move syntax"),
    ("list", "list", "the games on offer"),
    (
        "challenge",
        "GAME challenge USERID USERID .. [-OPTION[=VALUE] ..]",
        "start a game (bots: bot:random, bot:mcts ..)",
    ),
    ("accept", "GAME accept BOARD USERID PASSWORD", "accept a challenge that waits for you"),
    ("reject", "GAME reject BOARD USERID PASSWORD", "refuse a challenge"),
    (
        "move",
        "GAME move BOARD USERID PASSWORD MOVE[#MOVENO]",
        "make a move; #MOVENO refuses it if the board has moved on",
    ),
    ("move resign", "GAME move BOARD USERID PASSWORD resign", "resign"),
    (
        "move propose",
        "GAME move BOARD USERID PASSWORD propose",
        "propose a draw (every other player must accept)",
    ),
    (
        "move undo",
        "GAME move BOARD USERID PASSWORD undo",
        "ask to take back the last move (every other player must accept)",
    ),
    ("move accept", "GAME move BOARD USERID PASSWORD accept", "accept the pending draw or undo"),
    ("move reject", "GAME move BOARD USERID PASSWORD reject", "reject the pending draw or undo"),
    (
        "queue",
        "GAME queue BOARD USERID PASSWORD MOVE",
        "store a move to be played when it is your turn, if still legal",
    ),
    ("submit", "GAME submit BOARD USERID PASSWORD MOVE", "store a move and preview it; play it with confirm"),
    ("confirm", "GAME confirm BOARD USERID PASSWORD", "play the move you submitted"),
    ("preview", "GAME preview BOARD [USERID PASSWORD] MOVE", "show the board as it would be after MOVE"),
    ("show", "GAME show BOARD[#MOVENO]", "the board (as it was after move MOVENO)"),
    ("showas", "GAME showas BOARD USERID PASSWORD", "the board as you see it, with your secrets"),
    ("history", "GAME history BOARD", "every move of a board"),
    ("games", "GAME games USERID [active|inactive|next|all]", "a user's boards"),
    ("standings", "GAME standings", "wins, losses and draws of every player"),
    ("ratings", "GAME ratings", "the ladder: Glicko-2 ratings from finished games"),
    ("chat", "GAME chat BOARD USERID PASSWORD TEXT", "a message to the other players of a board"),
    ("subscribe", "GAME subscribe BOARD USERID PASSWORD", "receive a board's updates"),
    ("unsubscribe", "GAME unsubscribe BOARD USERID PASSWORD", "stop receiving them"),
];

/// The syntax of command `name`.
pub fn syntax(name: &str) -> &'static str {
    SYNTAX.iter().find(|(n, _, _)| *n == name).map(|(_, s, _)| *s).unwrap_or("")
}

/// The usage error of command `name`.
pub(super) fn usage(name: &str) -> CommandError {
    CommandError::says(ErrorCode::Usage, msg!("error-usage", syntax = syntax(name)))
}
