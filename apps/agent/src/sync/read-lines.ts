import { open } from 'node:fs/promises';

/** A complete line of a file (ending in a newline), or the note that it was skipped. */
export interface FileLine {
  /** The line without its newline; undefined when it was skipped. */
  text: string | undefined;
  /** Byte offset just past the line's newline: where the next read starts. */
  end: number;
  /** Why the line was skipped. */
  skipped?: string;
}

export const MAX_LINE_BYTES = 8 * 1024 * 1024;
const NEWLINE = 0x0a;
const CHUNK_BYTES = 64 * 1024;

/**
 * The complete lines of a file from a byte offset, read through one reused buffer: memory holds
 * that buffer and at most one line of up to maxLineBytes (a longer line is skipped as it streams
 * past). A last line without its newline is not yielded: it may still be being written, and is
 * read on a later pass.
 */
export async function* readLines(
  path: string,
  from: number,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<FileLine> {
  const handle = await open(path, 'r');
  const chunk = Buffer.alloc(CHUNK_BYTES);
  let parts: Buffer[] = [];
  let held = 0;
  let oversized = false;
  let position = from;
  try {
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) return;
      const data = chunk.subarray(0, bytesRead);
      let start = 0;
      for (let at = data.indexOf(NEWLINE); at >= 0; at = data.indexOf(NEWLINE, start)) {
        const piece = data.subarray(start, at);
        const end = position + at + 1;
        if (oversized || held + piece.length > maxLineBytes) {
          yield {
            text: undefined,
            end,
            skipped: `a line longer than ${Math.round(maxLineBytes / 1024 / 1024)} MB`,
          };
        } else {
          const line = Buffer.concat([...parts, piece]);
          yield line.includes(0)
            ? { text: undefined, end, skipped: 'a line with binary content' }
            : { text: line.toString('utf8'), end };
        }
        parts = [];
        held = 0;
        oversized = false;
        start = at + 1;
      }
      const rest = data.subarray(start);
      if (!oversized && held + rest.length > maxLineBytes) {
        oversized = true;
        parts = [];
        held = 0;
      }
      if (!oversized && rest.length > 0) {
        parts.push(Buffer.from(rest));
        held += rest.length;
      }
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** The first bytes of a file (up to length). */
export async function readHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A file that is not text: NUL bytes or invalid UTF-8 in its first bytes. */
export function looksBinary(head: Buffer): boolean {
  if (head.includes(0)) return true;
  // A character cut at the end of the head is not an error.
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(
    head.subarray(0, Math.max(0, head.length - 4)),
  );
  return decoded.includes('\uFFFD');
}
