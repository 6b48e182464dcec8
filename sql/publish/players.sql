-- The membership key of each player of each contestant, for the player pages: one row per
-- player of a contestant whose membership numbers (contestants.player_ids, ';'-separated)
-- are as many as its names (' & '-separated; a PBN's ' - ' is read as the same), the player
-- at position i holding number i. The number itself is never selected: member_key is an MD5
-- of it, used to tell players apart while the pages are made and written nowhere. The rows
-- are not ordered: the player pages join them to the standings' lines by their keys and
-- order every page's rows themselves (sorting a season's rows here cost half the query).
WITH counted AS (
    SELECT event_id, contestant, direction, section, names, player_ids,
           (length(replace(names, ' - ', ' & '))
            - length(replace(replace(names, ' - ', ' & '), ' & ', ''))) / 3 + 1 AS n_names,
           length(player_ids) - length(replace(player_ids, ';', '')) + 1 AS n_ids
    FROM contestants
    WHERE player_ids IS NOT NULL AND names IS NOT NULL
)
SELECT c.event_id, c.contestant, c.direction, c.section, c.names, k.i AS position,
       md5(trim(split_part(c.player_ids, ';', k.i))) AS member_key
FROM counted AS c
JOIN generate_series(1, 12) AS k(i) ON k.i <= c.n_names
WHERE c.n_ids = c.n_names AND trim(split_part(c.player_ids, ';', k.i)) <> '';
