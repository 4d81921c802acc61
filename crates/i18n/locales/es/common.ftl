# Palabras que comparten todas las interfaces: nombres de idiomas,
# cantidades, duraciones.

language-name = español
language-setting = Idioma
board-title = Tablero { $board }
games-count = { $count ->
    [one] { $count } partida
   *[other] { $count } partidas
}
duration-days = { $days ->
    [one] { $days } día
   *[other] { $days } días
}
duration-hours = { $hours ->
    [one] { $hours } hora
   *[other] { $hours } horas
}
duration-minutes = { $minutes ->
    [one] { $minutes } minuto
   *[other] { $minutes } minutos
}
# Names listed: "a, b and c" ($init is "a, b").
list-and = { $init } y { $last }

# A text already in words, shown as it is in every language.
as-is = { $text }
