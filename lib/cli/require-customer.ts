// The customer an operator's --customer flag names, or the flag's error: its id, the email of
// one of its members (the owner's, as a customer writing in gives it), or one of its sender
// numbers (docs/operator-cli.md "Customers"; customer:list shows all three).
import { findCustomerByRef } from "@/lib/domains/customers/operator";
import { CliInputError } from "./input-error";

export async function requireCustomer(ref: string) {
  const customer = await findCustomerByRef(ref);
  if (!customer) {
    const what = ref.includes("@")
      ? `has a member with the email ${ref}`
      : ref.trim().startsWith("+")
        ? `has the sender ${ref}`
        : `with id ${ref}`;
    throw new CliInputError("--customer", `no customer ${what} (customer:list shows them)`);
  }
  return customer;
}
