// npm run db:migrate: apply pending migrations to DATABASE_URL (or the embedded database).

import { migrate } from "@/lib/db/migrate";
import { closeOwnedEmbedded, resolveDatabaseUrl } from "@/lib/db/url";

const { url, embedded } = await resolveDatabaseUrl();
const applied = await migrate(url);
console.log(
  applied.length
    ? `Applied ${applied.length} migration(s) to the ${embedded ? "embedded" : "server"} database: ${applied.join(", ")}`
    : "Database is up to date.",
);
await closeOwnedEmbedded();
