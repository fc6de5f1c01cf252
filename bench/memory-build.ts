// 19. Building memory from a long chat (issue 37 §3): `/agent memory build` over a 2,000-message chat in real
// SillyTavern with the instant mock model (one memory-keeper round per 40-message chunk: a scene, a pinned block,
// finish). Reported: the wall time per chunk beyond model time (the chunk's dry run of SillyTavern's prompt
// assembly, its run in the worker, the job's writes), and the page's long tasks meanwhile. Measured, never asserted
// beyond the long-task target.
import path from 'node:path';
import { call, calls } from '../tests/harness/agent';
import type { MockTurn, RecordedRequest } from '../tests/harness/mock-model';
import { slash } from '../tests/harness/tavern';
import { writeChatFile, type FixtureMessage } from '../tests/fixtures/chat-files';
import { collectFrameProbe, installFrameProbe, type FrameProbeResult } from './lib/probes';
import type { Benchmark } from './lib/report';
import { median } from './lib/stats';

const MESSAGES = 2_000;
const CHARS = 300;
const CHUNK = 40;
const CHAT_NAME = 'Bench 2k memory build';

function longChat(): FixtureMessage[] {
    const words = 'the lantern swings in the cold wind while the travellers argue about the road north and the price of bread'.split(' ');
    return Array.from({ length: MESSAGES }, (_, i) => {
        let text = `${i}:`;
        for (let w = 0; text.length < CHARS; w += 1) text += ` ${words[(i * 7 + w * 3) % words.length]}`;
        return { name: i % 2 ? 'Tester' : 'Seraphina', is_user: i % 2 === 1, mes: text };
    });
}

const chunkOf = (request: RecordedRequest): number | null => Number(/This run is chunk (\d+) of \d+/.exec(String(request.body?.messages?.[0]?.content ?? ''))?.[1] ?? NaN) || null;

/** The instant keeper: one round per chunk. */
function keeper(request: RecordedRequest): MockTurn | undefined {
    const chunk = chunkOf(request);
    if (chunk === null) return undefined;
    return calls(
        call('workspace_write_file', { path: `persist/scenes/${String(chunk).padStart(4, '0')}.md`, content: `---\ntitle: Scene ${chunk}\npinned: false\n---\nThe travellers argued about the road north (chunk ${chunk}).` }),
        call('workspace_write_file', { path: 'persist/characters.md', content: `---\ntitle: Characters\npinned: true\n---\nSeraphina and the Tester, as of chunk ${chunk}.` }),
        call('workspace_finish', {}),
    );
}

interface Status {
    state: string;
    done: number;
    chunks: number;
}

export const memoryBuild: Benchmark = {
    name: 'memory-build',
    title: '19 Building memory from a 2,000-message chat',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        writeChatFile(path.join(tavern.st.userDir, 'chats', 'default_Seraphina', `${CHAT_NAME}.jsonl`), longChat());
        const { page, context } = await tavern.openChat();
        try {
            await page.evaluate((name) => SillyTavern!.getContext().openCharacterChat(name), CHAT_NAME);
            await page.waitForFunction((n) => SillyTavern!.getContext().chat.length >= n, MESSAGES, { timeout: 120_000 });
            tavern.mock.reset();
            tavern.mock.setResponder(keeper);
            // The worker starts with the first chunk: started here first, so its start-up is not a chunk's.
            await page.evaluate(() => globalThis.TavernAgent!.health());
            const since = await page.evaluate(installFrameProbe);
            const started = Date.now();
            const first = JSON.parse(await slash(page, '/agent memory build restart')) as Status;
            if (first.chunks !== MESSAGES / CHUNK) throw new Error(`expected ${MESSAGES / CHUNK} chunks, got ${JSON.stringify(first)}`);
            let status: Status | null = first;
            while (status?.state !== 'finished') {
                await page.waitForTimeout(500);
                status = await page.evaluate(() => globalThis.TavernAgent!.memory.buildStatus());
                if (!status || status.state === 'failed' || status.state === 'stopped') throw new Error(`the build ended as ${JSON.stringify(status)}`);
                if (status.done % 10 === 0) log(`  ${status.done}/${status.chunks} chunks after ${((Date.now() - started) / 1000).toFixed(0)} s`);
            }
            const wallMs = Date.now() - started;
            await page.waitForTimeout(300); // long-task entries are reported after their task
            const probe: FrameProbeResult = await page.evaluate(collectFrameProbe, since);
            const requests = tavern.mock.generations().filter((request) => chunkOf(request) !== null);
            if (requests.length !== first.chunks) throw new Error(`${requests.length} chunk requests for ${first.chunks} chunks`);
            const modelMs = requests.reduce((sum, request) => sum + ((request.endedAt ?? request.at) - request.at), 0);
            // Per chunk: the time from one chunk's model request to the next one's, less the first's time in flight.
            const gaps = requests.slice(1).map((request, i) => request.at - requests[i]!.at - ((requests[i]!.endedAt ?? requests[i]!.at) - requests[i]!.at));
            const perChunk = (wallMs - modelMs) / first.chunks;
            const longTaskMs = probe.longTasks.reduce((sum, task) => sum + task.duration, 0);
            log(`  ${first.chunks} chunks in ${(wallMs / 1000).toFixed(1)} s, model ${modelMs} ms; ${perChunk.toFixed(0)} ms per chunk beyond model time (median gap ${median(gaps).toFixed(0)} ms); long tasks ${probe.longTasks.length} (${longTaskMs.toFixed(0)} ms)`);
            return {
                figures: [
                    { id: 'memory-build.per-chunk', label: `Each ${CHUNK}-message chunk of a ${MESSAGES.toLocaleString('en-US')}-message chat's memory build, beyond model time (mean)`, value: perChunk, unit: 'ms' },
                    { id: 'memory-build.per-chunk.median', label: '… from one chunk’s model request to the next, less model time (median)', value: median(gaps), unit: 'ms' },
                    { id: 'memory-build.wall', label: `… the whole build (${first.chunks} chunks)`, value: wallMs, unit: 'ms' },
                    { id: 'memory-build.long-tasks', label: '… long tasks (> 50 ms) on the page meanwhile', value: probe.longTasks.length, unit: '', target: '0', met: probe.longTasks.length === 0 },
                    { id: 'memory-build.long-task-ms', label: '… their total time', value: longTaskMs, unit: 'ms' },
                ],
                details: { messages: MESSAGES, charsPerMessage: CHARS, chunk: CHUNK, chunks: first.chunks, wallMs, modelMs, gaps, longTasks: probe.longTasks },
                notes: [
                    `A ${MESSAGES.toLocaleString('en-US')}-message chat (about ${CHARS} characters each) written as a SillyTavern chat file and opened; \`/agent memory build\` with the memory keeper's default chunk of ${CHUNK}; the instant mock answers each chunk run in one round (a scene file, the pinned characters block, finish). Wall time from the command to the job's \`finished\` (polled every 500 ms, so up to that much is the poll's), less each request's time in flight at the mock. Each chunk: a dry run of SillyTavern's prompt assembly over the chat up to the chunk (its input), the run in the worker (journal, workspace, persist state in IndexedDB), the job stored in IndexedDB twice, and the seed written into the chat's metadata once at the end. Long tasks: the Long Tasks API on the page from the command to the end; the worker's own work is off the page.`,
                ],
            };
        } finally {
            await context.close().catch(() => undefined);
        }
    },
};
