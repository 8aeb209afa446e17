import { afterAll, inject } from "vitest";
import { resetEnvCache } from "../lib/core/env";
import { disconnectDb } from "../lib/db";
import { settleLowBalanceChecks } from "../lib/domains/billing/low-balance";

process.env.DATABASE_URL = inject("databaseUrl");
// Files a test stores (media, the simulator's) go to this run's temporary folder, never .data/.
process.env.DATA_DIR = inject("dataDir");
// The imports above may have read the environment already (env() keeps its first reading):
// read it again with this run's database and data folder.
resetEnvCache();

afterAll(async () => {
  // Background work a test file's ingest started (the low-balance check after a debit) ends
  // before the pool closes: a transaction begun on a closing pool never finishes.
  await settleLowBalanceChecks();
  await disconnectDb();
});
