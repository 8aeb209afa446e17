-- Business-hours variants of the support figures (docs/reports.md "Business hours"): each
-- duration is also written in the account's business seconds when the figure is written
-- (lib/domains/support/periods.ts), so the reports stay plain SQL over columns and hours
-- changed later do not rewrite history. Null: the account had no business hours then.
ALTER TABLE "SupportPeriod" ADD COLUMN     "firstResponseBusinessSeconds" INTEGER,
ADD COLUMN     "resolutionBusinessSeconds" INTEGER;

-- AlterTable
ALTER TABLE "SupportResponse" ADD COLUMN     "businessSeconds" INTEGER;

-- Business seconds in [a, b) (UTC timestamps) under the account's stored setting `hours`
-- ({timezone, days: [{day, open, close}], holidays}; docs/automation.md "Business hours"): the
-- SQL twin of businessSecondsBetween (lib/domains/business-hours/hours.ts), which the tests hold
-- it to. Each range that starts on a local date (a holiday closes that date's ranges) is an
-- interval of UTC instants; a range whose close is not after its open runs past midnight. Null
-- without hours, or when the stored shape or its zone is not one this database reads (the figure
-- is then unknown rather than the write failing; the handler is a subtransaction, so the function
-- is not marked parallel safe: only writes call it). A span is cut at five years, as in hours.ts.
CREATE FUNCTION "switchboard_business_seconds"(a timestamp, b timestamp, hours jsonb) RETURNS integer
LANGUAGE plpgsql STABLE AS $$
DECLARE
  tz text;
  total integer;
BEGIN
  IF a IS NULL OR b IS NULL OR hours IS NULL OR jsonb_typeof(hours) <> 'object'
    OR jsonb_typeof(hours->'days') <> 'array' THEN
    RETURN NULL;
  END IF;
  IF b <= a THEN RETURN 0; END IF;
  tz := hours->>'timezone';
  SELECT COALESCE(floor(sum(extract(epoch FROM LEAST(iv.e, b) - GREATEST(iv.s, a)))
      FILTER (WHERE LEAST(iv.e, b) > GREATEST(iv.s, a))), 0)::integer
    INTO total
  FROM (
    SELECT ((d + r."open"::interval) AT TIME ZONE tz) AT TIME ZONE 'UTC' AS s,
      ((CASE WHEN r."close"::interval > r."open"::interval THEN d + r."close"::interval
        ELSE d + interval '1 day' + r."close"::interval END) AT TIME ZONE tz) AT TIME ZONE 'UTC' AS e
    FROM generate_series((((a AT TIME ZONE 'UTC') AT TIME ZONE tz)::date - 1)::timestamp,
        LEAST(((b AT TIME ZONE 'UTC') AT TIME ZONE tz)::date, ((a AT TIME ZONE 'UTC') AT TIME ZONE tz)::date + 1829)::timestamp,
        interval '1 day') AS d
    JOIN jsonb_to_recordset(hours->'days') AS r("day" integer, "open" text, "close" text)
      ON r."day" = extract(dow FROM d)::integer
    WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(COALESCE(hours->'holidays', '[]'::jsonb)) h
      WHERE h = to_char(d, 'YYYY-MM-DD'))
  ) iv;
  RETURN total;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;
