"use client";
// The test console: which rule answers a typed message, and what the saved bot would send.
// It runs the same dry run as POST /chatbots/{uid}/test: nothing is sent. A tapped reply id
// makes the text the tapped button's title.
import { useState, useTransition } from "react";
import { button, input, label } from "@/components/ui/classes";
import type { TimedDecision } from "@/lib/domains/chatbots/decide-within-budget";
import type { Decision } from "@/lib/domains/chatbots/engine";
import { testChatbotAction } from "./actions";

function describeReply(reply: Decision["reply"]): string {
  if (!reply) return "Nothing (the bot stays silent)";
  if (reply.type === "text") return reply.text;
  if (reply.type === "template") return `Template ${reply.template.name} (${reply.template.language})`;
  const { body, buttons, list, ctaUrl } = reply.interactive;
  if (buttons) return `${body} [${buttons.map((b) => b.title).join("] [")}]`;
  if (list) return `${body} [${list.button}: ${list.sections.flatMap((s) => s.rows.map((r) => r.title)).join(", ")}]`;
  return `${body} [${ctaUrl?.displayText ?? ""}: ${ctaUrl?.url ?? ""}]`;
}

export function TestConsole({ uid }: { uid: string }) {
  const [text, setText] = useState("");
  const [replyId, setReplyId] = useState("");
  const [result, setResult] = useState<TimedDecision | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="space-y-3">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          start(async () => {
            const r = await testChatbotAction({ uid, text, ...(replyId ? { replyId } : {}) });
            if (r.ok) {
              setResult(r.data);
              setError(null);
            } else setError(r.message);
          });
        }}
      >
        <div className="min-w-64 flex-1">
          <label htmlFor="cb-test-text" className={label}>
            A customer writes
          </label>
          <input id="cb-test-text" className={input} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="min-w-48">
          <label htmlFor="cb-test-reply-id" className={label}>
            Tapped reply id (optional)
          </label>
          <input id="cb-test-reply-id" className={input} value={replyId} onChange={(e) => setReplyId(e.target.value)} />
        </div>
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Testing…" : "Test"}
        </button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {result && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="test-result" aria-live="polite">
          <dt className="font-medium">Answered by</dt>
          <dd data-testid="test-matched">
            {result.matchedRule !== null
              ? `Rule ${result.matchedRule + 1}`
              : result.timedOut
                ? "Fallback: the patterns ran out of their time budget on this text"
                : !result.withinBusinessHours
                  ? "Away reply (outside business hours)"
                  : result.reply
                    ? "Fallback"
                    : "No rule"}
          </dd>
          <dt className="font-medium">Would send</dt>
          <dd data-testid="test-reply" className="whitespace-pre-wrap">
            {describeReply(result.reply)}
          </dd>
          <dt className="font-medium">Hand-off</dt>
          <dd>{result.handoff ? "Yes: a person takes over for 30 minutes" : "No"}</dd>
          <dt className="font-medium">Business hours</dt>
          <dd>{result.withinBusinessHours ? "Open" : "Closed"}</dd>
        </dl>
      )}
    </div>
  );
}
