# The command line's own help, per command and option (see crates/tabula/src/help.rs).

cli-tabula-about = Tabula: un servidor de pequeños juegos multijugador que se juegan por correo, desde un terminal, en la web o mediante una API HTTP
cli-tabula-after =
    Cada orden del lenguaje de órdenes se ejecuta exactamente como si llegara por
    correo, y se muestra la respuesta: un encabezado (el asunto del correo), el
    estado, la lista de jugadas y el tablero tal como puedes verlo.

    Ejemplos:
      tabula signup ned secret ned@example.org
      tabula signup ted secret2 ted@example.org
      tabula dna challenge ned ted -seed=1
      tabula dna move 1 ned secret AAG
      tabula dna show 1
      tabula help dna        las reglas, las opciones y la forma de las jugadas de un juego
      tabula serve           las páginas web y la API en http://127.0.0.1:8080/

    `tabula COMMAND --help` describe cada comando. Código de salida: 0 hecho,
    1 rechazado (se muestra el motivo), 2 uso incorrecto.
cli-tabula-arg-db = La base de datos: un archivo SQLite (se crea si no existe) o una URL de PostgreSQL (postgres://user:password@host/db)
cli-tabula-arg-now = Fija el reloj (RFC 3339, p. ej. 2026-01-01T12:00:00Z), para pruebas, reproducciones y demostraciones
cli-tabula-arg-json = Muestra la salida en JSON, para programas
cli-tabula-arg-lang = El idioma de las respuestas y de los errores: en, fi o es [por defecto: el de LC_ALL, LC_MESSAGES o LANG; si no, en]
cli-tabula-serve-about = Sirve las páginas web y la API HTTP, y hace correr los relojes
cli-tabula-serve-about-long =
    Sirve las páginas web y la API HTTP, y hace correr los relojes

    Sirve las páginas web y la API JSON sobre la base de datos, y hace correr el reloj de las partidas en tiempo real, de los recordatorios, de las derrotas por abandono y de los resúmenes. Muestra la dirección en la que sirve en cuanto escucha. Se detiene con Ctrl-C o SIGTERM: antes termina las peticiones en curso. Los registros van a la salida de errores estándar, en color solo en un terminal (RUST_LOG=debug para más detalle).
cli-tabula-serve-arg-listen = Sirve HTTP en ADDR (puerto 0: cualquier puerto libre)
cli-tabula-serve-arg-smtp = Recibe también correo por SMTP en ADDR (p. ej. 127.0.0.1:2525)
cli-tabula-serve-arg-relay = Envía la bandeja de salida a través del servidor de retransmisión SMTP RELAY: HOST:PORT (SMTP sin cifrar), smtp://USER@HOST:587?tls=required (STARTTLS y después inicio de sesión) o smtps://USER@HOST:465 (TLS desde el principio). Con TLS, el certificado del servidor de retransmisión debe ser válido para HOST; nunca se recurre a enviar nada sin cifrar. El correo que el servidor de retransmisión no acepta sigue en cola y se reintenta más tarde
cli-tabula-serve-arg-relay_ca = Confía solo en las autoridades de certificación de FILE (PEM) para el certificado del servidor de retransmisión, en lugar de en las raíces integradas: para un servidor de retransmisión cuyo certificado emite una autoridad privada
cli-tabula-serve-arg-relay_password_file = Lee de FILE (su primera línea) la contraseña de USER en el servidor de retransmisión; sin esta opción, de la variable de entorno TABULA_RELAY_PASSWORD. No la pongas nunca en RELAY: la lista de procesos la muestra a todos los usuarios
cli-tabula-serve-arg-mail_from = La dirección desde la que se envía el correo
cli-tabula-serve-arg-max_message_size = El mayor mensaje que se acepta por --smtp, en bytes; los mayores se rechazan (552) antes de leerlos
cli-tabula-serve-arg-log_format = Cómo se escriben las líneas de registro: text, o json (un objeto por línea, para recolectores de registros)
cli-tabula-serve-arg-log_format-value-text = Líneas legibles por personas; con colores solo cuando la salida de errores estándar es un terminal
cli-tabula-serve-arg-log_format-value-json = Un objeto JSON por línea
cli-tabula-serve-arg-trust_proxy = Toma la dirección del cliente de Forwarded o X-Forwarded-For cuando la conexión viene de esta red (un balanceador de carga, un proxy inverso), p. ej. 127.0.0.1/32 o 10.0.0.0/8; se puede repetir. Los inicios de sesión fallidos se cuentan por dirección de cliente: sin esta opción, todos los clientes tras el proxy comparten el recuento del proxy
cli-tabula-serve-arg-challenges_per_hour = Desafíos a otros usuarios que un mismo usuario puede enviar en una hora por la red (0: sin límite)
cli-tabula-serve-arg-replay_cache = Memoria en MiB que pueden ocupar las partidas que se guardan ya reproducidas entre jugadas; una partida que no cabe se reproduce desde su registro la próxima vez que se use (0: no se guarda ninguna)
cli-tabula-serve-arg-max_connections = Máximo de conexiones abiertas; por encima, las nuevas reciben un 503 [por defecto: 10000, o menos si el límite de archivos abiertos es menor]
cli-tabula-serve-arg-max_connections_per_address = Máximo de conexiones abiertas desde una misma dirección de cliente
cli-tabula-serve-arg-read_timeout = Segundos que pueden tardar las cabeceras de una petición, su cuerpo o la siguiente petición en una conexión persistente
cli-tabula-serve-arg-write_timeout = Segundos que un cliente puede pasar sin leer nada de una respuesta o de un flujo de eventos antes de ser desconectado
cli-tabula-serve-arg-bot_user = Si se ejecuta como root: el usuario con el que se ejecutan los programas de los bots alojados (`tabula bot add`) [por defecto: nobody]
cli-tabula-serve-arg-no_hosted_bots = No ejecuta aquí ningún programa de bots alojados (por defecto, cada servidor sobre la base de datos ejecuta los que reclama primero y se hace cargo de los de un servidor que se ha detenido)
cli-tabula-mail-about = Ejecuta las órdenes de un mensaje de correo leído de la entrada estándar y responde
cli-tabula-mail-about-long =
    Ejecuta las órdenes de un mensaje de correo leído de la entrada estándar y responde

    Para un servidor de correo que pasa cada mensaje entrante a Tabula por una tubería, como se ejecutaba pbmserv. Las órdenes se toman del asunto o de las primeras líneas del cuerpo; las líneas citadas y la firma se ignoran. La respuesta queda en cola en la bandeja de salida y la envía `tabula serve --relay` o, con --relay, este mismo comando al momento (una instalación con cron y tubería no necesita servidor); o bien se muestra como mensaje completo con --reply-to-stdout. Las respuestas automáticas, los rebotes y el correo de listas de correo nunca se contestan.
cli-tabula-mail-arg-reply_to_stdout = Muestra la respuesta como mensaje completo en lugar de ponerla en cola
cli-tabula-mail-arg-mail_from = La dirección desde la que se envía la respuesta
cli-tabula-mail-arg-max_message_size = El mayor mensaje que se acepta, en bytes; uno mayor se rechaza (código de salida 65: el servidor de correo lo devuelve)
cli-tabula-mail-arg-relay = Envía la bandeja de salida a través del servidor de retransmisión SMTP RELAY: HOST:PORT (SMTP sin cifrar), smtp://USER@HOST:587?tls=required (STARTTLS y después inicio de sesión) o smtps://USER@HOST:465 (TLS desde el principio). Con TLS, el certificado del servidor de retransmisión debe ser válido para HOST; nunca se recurre a enviar nada sin cifrar. El correo que el servidor de retransmisión no acepta sigue en cola y se reintenta más tarde
cli-tabula-mail-arg-relay_ca = Confía solo en las autoridades de certificación de FILE (PEM) para el certificado del servidor de retransmisión, en lugar de en las raíces integradas: para un servidor de retransmisión cuyo certificado emite una autoridad privada
cli-tabula-mail-arg-relay_password_file = Lee de FILE (su primera línea) la contraseña de USER en el servidor de retransmisión; sin esta opción, de la variable de entorno TABULA_RELAY_PASSWORD. No la pongas nunca en RELAY: la lista de procesos la muestra a todos los usuarios
cli-tabula-outbox-about = Muestra lo que espera en la bandeja de salida para enviarse y los envíos abandonados
cli-tabula-outbox-about-long =
    Muestra lo que espera en la bandeja de salida para enviarse y los envíos abandonados

    Las filas más recientes, al final. Las respuestas y los avisos se escriben en la bandeja de salida en la misma transacción que la jugada, y los envía `tabula serve --relay RELAY`.
cli-tabula-outbox-arg-limit = Muestra como mucho N filas (las más recientes)
cli-tabula-cron-about = Ejecuta una vez lo pendiente: eventos de reloj, recordatorios, derrotas por abandono y resúmenes
cli-tabula-cron-about-long =
    Ejecuta una vez lo pendiente: eventos de reloj, recordatorios, derrotas por abandono y resúmenes

    Para instalaciones que mueven el planificador desde cron, como se ejecutaba pbmserv, y para pruebas con --now. `tabula serve` hace lo mismo de forma continua.
cli-tabula-cron-arg-mail_from = La dirección desde la que se envía el correo (con --relay)
cli-tabula-cron-arg-relay = Envía la bandeja de salida a través del servidor de retransmisión SMTP RELAY: HOST:PORT (SMTP sin cifrar), smtp://USER@HOST:587?tls=required (STARTTLS y después inicio de sesión) o smtps://USER@HOST:465 (TLS desde el principio). Con TLS, el certificado del servidor de retransmisión debe ser válido para HOST; nunca se recurre a enviar nada sin cifrar. El correo que el servidor de retransmisión no acepta sigue en cola y se reintenta más tarde
cli-tabula-cron-arg-relay_ca = Confía solo en las autoridades de certificación de FILE (PEM) para el certificado del servidor de retransmisión, en lugar de en las raíces integradas: para un servidor de retransmisión cuyo certificado emite una autoridad privada
cli-tabula-cron-arg-relay_password_file = Lee de FILE (su primera línea) la contraseña de USER en el servidor de retransmisión; sin esta opción, de la variable de entorno TABULA_RELAY_PASSWORD. No la pongas nunca en RELAY: la lista de procesos la muestra a todos los usuarios
cli-tabula-backup-about = Copia la base de datos SQLite en FILE mientras los servidores siguen sirviendo
cli-tabula-backup-about-long =
    Copia la base de datos SQLite en FILE mientras los servidores siguen sirviendo

    La copia es la base de datos tal como estaba en un instante: contiene todas las jugadas confirmadas antes de empezar la copia de seguridad. Mientras tanto, los servidores siguen aceptando jugadas. La copia se comprueba (PRAGMA integrity_check) y se sincroniza con el disco antes de aparecer en FILE. Para restaurarla, detén los servidores y pon la copia en lugar del archivo de la base de datos (quitando los archivos -wal y -shm del archivo antiguo). Una base de datos PostgreSQL se copia con pg_dump.
cli-tabula-backup-arg-file = Dónde va la copia (un archivo nuevo)
cli-tabula-backup-arg-force = Reemplaza FILE si existe
cli-tabula-tournament-about = Juega una liga entre bots, guardada en la base de datos según avanza
cli-tabula-tournament-about-long =
    Juega una liga entre bots, guardada en la base de datos según avanza

    Los bots son integrados (random, greedy, mcts, mcts:2000, mcts:250ms ..) o programas que hablan el protocolo de bots. La misma --seed da las mismas partidas. Los resultados se guardan en la base de datos a medida que terminan las partidas; ejecutar de nuevo el mismo torneo lo reanuda. Muestra la clasificación o, con --json, el informe completo.
cli-tabula-tournament-after =
    Ejemplo:
      tabula tournament --game intervalo --games-per-pair 100 \
          --bot random --bot mcts --bot "python3 examples/bots/center.py"
cli-tabula-tournament-arg-game = El juego (dna, rewrite, intervalo, conway ..)
cli-tabula-tournament-arg-bots = Un bot: el nombre de un bot integrado o una línea de órdenes (repite la opción para cada bot)
cli-tabula-tournament-arg-games_per_pair = Partidas que juega cada pareja (o cada combinación de --players bots)
cli-tabula-tournament-arg-players = Bots sentados en cada partida
cli-tabula-tournament-arg-seed = La semilla del torneo; de ella se deriva la semilla de cada partida
cli-tabula-tournament-arg-move_time = Límite de tiempo por jugada de los bots externos, en milisegundos
cli-tabula-tournament-arg-game_time = Tiempo de reflexión por partida de cada bot externo, en segundos
cli-tabula-tournament-arg-view = Lo que ven los bots de Intervalo: static (la tira) o dynamic (con historial y puntuaciones)
cli-tabula-tournament-arg-options = Una opción de juego para todas las partidas, p. ej. --option=-cells=32 (se puede repetir)
cli-tabula-tournament-arg-threads = Hilos de trabajo (por defecto: uno por núcleo)
cli-tabula-tournament-arg-json_file = Escribe los resultados en JSON en FILE
cli-tabula-tournament-arg-csv = Escribe los resultados en CSV en FILE
cli-tabula-tournament-arg-quiet = No muestra la barra de progreso
cli-tabula-tournament-arg-bot_user = El usuario con el que se ejecutan los programas de los bots cuando tabula se ejecuta como root (por defecto: nobody)
cli-tabula-tournament-arg-distributed = No juega aquí: ofrece las partidas a procesos `tabula worker` en cualquier máquina que comparta la base de datos PostgreSQL, e informa cuando todas han terminado
cli-tabula-worker-about = Juega las partidas de torneos distribuidos desde la base de datos PostgreSQL
cli-tabula-worker-about-long =
    Juega las partidas de torneos distribuidos desde la base de datos PostgreSQL

    Juega las partidas que `tabula tournament --distributed` ofrece en la base de datos PostgreSQL: reserva una partida cada vez por hilo, la juega y guarda su resultado. Ejecuta tantos procesos worker como quieras en tantas máquinas como quieras, y detén cualquiera de ellos en cualquier momento (la partida que estaba jugando la vuelve a jugar otro proceso cuando vence su reserva).
cli-tabula-worker-arg-threads = Partidas que se juegan a la vez (por defecto: una por núcleo)
cli-tabula-worker-arg-lease = Cuánto dura una reserva sin renovarse, en segundos; una partida que no avanza no se renueva
cli-tabula-worker-arg-bot_user = El usuario con el que se ejecutan los programas de los bots cuando el worker se ejecuta como root (por defecto, nobody)
cli-tabula-worker-arg-exit_when_idle = Termina cuando no queda ninguna partida por jugar en ningún torneo
cli-tabula-life-about = Hace evolucionar un tablero según la regla multicolor de Life (véase `tabula life run --help`)
cli-tabula-life-run-about = Hace evolucionar un tablero según la regla multicolor de Life de Conway y de Life en tiempo real, y lo muestra
cli-tabula-life-run-after = FILE contiene filas de `.` (vacío), `#` (neutral) y `A`..`Z` (jugadores), empezando por la fila superior; el tamaño de la cuadrícula es el del archivo. `-` lee la entrada estándar. Con --edges unbounded el plano crece según haga falta y lo que se muestra es el rectángulo que lo contiene, tras una línea `#offset X Y` que da su esquina superior izquierda respecto a la de la entrada.
cli-tabula-life-run-arg-generations = Generaciones que se calculan
cli-tabula-life-run-arg-edges = torus (por defecto), dead (nada vive fuera de la cuadrícula) o unbounded
cli-tabula-life-run-arg-file = El archivo del tablero (`-` para la entrada estándar)
cli-tabula-bot-connect-about = Juega las partidas de una cuenta de bot en un servidor Tabula con un programa de esta máquina
cli-tabula-bot-connect-after =
    El programa habla el protocolo de bots, versión 1 (docs/bot-protocol.md), como en un torneo; cada partida la juega un proceso suyo. Convierte la cuenta en bot con `bot on USERID PASSWORD` y obtén un token con POST /api/v1/tokens. Por https, el certificado del servidor debe ser válido para HOST y estar firmado por una autoridad de las raíces integradas (la lista de Mozilla), o de --ca FILE si es una autoridad privada; un certificado que no es de confianza termina el comando. El token se toma de --token-file FILE; si no, de la variable de entorno TABULA_BOT_TOKEN; si no, de --token (que cualquier usuario de la máquina puede leer en la lista de procesos). Ejemplos:
      tabula bot connect http://127.0.0.1:8080 --token T -- python3 examples/bots/center.py
      tabula bot connect https://play.example.org --token-file ~/.mybot-token -- ./mybot
      tabula bot connect https://tabula.internal:8443 --ca internal-ca.pem --token-file token -- ./mybot
cli-tabula-bot-connect-arg-url = El servidor: http://HOST[:PORT] o https://HOST[:PORT], con la ruta bajo la que se sirve, si la hay
cli-tabula-bot-connect-arg-token = El token de API de la cuenta de bot (visible para todos los usuarios de esta máquina en la lista de procesos: mejor --token-file o TABULA_BOT_TOKEN)
cli-tabula-bot-connect-arg-token_file = Lee de FILE (su primera línea) el token de API de la cuenta de bot
cli-tabula-bot-connect-arg-ca = Por https, confía solo en las autoridades de certificación de FILE (PEM) para el certificado del servidor, en lugar de en las raíces integradas: para un servidor cuyo certificado emite una autoridad privada
cli-tabula-bot-connect-arg-games = Acepta desafíos (los que esperan aceptación) solo de este juego; repite la opción para varios (por defecto: todos los juegos)
cli-tabula-bot-connect-arg-bot_user = Si se ejecuta como root: el usuario con el que se ejecuta el programa
cli-tabula-bot-connect-arg-command = El programa y sus argumentos (después de `--`)
cli-tabula-bot-add-about = Hace que el servidor ejecute un programa para las partidas de una cuenta de bot (un bot alojado)
cli-tabula-bot-add-after =
    `tabula serve` sobre esta base de datos ejecuta el programa (protocolo v1) para las partidas de la cuenta, un proceso por partida, aislado y sujeto a los mismos plazos que los bots del árbitro de torneos. La cuenta pasa a ser una cuenta de bot si no lo era. Ejemplo:
      tabula bot add centrebot -- python3 /srv/bots/center.py
cli-tabula-bot-add-arg-user = La cuenta de bot
cli-tabula-bot-add-arg-command = El programa y sus argumentos (después de `--`)
cli-tabula-bot-remove-about = Deja de ejecutar un programa para una cuenta de bot (sigue siendo un bot y puede conectarse desde otro lugar)
cli-tabula-bot-remove-arg-user = La cuenta de bot
cli-tabula-bot-list-about = Las cuentas de bot y los programas que el servidor ejecuta para ellas
cli-tabula-dna-remove-about = Elimina todas las apariciones de CHUNK en SEQUENCE según la regla de ADN (pasadas de izquierda a derecha hasta que una no elimina nada)
cli-tabula-dna-remove-after =
    Se admite cualquier letra. Ejemplo: tabula dna remove TAAGAAGCGCCT AGC  muestra TAT y removed 3.
    Con --json: {"{"}"sequence": "...", "removed": N{"}"} en una línea.
cli-tabula-dna-remove-arg-trace = Muestra cada pasada, con los fragmentos eliminados entre corchetes
cli-tabula-dna-remove-arg-sequence = La secuencia que se reduce
cli-tabula-dna-remove-arg-chunk = El fragmento que se elimina
cli-tabula-rewrite-run-about = Aplica conjuntos de reglas a una cadena como lo hace una ronda de Rewrite: primero el conjunto más reciente, hasta el más antiguo
cli-tabula-rewrite-run-after =
    RULESFILE contiene los conjuntos de reglas del más antiguo al más reciente, una regla por línea (lhs=>rhs, u owner: lhs=>rhs), con los conjuntos separados por una línea ---. Se admite cualquier carácter. `-` lee el archivo de la entrada estándar.
    Con --json: el resultado y cada pasada en JSON.
    Ejemplo: tabula rewrite run --start pupupusu rules.txt
cli-tabula-rewrite-run-arg-trace = Muestra cada pasada con sus aplicaciones
cli-tabula-rewrite-run-arg-start = La cadena inicial
cli-tabula-rewrite-run-arg-start_file = Lee la cadena inicial de FILE (`-` para la entrada estándar; un salto de línea final no forma parte de ella)
cli-tabula-rewrite-run-arg-rules_file = Los conjuntos de reglas
