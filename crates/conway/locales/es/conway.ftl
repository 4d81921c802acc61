# conway: its title, the one line `list` shows, the rules and the move
# syntax that `help conway` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

conway-title = Conway
conway-summary = Life para varios jugadores sobre un toro: coloca fichas y sobrevive a las generaciones
conway-rules =
    El tablero es un toro (el borde superior se une con el inferior y el izquierdo con el derecho) y empieza vacío. Los jugadores colocan sus fichas por turnos en puntos vacíos. La jugada m (contando las jugadas de todos los jugadores desde 1) puede colocar hasta min(m, P) fichas, donde P es la opción -place (4 por defecto): una en la primera jugada, dos en la segunda, y así hasta P. Se pueden colocar menos, y 'pass' no coloca ninguna; 'random' coloca el número permitido en puntos vacíos al azar y se marca con * en la lista de jugadas.

    A partir de la jugada P, después de colocar las fichas de cada jugada, todo el tablero avanza una generación de Life: toda ficha cuenta como vecina, sea de quien sea; una ficha con 2 o 3 vecinas sobrevive y todas las demás mueren; en un punto vacío con exactamente 3 vecinas nace una ficha nueva, que es del jugador dueño de al menos 2 de las 3 progenitoras, o neutral (#) si las tres son de dueños distintos.

    Cuando todos los jugadores han jugado una vez, el que se queda sin fichas tras una generación queda fuera. Gana el último jugador con fichas; los jugadores que desaparecen en la misma generación empatan. Con -max_turns=N, tras N jugadas gana el jugador con más fichas (con las mismas, empate). Un jugador que abandona queda fuera en el acto y sus fichas pasan a ser neutrales.
conway-move-help =
    conway move <tablero#> <usuario> <contraseña> a1,b2,c3   coloca fichas (letra de columna, número de fila; a1 es la esquina inferior izquierda)
    conway move <tablero#> <usuario> <contraseña> a1         coloca una ficha
    conway move <tablero#> <usuario> <contraseña> pass       no coloca nada
    conway move <tablero#> <usuario> <contraseña> random     coloca el número permitido en puntos vacíos al azar

## Opciones, como las describen `help conway` y el formulario de desafío

conway-option-size = el tablero tiene size x size puntos (las columnas después de la z son aa, ab, ..)
conway-option-place = máximo de fichas que coloca una jugada; las generaciones emfichan en esta jugada
conway-option-max_turns = tras este número de jugadas gana el jugador con más fichas

## Rechazos

conway-error-empty = da puntos como a1,b2, o pass, o random
conway-error-too-many = la jugada { $move } puede colocar como mucho { $allowed ->
    [one] { NUMBER($allowed) } ficha
   *[other] { NUMBER($allowed) } fichas
}, no { $given }
conway-error-off-board = { $point } está fuera del tablero (de a1 a { $last })
conway-error-twice = { $point } aparece dos veces
conway-error-taken = { $point } no está vacío: tiene una ficha de { $user }
conway-error-taken-neutral = { $point } no está vacío: tiene una ficha neutral

## Cómo terminó una partida

conway-outcome-vanished = los últimos jugadores desaparecieron a la vez
conway-outcome-most-pieces = más piezas tras el último turno
conway-outcome-equal-pieces = las mismas piezas tras el último turno

## Líneas del historial

conway-history-out = { $user } queda eliminado: no le quedan piezas
conway-history-vanished = La partida termina en tablas: { $users } desaparecieron a la vez
conway-history-most-pieces = { $user } gana con más piezas ({ NUMBER($pieces) })
conway-history-equal-pieces = La partida termina en tablas: { $users } tienen { NUMBER($pieces) } { $pieces ->
    [one] pieza
   *[other] piezas
} cada uno

## El tablero ($moves y $generation son números escritos tal cual)

conway-board-pieces = { NUMBER($pieces) } { $pieces ->
    [one] ficha
   *[other] fichas
}
conway-board-out = (eliminado)
conway-board-resigned = (abandonó)
conway-board-winner = (ganador)
conway-board-draw = (tablas)
conway-board-neutral = neutral
conway-board-move = Jugada { $moves }, generación { $generation }
conway-board-may-place = la próxima jugada puede colocar hasta { NUMBER($pieces) } { $pieces ->
    [one] ficha
   *[other] fichas
}
conway-board-ends-after = la partida termina tras la jugada { $moves }
conway-board-to-move = (le toca)
