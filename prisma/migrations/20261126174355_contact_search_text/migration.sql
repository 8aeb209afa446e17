-- Accent- and case-insensitive contact search (docs/api/contact-books.md "Search",
-- lib/domains/contacts/search.ts). PGlite loads no unaccent extension and a managed PostgreSQL
-- may not offer it, so the folding is plain SQL that both run: Unicode NFD, combining marks
-- (U+0300-U+036F) removed, lower case, and the few Latin letters NFD does not split
-- (ø, ł, đ, ħ, ı, ŧ, ß, æ, œ). "Chloé", "CHLOE" and "chloe" all fold to "chloe". Plain ASCII
-- (one byte per character) only needs lower(): the common case skips the costly steps.
CREATE FUNCTION "switchboard_search_fold"(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN octet_length(t) = char_length(t) THEN lower(t) ELSE
    replace(replace(replace(
      translate(lower(regexp_replace(normalize(t, NFD), '[\u0300-\u036f]', '', 'g')), 'øłđħıŧ', 'oldhit'),
      'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe')
  END
$$;

-- AlterTable
ALTER TABLE "Contact" ADD COLUMN     "searchText" TEXT NOT NULL DEFAULT '';

-- The folded name and email, kept by a trigger whoever writes the row (the bulk upload's one
-- INSERT ... ON CONFLICT, Prisma, the demo seed, a direct SQL update): a value written to the
-- column itself is replaced.
CREATE FUNCTION "switchboard_contact_search_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."searchText" := "switchboard_search_fold"(concat_ws(E'\n', NEW."name", NEW."email"));
  RETURN NEW;
END
$$;

CREATE TRIGGER "Contact_search_text" BEFORE INSERT OR UPDATE ON "Contact" FOR EACH ROW
  EXECUTE FUNCTION "switchboard_contact_search_text"();

-- The contacts stored before this migration.
UPDATE "Contact" SET "searchText" = "switchboard_search_fold"(concat_ws(E'\n', "name", "email"));
