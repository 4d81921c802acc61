# Ayuda: la ayuda general, la de una orden y la de un juego, y la lista de
# juegos. Las líneas de sintaxis de las órdenes son el protocolo y no se
# traducen.

help-subject = Ayuda de Tabula
help-subject-topic = Ayuda: { $topic }
help-intro =
    Tabula aloja pequeños juegos multijugador que se juegan por correo, desde un terminal,
    en la web o mediante la API HTTP. Todas las vías aceptan las mismas órdenes.

    Para empezar: regístrate, desafía a otros jugadores y juega cuando sea tu turno.
    Las jugadas llevan tu usuario y tu contraseña, como en pbmserv:

        signup ned secret ned@example.org
        dna challenge ned ted jed
        dna move 1 ned secret AAG
        dna show 1

    Órdenes (GAME es uno de estos: { $games }):
help-outro = `help GAME` explica las reglas, las opciones y la forma de las jugadas de un juego; `list`, los juegos disponibles.
help-game-starts = empieza una partida para { $players }, en el orden dado.
help-rules-heading = Reglas
help-moves-heading = Jugadas
help-options-heading = Opciones
help-game-also =
    Todos los juegos aceptan además las órdenes de `help` (show, showas, history, abandonar,
    propuestas de tablas y de deshacer, submit/confirm, chat, subscribe ...).
help-game-also-queue =
    Todos los juegos aceptan además las órdenes de `help` (show, showas, history, abandonar,
    propuestas de tablas y de deshacer, queue, submit/confirm, chat, subscribe ...).
players-fixed = { $count ->
        [one] { $count } jugador
       *[other] { $count } jugadores
    }
players-range = de { $min } a { $max } jugadores
list-subject = Juegos de Tabula
list-heading = Juegos disponibles:
list-players-range = { $min }-{ $max } jugadores
list-outro = `help GAME` explica cómo se juega.
dynamics-sequential = por turnos
dynamics-simultaneous = jugadas secretas simultáneas
dynamics-realtime = en tiempo real
option-range = de { $min } a { $max }
option-text-range = { $accepts }, de { $min } a { $max } caracteres
option-default = por defecto { $value }

## Qué hace cada orden

syntax-signup = crea una cuenta
syntax-change-password = cambia tu contraseña
syntax-change-address = cambia tus direcciones de correo
syntax-signoff = cierra tu cuenta (abandonas tus partidas en curso)
syntax-notify = activa o desactiva los avisos por correo
syntax-vacation = suspende recordatorios y derrotas por abandono mientras estás fuera
syntax-limit = acepta como mucho N partidas en curso
syntax-policy = empieza los desafíos de inmediato, o pide que los aceptes
syntax-language = lee las respuestas y el correo en finés, español o inglés
syntax-bot = marca tu cuenta como bot, jugada por un programa (`tabula bot connect`), o de nuevo como persona
syntax-help = este texto, o las reglas, las opciones y la forma de las jugadas de un juego
syntax-list = los juegos disponibles
syntax-challenge = empieza una partida (bots: bot:random, bot:mcts ..)
syntax-accept = acepta un desafío que te espera
syntax-reject = rechaza un desafío
syntax-move = haz una jugada; #MOVENO la rechaza si el tablero ya ha avanzado
syntax-move-resign = abandona
syntax-move-propose = propone tablas (todos los demás jugadores deben aceptar)
syntax-move-undo = pide deshacer la última jugada (todos los demás jugadores deben aceptar)
syntax-move-accept = acepta la propuesta pendiente de tablas o de deshacer
syntax-move-reject = rechaza la propuesta pendiente de tablas o de deshacer
syntax-queue = guarda una jugada para hacerla cuando sea tu turno, si sigue siendo legal
syntax-submit = guarda una jugada y muestra cómo quedaría; hazla con confirm
syntax-confirm = haz la jugada que enviaste
syntax-preview = muestra el tablero como quedaría tras MOVE
syntax-show = el tablero (como estaba tras la jugada MOVENO)
syntax-showas = el tablero como tú lo ves, con tus secretos
syntax-history = todas las jugadas de un tablero
syntax-games = los tableros de un usuario
syntax-standings = victorias, derrotas y tablas de cada jugador
syntax-ratings = la clasificación: puntuaciones Glicko-2 de las partidas terminadas
syntax-chat = un mensaje a los demás jugadores de un tablero
syntax-subscribe = recibe las novedades de un tablero
syntax-unsubscribe = deja de recibirlas
