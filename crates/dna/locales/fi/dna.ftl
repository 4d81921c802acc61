# dna: its title, the one line `list` shows, the rules and the move syntax
# that `help dna` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

dna-title = DNA
dna-summary = nakerra vastustajiesi perimä olemattomiin ennen kuin he nakertavat sinun perimäsi
dna-rules =
    DNA on kiihdytetyn evoluution peli 2–8 pelaajalle: nakerra vastustajiesi perimä olemattomiin ennen kuin he nakertavat sinun perimäsi.

    ALKUASETELMA. Jokaisella pelaajalla on DNA-sekvenssi, joka on 36 kirjainta pitkä, ellei -length määrää muuta, ja joka koostuu nukleotideista A, C, G ja T (adeniini, sytosiini, guaniini, tymiini). Asetuksella -base=2 tai -base=3 käytetään vain kahta tai kolmea ensimmäistä näistä kirjaimista. Tavallisesti palvelin arpoo kaikki sekvenssit. Asetuksella -manual kukin pelaaja sen sijaan valitsee sekvenssinsä itse tai pyytää satunnaisen; kukaan ei näe toisen pelaajan sekvenssiä ennen kuin kaikki sekvenssit on valittu. Sitten peli alkaa.

    NIMEÄMINEN. Pelaajat ovat vuorossa siinä järjestyksessä, jossa heidät nimettiin, ensimmäisenä nimetty ensin. Vuorollasi nimeät pätkän: peräkkäisten kirjainten jonon, joka on 3 kirjainta pitkä, elleivät -chunk, -min_chunk tai -max_chunk salli muita pituuksia. Pätkän on esiinnyttävä omassa sekvenssissäsi (paitsi asetuksella -need_not_own). Sen jokainen esiintymä poistetaan sitten omasta sekvenssistäsi (paitsi asetuksella -no_reduce_self) ja jokaisen vastustajan sekvenssistä (asetuksella -reduce_next vain siltä vuorojärjestyksessä seuraavalta vastustajalta, joka on vielä pelissä).

    NÄIN POISTO TOIMII. Poisto etenee läpikäynneittäin. Läpikäynti lukee sekvenssin vasemmalta oikealle ja leikkaa pois jokaisen vastaan tulevan pätkän esiintymän; esiintymä, joka menee päällekkäin juuri leikatun kanssa, ohitetaan. Leikkauskohdan molemmin puolin olevat kirjaimet liittyvät yhteen, ja niistä voi syntyä uusia esiintymiä, joten läpikäyntejä toistetaan, kunnes läpikäynti ei löydä mitään. Jokainen millä tahansa läpikäynnillä leikattu esiintymä lasketaan yhdeksi poistetuksi pätkäksi. Esimerkiksi AGC esiintyy sekvenssissä TAAGAAGCGCCT vain kerran, mutta kolme läpikäyntiä poistaa kolme pätkää: TAAGA[AGC]GCCT, sitten TAAG[AGC]CT, sitten TA[AGC]T, ja jäljelle jää TAT. Päällekkäisten pätkien kanssa on oltava tarkkana: kun sekvenssistä AACACACA poistetaan ACA, jäljelle jää AC (ensimmäinen läpikäynti leikkaa A[ACA]C[ACA]).

    ENSIMMÄINEN KIERROS. Ellei peliä aloitettu asetuksella -non_incremental, ensimmäisellä kierroksella vuorojärjestyksessä i:s pelaaja ei saa nimetä pätkää, joka poistaisi yhdeltäkään vastustajalta enemmän kuin i pätkää: ensimmäinen pelaaja enintään yhden, toinen enintään kaksi ja niin edelleen.

    SALLITUT NIMEÄMISET. Nimeämisen on poistettava vähintään yksi pätkä jostakin sekvenssistä. Pelaaja, jolla ei ole yhtään sallittua nimeämistä, passaa automaattisesti, ja siirtoluettelo kertoo sen. Jos jokainen vielä pelissä oleva pelaaja passaa kokonaisen kierroksen ajan, sekvenssit eivät voi enää muuttua ja peli päättyy: pisin sekvenssi voittaa, ja yhtä pitkät pisimmät sekvenssit päättyvät tasapeliin. Ensimmäisen kierroksen rajoitusten pakottamia passauksia ei lasketa tähän, sillä rajoitukset päättyvät ensimmäisen kierroksen mukana.

    PUTOAMINEN JA VOITTO. Jokaisen nimeämisen jälkeen pelaaja, jonka sekvenssi on lyhyempi kuin pienin sallittu pätkän pituus, putoaa pelistä. Viimeinen pelissä jäljellä oleva pelaaja voittaa. Jos yksi nimeäminen pudottaa kaikki vielä pelissä olevat pelaajat, heidän sekvensseistään pisin voittaa; yhtä pitkät pisimmät sekvenssit päättyvät tasapeliin.

    LUOVUTTAMINEN. Pelaaja voi luovuttaa milloin tahansa. Luovuttaneen pelaajan sekvenssi jää laudalle jäädytettynä: myöhemmät nimeämiset eivät enää lyhennä sitä.

    PÄTKÄN PITUUDET. Asetuksilla -min_chunk ja -max_chunk saa nimetä minkä tahansa pituisen pätkän pienimmästä suurimpaan; pois jätetty raja on 3, tai toinen raja, jos 3 olisi sen väärällä puolella. Peli hylkää asetuksen -chunk yhdessä arvoltaan eroavan -min_chunk- tai -max_chunk-asetuksen kanssa, suurinta pituutta suuremman pienimmän pituuden sekä sekvenssiä pidemmän pätkän.

    ESIMERKKI. Pelaajien ned, ted ja jed peli alkaa näin:

      ned (36): TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG
      ted (36): TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT
      jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG

    Ensimmäisenä siirtona ned nimeää AAG:n, joka esiintyy kerran hänen sekvenssissään ja kerran tedin sekvenssissä (TTG:tä hän ei voisi nimetä: se esiintyy jedin sekvenssissä kahdesti, ja ensimmäinen pelaaja saa poistaa kultakin vastustajalta enintään yhden pätkän):

      ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG
      ted (33): TCAGCGCGTTCCCGGAGTCGTCGTATTAGGGAT
      jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG

    Toisena siirtona ted nimeää TTC:n:

      ned (27): TCGCATGTACATTAATCGCCTTGAGAG
      ted (30): TCAGCGCGCCGGAGTCGTCGTATTAGGGAT
      jed (33): GCCAATTATGGACTTGTTGTCAGATAGTCGGCG

    LAUTA. Kullekin pelaajalle yksi rivi, jossa on sekvenssin pituus ja itse sekvenssi: `ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG`. Pelistä pudonneen pelaajan perässä on merkintä (pudonnut), luovuttaneen perässä (luovuttanut). Kun sekvenssit valitaan asetuksella -manual, muiden sekvenssien paikalla lukee piilossa, kunnes kaikki ovat valinneet.
dna-move-help =
    Nimeä pätkä kirjoittamalla sen kirjaimet (isoilla tai pienillä):
      dna move 1 ned SALASANA AAG
    Pätkä on pelin pätkän pituinen (oletuksena 3, tai mikä tahansa pituus väliltä -min_chunk … -max_chunk), ja siinä on vain pelissä käytettäviä kirjaimia (A, C, G, T, tai vähemmän asetuksella -base).

    Asetuksella -manual jokainen pelaaja valitsee ennen ensimmäistä nimeämistä sekvenssinsä siirrolla, joka on koko sekvenssi, tasan -length kirjainta:
      dna move 1 ned SALASANA GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG
    tai antaa palvelimen arpoa sen:
      dna move 1 ned SALASANA random

    Nimeämisen suunnittelussa auttaa laskin, joka näyttää, mitä pätkän poistaminen tekee sekvenssille: asetuksella --trace läpikäynti kerrallaan omalle rivilleen, asetuksella --json JSON-muodossa:
      tabula dna remove --trace TAAGAAGCGCCT AGC

## Asetukset, kuten `help dna` ja haastelomake ne kuvaavat

dna-option-length = sekvenssin pituus
dna-option-chunk = pätkän koko (3, jos mitään pätkäasetusta ei anneta); asettaa sekä -min_chunk- että -max_chunk-arvon
dna-option-min_chunk = pienin pätkän koko (vähintään 2)
dna-option-max_chunk = suurin pätkän koko
dna-option-base = käytettyjen kirjainten määrä: kirjaimista A, C, G, T ensimmäiset 2, 3 tai 4
dna-option-manual = pelaajat asettavat omat sekvenssinsä (tai `random`), piilossa kunnes kaikki on asetettu
dna-option-non_incremental = ensimmäisellä kierroksella ei rajoiteta vastustajalta poistettavia pätkiä
dna-option-need_not_own = nimetyn pätkän ei tarvitse esiintyä siirtäjän omassa sekvenssissä
dna-option-no_reduce_self = nimeäminen ei lyhennä siirtäjän omaa sekvenssiä
dna-option-reduce_next = nimeäminen lyhentää vain seuraavaa vastustajaa vuorojärjestyksessä

## Hylkäykset: ristiriitaiset asetukset ja siirrot

dna-error-chunk-contradicts = -chunk={ $chunk } on ristiriidassa asetuksen -{ $name }={ $value } kanssa: -chunk asettaa sekä pienimmän että suurimman pätkän koon
dna-error-chunk-too-long = { $culprit } on pidempi kuin -length={ $length }: pätkä ei voi olla sekvenssiä pidempi
dna-error-default-chunk = oletuskoko { $size } pätkälle
dna-error-min-over-max = -min_chunk={ $min } on suurempi kuin -max_chunk={ $max }
dna-error-chunk-rule = pätkät ovat { $size } kirjaimen pituisia (-chunk={ $size })
dna-error-chunk-rule-range = pätkät ovat { $min }–{ $max } kirjaimen pituisia (-min_chunk={ $min } -max_chunk={ $max })
dna-error-not-owned = { $chunk } ei esiinny sekvenssissäsi: nimettävän pätkän pitää olla oman sekvenssisi pätkä
dna-error-first-round = { $chunk } poistaisi pelaajalta { $opponent } { $removed ->
    [one] { NUMBER($removed) } pätkän
   *[other] { NUMBER($removed) } pätkää
}: ensimmäisellä kierroksella { $position }. pelaaja saa poistaa kultakin vastustajalta enintään { $limit ->
    [one] { NUMBER($limit) } pätkän
   *[other] { NUMBER($limit) } pätkää
}
dna-error-no-op = { $chunk } ei poistaisi mitään: nimeämisen pitää poistaa ainakin yksi pätkä jostakin sekvenssistä
dna-error-letters = { $text } ei ole { $what ->
    [chunk] pätkä
   *[sequence] sekvenssi
}: käytä vain kirjaimia { $letters }
dna-error-chunk-size = { $chunk } on { $size ->
    [one] { NUMBER($size) } kirjaimen
   *[other] { NUMBER($size) } kirjaimen
} pituinen: { $rule }
dna-error-sequence-length = sekvenssissä on tasan { $length } kirjainta (-length={ $length }), ei { $given }; nimeäminen alkaa, kun kaikki sekvenssit on asetettu
dna-error-empty-setup = tyhjä siirto: kirjoita sekvenssisi tai random
dna-error-empty = tyhjä siirto: kirjoita nimettävä pätkä, esimerkiksi AAG
dna-error-too-long = { $given } merkin siirto on liian pitkä: sekvensseissä on { $length } kirjainta
dna-error-random-late = random asettaa sekvenssin vain -manual-aloituksessa; nimeä nyt pätkä
dna-error-setup-first = nimeäminen alkaa, kun kaikki sekvenssit on asetettu
dna-error-already-set = olet jo asettanut sekvenssisi; se pysyy piilossa, kunnes kaikki sekvenssit on asetettu
dna-error-all-set = kaikki sekvenssit on jo asetettu: nimeä pätkä
dna-error-preview-setup = ei nimeäminen: aloitus on vielä kesken

## Miten peli päättyi; $why on jokin kahdesta ensimmäisestä

dna-outcome-no-nomination = kukaan pelaaja ei voinut nimetä
dna-outcome-all-eliminated = kaikki jäljellä olleet pelaajat putosivat yhtä aikaa
dna-outcome-longest-wins = { $why }; pisin sekvenssi voittaa
dna-outcome-longest-tie = { $why }; yhtä pitkät pisimmät sekvenssit ovat tasan
dna-outcome-all-resigned = kaikki pelaajat luovuttivat

## Historiarivit

dna-history-passes = pelaajalla { $user } ei ole sallittua nimeämistä, joten hän ohittaa vuoronsa
dna-history-longest-wins = { $user } voittaa pisimmällä sekvenssillä ({ NUMBER($letters) } { $letters ->
    [one] kirjain
   *[other] kirjainta
}): { $why }
dna-history-longest-tie = { $users } ovat tasan pisimmillä sekvensseillä ({ NUMBER($letters) } { $letters ->
    [one] kirjain
   *[other] kirjainta
}): { $why }
dna-history-nomination = { $user }: { $chunk } ({ $effects })
dna-history-out = { $user } putoaa: jäljellä { NUMBER($letters) } { $letters ->
    [one] kirjain
   *[other] kirjainta
}, vähemmän kuin { NUMBER($min) }
dna-history-random-sequence = { $user } asettaa satunnaisen sekvenssin: { $sequence }
dna-history-sequence = { $user } asettaa sekvenssin { $sequence }
dna-history-sets-sequence = { $user } asettaa sekvenssin
dna-history-all-set = Kaikki sekvenssit on asetettu, ja nyt ne näytetään kaikille
dna-history-resigns-frozen = { $user } luovuttaa; hänen sekvenssinsä jää laudalle jäätyneenä
dna-history-resigns-unset = { $user } luovuttaa ennen kuin on asettanut sekvenssin

## Lauta ($length on luku sellaisenaan; $round on first tai later)

dna-board-hidden = { $name } ({ $length }): piilossa
dna-board-no-sequence-yet = { $name }: ei vielä sekvenssiä
dna-board-no-sequence = { $name }: ei sekvenssiä
dna-board-opening-passes = Alussa ei ollut sallittua nimeämistä, vuoronsa ohittivat: { $users }
dna-board-out = (pudonnut)
dna-board-resigned = (luovuttanut)
dna-board-over = Peli on päättynyt
dna-board-setting-up = Aloitus: odotetaan pelaajia { $users }
dna-board-to-nominate = Nimeämisvuorossa: { $users }{ $round ->
    [first] {" "}(ensimmäinen kierros)
   *[later] {""}
}
dna-board-last = Viimeksi: { $user } nimesi pätkän { $chunk } ({ $effects })
dna-board-before = ennen pätkää { $chunk }
dna-board-no-strip = ei vielä sekvenssiä
dna-board-adenine = adeniini
dna-board-cytosine = sytosiini
dna-board-guanine = guaniini
dna-board-thymine = tymiini
dna-board-removed = poistettu viimeisellä nimeämisellä
