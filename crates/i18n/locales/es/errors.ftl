# Errores del lenguaje de órdenes en todas las interfaces. Los códigos de
# error y las palabras de las órdenes son el protocolo y no se traducen.

error-language-unknown = "{ $given }" no es un idioma de Tabula: elige fi (suomi), es (español) o en (English)
