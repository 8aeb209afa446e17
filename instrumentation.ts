// Runs once when the Next server starts (next start, next dev).
export async function register(): Promise<void> {
  // The Node.js runtime only: the client address of every request, signed for the route
  // handlers, server actions and next-auth (lib/core/client-ip.ts).
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { stampClientAddresses } = await import("@/lib/http/client-address");
    stampClientAddresses();
  }
}
