# intervalo: its title, the one line `list` shows, the rules and the move
# syntax that `help intervalo` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language. The Spanish rules use the words of the game's own community:
# tira, casilla, ficha, ficha neutral, turno, punto.

intervalo-title = Intervalo
intervalo-summary = dos jugadores eligen a la vez casillas de una tira; los intervalos puntúan
intervalo-rules =
    Los dos jugadores comparten una tira de casillas numeradas desde el 1 (64 por defecto), todas vacías
    al comenzar. En cada turno, ambos eligen en secreto una casilla libre; una vez hecha, la elección
    no se puede cambiar, y ninguno ve la del otro hasta que los dos han elegido.
    - Si eligen la misma casilla, se coloca en ella una ficha neutral.
    - Si eligen casillas distintas, en cada una se coloca una ficha del jugador que la eligió. Luego se
      cuentan las fichas de cada jugador que hay entre las dos casillas elegidas (ambas incluidas), y quien
      tenga más fichas propias en ese tramo obtiene un punto. Si tienen las mismas, nadie puntúa.
    La partida termina cuando ya no quedan casillas libres (si solo queda una, la eligen los dos y recibe
    una ficha neutral). Gana quien tenga más puntos; con los mismos puntos, la partida termina en empate.
intervalo-move-help =
    El número de una casilla: `intervalo move B usuario contraseña 17`. La elección se mantiene en secreto
    hasta que los dos jugadores han elegido; entonces ambos ven las dos elecciones y el marcador.

## Opciones, como las describen `help intervalo` y el formulario de desafío

intervalo-option-cells = número de casillas de la tira

## Rechazos ($text es lo escrito, entre comillas)

intervalo-error-empty = una jugada es el número de una casilla, como 17
intervalo-error-not-a-number = { $text } no es el número de una casilla: escribe un número como 17
intervalo-error-not-a-cell = { $text } no es el número de una casilla
intervalo-error-no-cell = no hay casilla { $cell }: las casillas de la tira están numeradas del 1 al { $cells }
intervalo-error-chosen = no es tu turno: ya elegiste casilla en este turno, y la elección no se puede cambiar
intervalo-error-taken = la casilla { $cell } no está libre: ya tiene una ficha
intervalo-error-cells = -cells debe ser de 2 a { $max }, no { $given }

## Cómo terminó una partida

intervalo-outcome-resigned = { $user } abandonó
intervalo-outcome-more-points = más puntos
intervalo-outcome-equal-points = los mismos puntos

## Líneas del historial

intervalo-history-chooses = { $user } elige la casilla { $cell }
intervalo-history-chosen = { $user } ya eligió casilla
intervalo-history-neutral = los dos eligieron la casilla { $cell }: una ficha neutral
intervalo-history-scores = { $p0 } { $c0 }, { $p1 } { $c1 }: { $user } obtiene un punto
intervalo-history-no-point = { $p0 } { $c0 }, { $p1 } { $c1 }: nadie puntúa
intervalo-history-turn = Turno { $turn }: { $what } ({ $p0 } { $s0 }, { $p1 } { $s1 }).

## El tablero ($turn, $cell, $c0, $c1, $s0 y $s1 son números escritos tal cual; $l0 y $l1 son las letras de los asientos; $you es you u other)

intervalo-board-score = Puntos: { $l0 } { $p0 } { $s0 }, { $l1 } { $p1 } { $s1 }
intervalo-board-neutral = los dos eligieron la misma casilla: ficha neutral
intervalo-board-scores = { $user } obtiene un punto
intervalo-board-no-point = nadie puntúa
intervalo-board-last = Último turno ({ $turn }): { $p0 } { $c0 }, { $p1 } { $c1 }: { $what }
intervalo-board-wins = gana { $user }: { $reason }
intervalo-board-draw = tablas: { $reason }
intervalo-board-waiting = Turno { $turn }: se espera a { $users }
intervalo-board-you-chose = elegiste la casilla { $cell }
intervalo-board-legend-player = { $letter } { $user }{ $you ->
    [you] {" "}(tú)
   *[other] {""}
}: { NUMBER($points) } { $points ->
    [one] punto
   *[other] puntos
}
intervalo-board-legend-neutral = # ficha neutral: los dos eligieron la misma casilla
intervalo-board-legend-interval = el intervalo del último turno
intervalo-board-cell = casilla { $cell }: { $what }
intervalo-board-cell-neutral = ficha neutral
intervalo-board-cell-empty = libre
