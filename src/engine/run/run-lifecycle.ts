import type { RunInput, RunOutcome } from '../../contract/run-input';
import { runAgentLoop } from '../loop/agent-loop';
import { completeRun, failRun } from './complete-run';
import { createRootInvocation, type AgentInvocation } from '../agents/invocation';
import { prepareRun } from './prepare-run';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from '../tabs/interrupted';
import { RunSession, type RunDependencies } from './run-session';
import { unregisterLiveJournal } from '../journal/live-journals';

export type { RunDependencies };

/**
 * One agent run, start to end (SPEC §1): prepare (record, skills, workspace, frozen inputs) → the agent
 * loop until finish or wrap-up → its sub-agents closed → complete (persist/ only after finish). Any
 * failure, cancel included, ends in failRun. Every step is journaled before the next one depends on it.
 */
export async function runAgent(input: RunInput, deps: RunDependencies): Promise<RunOutcome> {
    const session = new RunSession(input, deps);
    deps.guidance?.bind(session.journal);
    let agent: AgentInvocation | null = null;
    const endLease = session.startLease(LEASE_RENEW_MS, LEASE_TTL_MS);
    try {
        const { workspace, memory } = await prepareRun(session);
        agent = createRootInvocation(session, workspace);
        await session.setState('running');
        const end = await runAgentLoop(agent);
        await agent.tasks?.closeAll('The run ended.');
        return await completeRun(session, workspace, end, memory);
    } catch (error) {
        await agent?.tasks?.closeAll('The run ended.');
        return failRun(session, error);
    } finally {
        deps.guidance?.close();
        unregisterLiveJournal(session.journal);
        endLease();
    }
}
