/**
 * The dice formula grammar of `dice.roll` (SPEC §3, §8). Pure: no randomness, no tool plumbing.
 *
 *   formula  := dice | sides
 *   dice     := [count] ("d" | "D") sides [("+" | "-") modifier]
 *   count, sides, modifier := ASCII digits
 *
 * A bare number is one die with that many sides ("20" = 1d20). Surrounding whitespace is ignored;
 * whitespace inside is not. Limits: 1 ≤ count ≤ 100, 2 ≤ sides ≤ 1,000,000, |modifier| ≤ 1,000,000.
 * A one-sided die is refused: it always shows 1, so asking for it (or the bare number "1") is a slip,
 * never a real need for randomness, and saying so helps the model more than a "roll" that decides nothing.
 */

export const MAX_DICE = 100;
export const MIN_SIDES = 2;
export const MAX_SIDES = 1_000_000;
export const MAX_MODIFIER = 1_000_000;

/** The forms named in errors and in the tool description. */
export const ACCEPTED_FORMS = 'd6, 1d20, 3d6+4, 2d10-1, or a bare number like 20 (= 1d20)';

export interface DiceFormula {
    count: number;
    sides: number;
    modifier: number;
}

export type ParsedFormula = ({ ok: true } & DiceFormula) | { ok: false; message: string };

/** Longest piece of the model's text echoed back in a message, so results stay bounded. */
const MAX_ECHO_CHARS = 40;

const DICE = /^(\d*)d(\d+)(?:([+-])(\d+))?$/i;
const BARE = /^\d+$/;

function echo(text: string): string {
    return JSON.stringify(text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}…` : text);
}

/** A digit string for a message; a 400-digit count is shown cut, not as "Infinity". */
function shown(digits: string): string {
    return digits.length > 12 ? `${digits.slice(0, 12)}…` : digits;
}

/** Why a non-empty, space-free text is not a formula: the most specific reason that fits. */
function diagnose(text: string): string {
    const quoted = echo(text);
    if (/\d[.,]\d|[.,]\d|\d[.,]/.test(text)) return `${quoted} has a decimal number; counts, sides and modifiers are whole numbers.`;
    if (/^-\d+$/.test(text)) return `${quoted} is a negative number; a bare number means one die with that many sides.`;
    if (/d%/i.test(text)) return `${quoted} uses d%; write d100 instead.`;
    if (/\d(?:adv|dis)/i.test(text)) return `${quoted} asks for advantage or disadvantage; roll 1d20 twice and take the higher or lower.`;
    if (/^\d*d\d+(?:kh|kl|dh|dl|k|d|h|l|ro|r|x|!)/i.test(text)) {
        return `${quoted} keeps, drops, rerolls or explodes dice; only a plain [N]dS[±M] roll is supported.`;
    }
    if (/[^0-9d+-]/i.test(text)) return `${quoted} has characters a dice formula cannot contain (only digits, d, + and -).`;
    const terms = (text.match(/d/gi) ?? []).length;
    const signs = (text.match(/[+-]/g) ?? []).length;
    if (terms > 1 || signs > 1) return `${quoted} has more than one term; one dice term and at most one +/- modifier are allowed (roll separately and add).`;
    if (/^[+-]/.test(text)) return `${quoted} starts with a sign; the modifier goes after the dice, like 1d20+3.`;
    if (/[+-]$/.test(text)) return `${quoted} ends with a sign but no modifier after it.`;
    if (/^\d*d$/i.test(text)) return `${quoted} has no number of sides after the d.`;
    return `${quoted} is not a dice formula of the form [N]dS[±M].`;
}

export function parseDiceFormula(text: string): ParsedFormula {
    const trimmed = text.trim();
    if (trimmed === '') return { ok: false, message: 'The formula is empty.' };
    if (/\s/.test(trimmed)) return { ok: false, message: `${echo(trimmed)} has spaces inside; write it without spaces, like 3d6+4.` };

    let countDigits: string;
    let sidesDigits: string;
    let sign = '+';
    let modifierDigits = '0';
    const dice = DICE.exec(trimmed);
    if (dice) {
        countDigits = dice[1] || '1';
        sidesDigits = dice[2]!;
        if (dice[3] !== undefined) {
            sign = dice[3];
            modifierDigits = dice[4]!;
        }
    } else if (BARE.test(trimmed)) {
        countDigits = '1';
        sidesDigits = trimmed;
    } else {
        return { ok: false, message: diagnose(trimmed) };
    }

    const quoted = echo(trimmed);
    const count = Number(countDigits);
    const sides = Number(sidesDigits);
    const magnitude = Number(modifierDigits);
    if (count < 1) return { ok: false, message: `${quoted} rolls 0 dice; roll at least 1.` };
    if (count > MAX_DICE) return { ok: false, message: `${quoted} rolls ${shown(countDigits)} dice; at most ${MAX_DICE} dice a roll.` };
    if (sides < MIN_SIDES) {
        return { ok: false, message: `${quoted} asks for a ${shown(sidesDigits)}-sided die; a die needs at least ${MIN_SIDES} sides.` };
    }
    if (sides > MAX_SIDES) return { ok: false, message: `${quoted} asks for ${shown(sidesDigits)} sides; at most ${MAX_SIDES} sides a die.` };
    if (magnitude > MAX_MODIFIER) {
        return { ok: false, message: `${quoted} has modifier ${sign}${shown(modifierDigits)}; the modifier must be between -${MAX_MODIFIER} and +${MAX_MODIFIER}.` };
    }
    // "+0" and "-0" both mean no modifier; never a -0 in results.
    const modifier = magnitude === 0 ? 0 : sign === '-' ? -magnitude : magnitude;
    return { ok: true, count, sides, modifier };
}

/** The canonical spelling: always with the count, modifier only when non-zero ("1d20", "3d6+4", "2d10-1"). */
export function formatFormula({ count, sides, modifier }: DiceFormula): string {
    const tail = modifier > 0 ? `+${modifier}` : modifier < 0 ? `${modifier}` : '';
    return `${count}d${sides}${tail}`;
}
