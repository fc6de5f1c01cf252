/**
 * Stable error codes (SPEC §8). Recoverable ones become tool results flagged as errors, with a hint the
 * model can act on; runtime ones end the run with a message a user understands.
 */
export const RECOVERABLE_CODES = [
    'tool.invalid_arguments',
    'tool.not_allowed',
    'tool.budget_exhausted',
    'tool.execution_failed',
    'model.response_truncated',
    'workspace.invalid_path',
    'workspace.path_not_visible',
    'workspace.path_not_writable',
    'workspace.file_not_found',
    'workspace.path_is_directory',
    'workspace.invalid_range',
    'workspace.mixed_range',
    'workspace.read_too_large',
    'workspace.patch_requires_read',
    'workspace.stale_file',
    'workspace.patch_not_found',
    'workspace.patch_not_unique',
    'workspace.patch_no_change',
    'workspace.commit_required',
    'workspace.empty_artifact',
    'workspace.file_too_large',
    'dice.invalid_formula',
    'agent.not_found',
    'agent.delegation_denied',
    'agent.delegation_limit',
    'agent.task_not_found',
    'agent.return_outside_task',
    'chat.message_not_found',
    'chat.invalid_range',
    'chat.read_too_large',
    'worldinfo.activation_unavailable',
    'worldinfo.entry_not_found',
    'worldinfo.invalid_range',
    'worldinfo.read_too_large',
    'worldinfo.proposal_denied',
    'skill.not_found',
    'skill.not_visible',
    'skill.file_not_found',
    'skill.binary_file',
    'skill.invalid_range',
    'skill.mixed_range',
    'skill.read_budget_exhausted',
    /** The user edited the run's message since its last commit: their text is kept, the commit not made. */
    'workspace.commit_conflict',
    'tool.interrupted',
    'tool.denied_by_user',
    'tool.timeout',
    /** skill.run_script (TauriTavern's codes, SKILL-SCRIPTS.md §1.6) and script.run (issue 35). */
    'skill.run_script_invalid_name',
    'skill.run_script_skill_not_visible',
    'skill.run_script_not_found',
    'skill.run_script_execution_failed',
    'skill.run_script_result_too_large',
    'skill.run_script_write_failed',
    'script.execution_failed',
    'script.result_too_large',
    'script.too_many_calls',
    /** The state tools (issue 36). */
    'state.scope_unavailable',
    'state.read_only',
    'state.invalid_path',
    'state.path_not_found',
    'state.invalid_op',
    'state.schema_rejected',
    'state.read_too_large',
    'state.value_too_large',
    /** A write that would make a pinned memory block (persist/, issue 37) longer than its `limit`. */
    'memory.block_too_long',
] as const;
export type RecoverableCode = (typeof RECOVERABLE_CODES)[number];

export const RUNTIME_FAILURE_CODES = [
    'host.chat_changed',
    'host.commit_failed',
    'store.write_failed',
    'store.quota_exceeded',
    'model.request_failed',
    'model.malformed_response',
    'model.tool_call_required',
    'run.cancelled',
    'run.interrupted',
    'run.internal_error',
    /** The budget (rounds, calls) was spent and the wrap-up turn committed nothing: not the model's plain text. */
    'run.budget_exhausted',
    'run.resume_failed',
    /** Another tab took over the run (its lease, issue 39 §3) while this one was frozen or asleep: this tab stopped it, writing nothing. */
    'run.lease_lost',
] as const;
export type RuntimeFailureCode = (typeof RUNTIME_FAILURE_CODES)[number];

/** A recoverable tool error: returned, never thrown. */
export interface ToolError {
    code: RecoverableCode;
    message: string;
    hint: string;
}

export function toolError(code: RecoverableCode, message: string, hint: string): ToolError {
    return { code, message, hint };
}

/** A failure the run cannot survive. Thrown inside the worker only, caught by the loop and journaled. */
export class RunFailure extends Error {
    constructor(
        readonly code: RuntimeFailureCode,
        message: string,
        readonly detail?: string,
    ) {
        super(message);
        this.name = 'RunFailure';
    }
}

/**
 * Codes of failures returned as data across the worker wall and on the page (a Result's error), outside a
 * run's tool results and end states: the panel and the API show them, tests match them.
 */
export const WIRE_ERROR_CODES = [
    'host.no_chat',
    'host.prompt_unavailable',
    'host.needs_chat_completion',
    'profile.not_found',
    'profile.invalid',
    'profile.connection_missing',
    'store.open_failed',
    'store.not_open',
    'store.read_failed',
    'store.invalid_retention',
    'run.invalid_input',
    'run.already_running',
    'run.running',
    'run.not_found',
    'run.not_prepared',
    'run.read_only',
    'run.import_invalid',
    'checkpoint.not_found',
    'checkpoint.corrupt',
    'skill.not_cached',
    'skill.invalid_bundle',
    'skill.hash_mismatch',
    'skill.payload_invalid',
    'skill.payload_version',
    // A card's payload over one of its limits (issue 39 §1, skills/limits.ts PAYLOAD_LIMITS).
    'skill.payload_too_large',
    'skill.too_many_skills',
    'skill.too_many_files',
    'skill.front_matter_too_large',
    'skill.front_matter_keys',
    'skill.yaml_aliases',
    'skill.unpacked_too_large',
    'skill.compression_ratio',
    'skill.payload_timeout',
    /** The manager's edit of a skill file (SPEC §6): SKILL.md names another skill / the edited skill fails an import's checks. */
    'skill.name_changed',
    'skill.edit_refused',
    'lore.proposal_not_found',
    'lore.already_decided',
    /** Another tab holds the claim on this proposal while it writes it (issue 39 §7). */
    'lore.proposal_busy',
    'lore.wrong_chat',
    'lore.write_failed',
    'run.not_resumable',
    'run.not_interrupted',
    'run.inputs_missing',
    'run.chat_moved',
    'run.chat_busy',
    'run.none_interrupted',
    /** Continue (issue 38 §5) of a run that neither ran out of its budget nor is the chat's to go on with. */
    'run.not_continuable',
    'host.engine_crashed',
    'run.fix_not_agent_reply',
    'run.fix_message_not_found',
    /** A pipeline change of the wrong shape (issue 34): a part unknown, a reply kind unknown, a keeper listed twice. */
    'pipeline.invalid',
    /** A keeper's reply was deleted or swiped away (or another chat opened) before it finished: its memory was dropped. */
    'pipeline.reply_gone',
    /** Long memory (issue 37): a memory seed meant for a chat no longer open / over the bound that travels with a chat. */
    'memory.chat_changed',
    'memory.seed_too_large',
    /** A memory build (issue 37 §3): one is already going on for this chat / none to resume or stop / a chat with no messages / fewer messages than the build covers. */
    'memory.build_running',
    'memory.build_not_found',
    'memory.build_empty_chat',
    'memory.build_chat_changed',
    /** A chunk's run ended without workspace.finish, so it left no memory: the build stopped there, and a resume runs it again. */
    'memory.build_chunk_unfinished',
    /** A memory seed asked from a chat of this character (or group) that does not exist / carries no memory. */
    'memory.chat_not_found',
    'memory.no_memory',
    /** Another chat read for its memory is over the bytes read (contract/chat-markers.ts CHAT_READ_MAX_BYTES). */
    'memory.chat_too_large',
    /** A user's edit in the Memory view would make the chat's memory larger than travels with a chat. */
    'memory.too_large',
] as const;
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

/** Every code Tavern Agent uses: a code outside these lists does not typecheck where `fail` builds an error. */
export type ErrorCode = RecoverableCode | RuntimeFailureCode | WireErrorCode;
