-- The whole warehouse, per file: rows read = rows accepted (reference rows and validated table
-- results, which are scored once the date's checks pass) + rows rejected (distinct locations,
-- every stage) + entries superseded by later ones. What `traveller run` summarises.
WITH accepted AS (
    SELECT file, count(*) AS rows_validated FROM (
        SELECT file FROM validated_results
        UNION ALL SELECT file FROM rulings
        UNION ALL SELECT file FROM appeals
    ) GROUP BY file
), scored AS (
    SELECT file, count(*) AS rows_scored FROM scored_results GROUP BY file
), bad AS (
    SELECT file, count(DISTINCT location) AS rows_rejected FROM rejected_inputs GROUP BY file
)
SELECT f.file, f.format, f.rows_read,
       f.rows_reference + coalesce(a.rows_validated, 0) AS rows_accepted,
       coalesce(s.rows_scored, 0)                       AS rows_scored,
       coalesce(b.rows_rejected, 0)                     AS rows_rejected,
       f.rows_superseded,
       f.whole_file_rejected,
       f.whole_file_rejected
         OR f.rows_read = f.rows_reference + coalesce(a.rows_validated, 0)
                          + coalesce(b.rows_rejected, 0) + f.rows_superseded
         AS balanced
FROM source_files f
LEFT JOIN accepted a USING (file) LEFT JOIN scored s USING (file) LEFT JOIN bad b USING (file)
ORDER BY f.file;
