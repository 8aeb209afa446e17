// What a health check answers (docs/deployment.md "Health checks"): the process is up and
// its database answers a query within a few seconds; nothing internal, since the API
// instances answer it on their public port. Every process answers it: the API instances
// at GET /api/health (lib/http/health.ts), the workers on WORKER_HEALTH_PORT.
import { hotRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

export type ProcessRole = "api" | "app" | "worker";

export type Health = {
  status: "ok" | "unavailable";
  role: ProcessRole;
  checks: { database: "ok" | "failed" };
};

const DATABASE_TIMEOUT_MS = 3_000;

export async function checkHealth(role: ProcessRole): Promise<Health> {
  const database = await pingDatabase();
  return {
    status: database === "ok" ? "ok" : "unavailable",
    role,
    checks: { database },
  };
}

async function pingDatabase(): Promise<"ok" | "failed"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"failed">((resolve) => {
    timer = setTimeout(() => resolve("failed"), DATABASE_TIMEOUT_MS);
  });
  const query = hotRows(Prisma.sql`SELECT 1 AS "one"`).then(
    () => "ok" as const,
    () => "failed" as const,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
