import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { CardSection } from "@/components/ui/card-section";
import { buttonSecondary, input, label, link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { countOf, formatCount } from "@/lib/core/count";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { can } from "@/lib/domains/auth/access";
import { listContactBooks } from "@/lib/domains/contacts/books";
import { searchAllContacts } from "@/lib/domains/contacts/contacts";
import { listContactFields } from "@/lib/domains/contacts/fields";
import { ContactBookListQuery, ContactSearchQuery } from "@/lib/domains/contacts/schemas";
import { toPublicContactBook, toPublicContactField } from "@/lib/domains/contacts/serializers";
import { BookForm } from "./book-form";
import { FieldForm } from "./field-form";

export const metadata: Metadata = { title: "Contact books · Switchboard" };

export default async function ContactsPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("contacts.read");
  const canChange = can(p, "contacts.write");
  const params = flatParams(await searchParams);
  const query = listQuery(ContactBookListQuery, params);
  // The search across every book: its own parameters (q, qpage), so the book list keeps its filters and page.
  const contactSearch = ContactSearchQuery.safeParse({ search: params.q, page: params.qpage, limit: "25" });
  const [{ books, pagination }, fields, found] = await Promise.all([
    listContactBooks(p, query),
    listContactFields(p),
    contactSearch.success ? searchAllContacts(p, contactSearch.data) : null,
  ]);
  const rows = books.map(toPublicContactBook);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Contact books</h1>
      <section aria-labelledby="contact-search-title">
        <h2 id="contact-search-title" className="mb-3 text-lg font-semibold">
          Search contacts in every book
        </h2>
        <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Search contacts">
          {Object.entries(params)
            .filter(([k]) => k !== "q" && k !== "qpage")
            .map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
          <div>
            <label htmlFor="contact-search-all" className={label}>
              Name, email or number
            </label>
            <input id="contact-search-all" name="q" defaultValue={params.q ?? ""} className={input} />
          </div>
          <button type="submit" className={buttonSecondary}>
            Search contacts
          </button>
        </form>
        {found && contactSearch.success ? (
          <>
            <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" data-testid="contact-search-count">
              {countOf(found.pagination.total, "contact")} match “{contactSearch.data.search}”, whatever the case and
              accents
            </p>
            <DataTable
              label="Contacts found"
              columns={[
                { key: "phone", label: "Phone number" },
                { key: "name", label: "Name" },
                { key: "email", label: "Email" },
                { key: "book", label: "Book" },
              ]}
              rowCount={found.contacts.length}
              empty={<EmptyState title="No contact matches">Try part of a name, an email or a number.</EmptyState>}
            >
              {found.contacts.map((c) => (
                <tr key={c.id} data-testid="found-contact-row">
                  <td className={`${td} font-mono`}>{c.phoneNumber}</td>
                  <td className={td}>{c.name ?? "—"}</td>
                  <td className={td}>{c.email ?? "—"}</td>
                  <td className={td}>
                    <IntentLink
                      className={link}
                      href={`/contacts/${c.contactBook.id}?search=${encodeURIComponent(contactSearch.data.search)}`}
                    >
                      {c.contactBook.name}
                    </IntentLink>
                  </td>
                </tr>
              ))}
            </DataTable>
            <Pager
              path="/contacts"
              params={params}
              pageParam="qpage"
              label="Pages of contacts found"
              pagination={found.pagination}
            />
          </>
        ) : null}
      </section>
      {/* Reading is for every role with contacts; changing only for contacts.write (the actions check it). */}
      {canChange ? (
        <CardSection id="new-book" title="New contact book">
          <BookForm />
        </CardSection>
      ) : null}
      <section aria-labelledby="books">
        <h2 id="books" className="mb-3 text-lg font-semibold">
          Books
        </h2>
        <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          {params.sender && <input type="hidden" name="sender" value={params.sender} />}
          {params.q && <input type="hidden" name="q" value={params.q} />}
          <div>
            <label htmlFor="book-search" className={label}>
              Search name or description
            </label>
            <input id="book-search" name="search" defaultValue={params.search ?? ""} className={input} />
          </div>
          <div>
            <label htmlFor="book-status" className={label}>
              Status
            </label>
            <select id="book-status" name="status" defaultValue={params.status ?? ""} className={input}>
              <option value="">Any</option>
              <option value="ACTIVE">Active</option>
              <option value="INACTIVE">Inactive</option>
            </select>
          </div>
          <button type="submit" className={buttonSecondary}>
            Filter
          </button>
        </form>
        <DataTable
          label="Contact books"
          columns={[
            { key: "name", label: "Name" },
            { key: "description", label: "Description" },
            { key: "contacts", label: "Contacts" },
            { key: "status", label: "Status" },
            { key: "updated", label: "Updated" },
          ]}
          rowCount={rows.length}
          empty={<EmptyState title="No contact books match">Create one above, or clear the filters.</EmptyState>}
        >
          {rows.map((b) => (
            <tr key={b.uid} data-testid="book-row">
              <td className={td}>
                <span
                  aria-hidden="true"
                  className="mr-2 inline-block h-3 w-3 rounded-full align-middle"
                  style={{ backgroundColor: b.color }}
                />
                <IntentLink className={link} href={`/contacts/${b.uid}`}>
                  {b.name}
                </IntentLink>
              </td>
              <td className={td}>{b.description || "—"}</td>
              <td className={td}>{formatCount(b.contactCount)}</td>
              <td className={td}>{b.status}</td>
              <td className={td}>{formatDateTime(b.updatedAt)}</td>
            </tr>
          ))}
        </DataTable>
        <Pager path="/contacts" params={params} label="Pages of contact books" pagination={pagination} />
      </section>
      <CardSection id="custom-fields" title="Custom fields">
        {fields.length === 0 ? (
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">No custom fields yet.</p>
        ) : (
          <ul className="mb-4 flex flex-wrap gap-2">
            {fields.map(toPublicContactField).map((f) => (
              <li key={f.key} className="rounded bg-slate-100 px-2 py-1 text-sm dark:bg-slate-800">
                <span className="font-mono">{f.key}</span> · {f.label} · {f.type}
              </li>
            ))}
          </ul>
        )}
        {canChange ? <FieldForm /> : null}
      </CardSection>
    </div>
  );
}
