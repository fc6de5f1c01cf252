import type { ToolDefinition } from '../tool';
import { planUpdateTool } from './update';

/** The plan tools (issue 38 §4). */
export const PLAN_TOOLS: ToolDefinition[] = [planUpdateTool];
