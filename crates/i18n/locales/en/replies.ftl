# Replies to the commands of the command language: the heading (the mail
# subject) and the text, as every front end prints them.

language-set-subject = Language
language-set = Replies and mail for { $user } are now in English.
