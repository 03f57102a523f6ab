import { z } from 'zod';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'enter a valid email address' }).max(254));

export const signUpInputSchema = z.object({
  email: emailSchema,
  password: z.string().max(1024),
  name: z.string().trim().max(100).optional(),
});
export type SignUpInput = z.infer<typeof signUpInputSchema>;

export const signInInputSchema = z.object({
  email: emailSchema,
  password: z.string().max(1024),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

export const sessionUserSchema = z.object({ id: z.string(), email: z.string(), name: z.string().nullable(), emailVerified: z.boolean() });
