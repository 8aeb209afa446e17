// A pass of the job worker (docs/automation.md "Time triggers"): it claims a batch, handles the
// jobs one after another and records their outcomes together. A job that fails midway is
// retried alone: the others of its pass are recorded once, neither lost nor run again.
import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { onNotification } from "@/lib/db/wakeups";
import { type ClaimedJob, type JobOutcome, jobWorker, runDueJobs, scheduleJobs, wakesFor } from "./jobs";

const kindOf = () => `test.batch.${newId("")}`;

async function schedule(kind: string, n: number, dueAt = new Date(Date.now() - 1_000)) {
  const customerId = newId("cust_");
  await scheduleJobs(
    db,
    Array.from({ length: n }, (_, i) => ({
      customerId,
      kind,
      key: `${kind}:${i}`,
      dueAt: new Date(dueAt.getTime() + i),
      payload: { i },
    })),
  );
  return customerId;
}

const rows = (kind: string) =>
  db.scheduledJob.findMany({
    where: { kind },
    orderBy: { key: "asc" },
    select: { key: true, status: true, attempts: true, lastError: true, dueAt: true, lockedUntil: true },
  });

describe("a pass of the job worker", () => {
  it("a job that throws midway is retried alone; the others of its batch are recorded once", async () => {
    const kind = kindOf();
    await schedule(kind, 5);
    const calls: number[] = [];
    let pass: Map<string, unknown> | undefined;
    const handle = async (job: ClaimedJob, p: Map<string, unknown>): Promise<JobOutcome> => {
      const i = (job.payload as { i: number }).i;
      calls.push(i);
      // One map for every job of the pass.
      pass ??= p;
      expect(p).toBe(pass);
      if (i === 2 && job.attempts === 1) throw new Error("a rule failed midway");
      return i === 4 ? { status: "CANCELLED" } : { status: "DONE" };
    };
    // The retry's backoff is full jitter over 1 s (lib/core/backoff.ts): drawn near its top here,
    // so that "waits its backoff" below is not a draw of a few milliseconds already past.
    const random = vi.spyOn(Math, "random").mockReturnValue(0.99);
    try {
      expect(await runDueJobs({ name: "test", kinds: [kind], handle, batchSize: 10 })).toBe(5);
    } finally {
      random.mockRestore();
    }
    expect(calls).toEqual([0, 1, 2, 3, 4]);
    const after = await rows(kind);
    expect(after.map((r) => r.status)).toEqual(["DONE", "DONE", "PENDING", "DONE", "CANCELLED"]);
    expect(after.every((r) => r.lockedUntil === null)).toBe(true);
    expect(after[2]).toMatchObject({ attempts: 1, lastError: "internal error" });
    expect(after[2]?.dueAt.getTime()).toBeGreaterThan(Date.now());

    // The next pass finds nothing due: the failed job waits its backoff, the others are finished.
    expect(await runDueJobs({ name: "test", kinds: [kind], handle })).toBe(0);
    // Its backoff over, only the failed job runs again, once.
    await db.scheduledJob.updateMany({
      where: { kind, status: "PENDING" },
      data: { dueAt: new Date(Date.now() - 1_000) },
    });
    pass = undefined;
    expect(await runDueJobs({ name: "test", kinds: [kind], handle })).toBe(1);
    expect(calls).toEqual([0, 1, 2, 3, 4, 2]);
    expect((await rows(kind)).map((r) => r.status)).toEqual(["DONE", "DONE", "DONE", "DONE", "CANCELLED"]);
  });

  it("an outcome whose lease was lost meanwhile is not written over the new holder's claim", async () => {
    const kind = kindOf();
    await schedule(kind, 3);
    const handle = async (job: ClaimedJob): Promise<JobOutcome> => {
      // While this pass runs, another worker took job 1 over (its lease ended and it claimed it again).
      // Its lease is two minutes, never this pass's 60 s: a lease is told apart by its time, and a
      // take-over within the same millisecond as the claim once wrote the same one (a flake in CI).
      if ((job.payload as { i: number }).i === 1) {
        await db.scheduledJob.update({
          where: { key: `${kind}:1` },
          data: { lockedUntil: new Date(Date.now() + 120_000) },
        });
      }
      return { status: "DONE" };
    };
    expect(await runDueJobs({ name: "test", kinds: [kind], handle })).toBe(3);
    const after = await rows(kind);
    expect(after.map((r) => r.status)).toEqual(["DONE", "PENDING", "DONE"]);
    expect(after[1]?.lockedUntil).not.toBeNull();
  });

  it("a long pass records what it finished as it goes (a crash later in the pass loses none of it)", async () => {
    const kind = kindOf();
    await schedule(kind, 3);
    const seen: string[][] = [];
    const handle = async (job: ClaimedJob): Promise<JobOutcome> => {
      const i = (job.payload as { i: number }).i;
      seen.push((await rows(kind)).map((r) => r.status));
      // The first job takes over a second: its outcome is written before the next one starts.
      if (i === 0) await new Promise((resolve) => setTimeout(resolve, 1_050));
      return { status: "DONE" };
    };
    expect(await runDueJobs({ name: "test", kinds: [kind], handle })).toBe(3);
    expect(seen).toEqual([
      ["PENDING", "PENDING", "PENDING"],
      ["DONE", "PENDING", "PENDING"],
      ["DONE", "PENDING", "PENDING"],
    ]);
    expect((await rows(kind)).map((r) => r.status)).toEqual(["DONE", "DONE", "DONE"]);
  });

  it("waits on yieldTo before its claim and before each later job (the automation worker lets the callback processor go first)", async () => {
    const kind = kindOf();
    await schedule(kind, 3);
    const order: string[] = [];
    const yieldTo = async () => {
      order.push("yield");
      return true;
    };
    const handle = async (job: ClaimedJob): Promise<JobOutcome> => {
      order.push(`job ${(job.payload as { i: number }).i}`);
      return { status: "DONE" };
    };
    expect(await runDueJobs({ name: "test", kinds: [kind], handle, yieldTo })).toBe(3);
    expect(order).toEqual(["yield", "job 0", "yield", "job 1", "yield", "job 2"]);
  });

  it("a wait that runs out, the other work still busy, claims one job: and ends a pass, its other jobs handed back unhandled and not counted as an attempt", async () => {
    const kind = kindOf();
    await schedule(kind, 3);
    const order: string[] = [];
    // The claim's wait ends with the other work done; the one before the second job runs out.
    const answers = [true, false];
    const yieldTo = async () => {
      order.push("yield");
      return answers.shift() ?? false;
    };
    const handle = async (job: ClaimedJob): Promise<JobOutcome> => {
      order.push(`job ${(job.payload as { i: number }).i}`);
      return { status: "DONE" };
    };
    expect(await runDueJobs({ name: "test", kinds: [kind], handle, yieldTo })).toBe(1);
    expect(order).toEqual(["yield", "job 0", "yield"]);
    const after = await rows(kind);
    expect(after.map((r) => r.status)).toEqual(["DONE", "PENDING", "PENDING"]);
    // Handed back: claimable at once, the claim not counted.
    expect(after.slice(1).map((r) => [r.lockedUntil, r.attempts])).toEqual([
      [null, 0],
      [null, 0],
    ]);
    // Still busy before the next claim: it takes one job, and the pass ends with it.
    order.length = 0;
    expect(await runDueJobs({ name: "test", kinds: [kind], handle, yieldTo })).toBe(1);
    expect(order).toEqual(["yield", "job 1"]);
    expect((await rows(kind)).map((r) => r.status)).toEqual(["DONE", "DONE", "PENDING"]);
  });

  it("a quarter of the claim's lease spent waiting ends the pass: the rest go back for the next claim, none runs in a burst", async () => {
    const kind = kindOf();
    await schedule(kind, 4);
    const order: string[] = [];
    // Each wait takes 150 ms of a 1,000 ms lease and ends with the other work done: the pass
    // stops once 250 ms have passed since the claim.
    const yieldTo = async () => {
      order.push("yield");
      await new Promise((resolve) => setTimeout(resolve, 150));
      return true;
    };
    const handle = async (job: ClaimedJob): Promise<JobOutcome> => {
      order.push(`job ${(job.payload as { i: number }).i}`);
      return { status: "DONE" };
    };
    const handled = await runDueJobs({ name: "test", kinds: [kind], handle, yieldTo, leaseMs: 1_000 });
    expect(handled).toBeGreaterThanOrEqual(1);
    expect(handled).toBeLessThan(4);
    expect(order.slice(0, 3)).toEqual(["yield", "job 0", "yield"]);
    const after = await rows(kind);
    expect(after.filter((r) => r.status === "DONE")).toHaveLength(handled);
    expect(after.filter((r) => r.status === "PENDING").every((r) => r.lockedUntil === null && r.attempts === 0)).toBe(
      true,
    );
    // The next passes take the rest.
    while ((await runDueJobs({ name: "test", kinds: [kind], handle, yieldTo, leaseMs: 1_000 })) > 0);
    expect((await rows(kind)).map((r) => r.status)).toEqual(["DONE", "DONE", "DONE", "DONE"]);
  });
});

describe("wake-ups by kind", () => {
  it("a notification wakes the workers of the kinds it names; an empty one wakes every worker", () => {
    const automation = wakesFor(["automation.event", "automation.time"]);
    expect(automation("automation.event")).toBe(true);
    expect(automation("csat.ask,automation.time")).toBe(true);
    expect(automation("csat.ask,sla.breach")).toBe(false);
    expect(automation("automation")).toBe(false);
    expect(automation("")).toBe(true);
  });

  it("a job written due now wakes its own kind's workers only, and one written for later wakes none", async () => {
    const [mine, other, later] = [kindOf(), kindOf(), kindOf()];
    const heard: string[] = [];
    let wakes = 0;
    const stopHearing = onNotification("jobs", (payload) => {
      if (payload !== undefined) heard.push(payload);
    });
    // The wake source of a job worker of one kind, as the worker loop subscribes it.
    const worker = jobWorker({ name: "test", kinds: [mine], handle: async () => ({ status: "DONE" }) });
    const stopWaking = worker.wakeOn?.[0]?.(() => {
      wakes += 1;
    });
    try {
      // The start-up call (anything written before the listening began).
      await vi.waitFor(() => expect(wakes).toBeGreaterThanOrEqual(1), { timeout: 10_000 });
      wakes = 0;
      await schedule(other, 2);
      await schedule(later, 1, new Date(Date.now() + 3_600_000));
      const customerId = newId("cust_");
      const now = new Date();
      await scheduleJobs(db, [
        { customerId, kind: other, key: `${other}:both`, dueAt: now, payload: {} },
        { customerId, kind: mine, key: `${mine}:both`, dueAt: now, payload: {} },
      ]);
      // Notifications come in commit order on one connection: the others were heard before.
      await vi.waitFor(() => expect(heard.some((p) => p.includes(mine))).toBe(true), { timeout: 10_000 });
      expect(heard.filter((p) => p.includes(other))).toEqual([other, [mine, other].sort().join(",")]);
      expect(heard.some((p) => p.includes(later))).toBe(false);
      // Plus any empty notification another test file sent meanwhile (it wakes every job worker).
      expect(wakes).toBe(1 + heard.filter((p) => p === "").length);
    } finally {
      stopWaking?.();
      stopHearing();
    }
  });
});
