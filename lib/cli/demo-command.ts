// demo:seed: the idempotent demo account (lib/demo/seed.ts). Newly issued tokens are printed
// once and also kept in <DATA_DIR>/demo-credentials.json.
import { demoCredentials, formatDemoCredentials, writeDemoCredentials } from "@/lib/demo/credentials";
import { seedDemo } from "@/lib/demo/seed";
import { env } from "@/lib/env";
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
