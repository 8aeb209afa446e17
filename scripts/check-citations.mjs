// The citation check (docs/architecture.md "Citations"): every document a source file or a
// doc cites exists in the repository, with the section it names; nothing cites the design
// notes or the tracker that a clone of the repository does not have.
// `node scripts/check-citations.mjs [root]`; part of `npm run lint` and of the lint step of
// `npm test`. An optional root checks another tree (the planted cases of its test).
//
// A citation is a path to a Markdown file, optionally followed by an anchor or a section:
//   docs/tokens.md                      the file exists
//   docs/tokens.md "Usage"              ...and has a heading that is, or begins with, Usage
//   docs/tokens.md#usage                ...and has a heading whose GitHub anchor is usage
//   README "Docs"                       README.md, cited without its extension
// Paths in source files are from the repository root; paths in Markdown files (their links
// too) from the file's own folder first, then from the root.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SCANNED = /\.(ts|tsx|mts|mjs|js|cjs|prisma|css|md|ya?ml)$/;
const SKIPPED = [/^node_modules\//, /^\.next\//, /^lib\/generated\//, /(^|\/)fixtures\//];

// A .md path not inside a URL or a longer path; then an optional #anchor, then an optional
// quoted section after one space.
const CITATION = /(?<![\w./@:-])((?:\.\.?\/)*(?:[\w@-][\w.@-]*\/)*[\w-][\w.-]*\.md)\b(?:#([\w-]+))?(?: "([^"\n]+)")?/g;
// The README cited without its extension.
const README_SECTION = /(?<![\w./-])README\x20"([^"\n]+)"/g;

/** What a clone of the repository cannot open: say so where it is cited. */
const FORBIDDEN = [
  {
    pattern: /\.\.\/shared\/|\bshared\/(spec|design)\b|public-api\.md/,
    why: "cites the design notes outside the repository: cite a document under docs/",
  },
  { pattern: /\bspec (§ ?)?\d+(\.\d+)*\b/i, why: 'cites "spec N": cite the document under docs/ that says it' },
  { pattern: /\bissues? #?\d+\b|\bitem \d+ of issue\b/i, why: "names a tracker issue: say what, not which ticket" },
];

function trackedFiles(root) {
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split("\0").filter(Boolean);
  } catch {
    // Not a git tree (the test's temporary one): every file below the root.
    return fs.readdirSync(root, { recursive: true }).map((p) => String(p).split(path.sep).join("/"));
  }
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

const plain = (text) => text.replace(/`/g, "").trim();

/** The headings of a Markdown file (outside code fences) and their anchors. */
function outline(text) {
  const headings = new Set();
  const anchors = new Set();
  const seen = new Map();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const heading = plain(m[1]);
    headings.add(heading);
    const base = anchorOf(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return { headings, anchors };
}

/**
 * Whether a section names one of the headings: the whole heading, or its first words (the
 * "Senders" of "Senders (`lib/api/routes/senders.ts`, limit class `global`)").
 */
function names(headings, section) {
  for (const h of headings) {
    if (h === section || (h.startsWith(section) && !/[\p{L}\p{N}]/u.test(h[section.length] ?? ""))) return true;
  }
  return false;
}

/** Every problem of the tree at root: { file, line, message }. */
export function checkCitations(root) {
  const files = trackedFiles(root).filter(
    (f) => SCANNED.test(f) && !SKIPPED.some((s) => s.test(f)) && fs.statSync(path.join(root, f)).isFile(),
  );
  const outlines = new Map();
  const outlineOf = (abs) => {
    if (!outlines.has(abs)) outlines.set(abs, fs.existsSync(abs) ? outline(fs.readFileSync(abs, "utf8")) : null);
    return outlines.get(abs);
  };
  const problems = [];
  for (const file of files) {
    const isDoc = file.endsWith(".md");
    const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
    // A leading "/" (the README) is the root's only.
    const resolve = (cited) => {
      const candidates = isDoc && !cited.startsWith("/") ? [path.join(root, path.dirname(file), cited)] : [];
      candidates.push(path.join(root, cited));
      return candidates.find((c) => fs.existsSync(c));
    };
    lines.forEach((text, i) => {
      const at = (message) => problems.push({ file, line: i + 1, message });
      for (const { pattern, why } of FORBIDDEN) if (pattern.test(text)) at(why);
      const citations = [...text.matchAll(CITATION)].map((m) => ({ cited: m[1], anchor: m[2], section: m[3] }));
      for (const m of text.matchAll(README_SECTION)) citations.push({ cited: "/README.md", section: m[1] });
      for (const { cited: written, anchor, section } of citations) {
        const target = resolve(written);
        const cited = written.replace(/^\//, "");
        if (!target) {
          at(`cites ${cited}, which is not in the repository`);
          continue;
        }
        const found = outlineOf(target);
        if (!found) continue;
        if (anchor && !found.anchors.has(anchor)) at(`cites ${cited}#${anchor}: ${cited} has no such heading`);
        if (section && !names(found.headings, plain(section))) {
          at(`cites ${cited} "${section}": ${cited} has no heading "${section}"`);
        }
      }
    });
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
  const problems = checkCitations(root);
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
  if (problems.length > 0) {
    console.error(`✘ ${problems.length} citation problem(s) (docs/architecture.md "Citations")`);
    process.exit(1);
  }
  console.log("✔ every citation names a document and section in the repository");
}
