// What the simulator knows of a contact's customer service window with a business number (the
// provider knows when the contact last wrote): the last inbound time the service recorded for
// that number and contact, read from the conversations the account holds, as the simulator
// reads its templates (simulator-templates.ts). The rule itself: service-window.ts.
import { hotRows } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { WINDOW_MS } from "./service-window";

/** Is the window of this business number and contact (E.164) open? */
export async function windowOpenForNumber(phoneNumberId: string, contact: string): Promise<boolean> {
  const [row] = await hotRows<{ lastInboundAt: Date | null }>(
    Prisma.sql`SELECT c."lastInboundAt" FROM "Conversation" c JOIN "Sender" s ON s."id" = c."senderId"
      WHERE s."phoneNumberId" = ${phoneNumberId} AND c."contactPhoneNumber" = ${contact}`,
  );
  const last = row?.lastInboundAt;
  return last !== null && last !== undefined && last.getTime() + WINDOW_MS > Date.now();
}
