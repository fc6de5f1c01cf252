// skill.list, skill.search and skill.read over skills parsed from a zip and cached in memory; the
// first-turn overview and the run's system message.
// Run: node --import tsx --test tests/unit/skills-tools.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WRITER_PROFILE } from '../../src/contract/profile';
import type { RunSkill, SkillBundle } from '../../src/contract/skills';
import { agentInstructions } from '../../src/engine/agents/instructions';
import { skillFileReader } from '../../src/engine/api/skills-api';
import { parseSkillSources } from '../../src/skills/parse-sources';
import { createMemorySkillCache } from '../../src/store/skill-cache';
import { ALL_TOOLS } from '../../src/tools/registry';
import { skillListTool } from '../../src/tools/skill/list';
import { skillsOverview } from '../../src/tools/skill/overview';
import { skillReadTool } from '../../src/tools/skill/read';
import { skillSearchTool } from '../../src/tools/skill/search';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import { sampleRunInput } from '../fixtures/run-input';
import { DICE_RULES, LORE_KEEPER, skillMd, source, zipOf } from '../fixtures/skills';
import { errorCode, resultText } from '../fixtures/tool-outcome';

const LONG_LINES = Array.from({ length: 300 }, (_, i) => `Line ${i + 1}: ${i === 149 ? 'the dragon sleeps under Northwatch' : 'quiet road and stone'}.`).join('\n');

function runSkill(bundle: SkillBundle): RunSkill {
    return { name: bundle.name, description: bundle.description, scope: 'global', hash: bundle.hash, files: bundle.files.map((f) => ({ path: f.path, bytes: f.bytes })) };
}

async function setup(opts: { perCall?: number; perRun?: number; hidden?: string[] } = {}) {
    const parsed = await parseSkillSources([
        source(
            'skills.zip',
            zipOf({
                ...LORE_KEEPER,
                'lore-keeper/references/long.md': LONG_LINES,
                'lore-keeper/assets/map.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]),
                ...DICE_RULES,
            }),
        ),
    ]);
    const bundles = parsed.map((p) => p.bundle!);
    const cache = createMemorySkillCache();
    await cache.put(bundles);
    const profile = { ...WRITER_PROFILE, skills: { ...WRITER_PROFILE.skills, maxReadCharsPerCall: opts.perCall ?? 20_000, maxReadCharsPerRun: opts.perRun ?? 80_000 } };
    const input = sampleRunInput({ profile, skills: bundles.map(runSkill), hiddenSkills: opts.hidden ?? [] });
    const context: ToolContext = { input, workspace: undefined as never, run: undefined as never, skills: { readFile: skillFileReader(cache), charsRead: 0 }, signal: new AbortController().signal };
    const call = (tool: ToolDefinition, raw: Record<string, unknown>): Promise<ToolOutcome> => tool.execute(tool.args.parse(raw), context);
    return { context, call, bundles };
}

const text = resultText;
const code = errorCode;

describe('skill.list', () => {
    it('lists names, descriptions and files of the visible skills', async () => {
        const { call } = await setup();
        const listed = text(await call(skillListTool, {}));
        assert.match(listed, /^2 skills visible/);
        assert.match(listed, /lore-keeper: Keeps the lore of the world straight\./);
        assert.match(listed, /references\/places\.md \(\d+ B\)/);
        assert.match(listed, /dice-rules: How to roll for actions\./);
        assert.ok(ALL_TOOLS.some((tool) => tool.name === 'skill.list'), 'registered');
    });
});

describe('skill.search', () => {
    it('finds lines case-insensitively with refs, line numbers and context', async () => {
        const { call, context } = await setup();
        const found = text(await call(skillSearchTool, { name: 'lore-keeper', query: 'silver HOLLOW', context_lines: 1 }));
        assert.match(found, /^1 hit for "silver HOLLOW" in skill "lore-keeper"/);
        assert.match(found, /references\/places\.md:3 score 1\.00 ref skills\/lore-keeper\/references\/places\.md#L2-L4/);
        assert.match(found, /3│The Silver Hollow lies east of the river\./);
        assert.ok(context.skills.charsRead > 0, 'snippets count against the budget');
    });

    it('finds Chinese text without spaces and narrows by path', async () => {
        const { call } = await setup();
        assert.match(text(await call(skillSearchTool, { name: 'lore-keeper', query: '河的东边', path: 'references' })), /places\.md:5 .*\n(.*\n)*.*5│城市在河的东边。/);
        assert.match(text(await call(skillSearchTool, { name: 'lore-keeper', query: 'dragon', path: 'skills/lore-keeper/references/long.md' })), /long\.md:150 /);
    });

    it('answers zero hits as a normal result', async () => {
        const { call } = await setup();
        assert.match(text(await call(skillSearchTool, { name: 'dice-rules', query: 'obsidian' })), /^No hits for "obsidian"/);
    });

    it('stops at the run budget with its code', async () => {
        const { call } = await setup({ perRun: 100 });
        text(await call(skillSearchTool, { name: 'lore-keeper', query: 'line', limit: 50 }));
        assert.equal(code(await call(skillSearchTool, { name: 'lore-keeper', query: 'line' })), 'skill.read_budget_exhausted');
    });
});

describe('skill.read', () => {
    it('reads SKILL.md by default with line numbers and a ref', async () => {
        const { call, context } = await setup();
        const read = text(await call(skillReadTool, { name: 'lore-keeper' }));
        assert.match(read, /^skills\/lore-keeper\/SKILL\.md — lines 1–\d+ of \d+ \(ref skills\/lore-keeper\/SKILL\.md#L1-L\d+\)/);
        assert.match(read, /\n2│name: lore-keeper\n/);
        assert.equal(context.skills.charsRead, LORE_KEEPER['lore-keeper/SKILL.md'].length);
    });

    it('reads a line range and a char range, and refuses them mixed', async () => {
        const { call } = await setup();
        const lines = text(await call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', start_line: 150, line_count: 2 }));
        assert.match(lines, /lines 150–151 of 300/);
        assert.match(lines, /150│Line 150: the dragon sleeps under Northwatch\./);
        assert.match(text(await call(skillReadTool, { name: 'lore-keeper', path: 'references/places.md', start_char: 10, max_chars: 6 })), /chars 10–15 of/);
        assert.equal(code(await call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', start_line: 2, start_char: 4 })), 'skill.mixed_range');
        assert.equal(code(await call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', start_line: 301 })), 'skill.invalid_range');
    });

    it('says how to continue a read cut by max_chars', async () => {
        const { call } = await setup();
        const read = text(await call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', max_chars: 500 }));
        assert.match(read, /To continue, call skill_read with name "lore-keeper", path "references\/long\.md" and start_line \d+\./);
    });

    it('tells hidden from missing skills, and missing from binary files', async () => {
        const { call } = await setup({ hidden: ['secret-plans'] });
        assert.equal(code(await call(skillReadTool, { name: 'secret-plans' })), 'skill.not_visible');
        assert.equal(code(await call(skillSearchTool, { name: 'secret-plans', query: 'x' })), 'skill.not_visible');
        assert.equal(code(await call(skillReadTool, { name: 'nobody' })), 'skill.not_found');
        const missing = await call(skillReadTool, { name: 'lore-keeper', path: 'places.md' });
        assert.equal(code(missing), 'skill.file_not_found');
        assert.match(!missing.ok ? missing.error.hint : '', /Did you mean "references\/places\.md"/);
        assert.equal(code(await call(skillReadTool, { name: 'lore-keeper', path: 'assets/map.png' })), 'skill.binary_file');
        // A search of a binary file by its path says so (issue 39 §10); a folder holding one skips it.
        assert.equal(code(await call(skillSearchTool, { name: 'lore-keeper', query: 'x', path: 'assets/map.png' })), 'skill.binary_file');
        assert.ok((await call(skillSearchTool, { name: 'lore-keeper', query: 'x', path: 'assets' })).ok);
    });

    it('enforces the per-call and per-run budgets with their code', async () => {
        const perCall = await setup({ perCall: 1000 });
        const over = await perCall.call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', max_chars: 5000 });
        assert.equal(code(over), 'skill.read_budget_exhausted');
        assert.match(!over.ok ? over.error.hint : '', /max_chars 1000 or less/);
        // Without max_chars the read is cut at the per-call budget instead.
        assert.match(text(await perCall.call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md' })), /stopped at the skill read budget/);

        const perRun = await setup({ perRun: 1500 });
        const first = text(await perRun.call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md' }));
        assert.match(first, /stopped at the skill read budget/);
        // What is left of the run's budget is read by chars, then nothing more is.
        assert.match(text(await perRun.call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', start_line: 100 })), /Skill read budget: 0 of 1500 characters left/);
        assert.equal(perRun.context.skills.charsRead, 1500);
        const spent = await perRun.call(skillReadTool, { name: 'lore-keeper', path: 'references/long.md', start_line: 200 });
        assert.equal(code(spent), 'skill.read_budget_exhausted');
        assert.match(!spent.ok ? spent.error.message : '', /used its skill read budget: 1500 of 1500/);
    });
});

describe('the first-turn overview', () => {
    it('lists names and descriptions only, bounded, with a pointer to skill_list', async () => {
        const { bundles } = await setup();
        const overview = skillsOverview(bundles.map(runSkill));
        assert.match(overview, /- lore-keeper: Keeps the lore of the world straight\./);
        assert.doesNotMatch(overview, /Silver Hollow/, 'no bodies');
        const many: RunSkill[] = Array.from({ length: 200 }, (_, i) => ({ name: `skill-${i}`, description: 'A fairly long description of what this skill does. '.repeat(3), scope: 'global', hash: 'h', files: [] }));
        const cut = skillsOverview(many, 2000);
        assert.ok(cut.length <= 2000, `${cut.length} chars`);
        assert.match(cut, /\[\d+ more skills not listed here: call skill_list to see them all\.\]$/);
        assert.equal(skillsOverview([]), '');
    });

    it('is in the run\'s system message when skills are visible, and absent when none are', async () => {
        const { bundles } = await setup();
        const withSkills = agentInstructions(sampleRunInput({ skills: bundles.map(runSkill) }), WRITER_PROFILE, ['skill_list']);
        assert.match(withSkills, /Skills: read-only instructions[\s\S]*- dice-rules: How to roll for actions\./);
        assert.doesNotMatch(agentInstructions(sampleRunInput(), WRITER_PROFILE, []), /Skills:/);
    });
});

describe('skill files parse from a lone SKILL.md too', () => {
    it('reads a skill imported as one file', async () => {
        const parsed = await parseSkillSources([source('SKILL.md', skillMd('solo', 'Alone.'))]);
        assert.equal(parsed[0]!.bundle?.files.length, 1);
    });
});
