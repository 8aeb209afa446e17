// Test files whose PostgreSQL run measures wall-clock speed (a broadcast's pace, another
// customer's read latency during a large start), not only outcomes. `npm test` runs them on
// PostgreSQL after its three lanes, alone on the machine, with the same assertions
// (scripts/test.mjs; docs/development.md "Tests"): beside the PGlite suite and the end-to-end
// lane, at 94-99% of two cores, they failed in 2 of 3 fresh-clone runs of one tree (2026-12-03),
// a different file each time, and passed in every run alone. The PGlite suite keeps them in
// place: there they check outcomes, with limits made for the embedded database.
export const TIMED_FILES = ["lib/domains/broadcasts/broadcast-tenant-share.test.ts", "test/broadcast-pacing.test.ts"];
