# Lo que comparten todos los juegos: rechazos de una jugada o de un evento,
# errores al preparar una partida y de las opciones, y la ayuda de las
# opciones de todos los juegos. Los nombres de las opciones (-seed) y la
# sintaxis de las jugadas son el protocolo y no cambian.

## Jugadas y eventos

move-error-not-your-turn = no es tu turno
move-error-not-your-turn-next = no es tu turno; es el turno de { $user }
move-error-game-over = la partida ha terminado
move-error-clock-seat = los eventos de reloj no tienen jugador
move-error-no-clock = no toca ningún evento de reloj
move-error-already-in = { $user } ya está en esta partida
move-error-join-seat = el evento de unión indica un puesto equivocado
move-error-no-player = evento sin jugador
move-error-no-seat = no existe ese puesto
move-error-no-player-seat = no existe ese jugador
move-error-not-in-game = ya no participas en esta partida
move-error-nothing-proposed = no se ha propuesto nada
move-error-already-proposed = { $user } ya ha propuesto { $proposal ->
    [draw] tablas
   *[undo] deshacer una jugada
}: acéptalo o recházalo primero
move-error-nothing-to-undo = no hay ninguna jugada que deshacer
move-error-already-accepted = ya has aceptado { $proposal ->
    [draw] las tablas
   *[undo] deshacer la jugada
}
move-error-no-join = no es posible unirse a una partida de { $game } ya empezada

## Preparar una partida

setup-error-seed = -seed no se puede usar aquí: { $game } con estas opciones oculta jugadas a sus jugadores, y quien conozca la semilla podría deducir sus sorteos; quita -seed
setup-error-player-count = { $game } necesita de { $min } a { $max } jugadores, no { $given }
setup-error-duplicate-player = { $user } aparece dos veces

## Opciones

option-error-unknown = opción desconocida -{ $name } para { $game } (opciones: { $known })
option-error-bad-value = -{ $name }: { $problem }
option-error-repeated = -{ $name } aparece dos veces
option-error-flag = es un interruptor: escribe solo -{ $name }
option-error-needs-number = necesita un número: -{ $name }=N
option-error-not-number = { $value } no es un número entero
option-error-range = debe estar entre { $min } y { $max }, no { $value }
option-error-needs-text = necesita un valor: -{ $name }=TEXTO
option-error-text-length = debe tener de { NUMBER($min, useGrouping: "false") } a { NUMBER($max, useGrouping: "false") } caracteres ({ $accepts }), no { NUMBER($length, useGrouping: "false") }
option-error-text-letters = debe ser { $accepts }
option-error-needs-duration = necesita una duración: -{ $name }=1h
option-error-not-duration = { $value } no es una duración (usa 30s, 15m, 1h, 7d o 2w)
option-error-needs-choice = necesita uno de estos: { $choices }
option-error-choice = debe ser uno de estos: { $choices }, no { $value }

option-nag = envía un recordatorio al jugador que lleve este tiempo sin mover
option-forfeit = retira al jugador que lleve este tiempo sin mover; si ninguno de los que siguen en la partida ha movido, la partida termina en tablas entre ellos
option-seed = reparte la partida a partir de esta semilla en lugar de una al azar: la misma semilla reparte la misma partida, para demostraciones y pruebas; no se admite en un juego que oculta jugadas a sus jugadores, porque quien conozca la semilla podría deducir sus sorteos

## Puntos de una cuadrícula (a1, (x,y)); $text es lo escrito, entre comillas

point-error-xy = { $text } no es un punto: escribe (x,y)
point-error-whole = { $text } no es un punto: las coordenadas son números enteros
point-error-letter-number = { $text } no es un punto: escribe la letra de una columna y el número de una fila, como c5
point-error-row = { $text } no es un punto: las filas empiezan en 1
point-error-paren = { $text }: falta ')'
point-error-too-many = demasiados puntos: como mucho { $max }
point-error-trailing-comma = falta un punto después de la última coma
point-error-commas = { $text }: los puntos se separan con comas

## Cómo terminó una partida (el motivo en la línea del resultado)

outcome-last-standing = último jugador en pie
outcome-forfeited = todos los jugadores perdieron por tiempo
outcome-draw-agreed = tablas acordadas

## Líneas del historial comunes a todos los juegos ($proposal es draw o undo)

history-resigns = { $user } abandona
history-last-standing = { $user } gana: último jugador en pie
history-all-forfeit = { $users } pierden todos por tiempo ({ $why }): la partida termina en tablas.
history-with-reason = { $line } ({ $reason })
history-proposes = { $user } propone { $proposal ->
    [draw] tablas
   *[undo] deshacer la última jugada
}
history-accepts = { $user } acepta { $proposal ->
    [draw] las tablas
   *[undo] deshacer la jugada
}
history-rejects = { $user } rechaza { $proposal ->
    [draw] las tablas
   *[undo] deshacer la jugada
}
history-draw-agreed = La partida termina en tablas de común acuerdo.
history-last-taken-back = Se deshace la última jugada.
history-move-taken-back = Se deshace la jugada { $move } de { $user }.
history-users-last-taken-back = Se deshace la última jugada de { $user }.

## Por qué el servidor hizo abandonar a un jugador

resign-reason-server = abandono impuesto por el servidor
resign-reason-signed-off = cerró su cuenta
resign-reason-no-move = el bot no encontró jugada
resign-reason-forfeited = perdió por tiempo: sin jugar en { $span }

## Partes de una línea, unidas

list-comma = { $first }, { $rest }
list-semicolon = { $first }; { $rest }
