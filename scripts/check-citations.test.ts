// The citation check (scripts/check-citations.mjs): the repository passes, and a small
// tree with one planted problem of each kind fails naming the file, the line and the cause.
// The planted texts are assembled at run time so that this file itself cites nothing false.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anchorOf, checkCitations as check } from "./check-citations.mjs";

const md = (name: string) => `${name}.md`;
const quote = (text: string) => `"${text}"`;

const DOCS: Record<string, string> = {
  [`docs/${md("guide")}`]:
    "# Guide\n\n## Sending messages (`/send`)\n\n```\n## Not a heading\n```\n\n## Limits\n\n## Limits\n",
  [`docs/api/${md("index")}`]: `# API\n\nSee [the guide](../${md("guide")}#limits) and [limits](../${md("guide")}#limits-1).\n`,
  [md("README")]: "# Project\n\n## Quick start\n",
};

let root: string;
const write = (files: Record<string, string>) => {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
};

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "citations-"));
  write(DOCS);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the citation check", () => {
  it("passes on the repository", () => {
    expect(check(path.resolve(import.meta.dirname, ".."))).toEqual([]);
  });

  it("accepts a file, a section by its heading or its first words, an anchor, relative links, the README", () => {
    write({
      "lib/good.ts": [
        `// docs/${md("guide")}`,
        `// docs/${md("guide")} ${quote("Sending messages (`/send`)")} and docs/${md("guide")} ${quote("Sending messages")}`,
        `// docs/${md("guide")}#sending-messages-send, docs/${md("guide")}#limits-1`,
        `// README ${quote("Quick start")}`,
        `// https://example.com/${md("elsewhere")} is a URL, not a citation`,
      ].join("\n"),
    });
    expect(check(root)).toEqual([]);
    fs.rmSync(path.join(root, "lib"), { recursive: true });
  });

  const planted: Record<string, { text: string; message: RegExp }> = {
    "a file that is not there": { text: `// see docs/${md("missing")}`, message: /docs\/missing\.md, which is not in/ },
    "a section that is not there": {
      text: `// docs/${md("guide")} ${quote("Send")}`,
      message: /has no heading "Send"/,
    },
    "a section only inside a code fence": {
      text: `// docs/${md("guide")} ${quote("Not a heading")}`,
      message: /has no heading "Not a heading"/,
    },
    "an anchor that is not there": { text: `// docs/${md("guide")}#nowhere`, message: /#nowhere: .* no such heading/ },
    "a README section that is not there": {
      text: `// README ${quote("Configuration")}`,
      message: /README\.md has no heading/,
    },
    "a design file outside the repository": {
      text: `// See ${["..", "shared", "design", md("architecture")].join("/")}`,
      message: /outside the repository/,
    },
    "a spec section number": { text: `// as ${"spec"} 4.1 says`, message: /cites "spec N"/ },
    "a tracker issue number": { text: `// (${"issue"} 13 item 6)`, message: /names a tracker issue/ },
    "a bare design file name in code": {
      text: `// (${md("architecture")} ${quote("Billing")})`,
      message: /architecture\.md, which is not in/,
    },
  };
  for (const [what, { text, message }] of Object.entries(planted)) {
    it(`fails on ${what}, naming the file and line`, () => {
      write({ "lib/planted.ts": `// fine\n${text}\n` });
      const problems = check(root);
      fs.rmSync(path.join(root, "lib"), { recursive: true });
      expect(problems.length).toBeGreaterThan(0);
      for (const p of problems) expect(p).toMatchObject({ file: "lib/planted.ts", line: 2 });
      expect(problems.map((p) => p.message)).toContainEqual(expect.stringMatching(message));
    });
  }

  it("fails on a Markdown link to a missing anchor, relative to the doc that holds it", () => {
    write({ [`docs/api/${md("bad")}`]: `[x](../${md("guide")}#sending)\n` });
    const problems = check(root);
    fs.rmSync(path.join(root, `docs/api/${md("bad")}`));
    expect(problems).toEqual([expect.objectContaining({ file: `docs/api/${md("bad")}`, line: 1 })]);
  });

  it("makes GitHub's anchors", () => {
    expect(anchorOf("Statuses -> billing records and ledger")).toBe("statuses---billing-records-and-ledger");
    expect(anchorOf("Senders (lib/api/routes/senders.ts, limit class global)")).toBe(
      "senders-libapiroutessendersts-limit-class-global",
    );
  });
});
