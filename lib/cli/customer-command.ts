// customer:create (docs/operator-cli.md).
import { createCustomer } from "@/lib/domains/customers/service";
import { defineCommand } from "./command";
import { CustomerCreateArgs } from "./schemas";

export const customerCreate = defineCommand({
  options: { name: { type: "string" }, plan: { type: "string" } },
  schema: CustomerCreateArgs,
  run: async ({ name, plan }) => {
    const customer = await createCustomer({ name, plan });
    return {
      json: { customerId: customer.id, name: customer.name, plan: customer.plan },
      text: `Created customer ${customer.name} (${customer.plan}): ${customer.id}`,
    };
  },
});
