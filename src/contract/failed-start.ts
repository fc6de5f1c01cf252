import * as z from 'zod';
import { GenerationTypeSchema, RunPhaseSchema } from './run-input';

/**
 * A run that failed before it started (issue 39 §10): its profile was invalid, its connection missing, its
 * input could not be captured, or the engine refused it. The page asks the engine to keep it as a failed run,
 * so the timeline and History show it (and its reason) as they show any other, not only a toast.
 */
export const FailedStartSchema = z.object({
    runId: z.string().min(1).max(200),
    chatId: z.string().min(1).max(4000),
    /** The chat's key (`chat_metadata.integrity`), as every run of the chat is listed by. */
    chatKey: z.string().min(1).max(4000),
    /** The profile it was to run with, as the page named it (it may be the one that is invalid or missing). */
    profileId: z.string().max(200),
    generationType: GenerationTypeSchema,
    phase: RunPhaseSchema.optional(),
    turnId: z.string().max(200).optional(),
    foreground: z.boolean(),
    error: z.object({ code: z.string().min(1).max(200), message: z.string().max(4000) }),
});
export type FailedStart = z.infer<typeof FailedStartSchema>;
