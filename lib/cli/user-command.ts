// user:create (docs/operator-cli.md).
import { createUser } from "@/lib/domains/users/service";
import { defineCommand } from "./command";
import { requireCustomer } from "./require-customer";
import { UserCreateArgs } from "./schemas";

export const userCreate = defineCommand({
  options: {
    customer: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    name: { type: "string" },
  },
  schema: UserCreateArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const user = await createUser({
      customerId: input.customer,
      email: input.email,
      password: input.password,
      name: input.name,
    });
    return {
      json: { userId: user.id, customerId: user.customerId, email: user.email },
      text: `Created user ${user.email}: ${user.id}`,
    };
  },
});
