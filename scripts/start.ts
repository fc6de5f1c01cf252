// `npm start`: a local SillyTavern on 127.0.0.1 with Tavern Agent installed (linked to this folder, so a
// rebuild shows up on reload) and the demo model server. Chats persist in .demo/ between starts.
import path from 'node:path';
import { startMockModel } from '../tests/harness/mock-model';
import { startSillyTavern } from '../tests/harness/st-server';
import { demoResponder } from './demo-model';

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.PORT ?? 8000);
const modelPort = Number(process.env.MODEL_PORT ?? 5005);

const mock = await startMockModel({ port: modelPort });
mock.setResponder(demoResponder);
const st = await startSillyTavern({
    modelUrl: mock.url,
    port,
    persistentRunDir: path.join(root, '.demo'),
    linkExtensions: [{ folder: 'tavern-agent', dir: root }],
});

console.log(`\nSillyTavern with Tavern Agent: ${st.url}/`);
console.log(`Demo model (OpenAI-compatible): ${mock.openaiBaseUrl}`);
console.log('Open a chat, switch Agent Mode on (robot icon in the top bar, or /agent on), and press Send.');
console.log('Press Ctrl+C to stop.\n');

let stopping = false;
async function stop(): Promise<void> {
    if (stopping) return;
    stopping = true;
    await st.stop();
    await mock.close();
    process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
