// app/api/dashboard/* handlers: mutations same-origin and JSON only (request-guard.ts),
// session auth and the member's permission (guard.ts), and errors answered by the one errorAnswer
// (lib/core/error-answer.ts) as { message, error_code, details }; anything unexpected is a
// logged 500 saying nothing internal.

import { RequestAbortedError } from "@/lib/core/bounded-read";
import { errorAnswer } from "@/lib/core/error-answer";
import { log } from "@/lib/core/log";
import type { Permission } from "@/lib/domains/auth/permissions";
import type { Principal } from "@/lib/domains/auth/principal";
import { requireApiPermission } from "./guard";
import { guardMutation, guardSameOrigin } from "./request-guard";

export type HandlerOptions = {
  /**
   * "multipart": the body is a file upload (multipart/form-data, read by the handler as it
   * streams), still same-origin only; a cross-site form post gets nothing. Default: JSON.
   */
  body?: "json" | "multipart";
};

/** A handler that runs only for a signed-in member holding `permission` (lib/domains/auth/permissions.ts). */
export function dashboardHandler<C>(
  permission: Permission,
  work: (p: Principal, request: Request, ctx: C) => Promise<Response>,
  options: HandlerOptions = {},
) {
  return async (request: Request, ctx: C): Promise<Response> => {
    try {
      // Before the session is even read: a forged cross-site request gets nothing.
      if (options.body === "multipart") guardSameOrigin(request);
      else guardMutation(request);
      const p = await requireApiPermission(permission);
      return await work(p, request, ctx);
    } catch (caught) {
      const error = errorAnswer(caught);
      if (error.unexpected) log.error({ err: caught }, "dashboard handler failed");
      else if (caught instanceof RequestAbortedError)
        log.debug({ url: request.url }, "the client closed the request mid-body");
      return Response.json(
        { success: false, message: error.message, error_code: error.code, details: error.details },
        { status: error.status, headers: error.headers },
      );
    }
  };
}
