# intervalo: its title, the one line `list` shows, the rules and the move
# syntax that `help intervalo` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

intervalo-title = Intervalo
intervalo-summary = kaksi pelaajaa valitsee yhtä aikaa ruutuja nauhalta; välit tuovat pisteitä
intervalo-rules =
    Kaksi pelaajaa pelaa yhteisellä nauhalla, jonka ruudut on numeroitu 1:stä alkaen (oletuksena 64 ruutua);
    alussa kaikki ruudut ovat tyhjiä. Joka vuorolla kumpikin pelaaja valitsee salaa yhden tyhjän ruudun.
    Tehtyä valintaa ei voi muuttaa, eikä kumpikaan näe toisen valintaa ennen kuin molemmat ovat valinneet.
    - Sama ruutu: ruutuun tulee neutraali nappula.
    - Eri ruudut: kumpaankin valittuun ruutuun tulee valitsijansa nappula. Sitten lasketaan kummankin
      pelaajan nappulat valittujen ruutujen väliltä (molemmat ruudut mukaan lukien), ja se, jolla niitä
      on siellä enemmän, saa pisteen. Yhtä monella nappulalla kumpikaan ei saa pistettä.
    Peli päättyy, kun tyhjiä ruutuja ei ole enää jäljellä (viimeisen yksittäisen tyhjän ruudun valitsevat
    molemmat, ja siihen tulee neutraali nappula). Enemmän pisteitä saanut voittaa; tasapisteillä peli
    päättyy tasan.
intervalo-move-help =
    Ruudun numero: `intervalo move B käyttäjä salasana 17`. Valinta pysyy salassa, kunnes molemmat
    pelaajat ovat valinneet; sitten molemmille näytetään kummankin valinta ja pistetilanne.

## Asetukset, kuten `help intervalo` ja haastelomake ne kuvaavat

intervalo-option-cells = nauhan ruutujen määrä

## Hylkäykset ($text on syöte lainausmerkeissä)

intervalo-error-empty = siirto on ruudun numero, kuten 17
intervalo-error-not-a-number = { $text } ei ole ruudun numero: kirjoita luku, kuten 17
intervalo-error-not-a-cell = { $text } ei ole ruudun numero
intervalo-error-no-cell = ruutua { $cell } ei ole: ruudut on numeroitu 1–{ $cells }
intervalo-error-chosen = nyt ei ole sinun vuorosi: olet jo valinnut tällä vuorolla, eikä valintaa voi muuttaa
intervalo-error-taken = ruutu { $cell } ei ole tyhjä
intervalo-error-cells = -cells pitää olla 2–{ $max }, ei { $given }

## Miten peli päättyi

intervalo-outcome-resigned = { $user } luovutti
intervalo-outcome-more-points = enemmän pisteitä
intervalo-outcome-equal-points = yhtä paljon pisteitä

## Historiarivit

intervalo-history-chooses = { $user } valitsee ruudun { $cell }
intervalo-history-chosen = { $user } on valinnut ruudun
intervalo-history-neutral = molemmat valitsivat ruudun { $cell }: neutraali nappula
intervalo-history-scores = { $p0 } { $c0 }, { $p1 } { $c1 }: { $user } saa pisteen
intervalo-history-no-point = { $p0 } { $c0 }, { $p1 } { $c1 }: ei pistettä
intervalo-history-turn = Vuoro { $turn }: { $what } ({ $p0 } { $s0 }, { $p1 } { $s1 }).

## Lauta ($turn, $cell, $c0, $c1, $s0 ja $s1 ovat lukuja sellaisinaan; $l0 ja $l1 ovat paikkojen kirjaimet; $you on you tai other)

intervalo-board-score = Pisteet: { $l0 } { $p0 } { $s0 }, { $l1 } { $p1 } { $s1 }
intervalo-board-neutral = molemmat valitsivat saman ruudun: neutraali
intervalo-board-scores = { $user } saa pisteen
intervalo-board-no-point = ei pistettä
intervalo-board-last = Edellinen vuoro ({ $turn }): { $p0 } { $c0 }, { $p1 } { $c1 }: { $what }
intervalo-board-wins = { $user } voittaa: { $reason }
intervalo-board-draw = tasapeli: { $reason }
intervalo-board-waiting = Vuoro { $turn }: vielä valitsemassa: { $users }
intervalo-board-you-chose = valitsit ruudun { $cell }
intervalo-board-legend-player = { $letter } { $user }{ $you ->
    [you] {" "}(sinä)
   *[other] {""}
}: { NUMBER($points) } { $points ->
    [one] piste
   *[other] pistettä
}
intervalo-board-legend-neutral = # neutraali: molemmat valitsivat saman ruudun
intervalo-board-legend-interval = edellisen vuoron väli
intervalo-board-cell = ruutu { $cell }: { $what }
intervalo-board-cell-neutral = neutraali
intervalo-board-cell-empty = tyhjä
