"use server";
import { defineAction } from "@/lib/dashboard/define-action";
import { setCsatSetting } from "@/lib/domains/support/csat";
import { CsatSettingBody } from "@/lib/domains/support/csat-schemas";

/** The CSAT survey setting (docs/reports.md "CSAT"); the service checks the role again. */
export const setCsatAction = defineAction({
  permission: "reports",
  schema: CsatSettingBody,
  run: async ({ principal, input }) => {
    await setCsatSetting(principal, input);
  },
  revalidate: "/reports/csat",
});
