// Dashboard login and sign-up input: shared by the next-auth provider and the forms.
import { z } from "zod";

export const LoginInput = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid email address"),
  password: z.string().min(1, "Enter your password"),
});

export const SignupInput = z.object({
  company: z.string().trim().min(2, "Company name must be at least 2 characters").max(120),
  name: z.string().trim().max(120).optional(),
  email: z.string().trim().toLowerCase().email("Enter a valid email address"),
  password: z.string().min(10, "Use at least 10 characters").max(200),
});
export type SignupInputValue = z.infer<typeof SignupInput>;
