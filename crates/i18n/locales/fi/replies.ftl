# Vastaukset komentokielen komentoihin: otsikko (sähköpostin aihe) ja teksti.

language-set-subject = Kieli
language-set = Käyttäjän { $user } vastaukset ja sähköpostit ovat nyt suomeksi.
