# Komentorivin omat sanat palvelun vastausten ympärillä.

cli-help-game-more = `tabula help { $game }` kertoo pelin säännöt, valinnat ja siirrot.
cli-calculator = Laskin: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } ottaa pelikomennon, joka alkaa verbillä: `tabula help { $game }` luettelee ne
cli-game-verb-calculator = { $game } ottaa pelikomennon, joka alkaa verbillä: `tabula help { $game }` luettelee ne; laskin on `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` luettelee komennot)

## clap's own words in a command's help (English help is clap's own)

cli-help-verb = Komennot tai pelin säännöt, valinnat ja siirtojen muoto
cli-heading-usage = Käyttö:
cli-heading-options = Valinnat
cli-heading-arguments = Argumentit
cli-heading-commands = Komennot
cli-heading-global = Yleiset valinnat (ennen komentoa tai sen jälkeen)
cli-flag-help = Näytä ohje
cli-flag-help-more = Näytä ohje (lisää: '--help')
cli-flag-help-summary = Näytä ohje (tiivistelmä: '-h')
cli-flag-version = Näytä versio
cli-default = [oletus: { $value }]
cli-choices = [mahdolliset arvot: { $values }]
cli-choices-heading = Mahdolliset arvot:

## clap's errors (English errors are clap's own)

cli-error = virhe:
cli-error-unknown-argument = odottamaton argumentti '{ $arg }'
cli-error-unknown-command = tuntematon komento '{ $command }'
cli-error-invalid-value = virheellinen arvo '{ $value }' valinnalle '{ $arg }'
cli-error-value-required = valinta '{ $arg }' tarvitsee arvon, mutta sitä ei annettu
cli-error-missing = nämä pakolliset argumentit puuttuvat: { $args }
cli-error-conflict = argumenttia '{ $arg }' ei voi käyttää yhdessä argumentin '{ $other }' kanssa
cli-error-twice = argumenttia '{ $arg }' ei voi antaa useammin kuin kerran
cli-error-too-many = odottamaton arvo '{ $value }' valinnalle '{ $arg }'; enempää arvoja ei odotettu
cli-error-no-equals = valinnan '{ $arg }' arvo annetaan yhtäsuuruusmerkillä
cli-error-did-you-mean = vihje: samankaltainen on olemassa: '{ $suggestion }'
cli-error-more = Lisätietoja: '--help'.
cli-error-no-command = komentoa ei annettu
cli-error-not-utf8 = { $word } ei ole UTF-8:aa

## The server's own commands (serve, backup, outbox, cron, worker)

op-serving = Tabula palvelee osoitteessa { $url }
op-receiving-smtp = Tabula vastaanottaa postia SMTP:llä osoitteessa { $address }
op-listening = kuunneltaessa osoitetta { $address }
op-listening-smtp = kuunneltaessa SMTP:tä osoitteessa { $address }
op-serving-failed = palveltaessa osoitteessa { $address }
op-opening-database = avattaessa tietokantaa { $db }
op-backup-postgres =
    backup kopioi SQLite-tietokannan; varmuuskopioi PostgreSQL komennolla pg_dump, esimerkiksi
      pg_dump --format=custom --file=tabula.dump '{ $db }'
op-backup-no-file = tietokantatiedostoa { $db } ei ole
op-backup-exists = { $file } on jo olemassa: anna uusi tiedostonimi tai korvaa se valinnalla --force
op-backing-up = varmuuskopioitaessa { $db } tiedostoon { $file }
op-backed-up = { $db } varmuuskopioitu tiedostoon { $file }: { $users ->
        [one] { NUMBER($users, useGrouping: "false") } käyttäjä
       *[other] { NUMBER($users, useGrouping: "false") } käyttäjää
    }, { $games ->
        [one] { NUMBER($games, useGrouping: "false") } peli
       *[other] { NUMBER($games, useGrouping: "false") } peliä
    }, { $events ->
        [one] { NUMBER($events, useGrouping: "false") } tapahtuma
       *[other] { NUMBER($events, useGrouping: "false") } tapahtumaa
    }, { $bytes ->
        [one] { NUMBER($bytes, useGrouping: "false") } tavu
       *[other] { NUMBER($bytes, useGrouping: "false") } tavua
    }; eheystarkistus ok.
op-outbox-sent = lähetetty
op-outbox-given-up = luovuttu: { $error }
op-outbox-failed = epäonnistui { $attempts ->
        [one] { NUMBER($attempts, useGrouping: "false") } kerran
       *[other] { NUMBER($attempts, useGrouping: "false") } kertaa
    }: { $error }
op-outbox-waiting = odottaa
op-outbox-row = #{ NUMBER($id, useGrouping: "false") } vastaanottajalle { $recipient } [{ $state }]
op-outbox-subject = Aihe: { $subject }
op-outbox-empty = Lähtevän postin jono on tyhjä.
op-cron-done = kellot ajan tasalla: { $clocks ->
        [one] { NUMBER($clocks, useGrouping: "false") } peli
       *[other] { NUMBER($clocks, useGrouping: "false") } peliä
    }; tarkistettu { $games ->
        [one] { NUMBER($games, useGrouping: "false") } peli
       *[other] { NUMBER($games, useGrouping: "false") } peliä
    }: { $reminders ->
        [one] { NUMBER($reminders, useGrouping: "false") } muistutus
       *[other] { NUMBER($reminders, useGrouping: "false") } muistutusta
    }, { $warnings ->
        [one] { NUMBER($warnings, useGrouping: "false") } luovutusvaroitus
       *[other] { NUMBER($warnings, useGrouping: "false") } luovutusvaroitusta
    }, { $forfeits ->
        [one] { NUMBER($forfeits, useGrouping: "false") } luovutus
       *[other] { NUMBER($forfeits, useGrouping: "false") } luovutusta
    }, { $digests ->
        [one] { NUMBER($digests, useGrouping: "false") } kooste
       *[other] { NUMBER($digests, useGrouping: "false") } koostetta
    }; { $pruned ->
        [one] { NUMBER($pruned, useGrouping: "false") } vanha jonon rivi poistettu
       *[other] { NUMBER($pruned, useGrouping: "false") } vanhaa jonon riviä poistettu
    }
op-cron-mail = posti: { NUMBER($sent, useGrouping: "false") } lähetetty, { NUMBER($retry, useGrouping: "false") } yritetään uudelleen, { NUMBER($given_up, useGrouping: "false") } luovuttu
op-worker-needs-postgres = työprosessi tarvitsee jaetun PostgreSQL-tietokannan: --db postgres://user@host/db
op-worker-played = työprosessi pelasi { $games ->
        [one] { NUMBER($games, useGrouping: "false") } pelin
       *[other] { NUMBER($games, useGrouping: "false") } peliä
    }
op-starting-runtime = käynnistettäessä ajoympäristöä
op-following-changes = kuunneltaessa muutoksia
op-reading-address = luettaessa kuunneltua osoitetta
op-writing-stdout = kirjoitettaessa vakiotulosteeseen
op-listening-signal = kuunneltaessa signaalia { $signal }
op-worker-thread-failed = työprosessin säie kaatui
op-reading-file = { $option }: luettaessa tiedostoa { $file }
op-relay-password-visible = varoitus: valinnan --relay sisältämän välityspalvelimen salasanan voi lukea prosessilistasta jokainen tämän koneen käyttäjä; käytä valintaa --relay-password-file FILE tai muuttujaa { $variable }
op-relay-no-user = --relay-password-file: --relay ei nimeä käyttäjää (smtp://USER@HOST:587?tls=required)
op-relay-no-password-in-file = --relay-password-file: tiedoston { $file } ensimmäisellä rivillä ei ole käyttäjän { $user } salasanaa
op-relay-needs-password = --relay: välityspalvelimen käyttäjä { $user } tarvitsee salasanan: --relay-password-file FILE tai ympäristömuuttuja { $variable }
op-sending-outbox = lähetettäessä lähtevän postin jonoa
op-outgoing-mail-failed = lähtevä posti: { $error }
op-mail-left = { $error }; viesti jätetään postipalvelimelle toimitettavaksi myöhemmin uudelleen
op-reading-message = luettaessa viestiä
op-mail-no-database = tietokantaa { $db } ei ole: anna valinnalle --db tietokannan absoluuttinen polku; ylläpitäjä luo tietokannan ensin (esimerkiksi komennolla `tabula --db { $db } serve` tai millä tahansa muulla komennolla)
op-not-bytes = { $text } ei ole tavumäärä
op-bytes-out-of-range = { NUMBER($bytes, useGrouping: "false") } on sallitun välin ulkopuolella: 1024–67108864 tavua (64 MiB)

## A tournament's results table

report-heading = { $game }: { NUMBER($bots, useGrouping: "false") } bottia, { NUMBER($players, useGrouping: "false") } pelaajaa pelissä, { $per_pair ->
        [one] { NUMBER($per_pair, useGrouping: "false") } peli
       *[other] { NUMBER($per_pair, useGrouping: "false") } peliä
    } { $players ->
        [2] paria
       *[other] yhdistelmää
    } kohden, siemen { $seed }, { $games ->
        [one] { NUMBER($games, useGrouping: "false") } peli
       *[other] { NUMBER($games, useGrouping: "false") } peliä
    }
report-column-rank = sija
report-column-bot = botti
report-column-games = pelit
report-column-wins = voitot
report-column-losses = tappiot
report-column-draws = tasapelit
report-column-win-rate = voitto-%
report-column-interval = 95 %:n väli
report-column-rating = luku
report-column-failures = virheet
report-head-to-head = Keskinäiset ottelut (rivin botin voitot-tappiot-tasapelit sarakkeen bottia vastaan):
report-failures = Virheet ({ NUMBER($count, useGrouping: "false") }):
report-failure = peli { NUMBER($game, useGrouping: "false") }: { $message }
report-more-failures = ... ja { NUMBER($count, useGrouping: "false") } muuta (ks. JSON-tulokset)

## tabula bot add, remove, list ja connect

bot-hosted-set = Palvelin ajaa ohjelmaa `{ $command }` käyttäjän { $user } peleissä.
bot-hosted-removed = Palvelin ei enää aja ohjelmaa käyttäjälle { $user }; tili on yhä bottitili.
bot-list-empty = Ei bottitilejä.
bot-list-hosted = palvelimella: { $command }
bot-list-run-by = (ajaa { $host })
bot-list-not-run = (mikään palvelin ei aja sitä nyt)
bot-list-remote = etänä (tabula bot connect)
bot-no-game = peliä { $game } ei ole: pelit ovat { $games }
bot-reading-token-file = --token-file: luettaessa tiedostoa { $file }
bot-token-missing = botin tunniste puuttuu: --token-file TIEDOSTO, ympäristömuuttuja { $variable } tai --token TUNNISTE
bot-token-empty = tunniste on tyhjä
bot-url-scheme = URL-osoitteen pitää alkaa http:// tai https://
bot-url-bad = { $url } ei ole palvelimen URL-osoite (http://KONE:PORTTI tai https://KONE:PORTTI)
bot-ca-plain = --ca on https://-palvelimille; { $url } on salaamaton http
bot-bad-host = { $host } ei ole konenimi tai osoite, jonka varmenne voi kantaa
bot-ca-reading = --ca: luettaessa tiedostoa { $file }
bot-ca-not-pem = --ca: { $file } ei ole PEM-varmennetiedosto: { $error }
bot-ca-no-certificate = --ca: tiedostossa { $file } ei ole varmennetta (-----BEGIN CERTIFICATE-----)
bot-tls-settings = TLS-asetukset
bot-untrusted = { $server }: palvelimen varmenteeseen ei luoteta ({ $why }); jos se on yksityisen varmentajan, anna varmentajan varmenne valitsimella --ca TIEDOSTO
bot-handshake-failed = { $server }: TLS-kättely epäonnistui: { $error }
bot-no-connection = yhteyttä ei syntynyt { NUMBER($seconds) } sekunnissa
bot-no-handshake = TLS-kättely ei valmistunut { NUMBER($seconds) } sekunnissa
bot-no-answer = vastaus ei saapunut { NUMBER($seconds) } sekunnissa
bot-not-json = vastaus ei ole JSONia: { $error }
bot-stream-silent = tapahtumavirta vaikeni
bot-event-too-long = tapahtuma on yli 8 MiB pitkä
bot-playing = pelataan käyttäjänä { $user } palvelimella { $url } ohjelmalla `{ $command }`
bot-sending-again = { $error }; `{ $command }` lähetetään uudelleen { NUMBER($seconds) } sekunnin päästä
bot-unknown-token = palvelin ei tunne tunnistetta
bot-token-refused = palvelin hylkäsi tunnisteen: { $message }
bot-unreachable = palvelimeen ei saada yhteyttä ({ $error }); uusi yritys { NUMBER($seconds) } sekunnin päästä
bot-stream-ended = palvelin päätti tapahtumavirran; yhdistetään uudelleen
bot-stream-refused = palvelin hylkäsi tapahtumavirran: { $message } ({ $code })
bot-connection-lost = yhteys katkesi ({ $error }); yhdistetään uudelleen { NUMBER($seconds) } sekunnin päästä
bot-accepted = laudan { $board } haaste hyväksytty ({ $game })
bot-rejected = laudan { $board } haaste hylätty ({ $game })
bot-accept-failed = lautaa { $board } ei voitu hyväksyä: { $message }
bot-reject-failed = lautaa { $board } ei voitu hylätä: { $message }
bot-game-over = lauta { $board } on päättynyt
bot-on-board = lauta { $board }: { $text }
bot-program-not-running = ohjelma ei ole käynnissä
bot-last-words = ohjelman viimeiset sanat:
    { $tail }
bot-move-refused = siirto { $answer } hylättiin: { $message }
bot-refused-move-loses = ohjelma vastasi siirrolla, jonka palvelin hylkäsi: { $answer }
bot-resigning = { $reason }; luovutetaan
bot-resign-failed = luovutus ei onnistunut: { $message }

## Miksi botti hävisi pelin (turnausten taulukot ja sivut, yhdistetyn botin loki)

fault-not-started = { $bot } ei käynnistynyt: { $error }
fault-did-not-read = { $bot } ylitti ajan (se ei lukenut syötettään { NUMBER($ms, useGrouping: "false") } ms:ssa)
fault-crashed-before-start = { $bot } kaatui ennen pelin alkua
fault-dead = { $bot } kaatui
fault-input-closed = { $bot } kaatui (sen syöte on suljettu)
fault-pipe = { $bot } kaatui (putkivirhe: { $error })
fault-exited = { $bot } kaatui ({ $status })
fault-output-closed = { $bot } kaatui (se sulki tulosteensa)
fault-empty-line = { $bot } vastasi tyhjällä rivillä
fault-game-time = { $bot } käytti pelin { NUMBER($ms, useGrouping: "false") } ms loppuun
fault-no-move = { $bot } ylitti ajan (ei siirtoa { NUMBER($ms, useGrouping: "false") } ms:ssa)
fault-no-move-starting = { $bot } ylitti ajan (ei siirtoa { NUMBER($ms, useGrouping: "false") } ms:ssa: { NUMBER($move_ms, useGrouping: "false") } ms siirtoon ja { NUMBER($startup_ms, useGrouping: "false") } ms käynnistykseen)
fault-flood = { $bot } kirjoitti yli 64 KiB yhdelle riville
fault-malformed = { $bot } vastasi virheellisellä siirrolla { $answer }: { $error }
fault-illegal = { $bot } vastasi sääntöjenvastaisella siirrolla { $answer }: { $error }
fault-no-record = { $bot } ei voi nähdä peliä, jota pidetään ilman sen pöytäkirjaa
fault-found-no-move = { $bot } ei löytänyt siirtoa
