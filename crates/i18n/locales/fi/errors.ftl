# Komentokielen virheet kaikissa käyttöliittymissä. Virhekoodit ja
# komentosanat kuuluvat protokollaan eivätkä käänny.

error-language-unknown = "{ $given }" ei ole Tabulan kieli: valitse fi (suomi), es (español) tai en (English)

## Komennon lukeminen

error-usage = käyttö: { $syntax }
error-usage-either =
    käyttö: { $first }
       tai: { $second }
error-usage-vacation = käyttö: { $syntax } (enintään 365 päivää)
error-usage-limit = käyttö: { $syntax } (enintään { $max } käynnissä olevaa peliä)
error-line-too-long = komento on yli { $max } tavun pituinen
error-too-many-words = komennossa on yli { $max } sanaa
error-empty-command = tyhjä komento: kokeile `help`
error-unknown-command-games = tuntematon komento { $quoted }: pelit ovat { $games }; `help` luettelee komennot
error-unknown-command = tuntematon komento { $quoted }: `help` luettelee komennot
error-unknown-command-near = tuntematon komento { $quoted }: tarkoititko { $near }? `help` luettelee komennot
error-not-a-board =
    { $quoted } ei ole laudan numero
    käyttö: { $syntax }
error-not-a-move-number = #{ $number } ei ole siirron numero
error-no-help = ohjetta aiheesta { $quoted } ei ole: kokeile `help` tai `help GAME`, jossa GAME on jokin näistä: { $games }
error-no-game = peliä { $quoted } ei ole

## Tilit ja salasanat

error-not-a-bot-name = { $quoted } ei ole botin nimi: kirjoita bot:NAME, esimerkiksi bot:mcts
error-user-id-length = käyttäjätunnuksessa on 1–{ $max } merkkiä
error-user-id-start = { $quoted } ei kelpaa käyttäjätunnukseksi: sen on alettava kirjaimella
error-user-id-letters = { $quoted } ei kelpaa käyttäjätunnukseksi: käytä kirjaimia, numeroita ja merkkejä '_', '-' ja '.'
error-user-id-reserved = käyttäjätunnus { $quoted } on varattu
error-password-length = salasanassa on { $min }–{ $max } merkkiä
error-password-characters = salasanassa ei saa olla välilyöntejä eikä ohjausmerkkejä
error-not-an-address = { $quoted } ei ole sähköpostiosoite
error-too-many-addresses = enintään { $max } osoitetta
error-user-taken = käyttäjätunnus { $user } on jo käytössä
error-no-user = käyttäjää { $user } ei ole
error-wrong-password = väärä salasana käyttäjälle { $user }
error-password-needed = tämä tilikomento vaatii itse salasanan, ei avainta eikä kirjautumisistuntoa
error-wait-address = liian monta väärää salasanaa osoitteestasi: odota { $seconds ->
        [one] { $seconds } sekunti
       *[other] { $seconds } sekuntia
    } ja yritä uudelleen
error-wait-user = liian monta väärää salasanaa käyttäjälle { $user } osoitteestasi: odota { $seconds ->
        [one] { $seconds } sekunti
       *[other] { $seconds } sekuntia
    } ja yritä uudelleen
error-token-name = avaimen nimessä on enintään 100 näkyvää merkkiä
error-too-many-tokens = enintään { $max } avainta: peru ensin jokin niistä
error-token-not-stored = uutta avainta ei tallennettu
error-bad-token = avain on virheellinen tai peruttu
error-no-live-token = käyttäjällä { $user } ei ole voimassa olevaa avainta { $id }
error-not-a-bot-account = { $user } ei ole bottitili
error-bot-command-empty = botin komento on tyhjä
error-bot-command-words = botin komennossa on yli { $max } sanaa
error-bot-command-long = botin komento on yli { $max } tavun pituinen

## Haasteet

error-too-many-players = enintään { $max } pelaajaa
error-challenge-unauthorized = haasteen lähettää joku sen pelaajista: kirjaudu sisään (tai lähetä bearer-avain tai lähetä haaste sähköpostilla rekisteröidystä osoitteestasi) ja nimeä itsesi pelaajien joukkoon
error-challenger-not-player = { $user } ei ole pelaajien joukossa: haasteessa nimetään myös haastaja
error-no-such-bot = bottia { $bot } ei ole pelissä { $game }: botit ovat { $bots }
error-no-bots = tällä palvelimella ei ole bottia { $bot }
error-game-limit = { $user } on mukana { $running } käynnissä olevassa pelissä eikä ota enempää (raja { $limit })
error-wait-challenges = { $user } on lähettänyt tällä tunnilla { $rate } haastetta, eikä tämä palvelin ota enempää: odota { $seconds ->
        [one] { $seconds } sekunti
       *[other] { $seconds } sekuntia
    } ja yritä uudelleen
error-not-waiting = lauta { $board } ei odota hyväksyntää
error-waits-for-acceptance = lauta { $board } odottaa haasteen hyväksyntää: { $users }

## Laudat ja siirrot

error-no-board = lautaa { $board } ei ole
error-wrong-kind = lauta { $board } on { $kind }-peli
error-not-a-player = { $user } ei pelaa laudalla { $board }
error-not-running = lauta { $board } ei ole käynnissä
error-board-cancelled = lauta { $board } on peruttu
error-board-over = peli laudalla { $board } on päättynyt
error-stale-move = tämä siirto oli tarkoitettu siirroksi { $meant }, mutta laudalla on menossa siirto { $now }: katso lautaa uudelleen
error-only-moves = laudalla { $board } on vain { $moves ->
        [one] { $moves } siirto
       *[other] { $moves } siirtoa
    }
error-no-queue = { $game } ei ota siirtoja jonoon: sen siirtoja ei tehdä vuorotellen
error-queued-too-long = jonoon laitetussa siirrossa on enintään 1000 merkkiä
error-queue-your-turn = nyt on sinun vuorosi: tee siirto suoraan
error-queue-full = laudalla voi olla jonossa enintään 20 siirtoa
error-nothing-submitted = sinulla ei ole lähetettyä siirtoa laudalla { $board }
error-preview-who = pelissä { $game } anna käyttäjätunnuksesi ja salasanasi: { $syntax }
error-no-view-text = laudan { $board } näkymässä ei ole tekstiä kohdassa { $quoted }
error-chat-empty = viestissä pitää olla tekstiä
error-chat-too-long = viestissä on enintään { $max } merkkiä

## Sisäiset

error-conflict = lauta muuttui samalla hetkellä; yritä uudelleen
error-storage = sisäinen tallennusvirhe; mitään ei muutettu
error-replay = sisäinen virhe: tallennettua peliä ei voi toistaa
