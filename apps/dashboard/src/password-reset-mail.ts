import { PASSWORD_RESET_LIFETIME_MS, requestPasswordReset } from '@mmw/core';
import type { Db } from '@mmw/db';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from './mail-transport.ts';

/**
 * Mails a reset link when an account has the address. The caller answers the same whether or not
 * one does, and does not wait for the mail: the reply's timing says nothing about the address either.
 */
export async function sendPasswordResetMail(
  deps: { db: Db; mail: MailTransport },
  log: FastifyBaseLogger,
  origin: string,
  input: { email: string; address: string },
): Promise<void> {
  const reset = await requestPasswordReset(deps.db, { email: input.email }, { address: input.address });
  if (reset === undefined) return;
  const minutes = Math.round(PASSWORD_RESET_LIFETIME_MS / 60_000);
  void deps.mail
    .send({
      to: reset.email,
      subject: 'Reset your MMW password',
      text:
        `Someone (hopefully you) asked to reset the password of ${reset.email} on MMW. Open this link to choose a new one ` +
        `(it works once, for ${minutes} minutes; every session of the account ends):\n\n${origin}/reset-password/${reset.token}\n\n` +
        'If it was not you, ignore this mail: your password stays as it is.\n',
    })
    .catch((error: unknown) => log.error({ error: error instanceof Error ? error.name : 'unknown' }, 'the reset mail could not be sent'));
}
