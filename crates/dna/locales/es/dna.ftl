# dna: its title, the one line `list` shows, the rules and the move syntax
# that `help dna` and the web pages show. Command words, option names and
# move syntax are the protocol and stay as they are in every language.

dna-title = ADN
dna-summary = recorta el código genético de tus rivales antes de que ellos recorten el tuyo
dna-rules =
    ADN es un juego de evolución acelerada para 2 a 8 jugadores: recorta el código genético de tus rivales antes de que ellos recorten el tuyo.

    PREPARACIÓN. Cada jugador tiene una secuencia de ADN de 36 letras, salvo que -length indique otra longitud, formada por los nucleótidos A, C, G y T (adenina, citosina, guanina y timina). Con -base=2 o -base=3 solo se usan las dos o tres primeras de esas letras. Normalmente el servidor sortea todas las secuencias. Con -manual, en cambio, cada jugador fija su propia secuencia o pide una al azar; nadie ve la secuencia de otro jugador hasta que todas están fijadas. Entonces empieza el juego.

    NOMINACIÓN. Los jugadores juegan por turnos en el orden en que se los nombró, empezando por el primero. En tu turno nominas un fragmento: una serie de letras consecutivas, de 3 letras salvo que -chunk, -min_chunk o -max_chunk permitan otros tamaños. El fragmento tiene que aparecer en tu propia secuencia (con -need_not_own, no hace falta). Después se eliminan todas sus apariciones de tu propia secuencia (con -no_reduce_self, no) y de la secuencia de cada rival (con -reduce_next, solo de la del siguiente rival en el orden de turno que siga en la partida).

    CÓMO SE ELIMINA. La eliminación se hace por pasadas. Una pasada lee la secuencia de izquierda a derecha y corta cada aparición del fragmento que encuentra; una aparición que se solapa con otra recién cortada se salta. Las letras a ambos lados de un corte se juntan, y eso puede formar apariciones nuevas, así que las pasadas se repiten hasta que una no encuentra nada. Cada aparición cortada en cualquier pasada cuenta como un fragmento eliminado. Por ejemplo, AGC aparece una sola vez en TAAGAAGCGCCT, pero tres pasadas eliminan tres fragmentos: TAAGA[AGC]GCCT, luego TAAG[AGC]CT y luego TA[AGC]T, y queda TAT. Con los fragmentos que se solapan hay que tener cuidado: AACACACA menos ACA deja AC (la primera pasada corta A[ACA]C[ACA]).

    PRIMERA RONDA. Salvo que la partida se haya creado con -non_incremental, durante la primera ronda el jugador que ocupa el puesto i en el orden de turno no puede nominar un fragmento que elimine más de i fragmentos de un mismo rival: el primer jugador, como mucho uno; el segundo, como mucho dos, y así sucesivamente.

    NOMINACIONES VÁLIDAS. Una nominación tiene que eliminar al menos un fragmento de alguna secuencia. El jugador que no tiene ninguna nominación válida pasa automáticamente, y la lista de jugadas lo indica. Si todos los jugadores que siguen en la partida pasan durante una ronda completa, las secuencias ya no pueden cambiar y la partida termina: gana la secuencia más larga, y si varias empatan como las más largas, hay empate. Los pases forzados por los límites de la primera ronda no cuentan para esto, porque esos límites terminan con la primera ronda.

    QUIÉN QUEDA FUERA Y QUIÉN GANA. Tras cada nominación, el jugador cuya secuencia sea más corta que el tamaño mínimo de fragmento queda fuera de la partida. Gana el último jugador que quede. Si una sola nominación deja fuera a todos los jugadores que seguían en la partida, gana la más larga de sus secuencias; si varias empatan como las más largas, hay empate.

    ABANDONO. Un jugador puede abandonar en cualquier momento. Su secuencia se queda en el tablero, congelada: las nominaciones posteriores ya no la reducen.

    TAMAÑOS DE FRAGMENTO. Con -min_chunk y -max_chunk se puede nominar cualquier tamaño entre el mínimo y el máximo; el límite que no se indique vale 3, o lo mismo que el otro límite si 3 quedara del lado equivocado. Se rechazan -chunk junto con un -min_chunk o un -max_chunk distintos, un tamaño mínimo mayor que el máximo y un fragmento más largo que la secuencia.

    EJEMPLO. Una partida entre ned, ted y jed empieza así:

      ned (36): TCGCATGTACAAAGTTTTCAATCTTCGCCTTGAGAG
      ted (36): TCAGCGCGTTCCCGGAGTCGTCGTATTAAAGGGGAT
      jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG

    En su primera jugada, ned nomina AAG, que aparece una vez en su secuencia y otra en la de ted (no podría nominar TTG: aparece dos veces en la de jed, y el primer jugador puede eliminar como mucho un fragmento de cada rival):

      ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG
      ted (33): TCAGCGCGTTCCCGGAGTCGTCGTATTAGGGAT
      jed (36): GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG

    En la segunda jugada, ted nomina TTC:

      ned (27): TCGCATGTACATTAATCGCCTTGAGAG
      ted (30): TCAGCGCGCCGGAGTCGTCGTATTAGGGAT
      jed (33): GCCAATTATGGACTTGTTGTCAGATAGTCGGCG

    EL TABLERO. Una línea por jugador con la longitud de la secuencia y la secuencia: `ned (33): TCGCATGTACATTTTCAATCTTCGCCTTGAGAG`. El jugador que queda fuera de la partida lleva la marca (eliminado), y el que abandona, (abandonó). Mientras se fijan las secuencias con -manual, en lugar de las de los demás se ve oculta.
dna-move-help =
    Nomina un fragmento escribiendo sus letras (en mayúsculas o minúsculas):
      dna move 1 ned CONTRASEÑA AAG
    Un fragmento tiene el tamaño de fragmento de la partida (3 por defecto, o cualquiera entre -min_chunk y -max_chunk) y solo usa las letras de la partida (A, C, G, T, o menos con -base).

    Con -manual, antes de la primera nominación cada jugador fija su secuencia con una jugada que es la secuencia entera, exactamente -length letras:
      dna move 1 ned CONTRASEÑA GCCAATTATGGACTTGTTGTCAGATAGTTTCCGGCG
    o deja que el servidor la sortee:
      dna move 1 ned CONTRASEÑA random

    Para planear una nominación, la calculadora muestra qué le hace a una secuencia eliminar un fragmento, una línea por pasada con --trace, o en JSON con --json:
      tabula dna remove --trace TAAGAAGCGCCT AGC

## Opciones, como las describen `help dna` y el formulario de desafío

dna-option-length = longitud de la secuencia
dna-option-chunk = tamaño del fragmento (3 si no se da ninguna opción de fragmento); fija a la vez -min_chunk y -max_chunk
dna-option-min_chunk = tamaño mínimo del fragmento (al menos 2)
dna-option-max_chunk = tamaño máximo del fragmento
dna-option-base = número de letras usadas: las 2, 3 o 4 primeras de A, C, G, T
dna-option-manual = los jugadores fijan sus propias secuencias (o `random`), ocultas hasta que todas estén fijadas
dna-option-non_incremental = sin límite en la primera ronda a los fragmentos eliminados a un rival
dna-option-need_not_own = un fragmento nominado no tiene por qué estar en la secuencia de quien mueve
dna-option-no_reduce_self = nominar no reduce la secuencia de quien mueve
dna-option-reduce_next = nominar reduce solo al siguiente rival en el orden de turno

## Rechazos: opciones que se contradicen, y jugadas

dna-error-chunk-contradicts = -chunk={ $chunk } contradice -{ $name }={ $value }: -chunk fija a la vez el tamaño mínimo y el máximo del fragmento
dna-error-chunk-too-long = { $culprit } es más largo que -length={ $length }: un fragmento no puede ser más largo que la secuencia
dna-error-default-chunk = el tamaño de fragmento por defecto { $size }
dna-error-min-over-max = -min_chunk={ $min } es mayor que -max_chunk={ $max }
dna-error-chunk-rule = los fragmentos tienen { $size } letras (-chunk={ $size })
dna-error-chunk-rule-range = los fragmentos tienen de { $min } a { $max } letras (-min_chunk={ $min } -max_chunk={ $max })
dna-error-not-owned = { $chunk } no está en tu secuencia: lo que se nomina debe ser un fragmento de tu propia secuencia
dna-error-first-round = { $chunk } eliminaría { $removed ->
    [one] { NUMBER($removed) } fragmento
   *[other] { NUMBER($removed) } fragmentos
} a { $opponent }: en la primera ronda el jugador { $position }.º puede eliminar como mucho { $limit ->
    [one] { NUMBER($limit) } fragmento
   *[other] { NUMBER($limit) } fragmentos
} a cada rival
dna-error-no-op = { $chunk } no eliminaría nada: lo que se nomina debe eliminar al menos un fragmento de alguna secuencia
dna-error-letters = { $text } no es { $what ->
    [chunk] un fragmento
   *[sequence] una secuencia
}: usa solo las letras { $letters }
dna-error-chunk-size = { $chunk } tiene { $size ->
    [one] { NUMBER($size) } letra
   *[other] { NUMBER($size) } letras
}: { $rule }
dna-error-sequence-length = una secuencia tiene exactamente { $length } letras (-length={ $length }), no { $given }; las nominaciones empiezan cuando todas las secuencias están fijadas
dna-error-empty-setup = jugada vacía: escribe tu secuencia, o random
dna-error-empty = jugada vacía: escribe el fragmento que nominas, como AAG
dna-error-too-long = una jugada de { $given } caracteres es demasiado larga: las secuencias tienen { $length } letras
dna-error-random-late = random solo fija una secuencia durante una preparación -manual; ahora nomina un fragmento
dna-error-setup-first = las nominaciones empiezan cuando todas las secuencias están fijadas
dna-error-already-set = ya has fijado tu secuencia; queda oculta hasta que todas las secuencias estén fijadas
dna-error-all-set = todas las secuencias ya están fijadas: nomina un fragmento
dna-error-preview-setup = no es una nominación: la preparación sigue en curso

## Cómo terminó una partida; $why es uno de los dos primeros

dna-outcome-no-nomination = ningún jugador pudo nominar
dna-outcome-all-eliminated = todos los jugadores que quedaban fueron eliminados a la vez
dna-outcome-longest-wins = { $why }; gana la secuencia más larga
dna-outcome-longest-tie = { $why }; las secuencias más largas empatan
dna-outcome-all-resigned = todos los jugadores abandonaron

## Líneas del historial

dna-history-passes = { $user } no tiene ninguna nominación legal y pasa
dna-history-longest-wins = { $user } gana con la secuencia más larga ({ NUMBER($letters) } { $letters ->
    [one] letra
   *[other] letras
}): { $why }
dna-history-longest-tie = { $users } empatan con las secuencias más largas ({ NUMBER($letters) } { $letters ->
    [one] letra
   *[other] letras
}): { $why }
dna-history-nomination = { $user }: { $chunk } ({ $effects })
dna-history-out = { $user } queda eliminado: le { $letters ->
    [one] queda 1 letra
   *[other] quedan { NUMBER($letters) } letras
}, menos de { NUMBER($min) }
dna-history-random-sequence = { $user } fija una secuencia al azar: { $sequence }
dna-history-sequence = { $user } fija la secuencia { $sequence }
dna-history-sets-sequence = { $user } fija una secuencia
dna-history-all-set = Todas las secuencias están fijadas y ahora se muestran a todos
dna-history-resigns-frozen = { $user } abandona; su secuencia queda en el tablero, congelada
dna-history-resigns-unset = { $user } abandona antes de fijar una secuencia

## El tablero ($length es un número escrito tal cual; $round es first o later)

dna-board-hidden = { $name } ({ $length }): oculta
dna-board-no-sequence-yet = { $name }: aún sin secuencia
dna-board-no-sequence = { $name }: sin secuencia
dna-board-opening-passes = Ninguna nominación legal al empezar; pasaron: { $users }
dna-board-out = (eliminado)
dna-board-resigned = (abandonó)
dna-board-over = Partida terminada
dna-board-setting-up = Preparación: se espera a { $users }
dna-board-to-nominate = Nomina: { $users }{ $round ->
    [first] {" "}(primera ronda)
   *[later] {""}
}
dna-board-last = Última: { $user } nominó { $chunk } ({ $effects })
dna-board-before = antes de { $chunk }
dna-board-no-strip = aún sin secuencia
dna-board-adenine = adenina
dna-board-cytosine = citosina
dna-board-guanine = guanina
dna-board-thymine = timina
dna-board-removed = quitada por la última nominación
