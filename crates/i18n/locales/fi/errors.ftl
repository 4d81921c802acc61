# Komentokielen virheet kaikissa käyttöliittymissä. Virhekoodit ja
# komentosanat kuuluvat protokollaan eivätkä käänny.

error-language-unknown = "{ $given }" ei ole Tabulan kieli: valitse fi (suomi), es (español) tai en (English)
