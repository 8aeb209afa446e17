"use client";
// The dashboard forms' one submit cycle around a server action (lib/dashboard/action-result.ts):
// pending while it runs; on failure its message as a toast and its field errors by form field
// name (shown under the field that caused them); on success a toast and onSuccess.
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { issueText } from "./issue-text";
import { useToast } from "./toast";

type Router = ReturnType<typeof useRouter>;

export type ActionFormOptions<T> = {
  action: (data: FormData) => Promise<ActionResult<T>>;
  /** The success toast. */
  success: string;
  /** After a success; refreshes the page when absent. */
  onSuccess?: (done: { data: T; form: HTMLFormElement; router: Router }) => void;
};

/** A form's entries as strings (what most actions parse with their zod schema). */
export const formStrings = (data: FormData): Record<string, string> =>
  Object.fromEntries([...data.entries()].map(([k, v]) => [k, String(v)]));

export function useActionForm<T>(options: ActionFormOptions<T>) {
  const toast = useToast();
  const router = useRouter();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    let result: ActionResult<T>;
    try {
      result = await options.action(new FormData(form));
    } finally {
      setPending(false);
    }
    if (!result.ok) {
      setFields(result.fields ?? {});
      setMessage(result.message);
      toast.error(result.message);
      return;
    }
    setFields({});
    setMessage(null);
    toast.success(options.success);
    if (options.onSuccess) options.onSuccess({ data: result.data, form, router });
    else router.refresh();
  }

  return { onSubmit, pending, fields, message };
}

/** A one-click action (a button, no form): pending while it runs, a toast either way, then a refresh. */
export function useAction() {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const run = <T>(action: () => Promise<ActionResult<T>>, success: string) =>
    start(async () => {
      const result = await action();
      if (result.ok) toast.success(success);
      else toast.error(result.message);
      router.refresh();
    });
  return { pending, run };
}

/** What a body form's zod schema offers: a check whose issues name their path. */
type BodySchema = {
  safeParse(
    value: unknown,
  ): { success: true } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
};

/**
 * The same submit cycle for a form that sends a JSON body (nested fields FormData cannot
 * carry: the settings forms): the body is checked against its zod schema first, each issue
 * shown in the form's alert by its path; then the action, a toast either way and a refresh.
 * `submit` resolves to whether it was saved.
 */
export function useBodyForm<B, T>(options: {
  schema: BodySchema;
  action: (body: B) => Promise<ActionResult<T>>;
  success: string;
  /** The form's labels by the schema's paths ("policy.name": "Name"), for its messages (issueText). */
  fields?: Record<string, string>;
}) {
  const toast = useToast();
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(body: B): Promise<boolean> {
    const parsed = options.schema.safeParse(body);
    if (!parsed.success) {
      setMessage(parsed.error.issues.map((i) => issueText(i, options.fields)).join("; "));
      return false;
    }
    setPending(true);
    let result: ActionResult<T>;
    try {
      result = await options.action(body);
    } finally {
      setPending(false);
    }
    if (!result.ok) {
      setMessage(result.message);
      toast.error(result.message);
      return false;
    }
    setMessage(null);
    toast.success(options.success);
    router.refresh();
    return true;
  }

  /** A check of the form's own, before the schema's: its message in the form's alert. */
  const refuse = (text: string) => setMessage(text);
  return { submit, pending, message, refuse };
}
