import { connect, createServer, type Socket } from 'node:net';

export interface CommitDroppingProxy {
  /** The URL of a database reached through the proxy. */
  urlOf(databaseUrl: string): string;
  /**
   * On the next connection whose client sends `marker` (a statement's name or text), that statement
   * reaches PostgreSQL up to its Sync (outside a transaction, it commits there), and the connection
   * is cut before its answer comes back: a commit acknowledgement lost on the network.
   */
  dropAnswerOf(marker: string): void;
  /** How many commits were dropped so far. */
  dropped(): number;
  close(): Promise<void>;
}

/** The extended protocol's Sync message: where a statement outside a transaction commits. */
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** A TCP proxy in front of PostgreSQL that can lose one commit's acknowledgement. */
export async function startCommitDroppingProxy(databaseUrl: string): Promise<CommitDroppingProxy> {
  const target = new URL(databaseUrl);
  let armed: Buffer | undefined;
  let dropped = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let marked = false;
    client.on('data', (chunk: Buffer) => {
      if (armed && !marked && chunk.includes(armed)) {
        marked = true;
        armed = undefined;
      }
      if (marked && chunk.includes(SYNC)) {
        dropped++;
        // PostgreSQL reads the statement before the end of the stream, so it commits; the client
        // never hears of it.
        upstream.end(chunk);
        client.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', closeBoth).on('close', () => upstream.end());
    upstream.on('error', closeBoth).on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    urlOf(url) {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(address.port);
      return through.toString();
    },
    dropAnswerOf(marker) {
      armed = Buffer.from(marker);
    },
    dropped: () => dropped,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
