# Las palabras propias de la línea de órdenes en torno a las respuestas del servicio.

cli-help-game-more = `tabula help { $game }` explica las reglas, las opciones y las jugadas del juego.
cli-calculator = Calculadora: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } espera una orden de juego, que empieza por su verbo: `tabula help { $game }` las enumera
cli-game-verb-calculator = { $game } espera una orden de juego, que empieza por su verbo: `tabula help { $game }` las enumera; la calculadora es `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` enumera las órdenes)

## clap's own words in a command's help (English help is clap's own)

cli-help-verb = Los comandos, o las reglas, opciones y forma de las jugadas de un juego
cli-heading-usage = Uso:
cli-heading-options = Opciones
cli-heading-arguments = Argumentos
cli-heading-commands = Comandos
cli-heading-global = Opciones globales (antes o después del comando)
cli-flag-help = Muestra la ayuda
cli-flag-help-more = Muestra la ayuda (más con '--help')
cli-flag-help-summary = Muestra la ayuda (un resumen con '-h')
cli-flag-version = Muestra la versión
cli-default = [por defecto: { $value }]
cli-choices = [valores posibles: { $values }]
cli-choices-heading = Valores posibles:

## clap's errors (English errors are clap's own)

cli-error = error:
cli-error-unknown-argument = argumento inesperado '{ $arg }'
cli-error-unknown-command = subcomando desconocido '{ $command }'
cli-error-invalid-value = valor no válido '{ $value }' para '{ $arg }'
cli-error-value-required = '{ $arg }' necesita un valor, pero no se dio ninguno
cli-error-missing = faltan estos argumentos obligatorios: { $args }
cli-error-conflict = el argumento '{ $arg }' no se puede usar con '{ $other }'
cli-error-twice = el argumento '{ $arg }' no se puede usar más de una vez
cli-error-too-many = valor inesperado '{ $value }' para '{ $arg }'; no se esperaban más
cli-error-no-equals = el valor de '{ $arg }' se da con un signo igual
cli-error-did-you-mean = consejo: existe uno parecido: '{ $suggestion }'
cli-error-more = Para más información, prueba '--help'.
cli-error-no-command = no se dio ningún comando
cli-error-not-utf8 = { $word } no es UTF-8
