// Run: node --import tsx --test tests/unit/public-api-types.test.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createPublicApi } from '../../src/host/api/public-api';
import type { SkillsService } from '../../src/contract/skills-service';

const root = path.resolve(import.meta.dirname, '../..');

test('the shipped .d.ts declares every method of globalThis.TavernAgent, and package.json points at it', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { types?: string };
    assert.equal(pkg.types, 'types/tavern-agent.d.ts');
    const dts = readFileSync(path.join(root, pkg.types), 'utf8');
    const api = createPublicApi({} as SkillsService);
    const apiBlock = dts.slice(dts.indexOf('export interface TavernAgentApi'));
    for (const [name, value] of Object.entries(api)) {
        const declared = typeof value === 'function' ? new RegExp(`\\n\\s+${name}\\(`) : new RegExp(`\\n\\s+readonly ${name}:`);
        assert.match(apiBlock, declared, `${name} is declared in the .d.ts`);
    }
    for (const name of ['run', 'cancel', 'events', 'subscribe', 'files', 'readFile', 'runs', 'resume']) assert.equal(typeof (api as unknown as Record<string, unknown>)[name], 'function');
});
