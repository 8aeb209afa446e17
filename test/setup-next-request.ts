// The setup of the "suite (next request)" project (vitest.config.ts): Next's request context as
// the shared double of test/next-request-double.ts, the same in every file of the project, so
// its files share a process. Runs before each file, after test/setup.ts.
import { vi } from "vitest";
import { resetNextRequest } from "./next-request-double";

// Each factory imports the double itself: vi.mock runs before this file's imports.
vi.mock("next/headers", async () => {
  const { nextRequest, noCookies } = await import("./next-request-double");
  return { headers: async () => nextRequest.headers, cookies: noCookies };
});
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));
vi.mock("next-auth", async (original) => {
  const { nextRequest } = await import("./next-request-double");
  return {
    ...(await original<typeof import("next-auth")>()),
    getServerSession: async (options: import("next-auth").NextAuthOptions) =>
      nextRequest.getServerSession ? nextRequest.getServerSession(options) : nextRequest.session,
  };
});
vi.mock("@/lib/dashboard/session", async (original) => {
  const { nextRequest } = await import("./next-request-double");
  const real = await original<typeof import("@/lib/dashboard/session")>();
  return {
    ...real,
    requireApiPrincipal: async () => {
      nextRequest.principalAsked += 1;
      return nextRequest.principal ?? real.requireApiPrincipal();
    },
    requirePrincipal: async () => nextRequest.principal ?? real.requirePrincipal(),
  };
});

resetNextRequest();
