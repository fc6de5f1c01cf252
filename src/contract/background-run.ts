/**
 * A run the page drives in the background (issue 34): a keeper after a reply. It never holds the tab's one
 * active run (the user's next Send starts at once), never puts SillyTavern in its generating state, and
 * SillyTavern's Stop button leaves it alone; the panel stops it by its id.
 */
export interface BackgroundRunInfo {
    runId: string;
    /** Its chat's run key (`chat_metadata.integrity`), as RunRecord.chatKey. */
    chatKey: string;
    phase: 'after';
    profileId: string;
    /** The turn it belongs to (the user message the reply answers), as RunRecord.turnId. */
    turnId: string | null;
    /** The chat message (index) of the reply it follows, when it was bound (none for a memory build's chunk). */
    follows?: number;
    /** As the worker last reported it (`preparing` until it does). */
    state: string;
    startedAt: number;
}
