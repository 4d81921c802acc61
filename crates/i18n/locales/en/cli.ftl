# The command line's own words around the service's replies.

cli-help-game-more = `tabula help { $game }` gives the game's rules, options and moves.
cli-calculator = Calculator: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } takes a game command, which starts with its verb: `tabula help { $game }` lists them
cli-game-verb-calculator = { $game } takes a game command, which starts with its verb: `tabula help { $game }` lists them; the calculator is `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` lists the commands)

## clap's own words in a command's help (English help is clap's own)

cli-help-verb = The commands, or a game's rules, options and move syntax
cli-heading-usage = Usage:
cli-heading-options = Options
cli-heading-arguments = Arguments
cli-heading-commands = Commands
cli-heading-global = Global options (before or after the command)
cli-flag-help = Print help
cli-flag-help-more = Print help (see more with '--help')
cli-flag-help-summary = Print help (see a summary with '-h')
cli-flag-version = Print version
cli-default = [default: { $value }]
cli-choices = [possible values: { $values }]
cli-choices-heading = Possible values:

## clap's errors (English errors are clap's own)

cli-error = error:
cli-error-unknown-argument = unexpected argument '{ $arg }' found
cli-error-unknown-command = unrecognized subcommand '{ $command }'
cli-error-invalid-value = invalid value '{ $value }' for '{ $arg }'
cli-error-value-required = a value is required for '{ $arg }' but none was supplied
cli-error-missing = the following required arguments were not provided: { $args }
cli-error-conflict = the argument '{ $arg }' cannot be used with '{ $other }'
cli-error-twice = the argument '{ $arg }' cannot be used multiple times
cli-error-too-many = unexpected value '{ $value }' for '{ $arg }' found; no more were expected
cli-error-no-equals = equal sign is needed when assigning values to '{ $arg }'
cli-error-did-you-mean = tip: a similar one exists: '{ $suggestion }'
cli-error-more = For more information, try '--help'.
cli-error-no-command = no command given
cli-error-not-utf8 = { $word } is not UTF-8
