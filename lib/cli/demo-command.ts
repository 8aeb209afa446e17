// demo:seed: the idempotent demo account (lib/domains/demo/seed.ts). Newly issued tokens are printed
// once and also kept in <DATA_DIR>/demo-credentials.json.

import { env } from "@/lib/core/env";
import { demoCredentials, formatDemoCredentials, writeDemoCredentials } from "@/lib/domains/demo/credentials";
import { seedDemo } from "@/lib/domains/demo/seed";
import { defineCommand } from "./command";
import { DemoSeedArgs } from "./schemas";

export const demoSeedCommand = defineCommand({
  options: { "billing-records": { type: "string" } },
  schema: DemoSeedArgs,
  run: async ({ billingRecords }) => {
    const result = await seedDemo({ billingRecords });
    const credentials = demoCredentials(result);
    const file =
      result.tokens.global || result.tokens.scoped ? writeDemoCredentials(env().DATA_DIR, credentials) : undefined;
    return {
      json: {
        customerId: result.customerId,
        created: result.created,
        senderIds: result.senderIds,
        tokens: result.tokens,
        dashboard: credentials.dashboard,
        billingRecordsInserted: result.billingRecordsInserted,
      },
      text: formatDemoCredentials(credentials, file),
    };
  },
});
