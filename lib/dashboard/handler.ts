// app/api/dashboard/* handlers: mutations same-origin and JSON only (request-guard.ts), session auth, contract errors as { message, error_code } with
// the status from the one ERROR_STATUS table, anything else a logged 500 saying nothing internal.
import { ZodError } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { requireApiPrincipal } from "@/lib/auth/session";
import { ApiError, inputErrorFrom } from "@/lib/core/errors";
import { log } from "@/lib/log";
import { guardMutation } from "./request-guard";

export function dashboardHandler<C>(work: (p: Principal, request: Request, ctx: C) => Promise<Response>) {
  return async (request: Request, ctx: C): Promise<Response> => {
    try {
      // Before the session is even read: a forged cross-site request gets nothing.
      guardMutation(request);
      const p = await requireApiPrincipal();
      return await work(p, request, ctx);
    } catch (caught) {
      const error = inputErrorFrom(caught) ?? caught;
      if (error instanceof ApiError) {
        return Response.json(
          { success: false, message: error.message, error_code: error.wireCode, details: error.details },
          { status: error.status },
        );
      }
      if (error instanceof ZodError) {
        const fields = error.issues.map((i) => ({ path: ["body", ...i.path].join("."), message: i.message }));
        const first = fields[0];
        return Response.json(
          {
            success: false,
            message: first ? `${first.path}: ${first.message}` : "Invalid input",
            error_code: "VALIDATION_FAILED",
            details: { fields },
          },
          { status: 400 },
        );
      }
      log.error({ err: error }, "dashboard handler failed");
      return Response.json(
        { success: false, message: "Something went wrong", error_code: "REQUEST_FAILED" },
        { status: 500 },
      );
    }
  };
}
