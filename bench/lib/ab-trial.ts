// A trial aid, not a figure: `node [--require ./bench/lib/no-devtools-network.cjs] --import tsx bench/lib/ab-trial.ts <variants.ts> [turns]`
// runs Agent Mode turns of 20 one-call rounds in one page with the panel open, the variants in turn (each a
// name, CSS switched on for its turns and a script run in the page before each of them), and prints the median
// round (the gap between consecutive model requests at the mock) of each. One page and variants taken in turn
// keep the machine's drift out of the comparison, which separate bench runs (±5 ms a round between runs) do not.
// variants.ts exports `variants: TrialVariant[]`; bench/trials/open-panel-floor.ts (the default) measures the open
// panel against the floor of showing each step (docs/performance.md §25).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { agentOn, call, calls } from '../../tests/harness/agent';
import { closePanel, openAgentPage, openPanel, sendAndWait } from './agent-page';
import { Shared } from './shared';
import { median } from './stats';
import { newChat } from './tavern';

const ROUNDS = 20;

export interface TrialVariant {
    name: string;
    /** Switched on for this variant's turns only. */
    css?: string;
    /** Run in the page before each of this variant's turns. */
    script?: string;
    /** Run in the page after each of this variant's turns, to leave the page as it was. */
    undo?: string;
    /** The panel closed for this variant's turns (it is open otherwise). */
    closed?: boolean;
    /** `script` and `undo` from files, relative to the variants file. */
    scriptFile?: string;
    undoFile?: string;
}

async function readVariants(file: string): Promise<TrialVariant[]> {
    const { variants } = (await import(pathToFileURL(path.resolve(file)).href)) as { variants: TrialVariant[] };
    const read = (name: string | undefined) => (name ? fs.readFileSync(path.resolve(path.dirname(file), name), 'utf8') : undefined);
    return variants.map((v) => ({ ...v, script: v.script ?? read(v.scriptFile), undo: v.undo ?? read(v.undoFile) }));
}

async function main(): Promise<void> {
    const variants = await readVariants(process.argv[2] ?? 'bench/trials/open-panel-floor.ts');
    const turns = Number(process.argv[3] ?? 8);
    const shared = new Shared();
    try {
        const tavern = await shared.tavern();
        const { page, close } = await openAgentPage(tavern);
        await page.evaluate(() => {
            const style = document.createElement('style');
            style.id = 'bench-trial-css';
            document.head.append(style);
        });
        const commitTurn = calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }), call('workspace_commit', {}), call('workspace_finish', {}));
        const gaps = variants.map(() => [] as number[]);
        const turnMedians = variants.map(() => [] as number[]);
        // One warm-up turn, then the variants in turn.
        for (let i = -1; i < turns * variants.length; i++) {
            const v = Math.max(0, i) % variants.length;
            const variant = variants[v]!;
            await newChat(page);
            await agentOn(page);
            if (variant.closed) await closePanel(page);
            else await openPanel(page);
            await page.evaluate((text) => {
                document.getElementById('bench-trial-css')!.textContent = text;
            }, variant.css ?? '');
            if (variant.script) await page.evaluate(variant.script);
            await page.waitForTimeout(150);
            tavern.mock.reset();
            tavern.mock.enqueue(...Array.from({ length: ROUNDS }, () => calls(call('workspace_list_files', {}))), commitTurn);
            await sendAndWait(page, 'Tell me about the forest.');
            if (variant.undo) await page.evaluate(variant.undo);
            await page.evaluate(() => {
                document.getElementById('bench-trial-css')!.textContent = '';
            });
            if (i < 0) continue;
            const at = tavern.mock
                .requests()
                .filter((r) => r.kind === 'generate')
                .map((r) => r.at);
            const turnGaps = at.slice(1, ROUNDS + 1).map((t, k) => t - at[k]!);
            gaps[v]!.push(...turnGaps);
            turnMedians[v]!.push(median(turnGaps));
        }
        variants.forEach((variant, v) => {
            console.log(`${variant.name}: round ${median(gaps[v]!).toFixed(1)} ms (median of ${gaps[v]!.length} rounds); turns' medians ${turnMedians[v]!.map((m) => m.toFixed(1)).join(', ')}`);
        });
        await close();
    } finally {
        await shared.close();
    }
}

await main();
