// A server action is a definition, as a public route is (lib/api/route-definition.ts): the
// schema of its one argument, the one service call it makes, and the page it makes stale.
// defineAction does the rest once for every action (docs/dashboard.md "Server actions"):
// the session and the member's permission (lib/dashboard/guard.ts), the raw-input check,
// parsing, the error result and the revalidation.
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { errorAnswer } from "@/lib/core/error-answer";
import type { Permission } from "@/lib/domains/auth/permissions";
import type { Principal } from "@/lib/domains/auth/principal";
import { type ActionResult, pathFields, runAction, withLabels } from "./action-result";
import { requirePermission } from "./guard";

/** The id of the record an action works on (a path parameter of the matching route). */
export const RecordId = z.string({ error: "Expected an id" }).min(1, "Expected an id");

/** A path to revalidate (a page), or a layout and every page below it. */
export type Revalidation = string | { path: string; type: "layout" | "page" };

type Revalidate<I, T> = Revalidation | ((done: { input: I; data: T }) => Revalidation);

type ActionDef<S extends z.ZodType, T, C> = {
  /**
   * The one argument's schema: the domain's own input schema (the API's body), or an object
   * that adds the ids the action works on to it (`{ uid, patch: WebhookPatch }`).
   */
  schema: S;
  /** The service call; its value is the result's data. */
  run: (ctx: C & { input: z.output<S> }) => Promise<T>;
  /** What the success makes stale; nothing when absent (the caller refreshes). */
  revalidate?: Revalidate<z.output<S>, T>;
  /**
   * The form's label of a field the service names by its API name ({endpointUrl: "Endpoint
   * URL"}): a refusal shown in the dashboard says the label a person sees.
   */
  labels?: Record<string, string>;
  /**
   * A form that keys its errors by path below this part of the input (the rule editor:
   * "rule", so the service's `body.rule.actions.1.labels.0` is `actions.1.labels.0`), not by
   * the field's last name.
   */
  fieldsBelow?: string;
};

export type SessionActionDef<S extends z.ZodType, T> = ActionDef<S, T, { principal: Principal }> & {
  /** "session" (the default): the signed-in user's principal; without one, a redirect to /login. */
  auth?: "session";
  /**
   * The permission of the role table (lib/domains/auth/permissions.ts) the action needs;
   * a member whose role lacks it is sent to /no-access and the action does not run
   * (docs/members.md). test/dashboard-permissions.test.ts checks every action's.
   */
  permission: Permission;
};

/** Before sign-in (sign-up): no principal. */
export type PublicActionDef<S extends z.ZodType, T> = ActionDef<S, T, object> & { auth: "public" };

/**
 * A form's values as the browser collected them (`formStrings(data)`, `webhookBody(...)`),
 * not yet checked: the action's schema checks them on the server.
 */
export type FormValues = Record<string, string | number | boolean | null | undefined | readonly string[]>;

/** The schema's input, where any object may also come as a form's unchecked values. */
export type ActionInput<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]: ActionInput<T[K]> } | FormValues
    : T;

/** What the client calls: one argument, the schema's input; a result, never a throw. */
export type Action<S extends z.ZodType, T> = (input: ActionInput<z.input<S>>) => Promise<ActionResult<T>>;

export function defineAction<S extends z.ZodType, T = undefined>(def: SessionActionDef<S, T>): Action<S, T>;
export function defineAction<S extends z.ZodType, T = undefined>(def: PublicActionDef<S, T>): Action<S, T>;
export function defineAction<S extends z.ZodType, T>(
  def: SessionActionDef<S, T> | PublicActionDef<S, T>,
): Action<S, T> {
  return async (raw) => {
    // Before anything else: without a session the browser goes to /login, and a role without
    // the permission to /no-access (Next's redirects, which runAction passes through),
    // whatever the input. A session that cannot be read for a known reason (the database
    // unreachable: 503) is a result like any refusal, never a throw the form cannot show.
    let principal: Principal | undefined;
    if (def.auth !== "public") {
      try {
        principal = await requirePermission(def.permission);
      } catch (caught) {
        const error = errorAnswer(caught);
        if (error.unexpected) throw caught;
        return { ok: false, message: error.message, code: error.code };
      }
    }
    let input: z.output<S> | undefined;
    const below = def.fieldsBelow;
    const result = await runAction(
      async () => {
        const parsed = def.schema.parse(raw) as z.output<S>;
        input = parsed;
        // The overloads tie run's context to auth; one body serves both.
        const run = def.run as (ctx: { principal?: Principal; input: z.output<S> }) => Promise<T>;
        return run(principal ? { principal, input: parsed } : { input: parsed });
      },
      raw,
      below ? (fields) => pathFields(fields, below) : undefined,
    );
    if (result.ok && def.revalidate !== undefined && input !== undefined) {
      const target =
        typeof def.revalidate === "function" ? def.revalidate({ input, data: result.data }) : def.revalidate;
      if (typeof target === "string") revalidatePath(target);
      else revalidatePath(target.path, target.type);
    }
    return def.labels ? withLabels(result, def.labels) : result;
  };
}
