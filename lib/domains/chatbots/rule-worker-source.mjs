// The rule worker from source (tsx, vitest, `next dev` and `next start`): loads
// rule-worker.ts through tsx. The server bundle runs its own compiled copy instead
// (.build/server/chatbot-rule-worker.mjs, scripts/build-server.mjs).
import { register } from "tsx/esm/api";

register();
const { default: decideInWorker } = await import("./rule-worker.ts");

export default decideInWorker;
