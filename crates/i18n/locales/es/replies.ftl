# Respuestas a las órdenes del lenguaje de órdenes: el encabezado (el asunto
# del correo) y el texto.

language-set-subject = Idioma
language-set = Las respuestas y el correo de { $user } están ahora en español.
