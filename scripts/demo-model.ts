import type { MockTurn, RecordedRequest } from '../tests/harness/mock-model';
import { fixAgentTurn } from './demo/fix-agent';
import { BRIEF_HEADING, directorTurn, keeperTurn } from './demo/phase-agents';
import { readDemoRequest, type DemoRequest, type DemoRole } from './demo/read-request';
import { replyAgentTurn } from './demo/reply-agent';
import { subAgentTurn } from './demo/sub-agent';
import { call, demoNote, line, playSteps, turn } from './demo/turns';

/** What a demo turn takes by default: long enough to watch the live view and to press Stop, short enough to wait for. */
export const DEFAULT_DEMO_DELAY_MS = 600;

/** DEMO_DELAY_MS from the environment (0 for an instant model), else the default. */
export function demoDelayMs(env: Record<string, string | undefined> = process.env): number {
    const value = Number(env.DEMO_DELAY_MS);
    return env.DEMO_DELAY_MS !== undefined && env.DEMO_DELAY_MS !== '' && Number.isFinite(value) && value >= 0 ? value : DEFAULT_DEMO_DELAY_MS;
}

/**
 * The demo model behind `npm start`: a small scripted agent. It reads what each request offers (its tools)
 * and asks for (its instructions, the user's last message), and answers as the agent that request is for:
 * the reply agent playing the scenario the user's words choose (docs/demo.md), a fix run, a director, a
 * keeper, a sub-agent, or, without tools, SillyTavern's own generation. Each answer takes `delayMs`.
 */
export function demoResponder(request: RecordedRequest, delayMs = 0): MockTurn | undefined {
    const turn = demoTurn(readDemoRequest(request.body));
    return delayMs > 0 ? { ...turn, delayMs } : turn;
}

/** SillyTavern's own generation: in character, saying whether a director's brief reached its prompt. */
function chatReply(request: DemoRequest): MockTurn {
    const briefed = request.systemText.includes(BRIEF_HEADING);
    const story = line(request, 'smiles and tucks a strand of hair behind her ear.', 'Rest a little longer. The glade will keep you safe while you heal.');
    const note = briefed
        ? "SillyTavern wrote this reply with your preset, and the director's brief was in its prompt."
        : 'SillyTavern wrote this reply on its own. Switch Agent Mode on (the robot icon, or /agent on) and type "help".';
    return { text: `${story}\n\n${demoNote(note)}` };
}

/** A background run started by a script (`/agent run`): its answer goes to summaries/summary.md. */
function backgroundTurn(request: DemoRequest): MockTurn {
    return playSteps(request, [
        () => turn('Writing the answer for the script.', call('workspace_write_file', { path: 'summaries/summary.md', content: `The demo model read the request (${request.ask.length} characters) and has nothing more to add.` })),
        () => turn(undefined, call('workspace_finish', { reason: 'The answer is in summaries/summary.md.' })),
    ]);
}

/** Who answers a request, by who is asking. */
const AGENTS: Record<DemoRole, (request: DemoRequest) => MockTurn> = {
    chat: chatReply,
    reply: replyAgentTurn,
    fix: fixAgentTurn,
    director: directorTurn,
    keeper: keeperTurn,
    subagent: subAgentTurn,
    background: backgroundTurn,
};

function demoTurn(request: DemoRequest): MockTurn {
    return AGENTS[request.role](request);
}
