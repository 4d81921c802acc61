# rewrite: its title, the one line `list` shows, the rules and the move
# syntax that `help rewrite` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language. The Finnish rules use the words of the game's own community:
# merkkijono, sääntö, tavoite, laajenne (a rule's right side), säännöstö,
# kierros, osuma.

rewrite-title = Merkkikorvauspeli
rewrite-summary = salaiset tavoitteet ja salaiset korvaussäännöt, jotka paljastuvat yhtä aikaa: muuta lopullinen merkkijono mieleiseksesi
rewrite-rules =
    Merkkikorvauspeli (englanniksi Rewrite) on suomalainen peli, jossa merkkijonoa muokataan korvaussäännöillä. Jokainen pelaaja valitsee salaa tavoitteen: 3 kirjaimen merkkijonon (-goal_length) tai asetuksella -regex_goals säännöllisen lausekkeen, jossa on vähintään yhtä monta kirjainta. Pöydän merkkijono on aluksi aakkosto (atcg). Jokaisella kierroksella kukin pelaaja kirjoittaa salaa yhden säännön muotoa vasen=>oikea, ja kierroksen kaikki säännöt paljastetaan yhtä aikaa. Säännön vasen puoli ei saa olla tyhjä eikä sama kuin pöydän merkkijono; laajenne eli oikea puoli saa olla tyhjä, mutta siinä ei saa olla pelaajan omaa tavoitetta (eikä se saa täsmätä tavoitteeseen). Ensin pöydän merkkijonoon sovelletaan kierroksen säännöstö ja sen jälkeen jokaisen aiemman kierroksen säännöstö uusimmasta vanhimpaan. Säännöstö sovelletaan yhdellä läpikäynnillä alusta loppuun: kussakin kohdassa toteutuu sääntö, jonka täsmäävä vasen puoli on pisin, ja jos vasemmat puolet ovat samat, se, jonka laajenne on lyhin; jos säännöt ovat yhä tasoissa, siinä kohdassa ei toteudu mikään. Laajenteita ei korvata uudelleen samalla läpikäynnillä, ja kohdasta, johon mikään sääntö ei täsmää, yksi merkki siirtyy tulokseen sellaisenaan. Viimeisen kierroksen jälkeen (-rounds=3) tavoitteet paljastetaan ja osumat lasketaan lopullisesta merkkijonosta (myös päällekkäiset osumat lasketaan). Eniten osumia saanut voittaa; tasatilanteessa voittaa se tasoissa olevista, jonka sääntöä sovellettiin viimeksi, ja muuten peli päättyy tasan.

    ESIMERKKI. Viisi pelaajaa, H, Y, I, G ja M, valitsevat tavoitteikseen aag, acc, ctc, acg ja tca. Kierros 1, merkkijono atcg: H tcg=>ag, Y t=>ac, I g=>tc, G at=>ta, M g=>at. Alussa toteutuu G:n at=>ta; c siirtyy sellaisenaan; I:n ja M:n säännöt g:lle ovat tasoissa (sama vasen puoli, yhtä pitkät laajenteet), joten myös g siirtyy sellaisenaan: tacg. Kierros 2: H ac=>aa, Y tac=>atc, I ta=>ct, G c=>ac, M t=>tc. Alussa voittaa pisin vasen puoli, Y:n tac=>atc, ja tulos on atcg; sitten säännöstö 1 muuttaa sen takaisin muotoon tacg. Kierros 3: H cg=>gg, Y cg=>tctc, I g=>tc, G tac=>tac, M acg=>ca. Säännöstö 3 tuottaa merkkijonon tactc, säännöstö 2 merkkijonon atctcac ja säännöstö 1 merkkijonon tacaccac. Siinä on vain Y:n tavoite acc (tacACCac): Y voittaa yhdellä osumalla (ja olisi voittanut tasatilanteenkin, sillä viimeksi sovellettu sääntö oli Y:n t=>ac).
rewrite-move-help =
    goal aag      valitse salainen tavoitteesi (voit vaihtaa sitä, kunnes kaikki tavoitteet on valittu)
    tcg=>ag       salainen sääntösi tälle kierrokselle (voit vaihtaa sitä, kunnes kaikki ovat lähettäneet omansa)
    tcg=>         sääntö, jonka oikea puoli on tyhjä
    tcg->ag       sama sääntö: => voidaan kirjoittaa myös ->

    Komentorivillä sääntö on kirjoitettava lainausmerkkeihin: komentotulkki tulkitsee merkin > uudelleenohjaukseksi, joten ilman lainausmerkkejä t=>ac (tai t->ac) lähettää siirron t= ja kirjoittaa tiedoston nimeltä ac:
    tabula rewrite move 1 ned SALASANA 'tcg=>ag'
