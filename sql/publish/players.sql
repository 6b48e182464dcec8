-- The membership key of each player of each contestant, for the player pages: one row per
-- player of a contestant whose membership numbers (contestants.player_ids, ';'-separated)
-- are as many as its names (' & '-separated; a PBN's ' - ' is read as the same), the player
-- at position i holding number i. The number itself is never selected: member_key is an MD5
-- of it, used to tell players apart while the pages are made and written nowhere. The rows
-- are not ordered: the player pages join them to the standings' lines by their keys and
-- order every page's rows themselves (sorting a season's rows here cost half the query).
-- Each list of numbers is split once (not each number cut out of the whole list in turn),
-- however many players a contestant has.
WITH counted AS (
    SELECT event_id, contestant, direction, section, names,
           regexp_split_to_array(player_ids, ';') AS ids,
           (length(replace(names, ' - ', ' & '))
            - length(replace(replace(names, ' - ', ' & '), ' & ', ''))) / 3 + 1 AS n_names,
           length(player_ids) - length(replace(player_ids, ';', '')) + 1 AS n_ids
    FROM contestants
    WHERE player_ids IS NOT NULL AND names IS NOT NULL
),
numbered AS (
    SELECT event_id, contestant, direction, section, names,
           unnest(ids) AS id, generate_subscripts(ids, 1) AS position
    FROM counted
    WHERE n_ids = n_names
)
SELECT event_id, contestant, direction, section, names, position,
       md5(trim(id)) AS member_key
FROM numbered
WHERE trim(id) <> '';
