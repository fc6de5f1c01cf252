import type { Workspace } from '../../workspace/workspace';
import type { AgentInvocation } from '../agents/agent';
import type { MemoryBase } from './memory-base';

/** A run ready to loop: its root agent and files, the memory it started from, and what a resume must finish first. */
export interface RunStart {
    root: AgentInvocation;
    workspace: Workspace;
    memory: MemoryBase;
    /** Once the run is `running` again: its cut-off tasks go on and its root finishes the turn it was cut off in. */
    resume?: () => Promise<void>;
}
