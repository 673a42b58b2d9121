-- A path segment as JavaScript's encodeURIComponent writes it (each UTF-8 byte of any other character as %XX): the
-- selfLink of an item whose page PostgreSQL writes (a name or namespace of other characters than these is rare).
CREATE FUNCTION kube.uri_component(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT COALESCE(string_agg(CASE WHEN c ~ '^[A-Za-z0-9_.!~*''()-]$' THEN c
                                  ELSE regexp_replace(upper(encode(convert_to(c, 'UTF8'), 'hex')), '(..)', '%\1', 'g') END,
                             '' ORDER BY i), '')
  FROM regexp_split_to_table(value, '') WITH ORDINALITY AS t(c, i)
$$;
