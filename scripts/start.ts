// `npm start`: a local SillyTavern on 127.0.0.1 with Tavern Agent installed (linked to this folder, so a
// rebuild shows up on reload) and the demo model server. Chats persist in .demo/ between starts; delete
// that folder to start the demo afresh. It says what it is doing while SillyTavern starts (the first start
// compiles SillyTavern's front end and takes a while), and opens on a chat with Seraphina. What the demo model
// does for each message: docs/demo.md.
import path from 'node:path';
import { startMockModel } from '../tests/harness/mock-model';
import { startSillyTavern, ST_VERSION } from '../tests/harness/st-server';
import { demoDelayMs, demoResponder } from './demo-model';
import { addDemoProfileToRunDir, demoExtensions, patchDemoSettings } from './demo-setup';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 8000);
const modelPort = Number(process.env.MODEL_PORT ?? 5005);
const runDir = path.join(root, '.demo');
const delayMs = demoDelayMs();

const say = (line: string) => console.log(`[tavern-agent demo] ${line}`);

const mock = await startMockModel({ port: modelPort });
mock.setResponder((request) => demoResponder(request, delayMs));
say(`Demo model listening on ${mock.openaiBaseUrl} (${delayMs} ms a turn; DEMO_DELAY_MS changes it).`);
say(`Starting SillyTavern ${ST_VERSION} on http://127.0.0.1:${port}/ with its data in ${path.relative(process.cwd(), runDir) || runDir}/ ...`);
say(`Its log: ${path.join(runDir, 'st.log')}`);
const began = Date.now();
// SillyTavern prints nothing until it listens; a line every 10 s says the wait is expected.
const ticker = setInterval(() => say(`Still starting SillyTavern (${Math.round((Date.now() - began) / 1000)} s; the first start compiles its front end, about a minute).`), 10_000);
let st: Awaited<ReturnType<typeof startSillyTavern>>;
addDemoProfileToRunDir(runDir);
try {
    st = await startSillyTavern({
        modelUrl: mock.url,
        port,
        persistentRunDir: runDir,
        linkExtensions: demoExtensions(root),
        // Written only on the first start; later starts keep what the user chose.
        patchSettings: patchDemoSettings,
    });
} catch (error) {
    clearInterval(ticker);
    await mock.close();
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
}
clearInterval(ticker);

console.log(`\nSillyTavern with Tavern Agent: ${st.url}/  (ready in ${Math.round((Date.now() - began) / 1000)} s)`);
console.log(`Demo model (OpenAI-compatible): ${mock.openaiBaseUrl}`);
console.log(`SillyTavern's log: ${st.logPath}`);
console.log('It opens on a chat with Seraphina: switch Agent Mode on (robot icon in the top bar, or /agent on) and send "help".');
console.log('What to type for each feature: docs/demo.md.');
console.log('To start the demo afresh, stop it and delete the .demo/ folder.');
console.log('Press Ctrl+C to stop.\n');

let stopping = false;
async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    say('Stopping SillyTavern and the demo model ...');
    await st.stop();
    await mock.close();
    process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
