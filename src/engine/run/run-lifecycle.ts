import type { RunInput, RunOutcome } from '../../contract/run-input';
import type { AgentInvocation } from '../agents/agent';
import { registerLiveJournal, unregisterLiveJournal } from '../journal/live-journals';
import { runAgentLoop } from '../loop/agent-loop';
import { startLease } from '../tabs/leases';
import { completeRun, failRun } from './complete-run';
import { prepareRun } from './prepare-run';
import type { ResumePlan } from './resume-plan';
import { beginResume } from './resume-run';
import { createRootAgent } from './run-agents';
import { RunSession, type RunDependencies } from './run-session';
import type { RunStart } from './run-start';

export type { RunDependencies };

/** A new run (SPEC §1): prepare (record, skills, workspace, frozen inputs), then the loop. */
export function runAgent(input: RunInput, deps: RunDependencies): Promise<RunOutcome> {
    const session = new RunSession(input, deps);
    return runLifecycle(session, async () => {
        const { workspace, memory } = await prepareRun(session);
        return { root: createRootAgent(session, workspace), workspace, memory };
    });
}

/** An interrupted run, going on from its journal (resume-run.ts); new events follow the old. */
export function resumeAgent(plan: ResumePlan, deps: RunDependencies): Promise<RunOutcome> {
    const session = new RunSession(plan.input, deps, { record: plan.record, nextSeq: (plan.events.at(-1)?.seq ?? -1) + 1 });
    return runLifecycle(session, () => beginResume(session, plan));
}

/**
 * One run-session skeleton for new and resumed runs (issue 33 §3): it holds the run's lease, binds the
 * user's guidance to the journal, registers the journal as live (lore decisions made meanwhile go through
 * it) and releases all three at the end; it runs the root agent's loop, closes the sub-agents, and ends in
 * completeRun (persist/ only after finish) or failRun (any failure, cancel included).
 */
async function runLifecycle(session: RunSession, begin: () => Promise<RunStart | RunOutcome>): Promise<RunOutcome> {
    const { deps } = session;
    deps.guidance?.bind(session.journal);
    registerLiveJournal(session.journal);
    const endLease = startLease(session, deps.leaseOwner);
    let root: AgentInvocation | null = null;
    try {
        const started = await begin();
        if (!('root' in started)) return started;
        root = started.root;
        await session.setState('running');
        await started.resume?.();
        const end = await runAgentLoop(root);
        await root.tasks?.closeAll('The run ended.');
        return await completeRun(session, started.workspace, end, started.memory);
    } catch (error) {
        await root?.tasks?.closeAll('The run ended.');
        return failRun(session, error);
    } finally {
        deps.guidance?.close();
        unregisterLiveJournal(session.journal);
        endLease();
    }
}
