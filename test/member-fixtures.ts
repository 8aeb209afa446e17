// Members for tests: a real member row (as the operator CLI or an accepted invitation
// makes it) and the session ids the dashboard's JWT would carry for it.
import { randomBytes } from "node:crypto";
import type { Role } from "@/lib/domains/members/permissions";
import { addMember } from "@/lib/domains/members/service";

export type TestMember = {
  userId: string;
  email: string;
  password: string;
  session: { userId: string; customerId: string };
};

export async function createMemberOf(customerId: string, role: Role, senders: string[] = []): Promise<TestMember> {
  const email = `${role}-${randomBytes(5).toString("hex")}@example.test`;
  const password = "a-long-password";
  const user = await addMember({ customerId, email, password, role, senders });
  return { userId: user.id, email, password, session: { userId: user.id, customerId } };
}
