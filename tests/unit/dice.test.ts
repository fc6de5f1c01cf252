// Unit tests of dice.roll: the formula parser, the unbiased random integers and the tool itself.
// Run: node --import tsx --test tests/unit/dice.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECOVERABLE_CODES } from '../../src/contract/errors';
import { formatFormula, parseDiceFormula, type ParsedFormula } from '../../src/tools/dice/formula';
import { DICE_TOOLS } from '../../src/tools/dice/index';
import { randomInt, type RandomSource } from '../../src/tools/dice/random';
import { diceRollTool, formatRoll, rollDice } from '../../src/tools/dice/roll';
import type { ToolContext, ToolOutcome } from '../../src/tools/tool';

/** dice.roll never looks at its context. */
const context = {} as ToolContext;
const call = (raw: Record<string, unknown>): Promise<ToolOutcome> => diceRollTool.execute(diceRollTool.args.parse(raw), context);

function parsed(text: string) {
    const result = parseDiceFormula(text);
    if (!result.ok) assert.fail(`expected ${JSON.stringify(text)} to parse, got: ${result.message}`);
    return { count: result.count, sides: result.sides, modifier: result.modifier };
}

function rejected(text: string): string {
    const result: ParsedFormula = parseDiceFormula(text);
    if (result.ok) assert.fail(`expected ${JSON.stringify(text)} to be rejected, got ${formatFormula(result)}`);
    return result.message;
}

/** Hands out the given 32-bit values in order and counts the draws. */
function scripted(values: number[]): RandomSource & { draws: number } {
    const source = Object.assign(
        (array: Uint32Array) => {
            const value = values[source.draws++];
            if (value === undefined) assert.fail('the scripted source ran out of values');
            array[0] = value;
            return array;
        },
        { draws: 0 },
    );
    return source;
}

/** A deterministic 32-bit generator (mulberry32) for reproducible statistics. */
function seeded(seed: number): RandomSource {
    let state = seed >>> 0;
    return (array) => {
        for (let i = 0; i < array.length; i++) {
            state = (state + 0x6d2b79f5) >>> 0;
            let t = state;
            t = Math.imul(t ^ (t >>> 15), t | 1);
            t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
            array[i] = (t ^ (t >>> 14)) >>> 0;
        }
        return array;
    };
}

const CHI_SQUARE_5DF_P001 = 20.515;

function d6Counts(rolls: number, source?: RandomSource): number[] {
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < rolls; i++) {
        const die = rollDice({ count: 1, sides: 6, modifier: 0 }, source).dice[0]!;
        assert.ok(die >= 1 && die <= 6, `die ${die} out of range`);
        counts[die - 1]! += 1;
    }
    return counts;
}

function chiSquare(counts: number[], expected: number): number {
    return counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
}

describe('parseDiceFormula', () => {
    it('accepts the documented forms', () => {
        assert.deepEqual(parsed('d6'), { count: 1, sides: 6, modifier: 0 });
        assert.deepEqual(parsed('1d20'), { count: 1, sides: 20, modifier: 0 });
        assert.deepEqual(parsed('3d6+4'), { count: 3, sides: 6, modifier: 4 });
        assert.deepEqual(parsed('2d10-1'), { count: 2, sides: 10, modifier: -1 });
        assert.deepEqual(parsed('20'), { count: 1, sides: 20, modifier: 0 });
    });

    it('trims surrounding whitespace and takes D in any case', () => {
        assert.deepEqual(parsed('  3D6+4\n'), { count: 3, sides: 6, modifier: 4 });
        assert.deepEqual(parsed('\tD8'), { count: 1, sides: 8, modifier: 0 });
        assert.deepEqual(parsed(' 20 '), { count: 1, sides: 20, modifier: 0 });
    });

    it('treats +0 and -0 as no modifier (never -0)', () => {
        assert.ok(Object.is(parsed('1d20-0').modifier, 0));
        assert.ok(Object.is(parsed('1d20+0').modifier, 0));
        assert.equal(formatFormula(parsed('1d20-0')), '1d20');
    });

    it('takes every limit at its edge and refuses one past it', () => {
        assert.equal(parsed('1d6').count, 1);
        assert.match(rejected('0d6'), /0 dice/);
        assert.equal(parsed('100d6').count, 100);
        assert.match(rejected('101d6'), /101 dice; at most 100/);

        assert.equal(parsed('d2').sides, 2);
        assert.match(rejected('d1'), /1-sided die; a die needs at least 2 sides/);
        assert.match(rejected('d0'), /0-sided die/);
        assert.equal(parsed('d1000000').sides, 1_000_000);
        assert.match(rejected('d1000001'), /1000001 sides; at most 1000000/);

        assert.equal(parsed('2').sides, 2);
        assert.match(rejected('1'), /at least 2 sides/);
        assert.match(rejected('0'), /at least 2 sides/);
        assert.equal(parsed('1000000').sides, 1_000_000);
        assert.match(rejected('1000001'), /at most 1000000 sides/);

        assert.equal(parsed('1d6+1000000').modifier, 1_000_000);
        assert.match(rejected('1d6+1000001'), /modifier \+1000001; the modifier must be between/);
        assert.equal(parsed('1d6-1000000').modifier, -1_000_000);
        assert.match(rejected('1d6-1000001'), /modifier -1000001/);

        assert.deepEqual(parsed('100d1000000+1000000'), { count: 100, sides: 1_000_000, modifier: 1_000_000 });
    });

    it('refuses everything else with a message naming the problem', () => {
        assert.match(rejected(''), /empty/);
        assert.match(rejected('   '), /empty/);
        assert.match(rejected('3d6 + 4'), /spaces inside/);
        assert.match(rejected('3 d6'), /spaces inside/);
        assert.match(rejected('2d6+1d4'), /more than one term/);
        assert.match(rejected('1d20+2+3'), /more than one term/);
        assert.match(rejected('4d6kh3'), /keeps, drops, rerolls or explodes/);
        assert.match(rejected('4d6dl1'), /keeps, drops, rerolls or explodes/);
        assert.match(rejected('2d20k1'), /keeps, drops, rerolls or explodes/);
        assert.match(rejected('3d6!'), /keeps, drops, rerolls or explodes/);
        assert.match(rejected('1.5d6'), /decimal/);
        assert.match(rejected('d6.5'), /decimal/);
        assert.match(rejected('2.5'), /decimal/);
        assert.match(rejected('1d6+0.5'), /decimal/);
        assert.match(rejected('-5'), /negative/);
        assert.match(rejected('+3'), /starts with a sign/);
        assert.match(rejected('3d6+'), /ends with a sign/);
        assert.match(rejected('3d'), /no number of sides/);
        assert.match(rejected('d'), /no number of sides/);
        assert.match(rejected('d%'), /d100/);
        assert.match(rejected('roll a d20'), /spaces inside/);
        assert.match(rejected('d20adv'), /advantage/);
        assert.match(rejected('1d20dis'), /advantage or disadvantage/);
        assert.match(rejected('1d20a'), /characters a dice formula cannot contain/);
        assert.match(rejected('1e3'), /characters a dice formula cannot contain/);
        assert.match(rejected('３d6'), /characters a dice formula cannot contain/);
    });

    it('keeps messages short for absurd input', () => {
        const long = `${'9'.repeat(500)}d6`;
        const message = rejected(long);
        assert.match(message, /dice; at most 100/);
        assert.ok(message.length < 200, message);
        assert.ok(!message.includes('Infinity'));
        assert.ok(rejected('x'.repeat(10_000)).length < 200);
    });
});

describe('randomInt', () => {
    it('uses a value below the rejection zone as is (modulo the range)', () => {
        const source = scripted([7]);
        assert.equal(randomInt(6, source), 1);
        assert.equal(source.draws, 1);
    });

    it('draws again for values in the biased zone', () => {
        // 2^32 = 6 · 715827882 + 4: the top 4 values would favour faces 0–3, so they are redrawn.
        const limit = 2 ** 32 - 4;
        const source = scripted([2 ** 32 - 1, limit, limit + 2, limit - 1]);
        assert.equal(randomInt(6, source), (limit - 1) % 6);
        assert.equal(source.draws, 4);

        // A range of 3 · 2^30 leaves a zone of a quarter of all values.
        const big = 3 * 2 ** 30;
        const bigSource = scripted([big, 2 ** 32 - 1, big - 1]);
        assert.equal(randomInt(big, bigSource), big - 1);
        assert.equal(bigSource.draws, 3);
    });

    it('never returns a value out of range, even at the edges of the 32-bit space', () => {
        const edges = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2, 2 ** 32 - 1];
        for (const max of [1, 2, 3, 6, 7, 20, 100, 1_000_000, 2 ** 31 - 1, 2 ** 31 + 1, 2 ** 32 - 1, 2 ** 32]) {
            for (const first of edges) {
                // Whatever the first value, a later 0 ends the redraws.
                const value = randomInt(max, scripted([first, first, 0]));
                assert.ok(Number.isInteger(value) && value >= 0 && value < max, `randomInt(${max}) gave ${value}`);
            }
            for (let i = 0; i < 200; i++) {
                const value = randomInt(max);
                assert.ok(Number.isInteger(value) && value >= 0 && value < max, `randomInt(${max}) gave ${value}`);
            }
        }
    });

    it('refuses a bad range and a source that never leaves the rejection zone', () => {
        for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 32 + 1, Number.POSITIVE_INFINITY]) {
            assert.throws(() => randomInt(bad), RangeError);
        }
        assert.throws(() => randomInt(6, (array) => array.fill(2 ** 32 - 1)), /source is broken/);
    });

    it('uses crypto.getRandomValues by default (bound, so it works in browsers and workers)', () => {
        const seen = new Set<number>();
        for (let i = 0; i < 200; i++) seen.add(randomInt(2 ** 32));
        assert.ok(seen.size > 190, 'the default source repeats itself');
    });
});

describe('rolls are fair', () => {
    it('60,000 rolls of 1d6 are uniform (crypto source)', () => {
        // Chi-square at p = 0.001 fails a fair die once in a thousand runs; a broken die (a missing or
        // doubled face, an off-by-one) fails every time, so one redraw keeps the test honest but not flaky.
        let counts = d6Counts(60_000);
        if (chiSquare(counts, 10_000) >= CHI_SQUARE_5DF_P001) counts = d6Counts(60_000);
        assert.ok(chiSquare(counts, 10_000) < CHI_SQUARE_5DF_P001, `chi-square ${chiSquare(counts, 10_000).toFixed(2)} for ${counts.join(', ')}`);
        for (const count of counts) assert.ok(Math.abs(count - 10_000) <= 500, `face count ${count} is not within 5% of 10,000 (${counts.join(', ')})`);
    });

    it('60,000 rolls of 1d6 are uniform (seeded source, reproducible)', () => {
        const counts = d6Counts(60_000, seeded(20_240_601));
        assert.ok(chiSquare(counts, 10_000) < CHI_SQUARE_5DF_P001, `chi-square ${chiSquare(counts, 10_000).toFixed(2)} for ${counts.join(', ')}`);
        for (const count of counts) assert.ok(Math.abs(count - 10_000) <= 500, `face count ${count} (${counts.join(', ')})`);
    });

    it('3d6+4 totals always lie in 7–22 and reach both ends', () => {
        const formula = parsed('3d6+4');
        const seen = new Set<number>();
        for (let i = 0; i < 10_000; i++) {
            const roll = rollDice(formula);
            assert.equal(roll.dice.length, 3);
            assert.equal(roll.total, roll.dice[0]! + roll.dice[1]! + roll.dice[2]! + 4);
            assert.ok(roll.total >= 7 && roll.total <= 22, `total ${roll.total}`);
            seen.add(roll.total);
        }
        // Each end has probability 1/216 a roll: missing one in 10,000 rolls happens about e^-46 of the time.
        assert.ok(seen.has(7) && seen.has(22), `totals seen: ${[...seen].sort((a, b) => a - b).join(', ')}`);
    });
});

describe('dice.roll tool', () => {
    it('is a read-only tool named dice.roll / dice_roll, in DICE_TOOLS, and its code is recoverable', () => {
        assert.deepEqual(DICE_TOOLS, [diceRollTool]);
        assert.equal(diceRollTool.name, 'dice.roll');
        assert.equal(diceRollTool.alias, 'dice_roll');
        assert.equal(diceRollTool.readOnly, true);
        assert.ok((RECOVERABLE_CODES as readonly string[]).includes('dice.invalid_formula'));
    });

    it('formats the result as every die, the modifier and the total', () => {
        // Values 1, 4, 5 → dice 2, 5, 6.
        const roll = rollDice(parsed('3d6+4'), scripted([1, 4, 5]));
        assert.deepEqual(roll, { formula: '3d6+4', count: 3, sides: 6, modifier: 4, dice: [2, 5, 6], total: 17 });
        assert.equal(formatRoll(roll), 'Rolled 3d6+4: 2 + 5 + 6 + 4 = 17');
        assert.equal(formatRoll(rollDice(parsed('2d10-1'), scripted([2, 6]))), 'Rolled 2d10-1: 3 + 7 - 1 = 9');
        assert.equal(formatRoll(rollDice(parsed('20'), scripted([13]))), 'Rolled 1d20: 14');
        assert.equal(formatRoll(rollDice(parsed('d4-1'), scripted([0]))), 'Rolled 1d4-1: 1 - 1 = 0');
        assert.equal(formatRoll(rollDice(parsed('2d6'), scripted([0, 5]))), 'Rolled 2d6: 1 + 6 = 7');
    });

    it('returns text and details whose total equals the dice plus the modifier', async () => {
        for (const formula of ['3d6+4', '2d10-1', 'd20', '20', ' 4D8+0 ', '100d1000000-1000000']) {
            const outcome = await call({ formula });
            if (!outcome.ok) assert.fail(`${formula}: ${outcome.error.message}`);
            const { content, details } = outcome.result;
            const d = details as { count: number; sides: number; modifier: number; dice: number[]; total: number; formula: string };
            assert.equal(d.dice.length, d.count);
            for (const die of d.dice) assert.ok(Number.isInteger(die) && die >= 1 && die <= d.sides);
            assert.equal(d.total, d.dice.reduce((a, b) => a + b, 0) + d.modifier);
            assert.ok(content.startsWith(`Rolled ${d.formula}: `), content);
            assert.ok(content.endsWith(`${d.total}`), content);
            assert.ok(content.length < 1_000, `${content.length} chars`);
            if (d.count > 1 || d.modifier !== 0) {
                const [sum, total] = content.slice(content.indexOf(': ') + 2).split(' = ');
                assert.equal(Number(total), d.total);
                // The written sum adds up to the total.
                const terms = sum!.split(' ');
                let value = Number(terms[0]);
                for (let i = 1; i < terms.length; i += 2) value += (terms[i] === '-' ? -1 : 1) * Number(terms[i + 1]);
                assert.equal(value, d.total);
            }
        }
        const outcome = await call({ formula: '3d6+4' });
        assert.ok(outcome.ok);
        assert.match(outcome.result.content, /^Rolled 3d6\+4: [1-6] \+ [1-6] \+ [1-6] \+ 4 = (\d+)$/);
    });

    it('refuses a bad formula with dice.invalid_formula and a hint with the accepted forms', async () => {
        for (const formula of ['', '3d6 + 4', '2d6+1d4', '4d6kh3', '0d6', '101d6', 'd1', 'd1000001', '1d6+1000001', '1.5d6']) {
            const outcome = await call({ formula });
            if (outcome.ok) assert.fail(`${JSON.stringify(formula)} rolled: ${outcome.result.content}`);
            assert.equal(outcome.error.code, 'dice.invalid_formula');
            assert.equal(outcome.error.message, rejected(formula));
            assert.match(outcome.error.hint, /d6, 1d20, 3d6\+4, 2d10-1/);
            assert.match(outcome.error.hint, /1–100 dice, 2–1000000 sides/);
        }
    });

    it('leaves the argument type to the schema: a non-string formula is an argument error', () => {
        assert.equal(diceRollTool.args.safeParse({ formula: 20 }).success, false);
        assert.equal(diceRollTool.args.safeParse({}).success, false);
    });
});
