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

## Asetukset, kuten `help rewrite` ja haastelomake ne kuvaavat

rewrite-option-alphabet = pelin kirjaimet; pöydän merkkijono on aluksi jokainen kirjain kerran, järjestyksessä
rewrite-option-alphabet-accepts = eri pieniä kirjaimia a-z
rewrite-option-rounds = sääntöjen kirjoittamisen kierrokset
rewrite-option-goal_length = kirjaimia tavoitteessa (säännöllisenä lausekkeena annetussa tavoitteessa vähintään näin monta)
rewrite-option-regex_goals = tavoitteet ovat säännöllisiä lausekkeita (kirjaimet, . [ ] ( ) | * + ? {"{"}m,n{"}"} ^ $)
rewrite-option-max_rhs = enintään näin monta kirjainta säännön laajenteessa (oikealla puolella)
rewrite-option-max_length = pöydän merkkijono ei koskaan kasva tätä pidemmäksi: pidempi tulos katkaistaan tähän

## Hylkäykset: asetukset, tavoitteet ja säännöt ($letter ja $text ovat syöte lainausmerkeissä)

rewrite-error-alphabet-letter = { $letter } ei ole pieni kirjain a-z
rewrite-error-alphabet-twice = { $letter } on annettu kahdesti (kohdassa { $position })
rewrite-error-max-length = -max_length={ $max } on lyhyempi kuin alkumerkkijono { $alphabet } (-alphabet)
rewrite-error-goal-word = kirjoita tavoite sanan goal jälkeen: goal aag
rewrite-error-rule-spaces = { $text }: säännön puolissa ei ole välilyöntejä
rewrite-error-not-a-move = { $text } ei ole siirto: kirjoita goal aag valitaksesi tavoitteesi, tai sääntö kuten tcg=>ag
rewrite-error-goal-first = sääntö 1: valitse ensin salainen tavoitteesi (goal aag); sääntöjä kirjoitetaan, kun kaikki tavoitteet on valittu
rewrite-error-goals-fixed = sääntö 1: tavoitteet ovat lukittuja, kun kaikki tavoitteet on valittu
rewrite-error-lhs-empty = sääntö 3: säännön vasen puoli ei saa olla tyhjä merkkijono
rewrite-error-letter = -alphabet: { $letter } ei ole mikään kirjaimista { $alphabet }
rewrite-error-lhs-long = vasemmalla puolella saa olla enintään { $max } kirjainta, ei { $given }
rewrite-error-lhs-table = sääntö 3: vasen puoli ei saa olla täsmälleen pöydän merkkijono ({ $lhs })
rewrite-error-rhs-long = -max_rhs: laajenteessa (oikealla puolella) saa olla enintään { $max } kirjainta, ei { $given }
rewrite-error-rhs-goal = sääntö 3: laajenne ei saa { $how ->
    [match] täsmätä omaan tavoitteeseesi
   *[contain] sisältää omaa tavoitettasi
} ({ $goal })
rewrite-error-goal-long = tavoitteessa saa olla enintään { $max } merkkiä
rewrite-error-goal-length = sääntö 1: tavoite on tasan { $length } kirjaimen merkkijono (-goal_length), ei { $given }
rewrite-error-pattern-group = merkkien (? jälkeen sallitaan vain (?: )-ryhmät
rewrite-error-pattern-char = { $letter } ei käy tavoitteen lausekkeessa (käytä kirjaimia { $alphabet } ja merkkejä . [ ] ^ - ( ) (?: ) | * + ? {"{"}m,n{"}"} $)
rewrite-error-pattern-letters = sääntö 1: tavoitteen lausekkeessa on vähintään { $length } kirjainta (-goal_length) metamerkkejä laskematta; lausekkeessa { $text } on { $given }
rewrite-error-pattern-invalid = { $text } ei ole kelvollinen säännöllinen lauseke: { $problem }
rewrite-error-pattern-empty = sääntö 1: tavoite ei saa täsmätä tyhjään merkkijonoon
rewrite-error-pattern-nothing = sääntö 1: tavoitteen pitää voida täsmätä johonkin
rewrite-error-goal-complex = tavoite { $text } on liian monimutkainen: { $problem }

## Miten peli päättyi

rewrite-outcome-others-resigned = kaikki muut pelaajat luovuttivat
rewrite-outcome-most-hits = eniten osumia ({ NUMBER($hits) } { $hits ->
    [one] osuma
   *[other] osumaa
})
rewrite-outcome-tie-applied-last = tasan { NUMBER($hits) } { $hits ->
    [one] osumalla
   *[other] osumalla
}; pelaajan { $user } sääntöä sovellettiin viimeksi
rewrite-outcome-tie-never-applied = tasan { NUMBER($hits) } { $hits ->
    [one] osumalla
   *[other] osumalla
}; yhdenkään tasoissa olevan pelaajan sääntöä ei sovellettu koskaan

## Historiarivit

rewrite-history-goals-in = Kaikki tavoitteet on valittu. Kierros 1: kirjoittakaa sääntönne.
rewrite-history-round-rules = Kierroksen { $round } säännöt: { $rules }.
rewrite-history-cut = Kierros { $round }, säännöstö { $set }: merkkijono katkaistiin { NUMBER($letters) } kirjaimen kohdalta (-max_length).
rewrite-history-pass = säännöstö { $set }: { $input } -> { $output }
rewrite-history-round = Kierros { $round }: { $passes }.
rewrite-history-next-round = Kierros { $round }: kirjoittakaa sääntönne.
rewrite-history-goal = { $user } { $goal } ({ NUMBER($hits) } { $hits ->
    [one] osuma
   *[other] osumaa
})
rewrite-history-no-goal = { $user } (ei tavoitetta)
rewrite-history-over = Peli on päättynyt. Tavoitteet: { $goals }.
rewrite-history-wins = { $user } voittaa: { $reason }.
rewrite-history-draw = Tasapeli: { $reason }.
rewrite-history-goal-changes = { $user } vaihtaa tavoitteekseen { $goal }
rewrite-history-goal-changed = { $user } vaihtoi tavoitteensa
rewrite-history-goal-chooses = { $user } valitsee tavoitteeksi { $goal }
rewrite-history-goal-chose = { $user } valitsi tavoitteen
rewrite-history-rule-replaces = { $user } vaihtaa kierroksen { $round } sääntönsä sääntöön { $rule }
rewrite-history-rule-replaced = { $user } vaihtoi kierroksen { $round } sääntönsä
rewrite-history-rule-writes = { $user } kirjoittaa kierrokselle { $round } säännön { $rule }
rewrite-history-rule-wrote = { $user } kirjoitti säännön kierrokselle { $round }

## Mikä tavoitteen lausekkeessa on vialla ($problem viestissä rewrite-error-pattern-invalid)

rewrite-regex-class-unclosed = merkkiluokan hakasulje [ jää sulkematta
rewrite-regex-class-range = merkkiluokan väli on väärin päin: alun on oltava enintään loppu
rewrite-regex-class-range-literal = merkkiluokan välin päiden on oltava kirjaimia
rewrite-regex-group-unclosed = sulje ( jää sulkematta
rewrite-regex-group-unopened = sulkeella ) ei ole alkua
rewrite-regex-repetition-missing = toistomerkin (* + ? {"{"}m,n{"}"}) edessä ei ole mitään toistettavaa
rewrite-regex-count-range = toistomäärän väli {"{"}m,n{"}"} on väärin päin: m saa olla enintään n
rewrite-regex-count-unclosed = toistomäärän aaltosulje {"{"} jää sulkematta
rewrite-regex-count-empty = toistomäärässä {"{"}m,n{"}"} pitää olla luku
rewrite-regex-decimal-empty = toistomäärästä puuttuu luku
rewrite-regex-decimal-invalid = toistomäärän luku ei kelpaa
rewrite-regex-nesting = sisäkkäisiä sulkeita tai hakasulkeita on enemmän kuin { $limit }
# Muu ongelma: jäsentimen oma englanninkielinen rivi lainattuna.
rewrite-regex-other = lausekkeen jäsennin ilmoittaa: { $detail }

## Lauta ($round, $rounds, $set, $letters, $length, $pos ja $count ovat lukuja sellaisinaan; $cut on yes tai no)

rewrite-board-heading = Merkkikorvauspeli, aakkosto { $alphabet }: { $status }
rewrite-board-choosing-goals = tavoitteiden valinta
rewrite-board-writing-rules = kierros { $round }/{ $rounds }: sääntöjen kirjoittaminen
rewrite-board-over = päättyi { $round }/{ $rounds } kierroksen jälkeen
rewrite-board-table = Pöydän merkkijono:
rewrite-board-start = alussa
rewrite-board-round = kierros { $round }
rewrite-board-cut = (katkaistu { $letters } kirjaimen kohdalta, -max_length)
rewrite-board-shown-long = { $text } ({ $length } kirjainta)
rewrite-board-rules = Säännöt:
rewrite-board-set = kierros { $round }:
rewrite-board-trace = Kierros { $round } säännöstö kerrallaan:
rewrite-board-pass = säännöstö { $set }: { $input } -> { $output }  ({ NUMBER($applications) } { $applications ->
    [one] sovellus
   *[other] sovellusta
}{ $cut ->
    [yes] , katkaistu (-max_length)
   *[no] {""}
})
rewrite-board-step = { $user } { $rule } kohdassa { $pos }
rewrite-board-more = ... ja { $count } muuta
rewrite-board-your-goal = Tavoitteesi: { $goal }
rewrite-board-your-rule = Sääntösi kierrokselle { $round }: { $rule } (voit vaihtaa sen, kunnes kaikki ovat kirjoittaneet sääntönsä)
rewrite-board-waiting = Odotetaan: { $users }
rewrite-board-results = Tavoitteet ja osumat lopullisessa merkkijonossa:
rewrite-board-no-goal = { $user } (ei tavoitetta)
rewrite-board-goal = { $user } { $goal } { NUMBER($hits) } { $hits ->
    [one] osuma
   *[other] osumaa
}
