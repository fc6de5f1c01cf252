// 1. Chat writes and time per tool round: Agent Mode beside SillyTavern's built-in tool calling, N = 0, 1, 5, 20.
import type { Page, Request } from 'playwright-core';
import { agentOn, call, calls } from '../tests/harness/agent';
import type { MockModel, MockTurn } from '../tests/harness/mock-model';
import { devtoolsNetworkOff, recordPostBodies } from './lib/devtools-network';
import { ratioOf, type Benchmark, type Figure } from './lib/report';
import { median } from './lib/stats';
import { BUILT_IN_RECURSE_LIMIT, newChat } from './lib/tavern';
import { measureTurn, type TurnMeasure } from './lib/turn';

const ROUNDS = [0, 1, 5, 20] as const;
/** Repeats per N: the short turns are noisier and cheap, so they get more. */
const REPEATS: Record<number, number> = { 0: 6, 1: 6, 5: 4, 20: 3 };
const TOOL_NAME = 'bench_lookup';
const REPLY = 'The forest is quiet tonight.';

type Path = 'builtin' | 'agent';

/** `BENCH_PANEL=open` runs the figure with the side panel open (the timeline live), as a user watching a run has it. */
const PANEL_OPEN = process.env.BENCH_PANEL === 'open';
/** Under `npm run bench:no-devtools-network` Playwright sees no requests: saves are not counted, model request bodies are recorded in the page. */
const NETWORK_OFF = devtoolsNetworkOff();
const GENERATE_URL = '/api/backends/chat-completions/generate';

/** The built-in path: function calling on, one registered tool that answers at once, recursion limit raised. */
async function prepareBuiltIn(page: Page): Promise<void> {
    await page.evaluate(
        ({ name, limit }) => {
            const ctx = SillyTavern!.getContext() as unknown as {
                chatCompletionSettings: Record<string, unknown>;
                ToolManager: { RECURSE_LIMIT: number; tools: Array<{ toFunctionOpenAI(): { function: { name: string } } }> };
                registerFunctionTool(tool: Record<string, unknown>): void;
            };
            ctx.chatCompletionSettings.function_calling = true;
            ctx.chatCompletionSettings.tool_call_recurse_limit = limit;
            ctx.ToolManager.RECURSE_LIMIT = limit;
            ctx.registerFunctionTool({
                name,
                displayName: 'Bench lookup',
                description: 'Looks up one fact for the benchmark.',
                parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { query: { type: 'string', description: 'What to look up.' } }, required: ['query'] },
                action: async ({ query }: { query: string }) => `A fact about ${query}.`,
                // No toast per call: the lightest a tool can be.
                formatMessage: () => '',
            });
        },
        { name: TOOL_NAME, limit: BUILT_IN_RECURSE_LIMIT },
    );
}

async function setFunctionCalling(page: Page, on: boolean): Promise<void> {
    await page.evaluate((value) => {
        (SillyTavern!.getContext() as unknown as { chatCompletionSettings: Record<string, unknown> }).chatCompletionSettings.function_calling = value;
    }, on);
}

/** One bare non-streaming request through SillyTavern's backend to the instant mock: the floor of any tool round. */
async function bareBackendRequests(page: Page, mock: MockModel, count: number): Promise<number[]> {
    const body = await page.evaluate(() => {
        const settings = (SillyTavern!.getContext() as unknown as { chatCompletionSettings: Record<string, unknown> }).chatCompletionSettings;
        return JSON.stringify({
            chat_completion_source: 'custom',
            custom_url: settings.custom_url,
            model: settings.custom_model,
            messages: [{ role: 'user', content: 'Hello.' }],
            max_tokens: 16,
            stream: false,
        });
    });
    return replayedRequests(page, mock, [body], count);
}

/**
 * The agent's own model requests replayed bare through SillyTavern's backend, each `repeats` times, one after
 * another: the same bodies (the Writer's tool definitions, the growing conversation), without the page's part
 * of a round. Its median is the floor of the agent's round on this machine, as `bareBackendRequests` is of any round.
 */
async function replayedRequests(page: Page, mock: MockModel, bodies: string[], repeats: number): Promise<number[]> {
    mock.reset();
    return page.evaluate(
        async ({ list, times }) => {
            const headers = SillyTavern!.getContext().getRequestHeaders();
            const samples: number[] = [];
            for (let i = 0; i < times; i += 1) {
                for (const body of list) {
                    const started = performance.now();
                    const response = await fetch('/api/backends/chat-completions/generate', { method: 'POST', headers, body });
                    await response.json();
                    samples.push(performance.now() - started);
                }
            }
            return samples;
        },
        { list: bodies, times: repeats },
    );
}

function script(path: Path, rounds: number): MockTurn[] {
    if (path === 'builtin') {
        return [...Array.from({ length: rounds }, (_, i) => calls(call(TOOL_NAME, { query: `fact ${i + 1}` }))), { text: REPLY }];
    }
    return [
        ...Array.from({ length: rounds }, () => calls(call('workspace_list_files', {}))),
        calls(call('workspace_write_file', { path: 'output/main.md', content: REPLY }), call('workspace_commit', {}), call('workspace_finish', {})),
    ];
}

interface Turn extends TurnMeasure {
    generations: number;
    /** The bodies of the turn's model requests as the page sent them to SillyTavern (its tool rounds' first). */
    requestBodies: string[];
    /** Gaps between consecutive model requests while tools were being called: one whole tool round each. */
    roundGapsMs: number[];
}

async function oneTurn(page: Page, mock: MockModel, path: Path, rounds: number): Promise<Turn> {
    await newChat(page);
    if (path === 'agent') {
        await setFunctionCalling(page, false);
        await agentOn(page);
        if (PANEL_OPEN && !(await page.locator('aside.tavern-agent').count())) {
            await page.click('#tavern_agent_button .drawer-icon');
            await page.locator('aside.tavern-agent').waitFor();
        }
    } else {
        await setFunctionCalling(page, true);
    }
    // Let the saves of switching chats and Agent Mode land before counting.
    await page.waitForTimeout(150);
    mock.reset();
    mock.enqueue(...script(path, rounds));
    const requestBodies: string[] = [];
    const onRequest = (request: Request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === GENERATE_URL) requestBodies.push(request.postData() ?? '');
    };
    const recorded = NETWORK_OFF ? await recordPostBodies(page, GENERATE_URL) : null;
    await recorded?.take();
    page.on('request', onRequest);
    const measured = await measureTurn(page, 'Tell me about the forest.').finally(() => page.off('request', onRequest));
    if (recorded) requestBodies.push(...(await recorded.take()));
    if (measured.wallMs <= 0) throw new Error(`${path} N=${rounds}: the turn's end was not seen`);
    const requests = mock.generations();
    const generations = requests.length;
    const roundGapsMs = requests.slice(1).map((r, i) => r.at - requests[i]!.at);
    if (generations !== rounds + 1) throw new Error(`${path} N=${rounds}: ${generations} model calls, expected ${rounds + 1}`);
    const last = await page.evaluate(() => SillyTavern!.getContext().chat.at(-1)?.mes ?? '');
    if (last !== REPLY) throw new Error(`${path} N=${rounds}: the turn ended with ${JSON.stringify(last.slice(0, 80))}, not the scripted reply`);
    return { ...measured, generations, roundGapsMs, requestBodies };
}

/** The samples without their request bodies (tens of KB each), for the results file. */
function stripBodies(samples: Record<Path, Record<number, Turn[]>>) {
    return Object.fromEntries(
        Object.entries(samples).map(([path, byRounds]) => [path, Object.fromEntries(Object.entries(byRounds).map(([n, turns]) => [n, turns.map(({ requestBodies, ...turn }) => ({ ...turn, requests: requestBodies.length }))]))]),
    );
}

export const chatWrites: Benchmark = {
    name: 'chat-writes',
    title: '1 Chat writes per turn',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        const { page, context } = await tavern.openChat();
        try {
            await prepareBuiltIn(page);
            const samples: Record<Path, Record<number, Turn[]>> = { builtin: {}, agent: {} };
            // Warm-up turn per path (first-run costs: the worker starts on the first agent run).
            await oneTurn(page, tavern.mock, 'builtin', 1);
            await oneTurn(page, tavern.mock, 'agent', 1);
            for (let repeat = 0; repeat < Math.max(...Object.values(REPEATS)); repeat += 1) {
                for (const rounds of ROUNDS.filter((n) => repeat < REPEATS[n]!)) {
                    for (const path of ['builtin', 'agent'] as const) {
                        const turn = await oneTurn(page, tavern.mock, path, rounds);
                        (samples[path][rounds] ??= []).push(turn);
                        log(`  ${path} N=${rounds}: ${turn.wallMs.toFixed(0)} ms, ${turn.saves} saves, ${turn.saveBytes} B, +${turn.messagesAdded} messages, ${turn.generations} model calls`);
                    }
                }
            }
            await setFunctionCalling(page, false);
            const bare = await bareBackendRequests(page, tavern.mock, 15);
            // The last N = 20 agent turn's tool-round requests (not its closing write + commit round).
            const lastLong = samples.agent[20]!.at(-1)!;
            const agentBodies = lastLong.requestBodies.slice(0, 20);
            const replayed = await replayedRequests(page, tavern.mock, agentBodies, 3);
            const agentBodyKb = median(agentBodies.map((body) => body.length)) / 1024;

            const med = (path: Path, rounds: number, key: keyof TurnMeasure) => median(samples[path][rounds]!.map((t) => t[key]));
            // Counts should not vary between repeats; the worst one is shown.
            const most = (path: Path, rounds: number, key: 'saves' | 'messagesAdded') => Math.max(...samples[path][rounds]!.map((t) => t[key]));
            const perRound = (path: Path, rounds: number) => (med(path, rounds, 'wallMs') - med(path, 0, 'wallMs')) / rounds;
            // A difference smaller than half the range of the N = 0 turns says nothing: shown, not judged.
            const spread = (path: Path) => {
                const zero = samples[path][0]!.map((t) => t.wallMs);
                return (Math.max(...zero) - Math.min(...zero)) / 2;
            };
            const withinNoise = (path: Path, rounds: number) => Math.abs(med(path, rounds, 'wallMs') - med(path, 0, 'wallMs')) < spread(path);
            const figures: Figure[] = [];
            // Without the Network domain no save is seen: those figures would read 0, so they are left out.
            for (const rounds of NETWORK_OFF ? [] : ROUNDS) {
                const saves = most('agent', rounds, 'saves');
                const builtSaves = most('builtin', rounds, 'saves');
                figures.push({
                    id: `chat-writes.saves.N=${rounds}`,
                    label: `Chat saves per turn, N = ${rounds}`,
                    value: saves,
                    unit: '',
                    baseline: { label: 'built-in tool calling', value: builtSaves },
                    ratio: ratioOf(saves, builtSaves),
                    target: '2',
                    met: saves <= 2,
                });
            }
            for (const rounds of NETWORK_OFF ? [] : ROUNDS) {
                const bytes = med('agent', rounds, 'saveBytes');
                const builtBytes = med('builtin', rounds, 'saveBytes');
                figures.push({
                    id: `chat-writes.bytes.N=${rounds}`,
                    label: `Bytes saved per turn, N = ${rounds}`,
                    value: bytes / 1024,
                    unit: 'KiB',
                    baseline: { label: 'built-in', value: builtBytes / 1024 },
                    ratio: ratioOf(bytes, builtBytes),
                });
            }
            for (const rounds of ROUNDS) {
                const added = most('agent', rounds, 'messagesAdded');
                const builtAdded = most('builtin', rounds, 'messagesAdded');
                figures.push({
                    id: `chat-writes.messages.N=${rounds}`,
                    label: `Chat messages added, N = ${rounds}`,
                    value: added,
                    unit: '',
                    baseline: { label: 'built-in', value: builtAdded },
                    ratio: ratioOf(added, builtAdded),
                    target: '2',
                    met: added === 2,
                });
            }
            for (const rounds of ROUNDS.filter((n) => n > 0)) {
                const agent = perRound('agent', rounds);
                const builtIn = perRound('builtin', rounds);
                const ratio = ratioOf(agent, builtIn);
                const noisy = withinNoise('agent', rounds) || withinNoise('builtin', rounds);
                figures.push({
                    id: `chat-writes.per-round.N=${rounds}`,
                    label: `Time per tool round, N = ${rounds}${noisy ? ' (within noise)' : ''}`,
                    value: agent,
                    unit: 'ms',
                    baseline: { label: 'built-in', value: builtIn },
                    ratio,
                    target: '≤ 1/10',
                    met: ratio === null || noisy ? null : ratio <= 0.1,
                });
            }
            // Per round from the spacing of model requests: free of the turn's fixed costs, so N = 1 and N = 5
            // (whose whole-turn differences are within noise) can be judged too.
            for (const rounds of ROUNDS.filter((n) => n > 0)) {
                const gaps = (path: Path) => median(samples[path][rounds]!.flatMap((t) => t.roundGapsMs.slice(0, rounds)));
                const gapRatio = ratioOf(gaps('agent'), gaps('builtin'));
                figures.push({
                    id: `chat-writes.round-gap.N=${rounds}`,
                    label: `Time per tool round, N = ${rounds}, from the spacing of model requests`,
                    value: gaps('agent'),
                    unit: 'ms',
                    baseline: { label: 'built-in', value: gaps('builtin') },
                    ratio: gapRatio,
                    target: '≤ 1/10',
                    met: gapRatio === null ? null : gapRatio <= 0.1,
                });
            }
            figures.push({
                id: 'chat-writes.bare-request',
                label: "… one bare model request through SillyTavern's backend (a round's floor)",
                value: median(bare),
                unit: 'ms',
            });
            const agentGaps = median(samples.agent[20]!.flatMap((t) => t.roundGapsMs.slice(0, 20)));
            figures.push({
                id: 'chat-writes.replayed-agent-request',
                label: `… the agent's own N = 20 round requests (median ${agentBodyKb.toFixed(1)} KB) replayed bare through SillyTavern's backend: the agent round's floor`,
                value: median(replayed),
                unit: 'ms',
                baseline: { label: 'agent round, N = 20, from the spacing of model requests', value: agentGaps },
                ratio: ratioOf(agentGaps, median(replayed)),
                target: 'aim ≤ 1.5×',
            });
            const wall = Object.fromEntries(
                (['builtin', 'agent'] as const).map((path) => [path, Object.fromEntries(ROUNDS.map((n) => [n, med(path, n, 'wallMs')]))]),
            );
            return {
                figures,
                details: { repeats: REPEATS, medianWallMs: wall, bareBackendRequestMs: bare, replayedAgentRequestMs: replayed, agentBodyKb, samples: stripBodies(samples) },
                notes: [
                    `The side panel is ${PANEL_OPEN ? 'open (BENCH_PANEL=open): the timeline shows each round live' : 'closed (BENCH_PANEL=open opens it)'}.`,
                    NETWORK_OFF
                        ? "DevTools' Network domain is off (npm run bench:no-devtools-network), as in a user's browser: no request is copied into the DevTools protocol. Saves are not counted (Playwright sees no request); the agent's request bodies are recorded by a wrapper around the page's fetch."
                        : "DevTools' Network domain is on, as Playwright keeps it: every request's body is copied into the protocol, which a user's browser does not do (npm run bench:no-devtools-network measures without it).",
                    `One turn = the user's message sent with the Send button, in a new chat with Seraphina, until SillyTavern is idle again; real SillyTavern 1.19 and the instant mock model; N repeated ${Object.entries(REPEATS).map(([n, k]) => `${k} times at N = ${n}`).join(', ')}, the paths interleaved; medians. Saves = POST /api/chats/save requests from the click to 250 ms after the turn (the most of any repeat); bytes = their uncompressed JSON bodies (median). Messages added: the most of any repeat.`,
                    `Built-in: function_calling on, one registered tool (${TOOL_NAME}, answers at once, no toast), tool_call_recurse_limit ${BUILT_IN_RECURSE_LIMIT}; the mock answers N tool calls, one per request, then the reply text (N + 1 model calls).`,
                    'Agent Mode: /agent on (Writer profile); the mock answers N rounds of one workspace_list_files call, then one round of workspace_write_file + workspace_commit + workspace_finish (N + 1 model calls). N = 0 is that last round alone.',
                    "The agent round's floor: the 20 tool-round requests of the last N = 20 agent turn, as the page sent them (Playwright's request events; the page's fetch wrapper without the Network domain), sent again 3 times each from the page straight to SillyTavern's backend, which forwards them to the mock; the median of those. It is what one round's request costs by itself, with its tool definitions and conversation; the baseline beside it is the agent's round from the spacing of its model requests.",
                    'Time per tool round = (median wall time at N − median at N = 0) / N, for each path; "within noise" when that difference is smaller than half the range of the N = 0 turns of either path (then not judged). The spacing lines are the median gap between consecutive model requests at the mock during the N tool rounds of each turn at that N (one round: response → tool → next request), free of the turn\'s fixed costs.',
                ],
            };
        } finally {
            await context.close().catch(() => undefined);
        }
    },
};
