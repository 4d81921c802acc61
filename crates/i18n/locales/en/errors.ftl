# Errors of the command language, as every front end shows them. Error
# codes (usage, bad_value ..) are the protocol and are not here; command
# words, option names and syntax lines stay as they are in every language.

error-language-unknown = "{ $given }" is not a language Tabula speaks: choose fi (suomi), es (español) or en (English)
