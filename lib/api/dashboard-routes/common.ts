// What every dashboard-only route shares: served to the signed-in member under /api/dashboard
// alone (no token, no rate limit: lib/api/router.ts), answered as v3 answers.
export const dashboardOnly = { session: "only", versions: ["v3"], limit: "global" } as const;
