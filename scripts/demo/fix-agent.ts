// The demo's fix run ("Fix this reply", /agent fix): it revises the reply in output/main.md as the request
// asks (shorter, longer, or gentler by default) with one patch, and never writes the request itself.
import type { MockTurn } from '../../tests/harness/mock-model';
import type { DemoRequest } from './read-request';
import { call, commitAndFinish, playSteps, REPLY_PATH, turn } from './turns';

interface FixAsk {
    request: string;
    reply: string;
}

/** The request and the reply as it reads now, from the fix run's last user message (fix-run.ts's layout). */
export function readFixAsk(ask: string): FixAsk {
    const request = /^Request: (.*)$/m.exec(ask)?.[1]?.trim() ?? '';
    const marker = /^The reply now \([^)]*\):\n/m.exec(ask);
    const reply = marker ? ask.slice(marker.index + marker[0].length) : '';
    return { request, reply };
}

const GENTLER = '*Her voice softens.* "Forgive me. I only want you safe."';
const LONGER = '*She adds, more quietly:* "Rest now. Tomorrow I will show you the paths of the forest, and the places to avoid."';

/** The first part of a paragraph: its action when it has one (`*She smiles.* "…"`), else its first sentence. */
function firstPart(paragraph: string): string {
    const action = /^\*[^*]+\*/.exec(paragraph);
    if (action && action[0].length < paragraph.trim().length) return action[0];
    return /^.*?[.!?](?=\s|$)/.exec(paragraph)?.[0] ?? paragraph;
}

/** The patch a request asks for: its old and new text within the reply (the demo's own notes left alone). */
export function fixPatch(fix: FixAsk): { old_string: string; new_string: string } | null {
    const story = fix.reply.split(/\n\s*\n/).filter((part) => part.trim() && !part.trim().startsWith('*(Demo:'));
    const last = story.at(-1);
    if (!last) return null;
    if (/\b(short|shorter|shorten|brief|less)\b/i.test(fix.request)) {
        const first = story[0]!;
        if (story.length > 1) return { old_string: fix.reply.slice(fix.reply.indexOf(first), fix.reply.indexOf(last) + last.length), new_string: first };
        const kept = firstPart(first);
        return kept === first ? null : { old_string: first, new_string: kept };
    }
    if (/\b(long|longer|more|detail|expand)\b/i.test(fix.request)) return { old_string: last, new_string: `${last}\n\n${LONGER}` };
    return { old_string: last, new_string: `${last}\n\n${GENTLER}` };
}

export function fixAgentTurn(request: DemoRequest): MockTurn {
    const patch = fixPatch(readFixAsk(request.ask));
    return playSteps(request, [
        () =>
            patch
                ? turn('Revising the reply as asked.', call('workspace_apply_patch', { path: REPLY_PATH, ...patch }))
                : turn('The reply already reads as asked: nothing to change.', call('workspace_read_file', { path: REPLY_PATH })),
        () => commitAndFinish('The reply is revised as asked.'),
    ]);
}
