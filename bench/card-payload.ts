// 17. Card payloads (issue 39 §1): opening the chat of a card that carries the largest skills payload allowed
// beside the chat of a card with none, in real SillyTavern and Chromium; and each payload parser's worst
// case at its cap, in Node (the card reader's worker runs the same code).
import { zipSync } from 'fflate';
import { openCharacter } from '../tests/harness/browser';
import { startTavernSession, waitForExtension } from '../tests/harness/tavern';
import { cardJson, importCard } from '../tests/fixtures/cards';
import { PAYLOAD_LIMITS, SKILL_LIMITS } from '../src/skills/limits';
import { parseSkillPayload } from '../src/skills/payload';
import { scanSkillPayload } from '../src/skills/payload-scan';
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const OPENS = 7;
const PARSE_REPEATS = 5;
/** Long tasks are summed over this long after each open, whatever the kind (the offer check ends well before). */
const WINDOW_MS = 8_000;

const skillMd = (name: string, extra = '') => `---\nname: ${name}\ndescription: A skill at the caps.\n${extra}---\n\nBody.\n`;

/** 64 skills, the cap, with text up to the payload's character cap: the largest payload a card may carry. */
function largestPayload(perSkill = Math.floor((PAYLOAD_LIMITS.maxPayloadChars - 64 * 200) / PAYLOAD_LIMITS.maxSkills)): unknown {
    return {
        version: 1,
        items: Array.from({ length: PAYLOAD_LIMITS.maxSkills }, (_, i) => ({
            bundleFormat: 'inline-files-v1',
            files: [
                { path: 'SKILL.md', encoding: 'utf8', content: skillMd(`cap-${i}`) },
                { path: 'references/text.md', encoding: 'utf8', content: `${'All work and no play. '.repeat(Math.ceil(perSkill / 22))}`.slice(0, perSkill) },
            ],
        })),
    };
}

/** The worst input each parser meets at its cap. */
function worstCases(): Array<{ label: string; payload: unknown }> {
    const front = (extra: string) => ({ version: 1, items: [{ bundleFormat: 'inline-files-v1', files: [{ path: 'SKILL.md', encoding: 'utf8', content: skillMd('front', extra) }] }] });
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)].join('\n');
    const keys = Array.from({ length: PAYLOAD_LIMITS.maxFrontMatterKeys - 2 }, (_, i) => `k${i}: ${'v'.repeat(200)}\n`).join('');
    const files: Record<string, Uint8Array> = { 'SKILL.md': new TextEncoder().encode(skillMd('many')) };
    for (let i = 0; i < SKILL_LIMITS.maxFiles - 1; i++) files[`f/${i}.md`] = new TextEncoder().encode(`File ${i} `.repeat(60));
    const zip = zipSync(files);
    return [
        { label: 'largest payload (64 skills, 32 MiB of text)', payload: largestPayload() },
        { label: `zip of ${SKILL_LIMITS.maxFiles.toLocaleString('en-US')} files, one skill`, payload: { version: 1, items: [{ bundleFormat: 'ttskill-archive-base64-v1', contentBase64: Buffer.from(zip).toString('base64') }] } },
        { label: 'front matter at 16 KiB and 64 keys', payload: front(keys.slice(0, PAYLOAD_LIMITS.maxFrontMatterBytes - 200)) },
        { label: 'YAML alias bomb (refused at 100)', payload: front(`${laughs}\n`) },
    ];
}

function time(fn: () => Promise<unknown>): Promise<number> {
    const started = performance.now();
    return fn().then(() => performance.now() - started);
}

export const cardPayload: Benchmark = {
    name: 'card-payload',
    title: '17 Card payloads',
    async run({ log }) {
        const parsers: Array<{ label: string; scanMs: number; parseMs: number }> = [];
        for (const { label, payload } of worstCases()) {
            const scan: number[] = [];
            const parse: number[] = [];
            for (let i = 0; i < PARSE_REPEATS; i++) {
                scan.push(await time(() => scanSkillPayload(payload)));
                parse.push(await time(() => parseSkillPayload(payload)));
            }
            parsers.push({ label, scanMs: median(scan), parseMs: median(parse) });
            log(`  ${label}: scan ${median(scan).toFixed(0)} ms, parse ${median(parse).toFixed(0)} ms`);
        }

        const session = await startTavernSession();
        try {
            const { page } = await session.open();
            await waitForExtension(page);
            const plain = await importCard(page, cardJson('Plain', null));
            const heavy = await importCard(page, cardJson('Heavy', largestPayload()));
            // The same 64 skills with a line of text each: what the offer's popup costs apart from the payload's size.
            const light = await importCard(page, cardJson('Light', largestPayload(100)));
            await page.evaluate(() => {
                const tasks: number[] = [];
                new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: 'longtask' });
                (globalThis as { benchLongTasks?: number[] }).benchLongTasks = tasks;
            });
            const samples: Record<'plain' | 'heavy' | 'light', number[]> = { plain: [], heavy: [], light: [] };
            const longTasks: Record<'plain' | 'heavy' | 'light', number[]> = { plain: [], heavy: [], light: [] };
            const offerMs: Record<'plain' | 'heavy' | 'light', number[]> = { plain: [], heavy: [], light: [] };
            for (let i = 0; i < OPENS; i++) {
                for (const [kind, avatar] of [['plain', plain], ['heavy', heavy], ['light', light]] as const) {
                    await openCharacter(page, 'default_Seraphina.png');
                    await page.waitForTimeout(300);
                    await page.evaluate(() => ((globalThis as { benchLongTasks?: number[] }).benchLongTasks!.length = 0));
                    const started = Date.now();
                    await openCharacter(page, avatar);
                    samples[kind].push(Date.now() - started);
                    // The offer check (scan in the card reader, then the popup) finishes after the chat is drawn.
                    await page.waitForFunction(() => Boolean(document.querySelector('.popup:has(.tavern-agent-skill-offer)')) || document.body.dataset.tavernAgentSkillOffersChecked === SillyTavern!.getContext().getCurrentChatId(), undefined, { timeout: 30_000 });
                    offerMs[kind].push(Date.now() - started);
                    // One window for every kind: SillyTavern's own prompt dry runs (the prompt manager's token
                    // counts) come a second or more after any open, so a window that ends with the offer check
                    // would count them for the slow check only.
                    await page.waitForTimeout(Math.max(0, WINDOW_MS - (Date.now() - started)));
                    longTasks[kind].push(await page.evaluate(() => (globalThis as { benchLongTasks?: number[] }).benchLongTasks!.reduce((sum, ms) => sum + ms, 0)));
                    await page.keyboard.press('Escape');
                }
            }
            const plainMs = median(samples.plain);
            const heavyMs = median(samples.heavy);
            const ratio = ratioOf(heavyMs, plainMs);
            log(`  chat open: no payload ${plainMs} ms, largest payload ${heavyMs} ms (${ratio?.toFixed(2)}×), 64 small skills ${median(samples.light)} ms; long tasks ${median(longTasks.plain)} / ${median(longTasks.heavy)} / ${median(longTasks.light)} ms; offer checked after ${median(offerMs.plain)} / ${median(offerMs.heavy)} / ${median(offerMs.light)} ms`);
            return {
                figures: [
                    {
                        id: 'card-payload.chat-open',
                        label: 'Chat open, card with the largest skills payload allowed (64 skills, 32 MiB)',
                        value: heavyMs,
                        unit: 'ms',
                        baseline: { label: 'the same with no payload', value: plainMs },
                        ratio,
                        target: '≤ 1.1×',
                        met: ratio === null ? null : ratio <= 1.1,
                    },
                    { id: 'card-payload.long-tasks.small', label: '… the same for 64 one-line skills (the popup of 64 skills without the payload\'s size), minus none', value: median(longTasks.light) - median(longTasks.plain), unit: 'ms' },
                    { id: 'card-payload.long-tasks', label: `… long-task time on the page in the ${WINDOW_MS / 1000} s after the open (median), largest payload minus none`, value: median(longTasks.heavy) - median(longTasks.plain), unit: 'ms', target: '≤ 100 ms', met: median(longTasks.heavy) - median(longTasks.plain) <= 100 },
                    ...parsers.map((parser, i) => ({ id: `card-payload.parser.${i}`, label: `${parser.label}: scan / full parse`, value: parser.parseMs, unit: 'ms', baseline: { label: 'scan', value: parser.scanMs } })),
                ],
                details: { samples, longTasks, offerMs, parsers },
                notes: [
                    `Chat open: SillyTavern's selectCharacterById until the greeting is drawn, ${OPENS} times each, alternating, from Seraphina's chat. Long tasks: the page's Long Tasks API over ${WINDOW_MS / 1000} s from each open (the offer check, popup included, ends within it), the same window for every kind. Parsers: Node, median of ${PARSE_REPEATS}, the same code the card reader's worker runs.`,
                ],
            };
        } finally {
            await session.close();
        }
    },
};
