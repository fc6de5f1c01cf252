// `npm run test:st118`: the end-to-end suite against SillyTavern 1.18.0 (the `sillytavern-1.18` npm alias)
// instead of the default 1.19. Extra paths run just those files: `npm run test:st118 -- tests/e2e/x.test.ts`.
// CI runs 1.19 only (a second full pass would double its time); run this before a release or after touching
// code that reaches into SillyTavern.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const result = spawnSync(process.execPath, [path.join(here, 'test.mjs'), ...(args.length ? args : ['e2e'])], {
    stdio: 'inherit',
    env: { ...process.env, TAVERN_AGENT_ST_PACKAGE: 'sillytavern-1.18' },
});
process.exit(result.status ?? 1);
