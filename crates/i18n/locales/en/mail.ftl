# Mail: the gateway's replies around the commands' own, and its errors.

mail-error-subject = { $game } error
mail-no-command =
    No command was found in your message. Put the command in the subject,
    or on the first lines of the message, for example:

        dna move 12 ned PASSWORD AAG

    Anything after the commands is sent as a comment to the other players of
    the board. Send `help` for the commands and `list` for the games.
mail-too-many-commands =
    Your message has { NUMBER($count, useGrouping: "false") } command lines; at most { NUMBER($max, useGrouping: "false") } are run from one message.
    Nothing was run: send them in several messages.
mail-refused =
    Your command

    > { $command }

    was refused: { $reason }
mail-refused-help = Send `help` for the commands, or `help GAME` for a game's moves.
mail-nothing-changed = Nothing was changed.
mail-board-as-it-stands = The board as it stands:
mail-comment-refused = Your comment was not sent: { $reason }.
mail-comment-not-sent = Your comment was not sent: a comment goes to the other players of a board with a move that succeeded.
mail-comment-sent = Your comment went to the other players of board { $board } with the move.
mail-commands-not-run = The commands after this one were not run: the server stopped while running them. Send them again.
mail-help =
    Writing to Tabula by mail:

    - Put the command in the subject, or on the first lines of the message,
      one command a line. A reply to a board mail may keep its "Re:".
    - The text after the commands is a comment: it goes to the other players
      of the board at the end of the move's notification.
    - Quoted lines (">"), the line introducing them ("On ... wrote:") and
      everything after a signature line ("-- ") are left out.
    - Send from a registered address: a command for a user runs only if the
      message comes from one of that user's addresses (given at signup,
      changed with `change address`), and with the user's password.
      Passwords are never shown back.
    - Each message gets one reply. Mail from programs (out-of-office
      replies, bounces, mailing lists) is not answered.
error-mail-challenge-sender = a challenge by mail comes from the registered address of one of its players, and { $address } is none of theirs; nothing was changed
error-mail-challenge-no-sender = a challenge by mail comes from the registered address of one of its players, and this message's sender is none of theirs; nothing was changed
error-mail-no-from = the message has no From address
error-mail-sender-user = this message came from { $address }, which is not one of { $user }'s registered addresses; nothing was changed. Send it from a registered address
error-mail-sender-players = this message came from { $address }, which is not one of the registered addresses of its players; nothing was changed. Send it from a registered address
