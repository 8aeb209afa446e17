// app/api/dashboard/* handlers: session auth, contract errors as { message, error_code } with
// the status from the one ERROR_STATUS table, anything else a logged 500 saying nothing internal.
import { ZodError } from "zod";
import type { Principal } from "@/lib/auth/principal";
import { ApiError, inputErrorFrom } from "@/lib/core/errors";
import { requireApiPrincipal } from "@/lib/dashboard/session";
import { log } from "@/lib/log";

export function dashboardHandler<C>(work: (p: Principal, request: Request, ctx: C) => Promise<Response>) {
  return async (request: Request, ctx: C): Promise<Response> => {
    try {
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
        return Response.json(
          { success: false, message: error.issues[0]?.message ?? "Invalid input", error_code: "VALIDATION_FAILED" },
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
