// The display name of a customer's resource (webhook destinations, chatbots): 1-100
// characters after trimming, no control characters.
import { z } from "zod";
import { hasNoControlChars } from "./storable-text";

export const ResourceName = z
  .string({ error: "name must be a string" })
  .trim()
  .min(1, "name is required")
  .max(100, "name must be at most 100 characters")
  .refine((v) => hasNoControlChars(v), "name must not contain control characters");
