// The demo's agents around the reply (the pipeline): a director that writes a brief before it, and keepers
// after it (memory, lore, state), each working from the tools its request offers.
import type { MockTurn } from '../../tests/harness/mock-model';
import { raiseCounter, readCounter } from './chat-counter';
import { resultOf, type DemoRequest } from './read-request';
import { call, finish, named, numberAfter, playSteps, turn, type DemoStepBuilder } from './turns';

/** The first line of every brief the demo director writes: how the demo's plain reply knows one reached it. */
export const BRIEF_HEADING = 'Brief from the demo director';
/** The chat variable the demo's state keeper counts replies in. */
export const REPLIES_VARIABLE = 'replies_seen';
const MEMORY_FILE = 'persist/threads.md';
/** The block's front matter (issue 37): open threads are pinned, so every later run starts with them. */
const MEMORY_HEADER = ['---', 'title: Open threads', 'pinned: true', '---'];

/** The reply's words without its markup, cut short: what a keeper notes of it. */
function gist(text: string): string {
    const plain = text.replace(/\*\(Demo:[^)]*\)\*/g, '').replace(/[*"]/g, '').replace(/\s+/g, ' ').trim();
    return plain.length > 120 ? `${plain.slice(0, 119)}…` : plain || '(an empty reply)';
}

export function directorTurn(request: DemoRequest): MockTurn {
    const asked = request.ask.replace(/\s+/g, ' ').slice(0, 200) || '(nothing yet)';
    const look = request.tools.has('worldinfo_read_activated') ? [() => turn('What lore is active this turn?', call('worldinfo_read_activated'))] : [];
    return playSteps(request, [
        ...look,
        (done: DemoRequest) => {
            const active = Number(/^(\d+) world-info entr/.exec(resultOf(done, 'worldinfo_read_activated'))?.[1] ?? 0);
            const brief = [
                `${BRIEF_HEADING} for ${named(done)}'s next reply:`,
                `- The user just said: ${asked}`,
                `- ${named(done)} is gentle, warm and protective; she speaks in short, calm sentences.`,
                `- Keep to the lore of Eldoria${active ? ` (${active} entries are active this turn)` : ''}; do not reveal the Shadowfangs' lair yet.`,
            ].join('\n');
            return turn('Writing the brief.', call('workspace_write_file', { path: 'output/brief.md', content: brief }));
        },
        () => finish('The brief is written.'),
    ] satisfies DemoStepBuilder[]);
}

function memoryKeeper(request: DemoRequest): DemoStepBuilder[] {
    return [
        () => turn('What does the memory hold so far?', call('workspace_read_file', { path: MEMORY_FILE })),
        (done) => {
            const read = resultOf(done, 'workspace_read_file');
            // A file read comes back with line numbers; the demo keeps its own lines, which start with "- ".
            const earlier = read.startsWith('ERROR') ? [] : read.split('\n').map((row) => /- .*/.exec(row)?.[0]).filter((row): row is string => Boolean(row));
            const lines = [...MEMORY_HEADER, '# Threads', '', ...earlier.slice(-9), `- ${gist(done.lastReply)}`];
            return turn('Noting what the reply changed.', call('workspace_write_file', { path: MEMORY_FILE, content: lines.join('\n') }));
        },
        () => finish('The memory is up to date.'),
    ];
}

function loreKeeper(request: DemoRequest): DemoStepBuilder[] {
    return [
        () => turn('Is there an entry for recent events?', call('worldinfo_search', { query: 'recent events' })),
        (done) => {
            const ref = /worldinfo:[^\n#]{1,200}#\d+/.exec(resultOf(done, 'worldinfo_search'))?.[0];
            const content = `The latest scene: ${gist(done.lastReply)}`;
            const reason = 'The reply moved the story on; the lore keeps the latest scene.';
            return ref
                ? turn('Updating the entry.', call('worldinfo_propose', { ref, content, reason }))
                : turn('Proposing a new entry.', call('worldinfo_propose', { title: 'Recent events', keys: ['recent events'], content, reason }));
        },
        () => finish('Lore proposed for you to review.'),
    ];
}

function stateKeeper(): DemoStepBuilder[] {
    const path = `/${REPLIES_VARIABLE}`;
    return [
        () => readCounter(path, 'Reading the state the reply may change.'),
        (done) => raiseCounter(done, path, 'One more reply in the story.'),
        () => finish('The state follows the reply.'),
    ];
}

/** A keeper after the reply: which one by its profile's name, else by the tools it is offered. */
export function keeperTurn(request: DemoRequest): MockTurn {
    const is = (name: string) => request.system.includes(`You are ${name},`);
    const canState = request.tools.has('state_get') && request.tools.has('state_set') && request.tools.has('state_patch');
    const steps =
        is('Lore keeper') || (!is('Memory keeper') && !is('State keeper') && request.tools.has('worldinfo_propose'))
            ? loreKeeper(request)
            : is('State keeper') || (!is('Memory keeper') && canState)
              ? stateKeeper()
              : memoryKeeper(request);
    return playSteps(request, steps);
}
