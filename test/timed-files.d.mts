// The types of test/timed-files.mjs (plain Node: scripts/test.mjs imports it too).
export declare const TIMED_FILES: readonly string[];
