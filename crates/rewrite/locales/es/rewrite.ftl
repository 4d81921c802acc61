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

## Opciones, como las describen `help rewrite` y el formulario de desafío

rewrite-option-alphabet = las letras del juego; la cadena de la mesa empieza con cada letra una vez, en orden
rewrite-option-alphabet-accepts = letras minúsculas a-z distintas
rewrite-option-rounds = rondas de escritura de reglas
rewrite-option-goal_length = letras de un objetivo (al menos tantas en un objetivo con patrón)
rewrite-option-regex_goals = los objetivos son expresiones regulares (letras, . [ ] ( ) | * + ? {"{"}m,n{"}"} ^ $)
rewrite-option-max_rhs = máximo de letras en el lado derecho de una regla
rewrite-option-max_length = la cadena de la mesa nunca crece más allá: una pasada más larga se corta aquí

## Rechazos: opciones, objetivos y reglas ($letter y $text son lo escrito, entre comillas)

rewrite-error-alphabet-letter = { $letter } no es una letra minúscula a-z
rewrite-error-alphabet-twice = { $letter } aparece dos veces (en la posición { $position })
rewrite-error-max-length = -max_length={ $max } es más corto que la cadena inicial { $alphabet } (-alphabet)
rewrite-error-goal-word = escribe el objetivo después de la palabra goal: goal aag
rewrite-error-rule-spaces = { $text }: una regla no lleva espacios dentro de sus lados
rewrite-error-not-a-move = { $text } no es una jugada: escribe goal aag para elegir tu objetivo, o una regla como tcg=>ag
rewrite-error-goal-first = regla 1: elige primero tu objetivo secreto (goal aag); las reglas se escriben cuando todos los objetivos están elegidos
rewrite-error-goals-fixed = regla 1: los objetivos quedan fijos cuando todos están elegidos
rewrite-error-lhs-empty = regla 3: el lado izquierdo no puede estar vacío
rewrite-error-letter = -alphabet: { $letter } no es ninguna de las letras { $alphabet }
rewrite-error-lhs-long = el lado izquierdo tiene como mucho { $max } letras, no { $given }
rewrite-error-lhs-table = regla 3: el lado izquierdo no puede ser la propia cadena de la mesa ({ $lhs })
rewrite-error-rhs-long = -max_rhs: el lado derecho tiene como mucho { $max } letras, no { $given }
rewrite-error-rhs-goal = regla 3: el lado derecho no puede { $how ->
    [match] coincidir con
   *[contain] contener
} tu propio objetivo ({ $goal })
rewrite-error-goal-long = un objetivo tiene como mucho { $max } caracteres
rewrite-error-goal-length = regla 1: un objetivo tiene exactamente { $length } letras (-goal_length), no { $given }
rewrite-error-pattern-group = después de (? solo se admiten grupos (?: )
rewrite-error-pattern-char = { $letter } no se admite en un patrón de objetivo (usa las letras { $alphabet } y . [ ] ^ - ( ) (?: ) | * + ? {"{"}m,n{"}"} $)
rewrite-error-pattern-letters = regla 1: un patrón de objetivo tiene al menos { $length } letras (-goal_length), sin contar los metacaracteres; { $text } tiene { $given }
rewrite-error-pattern-invalid = { $text } no es una expresión regular válida: { $problem }
rewrite-error-pattern-empty = regla 1: un objetivo no puede coincidir con la cadena vacía
rewrite-error-pattern-nothing = regla 1: un objetivo tiene que poder coincidir con algo
rewrite-error-goal-complex = el objetivo { $text } es demasiado complejo: { $problem }

## Cómo terminó una partida

rewrite-outcome-others-resigned = todos los demás jugadores abandonaron
rewrite-outcome-most-hits = más aciertos ({ NUMBER($hits) } { $hits ->
    [one] acierto
   *[other] aciertos
})
rewrite-outcome-tie-applied-last = empate a { NUMBER($hits) } { $hits ->
    [one] acierto
   *[other] aciertos
}; la regla de { $user } fue la última aplicada
rewrite-outcome-tie-never-applied = empate a { NUMBER($hits) } { $hits ->
    [one] acierto
   *[other] aciertos
}; nunca se aplicó la regla de ningún jugador empatado

## Líneas del historial

rewrite-history-goals-in = Ya están todos los objetivos. Ronda 1: escribid vuestras reglas.
rewrite-history-round-rules = Reglas de la ronda { $round }: { $rules }.
rewrite-history-cut = Ronda { $round }, conjunto { $set }: la cadena se cortó en { NUMBER($letters) } letras (-max_length).
rewrite-history-pass = conjunto { $set }: { $input } -> { $output }
rewrite-history-round = Ronda { $round }: { $passes }.
rewrite-history-next-round = Ronda { $round }: escribid vuestras reglas.
rewrite-history-goal = { $user } { $goal } ({ NUMBER($hits) } { $hits ->
    [one] acierto
   *[other] aciertos
})
rewrite-history-no-goal = { $user } (sin objetivo)
rewrite-history-over = La partida ha terminado. Objetivos: { $goals }.
rewrite-history-wins = { $user } gana: { $reason }.
rewrite-history-draw = Empate: { $reason }.
rewrite-history-goal-changes = { $user } cambia su objetivo por { $goal }
rewrite-history-goal-changed = { $user } cambió su objetivo
rewrite-history-goal-chooses = { $user } elige el objetivo { $goal }
rewrite-history-goal-chose = { $user } eligió un objetivo
rewrite-history-rule-replaces = { $user } sustituye su regla de la ronda { $round } por { $rule }
rewrite-history-rule-replaced = { $user } sustituyó su regla de la ronda { $round }
rewrite-history-rule-writes = { $user } escribe { $rule } para la ronda { $round }
rewrite-history-rule-wrote = { $user } escribió una regla para la ronda { $round }

## Qué falla en el patrón de un objetivo ($problem de rewrite-error-pattern-invalid)

rewrite-regex-class-unclosed = falta cerrar el corchete [ de una clase de caracteres
rewrite-regex-class-range = el rango de una clase de caracteres está al revés: el inicio no puede ser mayor que el final
rewrite-regex-class-range-literal = los extremos de un rango deben ser letras
rewrite-regex-group-unclosed = falta cerrar un paréntesis (
rewrite-regex-group-unopened = hay un paréntesis ) que no se abrió
rewrite-regex-repetition-missing = un operador de repetición (* + ? {"{"}m,n{"}"}) no tiene nada delante que repetir
rewrite-regex-count-range = el rango de repetición {"{"}m,n{"}"} está al revés: m no puede ser mayor que n
rewrite-regex-count-unclosed = falta cerrar la llave {"{"} de una repetición
rewrite-regex-count-empty = una repetición {"{"}m,n{"}"} necesita un número
rewrite-regex-decimal-empty = falta el número de una repetición
rewrite-regex-decimal-invalid = el número de una repetición no es válido
rewrite-regex-nesting = hay más de { $limit } paréntesis o corchetes anidados
# Cualquier otro problema: la línea del analizador, en inglés, citada.
rewrite-regex-other = el analizador de expresiones informa: { $detail }

## El tablero ($round, $rounds, $set, $letters, $length, $pos y $count son números escritos tal cual; $cut es yes o no)

rewrite-board-heading = Rewrite, alfabeto { $alphabet }: { $status }
rewrite-board-choosing-goals = eligiendo objetivos
rewrite-board-writing-rules = ronda { $round } de { $rounds }: escribiendo reglas
rewrite-board-over = terminada tras { $round } de { $rounds } rondas
rewrite-board-table = Cadena de la mesa:
rewrite-board-start = inicio
rewrite-board-round = ronda { $round }
rewrite-board-cut = (cortada en { $letters } letras, -max_length)
rewrite-board-shown-long = { $text } ({ $length } letras)
rewrite-board-rules = Reglas:
rewrite-board-set = ronda { $round }:
rewrite-board-trace = Ronda { $round }, conjunto a conjunto:
rewrite-board-pass = conjunto { $set }: { $input } -> { $output }  ({ NUMBER($applications) } { $applications ->
    [one] aplicación
   *[other] aplicaciones
}{ $cut ->
    [yes] , cortada en -max_length
   *[no] {""}
})
rewrite-board-step = { $user } { $rule } en { $pos }
rewrite-board-more = ... y { $count } más
rewrite-board-your-goal = Tu objetivo: { $goal }
rewrite-board-your-rule = Tu regla para la ronda { $round }: { $rule } (puedes cambiarla hasta que todos hayan escrito la suya)
rewrite-board-waiting = Se espera a: { $users }
rewrite-board-results = Objetivos y aciertos en la cadena final:
rewrite-board-no-goal = { $user } (sin objetivo)
rewrite-board-goal = { $user } { $goal } { NUMBER($hits) } { $hits ->
    [one] acierto
   *[other] aciertos
}
