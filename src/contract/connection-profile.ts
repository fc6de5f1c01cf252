import * as z from 'zod';

/** A SillyTavern Connection Manager profile, as far as Tavern Agent needs it (the host reads them, the panel lists them). */
export interface ConnectionProfile {
    id: string;
    name: string;
    api: string;
    model: string;
    /** How agents on this connection call tools (SPEC §9); filled by the host. */
    protocol?: 'tool-calls' | 'text' | 'none';
}

/** The page's list of them as the worker takes it (prepareRun): checked and bounded like any input from the page. */
export const ConnectionProfileListSchema = z
    .array(
        z.object({
            id: z.string().max(1000),
            name: z.string().max(1000),
            api: z.string().max(200),
            model: z.string().max(1000),
            protocol: z.enum(['tool-calls', 'text', 'none']).optional(),
        }),
    )
    .max(10_000);
