import type { MockTurn, RecordedRequest } from '../tests/harness/mock-model';

/**
 * The demo model behind `npm start`. Without tools in the request (Agent Mode off) it answers like a plain
 * chat model; with Agent Mode on it plays a short scripted agent run.
 */
export function demoResponder(request: RecordedRequest): MockTurn | undefined {
    const body = request.body as { tools?: unknown[]; messages?: Array<{ role: string; content: unknown }> };
    const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
    const said = typeof lastUser?.content === 'string' ? lastUser.content : '';
    if (!body.tools?.length) {
        return { text: `*The demo model nods.* You said: "${said.slice(0, 120)}". (Switch Agent Mode on to see the agent at work.)` };
    }
    return undefined;
}
