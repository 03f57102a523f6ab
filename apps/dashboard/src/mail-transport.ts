import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Where the dashboard's mail goes: SMTP in production, files on the developer's machine otherwise. */
export interface MailTransport {
  send(mail: Mail): Promise<void>;
}

/** SMTP through nodemailer, from SMTP_URL (credentials in the URL, never logged). */
export function smtpTransport(url: string, from: string): MailTransport {
  // nodemailer's own connection, greeting and socket timeouts bound every send.
  const transporter = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transporter.sendMail({ from, ...mail });
    },
  };
}

/**
 * Development: each mail is a file of its own, readable by its owner alone, and the log says where
 * (at info), never what: the links in a mail are secrets.
 */
export function fileTransport(dir: string, log: FastifyBaseLogger): MailTransport {
  return {
    async send(mail) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.txt`);
      writeFileSync(file, `To: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n`, { mode: 0o600 });
      log.info({ file }, 'mail written to a file (no SMTP_URL set): open it to follow its link');
      await Promise.resolve();
    },
  };
}
