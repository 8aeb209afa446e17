"use client";
import { useState } from "react";
import { buttonSecondary } from "./classes";

export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button type="button" onClick={copy} className={buttonSecondary}>
      <span aria-live="polite">{copied ? "Copied" : label}</span>
    </button>
  );
}
