import * as z from 'zod';

/** What the worker answers to a health call: proof that it runs, its storage opened and zod is jitless. */
export const HealthReportSchema = z.object({
    ok: z.literal(true),
    engineVersion: z.string(),
    isModuleWorker: z.boolean(),
    zodJitless: z.boolean(),
    database: z.object({
        name: z.string(),
        version: z.number().int(),
        stores: z.array(z.string()),
    }),
});

export type HealthReport = z.infer<typeof HealthReportSchema>;

/** The engine as the main thread sees it through comlink. Every method returns data, never throws. */
export interface EngineApi {
    /** Opens the database of one SillyTavern user; idempotent for the same handle. */
    open(userHandle: string): Promise<import('./result').Result<HealthReport['database']>>;
    health(): Promise<import('./result').Result<HealthReport>>;
}
