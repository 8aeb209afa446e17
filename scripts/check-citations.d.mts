// Types of scripts/check-citations.mjs (plain JavaScript, so that lint runs it without tsx).
export type CitationProblem = { file: string; line: number; message: string };
export function checkCitations(root: string): CitationProblem[];
export function anchorOf(heading: string): string;
