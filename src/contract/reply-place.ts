/**
 * Where a run's reply is in its chat now (the panel's History says it, so "Go to the message" never jumps
 * silently to a message another reply took over):
 * - `shown`: the message shows it (its current swipe);
 * - `swiped`: the message keeps it as another swipe (`swipe`, 0-based), not the one shown;
 * - `replaced`: its message now holds another reply (a regenerate), of run `byRunId` or not an agent's (null);
 * - `gone`: deleted, or the chat is not the run's.
 */
export type ReplyPlace =
    | { state: 'shown'; index: number }
    | { state: 'swiped'; index: number; swipe: number }
    | { state: 'replaced'; index: number; byRunId: string | null }
    | { state: 'gone' };
