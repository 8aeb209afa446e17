// A schema refusal that carries its own contract code instead of VALIDATION_FAILED (e.g.
// DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND): a custom zod issue whose params name the code.
import type { z } from "zod";
import { ApiError, type ErrorCode } from "./errors";

export type CodedIssueParams = { errorCode: ErrorCode; details?: Record<string, unknown> };

const codeOf = (issue: z.core.$ZodIssue): CodedIssueParams | undefined =>
  issue.code === "custom" && (issue.params as Partial<CodedIssueParams> | undefined)?.errorCode
    ? (issue.params as CodedIssueParams)
    : undefined;

/** The coded refusal, when it is all that is wrong with the input (a malformed input stays VALIDATION_FAILED). */
export function codedRefusal(issues: readonly z.core.$ZodIssue[]): ApiError | undefined {
  const [first, ...rest] = issues;
  const coded = first ? codeOf(first) : undefined;
  if (!first || !coded || rest.some((i) => !codeOf(i))) return undefined;
  return new ApiError(coded.errorCode, first.message, { ...coded.details });
}

/** The issues a VALIDATION_FAILED answer lists: the coded ones are answered on their own. */
export const uncodedIssues = (issues: readonly z.core.$ZodIssue[]) => issues.filter((i) => !codeOf(i));
