import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8'));

test('manifest points at files that exist and agrees with package.json', () => {
    const manifest = readJson('manifest.json');
    const pkg = readJson('package.json');
    assert.equal(manifest.display_name, 'Tavern Agent');
    assert.equal(manifest.version, pkg.version);
    assert.equal(manifest.js, 'dist/index.js');
    assert.equal(manifest.css, 'dist/style.css');
    for (const file of [manifest.js, manifest.css, 'dist/worker.js', ...Object.values<string>(manifest.i18n)]) {
        assert.ok(existsSync(path.join(root, file)), `${file} is missing`);
    }
    // English is the strings themselves: a locale file for it would only be an empty fetch that SillyTavern
    // awaits before it loads the extension's script, on every page load.
    assert.deepEqual(Object.keys(manifest.i18n).sort(), ['zh-cn']);
    assert.ok(manifest.loading_order >= 100, 'memory and vector extensions must intercept first');
    // 1.18.0 and 1.19 are both supported (the e2e suite runs on each: npm test / npm run test:st118).
    assert.equal(manifest.minimum_client_version, '1.18.0');
    assert.equal(manifest.generate_interceptor, 'tavernAgentGenerateInterceptor');
    assert.equal(pkg.devDependencies.sillytavern, '1.19.0', 'the e2e SillyTavern is pinned');
    assert.equal(pkg.devDependencies['sillytavern-1.18'], 'npm:sillytavern@1.18.0', 'the 1.18 pass is pinned too');
    assert.equal(pkg.scripts['test:st118'], 'node scripts/test-st118.mjs');
});

test('the interceptor name in the manifest is the one the bundle registers', () => {
    const manifest = readJson('manifest.json');
    const source = readFileSync(path.join(root, 'src/host/run/interceptor.ts'), 'utf8');
    assert.ok(source.includes(`'${manifest.generate_interceptor}'`));
});

function sourceFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? sourceFiles(full) : /\.tsx?$/.test(name) ? [full] : [];
    });
}

test('every translated string has a Simplified Chinese entry', () => {
    const zh = readJson('i18n/zh-cn.json');
    const keys = new Set<string>();
    const withValues: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(/\bt`([^`$]*)`/g)) keys.add(match[1]!);
        // A template with a value is looked up under SillyTavern's `${0}` key, which no entry here has: the value
        // goes outside the t`` (after a colon, in parentheses), or the sentence is never translated.
        for (const match of text.matchAll(/\bt`([^`]*\$\{[^`]*)`/g)) withValues.push(`${path.relative(root, file)}: ${match[1]}`);
        for (const match of text.matchAll(/data-i18n="(?:\[[a-z-]+\])?([^"]+)"/g)) keys.add(match[1]!);
    }
    assert.ok(keys.size > 5, 'the scan found the strings');
    assert.deepEqual(withValues, [], 'no t`` template holds a ${value}');
    const missing = [...keys].filter((key) => typeof zh[key] !== 'string' || zh[key].length === 0);
    assert.deepEqual(missing, []);
    const unused = Object.keys(zh).filter((key) => !keys.has(key));
    assert.deepEqual(unused, [], 'zh-cn.json holds no stale keys');
});
