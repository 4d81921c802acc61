# Las palabras propias de la línea de órdenes en torno a las respuestas del servicio.

cli-help-game-more = `tabula help { $game }` explica las reglas, las opciones y las jugadas del juego.
cli-calculator = Calculadora: `tabula { $game } { $word } --help`.
cli-game-verb = { $game } espera una orden de juego, que empieza por su verbo: `tabula help { $game }` las enumera
cli-game-verb-calculator = { $game } espera una orden de juego, que empieza por su verbo: `tabula help { $game }` las enumera; la calculadora es `tabula { $game } { $word } --help`
cli-usage-hint = (`tabula help` enumera las órdenes)
