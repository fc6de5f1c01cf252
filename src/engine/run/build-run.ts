import type { RunInput } from '../../contract/run-input';

type Build = NonNullable<RunInput['build']>;

/** Where a build chunk's scene summary goes: one file per chunk, numbered so the scenes list in order. */
export function sceneSummaryPath(build: Pick<Build, 'chunk'>): string {
    return `persist/scenes/${String(build.chunk).padStart(4, '0')}.md`;
}

/**
 * What the model is told about a chunk of a memory build (issue 37 §3), in place of a keeper's "after a reply":
 * which messages to summarise (they are the conversation's last user message), that the memory so far is what
 * persist/ holds, and that nothing it does changes the chat. A profile that may write persist/ keeps a scene
 * summary of the chunk and the memory blocks; any other (the lore keeper) works on the chunk as its profile says.
 */
export function buildInstructions(build: Build, keepsMemory: boolean): string {
    const range = `messages #${build.from} to #${build.to}`;
    const lines = [
        `This run is chunk ${build.chunk} of ${build.chunks} of a memory build over this chat's existing messages, oldest first: work on ${range} only (shown in the last message below). Earlier messages are summarised in persist/ already; read them with the chat tools only if you must. You cannot change the chat.`,
    ];
    if (keepsMemory) {
        lines.push(
            `Write a short scene summary of ${range} to ${sceneSummaryPath(build)}, starting with front matter "---\\ntitle: Scene ${build.chunk} (#${build.from}–#${build.to})\\npinned: false\\n---\\n" (who, where, what happened, what changed).`,
            'Then bring the memory blocks up to date with these messages as your profile says. What you leave in persist/ when you finish is the memory the next chunk starts from. End with workspace_finish.',
        );
    } else {
        lines.push('Work on these messages as your profile says, then end with workspace_finish.');
    }
    return lines.join('\n');
}

/** The chunk's messages as the model reads them: numbered, with their speakers, the last user message of the run's start. */
export function buildChunkMessage(input: Pick<RunInput, 'prefix'>, build: Build): string {
    const lines = input.prefix
        .filter((message) => message.index >= build.from && message.index <= build.to && !message.hidden)
        .map((message) => `#${message.index} ${message.name || message.role}: ${message.text}`);
    return [`[Messages #${build.from} to #${build.to} of the chat, to work on]`, '', ...lines].join('\n');
}
