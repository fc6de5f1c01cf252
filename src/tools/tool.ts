import type * as z from 'zod';
import type { Workspace } from '../workspace/workspace';
import type { RunInput } from '../contract/run-input';
import type { SkillFile } from '../contract/skills';
import type { AgentAccess } from './agent-access';
import type { JournalWriter } from '../workspace/journal-writer';
import type { ScriptRequest, ScriptResult, ToolCallAnswer } from '../contract/scripts';
import type { StateChange } from '../contract/state';

export { failure, success, type ToolOutcome, type ToolResult } from '../contract/tool-outcome';
import type { ToolOutcome } from '../contract/tool-outcome';

/**
 * A commit either lands, or is refused in a way the model can act on: the user edited the message
 * (`userText` holds their text), or SillyTavern's clean-up of the reply left nothing.
 */
export type CommitOutcome =
    | { messageId: number }
    | { refused: { code: 'workspace.commit_conflict' | 'workspace.empty_artifact'; message: string; userText: string | null } };

/** The run as tools see it. Committing and finishing go through the run, never straight to SillyTavern. */
export interface RunControls {
    readonly foreground: boolean;
    hasCommitted(): boolean;
    /**
     * Puts text into the chat through the host; a host failure throws a RunFailure (the run ends). A message
     * the user edited since the run's last commit is left as it is: `conflict` carries their text.
     */
    commit(request: { path: string; text: string; mode: 'replace' | 'append'; reason: string | null }): Promise<CommitOutcome>;
    /** Marks the run as finished; the loop stops after this call's turn. */
    finish(reason: string | null): void;
}

/** What skill tools see: the run's frozen skill set lives in `input.skills`; files are read by hash. */
export interface SkillAccess {
    /** A file of the skill with this content hash, from the local cache; undefined when missing. */
    readFile(hash: string, path: string): Promise<SkillFile | undefined>;
    /**
     * Characters of skill text handed to the model so far in this run (snippets count): one count for the whole
     * run, its sub-agents and resumes included (issue 39 §10), which a read adds to.
     */
    charsRead: number;
    /**
     * The run's own limit (its root profile's `maxReadCharsPerRun`), when it is not this agent's: a sub-agent
     * reads within both, its profile's and the run's. Absent: the agent's own profile sets it.
     */
    runLimit?: number;
}

/**
 * What the script tools get from the engine (issue 35): the sandbox, bound to the run's limit of scripts at
 * once; and for a program (script.run), the read tools it may call, by the name the model knows them, each
 * run with the agent's own rules and journaled as the program's inner call.
 */
export interface ScriptAccess {
    run(request: ScriptRequest, callTool: (name: string, args: unknown) => Promise<ToolCallAnswer>): Promise<ScriptResult>;
    programTools: { names: string[]; refused: string[]; call(name: string, args: unknown): Promise<ToolCallAnswer> };
}

/**
 * What the state tools get from the run (issue 36): the changes staged so far (the journal's `state-change`
 * events, in order, whichever agent made them), and the user's Approve / Deny for a change that is not
 * branch-aware (global variables); without a page to ask, the answer is no.
 */
export interface StateAccess {
    changes(): readonly StateChange[];
    approve?(toolName: string, args: unknown): Promise<boolean>;
}

export interface ToolContext {
    /** The frozen snapshot of the run's start: chat prefix, world-info activation, identity. */
    input: RunInput;
    workspace: Workspace;
    run: RunControls;
    skills: SkillAccess;
    /** Delegation; absent where a context has none (unit tests of other tools), which agent tools report. */
    agents?: AgentAccess;
    signal: AbortSignal;
    /** The journal of the calling agent (stamped with its task), for tools that record an event of their own (worldinfo.propose). */
    journal?: JournalWriter;
    /** The sandbox, for the script tools; absent where scripts cannot run (unit tests of other tools). */
    scripts?: ScriptAccess;
    /** Staged state changes and approvals, for the state tools; absent in unit tests of other tools. */
    state?: StateAccess;
}

/** A tool is data plus one function (STYLE.md): name, alias, description, zod arguments, execute. */
export interface ToolDefinition<Schema extends z.ZodType = z.ZodType> {
    /** Canonical name used in profiles, the journal and docs: `workspace.read_file`. */
    name: string;
    /** The name providers see (dots are not allowed in function names): `workspace_read_file`. */
    alias: string;
    description: string;
    args: Schema;
    /** The provider schema, when it is not derived from `args` (another extension's tool brings its own JSON schema). */
    parameters?: Record<string, unknown>;
    readOnly: boolean;
    execute(args: z.output<Schema>, context: ToolContext): Promise<ToolOutcome>;
}

export function aliasOf(name: string): string {
    return name.replace(/\./g, '_');
}

/** Keeps each tool's argument type while storing them in one list. */
export function defineTool<Schema extends z.ZodType>(tool: ToolDefinition<Schema>): ToolDefinition {
    return tool as unknown as ToolDefinition;
}
