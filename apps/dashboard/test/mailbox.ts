import type { MailTransport } from '../src/mail-transport.ts';

export interface Mailbox {
  transport: MailTransport;
  mails: Array<{ to: string; subject: string; text: string }>;
  /** The last link of the given kind mailed to the address ('/verify-email/' or '/invite/'). */
  lastLink(to: string, kind: string): string;
}

/** A mail transport that keeps what it is given, as an inbox would. */
export function mailbox(): Mailbox {
  const mails: Mailbox['mails'] = [];
  return {
    mails,
    transport: { send: async (mail) => void mails.push(mail) },
    lastLink(to, kind) {
      for (const mail of [...mails].reverse()) {
        if (mail.to !== to) continue;
        const link = mail.text.split(/\s+/).find((word) => word.includes(kind));
        if (link) return link;
      }
      throw new Error(`no ${kind} link was mailed to ${to}`);
    },
  };
}
