import type { RunInput } from '../../contract/run-input';
import type { Profile } from '../../contract/profile';
import type { TaskSpec } from '../../tools/agent-access';
import { skillsOverview } from '../../tools/skill/overview';
import { phaseOf } from '../run/phase-run';

/**
 * The system message that opens every agent run, ahead of the prompt SillyTavern assembled. A reply agent is
 * told how to write and commit the reply; an agent before or after it (issue 34) only how to work: its phase's
 * task follows (run/phase-run.ts).
 */
export function agentInstructions(input: RunInput, profile: Profile, toolAliases: readonly string[]): string {
    const speaker = input.chat.characterName || 'the character';
    const steps =
        phaseOf(input) === 'reply'
            ? [
                  `You are running in Tavern Agent's Agent Mode inside SillyTavern. Your task: write ${speaker}'s next reply in this conversation.`,
                  'Work with tools, not in plain text. You have a private workspace (roots output/, scratch/, plan/, summaries/, persist/).',
                  '1. Gather what you need (the conversation below is your starting context).',
                  '2. Write the reply to output/main.md with workspace_write_file; read and revise it with workspace_read_file and workspace_apply_patch as needed.',
                  '3. Put it into the chat with workspace_commit (it commits output/main.md by default). Only committed text reaches the chat, and only once.',
                  '4. End with workspace_finish.',
              ]
            : [
                  `You are ${profile.displayName}, an agent of Tavern Agent inside SillyTavern, working on ${speaker}'s conversation. ${profile.description}`,
                  'Work with tools, not in plain text. You have a private workspace (roots output/, scratch/, plan/, summaries/, persist/); the conversation below is your starting context.',
              ];
    const lines = [
        ...steps,
        'persist/ is this chat\'s long-term memory: what you leave there is available to later runs.',
        'Never answer with plain text: it does not reach the chat.',
        `Tools available now: ${toolAliases.join(', ')}.`,
    ];
    if (input.skills.length > 0) lines.push('', skillsOverview(input.skills));
    if (profile.systemPrompt.trim()) lines.push('', profile.systemPrompt.trim());
    return lines.join('\n');
}

/** The system message of a sub-agent task: who it is, what it must do, how it reports back. */
export function taskInstructions(input: RunInput, profile: Profile, task: TaskSpec, toolAliases: readonly string[]): string {
    const lines = [
        `You are ${profile.displayName}, a sub-agent of Tavern Agent inside SillyTavern, working on one task for the agent writing ${input.chat.characterName || 'the character'}'s next reply.`,
        profile.description,
        'Work with tools. The conversation below is the chat as it was when the run started; you share the run\'s workspace within your folders.',
        'When the task is done (or cannot be done), call task_return once with a summary, your findings and any files you wrote (artifacts). That ends your task; plain text reaches no one.',
        `Tools available now: ${toolAliases.join(', ')}.`,
    ];
    // The sub-agent's own skills: resolved for its profile (agent-input.ts), not the caller's.
    if (input.skills.length > 0) lines.push('', skillsOverview(input.skills));
    if (profile.systemPrompt.trim()) lines.push('', profile.systemPrompt.trim());
    return lines.join('\n');
}

/** The task itself, as the sub-agent's last user message. */
export function taskMessage(task: TaskSpec): string {
    const parts = [`[Task] ${task.title ? `${task.title}: ` : ''}${task.objective}`];
    if (task.context && Object.keys(task.context).length > 0) parts.push(`Context: ${JSON.stringify(task.context)}`);
    if (task.expectedOutput && Object.keys(task.expectedOutput).length > 0) parts.push(`Expected output: ${JSON.stringify(task.expectedOutput)}`);
    return parts.join('\n');
}
