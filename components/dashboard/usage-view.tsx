// API usage of a token or the whole account (docs/tokens.md "Usage"): requests per hour
// over 30 days (the shared stacked chart: ok / errors), the error rate, the last 100 requests.

import { CostChart } from "@/components/dashboard/cost-chart";
import { DataTable } from "@/components/dashboard/data-table";
import { card, td } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { countOf } from "@/lib/core/count";
import type { TokenUsage } from "@/lib/domains/tokens/usage";

export function UsageView({ usage, tokenNames }: { usage: TokenUsage; tokenNames?: Map<string, string> }) {
  const series = usage.hours.flatMap((h) => {
    const label = `${h.hour.slice(0, 13).replace("T", " ")}h`;
    return [
      { day: label, category: "ok", cost: h.requests - h.errors, messages: h.requests - h.errors },
      { day: label, category: "errors", cost: h.errors, messages: h.errors },
    ];
  });
  const { requests, errors, errorRate } = usage.totals;
  return (
    <div className="space-y-6">
      <section className={card} aria-labelledby="usage-chart">
        <h2 id="usage-chart" className="mb-1 text-lg font-semibold">
          Requests per hour, last 30 days
        </h2>
        <p className="mb-3 text-sm" data-testid="usage-totals">
          {requests} requests, {errors} errors ({(errorRate * 100).toFixed(1)}% error rate)
        </p>
        <CostChart
          data={series}
          currency=""
          unit="requests"
          integer
          description={`API requests per hour over 30 days: ${requests} requests, ${errors} errors`}
          empty="No API requests in the last 30 days."
        />
      </section>
      <section aria-labelledby="usage-recent">
        <h2 id="usage-recent" className="mb-3 text-lg font-semibold">
          Last {countOf(usage.recent.length, "request")}
        </h2>
        <DataTable
          label="Recent requests"
          columns={[
            { key: "time", label: "Time" },
            ...(tokenNames ? [{ key: "token", label: "Token" }] : []),
            { key: "method", label: "Method" },
            { key: "path", label: "Path" },
            { key: "status", label: "Status" },
            { key: "latency", label: "Latency" },
            { key: "ip", label: "Client IP" },
            { key: "request", label: "Request id" },
          ]}
          rowCount={usage.recent.length}
          empty={<p className="text-sm">No requests recorded yet.</p>}
        >
          {usage.recent.map((r) => (
            <tr key={r.requestId} data-testid="usage-row">
              <td className={td}>{formatDateTime(r.at)}</td>
              {tokenNames && <td className={td}>{tokenNames.get(r.tokenId) ?? r.tokenId}</td>}
              <td className={td}>{r.method}</td>
              <td className={`${td} font-mono break-all`}>{r.path}</td>
              <td className={td}>{r.status}</td>
              <td className={td}>{r.latencyMs} ms</td>
              <td className={`${td} font-mono`}>{r.clientIp}</td>
              <td className={`${td} font-mono`}>{r.requestId}</td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}
