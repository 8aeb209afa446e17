// Demo contact books with contacts and custom field values (idempotent: books by name,
// fields by key, contacts by book + phone number).
import { db } from "@/lib/db";
import type { FieldType } from "@/lib/generated/prisma/client";
import { seededRandom } from "./random";

const FIELDS: { key: string; label: string; type: FieldType }[] = [
  { key: "city", label: "City", type: "text" },
  { key: "loyalty_points", label: "Loyalty points", type: "number" },
  { key: "vip", label: "VIP", type: "boolean" },
  { key: "last_order_date", label: "Last order date", type: "date" },
];

const BOOKS = [
  {
    name: "Newsletter subscribers",
    description: "Opted in to the monthly newsletter",
    color: "#4F46E5",
    size: 150,
    base: 1000,
  },
  { name: "VIP customers", description: "Top spenders: early access offers", color: "#D97706", size: 40, base: 2000 },
  {
    name: "Appointment reminders",
    description: "Customers with upcoming appointments",
    color: "#059669",
    size: 60,
    base: 3000,
  },
] as const;

const FIRST = [
  "Ava",
  "Liam",
  "Noah",
  "Emma",
  "Olivia",
  "Mateo",
  "Sofia",
  "Lucas",
  "Mia",
  "Amara",
  "Kenji",
  "Priya",
  "Omar",
  "Chloe",
  "Diego",
  "Hana",
  "Ivan",
  "Zara",
  "Tomas",
  "Nia",
];
const LAST = [
  "Garcia",
  "Smith",
  "Okafor",
  "Tanaka",
  "Patel",
  "Meyer",
  "Rossi",
  "Nguyen",
  "Kowalski",
  "Silva",
  "Haddad",
  "Johnson",
  "Larsen",
  "Dubois",
  "Khan",
];
const CITIES = [
  "New York",
  "Austin",
  "Chicago",
  "Denver",
  "Seattle",
  "Miami",
  "Boston",
  "Portland",
  "Atlanta",
  "San Diego",
];

export async function seedContacts(customerId: string): Promise<void> {
  await db.contactField.createMany({
    data: FIELDS.map((f) => ({ customerId, ...f })),
    skipDuplicates: true,
  });
  for (const spec of BOOKS) {
    const book =
      (await db.contactBook.findFirst({ where: { customerId, name: spec.name } })) ??
      (await db.contactBook.create({
        data: { customerId, name: spec.name, description: spec.description, color: spec.color },
      }));
    const rnd = seededRandom(spec.base);
    const contacts = Array.from({ length: spec.size }, (_, i) => {
      const first = FIRST[rnd.int(0, FIRST.length - 1)] ?? "Alex";
      const last = LAST[rnd.int(0, LAST.length - 1)] ?? "Doe";
      const day = new Date(Date.UTC(2026, 0, 1) + rnd.int(0, 300) * 86_400_000).toISOString().slice(0, 10);
      return {
        customerId,
        contactBookId: book.id,
        phoneNumber: `+1415555${String(spec.base + i).padStart(4, "0")}`,
        name: `${first} ${last}`,
        email: rnd.next() < 0.8 ? `${first}.${last}${i}@example.com`.toLowerCase() : null,
        customFields: {
          city: CITIES[rnd.int(0, CITIES.length - 1)] ?? "Austin",
          loyalty_points: rnd.int(0, 5000),
          vip: spec.name === "VIP customers" || rnd.next() < 0.1,
          ...(rnd.next() < 0.7 ? { last_order_date: day } : {}),
        },
      };
    });
    await db.contact.createMany({ data: contacts, skipDuplicates: true });
  }
}
