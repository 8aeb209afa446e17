// The Idempotency-Key a request runs under, as seen by the work it does (docs/idempotency.md
// "A retry after a crash"). A send links the message it records to the key, in the statement
// that stores the message; a retry of a key whose first run stopped after that (its process
// died before the answer was stored) answers from the linked message instead of sending again.
// AsyncLocalStorage carries the key from the router (withIdempotency) down to the send
// pipeline, so that no service between them has to pass it along.
import { AsyncLocalStorage } from "node:async_hooks";
import { Prisma } from "@/lib/generated/prisma/client";

export type KeyRun = {
  /** The IdempotencyKey row. */
  id: string;
  customerId: string;
  /** The message an earlier, abandoned run of the key recorded; null for a fresh key. */
  earlier: string | null;
  /** A failure keeps the key (bound to a message that may have reached the provider). */
  hold: boolean;
  /** The answer came from the earlier message: nothing was sent, a replay. */
  answeredFromEarlier: boolean;
  /** A message is linked already (the first one a request records is the key's). */
  linked: boolean;
};

const running = new AsyncLocalStorage<KeyRun>();

export const runUnderKey = <T>(run: KeyRun, work: () => Promise<T>): Promise<T> => running.run(run, work);

const runOf = (customerId: string) => {
  const run = running.getStore();
  return run?.customerId === customerId ? run : undefined;
};

/**
 * A CTE that links the running key to the message being stored, to follow the other CTEs of
 * the statement that stores it (`, key_link AS (...)`); empty outside an idempotent request and
 * after the request's first message.
 */
export function keyLinkCte(customerId: string, messageId: string): Prisma.Sql {
  const run = runOf(customerId);
  if (!run || run.linked) return Prisma.empty;
  run.linked = true;
  return Prisma.sql`, key_link AS (
      UPDATE "IdempotencyKey" SET "messageId" = ${messageId} WHERE "id" = ${run.id} AND "customerId" = ${customerId}
    )`;
}

export type EarlierMessage = {
  messageId: string;
  /** The request is answered from this message. */
  answered: () => void;
  /** It was refused (nothing reached the contact): this run sends for real, and may release the key. */
  refused: () => void;
};

/** The message the key's earlier run recorded, once per request; undefined for a fresh key. */
export function takeEarlierMessage(customerId: string): EarlierMessage | undefined {
  const run = runOf(customerId);
  if (!run?.earlier) return undefined;
  const messageId = run.earlier;
  run.earlier = null;
  return {
    messageId,
    answered: () => {
      run.answeredFromEarlier = true;
    },
    refused: () => {
      run.hold = false;
    },
  };
}
