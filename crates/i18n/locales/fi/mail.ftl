# Sähköposti: yhdyskäytävän vastaukset komentojen omien vastausten ympärillä ja sen virheet.

mail-error-subject = { $game }: virhe
mail-no-command =
    Viestistäsi ei löytynyt komentoa. Kirjoita komento aiheeseen tai viestin
    ensimmäisille riveille, esimerkiksi:

        dna move 12 ned PASSWORD AAG

    Kaikki komentojen jälkeen tuleva lähetetään kommenttina laudan muille
    pelaajille. Lähetä `help`, niin saat komennot, ja `list`, niin saat pelit.
mail-too-many-commands =
    Viestissäsi on { $count } komentoriviä; yhdestä viestistä ajetaan enintään { $max }.
    Mitään ei ajettu: lähetä ne useammassa viestissä.
mail-refused =
    Komentoasi

    > { $command }

    ei hyväksytty: { $reason }
mail-refused-help = Lähetä `help`, niin saat komennot, tai `help GAME`, niin saat pelin siirrot.
mail-nothing-changed = Mitään ei muutettu.
mail-board-as-it-stands = Lauta tällä hetkellä:
mail-comment-refused = Kommenttiasi ei lähetetty: { $reason }.
mail-comment-not-sent = Kommenttiasi ei lähetetty: kommentti lähtee laudan muille pelaajille onnistuneen siirron mukana.
mail-comment-sent = Kommenttisi lähti laudan { $board } muille pelaajille siirron mukana.
mail-commands-not-run = Tämän jälkeisiä komentoja ei ajettu: palvelin pysähtyi kesken niiden. Lähetä ne uudelleen.
mail-help =
    Näin kirjoitat Tabulalle sähköpostilla:

    - Kirjoita komento aiheeseen tai viestin ensimmäisille riveille, yksi
      komento riville. Vastauksessa laudan viestiin saa jäädä "Re:".
    - Komentojen jälkeinen teksti on kommentti: se lähtee laudan muille
      pelaajille siirron ilmoituksen lopussa.
    - Lainatut rivit (">"), niitä edeltävä rivi ("On ... wrote:") ja kaikki
      allekirjoitusrivin ("-- ") jälkeinen jätetään pois.
    - Lähetä rekisteröidystä osoitteesta: käyttäjän komento ajetaan vain, jos
      viesti tulee jostakin hänen osoitteistaan (annettu rekisteröityessä,
      vaihdettu komennolla `change address`), ja hänen salasanallaan.
      Salasanoja ei koskaan näytetä takaisin.
    - Jokainen viesti saa yhden vastauksen. Ohjelmien lähettämiin viesteihin
      (lomavastaukset, palautuneet viestit, postituslistat) ei vastata.
error-mail-challenge-sender = sähköpostihaasteen pitää tulla jonkun sen pelaajan rekisteröidystä osoitteesta, eikä { $address } ole kenenkään heistä; mitään ei muutettu
error-mail-challenge-no-sender = sähköpostihaasteen pitää tulla jonkun sen pelaajan rekisteröidystä osoitteesta, eikä tämän viestin lähettäjä ole kenenkään heistä; mitään ei muutettu
error-mail-no-from = viestissä ei ole From-osoitetta
error-mail-sender-user = tämä viesti tuli osoitteesta { $address }, joka ei ole käyttäjän { $user } rekisteröityjä osoitteita; mitään ei muutettu. Lähetä se rekisteröidystä osoitteesta
error-mail-sender-players = tämä viesti tuli osoitteesta { $address }, joka ei ole sen pelaajien rekisteröityjä osoitteita; mitään ei muutettu. Lähetä se rekisteröidystä osoitteesta
