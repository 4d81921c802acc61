# Words every front end shares: language names, quantities, durations.
# Arguments: quantities ($count, $days, ...) are numbers; identifiers
# ($board, $user) are text.

language-name = English
language-setting = Language
board-title = Board { $board }
games-count = { $count ->
    [one] { $count } game
   *[other] { $count } games
}
duration-days = { $days ->
    [one] { $days } day
   *[other] { $days } days
}
duration-hours = { $hours ->
    [one] { $hours } hour
   *[other] { $hours } hours
}
duration-minutes = { $minutes ->
    [one] { $minutes } minute
   *[other] { $minutes } minutes
}
# Names listed: "a, b and c" ($init is "a, b").
list-and = { $init } and { $last }

# A text already in words, shown as it is in every language.
as-is = { $text }
