import type { ToolDefinition } from '../tool';
import { stateGetTool } from './get';
import { statePatchTool, stateSetTool } from './patch';
import { stateScopesTool } from './scopes';

/** The state tools (issue 36): read the chat's state systems as they stood before the reply, stage changes. */
export const STATE_TOOLS: ToolDefinition[] = [stateScopesTool, stateGetTool, statePatchTool, stateSetTool];
