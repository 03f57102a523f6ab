import { AppError } from '../errors.ts';
import { MAX_LINE_BYTES } from './export-format.ts';

/**
 * The lines of a stream of bytes or text, without their line ends. A line longer than the limit is
 * an error before more of it is held: memory stays bounded by one line and one chunk.
 */
export async function* readLines(
  chunks: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  maxLineBytes = MAX_LINE_BYTES,
): AsyncGenerator<string> {
  let pending = Buffer.alloc(0);
  let number = 0;
  const tooLong = () =>
    new AppError('invalid_input', `line ${number + 1} is longer than ${maxLineBytes} bytes: this is not an MMW export`);
  for await (const chunk of chunks) {
    pending = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk]);
    let start = 0;
    for (let end = pending.indexOf(0x0a, start); end !== -1; end = pending.indexOf(0x0a, start)) {
      if (end - start > maxLineBytes) throw tooLong();
      number += 1;
      yield pending.toString('utf8', start, end).replace(/\r$/, '');
      start = end + 1;
    }
    pending = pending.subarray(start);
    if (pending.length > maxLineBytes) throw tooLong();
  }
  if (pending.length > 0) yield pending.toString('utf8').replace(/\r$/, '');
}
