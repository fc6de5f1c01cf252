// Small builders of the demo model's turns, shared by its agents.
import type { MockToolCall, MockTurn } from '../../tests/harness/mock-model';
import type { DemoRequest } from './read-request';

/** One step of a scripted agent: the turn it takes, given what the run has done so far. */
export type DemoStepBuilder = (request: DemoRequest) => MockTurn;

export function call(name: string, args: Record<string, unknown> = {}): MockToolCall {
    return { name, arguments: args };
}

export function turn(text: string | undefined, ...toolCalls: MockToolCall[]): MockTurn {
    return text ? { text, toolCalls } : { toolCalls };
}

/** The step the run is at: one builder per tool turn, the last one again once they run out. */
export function playSteps(request: DemoRequest, steps: readonly DemoStepBuilder[]): MockTurn {
    return steps[Math.min(request.turn, steps.length - 1)]!(request);
}

/** The reply file a reply agent writes, then commits. */
export const REPLY_PATH = 'output/main.md';

export const writeReply = (text: string, note?: string): MockTurn => turn(note, call('workspace_write_file', { path: REPLY_PATH, content: text }));

export const commitAndFinish = (reason: string): MockTurn => turn(undefined, call('workspace_commit', { reason }), call('workspace_finish', { reason: 'Done.' }));

export const finish = (reason: string): MockTurn => turn(undefined, call('workspace_finish', { reason }));

/** "Seraphina" as she starts a sentence, "She" when the request named no one. */
export function named(request: DemoRequest): string {
    return request.speaker === 'she' ? 'She' : request.speaker;
}

/** A line of the character: an action in asterisks, then what she says. */
export function line(request: DemoRequest, action: string, speech: string): string {
    return `*${named(request)} ${action}* "${speech}"`;
}

/** A note from the demo itself, set apart from the story, with what to try next. */
export function demoNote(text: string): string {
    return `*(Demo: ${text})*`;
}

/** The first number after `label` in a tool result, or null. */
export function numberAfter(text: string, label: RegExp): number | null {
    const found = new RegExp(`${label.source}\\D{0,12}(-?\\d+)`, label.flags).exec(text);
    return found ? Number(found[1]) : null;
}

/** A subject to work on from the user's words: a lore subject it names, else the glade. */
export function subjectOf(text: string): string {
    const known = ['Shadowfangs', 'Eldoria', 'Moonwell', 'glade', 'forest', 'magic', 'lanterns'];
    return known.find((word) => text.toLowerCase().includes(word.toLowerCase().replace(/s$/, ''))) ?? 'glade';
}
