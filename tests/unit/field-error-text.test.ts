import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { parseProfile } from '../../src/contract/profile-migrations';
import { fieldErrorText } from '../../src/ui/profiles/field-error-text';

function errorsFor(change: (raw: Record<string, any>) => void): string[] {
    const raw = structuredClone(WRITER_PROFILE) as Record<string, any>; // a profile as stored: plain JSON to break on purpose
    change(raw);
    const parsed = parseProfile(raw);
    assert.equal(parsed.ok, false);
    return parsed.ok ? [] : parsed.errors.map(fieldErrorText);
}

test('field errors say what is allowed, in words', () => {
    assert.deepEqual(errorsFor((raw) => (raw.tools.maxRounds = 0)), ['The smallest value allowed is 1.']);
    assert.deepEqual(errorsFor((raw) => (raw.tools.maxRounds = 2.5)), ['Enter a whole number.']);
    assert.deepEqual(errorsFor((raw) => (raw.maxToolReminders = 11)), ['The largest value allowed is 10.']);
    assert.deepEqual(errorsFor((raw) => (raw.displayName = '')), ['This field cannot be empty.']);
});
