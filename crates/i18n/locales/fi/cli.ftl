# Komentorivin omat sanat palvelun vastausten ympärillä.

cli-help-game-more = `tabula help { $game }` kertoo pelin säännöt, valinnat ja siirrot.
cli-calculator = Laskin: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } ottaa pelikomennon, joka alkaa verbillä: `tabula help { $game }` luettelee ne
cli-game-verb-calculator = { $game } ottaa pelikomennon, joka alkaa verbillä: `tabula help { $game }` luettelee ne; laskin on `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` luettelee komennot)
