import type { Metadata } from "next";
import { DataTable } from "@/components/dashboard/data-table";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { Pager } from "@/components/dashboard/pager";
import { CardSection } from "@/components/ui/card-section";
import { buttonSecondary, input, label, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { countOf } from "@/lib/core/count";
import { foundOr404 } from "@/lib/dashboard/found";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { can } from "@/lib/domains/auth/access";
import { getContactBook } from "@/lib/domains/contacts/books";
import { listContacts } from "@/lib/domains/contacts/contacts";
import { listContactFields } from "@/lib/domains/contacts/fields";
import { ContactListQuery } from "@/lib/domains/contacts/schemas";
import { toPublicContact, toPublicContactBook } from "@/lib/domains/contacts/serializers";
import { BookForm } from "../book-form";
import { BulkUpload } from "./bulk-upload";

export const metadata: Metadata = { title: "Contact book · Switchboard" };

type Props = { params: Promise<{ uid: string }>; searchParams: Promise<RawSearchParams> };

export default async function ContactBookPage({ params, searchParams }: Props) {
  const p = await requirePermission("contacts.read");
  const { uid } = await params;
  const sp = flatParams(await searchParams);
  const query = listQuery(ContactListQuery, sp);
  const [book, { contacts, pagination }, fields] = await foundOr404(
    Promise.all([getContactBook(p, uid).then(toPublicContactBook), listContacts(p, uid, query), listContactFields(p)]),
  );
  const rows = contacts.map(toPublicContact);
  const fieldKeys = fields.map((f) => f.key);
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/contacts" backLabel="All contact books" title={book.name}>
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="contact-count">
          {countOf(book.contactCount, "contact")} · {book.status}
        </p>
      </SubpageHeader>
      {can(p, "contacts.write") ? (
        <>
          <CardSection id="edit-book" title="Book details">
            <BookForm book={book} />
          </CardSection>
          <CardSection id="upload" title="Bulk upload">
            <BulkUpload bookUid={uid} fields={fields.map((f) => ({ key: f.key, label: f.label, type: f.type }))} />
          </CardSection>
        </>
      ) : null}
      <section aria-labelledby="contacts">
        <h2 id="contacts" className="mb-3 text-lg font-semibold">
          Contacts
        </h2>
        <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="contact-search" className={label}>
              Search phone, name or email
            </label>
            <input id="contact-search" name="search" defaultValue={sp.search ?? ""} className={input} />
          </div>
          <button type="submit" className={buttonSecondary}>
            Search
          </button>
        </form>
        <DataTable
          label="Contacts"
          columns={[
            { key: "phone", label: "Phone number" },
            { key: "name", label: "Name" },
            { key: "email", label: "Email" },
            ...fieldKeys.map((k) => ({ key: `field:${k}`, label: k })),
          ]}
          rowCount={rows.length}
          empty={<EmptyState title="No contacts here yet">Upload a CSV or JSON file above.</EmptyState>}
        >
          {rows.map((c) => (
            <tr key={c.uid} data-testid="contact-row">
              <td className={`${td} font-mono`}>{c.phoneNumber}</td>
              <td className={td}>{c.name ?? "—"}</td>
              <td className={td}>{c.email ?? "—"}</td>
              {fieldKeys.map((k) => (
                <td key={k} className={td}>
                  {c.customFields[k] === undefined ? "—" : String(c.customFields[k])}
                </td>
              ))}
            </tr>
          ))}
        </DataTable>
        <Pager path={`/contacts/${uid}`} params={sp} pagination={pagination} />
      </section>
    </div>
  );
}
