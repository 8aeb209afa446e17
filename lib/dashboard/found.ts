// A dashboard page's look-up of the one resource its URL names. "Not found" (an id that
// names nothing, or another tenant's: services answer both the same) is Next's 404 page
// (app/not-found.tsx), not an error the server logs with a stack.
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/core/errors";

/** The look-up's result; a 404 refusal (NOT_FOUND, WEBHOOK_NOT_FOUND, CHATBOT_NOT_FOUND...) becomes notFound(). */
export async function foundOr404<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (caught) {
    if (caught instanceof ApiError && caught.status === 404) notFound();
    throw caught;
  }
}
