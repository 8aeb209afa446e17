import { afterAll, inject } from "vitest";
import { disconnectDb } from "../lib/db";

process.env.DATABASE_URL = inject("databaseUrl");

afterAll(async () => {
  await disconnectDb();
});
