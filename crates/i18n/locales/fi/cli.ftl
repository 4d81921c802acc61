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
