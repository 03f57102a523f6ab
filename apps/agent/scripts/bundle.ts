/**
 * Bundles the agent into one file with no runtime dependencies (the MCP SDK, zod, the Guard's
 * secret redaction and its rules all inside), so the packed tarball runs with Node.js alone.
 */
import { chmod } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = `${root}dist/mmw-agent.js`;

await build({
  entryPoints: [`${root}src/main.ts`],
  outfile,
  bundle: true,
  platform: 'node',
  // The workspace packages export their TypeScript sources under this condition.
  conditions: ['development'],
  target: 'node20',
  format: 'esm',
  minify: false,
  legalComments: 'linked',
  // Bundled CommonJS modules call require(); an ES module has none of its own.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __mmwCreateRequire } from 'node:module';\nconst require = __mmwCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
await chmod(outfile, 0o755);
process.stdout.write(`bundled ${outfile}\n`);
