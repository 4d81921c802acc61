# Correo: las respuestas de la pasarela en torno a las de las órdenes, y sus errores.

mail-error-subject = { $game }: error
mail-no-command =
    No se encontró ninguna orden en tu mensaje. Pon la orden en el asunto,
    o en las primeras líneas del mensaje, por ejemplo:

        dna move 12 ned PASSWORD AAG

    Todo lo que vaya después de las órdenes se envía como comentario a los
    demás jugadores del tablero. Envía `help` para ver las órdenes y `list` para ver los juegos.
mail-too-many-commands =
    Tu mensaje tiene { $count } líneas de órdenes; de un mensaje se ejecutan como mucho { $max }.
    No se ejecutó nada: envíalas en varios mensajes.
mail-refused =
    Tu orden

    > { $command }

    fue rechazada: { $reason }
mail-refused-help = Envía `help` para ver las órdenes, o `help GAME` para ver las jugadas de un juego.
mail-nothing-changed = No se cambió nada.
mail-board-as-it-stands = El tablero tal como está:
mail-comment-refused = Tu comentario no se envió: { $reason }.
mail-comment-not-sent = Tu comentario no se envió: un comentario va a los demás jugadores de un tablero con una jugada que se haya hecho.
mail-comment-sent = Tu comentario fue a los demás jugadores del tablero { $board } con la jugada.
mail-commands-not-run = Las órdenes posteriores a esta no se ejecutaron: el servidor se detuvo mientras las ejecutaba. Envíalas de nuevo.
mail-help =
    Cómo escribir a Tabula por correo:

    - Pon la orden en el asunto, o en las primeras líneas del mensaje,
      una orden por línea. Una respuesta a un correo de un tablero puede conservar su "Re:".
    - El texto después de las órdenes es un comentario: va a los demás jugadores
      del tablero al final del aviso de la jugada.
    - Las líneas citadas (">"), la línea que las presenta ("On ... wrote:") y
      todo lo que sigue a una línea de firma ("-- ") se omiten.
    - Escribe desde una dirección registrada: una orden de un usuario solo se ejecuta si el
      mensaje llega de una de sus direcciones (dadas al registrarse,
      cambiadas con `change address`), y con su contraseña.
      Las contraseñas nunca se muestran.
    - Cada mensaje recibe una respuesta. El correo de programas (respuestas
      automáticas, rebotes, listas de correo) no se contesta.
error-mail-challenge-sender = un desafío por correo llega desde la dirección registrada de uno de sus jugadores, y { $address } no es de ninguno de ellos; no se cambió nada
error-mail-challenge-no-sender = un desafío por correo llega desde la dirección registrada de uno de sus jugadores, y el remitente de este mensaje no es ninguno de ellos; no se cambió nada
error-mail-no-from = el mensaje no tiene dirección From
error-mail-sender-user = este mensaje llegó de { $address }, que no es una de las direcciones registradas de { $user }; no se cambió nada. Envíalo desde una dirección registrada
error-mail-sender-players = este mensaje llegó de { $address }, que no es una de las direcciones registradas de sus jugadores; no se cambió nada. Envíalo desde una dirección registrada
