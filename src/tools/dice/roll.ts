import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { aliasOf, defineTool, failure, success } from '../tool';
import { ACCEPTED_FORMS, MAX_DICE, MAX_MODIFIER, MAX_SIDES, MIN_SIDES, formatFormula, parseDiceFormula, type DiceFormula } from './formula';
import { randomInt, type RandomSource } from './random';

export interface DiceRoll extends DiceFormula {
    /** Canonical formula, e.g. "1d20" for the bare number "20". */
    formula: string;
    /** Every die in the order rolled, each from 1 to sides. */
    dice: number[];
    /** Sum of the dice plus the modifier. */
    total: number;
}

export function rollDice(formula: DiceFormula, source?: RandomSource): DiceRoll {
    const dice: number[] = [];
    for (let i = 0; i < formula.count; i++) dice.push(1 + randomInt(formula.sides, source));
    const total = dice.reduce((sum, die) => sum + die, 0) + formula.modifier;
    return { formula: formatFormula(formula), count: formula.count, sides: formula.sides, modifier: formula.modifier, dice, total };
}

/**
 * "Rolled 3d6+4: 2 + 5 + 6 + 4 = 17", "Rolled 2d10-1: 3 + 7 - 1 = 9", "Rolled 1d20: 14".
 * At most 100 dice of at most 7 digits, so the text stays around 1,000 characters.
 */
export function formatRoll(roll: DiceRoll): string {
    if (roll.dice.length === 1 && roll.modifier === 0) return `Rolled ${roll.formula}: ${roll.total}`;
    let sum = roll.dice.join(' + ');
    if (roll.modifier > 0) sum += ` + ${roll.modifier}`;
    else if (roll.modifier < 0) sum += ` - ${-roll.modifier}`;
    return `Rolled ${roll.formula}: ${sum} = ${roll.total}`;
}

const args = z.object({
    formula: z
        .string()
        .describe(
            `Dice to roll, without spaces: [N]dS[±M], e.g. ${ACCEPTED_FORMS}. N from 1 to ${MAX_DICE} (default 1), S from ${MIN_SIDES} to ${MAX_SIDES}, M from -${MAX_MODIFIER} to +${MAX_MODIFIER}.`,
        ),
});

export const diceRollTool = defineTool({
    name: 'dice.roll',
    alias: aliasOf('dice.roll'),
    description: [
        'Rolls dice with fair cryptographic randomness and returns every die and the total, e.g. "Rolled 3d6+4: 2 + 5 + 6 + 4 = 17".',
        `Formula: [N]dS[±M] or a bare number (${ACCEPTED_FORMS}).`,
        `Limits: 1–${MAX_DICE} dice, ${MIN_SIDES}–${MAX_SIDES} sides, modifier within ±${MAX_MODIFIER}.`,
        'One dice term per call: for 2d6+1d4 call twice and add. No keep/drop, rerolls or exploding dice.',
        'Use it whenever an outcome should be left to chance instead of deciding it yourself.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input) {
        const parsed = parseDiceFormula(input.formula);
        if (!parsed.ok) {
            return failure(
                toolError(
                    'dice.invalid_formula',
                    parsed.message,
                    `Use [N]dS[±M] without spaces: ${ACCEPTED_FORMS}; 1–${MAX_DICE} dice, ${MIN_SIDES}–${MAX_SIDES} sides, modifier within ±${MAX_MODIFIER}.`,
                ),
            );
        }
        const roll = rollDice(parsed);
        return success(formatRoll(roll), { ...roll });
    },
});
