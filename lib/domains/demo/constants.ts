// The demo account that `demo:seed` creates and the first embedded start prints.
export const DEMO_CUSTOMER_NAME = "Acme Demo";
export const DEMO_EMAIL = "demo@switchboard.test";
export const DEMO_PASSWORD = "switchboard-demo";
