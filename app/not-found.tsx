import Link from "next/link";

// Any path no page serves (proxy.ts sends only dashboard pages to the login).
export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-12 text-center">
      <p className="mb-6 text-2xl font-bold tracking-tight">Switchboard</p>
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">There is no page at this address.</p>
      <p className="mt-6 flex justify-center gap-4">
        <Link className="text-blue-700 underline dark:text-blue-400" href="/">
          Dashboard
        </Link>
        <Link className="text-blue-700 underline dark:text-blue-400" href="/docs/api">
          API reference
        </Link>
      </p>
    </main>
  );
}
