/** The approval commands' names: main dispatches on them before it loads their code. */
export const APPROVAL_COMMANDS: ReadonlySet<string> = new Set(['approvals', 'approve', 'deny', 'answer']);
