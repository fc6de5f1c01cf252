// Run: node --import tsx --test tests/unit/lazy-public-api.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLazyPublicApi } from '../../src/host/api/lazy-public-api';
import { createPublicApi, type TavernAgentApi } from '../../src/host/api/public-api';
import type { SkillsService } from '../../src/contract/skills-service';
import { DEFAULT_PIPELINE } from '../../src/contract/agent-mode';

const idle = { enabled: false, chatId: null, profileId: 'writer', pipeline: DEFAULT_PIPELINE, run: null };

/** A loaded API whose every method records its call and answers with its own name. */
function recordingApi(calls: string[]): TavernAgentApi {
    const real = createPublicApi({} as SkillsService);
    const record = (name: string) => (...args: unknown[]) => {
        calls.push(`${name}(${JSON.stringify(args)})`);
        return name === 'subscribe' ? () => calls.push('unsubscribed') : Promise.resolve(name);
    };
    const api = Object.fromEntries(Object.entries(real).map(([name, value]) => [name, typeof value === 'function' ? record(name) : value]));
    api.skills = Object.fromEntries(Object.keys(real.skills).map((name) => [name, record(`skills.${name}`)]));
    api.pipeline = { get: record('pipeline.get'), set: record('pipeline.set') };
    return api as unknown as TavernAgentApi;
}

test('the startup stand-in has exactly the members of the full API, and the same skills methods', () => {
    const lazy = createLazyPublicApi(() => Promise.reject(new Error('not loaded')), () => idle);
    const real = createPublicApi({} as SkillsService);
    assert.deepEqual(Object.keys(lazy).sort(), Object.keys(real).sort());
    assert.deepEqual(Object.keys(lazy.skills).sort(), Object.keys(real.skills).sort());
    assert.deepEqual(Object.keys(lazy.pipeline).sort(), Object.keys(real.pipeline).sort());
    assert.equal(lazy.version, real.version);
});

test('each call loads the runtime once and is handed over with its arguments; status stays synchronous', async () => {
    const calls: string[] = [];
    let loads = 0;
    const loaded = recordingApi(calls);
    const lazy = createLazyPublicApi(async () => (loads += 1, loaded), () => idle);
    assert.deepEqual(lazy.status(), idle);
    assert.equal(await lazy.run({ prompt: 'hi' }), 'run');
    assert.equal(await lazy.readFile('r1', 'output/draft.md'), 'readFile');
    assert.equal(await lazy.skills.delete('x', { scope: 'global' }), 'skills.delete');
    assert.equal(await lazy.pipeline.set({ reply: 'sillytavern' }), 'pipeline.set');
    assert.deepEqual(calls, ['run([{"prompt":"hi"}])', 'readFile(["r1","output/draft.md"])', 'skills.delete(["x",{"scope":"global"}])', 'pipeline.set([{"reply":"sillytavern"}])']);
    assert.equal(loads, 4); // the loader memoises in src/index.ts; the stand-in asks it each time
});

test('subscribe returns at once; unsubscribing before the runtime is there cancels the subscription', async () => {
    const calls: string[] = [];
    let release!: (api: TavernAgentApi) => void;
    const lazy = createLazyPublicApi(() => new Promise((resolve) => (release = resolve)), () => idle);
    const off = lazy.subscribe('r1', () => undefined);
    off();
    release(recordingApi(calls));
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.deepEqual(calls, []);
    assert.throws(() => lazy.subscribe('r1', 'nope' as never), /run\.invalid_input/);
});

test('a subscription made before the runtime loads is handed over and can be closed later', async () => {
    const calls: string[] = [];
    const lazy = createLazyPublicApi(async () => recordingApi(calls), () => idle);
    const off = lazy.subscribe('r1', () => undefined, { fromSeq: 3 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    off();
    assert.equal(calls.length, 2);
    assert.match(calls[0]!, /^subscribe\(\["r1",null,\{"fromSeq":3\}\]\)$/);
    assert.equal(calls[1], 'unsubscribed');
});
