// A page with live data survives a server restart. A broadcast's page is
// open while the app (the supervisor of `npm start`, with Next and the front server) is
// stopped and started again on the same data folder: the page keeps its document through
// the outage (its fallback poll does not re-render against a server that is down), its live
// stream comes back by itself, and a change made after the return shows without a reload.
// Runs after every other test (its own project in playwright.config.ts): it replaces the
// app Playwright started, and stops its replacement at the end.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { appEnv } from "./app-env";
import { login } from "./helpers";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? "";
let replacement: ChildProcess | undefined;

/** This run's app processes: started by `node scripts/run.mjs supervisor` on this data folder. */
function appPids(): number[] {
  const pids: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
      const environ = fs.readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (cmdline.some((a) => a.endsWith("scripts/run.mjs")) && cmdline.includes("supervisor")) {
        if (environ.includes(`DATA_DIR=${dataDir}`) && environ.includes(`PORT=${port}`)) pids.push(Number(name));
      }
    } catch {
      // A process that ended meanwhile, or not ours to read.
    }
  }
  return pids;
}

const answers = async () => {
  try {
    return (await fetch(`http://localhost:${port}/login`, { signal: AbortSignal.timeout(2_000) })).ok;
  } catch {
    return false;
  }
};

test.afterAll(async () => {
  if (!replacement || replacement.exitCode !== null) return;
  const exited = new Promise((resolve) => replacement?.once("exit", resolve));
  replacement.kill("SIGTERM");
  await exited;
});

test("a broadcast's page open across a server restart keeps working and follows a change made after it", async ({
  page,
}) => {
  test.setTimeout(180_000);
  expect(dataDir, "E2E_DATA_DIR is set by playwright.config.ts").not.toBe("");
  await login(page);
  await page.goto("/broadcasts");
  await page.getByRole("link", { name: "VIP early access" }).first().click();
  await expect(page.getByTestId("broadcast-status")).toHaveText("SCHEDULED");
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on");

  // The document the person is looking at: marked, so that a navigation away (to the browser's
  // error page, which Chrome later reloads by itself) cannot pass for the same page.
  await page.evaluate(() => Object.assign(window, { keptAcrossRestart: true }));

  // Stop the app; the page loses its stream and falls back to its poll (a scheduled broadcast can still move).
  const pids = appPids();
  expect(pids.length, "the app's supervisor process").toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, "SIGTERM");
  await expect.poll(answers, { timeout: 30_000 }).toBe(false);
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "off", { timeout: 30_000 });
  // At least one tick of the fallback poll happens while the server is down (the stream's
  // own reconnections are not counted): before the fix, its re-render lost the document.
  await page.waitForEvent("requestfailed", {
    predicate: (request) => !request.url().includes("/api/dashboard/live"),
    timeout: 30_000,
  });

  // Start it again on the same data folder and port.
  replacement = spawn("node", ["scripts/run.mjs", "supervisor"], {
    env: { ...process.env, ...appEnv(port, dataDir) },
    stdio: "ignore",
  });
  await expect.poll(answers, { timeout: 120_000, intervals: [250] }).toBe(true);

  // The same document, live again by itself (the backoff waits at most 10 s between tries).
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on", { timeout: 30_000 });
  await expect(page.getByTestId("broadcast-status")).toHaveText("SCHEDULED");
  expect(await page.evaluate(() => "keptAcrossRestart" in window), "the page never left its document").toBe(true);

  // A change after the return shows without a reload: cancel from the page itself.
  await page.getByRole("button", { name: "Cancel broadcast" }).click();
  await page
    .getByRole("dialog", { name: "Cancel this broadcast?" })
    .getByRole("button", { name: "Cancel broadcast" })
    .click();
  await expect(page.getByTestId("broadcast-status")).toHaveText("CANCELLED");
});
