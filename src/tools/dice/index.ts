import type { ToolDefinition } from '../tool';
import { diceRollTool } from './roll';

/** The dice tools (SPEC §3). Off by default: only profiles that need randomness allow them. */
export const DICE_TOOLS: ToolDefinition[] = [diceRollTool];
