// The page a failed server render shows (app/error.tsx): a message a person can act on and a
// way to try again, never Next's bare "a server-side exception has occurred" nor the cause.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import PageError from "./error";

describe("the page error", () => {
  it("says the service is briefly unavailable and offers to try again, without the cause", () => {
    const html = renderToStaticMarkup(
      createElement(PageError, { error: new Error("connect ECONNREFUSED 127.0.0.1:5432"), retry: () => {} }),
    );
    expect(html).toContain("This page could not load");
    expect(html).toContain("Switchboard is briefly unavailable");
    expect(html).toContain(">Try again</button>");
    expect(html).not.toContain("ECONNREFUSED");
  });
});
