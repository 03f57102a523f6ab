import { createEmailVerification } from '@mmw/core';
import type { Db } from '@mmw/db';
import type { MailTransport } from './mail-transport.ts';

/** Mails the user a link that proves their address; the link's token is in the mail alone. */
export async function sendVerificationMail(deps: { db: Db; mail: MailTransport }, origin: string, userId: string): Promise<void> {
  const { email, token } = await createEmailVerification(deps.db, userId);
  await deps.mail.send({
    to: email,
    subject: 'Verify your email address for MMW',
    text: `Open this link to verify ${email} for MMW (it works for 24 hours):\n\n${origin}/verify-email/${token}\n`,
  });
}
