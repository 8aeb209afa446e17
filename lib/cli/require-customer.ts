// The customer an operator's --customer flag names, or the flag's error.
import { findCustomer } from "@/lib/domains/customers/service";
import { CliInputError } from "./input-error";

export async function requireCustomer(id: string) {
  const customer = await findCustomer(id);
  if (!customer) throw new CliInputError("--customer", `no customer with id ${id}`);
  return customer;
}
