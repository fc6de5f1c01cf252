// IndexedDB bytes per run for a 2,000-message chat, before and after storing snapshots once per content
// hash (store/content-chunks.ts). Ten runs, one per turn (the chat grows by two messages a turn); each
// stores the frozen chat and prompt as prepare-run does. "Before" is what the old path stored per run
// (both files whole); "after" is what each run adds to the database (records measured as JSON).
// Run: node --import tsx bench/storage-bytes.ts
import 'fake-indexeddb/auto';
import { openTavernAgentDb } from '../src/store/db';
import { createIdbRunStorage } from '../src/store/idb-run-storage';

const MESSAGES = 2000;
const RUNS = 10;

function message(index: number) {
    const words = 'the lantern swings in the cold wind while the travellers argue about the road north and the price of bread'.split(' ');
    const text = Array.from({ length: 90 }, (_, i) => words[(index * 7 + i * 3) % words.length]).join(' ');
    return { index, role: index % 2 ? 'user' : 'assistant', name: index % 2 ? 'Tester' : 'Seraphina', text: `${index}: ${text}`, hidden: false, agentRunId: null };
}

async function storedChars(db: Awaited<ReturnType<typeof openTavernAgentDb>>): Promise<number> {
    let total = 0;
    for (const store of ['files', 'chunks', 'chunkRefs'] as const) for (const value of await db.getAll(store)) total += JSON.stringify(value).length;
    return total;
}

async function main(): Promise<void> {
    const db = await openTavernAgentDb(`bench-storage-${process.pid}`);
    const storage = createIdbRunStorage(db);
    const rows: string[] = [];
    let before = 0;
    let previous = 0;
    for (let run = 0; run < RUNS; run += 1) {
        const prefix = Array.from({ length: MESSAGES + run * 2 }, (_, i) => message(i));
        const chat = JSON.stringify({ chat: { chatId: 'Seraphina - 1', integrity: 'chat-1' }, prefix }, null, 1);
        const prompt = JSON.stringify([{ role: 'system', content: 'You are Seraphina.' }, ...prefix.map((m) => ({ role: m.role, content: m.text }))], null, 1);
        const runId = `run-${run}`;
        await storage.putFile({ v: 1, runId, path: 'input/chat.json', content: chat, version: 0, updatedAt: 0 });
        await storage.putFile({ v: 1, runId, path: 'input/prompt.json', content: prompt, version: 0, updatedAt: 0 });
        const now = await storedChars(db);
        const whole = chat.length + prompt.length;
        before += whole;
        rows.push(`| ${run + 1} | ${prefix.length} | ${(whole / 1e6).toFixed(2)} MB | ${((now - previous) / 1e6).toFixed(3)} MB |`);
        previous = now;
    }
    process.stdout.write(
        `| run | messages | before: stored per run | after: added per run |\n|---|---|---|---|\n${rows.join('\n')}\n\n` +
            `Total for ${RUNS} runs: before ${(before / 1e6).toFixed(1)} MB, after ${(previous / 1e6).toFixed(1)} MB.\n`,
    );
}

void main();
