# Ohjeet: yleinen ohje, komennon ja pelin ohje sekä pelien luettelo.
# Komentojen syntaksirivit kuuluvat protokollaan eivätkä käänny.

help-subject = Tabulan ohje
help-subject-topic = Ohje: { $topic }
help-intro =
    Tabulassa pelataan pieniä moninpelejä sähköpostilla, päätteeltä, verkossa
    tai HTTP-rajapinnan kautta. Kaikki reitit ottavat samat komennot.

    Aloita näin: rekisteröidy, haasta muita pelaajia ja siirrä, kun on vuorosi.
    Siirroissa on mukana käyttäjätunnuksesi ja salasanasi, kuten pbmservissä:

        signup ned secret ned@example.org
        dna challenge ned ted jed
        dna move 1 ned secret AAG
        dna show 1

    Komennot (GAME on jokin näistä: { $games }):
help-outro = `help GAME` kertoo pelin säännöt, valinnat ja siirtojen muodon; `list` luettelee tarjolla olevat pelit.
help-game-starts = aloittaa pelin, jossa on { $players }, annetussa järjestyksessä.
help-rules-heading = Säännöt
help-moves-heading = Siirrot
help-options-heading = Valinnat
help-game-also =
    Jokainen peli ottaa myös `help`-ohjeen komennot (show, showas, history, luovutus,
    tasapeli- ja peruutusehdotukset, submit/confirm, chat, subscribe ...).
help-game-also-queue =
    Jokainen peli ottaa myös `help`-ohjeen komennot (show, showas, history, luovutus,
    tasapeli- ja peruutusehdotukset, queue, submit/confirm, chat, subscribe ...).
players-fixed = { $count ->
        [one] { $count } pelaaja
       *[other] { $count } pelaajaa
    }
players-range = { $min }–{ $max } pelaajaa
list-subject = Tabulan pelit
list-heading = Tarjolla olevat pelit:
list-players-range = { $min }–{ $max } pelaajaa
list-outro = `help GAME` kertoo, miten peliä pelataan.
dynamics-sequential = vuorotellen
dynamics-simultaneous = samanaikaiset salaiset siirrot
dynamics-realtime = reaaliajassa
option-range = { $min }–{ $max }
option-text-range = { $accepts }, { $min }–{ $max } merkkiä
option-default = oletus { $value }

## Mitä kukin komento tekee

syntax-signup = luo tili
syntax-change-password = vaihda salasanasi
syntax-change-address = vaihda sähköpostiosoitteesi
syntax-signoff = sulje tilisi (luovutat käynnissä olevat pelisi)
syntax-notify = sähköposti-ilmoitukset päälle tai pois
syntax-vacation = keskeytä muistutukset ja luovutukset poissaolosi ajaksi
syntax-limit = ota vastaan enintään N käynnissä olevaa peliä
syntax-policy = aloita haasteet heti tai pyydä sinua hyväksymään ne
syntax-language = lue vastaukset ja sähköpostit suomeksi, espanjaksi tai englanniksi
syntax-bot = merkitse tilisi botiksi, jota ohjelma pelaa (`tabula bot connect`), tai taas ihmiseksi
syntax-help = tämä teksti tai pelin säännöt, valinnat ja siirtojen muoto
syntax-list = tarjolla olevat pelit
syntax-challenge = aloita peli (botit: bot:random, bot:mcts ..)
syntax-accept = hyväksy sinua odottava haaste
syntax-reject = kieltäydy haasteesta
syntax-move = tee siirto; #MOVENO hylkää sen, jos laudalla on jo siirrytty eteenpäin
syntax-move-resign = luovuta
syntax-move-propose = ehdota tasapeliä (kaikkien muiden pelaajien on hyväksyttävä)
syntax-move-undo = pyydä viimeisen siirron perumista (kaikkien muiden pelaajien on hyväksyttävä)
syntax-move-accept = hyväksy odottava tasapeli- tai peruutusehdotus
syntax-move-reject = hylkää odottava tasapeli- tai peruutusehdotus
syntax-queue = tallenna siirto pelattavaksi vuorollasi, jos se on yhä sallittu
syntax-submit = tallenna siirto ja esikatsele sitä; pelaa se komennolla confirm
syntax-confirm = pelaa lähettämäsi siirto
syntax-preview = näytä lauta sellaisena kuin se olisi siirron MOVE jälkeen
syntax-show = lauta (sellaisena kuin se oli siirron MOVENO jälkeen)
syntax-showas = lauta sellaisena kuin sinä sen näet, salaisuuksinesi
syntax-history = laudan kaikki siirrot
syntax-games = käyttäjän laudat
syntax-standings = jokaisen pelaajan voitot, tappiot ja tasapelit
syntax-ratings = rankinglista: Glicko-2-luvut päättyneistä peleistä
syntax-chat = viesti laudan muille pelaajille
syntax-subscribe = tilaa laudan päivitykset
syntax-unsubscribe = lopeta niiden tilaus
