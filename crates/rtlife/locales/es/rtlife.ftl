# rtlife: its title, the one line `list` shows, the rules and the move
# syntax that `help rtlife` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

rtlife-title = Life en tiempo real
rtlife-summary = Life al ritmo del reloj: únete cuando quieras, mueve células con puntos y supera a los demás en puntuación
rtlife-rules =
    Life en tiempo real avanza con el reloj. En cada tic (-tick, una hora por defecto), cada jugador que ha colocado células gana puntos de movimiento: uno por cada 10 células vivas, nunca menos de 1; los puntos se acumulan. Cada -gen_ticks tics (12 por defecto), todo el campo avanza una generación de Life: toda célula cuenta como vecina, sea de quien sea; una célula con 2 o 3 vecinas sobrevive y todas las demás mueren; en un punto vacío con exactamente 3 vecinas nace una célula nueva, que es del jugador dueño de al menos 2 de las 3 progenitoras, o neutral (#) si las tres son de dueños distintos.

    La primera jugada de un jugador coloca -start_cells células (10 por defecto) en puntos vacíos, todas conectadas (en horizontal, en vertical o en diagonal). El creador de la partida y los usuarios que nombra son jugadores desde el principio; cualquier otro puede unirse mientras la partida está en marcha (hasta -max_players, como mucho 26, que se muestran como las letras A..Z) con la misma jugada de colocación.

    Mover una célula cuesta la longitud del camino más corto con pasos de rey (un punto por paso, en horizontal, en vertical o en diagonal) a través de puntos vacíos: una célula no puede atravesar otra célula ni saltar por encima de ella, pero sí rodearla. Un movimiento sin un camino así, o que cueste más puntos de los que tiene el jugador, se rechaza y no cuesta nada. Varios movimientos en una misma orden se aplican en orden, todos o ninguno.

    Justo después de cada generación, cada jugador suma a su puntuación (células vivas) / (generaciones que lleva en la partida, incluida esta): 100 células tras 10 generaciones dan 10, igual que 10 células tras la primera. Un jugador que ha colocado células y se queda sin ninguna tras una generación queda fuera. Cuando al menos dos jugadores han colocado células, gana el último que quede; si los últimos jugadores desaparecen en la misma generación, gana el de mayor puntuación entre ellos (con la misma puntuación, empate). Con -generations=N gana la mayor puntuación tras la generación N entre los jugadores que siguen en el campo o, si no queda ninguno, entre los que colocaron células y no abandonaron: quien nunca colocó células no tiene puntuación con la que ganar. Las células de un jugador que abandona no pasan a nadie (se vuelven neutrales).

    Bordes: dead (nada vive fuera del campo de -width x -height), torus (el campo se cierra sobre sí mismo) o unbounded (el plano infinito; -width y -height no se usan, y los puntos pueden escribirse (x,y), con a1 = (0,0)).
rtlife-move-help =
    rtlife move <tablero#> <usuario> <contraseña> c5,d5,e5,...   primera jugada: coloca -start_cells células conectadas
    rtlife move <tablero#> <usuario> <contraseña> c5-f8           mueve una célula por el camino libre más corto
    rtlife move <tablero#> <usuario> <contraseña> c5-f8,a1-b2     varios movimientos, en orden, todos o ninguno
    Las palabras place y move pueden ir delante de los puntos (place c5,d5,e5 o move c5-f8).
    En el plano ilimitado los puntos pueden escribirse (x,y): place (-3,12),(-2,12),...

## Opciones, como las describen `help rtlife` y el formulario de desafío

rtlife-option-width = columnas de un campo acotado (las columnas después de la z son aa, ab, ..)
rtlife-option-height = filas de un campo acotado
rtlife-option-edges = dead: fuera del campo no vive nada; torus: los bordes se unen; unbounded: el plano infinito
rtlife-option-tick = tiempo real entre dos tics (los puntos de movimiento se reparten en cada tic)
rtlife-option-gen_ticks = tics entre dos generaciones
rtlife-option-start_cells = células que coloca un jugador al unirse, todas conectadas
rtlife-option-generations = la partida termina tras este número de generaciones; gana la puntuación más alta
rtlife-option-max_players = máximo de jugadores, incluidos los que se unan después

## Rechazos: preparaciones, colocaciones y movimientos

rtlife-error-setup-off = { $point } está fuera del campo
rtlife-error-setup-twice = { $point } aparece dos veces
rtlife-error-setup-owner = { $owner } no es un jugador de esta partida
rtlife-error-no-room = un campo de { $width }x{ $height } no tiene sitio para -start_cells={ $cells }
rtlife-error-max-players = -max_players={ $max }, pero hay { NUMBER($given) } jugadores en la lista
rtlife-error-too-far-out = { $point } está demasiado lejos: las coordenadas van de -{ $limit } a { $limit }
rtlife-error-off-field = { $point } está fuera del campo (de a1 a { $last })
rtlife-owner-player = una célula de { $user }
rtlife-owner-someone = una célula de un jugador
rtlife-owner-neutral = una célula neutral
rtlife-error-placed = ya has colocado tus células: muévelas con move c5-f8
rtlife-error-place-count = coloca exactamente { $cells } células, no { $given }
rtlife-error-twice = { $point } aparece dos veces
rtlife-error-taken = { $point } no está vacío: tiene { $owner }
rtlife-error-connected = todas las células deben estar conectadas (tocándose en horizontal, vertical o diagonal): { $loose } no está conectada con { $first }
rtlife-error-place-first = coloca primero tus { $cells } células: place c5,d5,...
rtlife-error-from-empty = { $from } está vacío: no hay ninguna célula que mover
rtlife-error-not-yours = { $from } tiene { $owner }: solo puedes mover tus propias células
rtlife-error-no-move = { $from }-{ $to } no mueve la célula
rtlife-error-blocked = { $from } no puede llegar a { $to }: otras células bloquean todos los caminos
rtlife-error-cost = { $from }-{ $to } cuesta al menos { $cost } puntos; tienes { $left }{ $step ->
    [first] {""}
   *[later] {" "}tras los movimientos anteriores
}
rtlife-error-too-far = { $from }-{ $to } está demasiado lejos para buscar (los movimientos de un comando pueden visitar { $max } puntos): muévete en pasos más cortos
rtlife-error-no-moves = da los movimientos, como move c5-f8
rtlife-error-commas = falta un movimiento entre comas: escribe c5-f8,a1-b2
rtlife-error-from-to = { $text } no es un movimiento: escribe origen-destino, como c5-f8
rtlife-error-too-many = demasiados movimientos: como mucho { $max } en un comando
rtlife-error-place-what = da los { $cells } puntos que colocas, como place c5,d5,e5
rtlife-error-empty = da una jugada: place c5,d5,... o move c5-f8
rtlife-error-not-a-move = { $text } no es una jugada: escribe place c5,d5,... o move c5-f8
rtlife-error-full = la partida está completa: ya tiene sus { $players } jugadores

## Cómo terminó una partida

rtlife-outcome-vanished = los últimos jugadores desaparecieron en la misma generación
rtlife-outcome-nobody-left = no queda nadie en la partida
rtlife-outcome-generation-limit = se alcanzó el límite de generaciones

## Líneas del historial ($players: none cuando ningún jugador tiene células)

rtlife-history-wins = { $user } gana con la puntuación más alta ({ $score }): { $reason }
rtlife-history-draw = La partida termina en tablas entre { $users } con { $score } cada uno: { $reason }
rtlife-history-generation-empty = Generación { $generation }: ninguna célula
rtlife-history-generation = Generación { $generation }: { $players ->
    [none] neutrales { NUMBER($neutral) }
   *[some] { $cells }{ $neutral ->
        [0] {""}
       *[other] , neutrales { NUMBER($neutral) }
    }
}
rtlife-history-out = { $user } queda eliminado: no le quedan células
rtlife-history-joins = { $user } se une: { $cells }
rtlife-history-places = { $user } coloca: { $cells }
rtlife-history-moves = { $user } mueve { $steps } ({ NUMBER($points) } { $points ->
    [one] punto
   *[other] puntos
})

## El tablero ($generation, $tick, $n y las coordenadas son números escritos tal cual; $count, $cells y $points son cantidades)

rtlife-board-generation = Generación { $generation }, tic { $tick }
rtlife-board-ends-after = (la partida termina tras la generación { $generation })
rtlife-board-over = La partida ha terminado: { $reason }.
rtlife-board-next-tick = Próximo tic: { $when }
rtlife-board-next-generation = Próxima generación: { $when }
rtlife-board-due-now = { $time } (ahora)
rtlife-board-due-in = { $time } (dentro de { $span })
rtlife-board-days = { $n } d
rtlife-board-hours = { $n } h
rtlife-board-minutes = { $n } min
rtlife-board-seconds = { $n } s
rtlife-board-empty = El plano está vacío.
rtlife-board-plane = x de { $left } a { $right }, y de { $top } bajando a { $bottom }
rtlife-board-plane-part = (parte de la zona ocupada x de { $left } a { $right }, y de { $top } bajando a { $bottom })
rtlife-board-plane-points = los puntos son (x,y)
rtlife-board-neutral = neutral
rtlife-board-cells = { $count ->
    [one] célula
   *[other] células
}
rtlife-board-points = { $count ->
    [one] punto
   *[other] puntos
}
rtlife-board-score = puntuación { $score }
rtlife-board-not-placed = (aún sin colocar)
rtlife-board-out = (eliminado)
rtlife-board-resigned = (abandonó)
rtlife-board-winner = (ganador)
rtlife-board-draw = (tablas)
rtlife-board-legend-player = { $letter } { $user }: { NUMBER($cells) } { $cells ->
    [one] célula
   *[other] células
}, { NUMBER($points) } { $points ->
    [one] punto
   *[other] puntos
}, puntuación { $score }
rtlife-board-legend-neutral = # neutral: { NUMBER($cells) } { $cells ->
    [one] célula
   *[other] células
}
