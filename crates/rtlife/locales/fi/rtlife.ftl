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
