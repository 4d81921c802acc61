# Kaikille peleille yhteiset tekstit: siirron tai tapahtuman hylkäykset,
# pelin asetusten virheet ja kaikkien pelien yhteisten asetusten ohjeet.
# Asetusten nimet (-seed) ja siirtojen muoto ovat protokollaa eivätkä muutu.

## Siirrot ja tapahtumat

move-error-not-your-turn = nyt ei ole sinun vuorosi
move-error-not-your-turn-next = nyt ei ole sinun vuorosi; vuorossa on { $user }
move-error-game-over = peli on päättynyt
move-error-clock-seat = kellotapahtumalla ei ole pelaajaa
move-error-no-clock = yksikään kellotapahtuma ei ole erääntynyt
move-error-already-in = { $user } on jo tässä pelissä
move-error-join-seat = liittymistapahtuma nimeää väärän paikan
move-error-no-player = tapahtumalta puuttuu pelaaja
move-error-no-seat = paikkaa ei ole
move-error-no-player-seat = pelaajaa ei ole
move-error-not-in-game = et ole enää mukana tässä pelissä
move-error-nothing-proposed = mitään ei ole ehdotettu
move-error-already-proposed = { $user } on jo ehdottanut { $proposal ->
    [draw] tasapeliä
   *[undo] siirron perumista
}: hyväksy tai hylkää se ensin
move-error-nothing-to-undo = perutettavaa siirtoa ei ole
move-error-already-accepted = olet jo hyväksynyt { $proposal ->
    [draw] tasapelin
   *[undo] perumisen
}
move-error-no-join = peliin { $game } ei voi liittyä sen alettua

## Pelin aloittaminen

setup-error-seed = -seed ei käy tässä: { $game } näillä asetuksilla salaa siirtoja pelaajiltaan, ja siemenen tunteva voisi päätellä sen satunnaiset arvonnat; jätä -seed pois
setup-error-player-count = { $game } tarvitsee { $min }–{ $max } pelaajaa, ei { $given }
setup-error-duplicate-player = { $user } on luettelossa kahdesti

## Asetukset

option-error-unknown = pelissä { $game } ei ole asetusta -{ $name } (asetukset: { $known })
option-error-bad-value = -{ $name }: { $problem }
option-error-repeated = -{ $name } on annettu kahdesti
option-error-flag = on valitsin: kirjoita pelkkä -{ $name }
option-error-needs-number = tarvitsee luvun: -{ $name }=N
option-error-not-number = { $value } ei ole kokonaisluku
option-error-range = pitää olla välillä { $min }–{ $max }, ei { $value }
option-error-needs-text = tarvitsee arvon: -{ $name }=TEKSTI
option-error-text-length = pitää olla { NUMBER($min, useGrouping: "false") }–{ NUMBER($max, useGrouping: "false") } merkkiä ({ $accepts }), ei { NUMBER($length, useGrouping: "false") }
option-error-text-letters = pitää olla { $accepts }
option-error-needs-duration = tarvitsee keston: -{ $name }=1h
option-error-not-duration = { $value } ei ole kesto (käytä muotoa 30s, 15m, 1h, 7d tai 2w)
option-error-needs-choice = tarvitsee yhden näistä: { $choices }
option-error-choice = pitää olla yksi näistä: { $choices }, ei { $value }

option-nag = lähetä muistutus pelaajalle, joka ei ole siirtänyt näin pitkään aikaan
option-forfeit = luovuta pelaajan puolesta, kun hän ei ole siirtänyt näin pitkään aikaan; jos kukaan pelissä vielä mukana olevista ei ole siirtänyt, peli päättyy heidän kesken tasapeliin
option-seed = jaa peli tästä siemenestä satunnaisen sijaan: sama siemen jakaa saman pelin esittelyjä ja testejä varten; ei käy pelissä, joka salaa siirtoja pelaajiltaan, koska siemenen tunteva voisi päätellä sen satunnaiset arvonnat

## Ruudukon pisteet (a1, (x,y)); $text on syöte lainausmerkeissä

point-error-xy = { $text } ei ole piste: kirjoita (x,y)
point-error-whole = { $text } ei ole piste: koordinaatit ovat kokonaislukuja
point-error-letter-number = { $text } ei ole piste: kirjoita sarakkeen kirjain ja rivin numero, kuten c5
point-error-row = { $text } ei ole piste: rivit alkavat 1:stä
point-error-paren = { $text }: ')' puuttuu
point-error-too-many = liian monta pistettä: enintään { $max }
point-error-trailing-comma = viimeisen pilkun jäljestä puuttuu piste
point-error-commas = { $text }: pisteet erotetaan pilkuilla

## Miten peli päättyi (syy tulosrivillä)

outcome-last-standing = viimeinen pelissä jäljellä oleva pelaaja
outcome-forfeited = kaikki pelaajat luovuttivat aikarajan vuoksi
outcome-draw-agreed = tasapelistä sovittiin

## Kaikille peleille yhteiset historiarivit ($proposal on draw tai undo)

history-resigns = { $user } luovuttaa
history-last-standing = { $user } voittaa: viimeinen pelissä jäljellä oleva pelaaja
history-all-forfeit = { $users } luovuttavat kaikki ({ $why }): peli päättyy tasan.
history-with-reason = { $line } ({ $reason })
history-proposes = { $user } ehdottaa { $proposal ->
    [draw] tasapeliä
   *[undo] siirron perumista
}
history-accepts = { $user } hyväksyy { $proposal ->
    [draw] tasapelin
   *[undo] siirron perumisen
}
history-rejects = { $user } hylkää { $proposal ->
    [draw] tasapelin
   *[undo] siirron perumisen
}
history-draw-agreed = Peli päättyy sovitusti tasan.
history-last-taken-back = Viimeinen siirto perutaan.
history-move-taken-back = Pelaajan { $user } siirto { $move } perutaan.
history-users-last-taken-back = Pelaajan { $user } viimeinen siirto perutaan.

## Miksi palvelin luovutti pelaajan puolesta

resign-reason-server = palvelin luovutti
resign-reason-signed-off = lopetti tilinsä
resign-reason-no-move = botti ei löytänyt siirtoa
resign-reason-forfeited = luovutettu: ei siirtoa, aikaraja { $span }

## Rivin osat yhdessä

list-comma = { $first }, { $rest }
list-semicolon = { $first }; { $rest }
