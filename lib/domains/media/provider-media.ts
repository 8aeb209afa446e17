// The provider's copy of a file (docs/media.md "Sending media"): before a
// send by mediaId the file is uploaded to the provider for that sender's number once, and the
// provider's id kept in ProviderMedia (per account, number and sha256) for 29 days (the
// provider keeps an upload 30); a send after that uploads again. One upload at a time per
// (account, number, file): a process that finds another's claim waits for its id, and sends
// of one process share one promise (a broadcast's header maps once).
import { log } from "@/lib/core/log";
import { db } from "@/lib/db";
import { getProvider } from "@/lib/domains/provider/client";
import type { ProviderRefused, ProviderSender } from "@/lib/domains/provider/types";
import { getStorage } from "@/lib/storage";
import { objectKey } from "./objects";

/** How long a provider id is used: a day short of the provider's 30. */
export const PROVIDER_MEDIA_DAYS = 29;
/** How long one upload may hold the claim before another process may take it over. */
const CLAIM_MS = 10 * 60_000;
const WAIT_STEP_MS = 50;

export type ProviderMediaOutcome = { ok: true; id: string } | ProviderRefused;

type FileFacts = { id: string; mimeType: string; sha256: string; fileSize: number; filename: string | null };

const inFlight = new Map<string, Promise<ProviderMediaOutcome>>();

/**
 * The provider's id of the account's media `mediaId` for the sender's number: the cached one
 * while it is valid, else a fresh upload of the stored file. A refusal when the upload is
 * refused or the file is gone.
 */
export function providerMediaIdFor(
  customerId: string,
  sender: ProviderSender,
  mediaId: string,
): Promise<ProviderMediaOutcome> {
  const key = `${customerId}:${sender.phoneNumberId}:${mediaId}`;
  const running = inFlight.get(key);
  if (running) return running;
  const run = resolveProviderId(customerId, sender, mediaId).finally(() => inFlight.delete(key));
  inFlight.set(key, run);
  return run;
}

async function resolveProviderId(
  customerId: string,
  sender: ProviderSender,
  mediaId: string,
): Promise<ProviderMediaOutcome> {
  const deadline = Date.now() + CLAIM_MS + 5_000;
  for (;;) {
    // One read for the file and its cached copy: the steady state of a send (a broadcast's
    // every recipient) costs this statement only.
    const [file] = await db.$queryRaw<(FileFacts & { providerMediaId: string | null; expiresAt: Date | null })[]>`
      SELECT md."id", md."mimeType", md."sha256", md."fileSize", md."filename", pm."providerMediaId", pm."expiresAt"
      FROM "Media" md LEFT JOIN "ProviderMedia" pm ON pm."customerId" = md."customerId"
        AND pm."phoneNumberId" = ${sender.phoneNumberId} AND pm."sha256" = md."sha256"
      WHERE md."id" = ${mediaId} AND md."customerId" = ${customerId}
        AND md."sha256" IS NOT NULL AND md."fileSize" IS NOT NULL`;
    if (!file) return gone(mediaId);
    const now = new Date();
    if (file.providerMediaId && file.expiresAt && file.expiresAt > now) return { ok: true, id: file.providerMediaId };
    const pk = { customerId, phoneNumberId: sender.phoneNumberId, sha256: file.sha256 };
    if (await claim(pk, now)) return upload(pk, sender, file);
    if (Date.now() > deadline) return gone(mediaId, "another upload of the file did not finish");
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

type Pk = { customerId: string; phoneNumberId: string; sha256: string };

/** Takes the upload of this file to this number, unless a valid id is cached or another upload holds it. */
async function claim(pk: Pk, now: Date): Promise<boolean> {
  const until = new Date(now.getTime() + CLAIM_MS);
  const taken = await db.$executeRaw`
    INSERT INTO "ProviderMedia" ("customerId", "phoneNumberId", "sha256", "claimedUntil", "createdAt", "updatedAt")
    VALUES (${pk.customerId}, ${pk.phoneNumberId}, ${pk.sha256}, ${until}, ${now}, ${now})
    ON CONFLICT ("customerId", "phoneNumberId", "sha256") DO UPDATE
      SET "claimedUntil" = EXCLUDED."claimedUntil", "updatedAt" = EXCLUDED."updatedAt"
      WHERE ("ProviderMedia"."claimedUntil" IS NULL OR "ProviderMedia"."claimedUntil" <= ${now})
        AND ("ProviderMedia"."providerMediaId" IS NULL OR "ProviderMedia"."expiresAt" IS NULL
          OR "ProviderMedia"."expiresAt" <= ${now})`;
  return taken > 0;
}

async function upload(pk: Pk, sender: ProviderSender, file: FileFacts): Promise<ProviderMediaOutcome> {
  let outcome: ProviderMediaOutcome;
  try {
    const store = getStorage();
    const key = objectKey(pk.customerId, pk.sha256);
    outcome = (await store.stat(key))
      ? await getProvider().uploadMedia(sender, {
          mimeType: file.mimeType,
          filename: file.filename,
          size: file.fileSize,
          open: async () => {
            const bytes = await store.read(key);
            if (!bytes) throw new Error(`The file of media ${file.id} is gone from the store`);
            return bytes;
          },
        })
      : gone(file.id);
  } catch (error) {
    log.warn({ err: error, mediaId: file.id }, "media upload to the provider failed");
    outcome = {
      ok: false,
      code: 0,
      message: `Media upload failed: ${String(error)}`,
      retryable: false,
      ambiguous: false,
    };
  }
  const now = new Date();
  const where = { customerId_phoneNumberId_sha256: pk };
  await db.providerMedia.update({
    where,
    data: outcome.ok
      ? {
          providerMediaId: outcome.id,
          expiresAt: new Date(now.getTime() + PROVIDER_MEDIA_DAYS * 86_400_000),
          claimedUntil: null,
        }
      : { claimedUntil: null },
  });
  return outcome;
}

function gone(mediaId: string, why = "the file was deleted"): ProviderRefused {
  return {
    ok: false,
    code: 0,
    message: `Media ${mediaId} could not be uploaded: ${why}`,
    retryable: false,
    ambiguous: false,
  };
}
