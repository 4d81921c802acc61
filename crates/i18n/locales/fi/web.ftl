# Verkkosivut: mallien, sivujen koodin ja sivujen skriptin tekstit.
# Tunnisteet, jotka päättyvät -html, ovat merkintää: niiden argumentit
# suojataan, muu näytetään sellaisenaan.

## Jokaisen sivun kehys

nav-games = Pelit
nav-new-game = Uusi peli
nav-tournaments = Turnaukset
nav-your-turn = Sinun vuorosi
nav-waiting = odottaa
nav-my-games = Omat pelit
nav-account = Tili
nav-log-out = Kirjaudu ulos
nav-log-in = Kirjaudu
nav-sign-up = Rekisteröidy
footer = Tabula: DNA, Merkkikorvauspeli, Intervalo, Conway ja Life reaaliajassa postitse, päätteellä, verkossa ja API:n kautta
footer-api = API
language-menu = Kieli

## Pelitaulukot

table-label = Pelit
table-board = Lauta
table-game = Peli
table-players = Pelaajat
table-state = Tila
table-moves = Siirrot
table-updated = Päivitetty
table-moves-unit = { $count ->
    [one] siirto
   *[other] siirtoa
}
badge-bot = botti
state-over = päättynyt
state-rejected = haaste hylätty
state-proposed = odottaa hyväksyntää
state-running = käynnissä
state-to-move = { $players } siirtää
why-move = sinun siirtosi
why-challenge = haaste: hyväksy tai hylkää
why-offer = vastaa tarjoukseen
unknown-game = Tuntematon peli

## Pelilista

games-title = Pelit
games-none-waiting = Mikään peli ei odota sinua.
games-start-hint-html = Aloita peli sivulta <a href="/challenge">Uusi peli</a>: ystävää vastaan hänen käyttäjätunnuksellaan tai jotakin boteista vastaan.
games-filter-game = Peli
games-filter-all-games = kaikki pelit
games-filter-player = Pelaaja
games-filter-user-id = käyttäjätunnus
games-filter-state = Tila
games-state-all = mikä tahansa
games-state-running = käynnissä
games-state-proposed = odottaa hyväksyntää
games-state-active = pelataan
games-state-over = päättynyt
games-state-finished = pelattu loppuun
games-state-cancelled = hylätty
games-filter-show = Näytä
games-none-match = Ei hakua vastaavia pelejä.
games-pages = Sivut
games-newest = Uusimmat pelit
games-older = Vanhemmat pelit

## Pelin sivu

game-your-turn = Sinun vuorosi
game-board-title = { $title }, lauta { $board }
game-board-no = lauta { $board }
game-live-title = Tämä sivu seuraa peliä sitä mukaa kuin se etenee
game-bot-title = tällä paikalla pelaa ohjelma
game-you = (sinä)
game-not-accepted = (ei ole vielä hyväksynyt)
game-challenged = Sinut on haastettu tähän peliin.
button-accept = Hyväksy
button-reject = Hylkää
game-move-join = Liity peliin: ensimmäinen siirtosi
game-move-replace = Siirtosi on annettu: voit vaihtaa sen, kunnes kaikki ovat siirtäneet
game-move-play = Siirtosi
game-move-placeholder-click = napauta lautaa tai kirjoita
game-move-placeholder = kirjoita siirtosi
game-move-button = Siirrä
game-move-help = Miten siirto kirjoitetaan
game-offer-draw = Tarjoa tasapeliä
game-offer-undo = Pyydä siirron perumista
game-resign-confirm = Luovutetaanko tämä peli?
game-resign = Luovuta
game-rematch = Uusintaottelu
game-rematch-help = samat pelaajat ja asetukset uudella laudalla
game-log-in-to-play-html = <a href="{ $href }">Kirjaudu</a> pelataksesi.
game-board-view = Laudan näkymä
game-zoom-in = Lähennä
game-zoom-out = Loitonna
game-zoom-reset = Palauta näkymä
game-tick-soon = Seuraava askel hetken kuluttua
game-replay = Toisto
game-replay-start = Alku
game-replay-previous = Edellinen siirto
game-replay-next = Seuraava siirto
game-replay-latest = Uusin
game-moves = Siirrot
game-chat = Keskustelu
game-no-chat = Ei vielä viestejä.
game-chat-label = Viesti muille pelaajille
game-chat-placeholder = viesti muille pelaajille
game-chat-send = Lähetä
game-chat-players-only = Vain tämän laudan pelaajat kirjoittavat tänne.
game-text-board = Lauta tekstinä
rules-of = Pelin { $title } säännöt
game-options = Asetukset:
options-defaults = oletukset
ladder-title = { $title }: rankinglista
game-your-turn-line = On sinun vuorosi.
game-no-board = Lautaa { $board } ei ole.
game-bad-at = ?at={ $at }: kirjoita siirron numero, 0 tai suurempi
game-unknown-kind = tuntemattoman lajin peli
game-write-move = Kirjoita ensin siirto.
game-move-too-long = { $max ->
    [one] Siirrossa on enintään { $max } merkki.
   *[other] Siirrossa on enintään { $max } merkkiä.
}
game-move-one-line = Siirto on yksi tekstirivi.
game-move-pasted = Kirjoita tähän vain itse siirto, ilman sitä edeltäviä sähköpostikomennon sanoja.
game-no-action = toimintoa { $action } ei ole
game-write-chat = Kirjoita ensin jotakin.
game-chat-too-long = { $max ->
    [one] Keskustelurivillä on enintään { $max } merkki.
   *[other] Keskustelurivillä on enintään { $max } merkkiä.
}
game-answer = vastaa accept tai reject

## Sivun skriptin tekstit (skripti täyttää aaltosulkeissa olevat argumentit)

js-live = suorana
js-reconnecting = yhdistetään uudelleen
js-to-move = ◀ siirtää
js-offer-draw = { $user } tarjoaa tasapeliä.
js-offer-undo = { $user } pyytää perumaan viimeisen siirron.
js-taken-back = (peruttu)
js-no-moves = Ei vielä siirtoja.
js-position-after = siirron { $position }/{ $total } jälkeen
js-position-latest = siirto { $total } (uusin)
js-tick-in = Seuraava askel { $seconds } s kuluttua
js-tick-now = Seuraava askel nyt
js-refused = Palvelin torjui tämän.
js-status = Palvelin vastasi { $status }.
js-not-sent = Ei lähetetty: yhteys katkesi. Yritä uudelleen.

## Pelien aloittaminen

challenge-list-title = Aloita peli
challenge-list-log-in-html = <a href="{ $login }">Kirjaudu</a> tai <a href="{ $signup }">rekisteröidy</a> haastaaksesi muita pelaajia.
challenge-list-about = Pelaa toista käyttäjää tai jotakin palvelimen boteista vastaan: jokaisen pelin lomake tarjoaa ne.
challenge-title = Haaste: { $title }
challenge-heading = { $title }: uusi peli
challenge-ladder = Pelin { $title } rankinglista
challenge-log-in-html = <a href="{ $login }">Kirjaudu</a> tai <a href="{ $signup }">rekisteröidy</a> aloittaaksesi pelin.
challenge-players = Pelaajat vuorojärjestyksessä
challenge-players-placeholder = sinä ja vastustajasi
challenge-players-range = { $min }–{ $max } käyttäjätunnusta välilyönnein erotettuina.
challenge-players-exact = { $count ->
    [one] { $count } käyttäjätunnus.
   *[other] { $count } käyttäjätunnusta välilyönnein erotettuina.
}
challenge-bots-as-html = Botit pelaavat nimellä <code>bot:NIMI</code>.
challenge-bot = Pelaa bottia vastaan
challenge-no-bot = ei bottia
challenge-bot-help-html = Liittyy viimeiseksi pelaajaksi ja siirtää heti, kun on sen vuoro ({ $bots }; <code>bot:mcts</code> on vahvin).
challenge-options = Asetukset
challenge-default = oletus
challenge-default-is = oletus ({ $default })
challenge-not-set = ei asetettu
challenge-start = Aloita peli
challenge-accepts-range = { $min }–{ $max }
challenge-accepts-text = { $min }–{ $max } merkkiä: { $accepts }
challenge-accepts-duration = kesto, esimerkiksi 30m, 12h, 7d tai 2w, { $min }–{ $max } (pelkkä luku on yksikössä { $unit })
challenge-no-game = Täällä ei ole peliä { $kind }.
challenge-no-such-bot = Pelille { $title } ei ole täällä bottia { $bot }.
challenge-name-players = Nimeä pelaajat vuorojärjestyksessä.
challenge-option-spaces = -{ $option }: arvossa ei ole välilyöntejä
challenge-too-many-fields = liian monta lomakkeen kenttää
challenge-rematch-refused = Vain päättyneen pelin pelaaja voi pyytää uusintaottelua.

## Käyttäjät ja rankinglistat

user-built-in-bot = Sisäänrakennettu botti, jota palvelin pelaa.
user-hosted-bot = Bottitili: sen pelejä pelaa ohjelma, jota palvelin ajaa. Pelannut { $since } alkaen.
user-bot = Bottitili: sen pelejä pelaa ohjelma. Pelannut { $since } alkaen.
user-since = Pelannut { $since } alkaen.
user-closed = Tämä tili on suljettu.
user-challenge = Haasta { $user }
user-running = Käynnissä olevat pelit
user-finished = Päättyneet pelit
user-none-running = Ei käynnissä olevia pelejä.
user-none-finished = Ei vielä päättyneitä pelejä.
ladder-about = Jokaisen pelaajan, ihmisten ja bottien, Glicko-2-luvut pelin { $title } kaikista päättyneistä peleistä päättymisjärjestyksessä. Luku alkaa 1500:sta poikkeamalla (RD) 350; todellinen taso on noin 95 %:n varmuudella kahden poikkeaman päässä luvusta, ja poikkeama pienenee pelien myötä. Usean pelaajan peli lasketaan otteluksi jokaisen parin välillä.
ladder-start = Aloita peli { $title }
ladder-games = Pelin { $title } pelit
ladder-label = Rankinglista
ladder-rank = Sija
ladder-player = Pelaaja
ladder-rating = Luku
ladder-rd = RD
ladder-games-played = Pelit
ladder-won = Voitot
ladder-lost = Tappiot
ladder-drawn = Tasapelit
ladder-more = Ensimmäiset { $shown } pelaajaa { $total }:sta.
ladder-none = Pelistä { $title } ei ole vielä päättyneitä pelejä.
no-game = Peliä { $kind } ei ole.

## Rekisteröityminen, kirjautuminen ja tili

field-user-id = Käyttäjätunnus
field-password = Salasana
login-new-here-html = Uusi täällä? <a href="{ $href }">Rekisteröidy</a>.
signup-user-help-html = Kirjaimia, numeroita, <code>_ - .</code>; alussa kirjain. Myös nimesi sähköpostikomennoissa.
signup-password-help = Ei välilyöntejä. Sähköpostikomennot käyttävät sitä myös, joten älä käytä arvokasta salasanaa uudelleen.
signup-password-again = Salasana uudelleen
signup-email = Sähköposti (vapaaehtoinen)
signup-email-help = Ilmoituksia ja sähköpostitse pelaamista varten.
signup-have-account-html = Onko sinulla tili? <a href="{ $href }">Kirjaudu</a>.
login-wrong = Väärä käyttäjätunnus tai salasana.
signup-passwords-differ = Salasanat eivät ole samat.
form-expired = Tämä lomake on vanhentunut tai ei tullut tältä sivustolta. Lataa sivu uudelleen ja yritä uudestaan.
form-bad = virheellinen lomake: { $error }
bad-address = virheellinen osoite: { $error }
log-in-first = Kirjaudu ensin.
account-heading = Tili: { $user }
account-settings = Asetukset
account-notify = Ilmoitukset sähköpostilla
account-notify-on = Lähetä postia, kun on vuoroni ja kun peleissäni tapahtuu jotakin
account-notify-off = Ei postia
account-notify-save = Tallenna ilmoitukset
account-language = Kieli
account-language-about = Sivut ja posti tulevat tällä kielellä kaikilla laitteilla, joilla kirjaudut sisään.
account-language-save = Tallenna kieli
account-vacation = Loma
account-vacation-until = Lomalla { $until } asti: ei muistutuksia eikä luovutuksia siihen asti.
account-vacation-none = Ei lomalla.
account-vacation-days = Poissa päiviä (tyhjä: palannut lomalta)
account-vacation-save = Tallenna loma
account-policy = Minut nimeävät haasteet
account-policy-open = Alkavat heti
account-policy-ask = Odottavat, kunnes hyväksyn ne
account-policy-save = Tallenna haastekäytäntö
account-limit = Pelirajoitus
account-limit-label = Enintään näin monta käynnissä olevaa peliä, joihin minut voi haastaa (tyhjä: ei rajaa)
account-limit-save = Tallenna pelirajoitus
account-emails = Sähköpostiosoitteet
account-emails-label = Osoitteet, ensimmäinen saa postin
account-your-password = Salasanasi
account-emails-save = Vaihda osoitteet
account-password-current = Nykyinen salasana
account-password-new = Uusi salasana
account-password-new-again = Uusi salasana uudelleen
account-password-ends = Kaikki muut kirjautumisistunnot ja API-tunnisteet päättyvät.
account-password-save = Vaihda salasana
account-tokens = API-tunnisteet
account-tokens-about-html = Ohjelmat ja botit käyttävät tunnistetta salasanasi sijaan: <code>Authorization: Bearer TOKEN</code> <a href="/api/openapi.json">API:n</a> pyynnöissä ja <code>-</code> komentojen salasanasanana.
account-token-new = Uusi tunnisteesi, näytetään vain tämän kerran:
account-token-name = Nimi
account-token-made = Luotu
account-token-used = Viimeksi käytetty
account-token-revoke = Mitätöi
account-token-no-name = (ei nimeä)
account-token-never = ei koskaan
account-token-revoked = mitätöity { $when }
account-tokens-none = Ei vielä tunnisteita.
account-token-new-name = Uuden tunnisteen nimi
account-token-placeholder = bottini
account-token-make = Luo tunniste
account-no-token = Tällaista tunnistetta ei ole.
account-close = Sulje tili
account-close-about = Poistut jokaisesta käynnissä olevasta pelistä (luovuttaen) etkä voi enää kirjautua. Pelatut pelit säilyvät arkistossa.
account-close-confirm = Haluan todella sulkea tilini
account-close-ask = Suljetaanko tilisi lopullisesti?
account-close-button = Sulje tilini
account-done-password = Salasanasi on vaihdettu. Kaikki muut kirjautumisistunnot ja tunnisteet ovat päättyneet.
account-done-emails = Osoitteesi on vaihdettu.
account-done-notify = Ilmoitusasetuksesi on tallennettu.
account-done-vacation = Lomasi on tallennettu.
account-done-limit = Pelirajoituksesi on tallennettu.
account-done-policy = Haastekäytäntösi on tallennettu.
account-done-language = Kielesi on tallennettu.
account-new-passwords-differ = Uudet salasanat eivät ole samat.
account-not-a-number = { $value } ei ole kokonaisluku
account-tick-to-close = Rastita ruutu vahvistaaksesi, että haluat sulkea tilin.
account-no-setting = Asetusta { $setting } ei ole.

## Virhesivut

error-title = { $status ->
    [400] Virheellinen pyyntö
    [401] Ei tunnistettu
    [403] Kielletty
    [404] Ei löydy
    [405] Menetelmä ei käy
    [409] Ristiriita
    [413] Liian suuri pyyntö
    [429] Liian monta pyyntöä
    [500] Palvelimen sisäinen virhe
    [503] Palvelu ei käytettävissä
   *[other] Virhe
}
error-back = Takaisin peleihin
error-no-page = Tällaista sivua ei ole.
error-method = { $path } ei ota vastaan { $method }-pyyntöjä
error-internal-page = sisäinen virhe: sivua ei voitu tehdä

## Turnaukset

tournaments-about-html = Bottien väliset sarjaturnaukset, ajettu komennolla <code>tabula tournament</code> tämän palvelimen tietokantaan. Mukana ovat sisäänrakennetut botit ja bottiprotokollaa puhuvat ohjelmat.
tournaments-number = Nro
tournaments-bots = Botit
tournaments-games = Pelit
tournaments-started = Alkoi
tournaments-won-by-html = voittaja <strong>{ $leader }</strong>
tournaments-running = käynnissä
tournaments-none = Ei vielä turnauksia. Aja sellainen esimerkiksi näin:
tournament-title = Turnaus { $id }: { $title }
tournament-heading = { $title }: turnaus
tournament-finished = { $games ->
    [one] Päättyi { $when }: { $games } peli.
   *[other] Päättyi { $when }: { $games } peliä.
}
tournament-running = Käynnissä (tai pysähtynyt): { $done }/{ $total } peliä pelattu; alla olevat luvut koskevat niitä.
tournament-setup-html = { $players } bottia pelissä, { $games ->
    [one] { $games } peli
   *[other] { $games } peliä
} { $players ->
    [2] paria
   *[other] yhdistelmää
} kohden, siemen { $seed }, asetukset oletukset; alkoi { $started }.
tournament-setup-options-html = { $players } bottia pelissä, { $games ->
    [one] { $games } peli
   *[other] { $games } peliä
} { $players ->
    [2] paria
   *[other] yhdistelmää
} kohden, siemen { $seed }, asetukset <code>{ $options }</code>; alkoi { $started }.
tournament-standings = Sarjataulukko
tournament-standings-about = Järjestetty voitettujen pelien mukaan (tasapelit eivät lasketa), sitten luvun. Luku on Bradley–Terry-sovitus kaikista peleistä Elo-asteikolla (keskiarvo 1500).
tournament-bot = Botti
tournament-wins = Voitot
tournament-losses = Tappiot
tournament-draws = Tasapelit
tournament-win-rate = Voitto-osuus
tournament-interval = 95 %:n väli
tournament-failures = Viat
tournament-ratings = Luvut
tournament-win-rates = Voitto-osuudet ja niiden 95 %:n välit
tournament-head-to-head = Keskinäiset ottelut
tournament-head-to-head-about = Rivin botin voitot-tappiot-tasapelit peleissä, jotka se pelasi sarakkeen bottia vastaan.
tournament-failed-games = { $count ->
    [one] { $count } peli päättyi botin vikaan (kaatuminen, aika, laiton siirto): merkitty alle.
   *[other] { $count } peliä päättyi botin vikaan (kaatuminen, aika, laiton siirto): merkitty alle.
}
tournament-games-count = { $count ->
    [one] { $count } peli
   *[other] { $count } peliä
}
tournament-games-shown-html = (näytetään ensimmäiset { $shown }; kaikki <a href="{ $href }">API:n</a> kautta)
tournament-seats = Paikat
tournament-winner = Voittaja
tournament-scores = Pisteet
tournament-ending = Miten päättyi
tournament-game-link = Peli { $number }: paikat, siemen, tulokset ja viat
tournament-draw = tasapeli
tournament-bot-said = { $bot }: mitä se sanoi
tournament-no-stderr = (ei mitään sen virhetulosteessa)
tournament-json-html = JSON-muodossa: <a href="{ $standings }">sarjataulukko ja keskinäiset ottelut</a>, <a href="{ $games }">pelit</a>.
tournament-cell = { $row } vastaan { $column }: { $won } voittoa, { $lost } tappiota, { $drawn } tasapeliä
tournament-rating-chart = Luvut (Bradley–Terry, Elo-asteikko, keskiarvo 1500)
tournament-win-chart = Voitto-osuudet ja niiden 95 %:n välit
tournament-not-a-number = { $text } ei ole turnauksen numero
tournament-none = turnausta { $id } ei ole
tournament-damaged = turnaus { $id } on tallennettu vaurioituneena

## The API's own errors (the service's errors come from errors.ftl)

bad-query = virheelliset kyselyparametrit: { $error }
limit-range = rajan on oltava 1–{ $max }
api-internal = sisäinen virhe
api-not-a-board = { $text } ei ole laudan numero
api-body-too-large = pyynnön runko saa olla enintään { $bytes } tavua
api-body-shape = rungon on oltava JSONia { $shape }: { $error }
api-request-timeout = pyynnön runko ei saapunut { $seconds } sekunnissa
api-no-game = peliä { $kind } ei ole
api-not-a-state = { $word } ei ole tila: käytä sanoja proposed, active, finished, cancelled, running, over tai all
api-too-few-moves = { $moves ->
    [one] laudalla { $board } on vain { $moves } siirto
   *[other] laudalla { $board } on vain { $moves } siirtoa
}
api-needs-token = tähän tarvitaan `Authorization: Bearer TOKEN`
api-bad-authorization = Authorization-otsakkeen on oltava muotoa `Bearer TOKEN`
api-not-a-token-id = { $id } ei ole tunnisteen numero
api-no-resource = API:ssa ei ole resurssia { $path }
api-busy-replays = osoitteellesi valmistellaan jo { $count } uudelleentoistoa: odota niitä
bot-events-need-token = botin tapahtumiin tarvitaan sen tunniste: `Authorization: Bearer TOKEN` (tai ?token=)
bot-events-not-a-bot = { $user } ei ole bottitili: merkitse se ensin komennolla `bot on { $user } PASSWORD`
bot-events-hosted = palvelin ajaa käyttäjän { $user } ohjelmaa itse (`tabula bot remove { $user }` lopettaa sen)
bot-events-too-many = enintään { $max } lautaa
