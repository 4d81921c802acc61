# Respuestas a las órdenes del lenguaje de órdenes: el encabezado (el asunto
# del correo) y el texto.

language-set-subject = Idioma
language-set = Las respuestas y el correo de { $user } están ahora en español.

## Cuentas

signup-subject = Bienvenida a Tabula
signup-text =
    Hola, { $user }. Tu cuenta está lista.
    Envía `help` para ver las órdenes y `list` para ver los juegos.
signoff-subject = Cuenta cerrada
signoff-text = La cuenta { $user } está cerrada. Hasta pronto.
password-subject = Contraseña cambiada
password-text = La contraseña de { $user } ha cambiado. Todos los tokens y sesiones de la cuenta han terminado.
address-subject = Dirección cambiada
address-text = El correo de { $user } va ahora a { $addresses }.
notify-subject = Avisos
notify-text = Los avisos por correo de { $user } están { $state ->
        [on] activados
       *[off] desactivados
    }.
vacation-subject = Vacaciones
vacation-text = { $user } está de vacaciones { $days ->
        [one] { $days } día
       *[other] { $days } días
    }, hasta { $until }: sin recordatorios ni derrotas por abandono hasta entonces.
vacation-back = { $user } ha vuelto de vacaciones.
limit-subject = Límite
limit-text = { $user } acepta desafíos mientras tenga menos de { $limit } partidas en curso.
limit-off = { $user } no tiene límite de partidas en curso.
policy-subject = Política de desafíos
policy-ask = Los desafíos que nombran a { $user } esperan ahora a que { $user } los acepte.
policy-open = Los desafíos que nombran a { $user } empiezan ahora de inmediato.
bot-subject = Cuenta de bot
bot-on =
    { $user } es ahora una cuenta de bot: se muestra como bot y sus partidas las juega un programa.
    Ejecuta uno en tu máquina con `tabula bot connect URL --token TOKEN -- COMMAND`
    (un token: `POST /api/v1/tokens`), o pide al operador que lo aloje.
    Los desafíos empiezan { $policy ->
        [ask] cuando el programa los acepta
       *[open] de inmediato
    } (`policy { $user } PASSWORD open|ask`).
bot-off = { $user } vuelve a ser la cuenta de una persona.

## Un tablero: encabezado (el asunto del correo), estado y lista de jugadas

heading = { $game } tablero { $board }
heading-to-move = { $game } tablero { $board } { $users }
heading-over = { $game } tablero { $board } terminado
heading-cancelled = { $game } tablero { $board } cancelado
heading-at-move = { $game } tablero { $board } tras la jugada { $moves }
heading-history = { $game } tablero { $board } historial
outcome-won = Partida ganada por { $winner } ({ $reason }).
outcome-drawn = Partida en tablas ({ $reason }).
outcome-drawn-between = Partida en tablas entre { $players } ({ $reason }).
status-challenge-waits = Este desafío espera la aceptación de { $users }.
status-challenge-rejected = Este desafío fue rechazado.
status-turn = Es el turno de { $user }.
status-simultaneous = Esperando las jugadas de { $users } (las jugadas son secretas hasta que lleguen todas).
status-clock = La partida va con reloj: cualquier jugador puede jugar en cualquier momento.
status-proposes-draw = { $user } propone tablas; se espera la respuesta de { $others } (aceptar o rechazar).
status-proposes-undo = { $user } propone deshacer la última jugada; se espera la respuesta de { $others } (aceptar o rechazar).
moves-heading = Jugadas:
moves-cut = ({ $lines } líneas anteriores: la orden history las muestra todas)
move-taken-back = (deshecha)
history-empty = Todavía no hay jugadas.

## Jugadas en espera y vistas previas

queued-text =
    En cola para tu próximo turno: { $text }
    (se hará entonces si entonces es legal)
submitted-text =
    Enviada, todavía sin jugar: { $text }
    El tablero quedaría como se ve abajo. Envía `{ $game } confirm { $board } { $user } PASSWORD` para hacerla.
preview-text = Vista previa (no se juega nada): { $text }
preview-completes-step = Esta jugada completa el paso: las jugadas secretas de los demás se muestran, y el paso se resuelve, solo cuando se hace. El tablero de abajo muestra solo tu parte, como si los demás aún no hubieran jugado.
queue-dropped-subject = Tablero { $board }: jugada en cola descartada
queue-dropped-text = Tu jugada en cola { $text } en el tablero { $board } no era legal cuando llegó tu turno, así que se descartó.

## Chat y suscripciones

chat-subject = { $game } tablero { $board }: mensaje de { $user }
chat-text = { $user } escribe en el tablero { $board } de { $game }:
chat-sent = Enviado a los demás jugadores del tablero { $board }.
comment-from = Comentario de { $user }:
subscribed = { $user } recibirá las novedades del tablero { $board }.
unsubscribed = { $user } ya no recibe las novedades del tablero { $board }.

## Desafíos, recordatorios y resúmenes

challenged = Te han desafiado en { $game }, tablero { $board }.
challenged-accept = Te han desafiado en { $game }, tablero { $board }. Acepta con `{ $kind } accept { $board } { $user } PASSWORD` o rechaza con `{ $kind } reject { $board } { $user } PASSWORD`.
reminder-subject = { $game } tablero { $board } { $user }: te toca
reminder-text = Recordatorio: han pasado { $idle } desde la última jugada en el tablero { $board } de { $game }, y te toca a ti.
forfeit-warning-subject = { $game } tablero { $board } { $user }: pierdes por abandono en { $left }
forfeit-warning-text = No has jugado en el tablero { $board } de { $game } desde hace { $idle }. Si no juegas en { $left }, pierdes la partida por abandono.
digest-subject = { $game } tablero { $board }: resumen del día
digest-text = El día en el tablero { $board } de { $game } ({ $day }): jugadas de { $moves }.

## Listas, clasificaciones y puntuaciones

games-subject = { $game }: partidas de { $user } ({ $which ->
        [active] en curso
        [finished] terminadas
        [waiting] esperando su jugada
       *[all] todas
    })
games-line = Tablero { $board }  { $players }  ({ $state })
games-none = No hay tableros.
boards-state-over = terminada
boards-state-cancelled = cancelada
boards-state-proposed = esperando aceptación
boards-state-running = en curso
boards-state-to-move = le toca a { $users }
standings-subject = { $game }: clasificación
standings-none = Todavía no hay partidas terminadas.
ratings-subject = { $game }: puntuaciones
ratings-explained = Puntuaciones Glicko-2 sobre todas las partidas terminadas, en orden (inicio 1500, desviación RD 350; la puntuación está a menos de 2 RD de la real con un 95 % de confianza aproximadamente; una partida de varios jugadores cuenta como un enfrentamiento entre cada pareja).
column-player = jugador
column-won = ganadas
column-lost = perdidas
column-drawn = tablas
column-rating = puntos
column-deviation = RD
column-games = partidas
