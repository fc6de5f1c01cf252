import type { AgentInvocation } from '../agents/agent';

/** Puts queued guidance into the root agent's next model turn as a user note, journaled before it is sent. */
export async function deliverGuidance(agent: AgentInvocation): Promise<void> {
    const queue = agent.session.deps.guidance;
    // Sub-agents work on their own objective: the user steers the agent they talk to.
    if (!queue || agent.taskId !== null) return;
    const notes = queue.take();
    if (notes.length === 0) return;
    await agent.journal.append('guidance-deliver', { guidanceIds: notes.map((note) => note.guidanceId), round: agent.track.budget.rounds + 1 });
}
