"use client";
// Renders /api/v3/openapi.json with Scalar's API reference (search, code samples in many
// languages, "Test Request" with a bearer token against this same origin). The renderer's
// bundle is served by /docs/api/reference.js; every feature that would call out of the
// machine (fonts, telemetry, the AI agent, MCP, the hosted toolbar) is switched off.
import { useEffect, useRef } from "react";
import { REFERENCE_CSS } from "./reference-css";

type ScalarApp = { destroy?: () => void };
type ScalarGlobal = { createApiReference: (el: HTMLElement, config: Record<string, unknown>) => ScalarApp };

const CONFIG = {
  url: "/api/v3/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: "never",
  showToolbar: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  persistAuth: false,
  hideClientButton: false,
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  authentication: { preferredSecurityScheme: "bearerAuth" },
  // Contrast-safe colours and fixes for Scalar markup axe flags: reference-css.ts.
  customCss: REFERENCE_CSS,
};

export function ApiReference() {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let app: ScalarApp | undefined;
    const script = document.createElement("script");
    script.src = "/docs/api/reference.js";
    script.onload = () => {
      const scalar = (window as unknown as { Scalar?: ScalarGlobal }).Scalar;
      if (scalar && root.current) app = scalar.createApiReference(root.current, CONFIG);
    };
    document.body.appendChild(script);
    return () => {
      app?.destroy?.();
      script.remove();
    };
  }, []);
  return (
    <div ref={root} data-testid="api-reference">
      <p className="p-8 text-slate-600 dark:text-slate-400">Loading the API reference…</p>
    </div>
  );
}
