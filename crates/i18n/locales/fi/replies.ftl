# Vastaukset komentokielen komentoihin: otsikko (sähköpostin aihe) ja teksti.

language-set-subject = Kieli
language-set = Käyttäjän { $user } vastaukset ja sähköpostit ovat nyt suomeksi.

## Tilit

signup-subject = Tervetuloa Tabulaan
signup-text =
    Tervetuloa, { $user }. Tilisi on valmis.
    Lähetä `help`, niin saat komennot, ja `list`, niin saat pelit.
signoff-subject = Tili suljettu
signoff-text = Tili { $user } on suljettu. Näkemiin.
password-subject = Salasana vaihdettu
password-text = Käyttäjän { $user } salasana on vaihdettu. Tilin kaikki avaimet ja kirjautumisistunnot on päätetty.
address-subject = Osoite vaihdettu
address-text = Käyttäjän { $user } posti menee nyt osoitteeseen { $addresses }.
notify-subject = Ilmoitukset
notify-text = Käyttäjän { $user } sähköposti-ilmoitukset ovat { $state ->
        [on] päällä
       *[off] pois päältä
    }.
vacation-subject = Loma
vacation-text = { $user } on lomalla { $days ->
        [one] { $days } päivän
       *[other] { $days } päivää
    }, { $until } asti: siihen asti ei muistutuksia eikä luovutuksia.
vacation-back = { $user } on palannut lomalta.
limit-subject = Raja
limit-text = { $user } ottaa vastaan haasteita, kun käynnissä on alle { $limit } peliä.
limit-off = Käyttäjällä { $user } ei ole rajaa käynnissä olevien pelien määrälle.
policy-subject = Haastekäytäntö
policy-ask = Haasteet, joissa { $user } on mukana, odottavat nyt, kunnes { $user } hyväksyy ne.
policy-open = Haasteet, joissa { $user } on mukana, alkavat nyt heti.
bot-subject = Bottitili
bot-on =
    { $user } on nyt bottitili: se näytetään bottina, ja sen pelejä pelaa ohjelma.
    Aja ohjelmaa omalla koneellasi komennolla `tabula bot connect URL --token TOKEN -- COMMAND`
    (avaimen saat: `POST /api/v1/tokens`) tai pyydä ylläpitäjää ajamaan se.
    Haasteet alkavat { $policy ->
        [ask] vasta, kun ohjelma hyväksyy ne
       *[open] heti
    } (`policy { $user } PASSWORD open|ask`).
bot-off = { $user } on taas ihmisen tili.

## Lauta: otsikko (sähköpostin aihe), tilarivit ja siirtoluettelo

heading = { $game } lauta { $board }
heading-to-move = { $game } lauta { $board } { $users }
heading-over = { $game } lauta { $board } päättynyt
heading-cancelled = { $game } lauta { $board } peruttu
heading-at-move = { $game } lauta { $board } siirron { $moves } jälkeen
heading-history = { $game } lauta { $board } historia
outcome-won = Pelin voitti { $winner } ({ $reason }).
outcome-drawn = Peli päättyi tasan ({ $reason }).
outcome-drawn-between = Peli päättyi tasan pelaajien { $players } kesken ({ $reason }).
status-challenge-waits = Tämä haaste odottaa hyväksyntää: { $users }.
status-challenge-rejected = Tämä haaste hylättiin.
status-turn = Vuorossa on { $user }.
status-simultaneous = Odotetaan siirtoja: { $users } (siirrot pysyvät salassa, kunnes kaikki ovat tulleet).
status-clock = Peli etenee kellon mukaan: kuka tahansa pelaaja voi siirtää milloin tahansa.
status-proposes-draw = { $user } ehdottaa tasapeliä; hyväksyntää tai hylkäystä odotetaan: { $others }.
status-proposes-undo = { $user } ehdottaa viimeisen siirron perumista; hyväksyntää tai hylkäystä odotetaan: { $others }.
moves-heading = Siirrot:
moves-cut = ({ $lines } aiempaa riviä: history-komento näyttää ne kaikki)
move-taken-back = (peruttu)
history-empty = Ei vielä siirtoja.

## Odottavat siirrot ja esikatselut

queued-text =
    Jonossa seuraavaa vuoroasi varten: { $text }
    (se pelataan silloin, jos se on silloin sallittu)
submitted-text =
    Lähetetty, ei vielä pelattu: { $text }
    Lauta olisi silloin alla olevan näköinen. Pelaa siirto lähettämällä `{ $game } confirm { $board } { $user } PASSWORD`.
preview-text = Esikatselu (mitään ei pelata): { $text }
preview-completes-step = Tämä siirto päättää vaiheen: muiden pelaajien salaiset siirrot näytetään ja vaihe ratkaistaan vasta, kun siirto pelataan. Alla oleva lauta näyttää vain oman osuutesi, ikään kuin muut eivät olisi vielä siirtäneet.
queue-dropped-subject = Lauta { $board }: jonossa ollut siirto hylättiin
queue-dropped-text = Jonossa ollut siirtosi { $text } laudalla { $board } ei ollut sallittu vuorosi tullessa, joten se hylättiin.

## Viestit ja tilaukset

chat-subject = { $game } lauta { $board }: viesti käyttäjältä { $user }
chat-text = { $user } kirjoittaa laudalla { $board } ({ $game }):
chat-sent = Lähetetty laudan { $board } muille pelaajille.
comment-from = Kommentti käyttäjältä { $user }:
subscribed = { $user } saa nyt laudan { $board } päivitykset.
unsubscribed = { $user } ei enää saa laudan { $board } päivityksiä.

## Haasteet, muistutukset ja koosteet

challenged = Sinut on haastettu peliin { $game }, lauta { $board }.
challenged-accept = Sinut on haastettu peliin { $game }, lauta { $board }. Hyväksy komennolla `{ $kind } accept { $board } { $user } PASSWORD` tai kieltäydy komennolla `{ $kind } reject { $board } { $user } PASSWORD`.
reminder-subject = { $game } lauta { $board } { $user }: sinun siirtosi
reminder-text = Muistutus: laudan { $board } ({ $game }) viimeisestä siirrosta on kulunut { $idle }, ja on sinun siirtosi.
forfeit-warning-subject = { $game } lauta { $board } { $user }: aikaa luovutukseen { $left }
forfeit-warning-text = Viimeisestä siirrostasi laudalla { $board } ({ $game }) on kulunut { $idle }. Jos et siirrä, menetät pelin luovutuksena; aikaa on { $left }.
digest-subject = { $game } lauta { $board }: päivän kooste
digest-text = Päivä laudalla { $board } ({ $game }, { $day }): siirtoja teki { $moves }.

## Luettelot, tulokset ja rankingit

games-subject = { $game }: käyttäjän { $user } pelit ({ $which ->
        [active] käynnissä
        [finished] päättyneet
        [waiting] odottavat häntä
       *[all] kaikki
    })
games-line = Lauta { $board }  { $players }  ({ $state })
games-none = Ei lautoja.
boards-state-over = päättynyt
boards-state-cancelled = peruttu
boards-state-proposed = odottaa hyväksyntää
boards-state-running = käynnissä
boards-state-to-move = vuorossa { $users }
standings-subject = { $game }: tulokset
standings-none = Ei vielä päättyneitä pelejä.
ratings-subject = { $game }: rankinglista
ratings-explained = Glicko-2-luvut kaikista päättyneistä peleistä järjestyksessä (alku 1500, poikkeama RD 350; luku on noin 95 %:n varmuudella enintään 2 RD:n päässä todellisesta; usean pelaajan peli lasketaan otteluksi jokaisen parin välillä).
column-player = pelaaja
column-won = voitot
column-lost = tappiot
column-drawn = tasan
column-rating = luku
column-deviation = RD
column-games = pelit
