// Claimed jobs handled side by side (lib/domains/schedule/jobs.ts `concurrency`): the jobs
// of one subject (a conversation) run one after another in the order claimed, never two at
// once; jobs of other subjects run beside them. Shown with a handler that records when each
// job starts and ends.
import { randomBytes } from "node:crypto";
import { expect, it } from "vitest";
import { db } from "@/lib/db";
import { type ClaimedJob, runDueJobs, scheduleJobs } from "./jobs";

it("concurrency: a subject's jobs in order and one at a time, other subjects beside them", async () => {
  const kind = `test.side-by-side.${randomBytes(4).toString("hex")}`;
  const subjects = ["a", "b", "c", "d"];
  const due = Date.now() - 60_000;
  // Four subjects, three jobs each, due one millisecond apart in the order a1, b1, c1, d1, a2, ...
  const jobs = [1, 2, 3].flatMap((n) =>
    subjects.map((s, i) => ({
      customerId: "test-side-by-side",
      kind,
      key: `${kind}:${s}${n}`,
      subjectId: `${kind}:${s}`,
      dueAt: new Date(due + (n - 1) * subjects.length + i),
      payload: { name: `${s}${n}` },
    })),
  );
  await scheduleJobs(db, jobs);
  const log: string[] = [];
  let running = 0;
  let most = 0;
  const handle = async (job: ClaimedJob) => {
    const name = String(job.payload.name);
    running += 1;
    most = Math.max(most, running);
    log.push(`start ${name}`);
    await new Promise((r) => setTimeout(r, 20));
    log.push(`end ${name}`);
    running -= 1;
    return { status: "DONE" as const };
  };
  expect(await runDueJobs({ name: "test", kinds: [kind], handle, concurrency: 4 })).toBe(12);
  // Other subjects ran beside each other.
  expect(most).toBeGreaterThan(1);
  for (const s of subjects) {
    const mine = log.filter((l) => l.endsWith(` ${s}1`) || l.endsWith(` ${s}2`) || l.endsWith(` ${s}3`));
    expect(mine).toEqual([`start ${s}1`, `end ${s}1`, `start ${s}2`, `end ${s}2`, `start ${s}3`, `end ${s}3`]);
  }
  const left = await db.scheduledJob.count({ where: { kind, status: { not: "DONE" } } });
  expect(left).toBe(0);
});
