import { t } from '../../i18n/t';
import type { CapabilityGroup } from './capability-groups';

/** What the capability matrix says of each group and each tool, in the user's language. */

export function groupLabel(group: CapabilityGroup): string {
    switch (group) {
        case 'context':
            return t`Context: the chat and its lore`;
        case 'workspace-read':
            return t`Workspace: read`;
        case 'workspace-write':
            return t`Workspace: write`;
        case 'control':
            return t`Control: commit, finish`;
        case 'skills':
            return t`Skills`;
        case 'agents':
            return t`Sub-agents`;
        case 'dice':
            return t`Dice`;
        case 'extensions':
            return t`Other extensions`;
    }
}

/**
 * A tool's one-line summary. Tools this version does not know yet (another extension's, one added later)
 * show the registry's own description, which is English.
 */
export function toolSummary(name: string, fallback: string): string {
    switch (name) {
        case 'chat.search':
            return t`Search this chat's messages`;
        case 'chat.read_messages':
            return t`Read chat messages in full`;
        case 'memory.search':
            return t`Search the chat's memory`;
        case 'worldinfo.read_activated':
            return t`Read the lore activated for this turn`;
        case 'worldinfo.search':
            return t`Search the lorebooks`;
        case 'worldinfo.read':
            return t`Read lorebook entries`;
        case 'worldinfo.propose':
            return t`Propose lorebook changes for you to accept`;
        case 'skill.list':
            return t`List the skills it may read`;
        case 'skill.search':
            return t`Search a skill's files`;
        case 'skill.read':
            return t`Read a skill's file`;
        case 'plan.update':
            return t`Keep a plan the user watches, as a checklist`;
        case 'state.scopes':
            return t`List the chat's state systems and their shape`;
        case 'state.get':
            return t`Read the chat's state (variables, MVU, Tracker)`;
        case 'state.patch':
            return t`Change the chat's state with patch operations`;
        case 'state.set':
            return t`Set one value of the chat's state`;
        case 'dice.roll':
            return t`Roll dice`;
        case 'workspace.list_files':
            return t`List workspace files`;
        case 'workspace.search_files':
            return t`Search workspace files`;
        case 'workspace.read_file':
            return t`Read a workspace file`;
        case 'workspace.write_file':
            return t`Write or append a workspace file`;
        case 'workspace.apply_patch':
            return t`Replace text in a workspace file`;
        case 'workspace.commit':
            return t`Put a file into the chat as the reply`;
        case 'workspace.finish':
            return t`End the run (and save its memory)`;
        case 'agent.list':
            return t`List the agents it may call`;
        case 'agent.delegate':
            return t`Start a sub-agent task`;
        case 'agent.await':
            return t`Wait for its sub-agents' results`;
        case 'task.return':
            return t`Return a sub-agent's result`;
        default:
            return fallback;
    }
}
