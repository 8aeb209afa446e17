// Concurrent parameterised queries on several connections to the embedded server must not
// clobber each other's unnamed statements (see pglite-queue.ts).
import { expect, it } from "vitest";
import { createClient } from "../db";
import { startEmbedded } from "./embedded";

it("keeps concurrent parameterised queries from different connections apart", async () => {
  const server = await startEmbedded(undefined, { maxConnections: 16 });
  const client = createClient(server.url, 8);
  try {
    // A transaction that begins while another connection is between Parse and Sync used to
    // replace that connection's unnamed statement.
    const plain = (i: number) =>
      client.$queryRawUnsafe<{ v: number }[]>("SELECT $1::int + $2::int AS v", i, 1).then((r) => r[0]?.v === i + 1);
    const inTx = (i: number) =>
      client.$transaction(
        async (tx) => {
          const a = await tx.$queryRawUnsafe<{ v: number }[]>("SELECT $1::int * 2 AS v", i);
          const b = await tx.$queryRawUnsafe<{ v: number }[]>("SELECT $1::int * 3 AS v", i);
          return a[0]?.v === i * 2 && b[0]?.v === i * 3;
          // The embedded server runs one transaction at a time: 100 of them queue behind each
          // other, longer than Prisma's default 2 s wait on a busy machine.
        },
        { maxWait: 60_000, timeout: 60_000 },
      );
    const jobs = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? inTx(i) : plain(i)));
    const results = await Promise.allSettled(jobs);
    const wrong = results.filter((r) => r.status === "rejected" || !r.value);
    expect(wrong).toHaveLength(0);
  } finally {
    await client.$disconnect();
    await server.close();
  }
});
