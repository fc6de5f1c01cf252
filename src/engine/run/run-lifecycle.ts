import type { RunInput, RunOutcome } from '../../contract/run-input';
import type { AgentInvocation } from '../agents/agent';
import { registerLiveJournal, unregisterLiveJournal } from '../journal/live-journals';
import { runAgentLoop } from '../loop/agent-loop';
import { storageFailure } from '../../store/storage-failure';
import { ChatBusy, LEASE_LOST_MESSAGE, RunLease } from '../tabs/leases';
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
        return { root: createRootAgent(session, workspace, memory.files), workspace, memory };
    });
}

/** An interrupted run, going on from its journal (resume-run.ts); new events follow the old. */
export function resumeAgent(plan: ResumePlan, deps: RunDependencies): Promise<RunOutcome> {
    const session = new RunSession(plan.input, deps, { record: plan.record, nextSeq: (plan.events.at(-1)?.seq ?? -1) + 1 });
    return runLifecycle(session, () => beginResume(session, plan));
}

/**
 * One run-session skeleton for new and resumed runs (issue 33 §3): it claims the run's lease first (refused
 * with ChatBusy before anything is written, tabs/leases.ts), binds the user's guidance to the journal,
 * registers the journal as live (lore decisions made meanwhile go through it) and releases all three at the
 * end; it runs the root agent's loop, closes the sub-agents, and ends in completeRun (persist/ only after
 * finish) or failRun (any failure, cancel included) — or, when another tab took the lease over, in an
 * outcome that writes nothing: the run is that tab's now.
 */
async function runLifecycle(session: RunSession, begin: () => Promise<RunStart | RunOutcome>): Promise<RunOutcome> {
    const { deps } = session;
    if (deps.lease) {
        try {
            session.lease = await RunLease.claim(deps.storage, session.record, deps.lease, session.now);
        } catch (error) {
            if (error instanceof ChatBusy) throw error;
            // Storage refused the claim: the run fails as at any other write, with the reason named.
            return failRun(session, storageFailure(error));
        }
    }
    deps.guidance?.bind(session.journal);
    registerLiveJournal(session.journal);
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
        // Whatever failed (a write another tab's journal took, a stop), a run whose lease is another's now ends
        // without a write: asked in one transaction, not guessed from the error.
        if (session.lease && !(await session.lease.renew())) return leaseLostOutcome(session);
        return failRun(session, error);
    } finally {
        deps.guidance?.close();
        unregisterLiveJournal(session.journal);
        session.lease?.release();
    }
}

/**
 * Another tab holds the run now: its record and journal are that tab's to write (this tab's writes are fenced);
 * this tab only hears that its run ended.
 */
function leaseLostOutcome(session: RunSession): RunOutcome {
    return { runId: session.input.runId, state: 'failed', messageId: session.record.messageId, error: { code: 'run.lease_lost', message: LEASE_LOST_MESSAGE } };
}
