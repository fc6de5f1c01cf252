import type { ToolDefinition } from '../tool';
import { agentAwaitTool } from './await';
import { agentDelegateTool } from './delegate';
import { agentListTool } from './list';
import { taskReturnTool } from './task-return';

export const AGENT_TOOLS: readonly ToolDefinition[] = [agentListTool, agentDelegateTool, agentAwaitTool, taskReturnTool];
