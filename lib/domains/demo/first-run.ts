// Seeds the demo account the first time the embedded app starts and prints its login.
import { db } from "@/lib/db";
import { DEMO_CUSTOMER_NAME } from "./constants";
import { demoCredentials, formatDemoCredentials, writeDemoCredentials } from "./credentials";
import { seedDemo } from "./seed";

export async function seedDemoOnFirstRun(dataDir: string, options: { billingRecords?: number } = {}): Promise<void> {
  const existing = await db.customer.findFirst({ where: { name: DEMO_CUSTOMER_NAME }, select: { id: true } });
  if (existing) return;
  const started = Date.now();
  console.log("First start: seeding the demo account (90 days of billing data and support history)...");
  const result = await seedDemo(options);
  const credentials = demoCredentials(result);
  const file = writeDemoCredentials(dataDir, credentials);
  console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  console.log(formatDemoCredentials(credentials, file));
}
