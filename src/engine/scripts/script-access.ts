import type { ScriptAccess } from '../../tools/tool';
import type { AgentInvocation } from '../agents/agent';
import { programTools } from './program-calls';

/**
 * What the script tools of the call `callId` get (issue 35): the run's sandbox, within the run's limit of
 * scripts at once, cancelled with the agent; and a program's read tools. None where the run has no sandbox.
 */
export function scriptAccess(agent: AgentInvocation, callId: string): ScriptAccess | undefined {
    const runner = agent.session.deps.scripts;
    if (!runner) return undefined;
    let tools: ScriptAccess['programTools'] | null = null;
    return {
        async run(request, callTool) {
            const release = await agent.session.scriptSlots.take(agent.signal);
            try {
                return await runner.run(request, callTool, agent.signal);
            } finally {
                release();
            }
        },
        get programTools() {
            tools ??= programTools(agent, callId);
            return tools;
        },
    };
}
