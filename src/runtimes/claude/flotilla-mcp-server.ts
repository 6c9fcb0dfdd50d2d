/** The in-process MCP server's name: its tools reach the model as `mcp__<server>__<tool>`. */
export const FLOTILLA_MCP_SERVER = 'flotilla';
