// customer:create and customer:list (docs/operator-cli.md).
import { formatMoney } from "@/lib/core/money";
import { listCustomers } from "@/lib/domains/customers/operator";
import { createCustomer } from "@/lib/domains/customers/service";
import { defineCommand } from "./command";
import { CustomerCreateArgs, CustomerListArgs } from "./schemas";

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

// customer:list (docs/operator-cli.md "Customers"): what names each customer (its id, its
// owners' emails, its sender numbers), newest first, with its balance.
export const customerList = defineCommand({
  options: { search: { type: "string" }, limit: { type: "string" } },
  schema: CustomerListArgs,
  run: async ({ search, limit }) => {
    const customers = await listCustomers({ search, limit });
    const lines = customers.map((c) =>
      [
        `${c.customerId}  ${c.name}  (${c.plan}${c.status === "ACTIVE" ? "" : `, ${c.status.toLowerCase()}`})  balance ${formatMoney(c.balance, c.currency)}`,
        `  owners: ${c.owners.join(", ") || "none"}`,
        `  senders: ${c.senders.join(", ") || "none"}`,
      ].join("\n"),
    );
    return {
      json: { customers },
      text: customers.length === 0 ? (search ? `No customer matches "${search}".` : "No customers.") : lines.join("\n"),
    };
  },
});
