# Las páginas web: los textos de las plantillas, del código de las páginas
# y del script de las páginas. Los mensajes cuyo id termina en -html son
# marcado: sus argumentos se escapan, el resto se muestra tal cual.

## El marco de cada página

nav-games = Partidas
nav-new-game = Nueva partida
nav-tournaments = Torneos
nav-your-turn = Tu turno
nav-waiting = esperando
nav-my-games = Mis partidas
nav-account = Cuenta
nav-log-out = Salir
nav-log-in = Entrar
nav-sign-up = Registrarse
footer = Tabula: ADN, Rewrite, Intervalo, Conway y Life en tiempo real por correo, terminal, web y API
footer-api = API
language-menu = Idioma

## Tablas de partidas

table-label = Partidas
table-board = Tablero
table-game = Juego
table-players = Jugadores
table-state = Estado
table-moves = Jugadas
table-updated = Actualizada
table-moves-unit = { $count ->
    [one] jugada
   *[other] jugadas
}
badge-bot = bot
state-over = terminada
state-rejected = desafío rechazado
state-proposed = esperando aceptación
state-running = en curso
state-to-move = juega { $players }
why-move = tu jugada
why-challenge = desafío: acepta o rechaza
why-offer = una oferta por responder
unknown-game = Juego desconocido

## La lista de partidas

games-title = Partidas
games-none-waiting = Ninguna partida te espera.
games-start-hint-html = Empieza una partida desde <a href="/challenge">Nueva partida</a>: contra un amigo por su usuario, o contra uno de los bots.
games-filter-game = Juego
games-filter-all-games = todos los juegos
games-filter-player = Jugador
games-filter-user-id = usuario
games-filter-state = Estado
games-state-all = cualquiera
games-state-running = en curso
games-state-proposed = esperando aceptación
games-state-active = en juego
games-state-over = terminadas
games-state-finished = acabadas
games-state-cancelled = rechazadas
games-filter-show = Mostrar
games-none-match = Ninguna partida coincide.
games-pages = Páginas
games-newest = Partidas más nuevas
games-older = Partidas anteriores

## La página de una partida

game-your-turn = Tu turno
game-board-title = { $title }, tablero { $board }
game-board-no = tablero { $board }
game-live-title = Esta página sigue la partida mientras ocurre
game-bot-title = un programa juega en este asiento
game-you = (tú)
game-not-accepted = (aún no ha aceptado)
game-challenged = Te han desafiado a esta partida.
button-accept = Aceptar
button-reject = Rechazar
game-move-join = Únete a esta partida: tu primera jugada
game-move-replace = Tu jugada está hecha: puedes cambiarla hasta que todos hayan jugado
game-move-play = Tu jugada
game-move-placeholder-click = toca el tablero o escribe
game-move-placeholder = escribe tu jugada
game-move-button = Jugar
game-move-help = Cómo escribir una jugada
game-offer-draw = Ofrecer tablas
game-offer-undo = Pedir deshacer
game-resign-confirm = ¿Abandonar esta partida?
game-resign = Abandonar
game-rematch = Revancha
game-rematch-help = los mismos jugadores y opciones, en un tablero nuevo
game-log-in-to-play-html = <a href="{ $href }">Entra</a> para jugar.
game-board-view = Vista del tablero
game-zoom-in = Acercar
game-zoom-out = Alejar
game-zoom-reset = Restablecer la vista
game-tick-soon = Próximo paso en un momento
game-replay = Repetición
game-replay-start = Inicio
game-replay-previous = Jugada anterior
game-replay-next = Jugada siguiente
game-replay-latest = Última
game-moves = Jugadas
game-chat = Chat
game-no-chat = Aún no hay mensajes.
game-chat-label = Mensaje a los demás jugadores
game-chat-placeholder = un mensaje a los demás jugadores
game-chat-send = Enviar
game-chat-players-only = Solo los jugadores de este tablero escriben aquí.
game-text-board = El tablero como texto
rules-of = Reglas de { $title }
game-options = Opciones:
options-defaults = las predeterminadas
ladder-title = Clasificación de { $title }
game-your-turn-line = Es tu turno.
game-no-board = No hay ningún tablero { $board }.
game-bad-at = ?at={ $at }: escribe un número de jugada, 0 o más
game-unknown-kind = una partida de un juego desconocido
game-write-move = Escribe primero una jugada.
game-move-too-long = { $max ->
    [one] Una jugada tiene como mucho { $max } carácter.
   *[other] Una jugada tiene como mucho { $max } caracteres.
}
game-move-one-line = Una jugada es una sola línea de texto.
game-move-pasted = Escribe aquí solo la jugada, sin las palabras del comando de correo que van delante.
game-no-action = no existe la acción { $action }
game-write-chat = Escribe algo primero.
game-chat-too-long = { $max ->
    [one] Una línea de chat tiene como mucho { $max } carácter.
   *[other] Una línea de chat tiene como mucho { $max } caracteres.
}
game-answer = responde accept o reject

## Los textos del script de la página (el script rellena los argumentos entre llaves)

js-live = en directo
js-reconnecting = reconectando
js-to-move = ◀ juega
js-offer-draw = { $user } ofrece tablas.
js-offer-undo = { $user } pide deshacer la última jugada.
js-taken-back = (deshecha)
js-no-moves = Aún no hay jugadas.
js-position-after = tras la jugada { $position } de { $total }
js-position-latest = jugada { $total } (la última)
js-tick-in = Próximo paso en { $seconds } s
js-tick-now = Próximo paso ahora
js-refused = El servidor lo rechazó.
js-status = El servidor respondió { $status }.
js-not-sent = No enviado: falló la conexión. Inténtalo de nuevo.

## Empezar partidas

challenge-list-title = Empieza una partida
challenge-list-log-in-html = <a href="{ $login }">Entra</a> o <a href="{ $signup }">regístrate</a> para desafiar a otros jugadores.
challenge-list-about = Juega contra otro usuario o contra uno de los bots del servidor: el formulario de cada juego los ofrece.
challenge-title = Desafío: { $title }
challenge-heading = { $title }: nueva partida
challenge-ladder = La clasificación de { $title }
challenge-log-in-html = <a href="{ $login }">Entra</a> o <a href="{ $signup }">regístrate</a> para empezar una partida.
challenge-players = Jugadores, en orden de turno
challenge-players-placeholder = tú y tus rivales
challenge-players-range = De { $min } a { $max } usuarios, separados por espacios.
challenge-players-exact = { $count ->
    [one] { $count } usuario.
   *[other] { $count } usuarios, separados por espacios.
}
challenge-bots-as-html = Los bots juegan como <code>bot:NOMBRE</code>.
challenge-bot = Jugar contra un bot
challenge-no-bot = sin bot
challenge-bot-help-html = Se une como último jugador y juega en cuanto le toca ({ $bots }; <code>bot:mcts</code> es el más fuerte).
challenge-options = Opciones
challenge-default = predeterminado
challenge-default-is = predeterminado ({ $default })
challenge-not-set = sin fijar
challenge-start = Empezar la partida
challenge-accepts-range = de { $min } a { $max }
challenge-accepts-text = de { $min } a { $max } caracteres: { $accepts }
challenge-accepts-duration = una duración como 30m, 12h, 7d o 2w, de { $min } a { $max } (un número solo va en { $unit })
challenge-no-game = Aquí no hay ningún juego { $kind }.
challenge-no-such-bot = Aquí no hay ningún bot { $bot } para { $title }.
challenge-name-players = Nombra a los jugadores, en orden de turno.
challenge-option-spaces = -{ $option }: un valor no lleva espacios
challenge-too-many-fields = demasiados campos en el formulario
challenge-rematch-refused = Solo un jugador de una partida terminada puede pedir la revancha.

## Usuarios y clasificaciones

user-built-in-bot = Un bot integrado que juega el servidor.
user-hosted-bot = Una cuenta de bot: un programa juega sus partidas, ejecutado por el servidor. Juega desde { $since }.
user-bot = Una cuenta de bot: un programa juega sus partidas. Juega desde { $since }.
user-since = Juega desde { $since }.
user-closed = Esta cuenta está cerrada.
user-challenge = Desafiar a { $user }
user-running = Partidas en curso
user-finished = Partidas terminadas
user-none-running = Ninguna partida en curso.
user-none-finished = Aún no hay partidas terminadas.
ladder-about = Puntuaciones Glicko-2 de cada jugador, personas y bots, sobre todas las partidas terminadas de { $title } en el orden en que acabaron. Una puntuación empieza en 1500 con una desviación (RD) de 350; la fuerza real está a menos de dos desviaciones de la puntuación con un 95 % de confianza aproximadamente, y la desviación se reduce según se juegan partidas. Una partida de varios jugadores cuenta como un enfrentamiento entre cada pareja.
ladder-start = Empezar una partida de { $title }
ladder-games = Partidas de { $title }
ladder-label = Clasificación
ladder-rank = Puesto
ladder-player = Jugador
ladder-rating = Puntuación
ladder-rd = RD
ladder-games-played = Partidas
ladder-won = Ganadas
ladder-lost = Perdidas
ladder-drawn = Tablas
ladder-more = Los primeros { $shown } de { $total } jugadores.
ladder-none = Aún no hay partidas terminadas de { $title }.
no-game = No existe el juego { $kind }.

## Registro, entrada y la cuenta

field-user-id = Usuario
field-password = Contraseña
login-new-here-html = ¿Eres nuevo? <a href="{ $href }">Regístrate</a>.
signup-user-help-html = Letras, cifras, <code>_ - .</code>; empezando por una letra. También es tu nombre en los comandos por correo.
signup-password-help = Sin espacios. Los comandos por correo también la usan, así que no reutilices una valiosa.
signup-password-again = Repite la contraseña
signup-email = Correo electrónico (opcional)
signup-email-help = Para avisos y para jugar por correo.
signup-have-account-html = ¿Ya tienes cuenta? <a href="{ $href }">Entra</a>.
login-wrong = Usuario o contraseña incorrectos.
signup-passwords-differ = Las dos contraseñas no coinciden.
form-expired = Este formulario ha caducado o no vino de este sitio. Vuelve a cargar la página e inténtalo de nuevo.
form-bad = formulario incorrecto: { $error }
bad-address = dirección incorrecta: { $error }
log-in-first = Entra primero.
account-heading = Cuenta: { $user }
account-settings = Ajustes
account-notify = Avisos por correo
account-notify-on = Escríbeme cuando me toque y cuando cambien mis partidas
account-notify-off = Sin correo
account-notify-save = Guardar avisos
account-language = Idioma
account-language-about = Las páginas y el correo llegan en este idioma, en todos los dispositivos en los que entres.
account-language-save = Guardar el idioma
account-vacation = Vacaciones
account-vacation-until = De vacaciones hasta { $until }: sin recordatorios ni abandonos forzosos hasta entonces.
account-vacation-none = No estás de vacaciones.
account-vacation-days = Días fuera (vacío: de vuelta de vacaciones)
account-vacation-save = Guardar vacaciones
account-policy = Desafíos que me nombran
account-policy-open = Empiezan enseguida
account-policy-ask = Esperan a que los acepte
account-policy-save = Guardar la política de desafíos
account-limit = Límite de partidas
account-limit-label = Máximo de partidas en curso a las que se me puede desafiar (vacío: sin límite)
account-limit-save = Guardar el límite de partidas
account-emails = Direcciones de correo
account-emails-label = Direcciones; la primera recibe el correo
account-your-password = Tu contraseña
account-emails-save = Cambiar las direcciones
account-password-current = Contraseña actual
account-password-new = Contraseña nueva
account-password-new-again = Repite la contraseña nueva
account-password-ends = Se cierran todas las demás sesiones y todos los tokens de la API.
account-password-save = Cambiar la contraseña
account-tokens = Tokens de la API
account-tokens-about-html = Los programas y los bots usan un token en lugar de tu contraseña: <code>Authorization: Bearer TOKEN</code> en las peticiones a <a href="/api/openapi.json">la API</a>, con <code>-</code> como contraseña en los comandos.
account-token-new = Tu token nuevo, que solo se muestra esta vez:
account-token-name = Nombre
account-token-made = Creado
account-token-used = Último uso
account-token-revoke = Revocar
account-token-no-name = (sin nombre)
account-token-never = nunca
account-token-revoked = revocado el { $when }
account-tokens-none = Aún no hay tokens.
account-token-new-name = Nombre del token nuevo
account-token-placeholder = mi bot
account-token-make = Crear un token
account-no-token = No existe ese token.
account-close = Cerrar la cuenta
account-close-about = Dejas todas las partidas en curso (abandonadas) y ya no podrás entrar. Las partidas jugadas quedan registradas.
account-close-confirm = Quiero cerrar mi cuenta
account-close-ask = ¿Cerrar tu cuenta para siempre?
account-close-button = Cerrar mi cuenta
account-done-password = Tu contraseña ha cambiado. Se han cerrado todas las demás sesiones y todos los tokens.
account-done-emails = Tus direcciones han cambiado.
account-done-notify = Tu ajuste de avisos está guardado.
account-done-vacation = Tus vacaciones están guardadas.
account-done-limit = Tu límite de partidas está guardado.
account-done-policy = Tu política de desafíos está guardada.
account-done-language = Tu idioma está guardado.
account-new-passwords-differ = Las dos contraseñas nuevas no coinciden.
account-not-a-number = { $value } no es un número entero
account-tick-to-close = Marca la casilla para confirmar que quieres cerrar la cuenta.
account-no-setting = No existe el ajuste { $setting }.

## Páginas de error

error-title = { $status ->
    [400] Petición incorrecta
    [401] No autorizado
    [403] Prohibido
    [404] No encontrado
    [405] Método no permitido
    [409] Conflicto
    [413] Petición demasiado grande
    [429] Demasiadas peticiones
    [500] Error interno del servidor
    [503] Servicio no disponible
   *[other] Error
}
error-back = Volver a las partidas
error-no-page = No existe esa página.
error-method = { $path } no acepta peticiones { $method }
error-internal-page = error interno: no se pudo generar la página

## Torneos

tournaments-about-html = Ligas entre bots, jugadas con <code>tabula tournament</code> sobre la base de datos de este servidor. Participan los bots integrados y los programas que hablan el protocolo de bots.
tournaments-number = N.º
tournaments-bots = Bots
tournaments-games = Partidas
tournaments-started = Inicio
tournaments-won-by-html = ganado por <strong>{ $leader }</strong>
tournaments-running = en curso
tournaments-none = Aún no hay torneos. Juega uno, por ejemplo:
tournament-title = Torneo { $id }: { $title }
tournament-heading = Torneo de { $title }
tournament-finished = { $games ->
    [one] Terminado el { $when }: { $games } partida.
   *[other] Terminado el { $when }: { $games } partidas.
}
tournament-running = En curso (o detenido): { $done } de { $total } partidas jugadas; las cifras de abajo cubren esas.
tournament-setup-html = { $players } bots por partida, { $games ->
    [one] { $games } partida
   *[other] { $games } partidas
} por { $players ->
    [2] pareja
   *[other] combinación
}, semilla { $seed }, opciones las predeterminadas; empezado el { $started }.
tournament-setup-options-html = { $players } bots por partida, { $games ->
    [one] { $games } partida
   *[other] { $games } partidas
} por { $players ->
    [2] pareja
   *[other] combinación
}, semilla { $seed }, opciones <code>{ $options }</code>; empezado el { $started }.
tournament-standings = Clasificación
tournament-standings-about = Ordenada por partidas ganadas (las tablas no cuentan) y después por puntuación. La puntuación es un ajuste de Bradley-Terry de todas las partidas en la escala Elo (media 1500).
tournament-bot = Bot
tournament-wins = Victorias
tournament-losses = Derrotas
tournament-draws = Tablas
tournament-win-rate = Tasa de victorias
tournament-interval = Intervalo del 95 %
tournament-failures = Fallos
tournament-ratings = Puntuaciones
tournament-win-rates = Tasas de victorias y sus intervalos del 95 %
tournament-head-to-head = Cara a cara
tournament-head-to-head-about = Victorias-derrotas-tablas del bot de la fila en las partidas que jugó con el de la columna.
tournament-failed-games = { $count ->
    [one] { $count } partida terminó por un fallo de un bot (caída, tiempo, jugada ilegal): marcada abajo.
   *[other] { $count } partidas terminaron por un fallo de un bot (caída, tiempo, jugada ilegal): marcadas abajo.
}
tournament-games-count = { $count ->
    [one] { $count } partida
   *[other] { $count } partidas
}
tournament-games-shown-html = (se muestran las primeras { $shown }; todas a través de <a href="{ $href }">la API</a>)
tournament-seats = Asientos
tournament-winner = Ganador
tournament-scores = Puntos
tournament-ending = Cómo terminó
tournament-game-link = Partida { $number }: asientos, semilla, resultados y fallos
tournament-draw = tablas
tournament-bot-said = { $bot }: lo que dijo
tournament-no-stderr = (nada en su salida de errores)
tournament-json-html = En JSON: <a href="{ $standings }">clasificación y cara a cara</a>, <a href="{ $games }">partidas</a>.
tournament-cell = { $row } contra { $column }: { $won } ganadas, { $lost } perdidas, { $drawn } tablas
tournament-rating-chart = Puntuaciones (Bradley-Terry, escala Elo, media 1500)
tournament-win-chart = Tasas de victorias con sus intervalos del 95 %
tournament-not-a-number = { $text } no es un número de torneo
tournament-none = no existe el torneo { $id }
tournament-damaged = el torneo { $id } está guardado dañado

## The API's own errors (the service's errors come from errors.ftl)

bad-query = parámetros de consulta incorrectos: { $error }
limit-range = el límite debe estar entre 1 y { $max }
api-internal = error interno
api-not-a-board = { $text } no es un número de tablero
api-body-too-large = el cuerpo de una petición puede tener como mucho { $bytes } bytes
api-body-shape = el cuerpo debe ser JSON { $shape }: { $error }
api-request-timeout = el cuerpo de la petición no llegó en { $seconds } segundos
api-no-game = no hay ningún juego { $kind }
api-not-a-state = { $word } no es un estado: usa proposed, active, finished, cancelled, running, over o all
api-too-few-moves = { $moves ->
    [one] el tablero { $board } solo tiene { $moves } jugada
   *[other] el tablero { $board } solo tiene { $moves } jugadas
}
api-needs-token = esto necesita `Authorization: Bearer TOKEN`
api-bad-authorization = la cabecera Authorization debe ser `Bearer TOKEN`
api-not-a-token-id = { $id } no es un número de token
api-no-resource = la API no tiene el recurso { $path }
api-busy-replays = ya se están preparando { $count } reproducciones para tu dirección: espera a que terminen
bot-events-need-token = los eventos de un bot necesitan su token: `Authorization: Bearer TOKEN` (o ?token=)
bot-events-not-a-bot = { $user } no es una cuenta de bot: márcala antes con `bot on { $user } PASSWORD`
bot-events-hosted = el servidor ejecuta él mismo el programa de { $user } (`tabula bot remove { $user }` lo termina)
bot-events-too-many = como mucho { $max } tableros
