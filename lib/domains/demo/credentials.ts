// Prints the demo login and tokens, and keeps them in <dataDir>/demo-credentials.json
// (mode 0600, git-ignored with .data/) because token values cannot be shown again.
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/core/env";
import type { SeedDemoResult } from "./seed";

/** Where the dashboard is served (the supervisor sets NEXTAUTH_URL from PORT). */
const dashboardUrl = () => env().NEXTAUTH_URL ?? "http://localhost:3000";

export type DemoCredentials = {
  dashboard: { url: string; email: string; password: string };
  tokens: SeedDemoResult["tokens"];
  customerId: string;
  createdAt: string;
};

export function demoCredentials(result: SeedDemoResult): DemoCredentials {
  return {
    dashboard: { url: dashboardUrl(), email: result.user.email, password: result.user.password },
    tokens: result.tokens,
    customerId: result.customerId,
    createdAt: new Date().toISOString(),
  };
}

export function writeDemoCredentials(dataDir: string, credentials: DemoCredentials): string {
  const file = path.join(dataDir, "demo-credentials.json");
  fs.mkdirSync(dataDir, { recursive: true });
  // A token issued earlier stays listed when only the other one is new.
  if (fs.existsSync(file)) {
    try {
      const previous = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<DemoCredentials>;
      if (previous.customerId === credentials.customerId) {
        credentials = { ...credentials, tokens: { ...previous.tokens, ...credentials.tokens } };
      }
    } catch {
      // An unreadable file is replaced.
    }
  }
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

export function formatDemoCredentials(credentials: DemoCredentials, file?: string): string {
  const { dashboard, tokens } = credentials;
  const lines = [
    "Demo account ready.",
    `  Dashboard: ${dashboard.url}`,
    `  Email:     ${dashboard.email}`,
    `  Password:  ${dashboard.password}`,
  ];
  if (tokens.global || tokens.scoped) {
    lines.push("  API tokens (shown once):");
    if (tokens.global) lines.push(`    global:        ${tokens.global.token}`);
    if (tokens.scoped) lines.push(`    number-scoped: ${tokens.scoped.token}  (${tokens.scoped.senderPhoneNumber})`);
  } else {
    lines.push("  API tokens: already issued earlier (create more with `npm run -s cli -- token:create`).");
  }
  if (file) lines.push(`  Saved to ${file}`);
  return lines.join("\n");
}
