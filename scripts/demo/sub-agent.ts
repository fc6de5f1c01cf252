// The demo's sub-agents: the researcher searches the chat and the lore and reports what it found; any other
// sub-agent reads the draft and returns a short review. Both end with task_return, as a sub-agent must.
import type { MockTurn } from '../../tests/harness/mock-model';
import { resultOf, type DemoRequest } from './read-request';
import { call, playSteps, turn } from './turns';

const FINDINGS = 'scratch/findings.md';

/** The subject of a task the demo's reply agent gave ("… about \"Shadowfangs\"."), else the glade. */
function taskSubject(task: string): string {
    return /about "([^"]{1,80})"/.exec(task)?.[1] ?? 'glade';
}

const hitsIn = (result: string): number => Number(/^(\d+) hits? for/.exec(result)?.[1] ?? 0);

function researcher(request: DemoRequest): MockTurn {
    const subject = taskSubject(request.ask);
    const searches = [
        ...(request.tools.has('chat_search') ? [call('chat_search', { query: subject })] : []),
        ...(request.tools.has('worldinfo_search') ? [call('worldinfo_search', { query: subject })] : []),
    ];
    return playSteps(request, [
        () => turn(`Searching the chat and the lore for ${subject}.`, ...searches),
        (done) => {
            const chat = hitsIn(resultOf(done, 'chat_search'));
            const lore = hitsIn(resultOf(done, 'worldinfo_search'));
            const notes = [`# ${subject}`, '', `- ${chat} chat message(s) mention it.`, `- ${lore} lore entr${lore === 1 ? 'y mentions' : 'ies mention'} it.`].join('\n');
            return turn('Writing down what I found.', call('workspace_write_file', { path: FINDINGS, content: notes }));
        },
        (done) => {
            const chat = hitsIn(resultOf(done, 'chat_search'));
            const lore = hitsIn(resultOf(done, 'worldinfo_search'));
            return turn(
                undefined,
                call('task_return', {
                    summary: `Found ${chat} chat message(s) and ${lore} lore entr${lore === 1 ? 'y' : 'ies'} about ${subject}.`,
                    findings: [`chat: ${chat} hit(s)`, `lore: ${lore} hit(s)`],
                    artifacts: [{ path: FINDINGS, kind: 'notes', role: 'what the chat and the lore say' }],
                }),
            );
        },
    ]);
}

function reviewer(request: DemoRequest): MockTurn {
    return playSteps(request, [
        () => turn('Reading the draft.', call('workspace_read_file', { path: 'output/main.md' })),
        (done) => {
            const read = resultOf(done, 'workspace_read_file');
            const summary = read.startsWith('ERROR') ? 'Found no draft to review yet.' : 'Found the draft in character and clear; keep it short.';
            return turn(undefined, call('task_return', { summary }));
        },
    ]);
}

export function subAgentTurn(request: DemoRequest): MockTurn {
    return /You are Researcher,/.test(request.system) || request.tools.has('chat_search') ? researcher(request) : reviewer(request);
}
