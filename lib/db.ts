// The only module that creates the Prisma client. One adapter (adapter-pg) for both
// modes: a PostgreSQL server, or embedded PGlite served on a loopback socket.
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { resolveDatabaseUrl } from "./db/url";

export type Db = PrismaClient;
export type Tx = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

type Holder = { client?: PrismaClient; url?: string; ready?: Promise<PrismaClient> };
// Next.js may evaluate this module more than once; keep one client per process.
const g = globalThis as { __switchboardDb?: Holder };
g.__switchboardDb ??= {};
const holder: Holder = g.__switchboardDb;

export function createClient(url: string, max = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max }) });
}

/** Connects on first use (resolving the embedded server when DATABASE_URL is unset). */
export function getDb(): Promise<PrismaClient> {
  holder.ready ??= resolveDatabaseUrl().then(({ url }) => {
    holder.url = url;
    holder.client = createClient(url);
    return holder.client;
  });
  return holder.ready;
}

/** The connected client; after `await getDb()` once, synchronous use is fine. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    if (!holder.client) {
      // With DATABASE_URL (a server, or the embedded socket the app's supervisor hands
      // to Next and to tests) no look-up is needed; otherwise await getDb() first.
      const url = env().DATABASE_URL;
      if (!url) throw new Error("Database not connected yet: await getDb() during start-up");
      holder.url = url;
      holder.client = createClient(url);
      holder.ready = Promise.resolve(holder.client);
    }
    return Reflect.get(holder.client, prop, holder.client);
  },
});

export async function disconnectDb(): Promise<void> {
  await holder.client?.$disconnect();
  holder.client = undefined;
  holder.ready = undefined;
}
