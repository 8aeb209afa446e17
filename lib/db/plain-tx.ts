// A transaction that answers Prisma's raw calls ($queryRaw, $executeRaw and their Unsafe
// forms) with plain pg statements on one pooled connection (hotTransaction): the automation
// runner's, where Prisma's per-statement CPU was most of a rule's run (docs/benchmarks.md
// "Automation rules"). Code written for a Prisma `Tx` runs on it unchanged as long as it only
// makes raw calls; the first model call (`tx.user.findFirst`) throws NeedsPrisma, the caller
// rolls the transaction back and runs the same work in a Prisma transaction instead.
import { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "./index";
import { type HotStatement, hotStatement, hotTransaction } from "./pool";

/** The work made a call a plain transaction does not answer (a model method): run it on Prisma. */
export class NeedsPrisma extends Error {
  constructor(readonly call: string) {
    super(`a plain transaction has no ${call}: the work runs in a Prisma transaction`);
  }
}

type RawArgs = [Prisma.Sql | TemplateStringsArray, ...unknown[]];

/** The statement's text ($1, $2...) and values, from a Prisma.sql value or a tagged template. */
function statementOf([first, ...rest]: RawArgs): { text: string; values: unknown[] } {
  const sql = first instanceof Prisma.Sql ? first : Prisma.sql(first as TemplateStringsArray, ...rest);
  return { text: sql.text, values: sql.values };
}

const plainOnes = new WeakSet<object>();

/**
 * Throws NeedsPrisma in a plain transaction, before work that needs the ORM has begun (so the
 * plain attempt is given up early rather than at its first model call); in a Prisma one it does nothing.
 */
export function requirePrisma(tx: Tx, what: string): void {
  if (plainOnes.has(tx)) throw new NeedsPrisma(what);
}

function plainTx(statement: HotStatement): Tx {
  const raw = {
    $queryRaw: async (...args: RawArgs) => {
      const { text, values } = statementOf(args);
      return (await statement(text, values)).rows;
    },
    $executeRaw: async (...args: RawArgs) => {
      const { text, values } = statementOf(args);
      return (await statement(text, values)).rowCount;
    },
    $queryRawUnsafe: async (text: string, ...values: unknown[]) => (await statement(text, values)).rows,
    $executeRawUnsafe: async (text: string, ...values: unknown[]) => (await statement(text, values)).rowCount,
  };
  const tx = new Proxy(raw, {
    get(target, prop) {
      if (prop in target) return target[prop as keyof typeof raw];
      // Not a thenable (an awaited value is looked at for `then`).
      if (prop === "then" || typeof prop === "symbol") return undefined;
      throw new NeedsPrisma(String(prop));
    },
  }) as unknown as Tx;
  plainOnes.add(tx);
  return tx;
}

/**
 * Raw calls answered on the pool, each statement its own (autocommit), as hotRows: for code
 * written for a Prisma `Tx` that a hot path runs outside any transaction (a broadcast batch's
 * statements, docs/broadcasts.md "How it sends"). A model call throws NeedsPrisma.
 */
export const plainDb: Tx = plainTx(hotStatement);

/** Runs `work` in a plain transaction (hotTransaction) whose raw calls are plain pg statements; a model call throws NeedsPrisma. */
export function plainTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return hotTransaction((statement) => work(plainTx(statement)));
}

/**
 * Runs `work` in a plain transaction; when it needs Prisma (NeedsPrisma), rolls that back and
 * runs it again in `prisma` (a Prisma transaction). `work` must therefore keep its effects in
 * the transaction until it resolves: what it does outside (a signal, a log line) waits.
 */
export async function plainOrPrismaTransaction<T>(
  work: (tx: Tx) => Promise<T>,
  prisma: (work: (tx: Tx) => Promise<T>) => Promise<T>,
): Promise<T> {
  try {
    return await plainTransaction(work);
  } catch (error) {
    if (!(error instanceof NeedsPrisma)) throw error;
    return prisma(work);
  }
}
