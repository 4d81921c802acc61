# rtlife: its title, the one line `list` shows, the rules and the move
# syntax that `help rtlife` and the web pages show. Command words, option
# names and move syntax are the protocol and stay as they are in every
# language.

rtlife-title = Life en tiempo real
rtlife-summary = Life al ritmo del reloj: únete cuando quieras, mueve células con puntos y supera a los demás en puntuación
rtlife-rules =
    Life en tiempo real avanza con el reloj. En cada tic (-tick, una hora por defecto), cada jugador que ha colocado células gana puntos de movimiento: uno por cada 10 células vivas, nunca menos de 1; los puntos se acumulan. Cada -gen_ticks tics (12 por defecto), todo el campo avanza una generación de Life: toda célula cuenta como vecina, sea de quien sea; una célula con 2 o 3 vecinas sobrevive y todas las demás mueren; en un punto vacío con exactamente 3 vecinas nace una célula nueva, que es del jugador dueño de al menos 2 de las 3 progenitoras, o neutral (#) si las tres son de dueños distintos.

    La primera jugada de un jugador coloca -start_cells células (10 por defecto) en puntos vacíos, todas conectadas (en horizontal, en vertical o en diagonal). El creador de la partida y los usuarios que nombra son jugadores desde el principio; cualquier otro puede unirse mientras la partida está en marcha (hasta -max_players, como mucho 26, que se muestran como las letras A..Z) con la misma jugada de colocación.

    Mover una célula cuesta la longitud del camino más corto con pasos de rey (un punto por paso, en horizontal, en vertical o en diagonal) a través de puntos vacíos: una célula no puede atravesar otra célula ni saltar por encima de ella, pero sí rodearla. Un movimiento sin un camino así, o que cueste más puntos de los que tiene el jugador, se rechaza y no cuesta nada. Varios movimientos en una misma orden se aplican en orden, todos o ninguno.

    Justo después de cada generación, cada jugador suma a su puntuación (células vivas) / (generaciones que lleva en la partida, incluida esta): 100 células tras 10 generaciones dan 10, igual que 10 células tras la primera. Un jugador que ha colocado células y se queda sin ninguna tras una generación queda fuera. Cuando al menos dos jugadores han colocado células, gana el último que quede; si los últimos jugadores desaparecen en la misma generación, gana el de mayor puntuación entre ellos (con la misma puntuación, empate). Con -generations=N gana la mayor puntuación tras la generación N entre los jugadores que siguen en el campo o, si no queda ninguno, entre los que colocaron células y no abandonaron: quien nunca colocó células no tiene puntuación con la que ganar. Las células de un jugador que abandona no pasan a nadie (se vuelven neutrales).

    Bordes: dead (nada vive fuera del campo de -width x -height), torus (el campo se cierra sobre sí mismo) o unbounded (el plano infinito; -width y -height no se usan, y los puntos pueden escribirse (x,y), con a1 = (0,0)).
rtlife-move-help =
    rtlife move <tablero#> <usuario> <contraseña> c5,d5,e5,...   primera jugada: coloca -start_cells células conectadas
    rtlife move <tablero#> <usuario> <contraseña> c5-f8           mueve una célula por el camino libre más corto
    rtlife move <tablero#> <usuario> <contraseña> c5-f8,a1-b2     varios movimientos, en orden, todos o ninguno
    Las palabras place y move pueden ir delante de los puntos (place c5,d5,e5 o move c5-f8).
    En el plano ilimitado los puntos pueden escribirse (x,y): place (-3,12),(-2,12),...
