// The import boundaries of docs/architecture.md, checked by dependency-cruiser
// (`npm run lint:imports`, part of `npm run lint` and of the lint step of `npm test`).
// Paths are matched against files relative to the folder the check runs in.
// Tests (*.test.ts) wire the layers together on purpose (a domain's integration test goes
// through the real router), so the layer rules do not apply to them; cycles do.

/** The layers above the domains: the HTTP router, the node:http servers, the dashboard adapters, the CLI, Next. */
const ABOVE_DOMAINS = "^(lib/(api|dashboard|http|cli)/|app/|components/)";
/** Next, next-auth and React: the dashboard's framework. */
const NEXT = "^node_modules/(next|next-auth|react|react-dom)/";
const TESTS = "\\.test\\.tsx?$";
const DB = "^(lib/db/|lib/generated/prisma/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycles (a dynamic import() counts too).",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-imports-nothing-above",
      severity: "error",
      comment: "lib/core knows no HTTP, Next, UI, database or domain: it imports only lib/core and packages.",
      from: { path: "^lib/core/", pathNot: TESTS },
      to: { path: "^(lib/(?!core/)|app/|components/|test/|node_modules/(next|react|next-auth|@prisma)/)" },
    },
    {
      name: "db-imports-only-core",
      severity: "error",
      comment: "lib/db (the data layer) stands on lib/core alone: it imports no domain and nothing above.",
      from: { path: "^lib/db/", pathNot: TESTS },
      to: { path: "^(lib/(?!core/|db/|generated/)|app/|components/|test/)" },
    },
    {
      name: "storage-imports-only-core",
      severity: "error",
      comment:
        "lib/storage (files: the local folder or S3) sits below the domains beside lib/db: it imports only lib/core and packages.",
      from: { path: "^lib/storage/", pathNot: TESTS },
      to: { path: "^(lib/(?!core/|storage/)|app/|components/|test/)" },
    },
    {
      name: "domain-not-above",
      severity: "error",
      comment:
        "A domain (and what it stands on: lib/core, lib/db, lib/core/env, lib/core/log, lib/core/crypto) never imports lib/api, lib/dashboard, lib/http, lib/cli, app/, components/, next/*, next-auth or React.",
      from: { path: "^lib/", pathNot: `^lib/(api|dashboard|http|cli|generated)/|${TESTS}` },
      to: { path: [ABOVE_DOMAINS, NEXT] },
    },
    {
      name: "send-steps-below-messaging",
      severity: "error",
      comment:
        'The send pipeline flows one way (docs/messaging.md "The send pipeline"): lib/domains/messaging runs it, and the domains that contribute its steps (media, templates, contacts, conversations, billing, events, provider, senders) and idempotency never import messaging.',
      from: {
        path: "^lib/domains/(media|templates|contacts|conversations|billing|events|provider|senders|idempotency)/",
        pathNot: TESTS,
      },
      to: { path: "^lib/domains/messaging/" },
    },
    {
      name: "ingest-only-from-runners",
      severity: "error",
      comment:
        'lib/ingest (provider callbacks -> the domains, docs/architecture.md "Ingest") is run, never called: only the background runner (lib/background.ts) and the CLI import it (tests and benchmarks too); a domain, an adapter or a page never does.',
      from: {
        path: "^(lib/|app/|components/|scripts/|e2e/|proxy\\.ts$)",
        pathNot: `^lib/(ingest|cli)/|^lib/background\\.ts$|${TESTS}`,
      },
      to: { path: "^lib/ingest/" },
    },
    {
      name: "adapters-not-app",
      severity: "error",
      comment: "lib/api, lib/http, lib/dashboard and lib/cli never import app/ or components/ (the UI sits on top).",
      from: { path: "^lib/(api|dashboard|http|cli)/", pathNot: TESTS },
      to: { path: "^(app|components)/" },
    },
    {
      name: "api-not-http",
      severity: "error",
      comment:
        "lib/api (the framework-agnostic router) never imports lib/http (the node:http servers that mount it); what both need lives in lib/core.",
      from: { path: "^lib/api/", pathNot: TESTS },
      to: { path: "^lib/http/" },
    },
    {
      name: "cli-not-servers",
      severity: "error",
      comment:
        "lib/cli is an entry point beside the servers: it calls services, never the router or the dashboard adapters.",
      from: { path: "^lib/cli/", pathNot: TESTS },
      to: { path: ["^lib/(api|dashboard|http)/", NEXT] },
    },
    {
      name: "routes-and-pages-hold-no-queries",
      severity: "error",
      comment:
        "Route files (app/**/route.ts, lib/api/routes/**), pages (app/**/page.tsx), server actions, components and the adapters (lib/api, lib/dashboard, lib/http) call services: no lib/db (Prisma, hotRows) and no generated Prisma client.",
      from: { path: "^(lib/(api|dashboard|http)/|app/|components/)", pathNot: TESTS },
      to: { path: DB },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^lib/generated/"] },
    exclude: { path: ["^\\.next/", "^\\.data/", "^\\.build/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
