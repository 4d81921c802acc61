-- The language an account reads Tabula in (`language USERID PASSWORD fi`):
-- `en`, `fi` or `es`; NULL until chosen, when the web follows the
-- browser's Accept-Language and mail is in English.
ALTER TABLE users ADD COLUMN language TEXT;
