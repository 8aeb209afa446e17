// The app's environment in the end-to-end run: what playwright.config.ts starts, and what
// e2e/server-restart.spec.ts starts again after stopping it.
export function appEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    DATA_DIR: dataDir,
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    // The suite signs in many times from one address.
    RATE_LIMIT_GLOBAL: "100000",
    // ... and signs up about a dozen accounts from its one browser (the default allows 10 an hour).
    RATE_LIMIT_SIGNUP_IP: "100",
    // The composer test watches a message reach "read": no random failures or unread ends.
    SIMULATOR_FAILURE_RATE: "0",
    SIMULATOR_READ_RATE: "1",
    // Simulated contacts do not answer on their own: the inbox tests decide who writes.
    SIMULATOR_REPLY_RATE: "0",
    // No random marketing-cap failures (131049): a test that wants them sets sim().options.marketingCapRate.
    SIMULATOR_MARKETING_CAP_RATE: "0",
  };
}
