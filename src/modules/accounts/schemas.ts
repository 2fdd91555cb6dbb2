// Request bodies of the auth group, shared by the JSON routes and the console's forms.
import { z } from "@hono/zod-openapi";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../access/password";

export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH)
  .max(PASSWORD_MAX_LENGTH)
  .openapi({ description: `At least ${PASSWORD_MIN_LENGTH} characters.` });
export const Email = z.email().max(254).openapi({ example: "ana@example.com.br" });

export const User = z
  .object({ id: z.uuid(), object: z.literal("user"), email: z.string(), name: z.string(), createdAt: z.string() })
  .openapi("User");
export const SignUpBody = z
  .strictObject({
    email: Email,
    password: Password,
    name: z.string().trim().min(1).max(100),
    organizationName: z.string().trim().min(1).max(100),
  })
  .openapi("SignUp");
export const LoginBody = z.strictObject({ email: Email, password: z.string().min(1).max(PASSWORD_MAX_LENGTH) }).openapi("Login");
export const PasswordBody = z
  .strictObject({ currentPassword: z.string().min(1).max(PASSWORD_MAX_LENGTH), newPassword: Password })
  .openapi("ChangePassword");
