# Kaikkien käyttöliittymien yhteiset sanat: kielten nimet, määrät, kestot.

language-name = suomi
language-setting = Kieli
board-title = Lauta { $board }
games-count = { $count ->
    [one] { $count } peli
   *[other] { $count } peliä
}
duration-days = { $days ->
    [one] { $days } päivä
   *[other] { $days } päivää
}
duration-hours = { $hours ->
    [one] { $hours } tunti
   *[other] { $hours } tuntia
}
duration-minutes = { $minutes ->
    [one] { $minutes } minuutti
   *[other] { $minutes } minuuttia
}
# Names listed: "a, b and c" ($init is "a, b").
list-and = { $init } ja { $last }

# A text already in words, shown as it is in every language.
as-is = { $text }
