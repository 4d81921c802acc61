# The command line's own help, per command and option (see crates/tabula/src/help.rs).

cli-tabula-about = Tabula: palvelin pienille moninpeleille, joita pelataan sähköpostilla, päätteeltä, verkossa tai HTTP-rajapinnan kautta
cli-tabula-after =
    Jokainen komentokielen komento ajetaan täsmälleen kuin se olisi tullut
    sähköpostilla, ja vastaus tulostetaan: otsikko (sähköpostin aihe), tila,
    siirtoluettelo ja lauta sellaisena kuin sinä saat sen nähdä.

    Esimerkkejä:
      tabula signup ned secret ned@example.org
      tabula signup ted secret2 ted@example.org
      tabula dna challenge ned ted -seed=1
      tabula dna move 1 ned secret AAG
      tabula dna show 1
      tabula help dna        pelin säännöt, valinnat ja siirtojen muoto
      tabula serve           verkkosivut ja rajapinta osoitteessa http://127.0.0.1:8080/

    `tabula COMMAND --help` kuvaa kunkin komennon. Paluuarvo: 0 tehty,
    1 hylätty (syy tulostetaan), 2 virheellinen käyttö.
cli-tabula-arg-db = Tietokanta: SQLite-tiedosto (luodaan, jos sitä ei ole) tai PostgreSQL-URL (postgres://user:password@host/db)
cli-tabula-arg-now = Kiinnitä kello (RFC 3339, esim. 2026-01-01T12:00:00Z) testejä, toistoja ja esittelyjä varten
cli-tabula-arg-json = Tulosta koneluettavaa JSONia
cli-tabula-arg-lang = Vastausten ja virheiden kieli: en, fi tai es [oletus: ympäristömuuttujasta LC_ALL, LC_MESSAGES tai LANG, muuten en]
cli-tabula-serve-about = Tarjoa verkkosivut ja HTTP-rajapinta ja pyöritä pelikelloja
cli-tabula-serve-about-long =
    Tarjoa verkkosivut ja HTTP-rajapinta ja pyöritä pelikelloja

    Tarjoaa verkkosivut ja JSON-rajapinnan tietokannan pohjalta ja pyörittää reaaliaikapelien kelloa, muistutuksia, luovutuksia ja koosteita. Tulostaa osoitteen, jossa se palvelee, kun se alkaa kuunnella. Pysäytä se Ctrl-C:llä tai SIGTERM-signaalilla: käsittelyssä olevat pyynnöt viedään ensin loppuun. Lokit menevät vakiovirheeseen, värillisinä vain päätteellä (RUST_LOG=debug antaa enemmän).
cli-tabula-serve-arg-listen = Palvele HTTP:tä osoitteessa ADDR (portti 0: mikä tahansa vapaa portti)
cli-tabula-serve-arg-smtp = Ota vastaan myös sähköpostia SMTP:llä osoitteessa ADDR (esim. 127.0.0.1:2525)
cli-tabula-serve-arg-relay = Lähetä lähtevän postin jono SMTP-välityspalvelimen RELAY kautta: HOST:PORT (pelkkä SMTP), smtp://USER@HOST:587?tls=required (STARTTLS ja sitten kirjautuminen) tai smtps://USER@HOST:465 (TLS alusta alkaen). TLS:ää käytettäessä välityspalvelimen varmenteen on oltava voimassa nimelle HOST; mitään ei koskaan lähetetä sen sijaan salaamattomana. Posti, jota välityspalvelin ei ota vastaan, jää jonoon ja sitä yritetään myöhemmin uudelleen
cli-tabula-serve-arg-relay_ca = Luota välityspalvelimen varmenteessa vain tiedoston FILE (PEM) varmentajiin sisäänrakennettujen juurivarmenteiden sijaan: välityspalvelimelle, jonka varmenne on yksityiseltä varmentajalta
cli-tabula-serve-arg-relay_password_file = Lue välityspalvelimen käyttäjän USER salasana tiedostosta FILE (sen ensimmäiseltä riviltä); ilman tätä ympäristömuuttujasta TABULA_RELAY_PASSWORD. Älä koskaan kirjoita sitä RELAY-arvoon: prosessiluettelo näyttää sen jokaiselle käyttäjälle
cli-tabula-serve-arg-mail_from = Osoite, josta posti lähetetään
cli-tabula-serve-arg-max_message_size = Suurin valinnan --smtp kautta vastaanotettava viesti tavuina; suuremmat hylätään (552) ennen kuin ne luetaan
cli-tabula-serve-arg-log_format = Miten lokirivit kirjoitetaan: text tai json (yksi objekti riviä kohden, lokien kerääjille)
cli-tabula-serve-arg-log_format-value-text = Ihmisen luettavia rivejä; värejä vain, kun vakiovirhe on pääte
cli-tabula-serve-arg-log_format-value-json = Yksi JSON-objekti riviä kohden
cli-tabula-serve-arg-trust_proxy = Ota asiakkaan osoite Forwarded- tai X-Forwarded-For-otsakkeesta, kun yhteys tulee tästä verkosta (kuormantasaaja, käänteinen välityspalvelin), esim. 127.0.0.1/32 tai 10.0.0.0/8; voidaan toistaa. Epäonnistuneet kirjautumiset lasketaan asiakkaan osoitteen mukaan: ilman tätä kaikki välityspalvelimen takana olevat asiakkaat jakavat välityspalvelimen laskurin
cli-tabula-serve-arg-challenges_per_hour = Montako muita käyttäjiä nimeävää haastetta yksi käyttäjä saa lähettää verkon kautta tunnissa (0: ei rajaa)
cli-tabula-serve-arg-replay_cache = Montako MiB muistia siirtojen välillä valmiiksi toistetut pelit saavat viedä; peli, joka ei mahdu, toistetaan tallenteestaan, kun sitä seuraavan kerran käytetään (0: yhtään ei pidetä)
cli-tabula-serve-arg-max_connections = Avoimien yhteyksien enimmäismäärä; sen ylittyessä uusiin vastataan 503 [oletus: 10000 tai vähemmän, jos avoimien tiedostojen raja on pienempi]
cli-tabula-serve-arg-max_connections_per_address = Avoimien yhteyksien enimmäismäärä yhdestä asiakkaan osoitteesta
cli-tabula-serve-arg-read_timeout = Montako sekuntia pyynnön otsakkeet, sen runko tai seuraava pyyntö avoimena pidetyllä (keep-alive) yhteydellä saa viedä
cli-tabula-serve-arg-write_timeout = Montako sekuntia asiakas saa olla lukematta mitään vastauksesta tai tapahtumavirrasta, ennen kuin yhteys katkaistaan
cli-tabula-serve-arg-bot_user = Kun ajetaan rootina: käyttäjä, jona palvelimen ajamien bottien ohjelmat (`tabula bot add`) ajetaan [oletus: nobody]
cli-tabula-serve-arg-no_hosted_bots = Älä aja täällä palvelimen ajamien bottien ohjelmia (oletuksena jokainen samaa tietokantaa käyttävä palvelin ajaa ne, jotka se varaa ensimmäisenä, ja ottaa hoitaakseen pysähtyneen palvelimen ohjelmat)
cli-tabula-mail-about = Aja yhden vakiosyötteestä luettavan sähköpostiviestin komennot ja vastaa
cli-tabula-mail-about-long =
    Aja yhden vakiosyötteestä luettavan sähköpostiviestin komennot ja vastaa

    Sähköpostipalvelimelle, joka ohjaa jokaisen saapuvan viestin putkella Tabulalle, kuten pbmservia ajettiin. Komennot luetaan aiheriviltä (Subject) tai viestin ensimmäisiltä riveiltä; lainatut rivit ja allekirjoitus ohitetaan. Vastaus laitetaan lähtevän postin jonoon, josta sen lähettää `tabula serve --relay` tai valinnalla --relay heti tämä komento (cronilla ja putkella toimiva asennus ei tarvitse palvelinta); valinnalla --reply-to-stdout se tulostetaan kokonaisena viestinä. Automaattisiin vastauksiin, palautuneisiin viesteihin ja postituslistojen viesteihin ei koskaan vastata.
cli-tabula-mail-arg-reply_to_stdout = Tulosta vastaus kokonaisena viestinä jonoon laittamisen sijaan
cli-tabula-mail-arg-mail_from = Osoite, josta vastaus lähetetään
cli-tabula-mail-arg-max_message_size = Suurin vastaanotettava viesti tavuina; suurempi hylätään (paluuarvo 65, jolloin sähköpostipalvelin palauttaa sen lähettäjälle)
cli-tabula-mail-arg-relay = Lähetä lähtevän postin jono SMTP-välityspalvelimen RELAY kautta: HOST:PORT (pelkkä SMTP), smtp://USER@HOST:587?tls=required (STARTTLS ja sitten kirjautuminen) tai smtps://USER@HOST:465 (TLS alusta alkaen). TLS:ää käytettäessä välityspalvelimen varmenteen on oltava voimassa nimelle HOST; mitään ei koskaan lähetetä sen sijaan salaamattomana. Posti, jota välityspalvelin ei ota vastaan, jää jonoon ja sitä yritetään myöhemmin uudelleen
cli-tabula-mail-arg-relay_ca = Luota välityspalvelimen varmenteessa vain tiedoston FILE (PEM) varmentajiin sisäänrakennettujen juurivarmenteiden sijaan: välityspalvelimelle, jonka varmenne on yksityiseltä varmentajalta
cli-tabula-mail-arg-relay_password_file = Lue välityspalvelimen käyttäjän USER salasana tiedostosta FILE (sen ensimmäiseltä riviltä); ilman tätä ympäristömuuttujasta TABULA_RELAY_PASSWORD. Älä koskaan kirjoita sitä RELAY-arvoon: prosessiluettelo näyttää sen jokaiselle käyttäjälle
cli-tabula-outbox-about = Näytä, mikä lähtevän postin jonossa odottaa lähettämistä ja minkä lähettämisestä on luovuttu
cli-tabula-outbox-about-long =
    Näytä, mikä lähtevän postin jonossa odottaa lähettämistä ja minkä lähettämisestä on luovuttu

    Uusimmat rivit viimeisinä. Vastaukset ja ilmoitukset kirjoitetaan lähtevän postin jonoon samassa transaktiossa kuin siirto, ja ne lähettää `tabula serve --relay RELAY`.
cli-tabula-outbox-arg-limit = Näytä enintään N riviä (uusimmat)
cli-tabula-cron-about = Aja kerran kaikki erääntynyt: kellotapahtumat, muistutukset, luovutukset ja koosteet
cli-tabula-cron-about-long =
    Aja kerran kaikki erääntynyt: kellotapahtumat, muistutukset, luovutukset ja koosteet

    Asennuksille, joissa ajastusta ohjataan cronista, kuten pbmservia ajettiin, sekä testeihin valinnan --now kanssa. `tabula serve` tekee saman jatkuvasti.
cli-tabula-cron-arg-mail_from = Osoite, josta posti lähetetään (valinnan --relay kanssa)
cli-tabula-cron-arg-relay = Lähetä lähtevän postin jono SMTP-välityspalvelimen RELAY kautta: HOST:PORT (pelkkä SMTP), smtp://USER@HOST:587?tls=required (STARTTLS ja sitten kirjautuminen) tai smtps://USER@HOST:465 (TLS alusta alkaen). TLS:ää käytettäessä välityspalvelimen varmenteen on oltava voimassa nimelle HOST; mitään ei koskaan lähetetä sen sijaan salaamattomana. Posti, jota välityspalvelin ei ota vastaan, jää jonoon ja sitä yritetään myöhemmin uudelleen
cli-tabula-cron-arg-relay_ca = Luota välityspalvelimen varmenteessa vain tiedoston FILE (PEM) varmentajiin sisäänrakennettujen juurivarmenteiden sijaan: välityspalvelimelle, jonka varmenne on yksityiseltä varmentajalta
cli-tabula-cron-arg-relay_password_file = Lue välityspalvelimen käyttäjän USER salasana tiedostosta FILE (sen ensimmäiseltä riviltä); ilman tätä ympäristömuuttujasta TABULA_RELAY_PASSWORD. Älä koskaan kirjoita sitä RELAY-arvoon: prosessiluettelo näyttää sen jokaiselle käyttäjälle
cli-tabula-backup-about = Kopioi SQLite-tietokanta tiedostoon FILE palvelinten toimiessa edelleen
cli-tabula-backup-about-long =
    Kopioi SQLite-tietokanta tiedostoon FILE palvelinten toimiessa edelleen

    Kopio on tietokanta sellaisena kuin se oli yhdellä hetkellä: jokainen ennen varmuuskopioinnin alkua kuitattu siirto on siinä. Palvelimet ottavat sillä välin siirtoja vastaan. Kopio tarkistetaan (PRAGMA integrity_check) ja synkronoidaan levylle ennen kuin se ilmestyy nimellä FILE. Palauta pysäyttämällä palvelimet ja panemalla kopio tietokantatiedoston tilalle (ja poistamalla vanhan tiedoston -wal- ja -shm-tiedostot). PostgreSQL-tietokanta varmuuskopioidaan komennolla pg_dump.
cli-tabula-backup-arg-file = Minne kopio tehdään (uusi tiedosto)
cli-tabula-backup-arg-force = Korvaa FILE, jos se on jo olemassa
cli-tabula-tournament-about = Pelaa bottien välinen sarjaturnaus, joka tallennetaan tietokantaan sitä mukaa kuin se etenee
cli-tabula-tournament-about-long =
    Pelaa bottien välinen sarjaturnaus, joka tallennetaan tietokantaan sitä mukaa kuin se etenee

    Botit ovat sisäänrakennettuja (random, greedy, mcts, mcts:2000, mcts:250ms ..) tai bottiprotokollaa puhuvia ohjelmia. Sama --seed antaa samat pelit. Tulokset tallennetaan tietokantaan pelien päättyessä; saman turnauksen ajaminen uudelleen jatkaa sitä. Tulostaa sarjataulukon tai valinnalla --json koko raportin.
cli-tabula-tournament-after =
    Esimerkki:
      tabula tournament --game intervalo --games-per-pair 100 \
          --bot random --bot mcts --bot "python3 examples/bots/center.py"
cli-tabula-tournament-arg-game = Peli (dna, rewrite, intervalo, conway ..)
cli-tabula-tournament-arg-bots = Botti: sisäänrakennetun botin nimi tai komentorivi (toista jokaiselle botille)
cli-tabula-tournament-arg-games_per_pair = Montako peliä kukin pari (tai kukin valinnan --players kokoinen bottiyhdistelmä) pelaa
cli-tabula-tournament-arg-players = Bottien määrä kussakin pelissä
cli-tabula-tournament-arg-seed = Turnauksen siemen; jokaisen pelin siemen johdetaan siitä
cli-tabula-tournament-arg-move_time = Ulkoisten bottien aikaraja siirtoa kohden millisekunteina
cli-tabula-tournament-arg-game_time = Kunkin ulkoisen botin miettimisaika peliä kohden sekunteina
cli-tabula-tournament-arg-view = Mitä Intervalo-botit näkevät: static (nauha) tai dynamic (myös historia ja pisteet)
cli-tabula-tournament-arg-options = Pelin asetus kaikkiin peleihin, esim. --option=-cells=32 (toista)
cli-tabula-tournament-arg-threads = Työsäikeet (oletus: yksi ydintä kohden)
cli-tabula-tournament-arg-json_file = Kirjoita tulokset JSONina tiedostoon FILE
cli-tabula-tournament-arg-csv = Kirjoita tulokset CSV:nä tiedostoon FILE
cli-tabula-tournament-arg-quiet = Älä piirrä edistymispalkkia
cli-tabula-tournament-arg-bot_user = Käyttäjä, jona botti-ohjelmat ajetaan, kun tabula ajetaan rootina (oletus: nobody)
cli-tabula-tournament-arg-distributed = Älä pelaa täällä: tarjoa pelit `tabula worker` -prosesseille millä tahansa koneilla, jotka käyttävät samaa PostgreSQL-tietokantaa, ja raportoi, kun kaikki on pelattu
cli-tabula-worker-about = Pelaa hajautettujen turnausten pelejä PostgreSQL-tietokannasta
cli-tabula-worker-about-long =
    Pelaa hajautettujen turnausten pelejä PostgreSQL-tietokannasta

    Pelaa pelit, joita `tabula tournament --distributed` tarjoaa PostgreSQL-tietokannassa: varaa kullekin säikeelle yhden pelin kerrallaan, pelaa sen ja tallentaa sen tuloksen. Aja niin monta työprosessia niin monella koneella kuin haluat; voit pysäyttää minkä tahansa niistä milloin tahansa (peli, jota se pelasi, pelataan uudelleen toisessa työprosessissa, kun sen varaus on vanhentunut).
cli-tabula-worker-arg-threads = Yhtä aikaa pelattavat pelit (oletus: yksi ydintä kohden)
cli-tabula-worker-arg-lease = Kuinka kauan varaus pysyy voimassa uusimatta, sekunteina; peli, joka ei etene, ei saa varaustaan uusituksi
cli-tabula-worker-arg-bot_user = Käyttäjä, jona botti-ohjelmat ajetaan, kun työprosessi ajetaan rootina (oletus nobody)
cli-tabula-worker-arg-exit_when_idle = Pysähdy, kun yhdenkään turnauksen pelejä ei ole enää pelattavana
cli-tabula-life-about = Kehitä lautaa monivärisellä Life-säännöllä (katso `tabula life run --help`)
cli-tabula-life-run-about = Kehitä lautaa pelien Conway ja Life reaaliajassa monivärisellä Life-säännöllä ja tulosta se
cli-tabula-life-run-after = FILE sisältää rivejä merkeistä `.` (tyhjä), `#` (neutraali) ja `A`..`Z` (pelaajat), ylin rivi ensin; ruudukon koko on tiedoston koko. `-` lukee vakiosyötteen. Valinnalla --edges unbounded taso kasvaa tarpeen mukaan, ja tuloste on rajaava suorakulmio rivin `#offset X Y` jälkeen, joka kertoo sen vasemman yläkulman sijainnin suhteessa syötteen vasempaan yläkulmaan.
cli-tabula-life-run-arg-generations = Montako sukupolvea ajetaan
cli-tabula-life-run-arg-edges = torus (oletus), dead (ruudukon ulkopuolella ei elä mitään) tai unbounded
cli-tabula-life-run-arg-file = Lautatiedosto (`-` vakiosyötteelle)
cli-tabula-bot-connect-about = Pelaa bottitilin pelejä Tabula-palvelimella tämän koneen ohjelmalla
cli-tabula-bot-connect-after =
    Ohjelma puhuu bottiprotokollan versiota 1 (docs/bot-protocol.md) kuten turnauksessa; kunkin pelin pelaa yksi sen prosessi. Tee tilistä botti komennolla `bot on USERID PASSWORD` ja hanki avain pyynnöllä POST /api/v1/tokens. HTTPS-yhteydellä palvelimen varmenteen on oltava voimassa nimelle HOST, ja sen on allekirjoittanut sisäänrakennettujen juurivarmenteiden (Mozillan luettelo) varmentaja tai yksityisen varmentajan tapauksessa valinnalla --ca FILE annettu varmentaja; varmenne, johon ei luoteta, lopettaa komennon. Avain luetaan valinnan --token-file FILE tiedostosta, muuten ympäristömuuttujasta TABULA_BOT_TOKEN, muuten valinnasta --token (jonka jokainen koneen käyttäjä voi lukea prosessiluettelosta). Esimerkkejä:
      tabula bot connect http://127.0.0.1:8080 --token T -- python3 examples/bots/center.py
      tabula bot connect https://play.example.org --token-file ~/.mybot-token -- ./mybot
      tabula bot connect https://tabula.internal:8443 --ca internal-ca.pem --token-file token -- ./mybot
cli-tabula-bot-connect-arg-url = Palvelin: http://HOST[:PORT] tai https://HOST[:PORT] sekä polku, jonka alla sitä tarjotaan, jos sellainen on
cli-tabula-bot-connect-arg-token = Bottitilin API-avain (näkyy prosessiluettelossa jokaiselle tämän koneen käyttäjälle: käytä mieluummin valintaa --token-file tai ympäristömuuttujaa TABULA_BOT_TOKEN)
cli-tabula-bot-connect-arg-token_file = Lue bottitilin API-avain tiedostosta FILE (sen ensimmäiseltä riviltä)
cli-tabula-bot-connect-arg-ca = HTTPS-yhteydellä luota palvelimen varmenteessa vain tiedoston FILE (PEM) varmentajiin sisäänrakennettujen juurivarmenteiden sijaan: palvelimelle, jonka varmenne on yksityiseltä varmentajalta
cli-tabula-bot-connect-arg-games = Hyväksy vain tämän pelin haasteet (ne, jotka odottavat hyväksyntää); toista useammalle pelille (oletus: kaikki pelit)
cli-tabula-bot-connect-arg-bot_user = Kun ajetaan rootina: käyttäjä, jona ohjelma ajetaan
cli-tabula-bot-connect-arg-command = Ohjelma ja sen argumentit (merkinnän `--` jälkeen)
cli-tabula-bot-add-about = Anna palvelimen ajaa ohjelmaa bottitilin peleissä (palvelimen ajama botti)
cli-tabula-bot-add-after =
    `tabula serve` tällä tietokannalla ajaa ohjelmaa (protokolla v1) tilin peleissä, yksi prosessi peliä kohden, eristettynä ja samoin aikarajoin kuin turnauksen tuomarin botteja. Tilistä tulee bottitili, jos se ei jo ollut sellainen. Esimerkki:
      tabula bot add centrebot -- python3 /srv/bots/center.py
cli-tabula-bot-add-arg-user = Bottitili
cli-tabula-bot-add-arg-command = Ohjelma ja sen argumentit (merkinnän `--` jälkeen)
cli-tabula-bot-remove-about = Lopeta ohjelman ajaminen bottitilille (se pysyy bottina ja voi yhdistää muualta)
cli-tabula-bot-remove-arg-user = Bottitili
cli-tabula-bot-list-about = Bottitilit ja ohjelmat, joita palvelin ajaa niille
cli-tabula-dna-remove-about = Poista sekvenssistä SEQUENCE pätkän CHUNK jokainen esiintymä DNA-pelin säännöllä (läpikäyntejä vasemmalta oikealle, kunnes läpikäynti ei poista mitään)
cli-tabula-dna-remove-after =
    Kaikki kirjaimet käyvät. Esimerkki: tabula dna remove TAAGAAGCGCCT AGC  tulostaa TAT ja removed 3.
    Valinnalla --json: {"{"}"sequence": "...", "removed": N{"}"} yhdellä rivillä.
cli-tabula-dna-remove-arg-trace = Tulosta jokainen läpikäynti poistetut pätkät hakasulkeissa
cli-tabula-dna-remove-arg-sequence = Lyhennettävä sekvenssi
cli-tabula-dna-remove-arg-chunk = Poistettava pätkä
cli-tabula-rewrite-run-about = Sovella säännöstöjä merkkijonoon kuten yksi Merkkikorvauspelin kierros: uusin säännöstö ensin, vanhimpaan asti
cli-tabula-rewrite-run-after =
    RULESFILE sisältää säännöstöt vanhin ensin, yksi sääntö riville (lhs=>rhs tai owner: lhs=>rhs), ja säännöstöt erotetaan rivillä ---. Kaikki merkit käyvät. `-` lukee tiedoston vakiosyötteestä.
    Valinnalla --json: tulos ja jokainen läpikäynti JSONina.
    Esimerkki: tabula rewrite run --start pupupusu rules.txt
cli-tabula-rewrite-run-arg-trace = Tulosta jokainen läpikäynti ja siinä toteutuneet säännöt
cli-tabula-rewrite-run-arg-start = Alkumerkkijono
cli-tabula-rewrite-run-arg-start_file = Lue alkumerkkijono tiedostosta FILE (`-` vakiosyötteelle; viimeinen rivinvaihto ei kuulu siihen)
cli-tabula-rewrite-run-arg-rules_file = Säännöstöt
