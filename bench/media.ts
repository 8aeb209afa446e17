// npm run bench:media (docs/benchmarks.md "Media"): files through the lean server
// (scripts/serve-api.ts) and the worker (scripts/worker.ts: callbacks and the media fetch
// worker) on a fresh PostgreSQL database and the local store, three measurements:
//  (a) GET /media/{mediaId}/content of a 5 MB image, 50 connections, interleaved with a bare
//      node:http server streaming the same file of the same store (bench/media-bare-server.ts):
//      throughput at least 70% of bare;
//  (b) 200 inbound images a second for 10 s as signed provider callbacks, interleaved with as
//      many text-only callbacks: the callbacks' p99 within 20% of the text-only p99, and every
//      file ready (fetched from the simulator, checked, stored) within 30 s of its callback;
//  (c) the RSS of every process (server, worker) while a 100 MB document uploads: growth
//      under 64 MB.
// Each over --rounds (default 3), the spread printed, and the machine's load.
// --smoke: a 200 KB image, 4 connections, 20 callbacks a second for 1 s, a 10 MB document.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import {
  autocannon,
  BENCH_SECRETS,
  benchDatabaseUrl,
  benchPort,
  freshDatabase,
  interleave,
  loadAverages,
  machineLine,
  NO_RATE_LIMITS,
  numSpread,
  pctSpread,
  type Run,
  reportTargets,
  roundsFlag,
  runMain,
  sized,
  sleep,
  smokeCheck,
  spread,
  startTs,
  stopChild,
  toRun,
  waitHttp,
  warmUpSeconds,
  writeSectionUnlessDry,
} from "./harness";

const DB_NAME = "switchboard_bench_media";
const IMAGE_BYTES = sized(4_900_000, 200_000);
const CONNECTIONS = sized(50, 4);
const DURATION = sized(30, 2);
const RATE = sized(200, 20);
const SECONDS = sized(10, 1);
const DOCUMENT_BYTES = sized(100_000_000, 10_000_000);
const READY_WITHIN_MS = 30_000;
const PORT = { api: benchPort(45), bare: benchPort(46) };

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-bench-media-"));
const dbUrl = benchDatabaseUrl(DB_NAME);
const childEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATABASE_URL: dbUrl,
  DATA_DIR: dataDir,
  NODE_ENV: "production",
  LOG_LEVEL: "warn",
  ...NO_RATE_LIMITS,
  ...BENCH_SECRETS,
};
// This process writes the simulator's files (DATA_DIR/simulator-media) the worker downloads.
Object.assign(process.env, childEnv);

/** The child's resident set (VmRSS), bytes; 0 once it is gone. */
function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** A PNG of noise just under `bytes` (uncompressed, so its size is what was asked). */
async function noisePng(bytes: number): Promise<Buffer> {
  const side = Math.floor(Math.sqrt((bytes - 2_000) / 3));
  return sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);

async function main() {
  const loadBefore = loadAverages();
  await freshDatabase(DB_NAME, dbUrl);
  const { db } = await import("@/lib/db");
  const { issueToken } = await import("@/lib/domains/tokens/service");
  const { addSender } = await import("@/lib/domains/senders/admin");
  const customer = await db.customer.create({ data: { name: "Bench media", plan: "pro" } });
  const sender = await addSender({
    customerId: customer.id,
    phoneNumber: "+15550107001",
    phoneNumberId: "107001",
    wabaId: "waba107001",
    displayName: "Bench media",
    isDefault: true,
  });
  const { token } = await issueToken({ customerId: customer.id, name: "bench" });
  const auth = { authorization: `Bearer ${token}` };

  const api = startTs(["scripts/serve-api.ts"], { ...childEnv, PORT: String(PORT.api) });
  const worker = startTs(["scripts/worker.ts"], { ...childEnv });
  const base = `http://127.0.0.1:${PORT.api}`;
  await waitHttp(`${base}/api/health`);

  const targets = [];
  const sections: string[] = [];
  const rounds = roundsFlag();

  // (a) Downloads: the content route against the bare server, the same file of the same store.
  const image = await noisePng(IMAGE_BYTES);
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(image)], { type: "image/png" }), "photo.png");
  const uploaded = await fetch(`${base}/api/v3/media`, { method: "POST", headers: auth, body: form });
  const media = ((await uploaded.json()) as { data: { mediaId: string; sha256: string; fileSize: number } }).data;
  smokeCheck(uploaded.status === 201, `the image upload answered ${uploaded.status}`);
  const { objectKey } = await import("@/lib/domains/media/objects");
  const stored = path.join(dataDir, "media", objectKey(customer.id, media.sha256));
  const bare = startTs(["bench/media-bare-server.ts", stored], {
    ...childEnv,
    PORT: String(PORT.bare),
    BARE_TOKEN: token,
  });
  await waitHttp(`http://127.0.0.1:${PORT.bare}/`);
  const download = (url: string, seconds: number) => async (): Promise<Run> => {
    // 50 bodies of 5 MB at once: on a loaded machine one takes longer than autocannon's default 10 s.
    const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, timeout: 120, headers: auth });
    // Files per second unrounded: a loaded machine serves a few 5 MB files a second.
    return { ...toRun(result), rps: result["2xx"] / result.duration };
  };
  const productUrl = `${base}/api/v3/media/${media.mediaId}/content`;
  const bareUrl = `http://127.0.0.1:${PORT.bare}/`;
  const downloads = await interleave(
    "download",
    rounds,
    {
      name: "content route",
      run: download(productUrl, DURATION),
      warmUp: download(productUrl, warmUpSeconds()),
      pid: api.pid,
    },
    { name: "bare", run: download(bareUrl, DURATION), warmUp: download(bareUrl, warmUpSeconds()), pid: bare.pid },
  );
  await stopChild(bare);
  const perSecond = (runs: Run[]) => spread(runs.map((r) => (r.rps * media.fileSize) / 1_000_000));
  const mbSpread = (runs: Run[]) => {
    const s = perSecond(runs);
    return `${s.median.toFixed(0)} MB/s (${s.min.toFixed(0)}-${s.max.toFixed(0)})`;
  };
  targets.push({
    what: `(a) content of a ${mb(media.fileSize)} MB image, ${CONNECTIONS} connections`,
    goal: ">= 70% of bare",
    measured: `${pctSpread(downloads.ratio)} of bare; ${mbSpread(downloads.a)} vs ${mbSpread(downloads.b)}`,
    met: downloads.ratio.median >= 0.7,
  });

  // (b) Inbound images as signed callbacks, at RATE a second, against as many text callbacks.
  const { signProviderBody } = await import("@/lib/domains/provider/callbacks/signature");
  const { envelopeFor } = await import("@/lib/domains/provider/simulator-callbacks");
  const { inboundMediaChange, inboundTextChange } = await import("@/lib/domains/provider/simulator-inbound");
  const { keepContactMedia } = await import("@/lib/domains/provider/simulator-media");
  const providerSender = { ...sender, phoneNumberId: sender.phoneNumberId ?? "", wabaId: sender.wabaId ?? "" };
  const small = await noisePng(8_000);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const post = (raw: string) =>
    new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const req = http.request(`${base}/api/provider/webhook`, {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "x-hub-signature-256": signProviderBody(raw, BENCH_SECRETS_APP_SECRET),
        },
      });
      req.on("response", (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${res.statusCode}`)),
        );
      });
      req.on("error", reject);
      req.end(raw);
    });
  /** RATE callbacks a second for SECONDS, each one message; resolves with each one's latency. */
  const paced = async (bodies: string[]) => {
    const latencies: Promise<number>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < bodies.length; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      latencies.push(post(bodies[i] ?? ""));
    }
    return Promise.all(latencies);
  };
  const p99 = (values: number[]) => {
    const s = [...values].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.floor(s.length * 0.99))] ?? Number.NaN;
  };
  const count = RATE * SECONDS;
  const ingest: { media: number; text: number; ratio: number; readyMs: number; ready: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const files = await Promise.all(
      Array.from({ length: count }, () => keepContactMedia(Buffer.concat([small, randomBytes(16)]), "image/png")),
    );
    const from = (i: number) => `+1555${String(round * 10_000 + i).padStart(7, "0")}`;
    const mediaBodies = files.map((f, i) =>
      envelopeFor([
        inboundMediaChange(providerSender, {
          from: from(i),
          kind: "image",
          media: { id: f.id, mime_type: "image/png", sha256: f.sha256, caption: "The parcel" },
        }),
      ]),
    );
    const textBodies = files.map((_, i) =>
      envelopeFor([inboundTextChange(providerSender, { from: from(i), text: "Is my order on its way?" })]),
    );
    const sentAt = Date.now();
    const mediaLatency = p99(await paced(mediaBodies));
    const textLatency = p99(await paced(textBodies));
    // Every file ready: its readyAt against the moment its callback was sent (the round's start + i / RATE).
    const ids = files.map((f) => f.id);
    const until = Date.now() + READY_WITHIN_MS * 2;
    let rows: { providerMediaId: string | null; readyAt: Date | null; status: string }[] = [];
    while (Date.now() < until) {
      rows = await db.media.findMany({
        where: { customerId: customer.id, providerMediaId: { in: ids } },
        select: { providerMediaId: true, readyAt: true, status: true },
      });
      if (rows.length === count && rows.every((r) => r.status === "ready")) break;
      await sleep(250);
    }
    const index = new Map(ids.map((id, i) => [id, i]));
    const lags = rows.flatMap((r) =>
      r.readyAt ? [r.readyAt.getTime() - (sentAt + ((index.get(r.providerMediaId ?? "") ?? 0) * 1000) / RATE)] : [],
    );
    const ready = rows.filter((r) => r.status === "ready").length;
    ingest.push({
      media: mediaLatency,
      text: textLatency,
      ratio: mediaLatency / textLatency,
      readyMs: lags.length ? Math.max(...lags) : Number.NaN,
      ready,
    });
    console.log(
      `  ingest round ${round + 1}/${rounds}: image callbacks p99 ${mediaLatency.toFixed(1)} ms, text ${textLatency.toFixed(1)} ms (${Math.round((mediaLatency / textLatency) * 100)}%); ${ready}/${count} files ready, the last ${(Math.max(...lags) / 1000).toFixed(1)} s after its callback`,
    );
    smokeCheck(ready === count, `${count - ready} of ${count} inbound files not ready`);
  }
  const ratio = spread(ingest.map((r) => r.ratio));
  const readyWorst = spread(ingest.map((r) => r.readyMs / 1000));
  targets.push({
    what: `(b) ${RATE} inbound images/s for ${SECONDS} s: callback p99 against text-only callbacks`,
    goal: "<= 120%",
    measured: `${pctSpread(ratio)}; p99 ${numSpread(spread(ingest.map((r) => r.media)))} ms vs ${numSpread(spread(ingest.map((r) => r.text)))} ms`,
    met: ratio.median <= 1.2,
  });
  targets.push({
    what: `(b) every file ready after its callback (${count} a round)`,
    goal: "<= 30 s",
    measured: `the slowest ${readyWorst.median.toFixed(1)} s (${readyWorst.min.toFixed(1)}-${readyWorst.max.toFixed(1)}); ${ingest.map((r) => r.ready).join(", ")} ready`,
    met: ingest.every((r) => r.ready === count && r.readyMs <= READY_WITHIN_MS),
  });

  // (c) A 100 MB document streams in: the RSS of the server and the worker, sampled as it goes.
  const growth: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const head = Buffer.from(
      `%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% round ${round} ${randomBytes(8).toString("hex")}\n`,
    );
    const pids = [api.pid ?? 0, worker.pid ?? 0];
    const baseline = pids.map(rssOf);
    const peak = [...baseline];
    const sampler = setInterval(() => {
      pids.forEach((pid, i) => {
        peak[i] = Math.max(peak[i] ?? 0, rssOf(pid));
      });
    }, 25);
    const status = await uploadStreamed(`${base}/api/v3/media`, token, head, DOCUMENT_BYTES);
    clearInterval(sampler);
    const grew = Math.max(...peak.map((p, i) => p - (baseline[i] ?? 0)));
    growth.push(grew / 1_000_000);
    console.log(
      `  upload round ${round + 1}/${rounds}: ${mb(DOCUMENT_BYTES)} MB answered ${status}; RSS growth server ${mb((peak[0] ?? 0) - (baseline[0] ?? 0))} MB, worker ${mb((peak[1] ?? 0) - (baseline[1] ?? 0))} MB`,
    );
    smokeCheck(status === 201, `the document upload answered ${status}`);
  }
  const grown = spread(growth);
  targets.push({
    what: `(c) RSS growth of each process while a ${mb(DOCUMENT_BYTES)} MB document uploads`,
    goal: "< 64 MB",
    measured: `${grown.median.toFixed(1)} MB (${grown.min.toFixed(1)}-${grown.max.toFixed(1)})`,
    met: grown.max < 64,
  });

  await stopChild(api);
  await stopChild(worker);
  await db.$disconnect();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const lines = reportTargets(targets);
  sections.push(`## Media (\`npm run bench:media\`)

${machineLine(loadBefore)}; ${rounds} interleaved rounds.

The lean server (\`scripts/serve-api.ts\`) and the worker (\`scripts/worker.ts\`: the callback processor and the media
fetch worker) on a fresh PostgreSQL database and the local store, the simulator as the provider. (a) \`GET
/api/v3/media/{mediaId}/content\` of one ${mb(media.fileSize)} MB PNG with ${CONNECTIONS} connections for ${DURATION} s
(autocannon), interleaved with \`bench/media-bare-server.ts\`, a node:http server written for the bench that
streams the same file of the same store after a string compare of the token. (b) ${RATE} signed callbacks a
second for ${SECONDS} s, one inbound image each (a file the simulator serves), interleaved with as many text
callbacks; the p99 is the callback's HTTP answer, a file's lag its \`readyAt\` after its callback was sent.
(c) one ${mb(DOCUMENT_BYTES)} MB PDF streamed as multipart to \`POST /api/v3/media\`, the RSS of the server and
the worker sampled every 25 ms against their RSS before.

Targets:

${lines.join("\n")}
`);
  writeSectionUnlessDry("## Media (`npm run bench:media`)", sections.join("\n"));
}

const BENCH_SECRETS_APP_SECRET = BENCH_SECRETS.PROVIDER_APP_SECRET;

/** POSTs a multipart form whose file is `head` then spaces to `size` bytes, written as the server takes it. */
function uploadStreamed(url: string, token: string, head: Buffer, size: number): Promise<number> {
  const boundary = `bench${randomBytes(8).toString("hex")}`;
  const before = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="manual.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const after = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(before.length + size + after.length),
      },
    });
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.write(before);
    req.write(head);
    let left = size - head.length;
    const pump = () => {
      while (left > 0) {
        const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= part.length;
        if (!req.write(part)) return void req.once("drain", pump);
      }
      req.end(after);
    };
    pump();
  });
}

await runMain(main);
