import type { MailTransport } from './mail-transport.ts';
import type { InvitationNotifier } from './trpc/context.ts';

/** The invitee gets the link by mail; the admin sees it on the page too. No log line carries it. */
export function invitationMailer(mail: MailTransport): InvitationNotifier {
  return {
    invitationCreated: ({ email, accountName, link }) =>
      mail.send({
        to: email,
        subject: `You are invited to ${accountName} on MMW`,
        text: `You are invited to join ${accountName} on MMW. Open this link to accept (it works for 7 days):\n\n${link}\n`,
      }),
  };
}
