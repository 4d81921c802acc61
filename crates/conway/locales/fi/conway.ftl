# conway: its title, the one line `list` shows, the rules and the move
# syntax that `help conway` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

conway-title = Conway
conway-summary = Life usealle pelaajalle toruksella: aseta nappuloita ja selviydy sukupolvien yli
conway-rules =
    Lauta on torus (se jatkuu ylälaidasta alalaitaan ja vasemmasta laidasta oikeaan), ja aluksi se on tyhjä. Pelaajat asettavat vuorotellen nappuloitaan tyhjiin pisteisiin. Siirto m (kaikkien pelaajien siirrot laskettuna yhdestä alkaen) saa asettaa enintään min(m, P) nappulaa, missä P on asetuksen -place arvo (oletus 4): ensimmäinen siirto yhden, toinen kaksi ja niin edelleen P:hen asti. Vähemmänkin saa asettaa, ja 'pass' ei aseta yhtään; 'random' asettaa sallitun määrän satunnaisiin tyhjiin pisteisiin, ja siirtoluettelossa se merkitään tähdellä *.

    Siirrosta P alkaen koko laudalla kuluu jokaisen siirron asettelun jälkeen yksi Lifen sukupolvi: jokainen nappula lasketaan naapuriksi omistajastaan riippumatta; nappula, jolla on 2 tai 3 naapuria, säilyy, ja kaikki muut kuolevat; tyhjään pisteeseen, jolla on tasan 3 naapuria, syntyy uusi nappula, jonka omistaa se, jonka omia on vähintään 2 kolmesta vanhemmasta, tai neutraali nappula (#), jos kaikki kolme ovat eri omistajien.

    Kun jokainen pelaaja on ollut kerran vuorossa, pelaaja, jolta ei jää sukupolven jälkeen yhtään nappulaa, putoaa pelistä. Viimeinen pelaaja, jolla on nappuloita, voittaa; samassa sukupolvessa katoavien pelaajien kesken peli päättyy tasan. Asetuksella -max_turns=N voittaa N siirron jälkeen se, jolla on eniten nappuloita (yhtä monella tasapeli). Luovuttava pelaaja putoaa heti, ja hänen nappulansa muuttuvat neutraaleiksi.
conway-move-help =
    conway move <lauta#> <käyttäjä> <salasana> a1,b2,c3   aseta nappuloita (sarakkeen kirjain, rivin numero; a1 on vasen alakulma)
    conway move <lauta#> <käyttäjä> <salasana> a1         aseta yksi nappula
    conway move <lauta#> <käyttäjä> <salasana> pass       älä aseta mitään
    conway move <lauta#> <käyttäjä> <salasana> random     aseta sallittu määrä satunnaisiin tyhjiin pisteisiin

## Asetukset, kuten `help conway` ja haastelomake ne kuvaavat

conway-option-size = lauta on size x size pistettä (z:n jälkeiset sarakkeet ovat aa, ab, ..)
conway-option-place = enintään näin monta nappulaa siirrossa; sukupolvet alkavat tästä siirrosta
conway-option-max_turns = näin monen siirron jälkeen voittaa pelaaja, jolla on eniten nappuloita

## Hylkäykset

conway-error-empty = anna pisteet, kuten a1,b2, tai pass tai random
conway-error-too-many = siirrossa { $move } saa asettaa enintään { $allowed ->
    [one] { NUMBER($allowed) } nappulan
   *[other] { NUMBER($allowed) } nappulaa
}, ei { $given }
conway-error-off-board = { $point } on laudan ulkopuolella (a1–{ $last })
conway-error-twice = { $point } on luettelossa kahdesti
conway-error-taken = { $point } ei ole tyhjä: siinä on pelaajan { $user } nappula
conway-error-taken-neutral = { $point } ei ole tyhjä: siinä on neutraali nappula

## Miten peli päättyi

conway-outcome-vanished = viimeiset pelaajat katosivat yhtä aikaa
conway-outcome-most-pieces = eniten nappuloita viimeisen vuoron jälkeen
conway-outcome-equal-pieces = yhtä monta nappulaa viimeisen vuoron jälkeen

## Historiarivit

conway-history-out = { $user } putoaa: nappuloita ei ole jäljellä
conway-history-vanished = Peli päättyy tasan: { $users } katosivat yhtä aikaa
conway-history-most-pieces = { $user } voittaa eniten nappuloita saaneena ({ NUMBER($pieces) })
conway-history-equal-pieces = Peli päättyy tasan: pelaajilla { $users } on kullakin { NUMBER($pieces) } { $pieces ->
    [one] nappula
   *[other] nappulaa
}

## Lauta ($moves ja $generation ovat lukuja sellaisinaan)

conway-board-pieces = { NUMBER($pieces) } { $pieces ->
    [one] nappula
   *[other] nappulaa
}
conway-board-out = (pudonnut)
conway-board-resigned = (luovuttanut)
conway-board-winner = (voittaja)
conway-board-draw = (tasapeli)
conway-board-neutral = neutraali
conway-board-move = Siirto { $moves }, sukupolvi { $generation }
conway-board-may-place = seuraava siirto voi asettaa enintään { NUMBER($pieces) } { $pieces ->
    [one] nappulan
   *[other] nappulaa
}
conway-board-ends-after = peli päättyy siirron { $moves } jälkeen
conway-board-to-move = (siirtovuorossa)
