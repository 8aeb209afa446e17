// user:create (docs/operator-cli.md): a member with a role (default owner) and, for an
// agent, the senders they work on (docs/members.md).
import { operatorPrincipal } from "@/lib/domains/auth/principal";
import { addMember } from "@/lib/domains/members/service";
import { defineCommand } from "./command";
import { requireCustomer } from "./require-customer";
import { UserCreateArgs } from "./schemas";

export const userCreate = defineCommand({
  options: {
    customer: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    name: { type: "string" },
    role: { type: "string" },
    senders: { type: "string" },
  },
  schema: UserCreateArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const user = await addMember(
      {
        customerId: input.customer,
        email: input.email,
        password: input.password,
        name: input.name,
        role: input.role,
        senders: input.senders,
      },
      undefined,
      operatorPrincipal(input.customer),
    );
    const senders = input.senders ?? null;
    return {
      json: { userId: user.id, customerId: user.customerId, email: user.email, role: user.role, senders },
      text: `Created ${user.role} ${user.email}: ${user.id}${senders ? ` (senders ${senders.join(", ")})` : ""}`,
    };
  },
});
