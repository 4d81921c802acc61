# rewrite: its title, the one line `list` shows, the rules and the move
# syntax that `help rewrite` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

rewrite-title = Rewrite
rewrite-summary = objetivos secretos y reglas de reescritura secretas que se revelan a la vez: haz que la cadena final diga lo que tú quieres
rewrite-rules =
    Rewrite es Merkkikorvauspeli, el juego finlandés de reescritura de cadenas. Cada jugador elige en secreto un objetivo: 3 letras (-goal_length) o, con -regex_goals, una expresión regular con al menos ese número de letras. La cadena de la mesa empieza siendo el alfabeto (atcg). En cada ronda, cada jugador escribe en secreto una regla izquierda=>derecha; todas las reglas de la ronda se revelan a la vez. El lado izquierdo no puede estar vacío ni ser igual a la cadena de la mesa; el derecho puede estar vacío, pero no puede contener el objetivo del propio jugador (ni encajar con él). El conjunto de reglas de la ronda se aplica a la cadena de la mesa, y después el de cada ronda anterior, del más reciente al más antiguo. Un conjunto se aplica en un solo recorrido desde el principio: en cada posición se aplica la regla cuyo lado izquierdo coincide y es el más largo, y entre lados izquierdos iguales, la de lado derecho más corto; si aun así hay empate, ahí no se aplica ninguna. Lo que se acaba de reemplazar no se vuelve a reescribir en la misma pasada, y donde no se aplica ninguna regla se copia una letra. Tras la última ronda (-rounds=3) se revelan los objetivos y se cuentan los aciertos en la cadena final (los aciertos solapados también cuentan). Gana quien tenga más aciertos; en caso de empate gana, de entre los empatados, aquel cuya regla se aplicó más recientemente, y si no, la partida termina en tablas.

    EJEMPLO. Cinco jugadores, H, Y, I, G y M, eligen los objetivos aag, acc, ctc, acg y tca. Ronda 1 sobre atcg: H tcg=>ag, Y t=>ac, I g=>tc, G at=>ta, M g=>at. La regla at=>ta de G se aplica al principio; la c se copia; las reglas de I y de M para la g empatan (mismo lado izquierdo y lados derechos de la misma longitud), así que la g también se copia: tacg. Ronda 2: H ac=>aa, Y tac=>atc, I ta=>ct, G c=>ac, M t=>tc. Al principio gana el lado izquierdo más largo, tac=>atc de Y, lo que da atcg; después el conjunto 1 la devuelve a tacg. Ronda 3: H cg=>gg, Y cg=>tctc, I g=>tc, G tac=>tac, M acg=>ca. El conjunto 3 da tactc; el 2, atctcac, y el 1, tacaccac. Solo aparece el objetivo de Y, acc (tacACCac): Y gana con 1 acierto (y también habría ganado el desempate, porque la última regla aplicada fue t=>ac, de Y).
rewrite-move-help =
    goal aag      elige tu objetivo secreto (puedes cambiarlo hasta que estén todos los objetivos)
    tcg=>ag       tu regla secreta de esta ronda (puedes cambiarla hasta que todos hayan enviado la suya)
    tcg=>         una regla con el lado derecho vacío
    tcg->ag       la misma regla: -> puede sustituir a =>

    En la línea de órdenes, pon la regla entre comillas: el intérprete toma > como una redirección, así que t=>ac (o t->ac) sin comillas juega t= y escribe un archivo llamado ac:
    tabula rewrite move 1 ned CONTRASEÑA 'tcg=>ag'
