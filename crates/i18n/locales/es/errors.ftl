# Errores del lenguaje de órdenes en todas las interfaces. Los códigos de
# error y las palabras de las órdenes son el protocolo y no se traducen.

error-language-unknown = "{ $given }" no es un idioma de Tabula: elige fi (suomi), es (español) o en (English)

## Lectura de una orden

error-usage = uso: { $syntax }
error-usage-either =
    uso: { $first }
      o: { $second }
error-usage-vacation = uso: { $syntax } (como mucho 365 días)
error-usage-limit = uso: { $syntax } (como mucho { $max } partidas en curso)
error-line-too-long = la orden tiene más de { $max } bytes
error-too-many-words = la orden tiene más de { $max } palabras
error-empty-command = orden vacía: prueba `help`
error-unknown-command-games = orden desconocida { $quoted }: los juegos son { $games }; `help` enumera las órdenes
error-unknown-command = orden desconocida { $quoted }: `help` enumera las órdenes
error-unknown-command-near = orden desconocida { $quoted }: ¿quiso decir { $near }? `help` enumera las órdenes
error-not-a-board =
    { $quoted } no es un número de tablero
    uso: { $syntax }
error-not-a-move-number = #{ $number } no es un número de jugada
error-no-help = no hay ayuda sobre { $quoted }: prueba `help`, o `help GAME` con uno de estos juegos: { $games }
error-no-game = no existe el juego { $quoted }

## Cuentas y contraseñas

error-not-a-bot-name = { $quoted } no es un nombre de bot: escribe bot:NAME, por ejemplo bot:mcts
error-user-id-length = un nombre de usuario tiene de 1 a { $max } caracteres
error-user-id-start = { $quoted } no es un nombre de usuario: debe empezar por una letra
error-user-id-letters = { $quoted } no es un nombre de usuario: usa letras, cifras, '_', '-' y '.'
error-user-id-reserved = el nombre de usuario { $quoted } está reservado
error-password-length = una contraseña tiene de { $min } a { $max } caracteres
error-password-characters = una contraseña no puede llevar espacios ni caracteres de control
error-not-an-address = { $quoted } no es una dirección de correo
error-too-many-addresses = como mucho { $max } direcciones
error-user-taken = el nombre de usuario { $user } ya está ocupado
error-no-user = no existe el usuario { $user }
error-wrong-password = contraseña incorrecta para { $user }
error-password-needed = esta orden de cuenta necesita la contraseña misma, no un token ni una sesión iniciada
error-wait-address = demasiadas contraseñas incorrectas desde tu dirección: espera { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    } y vuelve a intentarlo
error-wait-user = demasiadas contraseñas incorrectas para { $user } desde tu dirección: espera { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    } y vuelve a intentarlo
error-token-name = el nombre de un token tiene como mucho 100 caracteres imprimibles
error-too-many-tokens = como mucho { $max } tokens: revoca uno primero
error-token-not-stored = el token nuevo no se guardó
error-bad-token = token no válido o revocado
error-no-live-token = { $user } no tiene ningún token vigente { $id }
error-not-a-bot-account = { $user } no es una cuenta de bot
error-bot-command-empty = la orden del bot está vacía
error-bot-command-words = la orden del bot tiene más de { $max } palabras
error-bot-command-long = la orden del bot tiene más de { $max } bytes

## Desafíos

error-too-many-players = como mucho { $max } jugadores
error-challenge-unauthorized = un desafío lo envía uno de sus jugadores: inicia sesión (o envía un token bearer, o mándalo por correo desde tu dirección registrada) y nómbrate entre los jugadores
error-challenger-not-player = { $user } no está entre los jugadores: un desafío nombra también a quien desafía
error-no-such-bot = no hay ningún bot { $bot } para { $game }: los bots son { $bots }
error-no-bots = no hay ningún bot { $bot } en este servidor
error-game-limit = { $user } está en { $running ->
        [one] { $running } partida en curso
       *[other] { $running } partidas en curso
    } y no acepta más (límite { $limit })
error-wait-challenges = { $user } ha enviado { $rate } desafíos en esta hora, el máximo que admite este servidor: espera { $seconds ->
        [one] { $seconds } segundo
       *[other] { $seconds } segundos
    } y vuelve a intentarlo
error-not-waiting = el tablero { $board } no espera ninguna aceptación
error-waits-for-acceptance = el tablero { $board } espera a que acepten el desafío: { $users }

## Tableros y jugadas

error-no-board = no existe el tablero { $board }
error-wrong-kind = el tablero { $board } es una partida de { $kind }
error-not-a-player = { $user } no juega en el tablero { $board }
error-not-running = el tablero { $board } no está en juego
error-board-cancelled = el tablero { $board } se canceló
error-board-over = la partida del tablero { $board } ha terminado
error-stale-move = esta jugada era la jugada { $meant }, pero el tablero va por la jugada { $now }: vuelve a mirar el tablero
error-only-moves = el tablero { $board } solo tiene { $moves ->
        [one] { $moves } jugada
       *[other] { $moves } jugadas
    }
error-no-queue = { $game } no admite jugadas en cola: sus jugadas no se hacen por turnos
error-queued-too-long = una jugada en cola tiene como mucho 1000 caracteres
error-queue-your-turn = ahora es tu turno: haz la jugada directamente
error-queue-full = como mucho 20 jugadas en cola por tablero
error-nothing-submitted = no tienes ninguna jugada enviada en el tablero { $board }
error-preview-who = en { $game } indica tu usuario y tu contraseña: { $syntax }
error-no-view-text = la vista del tablero { $board } no tiene texto en { $quoted }
error-chat-empty = un mensaje de chat necesita algo de texto
error-chat-too-long = un mensaje de chat tiene como mucho { $max } caracteres

## Internos

error-conflict = el tablero cambió en ese mismo momento; inténtalo de nuevo
error-storage = error interno de almacenamiento; no se cambió nada
error-replay = error interno: la partida guardada no se puede reproducir
