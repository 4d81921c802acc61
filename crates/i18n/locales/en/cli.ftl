# The command line's own words around the service's replies.

cli-help-game-more = `tabula help { $game }` gives the game's rules, options and moves.
cli-calculator = Calculator: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } takes a game command, which starts with its verb: `tabula help { $game }` lists them
cli-game-verb-calculator = { $game } takes a game command, which starts with its verb: `tabula help { $game }` lists them; the calculator is `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` lists the commands)
