# rtlife: its title, the one line `list` shows, the rules and the move
# syntax that `help rtlife` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

rtlife-title = Life reaaliajassa
rtlife-summary = Life seinäkellon tahdissa: liity milloin vain, siirrä soluja siirtopisteillä ja kerää enemmän pisteitä kuin muut
rtlife-rules =
    Life reaaliajassa etenee seinäkellon mukaan. Jokaisen jakson (-tick, oletuksena tunti) kuluttua jokainen soluja asettanut pelaaja saa siirtopisteitä: yhden kutakin 10:tä elävää solua kohden, mutta aina vähintään yhden; siirtopisteet kertyvät. Aina -gen_ticks jakson välein (oletuksena 12) koko kentällä kuluu yksi Lifen sukupolvi: jokainen solu lasketaan naapuriksi omistajastaan riippumatta; solu, jolla on 2 tai 3 naapuria, säilyy, ja kaikki muut kuolevat; tyhjään pisteeseen, jolla on tasan 3 naapuria, syntyy uusi solu, jonka omistaa se, jonka omia on vähintään 2 kolmesta vanhemmasta, tai neutraali solu (#), jos kaikki kolme ovat eri omistajien.

    Pelaajan ensimmäinen siirto asettaa -start_cells solua (oletuksena 10) tyhjiin pisteisiin, kaikki toisiinsa yhteydessä (vaakasuoraan, pystysuoraan tai vinottain). Pelin luoja ja luetellut käyttäjät ovat pelaajia alusta asti; kuka tahansa muu voi liittyä peliin sen ollessa käynnissä (enintään -max_players pelaajaa, korkeintaan 26, jotka näytetään kirjaimina A..Z) samanlaisella asettavalla siirrolla.

    Solun siirtäminen maksaa lyhimmän kuninkaan askelin kulkevan reitin pituuden (yksi siirtopiste askelta kohden, vaakasuoraan, pystysuoraan tai vinottain) tyhjien pisteiden kautta: solu ei voi kulkea toisen solun läpi eikä yli, mutta voi kiertää sen. Siirto, jolle ei ole tällaista reittiä tai joka maksaisi enemmän siirtopisteitä kuin pelaajalla on, hylätään, eikä se maksa mitään. Saman komennon useat siirrot tehdään järjestyksessä, joko kaikki tai ei yhtään.

    Heti jokaisen sukupolven jälkeen kukin pelaaja lisää pistemääräänsä (elävät solut) / (sukupolvet, jotka hän on ollut pelissä, tämä mukaan lukien): 100 solua 10 sukupolven jälkeen tuo 10 pistettä, samoin kuin 10 solua ensimmäisen jälkeen. Pelaaja, joka on asettanut soluja ja jolla ei sukupolven jälkeen ole yhtään, putoaa pelistä. Kun vähintään kaksi pelaajaa on asettanut soluja, viimeinen pelissä jäljellä oleva pelaaja voittaa; jos viimeiset pelaajat katoavat samassa sukupolvessa, heistä voittaa se, jolla on suurin pistemäärä (yhtä suurilla tasapeli). Asetuksella -generations=N voittaa sukupolven N jälkeen suurimman pistemäärän saanut niistä pelaajista, jotka ovat yhä kentällä, tai jos kentällä ei ole ketään, niistä, jotka asettivat soluja eivätkä luovuttaneet: pelaajalla, joka ei koskaan asettanut soluja, ei ole pistemäärää, jolla voittaa. Luovuttavan pelaajan solut eivät siirry kenellekään (niistä tulee neutraaleja).

    Reunat: dead (kentän -width x -height ulkopuolella mikään ei elä), torus (kenttä jatkuu reunojen yli toiselle puolelle) tai unbounded (ääretön taso; -width ja -height eivät ole käytössä, ja pisteet voi kirjoittaa muodossa (x,y), jolloin a1 = (0,0)).
rtlife-move-help =
    rtlife move <lauta#> <käyttäjä> <salasana> c5,d5,e5,...   ensimmäinen siirto: aseta -start_cells toisiinsa yhteydessä olevaa solua
    rtlife move <lauta#> <käyttäjä> <salasana> c5-f8           siirrä solu lyhintä vapaata reittiä
    rtlife move <lauta#> <käyttäjä> <salasana> c5-f8,a1-b2     useita siirtoja järjestyksessä, kaikki tai ei yhtään
    Pisteiden edessä voi olla sana place tai move (place c5,d5,e5 tai move c5-f8).
    Rajattomalla tasolla pisteet voi kirjoittaa muodossa (x,y): place (-3,12),(-2,12),...

## Asetukset, kuten `help rtlife` ja haastelomake ne kuvaavat

rtlife-option-width = rajatun kentän sarakkeet (z:n jälkeiset sarakkeet ovat aa, ab, ..)
rtlife-option-height = rajatun kentän rivit
rtlife-option-edges = dead: kentän ulkopuolella ei elä mitään; torus: reunat yhtyvät; unbounded: ääretön taso
rtlife-option-tick = todellinen aika kahden tikin välillä (siirtopisteitä jaetaan joka tikillä)
rtlife-option-gen_ticks = tikkejä kahden sukupolven välillä
rtlife-option-start_cells = solut, jotka pelaaja asettaa liittyessään, kaikki toisiinsa kytkeytyneinä
rtlife-option-generations = peli päättyy näin monen sukupolven jälkeen; suurimmat pisteet voittavat
rtlife-option-max_players = enimmäismäärä pelaajia, myöhemmin liittyvät mukaan lukien

## Hylkäykset: aloitukset, asettamiset ja siirrot

rtlife-error-setup-off = { $point } on kentän ulkopuolella
rtlife-error-setup-twice = { $point } on annettu kahdesti
rtlife-error-setup-owner = { $owner } ei ole tämän pelin pelaaja
rtlife-error-no-room = { $width }x{ $height }-kenttään ei mahdu -start_cells={ $cells }
rtlife-error-max-players = -max_players={ $max }, mutta pelaajia on lueteltu { NUMBER($given) }
rtlife-error-too-far-out = { $point } on liian kaukana: koordinaatit ovat välillä -{ $limit }–{ $limit }
rtlife-error-off-field = { $point } on kentän ulkopuolella (a1–{ $last })
rtlife-owner-player = pelaajan { $user } solu
rtlife-owner-someone = pelaajan solu
rtlife-owner-neutral = neutraali solu
rtlife-error-placed = olet jo asettanut solusi: siirrä niitä komennolla move c5-f8
rtlife-error-place-count = aseta tasan { $cells } solua, ei { $given }
rtlife-error-twice = { $point } on luettelossa kahdesti
rtlife-error-taken = { $point } ei ole tyhjä: siinä on { $owner }
rtlife-error-connected = solujen pitää olla kaikki kytköksissä toisiinsa (koskettaen vaaka-, pysty- tai vinosuunnassa): { $loose } ei ole kytköksissä soluun { $first }
rtlife-error-place-first = aseta ensin { $cells } soluasi: place c5,d5,...
rtlife-error-from-empty = { $from } on tyhjä: siinä ei ole siirrettävää solua
rtlife-error-not-yours = kohdassa { $from } on { $owner }: voit siirtää vain omia solujasi
rtlife-error-no-move = { $from }-{ $to } ei siirrä solua
rtlife-error-blocked = { $from } ei pääse kohtaan { $to }: muut solut tukkivat jokaisen reitin
rtlife-error-cost = { $from }-{ $to } maksaa vähintään { $cost } siirtopistettä; sinulla on { $left }{ $step ->
    [first] {""}
   *[later] {" "}jäljellä aiempien siirtojen jälkeen
}
rtlife-error-too-far = { $from }-{ $to } on liian kaukana etsittäväksi (yhden komennon siirrot saavat käydä läpi { $max } pistettä): siirrä lyhyemmin askelin
rtlife-error-no-moves = anna siirrot, kuten move c5-f8
rtlife-error-commas = pilkkujen välistä puuttuu siirto: kirjoita c5-f8,a1-b2
rtlife-error-from-to = { $text } ei ole siirto: kirjoita mistä-mihin, kuten c5-f8
rtlife-error-too-many = liian monta siirtoa: yhdessä komennossa enintään { $max }
rtlife-error-place-what = anna { $cells } asetettavaa pistettä, kuten place c5,d5,e5
rtlife-error-empty = anna siirto: place c5,d5,... tai move c5-f8
rtlife-error-not-a-move = { $text } ei ole siirto: kirjoita place c5,d5,... tai move c5-f8
rtlife-error-full = peli on täynnä: siinä on jo { $players } pelaajaa

## Miten peli päättyi

rtlife-outcome-vanished = viimeiset pelaajat katosivat samassa sukupolvessa
rtlife-outcome-nobody-left = pelissä ei ole enää ketään
rtlife-outcome-generation-limit = sukupolvien enimmäismäärä on saavutettu

## Historiarivit ($players: none, kun kenelläkään pelaajalla ei ole soluja)

rtlife-history-wins = { $user } voittaa suurimmalla pistemäärällä ({ $score }): { $reason }
rtlife-history-draw = Peli päättyy tasan pelaajien { $users } kesken, kullakin { $score }: { $reason }
rtlife-history-generation-empty = Sukupolvi { $generation }: ei soluja
rtlife-history-generation = Sukupolvi { $generation }: { $players ->
    [none] neutraaleja { NUMBER($neutral) }
   *[some] { $cells }{ $neutral ->
        [0] {""}
       *[other] , neutraaleja { NUMBER($neutral) }
    }
}
rtlife-history-out = { $user } putoaa: soluja ei ole jäljellä
rtlife-history-joins = { $user } liittyy peliin: { $cells }
rtlife-history-places = { $user } asettaa: { $cells }
rtlife-history-moves = { $user } siirtää { $steps } ({ NUMBER($points) } { $points ->
    [one] siirtopiste
   *[other] siirtopistettä
})

## Lauta ($generation, $tick, $n ja koordinaatit ovat lukuja sellaisinaan; $count, $cells ja $points ovat määriä)

rtlife-board-generation = Sukupolvi { $generation }, jakso { $tick }
rtlife-board-ends-after = (peli päättyy sukupolven { $generation } jälkeen)
rtlife-board-over = Peli on päättynyt: { $reason }.
rtlife-board-next-tick = Seuraava jakso { $when }
rtlife-board-next-generation = Seuraava sukupolvi { $when }
rtlife-board-due-now = { $time } (nyt)
rtlife-board-due-in = { $time } ({ $span } kuluttua)
rtlife-board-days = { $n } pv
rtlife-board-hours = { $n } t
rtlife-board-minutes = { $n } min
rtlife-board-seconds = { $n } s
rtlife-board-empty = Taso on tyhjä.
rtlife-board-plane = x { $left }…{ $right }, y { $top } alas { $bottom }
rtlife-board-plane-part = (osa solujen alueesta x { $left }…{ $right }, y { $top } alas { $bottom })
rtlife-board-plane-points = pisteet ovat (x,y)
rtlife-board-neutral = neutraali
rtlife-board-cells = { $count ->
    [one] solu
   *[other] solua
}
rtlife-board-points = { $count ->
    [one] siirtopiste
   *[other] siirtopistettä
}
rtlife-board-score = pistemäärä { $score }
rtlife-board-not-placed = (ei vielä asettanut soluja)
rtlife-board-out = (pudonnut)
rtlife-board-resigned = (luovuttanut)
rtlife-board-winner = (voittaja)
rtlife-board-draw = (tasapeli)
rtlife-board-legend-player = { $letter } { $user }: { NUMBER($cells) } { $cells ->
    [one] solu
   *[other] solua
}, { NUMBER($points) } { $points ->
    [one] siirtopiste
   *[other] siirtopistettä
}, pistemäärä { $score }
rtlife-board-legend-neutral = # neutraali: { NUMBER($cells) } { $cells ->
    [one] solu
   *[other] solua
}
