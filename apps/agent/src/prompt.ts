import { createInterface } from 'node:readline';

export interface Prompt {
  /** Asks one question and returns the line typed, trimmed ('' once input has ended). */
  ask(question: string): Promise<string>;
  close(): void;
}

/** Questions on the terminal (or whatever standard input is): one reader for all of a command's questions. */
export function openPrompt(): Prompt {
  const reader = createInterface({ input: process.stdin, terminal: false });
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let ended = false;
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line.trim());
    else lines.push(line.trim());
  });
  reader.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next('');
  });
  return {
    ask(question) {
      process.stdout.write(question);
      const line = lines.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve('');
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => reader.close(),
  };
}
