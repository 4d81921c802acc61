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

## The server's own commands (serve, backup, outbox, cron, worker)

op-serving = Tabula sirve en { $url }
op-receiving-smtp = Tabula recibe correo por SMTP en { $address }
op-listening = al escuchar en { $address }
op-listening-smtp = al escuchar SMTP en { $address }
op-serving-failed = al servir en { $address }
op-opening-database = al abrir la base de datos { $db }
op-backup-postgres =
    backup copia una base de datos SQLite; haz la copia de PostgreSQL con pg_dump, p. ej.
      pg_dump --format=custom --file=tabula.dump '{ $db }'
op-backup-no-file = no existe el archivo de base de datos { $db }
op-backup-exists = { $file } ya existe: da un archivo nuevo, o usa --force para reemplazarlo
op-backing-up = al copiar { $db } en { $file }
op-backed-up = Copia de { $db } hecha en { $file }: { $users ->
        [one] { NUMBER($users, useGrouping: "false") } usuario
       *[other] { NUMBER($users, useGrouping: "false") } usuarios
    }, { $games ->
        [one] { NUMBER($games, useGrouping: "false") } partida
       *[other] { NUMBER($games, useGrouping: "false") } partidas
    }, { $events ->
        [one] { NUMBER($events, useGrouping: "false") } evento
       *[other] { NUMBER($events, useGrouping: "false") } eventos
    }, { $bytes ->
        [one] { NUMBER($bytes, useGrouping: "false") } byte
       *[other] { NUMBER($bytes, useGrouping: "false") } bytes
    }; comprobación de integridad correcta.
op-outbox-sent = enviado
op-outbox-given-up = abandonado: { $error }
op-outbox-failed = falló { $attempts ->
        [one] { NUMBER($attempts, useGrouping: "false") } vez
       *[other] { NUMBER($attempts, useGrouping: "false") } veces
    }: { $error }
op-outbox-waiting = en espera
op-outbox-row = #{ NUMBER($id, useGrouping: "false") } para { $recipient } [{ $state }]
op-outbox-subject = Asunto: { $subject }
op-outbox-empty = La bandeja de salida está vacía.
op-cron-done = relojes al día en { $clocks ->
        [one] { NUMBER($clocks, useGrouping: "false") } partida
       *[other] { NUMBER($clocks, useGrouping: "false") } partidas
    }; revisadas { $games ->
        [one] { NUMBER($games, useGrouping: "false") } partida
       *[other] { NUMBER($games, useGrouping: "false") } partidas
    }: { $reminders ->
        [one] { NUMBER($reminders, useGrouping: "false") } recordatorio
       *[other] { NUMBER($reminders, useGrouping: "false") } recordatorios
    }, { $warnings ->
        [one] { NUMBER($warnings, useGrouping: "false") } aviso de derrota por abandono
       *[other] { NUMBER($warnings, useGrouping: "false") } avisos de derrota por abandono
    }, { $forfeits ->
        [one] { NUMBER($forfeits, useGrouping: "false") } derrota por abandono
       *[other] { NUMBER($forfeits, useGrouping: "false") } derrotas por abandono
    }, { $digests ->
        [one] { NUMBER($digests, useGrouping: "false") } resumen
       *[other] { NUMBER($digests, useGrouping: "false") } resúmenes
    }; { $pruned ->
        [one] { NUMBER($pruned, useGrouping: "false") } fila antigua de la bandeja de salida borrada
       *[other] { NUMBER($pruned, useGrouping: "false") } filas antiguas de la bandeja de salida borradas
    }
op-cron-mail = correo: { NUMBER($sent, useGrouping: "false") } enviados, { NUMBER($retry, useGrouping: "false") } por reintentar, { NUMBER($given_up, useGrouping: "false") } abandonados
op-worker-needs-postgres = un proceso worker necesita la base de datos PostgreSQL compartida: --db postgres://user@host/db
op-worker-played = el proceso worker jugó { $games ->
        [one] { NUMBER($games, useGrouping: "false") } partida
       *[other] { NUMBER($games, useGrouping: "false") } partidas
    }
op-starting-runtime = al arrancar el entorno de ejecución
op-following-changes = al escuchar los cambios
op-reading-address = al leer la dirección en la que se escucha
op-writing-stdout = al escribir en la salida estándar
op-listening-signal = al escuchar { $signal }
op-worker-thread-failed = falló un hilo del proceso worker
op-reading-file = { $option }: al leer { $file }
op-relay-password-visible = aviso: cualquier usuario de esta máquina puede leer en la lista de procesos la contraseña del servidor de retransmisión dada en --relay; usa --relay-password-file FILE o { $variable }
op-relay-no-user = --relay-password-file: --relay no nombra ningún usuario (smtp://USER@HOST:587?tls=required)
op-relay-no-password-in-file = --relay-password-file: la primera línea de { $file } no tiene contraseña para { $user }
op-relay-needs-password = --relay: el usuario { $user } del servidor de retransmisión necesita una contraseña: --relay-password-file FILE o la variable de entorno { $variable }
op-sending-outbox = al enviar la bandeja de salida
op-outgoing-mail-failed = correo saliente: { $error }
op-mail-left = { $error }; el mensaje se deja al servidor de correo, que lo volverá a entregar más tarde
op-reading-message = al leer el mensaje
op-mail-no-database = la base de datos { $db } no existe: da a --db la ruta absoluta de la base de datos, que el operador crea antes (por ejemplo con `tabula --db { $db } serve` o cualquier otro comando)
op-not-bytes = { $text } no es un número de bytes
op-bytes-out-of-range = { NUMBER($bytes, useGrouping: "false") } está fuera del intervalo: de 1024 a 67108864 bytes (64 MiB)

## A tournament's results table

report-heading = { $game }: { NUMBER($bots, useGrouping: "false") } bots, { NUMBER($players, useGrouping: "false") } jugadores por partida, { $per_pair ->
        [one] { NUMBER($per_pair, useGrouping: "false") } partida
       *[other] { NUMBER($per_pair, useGrouping: "false") } partidas
    } por { $players ->
        [2] pareja
       *[other] combinación
    }, semilla { $seed }, { $games ->
        [one] { NUMBER($games, useGrouping: "false") } partida
       *[other] { NUMBER($games, useGrouping: "false") } partidas
    }
report-column-rank = puesto
report-column-bot = bot
report-column-games = partidas
report-column-wins = victorias
report-column-losses = derrotas
report-column-draws = empates
report-column-win-rate = % victorias
report-column-interval = intervalo del 95%
report-column-rating = puntuación
report-column-failures = fallos
report-head-to-head = Enfrentamientos (victorias-derrotas-empates del bot de la fila contra el de la columna):
report-failures = Fallos ({ NUMBER($count, useGrouping: "false") }):
report-failure = partida { NUMBER($game, useGrouping: "false") }: { $message }
report-more-failures = ... y { NUMBER($count, useGrouping: "false") } más (ver los resultados en JSON)

## tabula bot add, remove, list y connect

bot-hosted-set = El servidor ejecuta `{ $command }` en las partidas de { $user }.
bot-hosted-removed = El servidor ya no ejecuta ningún programa para { $user }; sigue siendo una cuenta de bot.
bot-list-empty = No hay cuentas de bot.
bot-list-hosted = en el servidor: { $command }
bot-list-run-by = (lo ejecuta { $host })
bot-list-not-run = (ningún servidor lo ejecuta ahora)
bot-list-remote = remoto (tabula bot connect)
bot-no-game = no existe el juego { $game }: los juegos son { $games }
bot-reading-token-file = --token-file: al leer { $file }
bot-token-missing = falta el token del bot: --token-file FICHERO, la variable de entorno { $variable } o --token TOKEN
bot-token-empty = el token está vacío
bot-url-scheme = la URL debe empezar por http:// o https://
bot-url-bad = { $url } no es la URL de un servidor (http://HOST:PUERTO o https://HOST:PUERTO)
bot-ca-plain = --ca es para servidores https://; { $url } es http sin cifrar
bot-bad-host = { $host } no es un nombre de host ni una dirección que un certificado pueda llevar
bot-ca-reading = --ca: al leer { $file }
bot-ca-not-pem = --ca: { $file } no es un fichero de certificados PEM: { $error }
bot-ca-no-certificate = --ca: { $file } no contiene ningún certificado (-----BEGIN CERTIFICATE-----)
bot-tls-settings = la configuración TLS
bot-untrusted = { $server }: el certificado del servidor no es de confianza ({ $why }); si viene de una autoridad privada, indica el certificado de esa autoridad con --ca FICHERO
bot-handshake-failed = { $server }: falló la negociación TLS: { $error }
bot-no-connection = sin conexión en { NUMBER($seconds) } s
bot-no-handshake = sin negociación TLS en { NUMBER($seconds) } s
bot-no-answer = la respuesta no llegó en { NUMBER($seconds) } s
bot-not-json = la respuesta no es JSON: { $error }
bot-stream-silent = el flujo de eventos quedó en silencio
bot-event-too-long = un evento de más de 8 MiB
bot-playing = jugando como { $user } en { $url } con `{ $command }`
bot-sending-again = { $error }; se vuelve a enviar `{ $command }` dentro de { NUMBER($seconds) } s
bot-unknown-token = el servidor no conoce el token
bot-token-refused = el servidor rechazó el token: { $message }
bot-unreachable = no se puede llegar al servidor ({ $error }); nuevo intento dentro de { NUMBER($seconds) } s
bot-stream-ended = el servidor cerró el flujo de eventos; conectando de nuevo
bot-stream-refused = el servidor rechazó el flujo de eventos: { $message } ({ $code })
bot-connection-lost = conexión perdida ({ $error }); conectando de nuevo dentro de { NUMBER($seconds) } s
bot-accepted = aceptado el desafío del tablero { $board } ({ $game })
bot-rejected = rechazado el desafío del tablero { $board } ({ $game })
bot-accept-failed = no se pudo aceptar el tablero { $board }: { $message }
bot-reject-failed = no se pudo rechazar el tablero { $board }: { $message }
bot-game-over = el tablero { $board } ha terminado
bot-on-board = tablero { $board }: { $text }
bot-program-not-running = el programa no está en marcha
bot-last-words = las últimas palabras del programa:
    { $tail }
bot-move-refused = la jugada { $answer } fue rechazada: { $message }
bot-refused-move-loses = el programa respondió con una jugada que el servidor rechazó: { $answer }
bot-resigning = { $reason }; abandona
bot-resign-failed = no se pudo abandonar: { $message }

## Por qué un bot perdió una partida (tablas y páginas de torneos, registro de un bot conectado)

fault-not-started = { $bot } no se pudo arrancar: { $error }
fault-did-not-read = { $bot } agotó su tiempo (no leyó su entrada en { NUMBER($ms, useGrouping: "false") } ms)
fault-crashed-before-start = { $bot } falló antes de empezar la partida
fault-dead = { $bot } falló
fault-input-closed = { $bot } falló (su entrada está cerrada)
fault-pipe = { $bot } falló (error de tubería: { $error })
fault-exited = { $bot } falló ({ $status })
fault-output-closed = { $bot } falló (cerró su salida)
fault-empty-line = { $bot } respondió con una línea vacía
fault-game-time = { $bot } agotó sus { NUMBER($ms, useGrouping: "false") } ms de la partida
fault-no-move = { $bot } agotó su tiempo (ninguna jugada en { NUMBER($ms, useGrouping: "false") } ms)
fault-no-move-starting = { $bot } agotó su tiempo (ninguna jugada en { NUMBER($ms, useGrouping: "false") } ms: { NUMBER($move_ms, useGrouping: "false") } ms para la jugada y { NUMBER($startup_ms, useGrouping: "false") } ms para arrancar)
fault-flood = { $bot } escribió más de 64 KiB en una línea
fault-malformed = { $bot } respondió con una jugada mal formada { $answer }: { $error }
fault-illegal = { $bot } respondió con una jugada ilegal { $answer }: { $error }
fault-no-record = { $bot } no puede ver una partida guardada sin su registro
fault-found-no-move = { $bot } no encontró ninguna jugada
