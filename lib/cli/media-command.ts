// media:gc (docs/media.md "Retention"): deletes the files past MEDIA_RETENTION_DAYS now, as
// the hourly pass of the background work does.
import { pruneExpiredMedia } from "@/lib/domains/media/retention";
import { defineCommand } from "./command";
import { MediaGcArgs } from "./schemas";

export const mediaGcCommand = defineCommand({
  schema: MediaGcArgs,
  run: async () => {
    const { expired, freedBytes } = await pruneExpiredMedia();
    return {
      json: { expired, freedBytes },
      text:
        expired === 0
          ? "No media past its retention."
          : `${expired} file(s) past retention expired; ${freedBytes} bytes freed from the accounts' usage.`,
    };
  },
});
